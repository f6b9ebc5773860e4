"""A balance number's trend along a skill ladder: slope against Elo, verdict, expert limit.

* :func:`slope_from_units`: the slope of a number against the rungs' Elo from one value per
  unit (deal, or game) and rung: ordinary least squares on the stacked unit values (statsmodels
  ``OLS``: each rung weighted by its unit count, i.e. WLS of the rung means) with cluster-robust
  errors by unit index, because the rungs of a ladder play the same deals (same index, same
  shuffle) and are therefore correlated. t interval with (clusters − 1) degrees of freedom.
* :func:`slope_from_points`: the same from the rungs' estimates and intervals alone (numbers
  with no per-unit values): WLS with weights 1 / se² and the scale held fixed (statsmodels
  ``cov_type="fixed scale"``), rungs treated as independent.
* :func:`trend_status`: **converged** when the adjacent top rungs agree within ±t *and* the slope's
  interval times the top Elo step lies within ±t; else **moving** when the slope's interval
  excludes 0 or the top two rungs' difference does; else **unsettled**.
* :func:`saturating_limit`: an exponential approach in Elo, ``y = L + A·exp(−(x − x_top)/s)``,
  fitted by weighted least squares (scipy ``curve_fit`` with absolute sigma); it is *supported*
  when it fits the rungs better than a straight line (weighted χ² drop > the 95% point of χ²₁),
  its scale is positive and no longer than the Elo span fitted, ``L`` has a finite interval, and the
  curve itself fits the rungs (its weighted χ² within the 95% point of χ² on n − 3 degrees of
  freedom: a curve that misses a rung, the strongest above all, says nothing beyond them).
  Otherwise no extrapolation is made.

The Elo of each rung is taken as known (its own interval is not propagated into the slope).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import statsmodels.api as sm
from scipy import stats as sps
from scipy.optimize import curve_fit

__all__ = [
    "Limit",
    "Slope",
    "Status",
    "needed_per_rung",
    "saturating_limit",
    "slope_from_points",
    "slope_from_units",
    "trend_status",
]

Status = Literal["converged", "moving", "unsettled"]


@dataclass(frozen=True)
class Slope:
    """Slope of a number per Elo point with its ``level`` interval; ``method`` says how."""

    slope: float
    lo: float
    hi: float
    level: float
    rungs: int
    method: str
    #: The line's value at Elo 0 (to draw it).
    intercept: float = float("nan")

    def per(self, elo: float) -> tuple[float, float, float]:
        """(slope, lo, hi) per ``elo`` Elo points."""
        return self.slope * elo, self.lo * elo, self.hi * elo

    @property
    def excludes_zero(self) -> bool:
        return self.lo > 0 or self.hi < 0


@dataclass(frozen=True)
class Limit:
    """The expert limit ``L`` of a saturating fit with its interval (``supported`` False: none)."""

    supported: bool
    estimate: float = float("nan")
    lo: float = float("nan")
    hi: float = float("nan")
    scale: float = float("nan")
    reason: str = ""


def slope_from_units(
    elo: Sequence[float], values: Sequence[np.ndarray], clusters: Sequence[np.ndarray], alpha: float = 0.05
) -> Slope:
    """Slope from per-unit values per rung (``values[i]`` at ``elo[i]``), clustered by
    ``clusters[i]`` (the units' deal or game index)."""
    y = np.concatenate([np.asarray(v, dtype=float) for v in values])
    x = np.concatenate([np.full(len(v), float(e)) for v, e in zip(values, elo, strict=True)])
    g = np.concatenate([np.asarray(c) for c in clusters])
    if len(set(elo)) < 2 or y.size < 3:
        return Slope(float("nan"), float("nan"), float("nan"), 1 - alpha, len(values), "too few rungs")
    if np.all(y == y[0]):
        return Slope(0.0, 0.0, 0.0, 1 - alpha, len(values), "no variation")
    fit = sm.OLS(y, sm.add_constant(x)).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)
    return _slope_of(fit, alpha, len(values), "OLS, cluster-robust by deal")


def slope_from_points(
    elo: Sequence[float], estimate: Sequence[float], se: Sequence[float], alpha: float = 0.05
) -> Slope:
    """Slope from the rungs' estimates and standard errors (WLS, rungs independent)."""
    x, y, s = (np.asarray(v, dtype=float) for v in (elo, estimate, se))
    ok = np.isfinite(x) & np.isfinite(y) & np.isfinite(s) & (s > 0)
    if ok.sum() < 2 or len(set(x[ok])) < 2:
        return Slope(float("nan"), float("nan"), float("nan"), 1 - alpha, int(ok.sum()), "too few rungs")
    fit = sm.WLS(y[ok], sm.add_constant(x[ok]), weights=1 / s[ok] ** 2).fit(cov_type="fixed scale")
    return _slope_of(fit, alpha, int(ok.sum()), "WLS of rung estimates")


