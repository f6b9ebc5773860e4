"""Numbers in words, shared by the findings' sentences and the renderer's tables.

Win rates print as percentages (``48.4%``), start-player advantages and other differences of win
rates as *points* of win rate (``−1.6 points``: percentage points), intervals as ``47.9–48.9%`` in
sentences and ``est [lo, hi]`` in tables, p-values as ``< 0.001`` below one in a thousand.
"""

from __future__ import annotations

import math
import re

__all__ = [
    "MINUS", "around", "edge_digits", "interval", "is_missing", "minus_signs", "p_value", "pct", "pct_ci",
    "pts", "pts_ci", "pts_span", "signed", "span",
]  # fmt: skip

MINUS = "\u2212"


def is_missing(*values: float | None) -> bool:
    """Whether any value is None or NaN."""
    return any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values)


def minus_signs(text: str) -> str:
    """A study's own text with a true minus before each negative number (``from -3`` → ``from −3``);
    hyphens in words and ranges such as ``2-4`` stay."""
    return re.sub(r"(?<![\w-])-(?=\d)", MINUS, text)


def signed(x: float, digits: int = 1) -> str:
    """``+1.2`` / ``−1.2`` (a true minus sign; ``0.0`` unsigned)."""
    text = f"{x:+.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", MINUS)


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage: ``0.4843`` → ``48.4%``."""
    return "n/a" if is_missing(x) else f"{100 * x:.{digits}f}%"


def pts(x: float, digits: int = 1) -> str:
    """A difference of shares in points of win rate, signed: ``-0.016`` → ``−1.6``."""
    return "n/a" if is_missing(x) else signed(100 * x, digits)


def pct_ci(est: float, lo: float, hi: float, digits: int = 1) -> str:
    """``48.4% (95% CI 47.9–48.9%)``."""
    if is_missing(est, lo, hi):
        return "n/a"
    return f"{pct(est, digits)} (95% CI {100 * lo:.{digits}f}–{100 * hi:.{digits}f}%)"


def edge_digits(
    lo: float, hi: float, marks: tuple[float, ...] = (0.0,), digits: int = 1, scale: float = 100.0
) -> int:
    """Decimals an interval's ends keep (at least ``digits``): more where rounding would put an end
    on or across a mark (0, a threshold ±t) it is not on, so that ``[−8.43, −0.01]`` never prints
    as ``[−8.4, 0.0]`` beside "excludes 0", nor ``[+0.73, …]`` as ``[+1, …]`` beside ±1 point."""
    if is_missing(lo, hi):
        return digits

    def side(x: float) -> int:  # within 1e-6 (of the printed unit) counts as on the mark
        return (x > 1e-6) - (x < -1e-6)

    def keeps(d: int) -> bool:
        return all(
            side(round(scale * v, d) - scale * m) == side(scale * (v - m)) for v in (lo, hi) for m in marks
        )

    return next((d for d in range(digits, digits + 4) if keeps(d)), digits + 4)


def around(t: float) -> tuple[float, float, float]:
    """The marks a verdict against a threshold reads an interval at: 0 and ±t."""
    return (0.0, t, -t)


def pts_span(lo: float, hi: float, marks: tuple[float, ...] = (0.0,), digits: int = 1) -> str:
    """``[−2.1, −1.1]`` in points, each end on the side of every mark it is on (:func:`edge_digits`)."""
    d = edge_digits(lo, hi, marks, digits)
    return f"[{pts(lo, d)}, {pts(hi, d)}]"


def pts_ci(est: float, lo: float, hi: float, digits: int = 1, marks: tuple[float, ...] = (0.0,)) -> str:
    """``−1.6 points (95% CI −2.1 to −1.1)``; the ends as :func:`pts_span` keeps them."""
    if is_missing(est, lo, hi):
        return "n/a"
    d = edge_digits(lo, hi, marks, digits)
    return f"{pts(est, digits)} points (95% CI {pts(lo, d)} to {pts(hi, d)})"


def interval(
    est: float, lo: float, hi: float, digits: int = 3, *, scale: float = 1.0, sign: bool = False
) -> str:
    """``est [lo, hi]`` for tables (times ``scale``; ``sign``: always signed); ``n/a`` if missing."""
    if is_missing(est, lo, hi):
        return "n/a"
    if sign:
        return f"{signed(est * scale, digits)} [{signed(lo * scale, digits)}, {signed(hi * scale, digits)}]"
    return f"{est * scale:.{digits}f} [{lo * scale:.{digits}f}, {hi * scale:.{digits}f}]"


def p_value(p: float | None) -> str:
    """``< 0.001``, ``0.012``, ``0.43``, ``1``; ``n/a`` if missing."""
    if p is None or is_missing(p):
        return "n/a"
    if p < 0.001:
        return "< 0.001"
    if p < 0.1:
        return f"{p:.3f}"
    if p >= 0.995:
        return "1"
    return f"{p:.2f}"


def span(values: list[float], fmt: str) -> str:
    """``lo to hi`` of ``values`` in format spec ``fmt``; one value if all equal."""
    lo, hi = min(values), max(values)
    return format(lo, fmt) if lo == hi else f"{format(lo, fmt)} to {format(hi, fmt)}"
