"""Skill ladders: every balance number per rung, each rung's Elo, and whether the number converged.

A study with ``grid.ladder = [weakest, ..., strongest]`` plays every rung in self-play (the balance
question at that skill level) and neighbouring rungs head to head (2 players, paired seats). Here:

* each rung's Elo per variant: a Bradley–Terry fit (:func:`analysis.strength.strength_from_rows`)
  over the head-to-head cells of that variant, the lowest rung anchored at 0, 95% intervals;
* every balance number per rung (:class:`LadderMetric`): the start-player advantage per player
  count, a game's parts of it (Alhambra: moving first, starting hand), the share of tied games and
  a game's own values (:attr:`analysis.games.GameSection.ladder_values`), each with its interval;
* per number, :func:`convergence`: a trend against Elo over the :func:`fitted` rungs
  (:mod:`analysis.stats.trend`: per-deal values stacked over rungs, OLS with errors clustered by
  deal, or WLS of the rung estimates for numbers without per-deal values) and the top two rungs'
  difference (their intervals combined as if independent; the rungs share their deals, which
  correlates them positively, so it is if anything too wide). **converged**: that difference lies
  inside ±t and the slope times the top Elo step too; **still moving**: the slope's interval
  excludes 0 (the direction and rate are reported); **not settled**: anything else. Without rated
  rungs the top two rungs decide alone (the earlier rule). All intervals of one ladder are
  simultaneous over its numbers (Bonferroni). An expert limit where a saturating curve is
  supported (:func:`analysis.stats.trend.saturating_limit`). The top rung minus the lowest says
  whether the number moved over the ladder as a whole.
* :func:`elo_checks`: matches between rungs that are not neighbours against the chained Elo.

Data only; the sentences are made by :mod:`analysis.ladder_findings`, the figures by the renderer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl
from scipy import stats as sps

from .estimator import outcome_column
from .games import NO_SECTION, LadderValue, section
from .model import CellInfo, StudyAnalysis
from .stats.intervals import clustered_wilson, unit_means
from .stats.outcomes import game_table
from .stats.trend import (
    Limit,
    Slope,
    Status,
    needed_per_rung,
    saturating_limit,
    slope_from_points,
    slope_from_units,
    trend_status,
)
from .strength import ELO_PER_LOGIT, Z95, StrengthAnalysis, strength_from_rows, unit_results

__all__ = [
    "Convergence",
    "EloCheck",
    "LadderMetric",
    "LadderPoint",
    "SkillLadder",
    "TIE_THRESHOLD",
    "compare_rungs",
    "convergence",
    "elo_checks",
    "fitted",
    "ladder_slope",
    "plain_agents",
    "skill_ladder",
]

#: Threshold of the share of tied games (as in the comparisons between cells).
TIE_THRESHOLD = 0.02


@dataclass(frozen=True)
class LadderPoint:
    """One rung's value of a metric, with the rung's Elo (``nan`` when it could not be rated)."""

    agent: str
    cell: str
    elo: float
    elo_lo: float
    elo_hi: float
    estimate: float
    lo: float
    hi: float
    units: int = 0


@dataclass(frozen=True)
class Convergence:
    """The verdict on one number (module docstring). ``diff`` [``lo``, ``hi``]: top rung minus the
    one below at the family's level; ``slope``: the trend against Elo over the fitted rungs (None
    when the rungs are not rated); ``step``: the Elo between the top two rungs; ``trend``: the top
    rung minus the lowest (whether the number moved over the whole ladder); ``units_needed``: units
    per rung that would bring the top two rungs' difference within the threshold if they agreed,
    ``units_needed_gap`` the same if the observed gap persists (None: it never would);
    ``limit``: the expert-limit estimate of a saturating fit (or why there is none)."""

    status: Status
    diff: float
    lo: float
    hi: float
    trend: Status
    trend_diff: float
    trend_lo: float
    trend_hi: float
    units_needed: int | None = None
    units_needed_gap: int | None = None
    slope: Slope | None = None
    step: float = float("nan")
    limit: Limit | None = None
    level: float = 0.95
    family: int = 1


@dataclass(frozen=True)
class LadderMetric:
    """A balance number along the ladder for one question (player count and variant)."""

    key: str
    label: str
    n_players: int
    variant: str
    threshold: float
    percent: bool
    reference: float | None
    points: tuple[LadderPoint, ...]
    verdict: Convergence | None

    @property
    def question(self) -> str:
        return f"{self.n_players} players" + (f", {self.variant}" if self.variant else "")


@dataclass(frozen=True)
class EloCheck:
    """A non-neighbour match against the chained Elo: ``direct`` [``lo``, ``hi``] from the
    upper rung's win share in the match (logit of the share's 95% interval, in Elo), ``chained``
    [``chained_lo``, ``chained_hi``] from the neighbour fit; ``agree``: the 95% interval of direct
    minus chained holds 0 (when the upper rung won every unit: whether the chained value reaches
    the direct lower bound)."""

    lower: str
    upper: str
    variant: str
    units: int
    share: float
    direct: float
    lo: float
    hi: float
    chained: float
    chained_lo: float
    chained_hi: float
    agree: bool


@dataclass
class SkillLadder:
    """The ladder of a study: rungs (weakest first), Elo fits per variant, every metric."""

    rungs: list[str]
    strength: dict[str, StrengthAnalysis] = field(default_factory=dict)
    metrics: list[LadderMetric] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checks: list[EloCheck] = field(default_factory=list)

    def metric(self, key: str, n_players: int, variant: str = "") -> LadderMetric | None:
        return next(
            (m for m in self.metrics if (m.key, m.n_players, m.variant) == (key, n_players, variant)), None
        )


def _se(lo: float, hi: float) -> float:
    return (hi - lo) / (2 * Z95)


#: Per-unit values of one rung: (values, unit indices) for the clustered slope.
Units = tuple[np.ndarray, np.ndarray]


def compare_rungs(
    upper: LadderPoint, lower: LadderPoint, threshold: float, z: float = Z95
) -> tuple[Status, float, float, float]:
    """(status, diff, lo, hi) of ``upper − lower`` against ±``threshold``, the interval
    ``diff ± z·se`` from the two rungs' 95% intervals as if independent (the rungs share their
    deals, which correlates them positively, so it is if anything too wide)."""
    diff = upper.estimate - lower.estimate
    se = math.hypot(_se(upper.lo, upper.hi), _se(lower.lo, lower.hi))
    lo, hi = diff - z * se, diff + z * se
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "unsettled", diff, lo, hi
    if -threshold <= lo and hi <= threshold:
        return "converged", diff, lo, hi
    if lo > 0 or hi < 0:
        return "moving", diff, lo, hi
    return "unsettled", diff, lo, hi


#: Agents that do not search: a trend over them describes greedy → search, not the top of the ladder.
PLAIN_AGENTS = ("random", "greedy")


def plain_agents(agents: Iterable[str]) -> str:
    """``greedy`` / ``greedy and random``: the agents by name when none of them searches (the
    plain-play warning, a handicap they do not read); empty when one does."""
    names = sorted({a.split(":")[0] for a in agents})
    return " and ".join(names) if names and all(n in PLAIN_AGENTS for n in names) else ""


def fitted(points: Sequence[LadderPoint]) -> list[int]:
    """Indices of the rungs the trend is fitted over: the search rungs when there are at least two
    (greedy or random below them is a different kind of play, not the top of the ladder), else
    every rung (greedy is then part of the only step)."""
    search = [i for i, p in enumerate(points) if p.agent.split(":")[0] not in PLAIN_AGENTS]
    return search if len(search) >= 2 else list(range(len(points)))


def ladder_slope(
    points: Sequence[LadderPoint], units: Sequence[Units | None] | None = None, alpha: float = 0.05
) -> Slope | None:
    """The number's slope per Elo point over the :func:`fitted` rungs (None: not rated)."""
    idx = fitted(points)
    elo = [points[i].elo for i in idx]
    if not all(math.isfinite(e) for e in elo) or len(set(elo)) < 2:
        return None
    if units is not None and all(units[i] is not None for i in idx):
        have = [u for i in idx if (u := units[i]) is not None]
        return slope_from_units(elo, [u[0] for u in have], [u[1] for u in have], alpha)
    est = [points[i].estimate for i in idx]
    return slope_from_points(elo, est, [_se(points[i].lo, points[i].hi) for i in idx], alpha)


