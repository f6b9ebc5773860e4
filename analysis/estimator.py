"""Which outcome the start-player advantage reads: the raw win share, or the luck-corrected one.

A study with ``luck = true`` records each player's luck (column ``luck``: the sum of ``V(after) −
E[V(after)]`` over the chance events, under a frozen evaluation ``V``). Every term has mean zero,
so ``win − luck`` estimates the same expected win share as ``win`` (a control variate); where the
evaluation sees what chance deals it needs fewer deals for the same interval
(:mod:`analysis.luck` measures how many). The study key ``estimator`` chooses: ``raw`` (the
default: with today's evaluations the correction saves no deals, see
``bench/experiments/2026-11-28-luck/``), ``corrected`` or ``fitted``.

``fitted`` reads ``win − β·luck``, each unit's ``β`` the least-squares slope of the start player's
outcome on their luck over the units *before* it (unit index order; 1 for the first
:data:`FIRST_FITTED` units): :func:`predictable_slopes`. ``β`` is fixed before the unit is played,
and the unit's luck has mean zero whatever came before, so each ``β·luck`` has mean zero too: the
estimate stays unbiased, and the outcomes stay a martingale for the anytime-valid rules. Where the
evaluation is noisy (few playouts, many terms) the slope shrinks the noise instead of adding it
(``bench/experiments/2026-11-29-luck-fitted/``).

:func:`outcome_column` is the one place that decides the column; the start-player advantage
(:func:`analysis.study._advantage_row`: each verdict, the advantage table) and the skill ladder's
trend of it, the comparisons between cells and the rule switches' changes of it, ``fairest``'s race
and ``--precision``'s stop read it (:func:`start_outcome`). Every other number reads the raw win
share (the report names them: :func:`analysis.report.luck.raw_readers`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from rundir import Study

from .stats.intervals import unit_col

__all__ = [
    "CORRECTED",
    "FITTED",
    "RAW",
    "luck_units",
    "outcome_column",
    "predictable_slopes",
    "slope",
    "start_outcome",
]

RAW, CORRECTED, FITTED = "raw", "corrected", "fitted"
#: Units read with slope 1 before ``fitted`` fits one (a slope from fewer is mostly noise).
FIRST_FITTED = 10


def slope(outcome: np.ndarray, luck: np.ndarray) -> float:
    """The least-squares slope of ``outcome`` on ``luck`` over every unit given; 1 where the luck
    has no spread (or fewer than 3 units)."""
    if luck.size < 3 or not luck.var() > 0:
        return 1.0
    return float(np.cov(outcome, luck)[0, 1] / luck.var(ddof=1))


def predictable_slopes(outcome: np.ndarray, luck: np.ndarray, first: int = FIRST_FITTED) -> np.ndarray:
    """Per unit (in order), the least-squares slope of ``outcome`` on ``luck`` over the units before
    it: 1 for the first ``first`` units and wherever those units' luck has no spread."""
    x, y = luck.astype(float), outcome.astype(float)
    m = np.arange(x.size, dtype=float)  # units before each one

    def before(v: np.ndarray) -> np.ndarray:
        return np.concatenate(([0.0], np.cumsum(v)[:-1]))

    sx, sy, sxx, sxy = before(x), before(y), before(x * x), before(x * y)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = sxx - sx * sx / m
        cov = sxy - sx * sy / m
        beta = cov / var
    ok = (m >= max(first, 2)) & (var > 1e-12 * np.maximum(sxx, 1e-300))
    return np.where(ok, beta, 1.0)


def luck_units(rows: pl.DataFrame, paired: bool) -> pl.DataFrame:
    """The start player's mean ``win`` and ``luck`` per unit (column :func:`unit_col`), over the
    units whose every game recorded its luck, in unit order (the order the slopes are fitted in)."""
    unit = unit_col(paired)
    return (
        rows.filter(pl.col("seat") == 0)
        .group_by(unit)
        .agg(pl.col("win").mean(), pl.col("luck").mean(), pl.col("luck").null_count().alias("gaps"))
        .filter(pl.col("gaps") == 0)
        .drop("gaps")
        .sort(unit)
    )


def _slopes(study: Study, rows: pl.DataFrame) -> pl.Expr:
    """Each row's slope by its unit (:func:`predictable_slopes` over :func:`luck_units`; units with
    an unmeasured game count their luck as 0 and keep slope 1)."""
    unit = unit_col(study.pair_seats)
    per = luck_units(rows, study.pair_seats)
    beta = predictable_slopes(per["win"].to_numpy(), per["luck"].to_numpy())
    units = per[unit].to_list()
    return pl.col(unit).replace_strict(units, beta.tolist(), default=1.0, return_dtype=pl.Float64)


def outcome_column(study: Study, rows: pl.DataFrame) -> pl.Expr | None:
    """The start player's outcome the study's estimator reads from a cell's ``rows``: ``None`` for
    the raw win share (read as a share, with Wilson intervals), else the expression ``win − luck``
    (read as a mean, with Student-t intervals), or ``win − β·luck`` for ``fitted`` (``β`` fitted
    from ``rows``, the cell's games: :func:`predictable_slopes`). A game that recorded no luck (a
    run continued from an atlas data folder) counts its luck as 0, which keeps the estimate
    unbiased: the luck of every game has mean zero, measured or not. Rows without the column are
    read raw."""
    if study.estimator == RAW or "luck" not in rows.columns:
        return None
    luck = pl.col("luck").fill_null(0.0)
    return pl.col("win") - (luck if study.estimator == CORRECTED else luck * _slopes(study, rows))


def start_outcome(study: Study, rows: pl.DataFrame) -> pl.Expr:
    """The start player's outcome per game as an expression of ``rows``: ``win`` for the raw
    estimator, the corrected outcome for the others (:func:`outcome_column`)."""
    corrected = outcome_column(study, rows)
    return pl.col("win") if corrected is None else corrected
