"""Which outcome the start-player advantage reads: the raw win share, or the luck-corrected one.

A study with ``luck = true`` records each player's luck (column ``luck``: the sum of ``V(after) −
E[V(after)]`` over the chance events, under a frozen evaluation ``V``). Every term has mean zero,
so ``win − luck`` estimates the same expected win share as ``win`` (a control variate); where the
evaluation sees what chance deals it needs fewer deals for the same interval
(:mod:`analysis.luck` measures how many). The study key ``estimator`` chooses: ``raw`` (the
default: with today's evaluations the correction saves no deals, see
``bench/experiments/2026-11-28-luck/``) or ``corrected``.

:func:`outcome_column` is the one place that decides the column; the start-player advantage
(:func:`analysis.study._advantage_row`: each verdict, the advantage table) and the skill ladder's
trend of it, the comparisons between cells and the rule switches' changes of it, ``fairest``'s race
and ``--precision``'s stop read it (:func:`start_outcome`). Every other number reads the raw win
share (the report names them: :func:`analysis.report.luck.raw_readers`).
"""

from __future__ import annotations

import polars as pl

from rundir import Study

__all__ = ["CORRECTED", "RAW", "outcome_column", "start_outcome"]

RAW, CORRECTED = "raw", "corrected"


def outcome_column(study: Study, rows: pl.DataFrame) -> pl.Expr | None:
    """The start player's outcome the study's estimator reads from a cell's ``rows``: ``None`` for
    the raw win share (read as a share, with Wilson intervals), else the expression ``win − luck``
    (read as a mean, with Student-t intervals). A game that recorded no luck (a run continued from
    an atlas data folder) counts its luck as 0, which keeps the estimate unbiased: the luck of
    every game has mean zero, measured or not. Rows without the column are read raw."""
    if study.estimator != CORRECTED or "luck" not in rows.columns:
        return None
    return pl.col("win") - pl.col("luck").fill_null(0.0)


def start_outcome(study: Study, rows: pl.DataFrame) -> pl.Expr:
    """The start player's outcome per game as an expression of ``rows``: ``win`` for the raw
    estimator, ``win − luck`` for the corrected one (:func:`outcome_column`)."""
    corrected = outcome_column(study, rows)
    return pl.col("win") if corrected is None else corrected