def convergence(
    points: Sequence[LadderPoint],
    threshold: float,
    units: Sequence[Units | None] | None = None,
    family: int = 1,
) -> Convergence | None:
    """Whether a metric (points weakest rung first) converged at the top of the ladder, with its
    intervals at the Bonferroni level 95% over ``family`` numbers (simultaneous intervals)."""
    if len(points) < 2:
        return None
    alpha = 0.05 / max(family, 1)
    z = float(sps.norm.ppf(1 - alpha / 2))
    top, second = points[-1], points[-2]
    status, diff, lo, hi = compare_rungs(top, second, threshold, z)
    trend, t_diff, t_lo, t_hi = compare_rungs(top, points[0], threshold, z)
    slope = ladder_slope(points, units, alpha)
    step = top.elo - second.elo
    if slope is not None and math.isfinite(step):
        status = trend_status((lo, hi), slope, step, threshold)
    se_top, se_second = _se(top.lo, top.hi), _se(second.lo, second.hi)
    needed = gap = None
    if status != "converged":
        needed = needed_per_rung(se_top, top.units, se_second, second.units, threshold, z)
        gap = needed_per_rung(se_top, top.units, se_second, second.units, threshold, z, diff)
    idx = fitted(points)
    limit = (
        saturating_limit(
            [points[i].elo for i in idx],
            [points[i].estimate for i in idx],
            [_se(points[i].lo, points[i].hi) for i in idx],
            alpha,
        )
        if slope is not None
        else None
    )
    return Convergence(
        status, diff, lo, hi, trend, t_diff, t_lo, t_hi, needed, gap, slope, step, limit, 1 - alpha, family
    )