def _slope_of(fit: Any, alpha: float, rungs: int, method: str) -> Slope:
    """The slope of a fitted straight line in Elo (a statsmodels result) with its interval."""
    lo, hi = fit.conf_int(alpha=alpha)[1]
    return Slope(float(fit.params[1]), float(lo), float(hi), 1 - alpha, rungs, method, float(fit.params[0]))


def trend_status(adjacent: tuple[float, float], slope: Slope, step: float, threshold: float) -> Status:
    """Converged / moving / unsettled (module docstring) from the interval of the top rung minus
    the one below, the slope, and the Elo ``step`` between those two rungs."""
    lo, hi = adjacent
    if not (math.isfinite(slope.lo) and math.isfinite(slope.hi) and math.isfinite(step)):
        return "unsettled"
    flat = -threshold <= slope.lo * step and slope.hi * step <= threshold
    if -threshold <= lo and hi <= threshold and flat:
        return "converged"
    if slope.excludes_zero or lo > 0 or hi < 0:  # a trend, or a top step measurably not 0
        return "moving"
    return "unsettled"


def needed_per_rung(
    se_upper: float, n_upper: int, se_lower: float, n_lower: int, threshold: float, z: float, gap: float = 0.0
) -> int | None:
    """Units per rung (both rungs equal) that would bring the interval ``gap ± z·se`` of the two
    rungs' difference within ±``threshold``; each rung's unit variance is ``se² · n``. None when
    the gap itself reaches the threshold (no sample size settles it as converged)."""
    if abs(gap) >= threshold or n_upper <= 0 or n_lower <= 0:
        return None
    var = se_upper**2 * n_upper + se_lower**2 * n_lower
    return math.ceil(z**2 * var / (threshold - abs(gap)) ** 2)


def _exp(x: np.ndarray, limit: float, amp: float, scale: float) -> np.ndarray:
    return limit + amp * np.exp(-x / scale)


def _grid_starts(
    xs: np.ndarray, y: np.ndarray, s: np.ndarray, span: float
) -> list[tuple[float, float, float]]:
    """Starting points for the curve: for scales on a grid the curve is linear in (L, A), so a
    WLS fit per scale gives (L, A); the three best scales start the nonlinear fit."""
    out = []
    for scale in span * np.geomspace(0.05, 2.0, 24):
        design = np.column_stack([np.ones_like(xs), np.exp(-xs / scale)])
        fit = sm.WLS(y, design, weights=1 / s**2).fit()
        out.append(
            (float(np.sum((fit.resid / s) ** 2)), (float(fit.params[0]), float(fit.params[1]), float(scale)))
        )
    return [start for _, start in sorted(out)[:3]]


def saturating_limit(
    elo: Sequence[float], estimate: Sequence[float], se: Sequence[float], alpha: float = 0.05
) -> Limit:
    """The expert limit of an exponential approach in Elo, when the data support one."""
    x, y, s = (np.asarray(v, dtype=float) for v in (elo, estimate, se))
    if x.size < 4:
        return Limit(False, reason=f"{x.size} rungs fitted; a saturating curve needs at least 4")
    line = slope_from_points(list(x), list(y), list(s))
    if not math.isfinite(line.slope):
        return Limit(False, reason="the rungs could not be fitted")
    chi_line = float(np.sum(((y - np.polyval(np.polyfit(x, y, 1, w=1 / s), x)) / s) ** 2))
    crit = float(sps.chi2.ppf(1 - alpha, 1))
    if chi_line <= crit:  # no curve can fit better by more than the line's own misfit
        return Limit(False, reason="a straight line fits the rungs as well as a saturating curve")
    span = float(x.max() - x.min())
    xs = x - x.max()
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for start in _grid_starts(xs, y, s, span):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                p, cov = curve_fit(_exp, xs, y, p0=start, sigma=s, absolute_sigma=True, maxfev=5000)
        except (RuntimeError, ValueError):
            continue
        chi = float(np.sum(((y - _exp(xs, *p)) / s) ** 2))
        if best is None or chi < best[0]:
            best = (chi, p, cov)
    if best is None:
        return Limit(False, reason="the saturating curve could not be fitted")
    chi, p, cov = best
    limit, scale = float(p[0]), float(p[2])
    se_l = math.sqrt(cov[0, 0]) if np.isfinite(cov[0, 0]) and cov[0, 0] >= 0 else float("inf")
    if chi_line - chi <= crit:
        return Limit(False, reason="a straight line fits the rungs as well as a saturating curve")
    if not (0 < scale <= span) or not math.isfinite(se_l):
        return Limit(False, reason="the fitted curve does not level off within the Elo range played")
    dof = x.size - 3
    if chi > sps.chi2.ppf(1 - alpha, dof):  # the curve misses the rungs too: its limit means nothing
        return Limit(
            False,
            reason=f"a saturating curve does not fit the rungs either (misfit χ² {chi:.1f} on {dof} "
            f"degrees of freedom, p {sps.chi2.sf(chi, dof):.3f})",
        )
    z = float(sps.norm.ppf(1 - alpha / 2))
    return Limit(True, limit, limit - z * se_l, limit + z * se_l, scale)
