"""Alhambra's own part: the start-player advantage split into moving first and the starting hand,
and Dirk's record (2-player variant).

:data:`SECTION` plugs them into the generic analysis and report (see :mod:`analysis.games`).

By default Alhambra's start player is the one dealt the fewest money cards, so the raw seat-0 win
rate (what players experience) mixes "moving first" with "starting poorer". The linear probability
model ``win ~ seat0 + cards + value`` (cards and value of the starting money, centred on the table
mean) holds the starting money fixed: its seat-0 effect is the value of *moving first*; the raw
advantage minus it is the effect of the *starting hand*. Both come from one fit per model with
cluster-robust standard errors by game (by deal with ``pair_seats``); the starting hand's interval
uses the joint influence of both fits (one sandwich over the units). Effects are rescaled by
(n-1)/n to the scale of "seat-0 win rate - 1/n", so that raw = moving first + starting hand.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
import statsmodels.api as sm
from scipy import stats as sps

from ..content import Dot, DotPlot, Finding, Interval, Section, Table, Text
from ..model import StudyAnalysis, unhandicapped
from ..stats.intervals import ALPHA, Estimate, clustered_wilson, mean_ci, unit_col, unit_means, wilson
from ..stats.seats import n_players_of
from ..words import pct, pct_ci
from . import AdvantagePart, GameSection, LadderValue

__all__ = ["KINDS", "SECTION", "advantage_parts", "dirk_stats", "hand_adjusted_advantage", "has_dirk"]

KINDS = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
OUTSCORED = "Dirk outscored the winner (share of games)"


def _design(rows: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Regressors ``[1, seat0, cards_rel, value_rel]``, response ``win`` and the unit of each row."""
    df = rows.with_columns(
        (pl.col("seat") == 0).cast(pl.Float64).alias("seat0"),
        (pl.col("start_money_cards") - pl.col("start_money_cards").mean().over("game_index"))
        .cast(pl.Float64)
        .alias("cards_rel"),
        (pl.col("start_money_value") - pl.col("start_money_value").mean().over("game_index"))
        .cast(pl.Float64)
        .alias("value_rel"),
    )
    x = sm.add_constant(df.select("seat0", "cards_rel", "value_rel").to_numpy(), has_constant="add")
    return x, df["win"].to_numpy().astype(float), df["game_index"].to_numpy()


