"""Win rate by seat per cell, with 95% error bars and the fair share 1/n."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from ..study import StudyAnalysis


def seats_figure(s: StudyAnalysis) -> Figure:
    """One panel per cell: seat win rates (ties as shares) with intervals; dashed line = 1/n."""
    cells = list(s.advantage["cell"])
    cols = min(3, len(cells))
    rows = (len(cells) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    for ax, cid in zip(axes.flat, cells, strict=False):
        t = s.seats.filter(s.seats["cell"] == cid).sort("seat")
        w = t["win_rate"].to_numpy()
        err = np.vstack([w - t["lo"].to_numpy(), t["hi"].to_numpy() - w])
        ax.bar(t["seat"].to_numpy(), w, yerr=err, capsize=4, color="tab:blue", alpha=0.8)
        ax.axhline(float(t["fair"][0]), color="k", ls="--", lw=1)
        ax.set_title(s.label(cid), fontsize=9)
        ax.set_xlabel("seat (0 = start player)")
        ax.set_ylabel("win rate")
        ax.set_xticks(t["seat"].to_numpy())
    for ax in list(axes.flat)[len(cells) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig
