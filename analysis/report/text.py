"""Table cells and small phrases of the page (numbers via :mod:`analysis.words`)."""

from __future__ import annotations

from ..content import Code, Interval, TableCell
from ..words import MINUS, edge_digits, interval, is_missing, pts, pts_span

__all__ = ["cell_text"]


def cell_text(v: TableCell) -> str:
    """A table cell as text: intervals as ``est [lo, hi]`` (percent and points ×100, points signed)."""
    if isinstance(v, Interval):
        if v.kind == "number":
            return interval(v.estimate, v.lo, v.hi, v.digits).replace("-", MINUS)
        if is_missing(v.estimate, v.lo, v.hi):
            return "n/a"
        if v.kind == "points":
            return f"{pts(v.estimate, v.digits)} {pts_span(v.lo, v.hi, (0.0, *v.marks), v.digits)}"
        d = edge_digits(v.lo, v.hi, v.marks, v.digits)
        return f"{100 * v.estimate:.{v.digits}f} [{100 * v.lo:.{d}f}, {100 * v.hi:.{d}f}]"
    if isinstance(v, Code):
        return v.text
    if isinstance(v, float):
        return "n/a" if v != v else f"{v:.3g}".replace("-", MINUS)
    return str(v)
