"""The report's "Luck against skill" section, for a study run with ``luck = true``."""

from __future__ import annotations

import re

from ..estimator import FIRST_FITTED, FITTED, RAW
from ..fairness import sweeps
from ..games import section
from ..luck import LuckRow
from ..model import StudyAnalysis
from ..plays import cpu_ms_per_game
from ..stats.intervals import Estimate
from ..words import interval
from .doc import Doc
from .strength import rates_strength

__all__ = ["estimator_lead", "estimator_methods", "luck_section", "raw_readers"]


def _corrected_cells(s: StudyAnalysis) -> tuple[list[str], list[str]]:
    """(cells whose advantage read the corrected outcome, balance cells that read it raw)."""
    a = s.advantage
    if s.manifest.study.estimator == RAW or "estimator" not in a.columns:
        return [], []
    balance = {c.id for c in s.balance}
    read = dict(zip(a["cell"].to_list(), a["estimator"].to_list(), strict=True))
    used = [c for c, e in read.items() if c in balance and e != RAW]
    return used, [c for c in a["cell"].to_list() if c in balance and c not in used]


def _fitted(s: StudyAnalysis) -> str | None:
    """The unit the ``fitted`` estimator's slope is fitted over (``deal`` or ``game``); None for
    the other estimators."""
    if s.manifest.study.estimator != FITTED:
        return None
    return "deal" if s.paired else "game"


def _minus(s: StudyAnalysis) -> str:
    """What the corrected outcome subtracts from the win share, by the study's estimator."""
    unit = _fitted(s)
    slope = f" times a slope fitted on the {unit}s before each {unit}" if unit else ""
    return f"minus the luck measured for them{slope}"


def _slope_methods(s: StudyAnalysis) -> str:
    """How the fitted slope is fitted and why it keeps the estimate unbiased ("" otherwise)."""
    unit = _fitted(s)
    if unit is None:
        return ""
    return (
        f" The slope is the least-squares slope of the start player's outcome on their luck over the "
        f"{unit}s before each {unit}, in {unit} order (1 for the first {FIRST_FITTED}): fixed before the "
        f"{unit} it scales is played, it keeps the estimate unbiased and scales a noisy luck down."
    )


def _saved(rows: list[LuckRow]) -> str:
    """The deals saved over the cells: one cell's ``×8.05 [×6.90, ×9.40]``, or the range of the
    cells' factors ``×0.94–×8.05``."""
    if len(rows) == 1:
        return _factor(rows[0].deals_saved)
    lo, hi = min(r.deals_saved.estimate for r in rows), max(r.deals_saved.estimate for r in rows)
    return f"×{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"×{lo:.2f}–×{hi:.2f}"


def _factor(e: Estimate) -> str:
    return f"×{e.estimate:.2f} [×{e.lo:.2f}, ×{e.hi:.2f}]"


def raw_readers(s: StudyAnalysis) -> str:
    """What on this page reads the raw win share whatever the estimator (the lines through swept
    settings and the Elo ratings only where the page has them)."""
    parts = ["the seat win rates", "the test that all seats win equally often"]
    parts += ["the lines fitted through swept settings"] if sweeps(s) else []
    parts += ["the other outcomes (margins, lengths, ties)"]
    parts += ["the agents' strength (Elo)"] if rates_strength(s) else []
    return ", ".join(parts) + " and the game's own tables"


def _readers(s: StudyAnalysis) -> str:
    """What reads the corrected advantage: the skill ladder's trend only in a study with one."""
    trend = ", the skill ladder's trend of it" if s.rungs else ""
    return f"each verdict, the advantage table{trend}"


def estimator_lead(s: StudyAnalysis) -> list[str]:
    """The verdict's line on the estimator, for a study that recorded luck or asked for the
    corrected estimator (none otherwise: every number reads the win share as played)."""
    rows = s.luck
    used, raw = _corrected_cells(s)
    unit = "deals" if s.paired else "games"
    saved = f" ({unit} saved: {_saved(rows)}, per cell in Luck against skill)" if rows else ""
    if used:
        names = ", ".join(s.short(c) for c in raw)
        left = f" ({names} recorded no luck and read the raw win share)" if raw else ""
        return [
            f"Estimator: luck-corrected, as this study asks. The start-player advantage ({_readers(s)}) "
            f"reads the start player's win share {_minus(s)}, an unbiased estimate of the same "
            f"advantage{saved}{left}. "
            f"The raw win share is read by {raw_readers(s)}."
        ]
    if not rows:
        return []
    return [
        "Estimator: raw, the default: every number reads the win share as played; "
        f"{unit} the luck-corrected advantage would save: {_saved(rows)} (Luck against skill: the same "
        f"interval from that many times fewer {unit}; below ×1 it would need more, so it saves none)."
    ]


def estimator_methods(s: StudyAnalysis) -> str | None:
    """The methods paragraph on the estimator (None for a study that recorded no luck)."""
    used, _ = _corrected_cells(s)
    if not used and not s.luck:
        return None
    unit = "deal" if s.paired else "game"
    which = (
        f"This study reads the luck-corrected start-player advantage, as it asks: {_readers(s)}. "
        if used
        else "This study reads the raw win share everywhere (the default). "
    )
    return (
        f"Estimator. {which}The corrected advantage is the mean over {unit}s of the start player's win "
        f"share {_minus(s)} (a game that recorded no luck counts 0), less 1/n, with a Student-t "
        "interval (or, in a raced study, the same confidence sequence, not cut to [0, 1]); the luck has "
        f"mean zero, so it estimates the same advantage as the raw win share.{_slope_methods(s)} Its gain "
        "is the variance per "
        f"{unit} raw over corrected ({unit}s saved: how many times fewer {unit}s the same interval needs; "
        f"below 1 it costs {unit}s). Always raw: {raw_readers(s)}."
    )


