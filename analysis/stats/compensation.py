"""Compensation in points: the per-seat score handicap that equalises the seats' win shares.

From the raw final scores (the ``score`` column minus the ``handicap`` column:
:func:`.ranking.raw_scores`) and tie-break keys of a cell, the win share of every seat under a
handicap ``h`` (points added to each turn-order seat's score) is recomputed game by game as the
game ranks (:func:`.ranking.rank_seats`, the engine's rule): the highest handicapped score wins,
equal handicapped scores fall to the recorded tie-break, players equal in both share the win. A
seat's win share only grows with its own handicap, so the fair handicap of a seat is where its
share crosses ``1/n``: found by bisection over whole points and read between the two whole points
around the crossing by linear interpolation (so 1.4 means "between 1 and 2, nearer 1"); with 3+
players a fractional handicap of the other seats is read the same way (multilinear interpolation
between whole points). The start player's handicap is 0; with 3+ players the seats are solved in
turn until no handicap moves (Gauss–Seidel).

The interval is a deal-level bootstrap (:func:`scipy.stats.bootstrap`, percentile method): deals
(with paired seats, the games sharing a deal; else games) are resampled with replacement, as
game-count weights.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import bootstrap

from .intervals import ALPHA
from .ranking import rank_seats, raw_scores

__all__ = [
    "NO_TIEBREAK",
    "Compensation",
    "Outcomes",
    "compensation",
    "fair_handicap",
    "outcomes",
    "win_shares",
]

#: Why a run without the ``tiebreak`` column gets no compensation.
NO_TIEBREAK = (
    "the run predates the tiebreak column, so equal handicapped scores cannot be ranked as the game "
    "ranks them; run the study again to measure it"
)

#: Bootstrap resamples (percentile intervals).
RESAMPLES = 400
#: Bootstrap resamples with 3+ players (every resample solves the seats in turn, 2^(n-1) corners).
RESAMPLES_MANY = 100
#: Sweeps over the seats in a bootstrap resample (warm-started from the point estimate).
RESAMPLE_SWEEPS = 3
#: Gauss–Seidel sweeps at most (3+ players), and the change (points) that ends them.
SWEEPS = 30
SETTLED = 1e-3


@dataclass(frozen=True)
class Outcomes:
    """A cell's games as arrays: ``scores`` and ``tiebreaks`` (games x seats, without any handicap
    the cell was played with) and ``deal`` (a deal number 0..D-1 per game)."""

    scores: np.ndarray
    tiebreaks: np.ndarray
    deal: np.ndarray
    #: A seat's games sorted by ``d`` per corner (see :func:`_sorted_corner`); they do not
    #: depend on the weights, so every bootstrap resample reuses them.
    _corners: dict[tuple[int, tuple[float, ...]], tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def n_deals(self) -> int:
        return int(self.deal.max()) + 1 if self.deal.size else 0


@dataclass(frozen=True)
class Compensation:
    """Handicap per seat (points, seat 0 = 0) that equalises win shares, with a 95% interval."""

    points: tuple[float, ...]
    lo: tuple[float, ...]
    hi: tuple[float, ...]
    n_deals: int

    def whole(self) -> tuple[int, ...]:
        """The handicap in whole points (a rule can only add whole points)."""
        return tuple(int(np.floor(p + 0.5)) for p in self.points)


def outcomes(rows: pl.DataFrame, handicap: list[int] | None = None, *, paired: bool) -> Outcomes:
    """The games of a cell's rows, their scores raw (:func:`.ranking.raw_scores`: the rows'
    ``handicap`` taken off; ``handicap``, the cell's by seat, for rows of a run that predates it)."""
    n = int(rows["seat"].max()) + 1  # type: ignore[arg-type]
    if "tiebreak" not in rows.columns:  # never read as 0: ties would rank unlike the game ranks them
        raise ValueError(NO_TIEBREAK)
    r = rows.with_columns(raw_scores(rows, handicap))
    r = r.select("game_index", "deal_index", "seat", "score", "tiebreak").sort("game_index", "seat")
    games = r.height // n
    scores = r["score"].to_numpy().reshape(games, n).astype(float)
    ties = r["tiebreak"].to_numpy().reshape(games, n).astype(float)
    key = r["deal_index" if paired else "game_index"].to_numpy().reshape(games, n)[:, 0]
    _, deal = np.unique(key, return_inverse=True)
    return Outcomes(scores, ties, deal.astype(np.int64))


def win_shares(scores: np.ndarray, tiebreaks: np.ndarray, handicap: np.ndarray) -> np.ndarray:
    """Games x seats win shares of raw ``scores`` under ``handicap`` (points by seat), ranked as the
    game ranks (:func:`.ranking.rank_seats`)."""
    return rank_seats(scores, tiebreaks, handicap).wins


