"""Plain-words text of the report: the summary paragraph and the tables' cell formatting."""

from __future__ import annotations

import math

from ..study import StudyAnalysis

__all__ = ["ci", "span", "summary_paragraph"]


def ci(est: float, lo: float, hi: float, digits: int = 3) -> str:
    """``est [lo, hi]`` with ``digits`` decimals (``n/a`` for missing values)."""
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in (est, lo, hi)):
        return "n/a"
    return f"{est:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def span(values: list[float], fmt: str) -> str:
    """``lo to hi`` of ``values`` in format ``fmt`` (one value if they are all equal)."""
    lo, hi = min(values), max(values)
    return format(lo, fmt) if lo == hi else f"{format(lo, fmt)} to {format(hi, fmt)}"


def summary_paragraph(s: StudyAnalysis) -> str:
    """One short paragraph of findings in plain words (the details follow in the sections)."""
    parts: list[str] = []
    unit = "deals (paired seats)" if s.paired else "games"
    total = int(s.advantage["games"].sum()) if s.advantage.height else 0
    parts.append(f"This study played {total:,} games in {len(s.rows)} cells; the unit of analysis is {unit}.")
    if s.advantage.height:
        rows = list(s.advantage.iter_rows(named=True))
        more = [r for r in rows if r["lo"] > 0]
        less = [r for r in rows if r["hi"] < 0]
        none = len(rows) - len(more) - len(less)
        bits = []
        if more:
            bits.append(f"wins more often than fair in {len(more)} of {len(rows)} cells")
        if less:
            bits.append(f"wins less often than fair in {len(less)} of {len(rows)} cells")
        if none:
            bits.append(f"shows no detectable advantage in {none} of {len(rows)} cells")
        parts.append(
            "The start player "
            + ", ".join(bits)
            + f" (seat-0 win rate − 1/n from {span([r['advantage'] for r in rows], '+.3f')})."
        )
    if s.section.summary is not None:
        parts.extend(s.section.summary(s))
    if s.comparisons.height:
        n_sig = int(s.comparisons["reject"].sum())
        n = s.comparisons.height
        parts.append(
            f"{n_sig} of {n} variant comparisons show a difference after Holm correction "
            "(see Variant comparisons)."
            if n_sig
            else f"None of the {n} variant comparisons shows a detectable difference after Holm correction."
        )
    if s.warnings:
        parts.append(
            f"{len(s.warnings)} cell(s) have intervals too wide for a firm verdict (see the warnings)."
        )
    return " ".join(parts)
