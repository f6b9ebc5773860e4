"""Agent strength: head-to-head win shares and a Bradley–Terry / Elo ladder over line-up cells.

Every 2-player cell whose two agents differ is one head-to-head pairing. With ``pair_seats`` the
deal (both seat orders of one shuffle) is the statistical unit, otherwise the game.

* :attr:`StrengthAnalysis.pairs`: per pairing (pooled over cells and runs with the same two
  agents), the win share of the agent that is higher on the ladder order (ties count as half
  wins) with a 95% interval: Wilson with the design effect of the units (``clustered_wilson``).
* :attr:`StrengthAnalysis.ratings`: a Bradley–Terry fit, ``P(a beats b) = 1 / (1 + exp(-(s_a -
  s_b)))``, as a binomial GLM (statsmodels, logit link, no intercept) on ±1 design rows, one row per
  unit with the unit's win share of agent a as response (ties = half wins) and its game count as
  variance weight; the anchor agent is fixed at 0. Covariance: sandwich (HC0) over units, which
  honours the dependence of the games within a deal. Elo = 400 / ln(10) × s, with 95% intervals
  relative to the anchor.
* :attr:`StrengthAnalysis.gains`: Elo gain from each MCTS rung to the next (by iterations), with
  its 95% interval from the fit's covariance; :attr:`StrengthAnalysis.saturation` names the first
  rung whose next rung is not significantly stronger (interval reaching 0).

If the results leave the maximum-likelihood fit undefined (some group of agents never lost, or
never won, against the rest: the "beat or tied" graph is not strongly connected), one virtual tied
unit is added to every pairing (a weak prior towards equal strength) and a note says so.

>>> st = analyse_strength("runs/alhambra-strength", "runs/alhambra-strength-3000")  # doctest: +SKIP
>>> st.ratings  # doctest: +SKIP

The Elo figure and ``balancelab strength``'s files are drawn and written by the renderer,
:func:`analysis.report.write_strength`.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl
import statsmodels.api as sm
from scipy import stats as sps

from rundir import Cell
from rundir import columns as col
from rundir.source import written_at

from .agents import iterations as _iters
from .agents import ladder_key
from .load import open_run
from .stats.intervals import clustered_wilson, unit_col
from .words import MINUS

__all__ = [
    "ELO_PER_LOGIT",
    "StrengthAnalysis",
    "analyse_strength",
    "fit_bradley_terry",
    "format_strength",
    "ladder_key",
    "strength_from_rows",
    "unit_results",
]

#: Elo points per unit of Bradley–Terry (logit) strength: 400 / ln 10.
ELO_PER_LOGIT = 400.0 / math.log(10.0)
Z95 = float(sps.norm.ppf(0.975))


def _default_anchor(agents: Sequence[str]) -> str:
    return "greedy" if "greedy" in agents else sorted(agents, key=ladder_key)[0]


@dataclass
class StrengthAnalysis:
    """Tables (polars) of the strength analysis; see the module docstring."""

    name: str
    runs: list[str]
    anchor: str
    pairs: pl.DataFrame
    ratings: pl.DataFrame
    gains: pl.DataFrame
    saturation: str
    notes: list[str] = field(default_factory=list)
    #: Covariance of the Bradley–Terry strengths (logits), rows in the order of ``ratings``.
    cov: np.ndarray | None = None

    def elo_diff(self, lower: str, upper: str) -> tuple[float, float]:
        """Elo of ``upper`` minus ``lower`` with its standard error (from the fit's covariance)."""
        agents = self.ratings["agent"].to_list()
        elo = self.ratings["elo"].to_list()
        i, j = agents.index(lower), agents.index(upper)
        if self.cov is None:
            return elo[j] - elo[i], float("nan")
        var = self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]
        return elo[j] - elo[i], math.sqrt(max(var, 0.0)) * ELO_PER_LOGIT


