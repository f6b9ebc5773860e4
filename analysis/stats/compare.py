"""Differences of key metrics between cells, Bonferroni-corrected, with plain-words verdicts.

Each metric is reduced to one value per independent unit (game, or deal with ``pair_seats``); the
difference of two cells' means gets a t-interval and p-value. Where the two cells share deals
(``pair_seats``: deal *i* of every cell of a study comes from the same stream), the variance of the
difference subtracts the covariance of the shared deals (:func:`_shared`), so the deals both cells
played count once as pairs and every other deal as it is; otherwise (no shared unit) Welch's
unequal-variance t (statsmodels ``CompareMeans``). All comparisons of a study form one family of
``m`` tests, corrected with Bonferroni (each p-value times ``m``, capped at 1), and every interval
is the matching *simultaneous* one, at level ``1 − alpha/m``: a difference is confirmed exactly when
its interval excludes 0, so the intervals and the tests they are read with never disagree. A
*degenerate* comparison (no variation in either cell, e.g. every game lasts 18 turns) is known
exactly and is left out of the family (``in_family`` False, no p-value). Each comparison is also
classed against the metric's practical threshold (``finding``: see :mod:`analysis.stats.practical`);
a difference the correction does not confirm is never called different.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as sps
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

from .intervals import ALPHA, unit_col, unit_means
from .outcomes import game_table
from .practical import classify

__all__ = ["METRICS", "Metric", "compare_cells", "metric_units", "start_metric"]


@dataclass(frozen=True)
class Metric:
    """A key metric: how to get one value per unit, and what difference is negligible."""

    name: str
    label: str
    units: Callable[[pl.DataFrame, pl.DataFrame, bool], np.ndarray]
    #: Differences smaller than this (absolute, or relative to the pooled mean when
    #: ``relative``) are practically irrelevant.
    negligible: float
    relative: bool = False


def start_metric(
    outcome: Callable[[pl.DataFrame], pl.Expr] = lambda rows: pl.col("win"),
    label: str = "start-player win rate",
) -> Metric:
    """The start player's mean ``outcome`` per unit (default: the raw win share; a luck-corrected
    study passes its own, :func:`analysis.estimator.start_outcome`)."""

    def units(rows: pl.DataFrame, games: pl.DataFrame, paired: bool) -> np.ndarray:
        seat0 = rows.filter(pl.col("seat") == 0)
        return unit_means(seat0, outcome(rows), paired=paired)["value"].to_numpy()

    return Metric("start_advantage", label, units, 0.02)


def _game_metric(column: str) -> Callable[[pl.DataFrame, pl.DataFrame, bool], np.ndarray]:
    def units(rows: pl.DataFrame, games: pl.DataFrame, paired: bool) -> np.ndarray:
        return unit_means(games, pl.col(column).cast(pl.Float64), paired=paired)["value"].to_numpy()

    return units


METRICS: tuple[Metric, ...] = (
    start_metric(),
    Metric("margin", "winning margin", _game_metric("margin"), 0.05, relative=True),
    Metric("turns", "game length (turns)", _game_metric("turns"), 0.05, relative=True),
    Metric("tie_share", "share of tied games", _game_metric("tie"), 0.02),
)


def metric_units(rows: pl.DataFrame, metric: Metric, *, paired: bool) -> np.ndarray:
    """One value of ``metric`` per independent unit of a cell's rows."""
    return metric.units(rows, game_table(rows), paired)


def _degenerate(a: np.ndarray, b: np.ndarray) -> bool:
    """No variation in either cell: the difference is known exactly, nothing to test."""
    return bool(a.var() == 0 and b.var() == 0)


