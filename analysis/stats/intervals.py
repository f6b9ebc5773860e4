"""Point estimates with 95% intervals, and the unit of analysis (game, or deal when paired)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from statsmodels.stats.proportion import proportion_confint
from statsmodels.stats.weightstats import DescrStatsW

__all__ = ["Estimate", "clustered_wilson", "mean_ci", "unit_col", "unit_means", "wilson"]

ALPHA = 0.05


@dataclass(frozen=True)
class Estimate:
    """An estimate with its (1 - alpha) interval, the number of independent units and the method."""

    estimate: float
    lo: float
    hi: float
    n_units: int
    method: str

    @property
    def halfwidth(self) -> float:
        """Half the interval's width."""
        return (self.hi - self.lo) / 2

    def shifted(self, by: float) -> Estimate:
        """The same interval moved by ``by`` (e.g. a win rate minus 1/n)."""
        return Estimate(self.estimate + by, self.lo + by, self.hi + by, self.n_units, self.method)

    def excludes(self, value: float) -> bool:
        """Whether the interval lies entirely above or below ``value``."""
        return self.lo > value or self.hi < value


def wilson(count: float, n: int, alpha: float = ALPHA) -> Estimate:
    """Wilson score interval of a proportion (``count`` may be fractional: tie shares)."""
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "wilson")
    lo, hi = proportion_confint(count, n, alpha=alpha, method="wilson")
    return Estimate(count / n, float(lo), float(hi), n, "wilson")


def clustered_wilson(unit_values: np.ndarray, alpha: float = ALPHA) -> Estimate:
    """Proportion from per-unit shares (e.g. per-deal win rates): Wilson interval with the
    effective sample size ``p(1-p) / Var(p_hat)`` (Kish design effect), ``Var(p_hat)``
    estimated from the spread of the unit values. Keeps Wilson's good coverage near 0 and 1
    while honouring the dependence inside a unit."""
    v = np.asarray(unit_values, dtype=float)
    v = v[~np.isnan(v)]
    d = v.size
    if d == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "clustered wilson")
    p = float(v.mean())
    var_p = float(v.var(ddof=1)) / d if d > 1 else 0.0
    n_eff = p * (1 - p) / var_p if var_p > 0 and 0 < p < 1 else float(d)
    lo, hi = proportion_confint(p * n_eff, n_eff, alpha=alpha, method="wilson")
    return Estimate(p, float(lo), float(hi), d, "clustered wilson")


def mean_ci(values: np.ndarray, alpha: float = ALPHA) -> Estimate:
    """Mean of independent unit values with a Student-t interval (zero width if constant)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "t")
    m = float(v.mean())
    if v.size < 2 or np.all(v == v[0]):
        return Estimate(m, m, m, int(v.size), "t")
    lo, hi = DescrStatsW(v).tconfint_mean(alpha=alpha)
    return Estimate(m, float(lo), float(hi), int(v.size), "t")


def unit_col(paired: bool) -> str:
    """The column identifying independent units: the deal with ``pair_seats``, else the game."""
    return "deal_index" if paired else "game_index"


def unit_means(
    frame: pl.DataFrame, value: str | pl.Expr, *, paired: bool, by: list[str] | None = None
) -> pl.DataFrame:
    """Mean of ``value`` per unit (and per ``by`` group): one independent value per unit.

    ``frame`` has one row per game (or per player per game); the result has columns
    ``*by, unit, value``.
    """
    expr = pl.col(value) if isinstance(value, str) else value
    keys = [*(by or []), unit_col(paired)]
    out = frame.group_by(keys).agg(expr.mean().alias("value")).rename({unit_col(paired): "unit"})
    return out.sort([*(by or []), "unit"])
