"""Alhambra-specific tables: start-player advantage adjusted for the starting hand, and Dirk.

By default Alhambra's start player is the one dealt the fewest money cards, so the raw
seat-0 win rate mixes "moving first" with "starting poorer". The adjusted advantage is the
seat-0 effect of a linear probability model ``win ~ seat0 + cards + value`` (cards and value
of the starting money, centred on the table mean), with cluster-robust standard errors by
game (by deal with ``pair_seats``), rescaled by (n-1)/n so that it is on the same scale as
"seat-0 win rate - 1/n".
"""

from __future__ import annotations

import numpy as np
import polars as pl
import statsmodels.api as sm

from .stats.intervals import ALPHA, Estimate, clustered_wilson, mean_ci, unit_col, unit_means, wilson
from .stats.seats import n_players_of

__all__ = ["KINDS", "dirk_stats", "hand_adjusted_advantage", "has_dirk"]

KINDS = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def hand_adjusted_advantage(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> Estimate:
    """Start-player advantage holding the starting money (cards and value) fixed."""
    n = n_players_of(rows)
    df = rows.with_columns(
        (pl.col("seat") == 0).cast(pl.Float64).alias("seat0"),
        (pl.col("start_money_cards") - pl.col("start_money_cards").mean().over("game_index"))
        .cast(pl.Float64)
        .alias("cards_rel"),
        (pl.col("start_money_value") - pl.col("start_money_value").mean().over("game_index"))
        .cast(pl.Float64)
        .alias("value_rel"),
    )
    x = sm.add_constant(df.select("seat0", "cards_rel", "value_rel").to_numpy(), has_constant="add")
    y = df["win"].to_numpy()
    groups = df[unit_col(paired)].to_numpy()
    units = int(np.unique(groups).size)
    if units < 3 or np.linalg.matrix_rank(x) < x.shape[1]:
        return Estimate(float("nan"), float("nan"), float("nan"), units, "not identifiable")
    fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    scale = (n - 1) / n
    lo, hi = fit.conf_int(alpha=alpha)[1]
    return Estimate(
        float(fit.params[1] * scale), float(lo * scale), float(hi * scale), units, "LPM, cluster-robust"
    )


def has_dirk(rows: pl.DataFrame) -> bool:
    """Whether these rows come from games with Dirk."""
    return "dirk_score" in rows.columns and rows["dirk_score"].null_count() < rows.height


def dirk_stats(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Dirk's record: how often he outscored the winner, his mean score and, per tile kind,
    the mean number of scorings in which he held (shared) first place.

    Columns: ``stat``, ``estimate``, ``lo``, ``hi``, ``n_units``. Empty without Dirk.
    """
    if not has_dirk(rows):
        return pl.DataFrame(
            schema={
                "stat": pl.String,
                "estimate": pl.Float64,
                "lo": pl.Float64,
                "hi": pl.Float64,
                "n_units": pl.Int64,
            }
        )
    first = [f"dirk_first_{k}" for k in KINDS]
    games = rows.group_by("game_index").agg(
        pl.col("deal_index").first(),
        pl.col("score").max().alias("top"),
        pl.col("dirk_score").first(),
        *[pl.col(c).first() for c in first],
    )
    games = games.with_columns(
        (pl.col("dirk_score") > pl.col("top")).cast(pl.Float64).alias("outscored"),
        (pl.col("dirk_score") == pl.col("top")).cast(pl.Float64).alias("tied"),
    )
    recs: list[dict[str, object]] = []

    def share(name: str, column: str) -> None:
        if paired:
            e = clustered_wilson(unit_means(games, column, paired=True)["value"].to_numpy(), alpha)
        else:
            e = wilson(float(games[column].sum()), games.height, alpha)
        recs.append({"stat": name, "estimate": e.estimate, "lo": e.lo, "hi": e.hi, "n_units": e.n_units})

    def mean(name: str, column: str) -> None:
        vals = unit_means(games, pl.col(column).cast(pl.Float64), paired=paired)["value"].to_numpy()
        e = mean_ci(vals, alpha)
        recs.append({"stat": name, "estimate": e.estimate, "lo": e.lo, "hi": e.hi, "n_units": e.n_units})

    share("Dirk outscored the winner (share of games)", "outscored")
    share("Dirk tied the winner (share of games)", "tied")
    mean("Dirk's mean score", "dirk_score")
    for k, c in zip(KINDS, first, strict=True):
        mean(f"scorings with Dirk 1st in {k}", c)
    return pl.DataFrame(recs)
