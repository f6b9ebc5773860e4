"""Seat win rates, the test of equal seat win rates, and the start-player advantage.

Win shares count ties as shares (a k-way tie for first gives each 1/k). Without
``pair_seats`` each game is an independent unit: seat win rates get Wilson intervals
(conservative with fractional tie shares) and equality is tested with a chi-square
goodness-of-fit test. With ``pair_seats`` the deal is the unit: the n rotated games of a
deal are averaged first, intervals are Wilson with the design-effect sample size of the
per-deal rates, and equality is tested with Hotelling's T-squared (a paired t-test for two
players) on the per-deal seat differences.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import chisquare, ttest_1samp
from statsmodels.stats.multivariate import test_mvmean

from .intervals import ALPHA, Estimate, clustered_wilson, mean_ci, unit_means, wilson
from .sequential import confidence_sequence

__all__ = [
    "SeatTest",
    "equal_seats_test",
    "n_players_of",
    "seat_figures",
    "seat_matrix",
    "seat_win_rates",
    "start_advantage",
    "start_advantage_sequence",
]


@dataclass(frozen=True)
class SeatTest:
    """Result of the test that every seat wins equally often."""

    statistic: float
    p_value: float
    method: str
    n_units: int


def n_players_of(rows: pl.DataFrame) -> int:
    """Player count of a cell's rows (they must all have the same)."""
    return int(rows["seat"].to_numpy().max()) + 1


def seat_matrix(rows: pl.DataFrame, value: str = "win", *, paired: bool) -> np.ndarray:
    """Units x seats matrix of the mean of ``value`` per unit and seat."""
    n = n_players_of(rows)
    wide = (
        unit_means(rows, value, paired=paired, by=["seat"])
        .pivot(on="seat", index="unit", values="value", sort_columns=True)
        .sort("unit")
    )
    return wide.select([str(s) for s in range(n)]).to_numpy().astype(float)


def _seat_estimate(rows: pl.DataFrame, seat: int, paired: bool, alpha: float) -> Estimate:
    mine = rows.filter(pl.col("seat") == seat)
    if paired:
        return clustered_wilson(unit_means(mine, "win", paired=True)["value"].to_numpy(), alpha)
    return wilson(float(mine["win"].sum()), mine.height, alpha)


