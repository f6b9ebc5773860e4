"""``balancelab fairest``: racing over candidate settings towards the fairest one.

Every cell of the study is a candidate setting (its named variant and option values: the
designer's space). After each round of games the runner asks :func:`fairest_round`, which reads
the run directory and, per candidate, the start-player advantage (seat-0 win share minus 1/n)
with its 95% interval (deal-clustered with paired seats). Racing (successive elimination):

* every candidate's start-player advantage carries an anytime-valid interval (a confidence
  sequence, :mod:`analysis.stats.sequential`): the race looks after every round, and a
  fixed-sample interval would be wrong more often than 5% of the time over all those looks;
* a candidate's *distance from fair* lies between ``near`` (0 when its interval holds 0, else
  the interval's bound nearest 0) and ``far`` (the bound farthest from 0);
* a candidate is **out** (shown worse) when its ``near`` exceeds the smallest ``far`` of any
  candidate: its whole interval is farther from fair than all of the best one's;
* the others stay in and get twice their games in the next round, until one is left, every one
  left is within the practical threshold (all fair: a tie the designer breaks), or the game cap.

A candidate out in one round may come back if the leader's interval widens (nothing is
remembered between rounds: the decision is a function of the data on disk, so ``fairest`` resumes
like ``run``). Where the candidates differ in one numeric option, the fair value's interval is the
range of the settings left in the race (``bench/fairest_coin.py``: it held the fair value in 100 of
100 replications on coin); the crossing fitted over every game played (:mod:`analysis.stats.sweep`)
is shown beside it as a description only: the rounds stop eliminated candidates when they look
extreme, which biases the fit, and its Fieller interval held the fair value in only 82 of 100.
Secondary objectives per candidate: mean turns, share of games with a tie for first, mean score
spread (best minus worst score).
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from rundir import Manifest, Study

from .claims import Interval, SweepClaim, sweep_sentence
from .estimator import outcome_column, start_outcome
from .fairness import sweeps_of
from .load import open_run
from .model import CellInfo, cell_infos
from .stats.intervals import unit_means
from .stats.practical import classify
from .stats.seats import start_advantage_sequence
from .stats.sequential import confidence_sequence
from .words import around, pts, pts_span

__all__ = ["FairestStep", "fairest_round", "fairest_rounds", "race_again", "sequence_n_opt"]


@dataclass
class FairestStep:
    """The next round: games per cell id that grow, whether the race is settled, one line, and the
    record kept in the manifest (``precision_rounds[].fairest``)."""

    games: dict[str, int]
    settled: bool
    line: str
    record: dict[str, Any] = field(default_factory=dict)


def _near_far(lo: float, hi: float) -> tuple[float, float]:
    near = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
    return near, max(abs(lo), abs(hi))


def _secondary(r: pl.DataFrame) -> dict[str, float]:
    per_game = r.group_by("game_index").agg(
        pl.col("turns").first(),
        (pl.col("win").max() < 1).alias("tie"),
        (pl.col("score").max() - pl.col("score").min()).alias("spread"),
    )
    return {
        "turns": float(per_game["turns"].mean() or 0.0),  # type: ignore[arg-type]
        "ties": float(per_game["tie"].mean() or 0.0),  # type: ignore[arg-type]
        "spread": float(per_game["spread"].mean() or 0.0),  # type: ignore[arg-type]
    }


def fairest_rounds(manifest: Manifest) -> list[dict[str, Any]]:
    """The race's records (``precision_rounds[].fairest``), oldest first; empty for any other run."""
    return [r["fairest"] for r in manifest.precision_rounds if "fairest" in r]


def sequence_n_opt(manifest: Manifest, max_games: int | None = None) -> float:
    """The units a confidence sequence is tuned to: the race's game cap (as recorded, else the largest
    cell's games) in deals with paired seats, else in games. Any value gives valid intervals; it only
    decides where they are narrowest."""
    study = manifest.study
    rounds = fairest_rounds(manifest)
    recorded = rounds[-1].get("max_games") if rounds else None
    cap = max_games or recorded or max(c.games for c in study.cells)
    return cap / max(c.n_players for c in study.cells) if study.pair_seats else float(cap)


def candidate(
    cell: str, label: str, r: pl.DataFrame, study: Study, n_opt: float, threshold: float
) -> dict[str, Any]:
    """One setting of the race: games, the advantage (as the study's estimator reads it) with its
    anytime-valid interval, its practical class, near/far and the secondary objectives."""
    outcome = outcome_column(study, r)
    a = start_advantage_sequence(r, paired=study.pair_seats, n_opt=n_opt, outcome=outcome)
    near, far = _near_far(a.lo, a.hi)
    return {"cell": cell, "label": label, "games": int(r["game_index"].n_unique()),
            "advantage": a.estimate, "lo": a.lo, "hi": a.hi, "near": near, "far": far,
            "class": classify(a.lo, a.hi, threshold), "threshold": threshold} | _secondary(r)  # fmt: skip


