"""The engine's ranking of a game's seats, for many games at once: the one Python place that ranks.

A game ranks its players by score plus their seat's handicap, highest first; equal handicapped
scores fall to the game's tie-break key (higher first); players equal in both share the rank.
A player's rank is 1 plus the number of players strictly ahead; the players ranked 1 share the
win equally (1/k each for a k-way tie). This is ``rust_core``'s ``game::ranks_and_wins`` applied
to ``Handicap::scores`` (the ``rank`` and ``win`` columns of ``rust_core.simulate``);
``tests/test_ranking.py`` checks the two agree on every game of every registered game played
under a handicap. Analyses that rank games under another handicap (:mod:`.compensation`) call
:func:`rank_seats`, never a copy of the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from rundir.columns import HANDICAP

__all__ = ["Ranking", "rank_seats", "raw_scores"]


@dataclass(frozen=True)
class Ranking:
    """Games x seats: ``ranks`` (1 = best, ties share) and ``wins`` (1/k for a k-way tie for first)."""

    ranks: np.ndarray
    wins: np.ndarray


def rank_seats(scores: np.ndarray, tiebreaks: np.ndarray, handicap: np.ndarray | None = None) -> Ranking:
    """Ranks and win shares of games x seats ``scores`` (raw: without any handicap) with their
    ``tiebreaks``, under ``handicap`` (points by seat, or games x seats; ``None``: none)."""
    adjusted = np.asarray(scores, dtype=float)
    if handicap is not None:
        h = np.asarray(handicap, dtype=float)
        adjusted = adjusted + (h[None, :] if h.ndim == 1 else h)
    ties = np.asarray(tiebreaks, dtype=float)
    # ahead[g, i, j]: in game g, player j is strictly ahead of player i.
    ahead = (adjusted[:, None, :] > adjusted[:, :, None]) | (
        (adjusted[:, None, :] == adjusted[:, :, None]) & (ties[:, None, :] > ties[:, :, None])
    )
    ranks = 1 + ahead.sum(axis=2)
    first = ranks == 1
    return Ranking(ranks, first / first.sum(axis=1, keepdims=True))


def raw_scores(rows: pl.DataFrame, handicap: list[int] | None = None) -> pl.Series:
    """The game's own score of each row: ``score`` minus the seat's handicap. A run's rows hold
    the handicap (column ``handicap``); rows of a run that predates it (the column absent, or
    null in its older batch files) take ``handicap`` instead (the cell's, by seat; ``None``: none).
    A row whose recorded handicap differs from the cell's is a :class:`ValueError`."""
    fallback = pl.lit(0, dtype=pl.Int64)
    if handicap:
        fallback = pl.col("seat").replace_strict(list(range(len(handicap))), handicap, return_dtype=pl.Int64)
    recorded = pl.col(HANDICAP) if HANDICAP in rows.columns else pl.lit(None, dtype=pl.Int64)
    h = rows.with_columns(recorded.alias("r"), fallback.alias("f")).select("r", "f")
    clash = h.filter(pl.col("r").is_not_null() & (pl.col("r") != pl.col("f")))
    if clash.height:
        r, f = clash.row(0)
        raise ValueError(f"the rows hold a handicap of {r} points where the cell's is {f}")
    return (rows["score"] - h.select(pl.coalesce("r", "f"))["r"]).alias("score")