def _value_words(s: StudyAnalysis) -> str:
    """What valued the positions (study key ``luck_value``)."""
    value = s.manifest.study.luck_value
    if value == "learned":
        return "the game's learned evaluation"
    k = re.search(r"k=(\d+)", value)
    h = re.search(r"h=(\d+)", value)
    cut = (
        f", cut after {h.group(1)} decisions and then the learned evaluation"
        if h and h.group(1) != "0"
        else ""
    )
    return f"the mean result of {k.group(1) if k else 'several'} greedy playouts{cut}: {value}"


def _at(s: StudyAnalysis) -> str:
    """``at=`` of the study's ``luck_value``: ``all`` (also the learned value's), ``deal``,
    ``all+ties`` or ``deal+ties``."""
    at = re.search(r"at=([a-z+]+)", s.manifest.study.luck_value)
    return at.group(1) if at else "all"


def _where(s: StudyAnalysis) -> str:
    """Which chance events were measured (a game whose set-up is its only chance event has no
    later draws to leave out)."""
    ties = "at every tie-break of a greedy player (its uniform draw among its best-valued actions)"
    if not section(s.game).chance_after_setup:
        deal = "the deal (the whole set-up, the game's only chance event)"
        return f"{deal} and {ties}" if _at(s).endswith("+ties") else deal
    words = section(s.game).chance
    deal, every = f"the deal ({words.setup})", f"every chance event (the deal, and {words.drawn})"
    return {
        "deal": f"the deal only ({words.setup})",
        "deal+ties": f"{deal} and {ties}, not at {words.later}",
        "all+ties": f"{every} and {ties}",
    }.get(_at(s), every)


def _chance(s: StudyAnalysis) -> str:
    """What the measured luck stands for: chance, and greedy's random tie-breaks when measured."""
    return "chance or greedy's random tie-breaks" if _at(s).endswith("+ties") else "chance"


def _cost(s: StudyAnalysis) -> str:
    """What playouts cost, from the run's own CPU time ("" for the learned evaluation, whose cost
    is small)."""
    m = s.manifest
    ms = cpu_ms_per_game(m.history())
    if m.study.luck_value == "learned" or ms is None:
        return ""
    unit = "deals" if s.paired else "games"
    return (
        f" {unit.capitalize()} saved counts {unit}, not CPU: the playouts made each game of this run "
        f"cost {ms:,.1f} ms of CPU, the measurement included."
    )


def luck_section(doc: Doc, s: StudyAnalysis) -> None:
    """Per cell: the start-player advantage raw and luck-corrected, the deals saved, luck's share."""
    rows = s.luck
    if not rows:
        return
    unit = "deals" if s.paired else "games"
    doc.heading("Luck against skill")
    doc.para(
        f"Each game's luck was measured at {_where(s)}: the change in a frozen evaluation of the position "
        f"({_value_words(s)}) minus its expected change over redrawn outcomes. Subtracting it{_times(s)} "
        "leaves the expected result unchanged, so "
        "the corrected advantage estimates the same quantity; where it explains much of the outcome, "
        f"it needs fewer {unit} for the same interval.{_cost(s)} {_verdicts(s)} Luck's "
        "share is the part of a game's outcome the measured luck explains (squared correlation): a lower "
        f"bound on how much of the game is {_chance(s)}, since the evaluation sees only part of it."
        + (
            " Beside it, for each rung of the skill ladder, how often it beats the rung below in their "
            "2-player games (win share, 95% CI): how much skill decides."
            if any(r.beats is not None for r in rows)
            else ""
        )
    )
    beats = any(r.beats is not None for r in rows)
    slope = any(r.slope is not None for r in rows)
    doc.table(
        ["cell", unit, "advantage raw, points [95% CI]", "corrected, points [95% CI]",
         "raw − corrected [95% CI]", f"{unit} saved [95% CI]", "luck's share of the outcome",
         *([f"slope over all {unit}"] if slope else []),
         *(["beats the rung below [95% CI]"] if beats else [])],
        [[s.short(r.cell), f"{r.units:,}", *(_points(e) for e in (r.raw, r.corrected, r.difference)),
          _factor(r.deals_saved), f"{100 * r.luck_share:.0f}%",
          *([_slope(r)] if slope else []), *([_beats(r)] if beats else [])]
         for r in rows],
    )  # fmt: skip


def _times(s: StudyAnalysis) -> str:
    """The fitted slope's clause (empty for the other estimators)."""
    unit = _fitted(s)
    if unit is None:
        return ""
    return (
        f" (times the slope of outcome on luck fitted on the {unit}s before each {unit}, as this "
        "study reads it)"
    )


def _slope(r: LuckRow) -> str:
    return "n/a" if r.slope is None else f"{r.slope:.2f}"


def _beats(r: LuckRow) -> str:
    if r.beats is None or r.below is None:
        return "n/a"
    e = r.beats
    return f"{100 * e.estimate:.0f}% [{100 * e.lo:.0f}, {100 * e.hi:.0f}] against {r.below}"


def _points(e: Estimate) -> str:
    return interval(e.estimate, e.lo, e.hi, 1, scale=100, sign=True)


def _verdicts(s: StudyAnalysis) -> str:
    if _corrected_cells(s)[0]:
        fitted = ", times the fitted slope," if _fitted(s) else ""
        return f"The verdicts above use the corrected outcomes (the luck{fitted} subtracted)."
    return "The verdicts above use the raw outcomes."