def candidates(
    run_dir: pathlib.Path, threshold: float, max_games: int | None = None
) -> tuple[list[dict[str, Any]], dict[str, pl.DataFrame], bool]:
    """Per cell: label, games, advantage with its anytime-valid interval (a confidence sequence
    tuned to the cap's units: the race looks after every round), practical class, near/far,
    secondary."""
    run = open_run(run_dir)
    study = run.manifest.study
    n_opt = sequence_n_opt(run.manifest, max_games)
    rows: dict[str, pl.DataFrame] = {}
    out = []
    for info in cell_infos(study.cells):
        rows[info.id] = run.cell_rows(info.id)
        out.append(candidate(info.id, info.name, rows[info.id], study, n_opt, threshold))
    return out, rows, study.pair_seats


def race(cands: list[dict[str, Any]], max_games: int) -> tuple[dict[str, int], bool]:
    """Marks each candidate ``in``/``out`` (``status``) and returns the next games of those in, and
    whether the race is settled."""
    best_far = min(c["far"] for c in cands)
    alive = [c for c in cands if c["near"] <= best_far]
    for c in cands:
        c["status"] = "in" if c in alive else "out (worse)"
    all_fair = all(c["class"] in ("fair", "negligible") for c in alive)
    capped = all(c["games"] >= max_games for c in alive)
    settled = len(alive) == 1 or all_fair or capped
    if settled:
        return {}, True
    return {c["cell"]: min(2 * c["games"], max_games) for c in alive if c["games"] < max_games}, False


#: A candidate's place in the race, in words.
RACE_WORDS = {"in": "still in the race", "out (worse)": "out of the race (shown farther from fair)"}


def _points(c: dict[str, Any]) -> str:
    """A candidate's advantage, its ends on their side of 0 and of ±t (older records: of 0)."""
    marks = around(c["threshold"]) if "threshold" in c else (0.0,)
    return f"{pts(c['advantage'])} points {pts_span(c['lo'], c['hi'], marks)}"


def _official_words(
    cands: list[dict[str, Any]], best: dict[str, Any], study: Study, rows: dict[str, pl.DataFrame]
) -> str:
    """The official setting first: its advantage, and the fairest one's paired difference to it over
    the deals both played (an anytime-valid interval: the race looks after every round)."""
    official, paired = study.official, study.pair_seats
    if official is None:
        return "the study file names no official setting; "
    o = next(c for c in cands if c["cell"] == official)
    said = f"official {o['label']}: {_points(o)}, {RACE_WORDS[o['status']]}; "
    name = _best_name(cands)
    if best["cell"] == official:
        return said + f"it is {name}; "
    unit = "deal_index" if paired else "game_index"
    per = [
        unit_means(rows[c].filter(pl.col("seat") == 0), start_outcome(study, rows[c]), paired=paired)
        for c in (official, best["cell"])
    ]
    both = per[0].join(per[1], on="unit", suffix="_b")
    d = confidence_sequence((both["value_b"] - both["value"]).to_numpy())
    return said + (
        f"{name} minus the official, over the {d.n_units:,} {unit.split('_')[0]}s both played: "
        f"{pts(d.estimate)} points {pts_span(d.lo, d.hi)}{_closer_words(d.lo, d.hi, best, o, name)}; "
    )


def _separated(cands: list[dict[str, Any]]) -> bool:
    """Whether the race shows a fairest setting: it dropped one (shown farther from fair), or there
    was only one."""
    return len(cands) < 2 or any(c["status"] != "in" for c in cands)


def _best_name(cands: list[dict[str, Any]]) -> str:
    """What the race's best setting is called: ``the fairest`` once the race separated the settings,
    else only ``the closest by its estimate``."""
    return "the fairest" if _separated(cands) else "the closest by its estimate"


def _closer_words(
    lo: float, hi: float, best: dict[str, Any], official: dict[str, Any], name: str = "the fairest"
) -> str:
    """Whether the difference (fairest minus official, interval ``[lo, hi]``) shows the fairest
    closer to fair: only when the interval excludes 0 on the side that moves the official towards
    0; an interval holding 0 says the difference is not shown."""
    if lo <= 0 <= hi:
        return f" (it holds 0: {name} is not shown closer to fair than the official)"
    towards = (lo > 0) == (official["advantage"] < 0)
    closer = abs(best["advantage"]) < abs(official["advantage"])
    return " (closer to fair)" if towards and closer else ""