def _ratings(s: StudyAnalysis, variant: str) -> StrengthAnalysis | None:
    cells = [c for c in s.info if c.id in s.steps and c.variant_name == variant and c.id in s.rows]
    if not cells:
        return None
    raw = [r for r in s.cells if r.id in {c.id for c in cells}]
    try:
        return strength_from_rows(s.name, [(s.name, raw, s.rows, s.paired)], anchor=s.rungs[0])
    except ValueError:
        return None


def _values(s: StudyAnalysis, c: CellInfo) -> list[LadderValue]:
    """Every balance number of a self-play cell."""
    r = s.advantage_row(c.id)
    out = [
        LadderValue(
            "start_advantage", "start-player advantage", r["advantage"], r["lo"], r["hi"], s.threshold
        )
    ]
    game = NO_SECTION if s.generic else section(s.game)
    for p in game.advantage_parts:
        if p.estimate in r and r[p.estimate] is not None:
            out.append(LadderValue(p.estimate, p.label, r[p.estimate], r[p.lo], r[p.hi], s.threshold))
    o = s.outcomes.filter(pl.col("cell") == c.id)
    if o.height:
        t = o.row(0, named=True)
        out.append(
            LadderValue(
                "tie_share",
                "share of tied games",
                t["tie_share"],
                t["tie_lo"],
                t["tie_hi"],
                TIE_THRESHOLD,
                True,
                None,
            )
        )
    if game.ladder_values is not None:
        out += game.ladder_values(s, c.id)
    return out


def _point(c: CellInfo, v: LadderValue, st: StrengthAnalysis | None, units: int) -> LadderPoint:
    elo = lo = hi = float("nan")
    if st is not None:
        hit = st.ratings.filter(pl.col("agent") == c.agents[0])
        if hit.height:
            elo, lo, hi = (float(hit[k][0]) for k in ("elo", "elo_lo", "elo_hi"))
    return LadderPoint(c.agents[0], c.id, elo, lo, hi, v.estimate, v.lo, v.hi, units)


