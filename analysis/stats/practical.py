"""Measurably different against practically relevant: an interval read against a threshold band.

A study's *practical threshold* ``t`` (study setting ``practical_threshold``, default 0.01 = 1
point of win rate) is the smallest difference that matters to a designer. A 95% interval
``[lo, hi]`` of a difference from the fair (or null) value 0 falls in one of five classes:

=================  ==========================================================================
``matters``        the whole interval lies beyond ±t: different, by more than t
``measurable``     the interval excludes 0 but reaches inside ±t: different; may or may not matter
``negligible``     the interval excludes 0 and lies within ±t: different, but by less than t
``fair``           the interval holds 0 and lies within ±t: no difference that matters
``unsettled``      the interval holds 0 and reaches beyond ±t: more games are needed
=================  ==========================================================================

``fair`` and ``negligible`` are an equivalence verdict read off the same 95% interval (stricter
than the 90% interval of a TOST test at 5%).
"""

from __future__ import annotations

import math

__all__ = [
    "CLASSES",
    "DEFAULT_THRESHOLD",
    "MIN_VERDICT_DEALS",
    "SHORT",
    "classify",
    "direction",
    "settle_room",
    "units_to_settle",
]

#: One point of win rate.
DEFAULT_THRESHOLD = 0.01

#: Fewest units (deals, or games) behind a verdict, on every page: below, the intervals' normal
#: approximation rests on too few units, so the verdict reads "not settled".
MIN_VERDICT_DEALS = 20

CLASSES = ("matters", "measurable", "negligible", "fair", "unsettled")

#: A few words per class for tables.
SHORT = {
    "matters": "differs, and it matters",
    "measurable": "differs; may not matter",
    "negligible": "differs, too little to matter",
    "fair": "no difference that matters",
    "unsettled": "not settled",
}


def classify(lo: float, hi: float, threshold: float) -> str:
    """The class (see the module docstring) of the interval ``[lo, hi]`` against ``±threshold``."""
    if lo > threshold or hi < -threshold:
        return "matters"
    inside = -threshold <= lo and hi <= threshold
    if lo > 0 or hi < 0:
        return "negligible" if inside else "measurable"
    return "fair" if inside else "unsettled"


def direction(lo: float, hi: float, threshold: float) -> str:
    """``"above"`` or ``"below"`` (the interval excludes 0), ``"fair"`` (no difference that
    matters) or ``"unsettled"``: how the answer reads, for comparing answers across cells."""
    cls = classify(lo, hi, threshold)
    if cls in ("matters", "measurable"):
        return "above" if lo > 0 else "below"
    if cls == "unsettled":
        return "unsettled"
    return "fair"


def settle_room(estimate: float, t: float) -> float:
    """How narrow a half-width settles an estimate: below |estimate| the interval excludes 0, below
    t − |estimate| it lies inside ±t; whichever is easier (at least a tenth of t)."""
    return max(abs(estimate), t - abs(estimate), t / 10)


def units_to_settle(estimate: float, halfwidth: float, units: int, t: float) -> int:
    """Units (deals, or games) in all at which an ``unsettled`` interval of ``halfwidth`` over
    ``units`` would settle if the estimate and the spread per unit hold: its half-width shrinks as
    1/√units down to :func:`settle_room`; never fewer than :data:`MIN_VERDICT_DEALS`, nor than
    one more unit than it has."""
    need = math.ceil(units * (halfwidth / settle_room(estimate, t)) ** 2)
    return max(need, units + 1, MIN_VERDICT_DEALS)
