"""Precision of a run so far, and where the next round's games go.

``balancelab run STUDY --precision 0.005`` keeps adding batches until every value of
:func:`max_halfwidths` is at most the target. For a study with a skill ladder the target is the
verdict instead: :func:`ladder_round` gives the next round's games (the rungs whose extra deals
shrink the start-player verdicts' uncertainty most per core-second, and the head-to-head step into
each grown rung in proportion), until every verdict is settled (converged or still moving) or the
core-hours budget (``--max-core-hours``) is spent.
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from .agents import iterations
from .estimator import outcome_column
from .load import open_run
from .model import StudyAnalysis
from .skill import LadderMetric, LadderPoint, fitted
from .stats.practical import settle_room
from .stats.seats import start_advantage_sequence

__all__ = ["LadderRound", "agent_cost", "ladder_round", "max_halfwidths", "settle_room", "uncertainty"]


def max_halfwidths(run_dir: pathlib.Path | str) -> dict[str, float]:
    """Per cell id: the half-width of the start-player advantage's anytime-valid 95% interval (a
    confidence sequence, :mod:`analysis.stats.sequential`: the loop looks after every round, so the
    stop holds its error rate however often it looks; ``inf`` for a cell without games yet). Uses
    the deal as the unit when the study pairs seats."""
    run = open_run(run_dir, allow_partial=True)
    study = run.manifest.study
    paired = study.pair_seats
    ids = [c.id for c in study.cells]
    out = {cid: math.inf for cid in ids}
    try:
        lf = run.scan()
    except FileNotFoundError:
        return out
    luck = ["luck"] if "luck" in lf.collect_schema().names() else []
    rows = lf.select("cell", "game_index", "deal_index", "seat", "win", *luck).collect()
    for (cid,), part in rows.partition_by("cell", as_dict=True).items():
        if cid in out and part.height:
            outcome = outcome_column(study, part)  # the study's estimator, as its verdicts read it
            hw = start_advantage_sequence(part, paired=paired, outcome=outcome).halfwidth
            out[cid] = hw if math.isfinite(hw) else math.inf
    return out


# ---------------------------------------------------------------- skill ladders


@dataclass(frozen=True)
class LadderRound:
    """The next round of a ladder run with ``--precision``: ``games`` per cell id (only cells
    that grow), whether every start-player verdict is ``settled`` (converged or still moving),
    the round's estimated cost, and ``line``: what was reached and what more would be needed."""

    games: dict[str, int]
    settled: bool
    cost_s: float
    line: str


def agent_cost(spec: str) -> float:
    """Relative cost of one move of an agent: its search iterations (mcts), else a hundredth."""
    return float(iterations(spec) or 0.01)


def _per_game_seconds(s: StudyAnalysis, spent_s: float) -> dict[str, float]:
    """Core-seconds per game of each cell: the run's core-seconds so far shared out over the games
    played in proportion to each cell's agents' relative cost (:func:`agent_cost`)."""
    rel = {c.id: sum(agent_cost(a) for a in c.agents) / len(c.agents) for c in s.info}
    played = {c.id: int(s.advantage_row(c.id)["games"]) if c.id in s.rows else 0 for c in s.info}
    total = sum(rel[k] * played[k] for k in rel)
    scale = spent_s / total if total > 0 and spent_s > 0 else 0.0
    return {k: rel[k] * scale for k in rel}


def _sigma2(p: LadderPoint) -> float:
    """A rung's per-unit variance from its interval and unit count."""
    se = (p.hi - p.lo) / (2 * 1.959964)
    return se * se * max(p.units, 1)


def uncertainty(m: LadderMetric, units: dict[str, float]) -> float:
    """(half-width of the top two rungs' difference / its room)² + (half-width of the slope × top
    step / its room)² at ``units`` per rung (cell id → units), each rung's per-unit variance from
    its interval, the room from the observed values (:func:`settle_room`): what a round shrinks; about 1
    or less where the verdict settles if the estimates hold."""
    c = m.verdict
    assert c is not None
    z = 1.959964 if c.family <= 1 else float(sps.norm.ppf(1 - (1 - c.level) / 2))
    top, second = m.points[-1], m.points[-2]
    hw_diff = z * math.sqrt(_sigma2(top) / units[top.cell] + _sigma2(second) / units[second.cell])
    out = (hw_diff / settle_room(c.diff, m.threshold)) ** 2
    if c.slope is not None and math.isfinite(c.step):  # else the verdict rests on the top two rungs
        idx = fitted(m.points)
        w = np.array([units[m.points[i].cell] / _sigma2(m.points[i]) for i in idx])
        x = np.array([m.points[i].elo for i in idx])
        spread = float((w * (x - (w * x).sum() / w.sum()) ** 2).sum())
        hw_slope = z * abs(c.step) / math.sqrt(spread) if spread > 0 else math.inf
        out += (hw_slope / settle_room(c.slope.slope * c.step, m.threshold)) ** 2
    return out


