"""Dirk (2-player Alhambra): majorities won per tile kind and how often he beat the winner."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from ..study import StudyAnalysis


def dirk_figure(s: StudyAnalysis) -> Figure | None:
    """Per Dirk cell: mean scorings with Dirk (shared) first per kind; None without Dirk."""
    if s.dirk.height == 0:
        return None
    cells = s.dirk["cell"].unique(maintain_order=True).to_list()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    width = 0.8 / len(cells)
    for i, cid in enumerate(cells):
        t = s.dirk.filter((pl.col("cell") == cid) & pl.col("stat").str.starts_with("scorings with Dirk"))
        kinds = [st.rsplit(" ", 1)[1] for st in t["stat"]]
        e = t["estimate"].to_numpy()
        err = np.vstack([e - t["lo"].to_numpy(), t["hi"].to_numpy() - e])
        out = s.dirk.filter((pl.col("cell") == cid) & pl.col("stat").str.starts_with("Dirk outscored"))
        lab = f"{s.label(cid)} (Dirk beat the winner in {out['estimate'][0]:.0%} of games)"
        ax.bar(np.arange(len(kinds)) + i * width, e, width, yerr=err, capsize=3, label=lab)
        ax.set_xticks(np.arange(len(kinds)) + 0.4 - width / 2, kinds)
    ax.set_ylabel("scorings won (of 3)")
    ax.set_title("Dirk: scorings in which he held (shared) first place")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