def hand_adjusted_advantage(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> Estimate:
    """Start-player advantage holding the starting money (cards and value) fixed: moving first."""
    x, y, _ = _design(rows)
    groups = rows[unit_col(paired)].to_numpy()
    units = int(np.unique(groups).size)
    if units < 3 or np.linalg.matrix_rank(x) < x.shape[1]:
        return Estimate(float("nan"), float("nan"), float("nan"), units, "not identifiable")
    fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    scale = (n_players_of(rows) - 1) / n_players_of(rows)
    lo, hi = fit.conf_int(alpha=alpha)[1]
    return Estimate(
        float(fit.params[1] * scale), float(lo * scale), float(hi * scale), units, "LPM, cluster-robust"
    )


def _seat0_fit(x: np.ndarray, y: np.ndarray, unit: np.ndarray, units: int) -> tuple[float, np.ndarray]:
    """Seat-0 coefficient of OLS ``y ~ x`` and its influence summed per unit."""
    inv = np.linalg.inv(x.T @ x)
    beta = inv @ (x.T @ y)
    influence = (x @ inv[:, 1]) * (y - x @ beta)
    return float(beta[1]), np.bincount(unit, weights=influence, minlength=units)


def advantage_parts(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> dict[str, Estimate]:
    """The raw advantage and its two parts, ``moving_first`` (starting money held fixed) and
    ``starting_hand`` (raw minus moving first), with cluster-robust 95% intervals."""
    x, y, _ = _design(rows)
    _, unit = np.unique(rows[unit_col(paired)].to_numpy(), return_inverse=True)
    units = int(unit.max()) + 1 if unit.size else 0
    nan = Estimate(float("nan"), float("nan"), float("nan"), units, "not identifiable")
    if units < 3 or np.linalg.matrix_rank(x) < x.shape[1]:
        return {"raw": nan, "moving_first": nan, "starting_hand": nan}
    raw, g_raw = _seat0_fit(x[:, :2], y, unit, units)
    adj, g_adj = _seat0_fit(x, y, unit, units)
    scale = (n_players_of(rows) - 1) / n_players_of(rows)
    z = float(sps.norm.ppf(1 - alpha / 2))
    c = units / (units - 1)

    def est(value: float, g: np.ndarray, method: str) -> Estimate:
        se = math.sqrt(c * float(g @ g))
        return Estimate(value * scale, (value - z * se) * scale, (value + z * se) * scale, units, method)

    return {
        "raw": est(raw, g_raw, "LPM, cluster-robust"),
        "moving_first": est(adj, g_adj, "LPM, cluster-robust"),
        "starting_hand": est(raw - adj, g_raw - g_adj, "difference of two LPM fits, joint cluster-robust"),
    }


def has_dirk(rows: pl.DataFrame) -> bool:
    """Whether these rows come from games with Dirk."""
    return "dirk_score" in rows.columns and rows["dirk_score"].null_count() < rows.height


_DIRK_SCHEMA = {
    "stat": pl.String,
    "estimate": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "n_units": pl.Int64,
}


def dirk_stats(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Dirk's record: how often he outscored (tied) the winner, his mean score and, per tile kind,
    the mean number of scorings in which he held (shared) first place.

    Columns: ``stat``, ``estimate``, ``lo``, ``hi``, ``n_units``. Empty without Dirk.
    """
    if not has_dirk(rows):
        return pl.DataFrame(schema=_DIRK_SCHEMA)
    first = [f"dirk_first_{k}" for k in KINDS]
    games = rows.group_by("game_index").agg(
        pl.col("deal_index").first(),
        pl.col("score").max().alias("top"),
        pl.col("dirk_score").first(),
        *[pl.col(c).first() for c in first],
    )
    games = games.with_columns(
        (pl.col("dirk_score") > pl.col("top")).cast(pl.Float64).alias("outscored"),
        (pl.col("dirk_score") == pl.col("top")).cast(pl.Float64).alias("tied"),
    )
    recs: list[dict[str, object]] = []

    def add(name: str, e: Estimate) -> None:
        recs.append({"stat": name, "estimate": e.estimate, "lo": e.lo, "hi": e.hi, "n_units": e.n_units})

    for name, column in ((OUTSCORED, "outscored"), ("Dirk tied the winner (share of games)", "tied")):
        if paired:
            add(name, clustered_wilson(unit_means(games, column, paired=True)["value"].to_numpy(), alpha))
        else:
            add(name, wilson(float(games[column].sum()), games.height, alpha))
    for name, column in [("Dirk's mean score", "dirk_score")] + [
        (f"scorings with Dirk 1st in {k}", c) for k, c in zip(KINDS, first, strict=True)
    ]:
        vals = unit_means(games, pl.col(column).cast(pl.Float64), paired=paired)["value"].to_numpy()
        add(name, mean_ci(vals, alpha))
    return pl.DataFrame(recs, schema=_DIRK_SCHEMA)


# ---------------------------------------------------------------- the section (data only)


def _advantage(rows: pl.DataFrame, paired: bool) -> dict[str, Any]:
    if "start_money_cards" not in rows.columns:
        return {}
    parts = advantage_parts(rows, paired=paired)
    out: dict[str, Any] = {}
    for key, prefix in (("moving_first", "first"), ("starting_hand", "hand")):
        e = parts[key]
        out |= {prefix: e.estimate, f"{prefix}_lo": e.lo, f"{prefix}_hi": e.hi}
    # the former name of the moving-first estimate, kept for notebooks
    return out | {"adjusted": out["first"], "adj_lo": out["first_lo"], "adj_hi": out["first_hi"]}


def _tables(rows: pl.DataFrame, paired: bool) -> dict[str, pl.DataFrame]:
    return {"dirk": dirk_stats(rows, paired=paired)} if has_dirk(rows) else {}


def _outscored(s: StudyAnalysis) -> list[dict[str, Any]]:
    dirk = s.table("dirk")
    if not dirk.height:
        return []
    return list(dirk.filter(pl.col("stat") == OUTSCORED).iter_rows(named=True))


def _findings(s: StudyAnalysis) -> list[Finding]:
    if s.ladder is not None:  # a skill ladder reports Dirk per rung, with its convergence verdict
        return []
    plain = {c.id for c in unhandicapped(s.balance)[0]}  # the headline from a cell without a handicap
    balance = {c.id for c in s.balance}
    rows = sorted((r for r in _outscored(s) if r["cell"] in balance), key=lambda r: r["cell"] not in plain)
    if not rows:
        return []
    first, rest = rows[0], rows[1:]
    one_in = f"about 1 game in {round(1 / first['estimate'])}" if first["estimate"] > 0 else "never"
    sentence = (
        f"Dirk never wins, but in {s.short(first['cell'])} his score beat the winner's in "
        f"{pct_ci(first['estimate'], first['lo'], first['hi'])} of games: {one_in} would have gone "
        "to him had he been a player."
    )
    if rest:
        sentence += (
            " Elsewhere: " + "; ".join(f"{s.short(r['cell'])} {pct(r['estimate'])}" for r in rest) + "."
        )
    return [Finding("Dirk", sentence, tuple(r["cell"] for r in rows))]


def _ladder_values(s: StudyAnalysis, cell_id: str) -> list[LadderValue]:
    """Dirk's share of games in which he outscored the winner (threshold 2 points)."""
    hit = [r for r in _outscored(s) if r["cell"] == cell_id]
    return [
        LadderValue(
            "dirk_outscored",
            "share of games Dirk outscored the winner",
            r["estimate"],
            r["lo"],
            r["hi"],
            0.02,
            True,
            None,
        )
        for r in hit
    ]


def _interval(r: dict[str, Any]) -> Interval:
    if r["stat"].endswith("(share of games)"):
        return Interval(r["estimate"], r["lo"], r["hi"], 1, "percent")
    return Interval(r["estimate"], r["lo"], r["hi"], 2)


def _sections(s: StudyAnalysis) -> list[Section]:
    dirk = s.table("dirk")
    if not dirk.height:
        return []
    cells = dirk["cell"].unique(maintain_order=True).to_list()
    by = {(r["stat"], r["cell"]): r for r in dirk.iter_rows(named=True)}
    stats = dirk["stat"].unique(maintain_order=True).to_list()
    table = Table(
        ("statistic [95% CI]", *[s.short(c) for c in cells]),
        tuple(
            (stat.replace("(share of games)", "(% of games)"), *[_interval(by[(stat, c)]) for c in cells])
            for stat in stats
        ),
    )
    kinds = dirk.filter(pl.col("stat").str.starts_with("scorings with Dirk"))
    dots = tuple(
        Dot(r["stat"].rsplit(" ", 1)[1], r["cell"], r["estimate"], r["lo"], r["hi"])
        for kind in KINDS
        for r in kinds.filter(pl.col("stat").str.ends_with(kind)).iter_rows(named=True)
    )
    top = kinds.sort("estimate", descending=True).row(0, named=True)
    plot = DotPlot(
        "dirk",
        "Dirk: scorings (of 3) in which he held first place, per tile kind",
        f"Dirk holds first place most often in {top['stat'].rsplit(' ', 1)[1]} "
        f"({top['estimate']:.2f} of 3 scorings, {s.short(top['cell'])}).",
        "scorings with Dirk (shared) first, of 3 (95% CI)",
        dots,
    )
    note = Text(
        "Dirk is the 2-player rules' virtual third player: he gets tiles from the bag and tiles the "
        "players give him, takes part in every majority, and never wins. 'Outscored the winner' counts "
        "the games in which his final score beat the winner's."
    )
    return [Section("Dirk (2-player variant)", (note, table, plot))]


SECTION = GameSection(
    advantage=_advantage,
    ladder_values=_ladder_values,
    advantage_parts=(
        AdvantagePart("moving first (starting money held fixed)", "first", "first_lo", "first_hi"),
        AdvantagePart("starting hand (start player dealt the fewest cards)", "hand", "hand_lo", "hand_hi"),
    ),
    advantage_note=(
        "The raw advantage is what players experience: it describes the game as played. In Alhambra "
        "the start player is the one dealt the fewest money cards, so it has two parts that add up to "
        "it: moving first, with the starting money held fixed, and the starting hand, the cost of "
        "starting poorer. The parts explain the raw number; they do not replace it."
    ),
    tables=_tables,
    findings=_findings,
    sections=_sections,
    methods=(
        "Alhambra's two parts of the advantage come from linear probability models of winning on the "
        "seat (start player or not) without and with the starting money (cards and value, centred per "
        "game), with cluster-robust standard errors by deal (by game without paired seats); the "
        "starting hand's interval uses both fits' joint influence over the same deals. Dirk's shares "
        "use the same intervals as win rates, his means Student-t intervals over deals."
    ),
    glossary=(
        (
            "Dirk",
            "the virtual third player of 2-player Alhambra; he takes tiles and majorities but never wins",
        ),
        ("moving first", "the advantage of the start player with the starting money held fixed"),
        ("starting hand", "the raw advantage minus moving first: what being dealt the fewest cards costs"),
    ),
)