def _line(
    cands: list[dict[str, Any]],
    fit: str,
    spent: int,
    official: str = "",
) -> str:
    alive = sorted((c for c in cands if c["status"] == "in"), key=lambda c: (c["far"], c["near"]))
    best = alive[0]
    if not _separated(cands):  # nothing dropped: no setting is shown the fairest
        lead = official + f"closest to fair by its estimate: {best['label']} {_points(best)}"
        others = f"the race separated none of the {len(cands)} settings"
    else:
        lead = official + f"fairest: {best['label']} {_points(best)}"
        others = (
            f"{len(alive) - 1} of the {len(cands) - 1} other settings not shown worse"
            if len(alive) > 1
            else f"all {len(cands) - 1} other settings shown worse"
        )
    return f"{lead}; {others}; {spent:,} games spent" + (f"; {fit}" if fit else "")


def _sweep(
    cands: list[dict[str, Any]],
    rows: dict[str, pl.DataFrame],
    infos: list[CellInfo],
    paired: bool,
    threshold: float,
) -> tuple[str, dict[str, Any] | None]:
    """Where the settings differ in one numeric option: the range of those left in the race, and the
    line fitted over every game in words through :func:`analysis.claims.sweep_sentence` (each played
    setting's anytime-valid interval first; the line is read only when it may be), marked descriptive."""
    found = sweeps_of(infos, rows, paired=paired, min_values=3)
    if len(found) != 1:
        return "", None
    w = found[0]
    by_cell = {c["cell"]: c for c in cands}
    left = [x for cell, x in w.cells if by_cell[cell]["status"] == "in"]
    claim = SweepClaim(
        option=w.option,
        subject=w.label,
        cells=tuple(
            (x, Interval(by_cell[c]["advantage"], by_cell[c]["lo"], by_cell[c]["hi"]))
            for c, x in sorted(w.cells, key=lambda t: t[1])
        ),
        slope=Interval(w.fit.slope, w.fit.slope_lo, w.fit.slope_hi),
        crossing=Interval(w.fit.value, w.fit.lo, w.fit.hi),
        lack_of_fit_p=w.fit.lack_of_fit_p,
        threshold=threshold,
    )
    fit = (
        f"fair {w.option} among the settings left: {min(left):g} to {max(left):g}; "
        f"{sweep_sentence(claim).rstrip('.')} (the line is descriptive: after adaptive rounds its interval "
        "is too narrow)"
    )
    crossing = {"option": w.option, "value": w.fit.value, "lo": w.fit.lo, "hi": w.fit.hi,
                "left_lo": min(left), "left_hi": max(left)}  # fmt: skip
    return fit, crossing


def race_words(
    cands: list[dict[str, Any]],
    rows: dict[str, pl.DataFrame],
    manifest: Manifest,
    threshold: float,
) -> tuple[str, dict[str, Any] | None]:
    """The race's line (official setting, fairest, the others, games spent, a sweep's range) and the
    crossing record, from candidates already marked by :func:`race`."""
    study = manifest.study
    fit, crossing = _sweep(cands, rows, cell_infos(study.cells), study.pair_seats, threshold)
    spent = sum(c["games"] for c in cands)
    best = min((c for c in cands if c["status"] == "in"), key=lambda c: (c["far"], c["near"]))
    official = _official_words(cands, best, study, rows)
    return _line(cands, fit, spent, official), crossing


def fairest_round(run_dir: pathlib.Path, *, threshold: float, max_games: int) -> FairestStep:
    """The racing decision after a round (see the module docstring)."""
    cands, rows, _ = candidates(pathlib.Path(run_dir), threshold, max_games)
    games, settled = race(cands, max_games)
    line, crossing = race_words(cands, rows, open_run(run_dir).manifest, threshold)
    record = {
        "line": line,
        "settled": settled,
        "games_spent": sum(c["games"] for c in cands),
        "max_games": max_games,
        "crossing": _finite(crossing),
        "candidates": [{k: v for k, v in c.items() if k not in ("near", "far")} for c in cands],
    }
    return FairestStep(games, settled, line, record)


def race_again(
    manifest: Manifest, rows: dict[str, pl.DataFrame], threshold: float
) -> tuple[list[dict[str, Any]], str]:
    """For a report: the race's last state recomputed from the games on disk (every interval a
    confidence sequence, whatever the recorded round printed): the candidates marked in/out, and
    the line."""
    n_opt = sequence_n_opt(manifest)
    cands = [
        candidate(c.id, c.name, rows[c.id], manifest.study, n_opt, threshold)
        for c in cell_infos(manifest.study.cells)
        if c.id in rows
    ]
    race(cands, max(c["games"] for c in cands))
    return cands, race_words(cands, rows, manifest, threshold)[0]


def _finite(d: dict[str, Any] | None) -> dict[str, Any] | None:
    """JSON has no infinities: unbounded ends become null."""
    if d is None:
        return None
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}