def skill_ladder(s: StudyAnalysis) -> SkillLadder | None:
    """The ladder analysis of a study with ``grid.ladder`` (None without one)."""
    rungs = s.rungs
    if not rungs or not s.advantage.height:
        return None
    ladder = SkillLadder(rungs)
    selfplay = [c for c in s.balance if len(set(c.agents)) == 1 and c.agents[0] in rungs]
    questions = list(dict.fromkeys((c.n_players, c.variant_name) for c in selfplay))
    for variant in dict.fromkeys(v for _, v in questions):
        st = _ratings(s, variant)
        if st is None:
            ladder.notes.append(
                f"No head-to-head games{f' for {variant}' if variant else ''}: rungs not rated."
            )
        else:
            ladder.strength[variant] = st
            ladder.notes += st.notes
            ladder.checks += elo_checks(s, st, variant)
    pending: list[tuple[LadderMetric, list[Units | None]]] = []
    for n, variant in questions:
        cells = sorted(
            (c for c in selfplay if (c.n_players, c.variant_name) == (n, variant)),
            key=lambda c: rungs.index(c.agents[0]),
        )
        pending += _metrics(s, cells, ladder.strength.get(variant), n, variant)
    # One family per ladder: every number's intervals are Bonferroni-simultaneous over all of them.
    family = len(pending)
    ladder.metrics = [
        replace(m, verdict=convergence(m.points, m.threshold, units, family)) for m, units in pending
    ]
    return ladder


def _elo(share: float) -> float:
    if share <= 0:
        return -math.inf
    if share >= 1:
        return math.inf
    return ELO_PER_LOGIT * math.log(share / (1 - share))


def elo_checks(s: StudyAnalysis, st: StrengthAnalysis, variant: str) -> list[EloCheck]:
    """Every non-neighbour head-to-head cell of ``variant`` read against the chained Elo."""
    out = []
    rated = set(st.ratings["agent"].to_list())
    for c in s.info:
        if c.id not in s.checks or c.id not in s.rows or c.variant_name != variant:
            continue
        lower, upper = sorted(c.agents, key=s.rungs.index)
        if not {lower, upper} <= rated:
            continue
        u = unit_results(s.rows[c.id], upper, lower, paired=s.paired)
        e = clustered_wilson(u["share_a"].to_numpy().astype(float))
        direct, lo, hi = _elo(e.estimate), _elo(e.lo), _elo(e.hi)
        g, se = st.elo_diff(lower, upper)
        if math.isfinite(direct) and 0 < e.lo and e.hi < 1:
            se_d = (hi - lo) / (2 * Z95)
            gap_se = math.hypot(se_d, se)
            agree = abs(direct - g) <= Z95 * gap_se
        else:  # one side won (or lost) every unit: the direct value is only a bound
            agree = (g + Z95 * se >= lo) if direct > 0 else (g - Z95 * se <= hi)
        out.append(
            EloCheck(
                lower,
                upper,
                variant,
                e.n_units,
                e.estimate,
                direct,
                lo,
                hi,
                g,
                g - Z95 * se,
                g + Z95 * se,
                agree,
            )
        )
    return out


def _units(s: StudyAnalysis, cell_id: str, key: str) -> Units | None:
    """Per-unit values of a number in one cell (the start-player win, ties), else None."""
    rows = s.rows.get(cell_id)
    if rows is None or key not in ("start_advantage", "tie_share"):
        return None
    if key == "start_advantage":  # the seat-0 outcome minus the fair share, as the rung's estimate
        n = int(rows["seat"].max()) + 1  # type: ignore[arg-type]
        won = outcome_column(s.manifest.study, rows)  # the study's estimator, as the advantage row
        won = pl.col("win") if won is None else won
        u = unit_means(rows.filter(pl.col("seat") == 0), won - 1 / n, paired=s.paired)
    else:
        u = unit_means(game_table(rows), pl.col("tie").cast(pl.Float64), paired=s.paired)
    return u["value"].to_numpy().astype(float), u["unit"].to_numpy()


def _metrics(
    s: StudyAnalysis, cells: list[CellInfo], st: StrengthAnalysis | None, n: int, variant: str
) -> list[tuple[LadderMetric, list[Units | None]]]:
    per_cell = {c.id: {v.key: v for v in _values(s, c)} for c in cells}
    keys = list(dict.fromkeys(k for vs in per_cell.values() for k in vs))
    out = []
    for key in keys:
        have = [c for c in cells if key in per_cell[c.id] and math.isfinite(per_cell[c.id][key].estimate)]
        if not have:
            continue
        first = per_cell[have[0].id][key]
        points = tuple(_point(c, per_cell[c.id][key], st, int(s.advantage_row(c.id)["units"])) for c in have)
        metric = LadderMetric(
            key, first.label, n, variant, first.threshold, first.percent, first.reference, points, None
        )
        out.append((metric, [_units(s, c.id, key) for c in have]))
    return out
