"""Forest plot of the differences between cells (Holm-corrected verdicts)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from ..study import StudyAnalysis


def forest_figure(s: StudyAnalysis) -> Figure | None:
    """One panel per metric; one row per pair of cells: difference (b − a) with 95% interval.
    Filled markers: significant after Holm. None when there is nothing to compare."""
    c = s.comparisons
    if c.height == 0:
        return None
    metrics = c["metric"].unique(maintain_order=True).to_list()
    n_pairs = c.filter(pl.col("metric") == metrics[0]).height
    fig, axes = plt.subplots(
        1, len(metrics), figsize=(3.2 * len(metrics) + 1.5, 0.45 * n_pairs + 1.6), squeeze=False
    )
    for j, (ax, m) in enumerate(zip(axes[0], metrics, strict=True)):
        t = c.filter(pl.col("metric") == m)
        y = np.arange(t.height)[::-1]
        d = t["diff"].to_numpy()
        err = np.vstack([d - t["lo"].to_numpy(), t["hi"].to_numpy() - d])
        rej = t["reject"].to_numpy()
        ax.errorbar(d, y, xerr=err, fmt="none", ecolor="tab:blue", capsize=3)
        ax.scatter(d[rej], y[rej], color="tab:red", zorder=3, label="differs (Holm)")
        ax.scatter(
            d[~rej], y[~rej], facecolors="white", edgecolors="tab:blue", zorder=3, label="no difference"
        )
        ax.axvline(0, color="grey", lw=1)
        ax.set_title(str(t["label"][0]), fontsize=9)
        ax.set_yticks(
            y, [f"{b} − {a}" for a, b in zip(t["label_a"], t["label_b"], strict=True)] if j == 0 else []
        )
    axes[0][0].legend(fontsize=7, loc="best")
    fig.suptitle("Differences between cells (95% intervals)")
    fig.tight_layout()
    return fig
