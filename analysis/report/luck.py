"""The report's "Luck against skill" section, for a study run with ``luck = true``."""

from __future__ import annotations

from ..luck import luck_rows
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
    )
    doc.table(
        ["cell", unit, "advantage raw, points [95% CI]", "corrected, points [95% CI]",
         "raw − corrected [95% CI]", f"{unit} saved (×)", "luck's share of the outcome"],
        [[s.short(r.cell), f"{r.units:,}", *(_points(e) for e in (r.raw, r.corrected, r.difference)),
          f"{r.deals_saved:.2f}", f"{100 * r.luck_share:.0f}%"] for r in rows],
    )  # fmt: skip


def _points(e: Estimate) -> str:
    return interval(e.estimate, e.lo, e.hi, 1, scale=100, sign=True)
