"""Skill ladders: every balance number per rung, each rung's Elo, and whether the number converged.

A study with ``grid.ladder = [weakest, ..., strongest]`` plays every rung in self-play (the balance
question at that skill level) and neighbouring rungs head to head (2 players, paired seats). Here:

* each rung's Elo per variant: a Bradley–Terry fit (:func:`analysis.strength.strength_from_rows`)
  over the head-to-head cells of that variant, the lowest rung anchored at 0, 95% intervals;
* every balance number per rung (:class:`LadderMetric`): the start-player advantage per player
  count, a game's parts of it (Alhambra: moving first, starting hand), the share of tied games and
  a game's own values (:attr:`analysis.games.GameSection.ladder_values`), each with its interval;
* per number, :func:`convergence`: the top two rungs (ladder order) compared against the metric's
  practical threshold ``t``. The difference top − second gets a 95% interval from the two cells'
  intervals as if independent (the rungs share their deals, which correlates them positively, so
  this interval is, if anything, too wide). **converged**: that interval lies inside ±t;
  **still moving**: it excludes 0 and reaches beyond ±t (the direction is reported); **not
  settled**: anything else (it holds 0 but reaches beyond ±t). The same comparison between the
  lowest and the top rung says whether the number moved over the ladder as a whole.

Data only; the sentences are made by :mod:`analysis.ladder_findings`, the figures by the renderer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import polars as pl

from .games import LadderValue, section
from .model import CellInfo, StudyAnalysis
from .strength import Z95, StrengthAnalysis, strength_from_rows

__all__ = [
    "Convergence",
    "LadderMetric",
    "LadderPoint",
    "SkillLadder",
    "TIE_THRESHOLD",
    "compare_rungs",
    "convergence",
    "skill_ladder",
]

#: Threshold of the share of tied games (as in the comparisons between cells).
TIE_THRESHOLD = 0.02

Status = Literal["converged", "moving", "unsettled"]


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
    """Top rung minus the one below (``diff`` [``lo``, ``hi``]) read against ±``threshold``;
    ``trend`` the same for the top rung minus the lowest; ``units_needed``: units per rung that
    would bring the difference's interval within the threshold if the rungs agreed."""

    status: Status
    diff: float
    lo: float
    hi: float
    trend: Status
    trend_diff: float
    trend_lo: float
    trend_hi: float
    units_needed: int | None = None


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


@dataclass
class SkillLadder:
    """The ladder of a study: rungs (weakest first), Elo fits per variant, every metric."""

    rungs: list[str]
    strength: dict[str, StrengthAnalysis] = field(default_factory=dict)
    metrics: list[LadderMetric] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def metric(self, key: str, n_players: int, variant: str = "") -> LadderMetric | None:
        return next(
            (m for m in self.metrics if (m.key, m.n_players, m.variant) == (key, n_players, variant)), None
        )


def _se(lo: float, hi: float) -> float:
    return (hi - lo) / (2 * Z95)


def compare_rungs(
    upper: LadderPoint, lower: LadderPoint, threshold: float
) -> tuple[Status, float, float, float]:
    """(status, diff, lo, hi) of ``upper − lower`` against ±``threshold`` (module docstring)."""
    diff = upper.estimate - lower.estimate
    se = math.hypot(_se(upper.lo, upper.hi), _se(lower.lo, lower.hi))
    lo, hi = diff - Z95 * se, diff + Z95 * se
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "unsettled", diff, lo, hi
    if -threshold <= lo and hi <= threshold:
        return "converged", diff, lo, hi
    if lo > 0 or hi < 0:
        return "moving", diff, lo, hi
    return "unsettled", diff, lo, hi


def convergence(points: tuple[LadderPoint, ...] | list[LadderPoint], threshold: float) -> Convergence | None:
    """Whether a metric (points weakest rung first) converged at the top of the ladder."""
    if len(points) < 2:
        return None
    status, diff, lo, hi = compare_rungs(points[-1], points[-2], threshold)
    trend, t_diff, t_lo, t_hi = compare_rungs(points[-1], points[0], threshold)
    needed = None
    if status == "unsettled":
        se = math.hypot(_se(points[-1].lo, points[-1].hi), _se(points[-2].lo, points[-2].hi))
        units = max(points[-1].units, points[-2].units)
        if units and se > 0:
            needed = math.ceil(units * (Z95 * se / threshold) ** 2)
    return Convergence(status, diff, lo, hi, trend, t_diff, t_lo, t_hi, needed)


def _ratings(s: StudyAnalysis, variant: str) -> StrengthAnalysis | None:
    cells = [c for c in s.info if c.id in s.steps and c.variant_name == variant and c.id in s.rows]
    if not cells:
        return None
    raw = [r for r in s.cells if str(r["id"]) in {c.id for c in cells}]
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
    game = section(s.game)
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
    for n, variant in questions:
        cells = sorted(
            (c for c in selfplay if (c.n_players, c.variant_name) == (n, variant)),
            key=lambda c: rungs.index(c.agents[0]),
        )
        ladder.metrics += _metrics(s, cells, ladder.strength.get(variant), n, variant)
    return ladder


def _metrics(
    s: StudyAnalysis, cells: list[CellInfo], st: StrengthAnalysis | None, n: int, variant: str
) -> list[LadderMetric]:
    per_cell = {c.id: {v.key: v for v in _values(s, c)} for c in cells}
    keys = list(dict.fromkeys(k for vs in per_cell.values() for k in vs))
    out = []
    for key in keys:
        have = [c for c in cells if key in per_cell[c.id] and math.isfinite(per_cell[c.id][key].estimate)]
        if not have:
            continue
        first = per_cell[have[0].id][key]
        points = tuple(_point(c, per_cell[c.id][key], st, int(s.advantage_row(c.id)["units"])) for c in have)
        out.append(
            LadderMetric(
                key,
                first.label,
                n,
                variant,
                first.threshold,
                first.percent,
                first.reference,
                points,
                convergence(points, first.threshold),
            )
        )
    return out