def unit_results(
    rows: pl.DataFrame, agent_a: str, agent_b: str, *, paired: bool, source: str = ""
) -> pl.DataFrame:
    """One row per unit (deal if ``paired``, else game) of a 2-player cell of ``agent_a`` vs
    ``agent_b``: ``source``, ``unit``, ``agent_a``, ``agent_b``, ``games``, ``score_a`` (wins of a,
    ties as shares) and ``share_a = score_a / games``."""
    col = unit_col(paired)
    per_game = (
        rows.filter(pl.col("agent") == agent_a)
        .group_by("game_index")
        .agg(pl.col("win").sum().alias("w"), pl.col(col).first().alias("unit"))
    )
    return (
        per_game.group_by("unit")
        .agg(pl.len().alias("games"), pl.col("w").sum().alias("score_a"))
        .with_columns(
            pl.lit(source).alias("source"),
            pl.lit(agent_a).alias("agent_a"),
            pl.lit(agent_b).alias("agent_b"),
            pl.col("games").cast(pl.Int64),
            pl.col("score_a").cast(pl.Float64),
        )
        .with_columns((pl.col("score_a") / pl.col("games")).alias("share_a"))
        .select("source", "unit", "agent_a", "agent_b", "games", "score_a", "share_a")
        .sort("unit")
    )


def _oriented(units: pl.DataFrame) -> pl.DataFrame:
    """Units with agent_a the higher of the two on the ladder order (shares flipped as needed)."""
    flip = pl.struct("agent_a", "agent_b").map_elements(
        lambda s: ladder_key(s["agent_a"]) < ladder_key(s["agent_b"]), return_dtype=pl.Boolean
    )
    return (
        units.with_columns(flip.alias("_flip"))
        .select(
            "source",
            "unit",
            pl.when(pl.col("_flip")).then(pl.col("agent_b")).otherwise(pl.col("agent_a")).alias("agent_a"),
            pl.when(pl.col("_flip")).then(pl.col("agent_a")).otherwise(pl.col("agent_b")).alias("agent_b"),
            "games",
            pl.when(pl.col("_flip"))
            .then(pl.col("games") - pl.col("score_a"))
            .otherwise(pl.col("score_a"))
            .alias("score_a"),
        )
        .with_columns((pl.col("score_a") / pl.col("games")).alias("share_a"))
    )


def _pair_table(units: pl.DataFrame) -> pl.DataFrame:
    recs: list[dict[str, Any]] = []
    for (a, b), g in units.group_by(["agent_a", "agent_b"], maintain_order=True):
        est = clustered_wilson(g["share_a"].to_numpy())
        share = float(g["score_a"].to_numpy().sum() / g["games"].to_numpy().sum())
        recs.append(
            {
                "agent_a": str(a),
                "agent_b": str(b),
                "games": int(g["games"].sum()),
                "units": g.height,
                "share_a": share,
                "lo": min(est.lo, share),  # guards against rounding at 0 and 1
                "hi": max(est.hi, share),
                "sources": ", ".join(sorted(set(g["source"].to_list()))),
            }
        )
    recs.sort(key=lambda r: (ladder_key(r["agent_a"]), ladder_key(r["agent_b"])))
    return pl.DataFrame(recs)


