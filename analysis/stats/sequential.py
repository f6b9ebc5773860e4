"""Anytime-valid intervals: confidence sequences for loops that look at the data and add games.

A fixed-sample 95% interval covers its true value in 95% of studies only when the number of games
was fixed in advance. A loop that looks after every round and stops once the interval is narrow
enough, excludes a value or leaves a race (``--precision``, ``fairest``, ladder top-ups) looks
many times, and each look is another chance to be wrong. A *confidence sequence* is a sequence of
intervals that hold the true value **at every look at once** with probability 1 − α, so stopping
whenever one likes keeps the error rate.

The one here is the Gaussian-mixture asymptotic confidence sequence of Waudby-Smith, Arnold, Wu,
Howard and Ramdas ("Time-uniform central limit theory and asymptotic confidence sequences",
Annals of Statistics, 2024), for the mean of independent unit values (deals, or games):

    mean ± sd · sqrt( 2 (n ρ² + 1) / (n² ρ²) · log( sqrt(n ρ² + 1) / α ) )

with ``sd`` the units' standard deviation (regularised by one pseudo-unit of variance 1/4) and
``ρ`` tuned so the boundary is tightest at ``n_opt`` units (:func:`rho_for`). It is valid as the
units grow (like the usual interval, it rests on the central limit theorem);
``bench/experiments/2026-11-28-anytime-valid/`` measures its coverage under repeated looks on
``coin``. At ``n_opt`` it is about 1.5 times as wide as the fixed-sample interval: the price of
looking as often as one likes.
"""

from __future__ import annotations

import math

import numpy as np

from .intervals import ALPHA, Estimate

__all__ = ["confidence_sequence", "cs_halfwidth", "rho_for"]

METHOD = "confidence sequence (anytime-valid)"
#: The largest variance of a value in [0, 1] (win shares), weighing one pseudo-unit of the spread.
PRIOR_VARIANCE = 0.25


def rho_for(n_opt: float, alpha: float = ALPHA) -> float:
    """The mixture scale ρ that makes the boundary tightest at ``n_opt`` units."""
    la = -2 * math.log(alpha)
    return math.sqrt((la + math.log(la + 1)) / max(n_opt, 1.0))


def cs_halfwidth(n: int, sd: float, alpha: float = ALPHA, n_opt: float = 1000.0) -> float:
    """Half-width of the confidence sequence after ``n`` units of standard deviation ``sd``."""
    if n <= 1 or not math.isfinite(sd):
        return math.inf
    r2 = rho_for(n_opt, alpha) ** 2
    return sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1) / alpha))


def confidence_sequence(
    values: np.ndarray,
    alpha: float = ALPHA,
    n_opt: float = 1000.0,
    support: tuple[float, float] = (-math.inf, math.inf),
) -> Estimate:
    """The mean of independent unit values with its anytime-valid interval at this look, cut to
    the values' ``support`` when given (win shares lie in [0, 1]: a bound beyond it says nothing,
    and the mean lies inside, so the cut interval covers whenever the uncut one does)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, METHOD)
    m = float(v.mean())
    # the spread regularised by one pseudo-unit of the largest variance of a share (1/4), as in
    # Waudby-Smith and Ramdas' plug-in: a run of identical outcomes is never read as certainty
    sd = math.sqrt((PRIOR_VARIANCE + float(((v - m) ** 2).sum())) / (v.size + 1))
    hw = cs_halfwidth(int(v.size), sd, alpha, n_opt)
    return Estimate(m, max(m - hw, support[0]), min(m + hw, support[1]), int(v.size), METHOD)
