"""Parameter sweeps with a fitted answer: where the start-player advantage crosses fair.

The cells of a sweep differ in one numeric option value ``x`` (e.g. Alhambra's ``dirk_tiles``,
or the second seat's score handicap). Every game contributes the start player's win share ``y``;
a straight line ``y = a + b x`` is fitted by a Gaussian GLM (least squares, :mod:`statsmodels`)
with standard errors clustered by deal (the games of one deal share their cards), and the value
where the line meets ``1/n`` is ``x* = (1/n - a) / b``. Its 95% interval is Fieller's inverse
prediction interval: the values ``x`` whose predicted advantage ``a + b x - 1/n`` is not
distinguishable from 0 at 5%. When the slope is not distinguishable from 0 the interval is
unbounded and the crossing unsettled; when ``x*`` lies outside the swept range the line is an
extrapolation there. What a report may say of a sweep ("fair at …", "never fair …") is decided by
:func:`analysis.claims.sweep_status` from the played cells and this fit, never here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
import statsmodels.api as sm
from scipy.stats import norm

from .intervals import ALPHA

__all__ = ["Crossing", "crossing", "fit_rows", "lack_of_fit"]


@dataclass(frozen=True)
class Crossing:
    """The fitted line (intercept, slope per unit of the option, their covariance) and the crossing."""

    intercept: float
    slope: float
    slope_lo: float
    slope_hi: float
    value: float  # x* (nan when the slope is 0)
    lo: float  # Fieller interval (may be +-inf)
    hi: float
    x_min: float
    x_max: float
    n_units: int
    #: p-value of the straight line against one mean per swept value (``nan``: fewer than 3 values).
    lack_of_fit_p: float = float("nan")

    @property
    def settled(self) -> bool:
        return math.isfinite(self.lo) and math.isfinite(self.hi)

    @property
    def in_range(self) -> bool:
        return self.x_min <= self.value <= self.x_max


def fit_rows(rows: pl.DataFrame, *, paired: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, cluster) per game from rows with columns ``x``, ``cell``, ``seat``, ``win``,
    ``game_index``, ``deal_index``: y = the start player's win share."""
    start = rows.filter(pl.col("seat") == 0).sort("cell", "game_index")
    unit = "deal_index" if paired else "game_index"
    groups = start.select(pl.concat_str([pl.col("cell"), pl.col(unit).cast(pl.String)], separator="/"))
    _, cluster = np.unique(groups.to_series().to_numpy(), return_inverse=True)
    return start["x"].to_numpy().astype(float), start["win"].to_numpy().astype(float), cluster


def crossing(
    x: np.ndarray, y: np.ndarray, cluster: np.ndarray, fair: float, *, alpha: float = ALPHA
) -> Crossing:
    """The fitted line and where it crosses ``fair`` (see the module docstring)."""
    design = sm.add_constant(x, has_constant="add")
    fit = sm.GLM(y, design, family=sm.families.Gaussian()).fit(
        cov_type="cluster", cov_kwds={"groups": cluster}
    )
    a, b = (float(v) for v in fit.params)
    cov = np.asarray(fit.cov_params())
    z = float(norm.ppf(1 - alpha / 2))
    sb = math.sqrt(max(cov[1, 1], 0.0))
    value = (fair - a) / b if b != 0 else float("nan")
    lo, hi = _fieller(a - fair, b, cov, z)
    return Crossing(
        a,
        b,
        b - z * sb,
        b + z * sb,
        value,
        lo,
        hi,
        float(x.min()),
        float(x.max()),
        int(np.unique(cluster).size),
        lack_of_fit(x, y, cluster),
    )


def lack_of_fit(x: np.ndarray, y: np.ndarray, cluster: np.ndarray) -> float:
    """Whether one mean per swept value departs from a straight line: a Wald test (deal-clustered
    covariance) that the means ``m_j`` satisfy ``(m_j - m_0)(x_1 - x_0) = (m_1 - m_0)(x_j - x_0)``
    for every value beyond the first two; ``nan`` with fewer than three values."""
    levels = np.unique(x)
    if levels.size < 3:
        return float("nan")
    design = (x[:, None] == levels[None, :]).astype(float)
    fit = sm.GLM(y, design, family=sm.families.Gaussian()).fit(
        cov_type="cluster", cov_kwds={"groups": cluster}
    )
    x0, x1 = levels[0], levels[1]
    r = np.zeros((levels.size - 2, levels.size))
    for row, j in enumerate(range(2, levels.size)):
        r[row, j] = x1 - x0
        r[row, 1] = -(levels[j] - x0)
        r[row, 0] = levels[j] - x1
    p = float(fit.wald_test(r, scalar=True).pvalue)
    return p if math.isfinite(p) else float("nan")


def _fieller(a: float, b: float, cov: np.ndarray, z: float) -> tuple[float, float]:
    """The x with (a + b x)^2 <= z^2 Var(a + b x): bounded when the slope is significant."""
    qa = b * b - z * z * cov[1, 1]
    qb = 2 * (a * b - z * z * cov[0, 1])
    qc = a * a - z * z * cov[0, 0]
    if qa <= 0:
        return -math.inf, math.inf
    disc = qb * qb - 4 * qa * qc
    root = math.sqrt(max(disc, 0.0))
    return (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)
