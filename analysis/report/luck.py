"""The report's "Luck against skill" section, for a study run with ``luck = true``."""

from __future__ import annotations

from ..luck import LuckRow, luck_rows
from ..model import StudyAnalysis
from ..stats.intervals import Estimate
from ..words import interval
from .doc import Doc

__all__ = ["luck_section"]


def luck_section(doc: Doc, s: StudyAnalysis) -> None:
    """Per cell: the start-player advantage raw and luck-corrected, the deals saved, luck's share."""
    rows = luck_rows(s)
    if not rows:
        return
    unit = "deals" if s.paired else "games"
    doc.heading("Luck against skill")
    doc.para(
        "Each game's luck was measured at every chance event (the deal, and every card or tile drawn): "
        "the change in a frozen evaluation of the position (the game's learned evaluation) minus its "
        "expected change over redrawn outcomes. Subtracting it leaves the expected result unchanged, so "
        "the corrected advantage estimates the same quantity; where it explains much of the outcome, "
        f"it needs fewer {unit} for the same interval. The verdicts above use the raw outcomes. Luck's "
        "share is the part of a game's outcome the measured luck explains (squared correlation): a lower "
        "bound on how much of the game is chance, since the evaluation sees only part of it."
        + (
            " Beside it, for each rung of the skill ladder, how often it beats the rung below in their "
            "2-player games (win share, 95% CI): how much skill decides."
            if any(r.beats is not None for r in rows)
            else ""
        )
    )
    beats = any(r.beats is not None for r in rows)
    doc.table(
        ["cell", unit, "advantage raw, points [95% CI]", "corrected, points [95% CI]",
         "raw − corrected [95% CI]", f"{unit} saved (×)", "luck's share of the outcome",
         *(["beats the rung below [95% CI]"] if beats else [])],
        [[s.short(r.cell), f"{r.units:,}", *(_points(e) for e in (r.raw, r.corrected, r.difference)),
          f"{r.deals_saved:.2f}", f"{100 * r.luck_share:.0f}%", *([_beats(r)] if beats else [])]
         for r in rows],
    )  # fmt: skip


def _beats(r: LuckRow) -> str:
    if r.beats is None or r.below is None:
        return "n/a"
    e = r.beats
    return f"{100 * e.estimate:.0f}% [{100 * e.lo:.0f}, {100 * e.hi:.0f}] against {r.below}"


def _points(e: Estimate) -> str:
    return interval(e.estimate, e.lo, e.hi, 1, scale=100, sign=True)
