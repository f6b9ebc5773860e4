"""Anytime-valid intervals hold their coverage under repeated looks; fixed-sample ones do not."""

from __future__ import annotations

import math

import numpy as np

from analysis.stats.sequential import confidence_sequence, cs_halfwidth


def _coverage(halfwidth, p: float = 0.6, reps: int = 400, n: int = 4000, every: int = 20) -> float:
    """Share of replications whose interval holds ``p`` at every look (every ``every`` units)."""
    rng = np.random.default_rng(11)
    x = (rng.random((reps, n)) < p).astype(float)
    s, s2 = np.cumsum(x, 1), np.cumsum(x * x, 1)
    missed = np.zeros(reps, dtype=bool)
    for k in range(every, n + 1, every):
        m = s[:, k - 1] / k
        sd = np.sqrt((s2[:, k - 1] - k * m * m) / (k - 1))
        missed |= np.abs(m - p) > np.array([halfwidth(k, v) for v in sd])
    return 1 - float(missed.mean())


def test_a_confidence_sequence_covers_at_every_look_and_a_fixed_interval_does_not():
    assert _coverage(lambda k, sd: cs_halfwidth(k, sd)) >= 0.95
    assert _coverage(lambda k, sd: 1.959964 * sd / math.sqrt(k)) < 0.80  # peeking: far below 95%


def test_the_sequence_costs_about_half_again_the_width_at_its_tuned_size():
    ratio = cs_halfwidth(1000, 0.5) / (1.959964 * 0.5 / math.sqrt(1000))
    assert 1.3 < ratio < 1.8
    assert cs_halfwidth(1, 0.5) == math.inf and cs_halfwidth(4000, 0.5) < cs_halfwidth(1000, 0.5)


def test_the_estimate_is_the_mean_with_its_sequence_interval():
    e = confidence_sequence(np.array([0.0, 1.0, 1.0, 0.0, np.nan, 1.0]))
    assert e.estimate == 0.6 and e.n_units == 5 and e.lo < 0.6 < e.hi
    assert e.method.startswith("confidence sequence")


def test_a_share_interval_never_leaves_zero_to_one():
    import numpy as np

    from analysis.stats.sequential import confidence_sequence

    few = np.array([1.0, 1.0, 0.0, 1.0])
    cut = confidence_sequence(few, support=(0.0, 1.0))
    wide = confidence_sequence(few)
    assert wide.lo < 0 and wide.hi > 1  # four units: the bare sequence says nothing here
    assert (cut.lo, cut.hi) == (0.0, 1.0) and cut.estimate == wide.estimate
