"""Alhambra-specific tables: start-player advantage adjusted for the starting hand, and Dirk.

:data:`SECTION` plugs them into the generic analysis and report (see :mod:`analysis.games`).

By default Alhambra's start player is the one dealt the fewest money cards, so the raw
seat-0 win rate mixes "moving first" with "starting poorer". The adjusted advantage is the
seat-0 effect of a linear probability model ``win ~ seat0 + cards + value`` (cards and value
of the starting money, centred on the table mean), with cluster-robust standard errors by
game (by deal with ``pair_seats``), rescaled by (n-1)/n so that it is on the same scale as
"seat-0 win rate - 1/n".
"""

from __future__ import annotations

import math
import pathlib
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
import statsmodels.api as sm

from .games import AdvantageColumn, GameSection
from .stats.intervals import ALPHA, Estimate, clustered_wilson, mean_ci, unit_col, unit_means, wilson
from .stats.seats import n_players_of

if TYPE_CHECKING:
    from .report.build import Doc
    from .study import StudyAnalysis

__all__ = ["KINDS", "SECTION", "dirk_stats", "hand_adjusted_advantage", "has_dirk"]

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


# ---------------------------------------------------------------- the report section


def _advantage(rows: pl.DataFrame, paired: bool) -> dict[str, Any]:
    if "start_money_cards" not in rows.columns:
        return {}
    adj = hand_adjusted_advantage(rows, paired=paired)
    return {"adjusted": adj.estimate, "adj_lo": adj.lo, "adj_hi": adj.hi}


def _tables(rows: pl.DataFrame, paired: bool) -> dict[str, pl.DataFrame]:
    return {"dirk": dirk_stats(rows, paired=paired)} if has_dirk(rows) else {}


def _summary(s: StudyAnalysis) -> list[str]:
    from .report.text import span

    parts = []
    rows = list(s.advantage.iter_rows(named=True)) if s.advantage.height else []
    adjusted = [r for r in rows if r.get("adjusted") is not None and not math.isnan(r["adjusted"])]
    if adjusted:
        parts.append(
            "Holding the starting hand fixed (the start player is dealt the fewest cards), "
            f"moving first is worth {span([r['adjusted'] for r in adjusted], '+.3f')}."
        )
    dirk = s.table("dirk")
    if dirk.height:
        shares = []
        for cid in dirk["cell"].unique(maintain_order=True):
            t = dirk.filter((pl.col("cell") == cid) & pl.col("stat").str.starts_with("Dirk outscored"))
            shares.append(f"{s.label(cid)}: {t['estimate'][0]:.1%}")
        parts.append("Dirk would have outscored the winner in " + "; ".join(shares) + " of games.")
    return parts


def _report(doc: Doc, s: StudyAnalysis, out: pathlib.Path) -> None:
    from .figures import dirk_figure
    from .report.text import ci

    dirk = s.table("dirk")
    if not dirk.height:
        return
    doc.heading("Dirk (2-player variant)")
    doc.table(
        ["cell", "statistic", "estimate [95% CI]"],
        [
            [s.label(r["cell"]), r["stat"], ci(r["estimate"], r["lo"], r["hi"])]
            for r in dirk.iter_rows(named=True)
        ],
    )
    doc.figure(dirk_figure(s), out, "dirk", "Dirk's majorities per kind")


SECTION = GameSection(
    advantage=_advantage,
    advantage_columns=(AdvantageColumn("adjusted for starting hand", "adjusted", "adj_lo", "adj_hi"),),
    advantage_note=(
        "Raw advantage = seat-0 win rate − 1/n. The adjusted column holds the starting money (cards and "
        "value) fixed: the start player is dealt the fewest money cards, so the raw figure mixes moving "
        "first with starting poorer."
    ),
    tables=_tables,
    summary=_summary,
    report=_report,
)
