"""Differences of key metrics between cells, Holm-corrected, with plain-words verdicts.

Each metric is reduced to one value per independent unit (game, or deal with
``pair_seats``); the difference of two cells' means gets a Welch t-interval and p-value
(statsmodels ``CompareMeans``). All comparisons of a study form one family corrected with
Holm's method (``multipletests(method="holm")``). Each comparison is also classed against the
metric's practical threshold (``finding``: see :mod:`analysis.stats.practical`); a difference that
Holm does not confirm is never called different.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

from .intervals import ALPHA, unit_means
from .outcomes import game_table
from .practical import classify

__all__ = ["METRICS", "Metric", "compare_cells", "metric_units"]


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


def _seat0_win(rows: pl.DataFrame, games: pl.DataFrame, paired: bool) -> np.ndarray:
    return unit_means(rows.filter(pl.col("seat") == 0), "win", paired=paired)["value"].to_numpy()


def _game_metric(column: str) -> Callable[[pl.DataFrame, pl.DataFrame, bool], np.ndarray]:
    def units(rows: pl.DataFrame, games: pl.DataFrame, paired: bool) -> np.ndarray:
        return unit_means(games, pl.col(column).cast(pl.Float64), paired=paired)["value"].to_numpy()

    return units


METRICS: tuple[Metric, ...] = (
    Metric("start_advantage", "start-player win rate", _seat0_win, 0.02),
    Metric("margin", "winning margin", _game_metric("margin"), 0.05, relative=True),
    Metric("turns", "game length (turns)", _game_metric("turns"), 0.05, relative=True),
    Metric("tie_share", "share of tied games", _game_metric("tie"), 0.02),
)


def metric_units(rows: pl.DataFrame, metric: Metric, *, paired: bool) -> np.ndarray:
    """One value of ``metric`` per independent unit of a cell's rows."""
    return metric.units(rows, game_table(rows), paired)


def _welch(a: np.ndarray, b: np.ndarray, alpha: float) -> tuple[float, float, float, float]:
    """Difference of means ``b - a`` with its interval and two-sided p-value."""
    diff = float(b.mean() - a.mean())
    if a.var() == 0 and b.var() == 0:
        # No variation in either cell: the difference is known exactly.
        return diff, diff, diff, (1.0 if diff == 0 else 0.0)
    cm = CompareMeans(DescrStatsW(b), DescrStatsW(a))
    lo, hi = cm.tconfint_diff(alpha=alpha, usevar="unequal")
    _, p, _ = cm.ttest_ind(usevar="unequal")
    return diff, float(lo), float(hi), float(p)


def _verdict(
    metric: Metric, a: str, b: str, diff: float, lo: float, hi: float, reject: bool, scale: float
) -> str:
    tol = metric.negligible * (abs(scale) if metric.relative else 1.0)
    if reject:
        word = "higher" if diff > 0 else "lower"
        size = f"a slightly {word} (below the ±{tol:.3g} that matters)" if abs(diff) < tol else f"a {word}"
        return (
            f"{b} has {size} {metric.label} than {a} (difference {diff:+.3g}, 95% CI {lo:+.3g} to {hi:+.3g})"
        )
    if -tol <= lo and hi <= tol:
        return f"no meaningful difference in {metric.label} (interval within ±{tol:.3g})"
    return f"no detectable difference in {metric.label} at this sample size (95% CI {lo:+.3g} to {hi:+.3g})"


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
    "p_holm": pl.Float64,
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
    ``cell_a``, ``cell_b``, ``mean_a``, ``mean_b``, ``diff`` (b - a), ``lo``, ``hi``, ``p_value``,
    ``p_holm``, ``reject`` (at ``alpha`` after Holm), ``threshold``, ``finding`` and ``verdict``.
    """
    if negligible:
        metrics = tuple(replace(m, negligible=negligible.get(m.name, m.negligible)) for m in metrics)
    names = dict(labels or {})
    if pairs is None:
        n_of = {k: int(v["seat"].to_numpy().max()) + 1 for k, v in cells.items()}
        pairs = [(a, b) for a, b in itertools.combinations(cells, 2) if n_of[a] == n_of[b]]
    units: dict[tuple[str, str], np.ndarray] = {}
    recs: list[dict[str, Any]] = []
    for a, b in pairs:
        for m in metrics:
            for c in (a, b):
                if (c, m.name) not in units:
                    units[(c, m.name)] = metric_units(cells[c], m, paired=paired)
            ua, ub = units[(a, m.name)], units[(b, m.name)]
            diff, lo, hi, p = _welch(ua, ub, alpha)
            scale = float(np.concatenate([ua, ub]).mean())
            recs.append(
                {
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
                    "_scale": scale,
                }
            )
    if not recs:
        return pl.DataFrame(schema=_SCHEMA)
    reject, p_holm, _, _ = multipletests([r["p_value"] for r in recs], alpha=alpha, method="holm")
    by_name = {m.name: m for m in metrics}
    for r, rej, ph in zip(recs, reject, p_holm, strict=True):
        m = by_name[r["metric"]]
        scale = r.pop("_scale")
        r["p_holm"] = float(ph)
        r["reject"] = bool(rej)
        r["threshold"] = m.negligible * (abs(scale) if m.relative else 1.0)
        r["finding"] = _finding(r["lo"], r["hi"], bool(rej), r["threshold"])
        a, b = names.get(r["cell_a"], r["cell_a"]), names.get(r["cell_b"], r["cell_b"])
        r["verdict"] = _verdict(m, a, b, r["diff"], r["lo"], r["hi"], bool(rej), scale)
    return pl.DataFrame(recs)