def seat_win_rates(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Per seat: ``win_rate`` with ``lo``/``hi`` (95% by default), ``fair`` = 1/n, ``n_units``."""
    n = n_players_of(rows)
    recs = []
    for s in range(n):
        e = _seat_estimate(rows, s, paired, alpha)
        recs.append(
            {
                "seat": s,
                "win_rate": e.estimate,
                "lo": e.lo,
                "hi": e.hi,
                "fair": 1 / n,
                "n_units": e.n_units,
                "method": e.method,
            }
        )
    return pl.DataFrame(recs)


#: The method of an interval over luck-corrected outcomes (:mod:`analysis.estimator`).
CORRECTED_METHOD = "t, luck-corrected"


def start_advantage(
    rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA, outcome: pl.Expr | None = None
) -> Estimate:
    """Seat-0 win rate minus 1/n, with the seat-0 interval shifted by the same amount. With
    ``outcome`` (the luck-corrected win, :func:`analysis.estimator.outcome_column`) the mean of
    that per unit instead, with a Student-t interval (a corrected outcome is no share)."""
    n = n_players_of(rows)
    if outcome is None:
        return _seat_estimate(rows, 0, paired, alpha).shifted(-1 / n)
    values = unit_means(rows.filter(pl.col("seat") == 0), outcome, paired=paired)["value"].to_numpy()
    e = mean_ci(values, alpha)
    return Estimate(e.estimate - 1 / n, e.lo - 1 / n, e.hi - 1 / n, e.n_units, CORRECTED_METHOD)


def start_advantage_sequence(
    rows: pl.DataFrame,
    *,
    paired: bool,
    alpha: float = ALPHA,
    n_opt: float = 1000.0,
    outcome: pl.Expr | None = None,
) -> Estimate:
    """Seat-0 win rate minus 1/n with an anytime-valid interval (a confidence sequence over the
    units: :mod:`analysis.stats.sequential`), for loops that look after every round. With
    ``outcome`` (the luck-corrected win) the sequence over its unit means, not cut to [0, 1]."""
    n = n_players_of(rows)
    mine = rows.filter(pl.col("seat") == 0)
    values = unit_means(mine, "win" if outcome is None else outcome, paired=paired)["value"].to_numpy()
    support = SHARE if outcome is None else (-math.inf, math.inf)
    return confidence_sequence(values, alpha, n_opt, support).shifted(-1 / n)


#: Where a win share lies.
SHARE = (0.0, 1.0)


def seat_win_sequences(
    rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA, n_opt: float = 1000.0
) -> list[Estimate]:
    """Per seat (seat 0 first): the win share with an anytime-valid interval (a confidence
    sequence over the units, :mod:`analysis.stats.sequential`), for loops that look and add games."""
    out = []
    for s in range(n_players_of(rows)):
        mine = rows.filter(pl.col("seat") == s)
        values = unit_means(mine, "win", paired=paired)["value"].to_numpy()
        out.append(confidence_sequence(values, alpha, n_opt, SHARE))
    return out


def equal_seats_test(rows: pl.DataFrame, *, paired: bool) -> SeatTest:
    """Tests that every seat has win rate 1/n."""
    n = n_players_of(rows)
    if not paired:
        games = rows["game_index"].n_unique()
        wins = rows.group_by("seat").agg(pl.col("win").sum()).sort("seat")["win"].to_numpy()
        if games == 0:
            return SeatTest(float("nan"), float("nan"), "chi-square", 0)
        res = chisquare(wins, np.full(n, wins.sum() / n))
        return SeatTest(float(res.statistic), float(res.pvalue), "chi-square goodness of fit", games)
    m = seat_matrix(rows, paired=True)
    diffs = m[:, 1:] - m[:, :1]
    if np.allclose(diffs, diffs[0]):
        p = 1.0 if np.allclose(diffs[0], 0) else 0.0
        return SeatTest(float("nan"), p, "degenerate (no variation between deals)", m.shape[0])
    if n == 2:
        res = ttest_1samp(diffs[:, 0], 0.0)
        return SeatTest(
            float(res.statistic), float(res.pvalue), "paired t-test on per-deal seat differences", m.shape[0]
        )
    try:
        res = test_mvmean(diffs, np.zeros(n - 1))
        stat, p = float(res.statistic), float(res.pvalue)
    except (np.linalg.LinAlgError, ZeroDivisionError):  # singular, or too few deals for the test
        stat, p = float("nan"), float("nan")
    return SeatTest(stat, p, "Hotelling T-squared on per-deal seat differences", m.shape[0])


def seat_figures(
    rows: pl.DataFrame, metrics: Sequence[tuple[str, str, str]], *, paired: bool, alpha: float = ALPHA
) -> pl.DataFrame:
    """Per seat and figure ``(column, label, kind)``: ``seat``, ``metric`` (column), ``label``,
    ``estimate``, ``lo``, ``hi``, ``n_units``. ``kind`` ``mean``: a mean over units (deals with
    paired seats, else games) with a Student-t interval; ``share``: a 0/1 column's share (Wilson,
    clustered by deal with paired seats)."""
    recs: list[dict[str, Any]] = []
    for seat in range(n_players_of(rows)):
        mine = rows.filter(pl.col("seat") == seat)
        for column, label, kind in metrics:
            values = unit_means(mine, pl.col(column).cast(pl.Float64), paired=paired)["value"].to_numpy()
            if kind == "mean":
                e = mean_ci(values, alpha)
            elif paired:
                e = clustered_wilson(values, alpha)
            else:
                e = wilson(float(mine[column].cast(pl.Float64).sum()), mine.height, alpha)
            recs.append({"seat": seat, "metric": column, "label": label, "estimate": e.estimate} | _bounds(e))
    return pl.DataFrame(recs)


def _bounds(e: Estimate) -> dict[str, Any]:
    return {"lo": e.lo, "hi": e.hi, "n_units": e.n_units}
