"""An interval's printed ends stay on their side of 0 and of ±t (issue 51): an interval that
excludes 0 never prints an end of ``0.0``, one wholly beyond +1 point never prints ``+1.0``, and an
end inside ±1 point never prints as ``+1.0`` (the atlas's "[+1, +8]" for +0.73)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.words import MINUS, around, pts_ci, pts_span


def _ends(span: str) -> tuple[float, float]:
    lo, hi = span.strip("[]").replace(MINUS, "-").split(", ")
    return float(lo), float(hi)


@settings(max_examples=2000, deadline=None)
@given(st.floats(-0.3, 0.3), st.floats(0, 0.3), st.sampled_from([0.01, 0.02, 0.025, 0.03, 0.05]))
def test_printed_ends_keep_their_side_of_every_mark(lo: float, width: float, t: float) -> None:
    hi = lo + width
    shown_lo, shown_hi = _ends(pts_span(lo, hi, around(t)))
    for m in around(t):  # an end within 1e-6 of a mark may print on it (four more digits at most)
        for true, shown in ((lo, shown_lo), (hi, shown_hi)):
            if true > m + 1e-6:
                assert shown > 100 * m + 1e-9, (lo, hi, m, shown)
            if true < m - 1e-6:
                assert shown < 100 * m - 1e-9, (lo, hi, m, shown)


def test_ends_take_digits_only_where_rounding_would_cross():
    assert pts_span(-0.0843, -0.0001) == f"[{MINUS}8.43, {MINUS}0.01]"
    assert pts_span(-0.021, -0.011, around(0.01)) == f"[{MINUS}2.1, {MINUS}1.1]"
    assert pts_span(0.0102, 0.02, around(0.01)) == "[+1.02, +2.00]"
    assert pts_span(0.0096, 0.02, around(0.01)) == "[+0.96, +2.00]"  # not printed on +1, which it holds
    assert pts_span(0.0073, 0.08, around(0.01)) == "[+0.7, +8.0]"
    assert pts_ci(0.01, 0.0004, 0.02).endswith("(95% CI +0.04 to +2.00)")


def test_a_study_description_gets_true_minus_signs():
    from analysis.words import minus_signs

    text = "handicap from -3 to +1 points, 2-4 players, a re-deal"
    assert minus_signs(text) == f"handicap from {MINUS}3 to +1 points, 2-4 players, a re-deal"


def test_a_table_share_keeps_its_ends_off_the_fair_share_and_the_threshold():
    """hiroba-luck's table printed "52.3 [51.0, 53.7]" for a lower end of 50.96% beside a verdict
    that the advantage is not shown beyond +1 point (51%)."""
    from analysis.content import Interval
    from analysis.report.text import cell_text

    around_fair = (0.5, 0.51, 0.49)
    assert cell_text(Interval(0.523, 0.5096, 0.5369, 1, "percent", around_fair)) == "52.3 [50.96, 53.69]"
    assert cell_text(Interval(0.523, 0.512, 0.537, 1, "percent", around_fair)) == "52.3 [51.2, 53.7]"
