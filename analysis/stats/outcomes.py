"""Per-game outcomes of a cell: scores by seat, winning margin, game length and ties."""

from __future__ import annotations

import polars as pl

from .intervals import ALPHA, Estimate, clustered_wilson, mean_ci, unit_means, wilson
from .seats import n_players_of

__all__ = ["game_length", "game_table", "margin", "score_by_seat", "tie_share"]


def game_table(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game_index``, ``deal_index``, ``turns``, ``tie`` (shared first
    place), ``margin`` (winner's score minus the runner-up's; 0 in a tie), ``top_score``."""
    desc = pl.col("score").sort(descending=True)
    return (
        rows.group_by("game_index")
        .agg(
            pl.col("deal_index").first(),
            pl.col("turns").first(),
            ((pl.col("rank") == 1).sum() > 1).alias("tie"),
            (desc.get(0) - desc.get(1)).alias("margin"),
            desc.get(0).alias("top_score"),
        )
        .sort("game_index")
    )


def _mean(games: pl.DataFrame, column: str, paired: bool, alpha: float) -> Estimate:
    return mean_ci(
        unit_means(games, pl.col(column).cast(pl.Float64), paired=paired)["value"].to_numpy(), alpha
    )


def score_by_seat(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Per seat: mean ``score`` with a 95% t-interval over units (``lo``, ``hi``)."""
    recs = []
    for s in range(n_players_of(rows)):
        e = _mean(rows.filter(pl.col("seat") == s), "score", paired, alpha)
        recs.append({"seat": s, "mean_score": e.estimate, "lo": e.lo, "hi": e.hi, "n_units": e.n_units})
    return pl.DataFrame(recs)


def margin(games: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> Estimate:
    """Mean winning margin (winner minus runner-up) of a :func:`game_table`."""
    return _mean(games, "margin", paired, alpha)


def game_length(games: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> Estimate:
    """Mean number of turns of a :func:`game_table`."""
    return _mean(games, "turns", paired, alpha)


def tie_share(games: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> Estimate:
    """Share of games with a shared first place (Wilson; design-effect Wilson over deals when paired)."""
    if paired:
        return clustered_wilson(
            unit_means(games, pl.col("tie").cast(pl.Float64), paired=True)["value"].to_numpy(), alpha
        )
    return wilson(float(games["tie"].sum()), games.height, alpha)