def _welch(a: np.ndarray, b: np.ndarray, alpha: float) -> tuple[float, float, float, float]:
    """Difference of means ``b - a`` with its ``1 - alpha`` interval and two-sided p-value."""
    diff = float(b.mean() - a.mean())
    if _degenerate(a, b):
        return diff, diff, diff, float("nan")
    cm = CompareMeans(DescrStatsW(b), DescrStatsW(a))
    lo, hi = cm.tconfint_diff(alpha=alpha, usevar="unequal")
    _, p, _ = cm.ttest_ind(usevar="unequal")
    return diff, float(lo), float(hi), float(p)


def _shared(
    a: np.ndarray, ia: np.ndarray, b: np.ndarray, ib: np.ndarray, alpha: float
) -> tuple[float, float, float, float] | None:
    """``b - a`` of two cells' means over units ``ia``/``ib`` (sorted unit ids) where they share at
    least 3 units: Var(mean b − mean a) = Var a / n_a + Var b / n_b − 2 Cov_shared · n_shared /
    (n_a n_b), the covariance from the shared units; t with min(n_a, n_b) − 1 degrees of freedom.
    ``None`` without enough shared units."""
    shared, at_a, at_b = np.intersect1d(ia, ib, assume_unique=True, return_indices=True)
    na, nb, nc = a.size, b.size, shared.size
    if nc < 3 or na < 2 or nb < 2:
        return None
    cov = float(np.cov(a[at_a], b[at_b], ddof=1)[0, 1])
    var = float(a.var(ddof=1)) / na + float(b.var(ddof=1)) / nb - 2 * cov * nc / (na * nb)
    diff = float(b.mean() - a.mean())
    se = math.sqrt(max(var, 0.0))
    if se == 0:
        return diff, diff, diff, (1.0 if diff == 0 else 0.0)
    df = min(na, nb) - 1
    q = float(sps.t.ppf(1 - alpha / 2, df))
    p = float(2 * sps.t.sf(abs(diff) / se, df))
    return diff, diff - q * se, diff + q * se, p


def _verdict(
    metric: Metric, a: str, b: str, diff: float, lo: float, hi: float, reject: bool, scale: float
) -> str:
    tol = metric.negligible * (abs(scale) if metric.relative else 1.0)
    if reject:
        word = "higher" if diff > 0 else "lower"
        size = f"a slightly {word} (below the ±{tol:.3g} that matters)" if abs(diff) < tol else f"a {word}"
        return (
            f"{b} has {size} {metric.label} than {a} (difference {diff:+.3g}, simultaneous 95% CI "
            f"{lo:+.3g} to {hi:+.3g})"
        )
    if -tol <= lo and hi <= tol:
        return f"no meaningful difference in {metric.label} (interval within ±{tol:.3g})"
    return (
        f"no detectable difference in {metric.label} at this sample size (simultaneous 95% CI "
        f"{lo:+.3g} to {hi:+.3g})"
    )


_SCHEMA = {
    "metric": pl.String,
    "label": pl.String,
    "cell_a": pl.String,
    "cell_b": pl.String,
    "mean_a": pl.Float64,
    "mean_b": pl.Float64,
    "diff": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "p_value": pl.Float64,
    "p_adj": pl.Float64,
    "in_family": pl.Boolean,
    "reject": pl.Boolean,
    "threshold": pl.Float64,
    "finding": pl.String,
    "verdict": pl.String,
}


def _finding(diff_lo: float, diff_hi: float, reject: bool, tol: float) -> str:
    cls = classify(diff_lo, diff_hi, tol)
    if not reject and cls in ("matters", "measurable", "negligible"):
        return "fair" if -tol <= diff_lo and diff_hi <= tol else "unsettled"
    return cls