def _allocate(
    s: StudyAnalysis, metrics: list[LadderMetric], cost: dict[str, float], budget_s: float
) -> tuple[dict[str, float], float]:
    """Greedy: double the units of the rung whose doubling shrinks the summed :func:`uncertainty`
    most per core-second, until ``budget_s`` is spent or every number's uncertainty is below 1."""
    units = {p.cell: float(max(p.units, 1)) for m in metrics for p in m.points}
    per_unit = {p.cell: _games_per_unit(s, p) for m in metrics for p in m.points}
    spent = 0.0
    while any(uncertainty(m, units) > 1 for m in metrics):
        now = sum(uncertainty(m, units) for m in metrics)
        best, best_gain, best_cost = None, 0.0, 0.0
        for cell in units:
            extra = units[cell] * per_unit[cell] * cost.get(cell, 0.0)
            trial = dict(units, **{cell: 2 * units[cell]})
            gain = now - sum(uncertainty(m, trial) for m in metrics)
            if extra > 0 and gain / extra > best_gain:
                best, best_gain, best_cost = cell, gain / extra, extra
        if best is None or spent + best_cost > budget_s:
            break
        units[best] *= 2
        spent += best_cost
    return units, spent


def ladder_round(run_dir: pathlib.Path | str, basis_s: float, spent_s: float, budget_s: float) -> LadderRound:
    """The next precision round of a ladder study: where new games shrink the start-player
    verdicts' uncertainty most per core-second (:func:`_allocate`), within the core-seconds left
    (``budget_s`` in all, ``spent_s`` so far); the step from the rung below grows with its rung.
    ``basis_s``: the core-seconds that played the games on disk (for each cell's cost per game)."""
    from .ladder_findings import status_words
    from .study import analyse

    s = analyse(run_dir, allow_partial=True)
    ladder = s.ladder
    metrics = [m for m in (ladder.metrics if ladder else []) if m.key == "start_advantage" and m.verdict]
    if not metrics:
        return LadderRound({}, True, 0.0, "ladder precision: no rated ladder to settle")
    state = "; ".join(f"{m.question}: {status_words(m.verdict)}" for m in metrics)
    open_ = [m for m in metrics if m.verdict is not None and m.verdict.status == "unsettled"]
    if not open_:
        return LadderRound(
            {},
            True,
            0.0,
            f"ladder precision: every start-player verdict settled ({state}) after "
            f"{spent_s / 3600:.2f} core-hours",
        )
    cost = _per_game_seconds(s, basis_s)
    left = max(budget_s - spent_s, 0.0)
    units, round_cost = _allocate(s, open_, cost, min(left, max(basis_s, 1.0)))
    need_units, need_cost = _allocate(s, open_, cost, math.inf)
    games = _games(s, units)
    more = ", ".join(
        f"{p.agent} ~{math.ceil(need_units[p.cell] * _games_per_unit(s, p)):,} games"
        for p in open_[0].points
        if need_units[p.cell] > p.units
    )
    line = (
        f"ladder precision: {state} after {spent_s / 3600:.2f} core-hours; settling needs about "
        f"{need_cost / 3600:.1f} more core-hours ({more or 'no rung can help: the rungs are not rated'})"
    )
    return LadderRound(games, False, round_cost, line)


def _games_per_unit(s: StudyAnalysis, p: LadderPoint) -> float:
    return int(s.advantage_row(p.cell)["games"]) / max(p.units, 1)


def _games(s: StudyAnalysis, units: dict[str, float]) -> dict[str, int]:
    """New games per cell: each grown rung, and the head-to-head step into it in proportion."""
    out: dict[str, int] = {}
    for c in s.info:
        if c.id not in units:
            continue
        r = s.advantage_row(c.id)
        factor = units[c.id] / max(int(r["units"]), 1)
        if factor <= 1:
            continue
        out[c.id] = math.ceil(int(r["games"]) * factor)
        rung = c.agents[0]
        for step in s.info:
            if step.id in s.steps and step.agents[-1] == rung and step.variant_name == c.variant_name:
                games = int(s.advantage_row(step.id)["games"]) if step.id in s.rows else 0
                out[step.id] = math.ceil(max(games, 2) * factor)
    return out