def _sorted_corner(o: Outcomes, trial: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """At whole-point handicaps ``trial`` of the other seats: the games in the order of ``d`` (the
    best other handicapped score minus ``seat``'s score), the sorted ``d``, and ``seat``'s tie-break
    share (in that order) when tied with the best other. Cached on ``o``."""
    key = (seat, tuple(float(t) for i, t in enumerate(trial) if i != seat))
    if key not in o._corners:
        adjusted = o.scores + trial[None, :]
        others = np.delete(adjusted, seat, axis=1).max(axis=1)
        d = others - o.scores[:, seat]
        adjusted[:, seat] = others  # tied with the best other: the tie-break decides
        tie = win_shares(adjusted, o.tiebreaks, np.zeros(trial.size))[:, seat]
        order = np.argsort(d, kind="stable")
        o._corners[key] = (order, d[order], tie[order])
    return o._corners[key]


def _share_curve(o: Outcomes, weights: np.ndarray, h: np.ndarray, seat: int) -> Callable[[int], float]:
    """``seat``'s mean win share as a function of its own whole-point handicap ``x``, the others
    fixed at ``h`` (a fraction of another seat read between its whole points: multilinear
    interpolation over the corners, as the crossing is read). Per corner, a game gives the seat 1
    when ``x`` > ``d`` (the best other handicapped score minus the seat's score), its tie-break
    share when ``x`` = ``d``, else 0: so with the games sorted by ``d`` once, each ``x`` costs two
    binary searches instead of a pass over the games."""
    base = np.floor(h)
    parts = [i for i in range(h.size) if i != seat and h[i] - base[i] > 1e-12]
    total = float(weights.sum())
    curves = []
    for corner in itertools.product((0, 1), repeat=len(parts)):
        trial = base.copy()
        weight = 1.0
        for i, up in zip(parts, corner, strict=True):
            trial[i] += up
            weight *= h[i] - base[i] if up else 1 - (h[i] - base[i])
        order, d, tie = _sorted_corner(o, trial, seat)
        cum_win = np.concatenate(([0.0], np.cumsum(weights[order])))
        cum_tie = np.concatenate(([0.0], np.cumsum(weights[order] * tie)))
        curves.append((weight, d, cum_win, cum_tie))

    def share(x: int) -> float:
        value = 0.0
        for weight, d, cum_win, cum_tie in curves:
            below, upto = np.searchsorted(d, x, "left"), np.searchsorted(d, x, "right")
            value += weight * (cum_win[below] + cum_tie[upto] - cum_tie[below])
        return value / total

    return share


def _crossing(o: Outcomes, weights: np.ndarray, h: np.ndarray, seat: int) -> float:
    """The handicap of ``seat`` (others fixed) where its win share crosses 1/n, interpolated."""
    n = o.scores.shape[1]
    target = 1 / n
    limit = int(np.ceil(float(np.ptp(o.scores)) + 1 + float(np.abs(h).max())))  # share(-limit) = 0
    at = _share_curve(o, weights, h, seat)
    guess, step = int(np.floor(h[seat])), 2
    lo, hi = max(guess - step, -limit), min(guess + step + 1, limit)
    f_lo, f_hi = at(lo), at(hi)
    while f_lo >= target and lo > -limit:  # widen around the current value until it brackets
        step *= 2
        hi, f_hi = lo, f_lo
        lo = max(guess - step, -limit)
        f_lo = at(lo)
    while f_hi < target and hi < limit:
        step *= 2
        lo, f_lo = hi, f_hi
        hi = min(guess + step + 1, limit)
        f_hi = at(hi)
    if f_lo >= target:
        return float(lo)
    if f_hi < target:
        return float(hi)
    while hi - lo > 1:  # invariant: f(lo) < target <= f(hi)
        mid = (lo + hi) // 2
        f_mid = at(mid)
        if f_mid < target:
            lo, f_lo = mid, f_mid
        else:
            hi, f_hi = mid, f_mid
    return lo + (target - f_lo) / (f_hi - f_lo)


def fair_handicap(
    o: Outcomes, weights: np.ndarray | None = None, start: np.ndarray | None = None, sweeps: int = SWEEPS
) -> np.ndarray:
    """Points per seat (seat 0: 0) that equalise the (weighted) win shares of every seat."""
    n = o.scores.shape[1]
    w = np.ones(o.scores.shape[0]) if weights is None else weights
    h = np.zeros(n) if start is None else start.astype(float).copy()
    for _ in range(sweeps if n > 2 else 1):
        before = h.copy()
        for seat in range(1, n):
            h[seat] = _crossing(o, w, h, seat)
        if np.abs(h - before).max() < SETTLED:
            break
    return h


def compensation(
    o: Outcomes, *, alpha: float = ALPHA, resamples: int | None = None, seed: int = 0
) -> Compensation:
    """The fair handicap of every seat with a deal-level bootstrap interval."""
    point = fair_handicap(o)
    per_game = o.deal
    if resamples is None:
        resamples = RESAMPLES if o.scores.shape[1] == 2 else RESAMPLES_MANY

    def stat(deals: np.ndarray) -> np.ndarray:
        counts = np.bincount(deals.astype(np.int64), minlength=o.n_deals)
        return fair_handicap(o, counts[per_game].astype(float), point, RESAMPLE_SWEEPS)[1:]

    res = bootstrap(
        (np.arange(o.n_deals),),
        stat,
        vectorized=False,
        n_resamples=resamples,
        confidence_level=1 - alpha,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    lo = np.atleast_1d(res.confidence_interval.low)
    hi = np.atleast_1d(res.confidence_interval.high)
    return Compensation(
        tuple(float(x) for x in point),
        (0.0, *(float(x) for x in lo)),
        (0.0, *(float(x) for x in hi)),
        o.n_deals,
    )


def as_dict(c: Compensation) -> dict[str, Any]:
    return {
        "points": list(c.points),
        "lo": list(c.lo),
        "hi": list(c.hi),
        "whole": list(c.whole()),
        "deals": c.n_deals,
    }