def compare_cells(
    cells: Mapping[str, pl.DataFrame],
    *,
    paired: bool,
    pairs: list[tuple[str, str]] | None = None,
    metrics: tuple[Metric, ...] = METRICS,
    alpha: float = ALPHA,
    labels: Mapping[str, str] | None = None,
    negligible: Mapping[str, float] | None = None,
) -> pl.DataFrame:
    """Compares every metric between cells (default: all pairs with equal player counts).

    ``cells`` maps cell ids to their rows; ``labels`` names them in the verdicts (default: the
    ids); ``negligible`` overrides metrics' thresholds by name (e.g. the study's practical
    threshold for ``start_advantage``). Returns one row per comparison: ``metric``, ``label``,
    ``cell_a``, ``cell_b``, ``mean_a``, ``mean_b``, ``diff`` (b - a), ``lo``, ``hi`` (the
    simultaneous interval), ``p_value``, ``p_adj`` (Bonferroni over the family), ``in_family``
    (False: degenerate, left out), ``reject`` (``p_adj`` < ``alpha``), ``threshold``, ``finding``
    and ``verdict``.
    """
    if negligible:
        metrics = tuple(replace(m, negligible=negligible.get(m.name, m.negligible)) for m in metrics)
    names = dict(labels or {})
    if pairs is None:
        n_of = {k: int(v["seat"].to_numpy().max()) + 1 for k, v in cells.items()}
        pairs = [(a, b) for a, b in itertools.combinations(cells, 2) if n_of[a] == n_of[b]]
    units: dict[tuple[str, str], np.ndarray] = {}
    ids = {c: np.unique(cells[c][unit_col(paired)].to_numpy()) if paired else None for c in cells}
    jobs: list[tuple[str, str, Metric, np.ndarray, np.ndarray]] = []
    for a, b in pairs:
        for m in metrics:
            for c in (a, b):
                if (c, m.name) not in units:
                    units[(c, m.name)] = metric_units(cells[c], m, paired=paired)
            jobs.append((a, b, m, units[(a, m.name)], units[(b, m.name)]))
    if not jobs:
        return pl.DataFrame(schema=_SCHEMA)
    family = sum(not _degenerate(ua, ub) for *_, ua, ub in jobs)
    level = alpha / max(family, 1)
    recs = [_record(a, b, m, ua, ub, level, family, names, (ids[a], ids[b])) for a, b, m, ua, ub in jobs]
    return pl.DataFrame(recs, schema=_SCHEMA)


def _record(
    a: str,
    b: str,
    m: Metric,
    ua: np.ndarray,
    ub: np.ndarray,
    level: float,
    family: int,
    names: Mapping[str, str],
    ids: tuple[np.ndarray | None, np.ndarray | None] = (None, None),
) -> dict[str, Any]:
    """One comparison: the simultaneous interval at ``level`` (alpha / family size), the
    Bonferroni p-value, the reading and the verdict; ``ids``: each cell's unit ids (shared deals
    are compared as pairs, :func:`_shared`)."""
    ia, ib = ids
    shared = None
    aligned = ia is not None and ib is not None and ia.size == ua.size and ib.size == ub.size
    if aligned and ia is not None and ib is not None and not _degenerate(ua, ub):
        shared = _shared(ua, ia, ub, ib, level)
    diff, lo, hi, p = shared if shared is not None else _welch(ua, ub, level)
    scale = float(np.concatenate([ua, ub]).mean())
    in_family = not _degenerate(ua, ub)
    p_adj = min(1.0, p * family) if in_family else float("nan")
    reject = bool(p_adj < level * family) if in_family else diff != 0
    threshold = m.negligible * (abs(scale) if m.relative else 1.0)
    na, nb = names.get(a, a), names.get(b, b)
    verdict = _verdict(m, na, nb, diff, lo, hi, reject, scale)
    if not in_family:
        verdict += (
            "; no variation within either cell (the difference is exact), so left out of the test family"
        )
    return {
        "metric": m.name,
        "label": m.label,
        "cell_a": a,
        "cell_b": b,
        "mean_a": float(ua.mean()),
        "mean_b": float(ub.mean()),
        "diff": diff,
        "lo": lo,
        "hi": hi,
        "p_value": p,
        "p_adj": p_adj,
        "in_family": in_family,
        "reject": reject,
        "threshold": threshold,
        "finding": _finding(lo, hi, reject, threshold),
        "verdict": verdict,
    }
