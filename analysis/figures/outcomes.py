"""Score distributions by seat, and game length."""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl
from matplotlib.figure import Figure

from ..stats.outcomes import game_table
from ..study import StudyAnalysis


def scores_figure(s: StudyAnalysis) -> Figure:
    """One panel per cell: box plots of the final score by seat."""
    cells = list(s.rows)
    cols = min(3, len(cells))
    rows = (len(cells) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    for ax, cid in zip(axes.flat, cells, strict=False):
        r = s.rows[cid]
        seats = sorted(r["seat"].unique().to_list())
        data = [r.filter(pl.col("seat") == k)["score"].to_numpy() for k in seats]
        ax.boxplot(data, tick_labels=[str(k) for k in seats], showfliers=False)
        ax.set_title(s.label(cid), fontsize=9)
        ax.set_xlabel("seat (0 = start player)")
        ax.set_ylabel("final score")
    for ax in list(axes.flat)[len(cells) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig


def length_figure(s: StudyAnalysis) -> Figure:
    """Distribution of the number of turns per game, one outline histogram per cell."""
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for cid, r in s.rows.items():
        turns = game_table(r)["turns"].to_numpy()
        ax.hist(turns, bins=30, histtype="step", lw=1.5, label=s.label(cid))
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
