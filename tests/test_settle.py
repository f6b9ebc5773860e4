"""How many deals would settle a verdict that is not settled (issue 51: a page asked for 2,787 deals
for a cell that had 6,667, because the count ignored where the estimate lies)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.stats.intervals import Estimate
from analysis.stats.practical import MIN_VERDICT_DEALS, classify, units_to_settle
from analysis.study import _unsettled_warning


@settings(max_examples=500, deadline=None)
@given(
    estimate=st.floats(-0.2, 0.2, allow_nan=False),
    halfwidth=st.floats(1e-4, 0.2, allow_nan=False),
    units=st.integers(1, 100_000),
    t=st.sampled_from([0.01, 0.02, 0.03]),
)
def test_at_the_units_it_names_an_unsettled_interval_settles(estimate, halfwidth, units, t):
    """Read from the definition: at ``need`` units the half-width is ``halfwidth·√(units/need)``;
    the same estimate with it is settled (it excludes 0, or lies within ±t), and ``need`` is more
    than the units already played."""
    if classify(estimate - halfwidth, estimate + halfwidth, t) != "unsettled":
        return
    need = units_to_settle(estimate, halfwidth, units, t)
    assert need > units and need >= MIN_VERDICT_DEALS
    narrowed = halfwidth * math.sqrt(units / need) * (1 - 1e-9)
    assert classify(estimate - narrowed, estimate + narrowed, t) != "unsettled"
    assert need <= max(math.ceil(units * (halfwidth / (t / 10)) ** 2), units + 1, MIN_VERDICT_DEALS)


def test_the_warning_counts_from_the_deals_played_and_says_why():
    """The committed Maharaja case: −0.5 points [−1.1, +0.1] over 6,667 deals."""
    a = Estimate(-0.005, -0.011, 0.001, 6667, "t")
    text = _unsettled_warning("3 players, greedy", a, "unsettled", False, True, 0.01)
    assert text is not None
    assert (
        "−0.5 points [−1.1, +0.1] (6,667 deals) is not settled: its interval holds 0 and reaches "
        "beyond ±1 point" in text
    )
    need = int(text.split("About ")[1].split(" deals")[0].replace(",", ""))
    assert need > 6667  # ±0.6 must shrink to ±0.5: (0.6/0.5)² = 1.44 times the deals
    assert need == math.ceil(6667 * (0.006 / 0.005) ** 2)
    few = _unsettled_warning(
        "4 players, greedy", Estimate(0.0, -0.002, 0.002, 8, "t"), "unsettled", True, True, 0.01
    )
    assert few is not None and f"fewer than the {MIN_VERDICT_DEALS} every verdict needs" in few
    assert _unsettled_warning("x", a, "fair", False, True, 0.01) is None