def _strongly_connected(agents: list[str], units: pl.DataFrame) -> bool:
    """Whether the graph 'x scored something against y' is strongly connected (BT MLE exists)."""
    edges: dict[str, set[str]] = {a: set() for a in agents}
    sums = units.group_by("agent_a", "agent_b").agg(pl.col("score_a").sum(), pl.col("games").sum())
    for r in sums.iter_rows(named=True):
        if r["score_a"] > 0:
            edges[r["agent_a"]].add(r["agent_b"])
        if r["games"] - r["score_a"] > 0:
            edges[r["agent_b"]].add(r["agent_a"])

    def reach(start: str, graph: Mapping[str, set[str]]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reverse: dict[str, set[str]] = {a: set() for a in agents}
    for a, outs in edges.items():
        for b in outs:
            reverse[b].add(a)
    return len(reach(agents[0], edges)) == len(agents) and len(reach(agents[0], reverse)) == len(agents)


def _connected(agents: list[str], units: pl.DataFrame) -> bool:
    graph: dict[str, set[str]] = {a: set() for a in agents}
    for a, b in units.select("agent_a", "agent_b").unique().iter_rows():
        graph[a].add(b)
        graph[b].add(a)
    seen, todo = {agents[0]}, [agents[0]]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(agents)


def fit_bradley_terry(
    units: pl.DataFrame, anchor: str | None = None
) -> tuple[pl.DataFrame, np.ndarray, list[str], list[str]]:
    """Bradley–Terry fit on unit results (columns ``agent_a``, ``agent_b``, ``games``,
    ``score_a``). Returns the ratings table (``agent``, ``strength``, ``se``, ``elo``, ``elo_lo``,
    ``elo_hi``, ``games``, ``score``), the covariance of the strengths (anchor row/column zero) in
    the table's agent order, that order, and notes. ``anchor`` defaults to ``greedy`` if present,
    else the lowest agent on the ladder order."""
    notes: list[str] = []
    agents = sorted(set(units["agent_a"].to_list()) | set(units["agent_b"].to_list()), key=ladder_key)
    if len(agents) < 2:
        raise ValueError("a Bradley–Terry fit needs at least two agents that played each other")
    if not _connected(agents, units):
        raise ValueError("the pairings do not connect all agents; their strengths are not comparable")
    if anchor is None:
        anchor = _default_anchor(agents)
    if anchor not in agents:
        raise ValueError(f"anchor {anchor!r} is not among the agents: {', '.join(agents)}")
    fit_units = units.select("agent_a", "agent_b", "games", "score_a")
    if not _strongly_connected(agents, units):
        fit_units = _with_tie_prior(fit_units, notes)
    strength, cov = _glm_strengths(fit_units, agents, anchor)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    ratings = pl.DataFrame(
        {
            "agent": agents,
            "strength": strength,
            "se": se,
            "elo": strength * ELO_PER_LOGIT,
            "elo_lo": (strength - Z95 * se) * ELO_PER_LOGIT,
            "elo_hi": (strength + Z95 * se) * ELO_PER_LOGIT,
        }
    ).join(_played(units), on="agent", how="left")
    return ratings, cov, agents, notes


def _with_tie_prior(fit_units: pl.DataFrame, notes: list[str]) -> pl.DataFrame:
    """``fit_units`` plus one virtual tied game for each one-sided pairing (its note appended)."""
    one_sided = (
        fit_units.group_by("agent_a", "agent_b")
        .agg(pl.col("score_a").sum(), pl.col("games").sum())
        .filter((pl.col("score_a") == 0) | (pl.col("score_a") == pl.col("games")))
    )
    prior = one_sided.select(
        "agent_a", "agent_b", pl.lit(1, dtype=pl.Int64).alias("games"), pl.lit(0.5).alias("score_a")
    )
    names = ", ".join(
        f"{a} vs {b}" for a, b in prior.select("agent_a", "agent_b").sort("agent_a").iter_rows()
    )
    notes.append(
        "Some agents never lost (or never won) against the rest, so the maximum-likelihood fit is "
        f"undefined; one virtual tied game was added to each one-sided pairing ({names}): a weak "
        "prior towards equal strength that keeps those Elo values finite (read them as bounds)."
    )
    return pl.concat([fit_units.with_columns(pl.col("games").cast(pl.Int64)), prior])


def _glm_strengths(fit_units: pl.DataFrame, agents: list[str], anchor: str) -> tuple[np.ndarray, np.ndarray]:
    """Strengths (logits, ``anchor`` at 0) in ``agents`` order and their robust (HC0) covariance,
    from a binomial GLM on the units' scores."""
    free = [a for a in agents if a != anchor]
    index = {a: i for i, a in enumerate(free)}
    x = np.zeros((fit_units.height, len(free)))
    for r, (a, b) in enumerate(fit_units.select("agent_a", "agent_b").iter_rows()):
        if a in index:
            x[r, index[a]] += 1.0
        if b in index:
            x[r, index[b]] -= 1.0
    games = fit_units["games"].to_numpy().astype(float)
    y = fit_units["score_a"].to_numpy().astype(float) / games
    res = sm.GLM(y, x, family=sm.families.Binomial(), var_weights=games).fit(cov_type="HC0")
    k = len(agents)
    strength = np.zeros(k)
    cov = np.zeros((k, k))
    pos = [agents.index(a) for a in free]
    strength[pos] = np.asarray(res.params, dtype=float)
    cov[np.ix_(pos, pos)] = np.asarray(res.cov_params(), dtype=float)
    return strength, cov


def _played(units: pl.DataFrame) -> pl.DataFrame:
    """Games and score of each agent over all units."""
    return (
        pl.concat(
            [
                units.select(pl.col("agent_a").alias("agent"), "games", pl.col("score_a").alias("score")),
                units.select(
                    pl.col("agent_b").alias("agent"),
                    "games",
                    (pl.col("games") - pl.col("score_a")).alias("score"),
                ),
            ]
        )
        .group_by("agent")
        .agg(pl.col("games").sum(), pl.col("score").sum())
    )


def _elo_diff(
    elo: dict[str, float], cov: np.ndarray, agents: list[str], lower: str, upper: str
) -> tuple[float, float, float, float]:
    """Elo of ``upper`` minus ``lower``: (gain, 95% low, 95% high, standard error)."""
    i, j = agents.index(lower), agents.index(upper)
    se = math.sqrt(max(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0.0)) * ELO_PER_LOGIT
    gain = elo[upper] - elo[lower]
    return gain, gain - Z95 * se, gain + Z95 * se, se


_GAIN_SCHEMA = {
    "from": pl.String,
    "to": pl.String,
    "gain": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "p_one_sided": pl.Float64,
    "significant": pl.Boolean,
}


def _gains(ratings: pl.DataFrame, cov: np.ndarray, agents: list[str]) -> tuple[pl.DataFrame, str]:
    """Elo gain between consecutive MCTS rungs (by iterations) and the saturation statement."""
    rungs = sorted((a for a in agents if _iters(a) is not None), key=ladder_key)
    if "greedy" in agents and rungs:
        rungs = ["greedy", *rungs]
    elo = dict(zip(ratings["agent"].to_list(), ratings["elo"].to_list(), strict=True))
    recs: list[dict[str, Any]] = []
    for lower, upper in zip(rungs, rungs[1:], strict=False):
        gain, lo, hi, se = _elo_diff(elo, cov, agents, lower, upper)
        p_one = float(sps.norm.sf(gain / se)) if se > 0 else float("nan")
        recs.append(
            {
                "from": lower,
                "to": upper,
                "gain": gain,
                "lo": lo,
                "hi": hi,
                "p_one_sided": p_one,
                "significant": lo > 0,
            }
        )
    gains = pl.DataFrame(recs, schema=_GAIN_SCHEMA)
    mcts_steps = [r for r in recs if _iters(r["from"]) is not None]
    if not mcts_steps:
        return gains, "No two MCTS rungs with different iterations: saturation cannot be assessed."
    return gains, _saturation(mcts_steps, lambda a, b: _elo_diff(elo, cov, agents, a, b)[:3])


def _saturation(mcts_steps: list[dict[str, Any]], diff: Callable[[str, str], tuple[float, ...]]) -> str:
    """Where strength stops rising, in words no stronger than the gains: ``diff(lower, upper)`` gives
    (gain, low, high) in Elo between any two rungs. A gain is *shown* when its 95% interval lies above
    0; a step that is not shown is never called a plateau by itself (a gain up to its interval's top
    is not ruled out), and a higher rung shown stronger makes it an under-powered step."""
    mcts_rungs = [r["from"] for r in mcts_steps] + [mcts_steps[-1]["to"]]
    top = mcts_rungs[-1]
    first = next((r for r in mcts_steps if not r["significant"]), None)
    if first is None:
        last = mcts_steps[-1]
        return (
            f"Every MCTS rung is shown stronger than the one below (each gain's 95% interval above 0), up "
            f"to {top} ({_elo(last['gain'], last['lo'], last['hi'])} over {last['from']}): strength still "
            "rises at the top of the ladder; no plateau within it."
        )
    text = (
        f"The step {first['from']} → {first['to']} is not shown to gain "
        f"({_elo(first['gain'], first['lo'], first['hi'])}: the interval reaches 0)"
    )
    # a plateau also needs that no higher rung is shown stronger than the rung below the step
    plateau = next(
        (k for k in mcts_rungs if all(diff(k, u)[1] <= 0 for u in mcts_rungs[mcts_rungs.index(k) + 1 :])),
        top,
    )
    g, lo, hi = diff(first["from"], top)
    if plateau == first["from"]:
        return text + (
            f", and no higher MCTS rung of these runs is shown stronger than {first['from']} ({top}: "
            f"{_elo(g, lo, hi)}). "
            f"Strength may level off at {first['from']}, but a gain of up to {hi:.0f} Elo is not ruled "
            "out at this sample size."
        )
    text += f", but {top} is shown stronger than {first['from']} ({_elo(g, lo, hi)}): that step is "
    text += "under-powered, not a plateau. " + (
        f"No MCTS rung of these runs above {plateau} is shown stronger than it"
        if plateau != top
        else "Strength still rises up to the top rung"
    )
    return (
        text + " at this sample size; more games are needed to locate whether and where strength levels off."
    )


def _elo(gain: float, lo: float, hi: float) -> str:
    """``+147 Elo [+53, +240]`` with true minus signs."""
    return f"{gain:+.0f} Elo [{lo:+.0f}, {hi:+.0f}]".replace("-", MINUS)


#: A row's game, deal and player (the unit and the seat a result is read by).
UNIT_COLUMNS = (col.GAME_INDEX, col.DEAL_INDEX, col.PLAYER)


def strength_from_rows(
    name: str,
    sources: Sequence[tuple[str, Sequence[Cell], Mapping[str, pl.DataFrame], bool]],
    anchor: str | None = None,
) -> StrengthAnalysis:
    """The strength analysis from already-read cells: ``sources`` holds, per run, its name, its
    manifest cells, ``{cell_id: rows}`` and whether it is paired. Cells other than 2-player
    line-ups of two different agents are skipped."""
    parts: list[pl.DataFrame] = []
    runs: list[str] = []
    for run_name, cells, rows, paired in sources:
        runs.append(run_name)
        for cell in cells:
            cid, agents = cell.id, cell.agents
            if len(agents) != 2 or agents[0] == agents[1] or cid not in rows or rows[cid].height == 0:
                continue
            parts.append(
                unit_results(
                    rows[cid], agents[0], agents[1], paired=paired, source=f"{run_name}/{cid}"
                ).with_columns(
                    pl.concat_str(pl.lit(f"{run_name}/{cid}/"), pl.col("unit").cast(pl.String)).alias("unit")
                )
            )
    if not parts:
        raise ValueError("no 2-player cells with two different agents: nothing to rate")
    units = _oriented(pl.concat(parts))
    pairs = _pair_table(units)
    agents = sorted(set(units["agent_a"].to_list()) | set(units["agent_b"].to_list()), key=ladder_key)
    anchor = anchor or _default_anchor(agents)
    ratings, cov, agents, notes = fit_bradley_terry(units, anchor)
    gains, saturation = _gains(ratings, cov, agents)
    return StrengthAnalysis(name, runs, anchor, pairs, ratings, gains, saturation, notes, cov)


def analyse_strength(*run_dirs: pathlib.Path | str, anchor: str | None = None) -> StrengthAnalysis:
    """Reads one or more runs and fits one ladder over all their head-to-head cells. The name is
    the first run's study name."""
    if not run_dirs:
        raise ValueError("give at least one run directory")
    sources = []
    for run_dir in run_dirs:
        run = open_run(run_dir)
        study = run.manifest.study
        rows: dict[str, pl.DataFrame] = {}
        for cell in study.cells:
            if len(cell.agents) == 2 and cell.agents[0] != cell.agents[1]:
                try:
                    rows[cell.id] = run.cell_rows(cell.id, [*UNIT_COLUMNS, "agent", "win"])
                except FileNotFoundError:
                    continue
        sources.append((study.name, list(study.cells), rows, study.pair_seats))
    return strength_from_rows(sources[0][0], sources, anchor)


def _ci(est: float, lo: float, hi: float, digits: int = 3, signed: bool = False) -> str:
    fmt = f"{{:{'+' if signed else ''}.{digits}f}}"
    return f"{fmt.format(est)} [{fmt.format(lo)}, {fmt.format(hi)}]".replace("-", MINUS)


def format_strength(st: StrengthAnalysis) -> str:
    """Markdown tables: pairings, Elo ladder, rung gains, saturation and notes."""
    out = [f"## Agent strength: {st.name}", "", f"Runs: {', '.join(st.runs)}. Written at {written_at()}.", ""]
    out += ["| agent a | agent b | games | units | win share of a [95% CI] |", "|---|---|---|---|---|"]
    for r in st.pairs.iter_rows(named=True):
        out.append(
            f"| {r['agent_a']} | {r['agent_b']} | {r['games']} | {r['units']} | "
            f"{_ci(r['share_a'], r['lo'], r['hi'])} |"
        )
    out += ["", f"Bradley–Terry Elo (anchor {st.anchor} = 0; 95% CI):", ""]
    out += ["| agent | games | score | Elo [95% CI] |", "|---|---|---|---|"]
    for r in st.ratings.iter_rows(named=True):
        out.append(
            f"| {r['agent']} | {r['games']} | {r['score']:g} | "
            f"{_ci(r['elo'], r['elo_lo'], r['elo_hi'], 0, True)} |"
        )
    if st.gains.height:
        out += ["", "| from | to | Elo gain [95% CI] | one-sided p |", "|---|---|---|---|"]
        for r in st.gains.iter_rows(named=True):
            out.append(
                f"| {r['from']} | {r['to']} | {_ci(r['gain'], r['lo'], r['hi'], 0, True)} | "
                f"{r['p_one_sided']:.3g} |"
            )
    out += ["", st.saturation]
    out += [f"\nNote: {n}" for n in st.notes]
    out += ["", "Terms:", ""] + [f"- **{term}**: {meaning}" for term, meaning in _terms(st.anchor)]
    return "\n".join(out) + "\n"


def _terms(anchor: str) -> tuple[tuple[str, str], ...]:
    """The words of ``strength.md`` a reader may not know, defined where they are used."""
    return (
        (
            "win share",
            "the wins of agent a (a shared win counted as its share) over the games played; 0.5 is "
            "equal strength",
        ),
        ("units", "independent results: a deal played once per seat order counts once (paired seats)"),
        (
            "Elo",
            "a strength scale from head-to-head games: 400 Elo more means winning about 91% of games "
            f"(10 to 1 odds); fitted here (Bradley–Terry) from every pairing above, {anchor} at 0",
        ),
        (
            "Elo gain",
            "the Elo of a rung minus the rung below; one-sided p tests that it is above 0, and a gain is "
            "shown when its 95% interval lies above 0 (one-sided p below 0.025)",
        ),
    )
