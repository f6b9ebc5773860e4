"""Start-player advantage by cell and player count, with 95% error bars."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from ..study import StudyAnalysis


def advantage_figure(s: StudyAnalysis) -> Figure:
    """Seat-0 win rate minus 1/n per cell, grouped by player count; with the game's own
    estimates beside it where it has some (Alhambra: adjusted for the starting hand)."""
    adv = s.advantage.sort("n_players", "cell")
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * adv.height + 2), 3.8))
    x = np.arange(adv.height)
    est = adv["advantage"].to_numpy()
    err = np.vstack([est - adv["lo"].to_numpy(), adv["hi"].to_numpy() - est])
    ax.errorbar(x - 0.12, est, yerr=err, fmt="o", capsize=4, label="raw (seat 0 − 1/n)")
    extra = [c for c in s.section.advantage_columns if c.estimate in adv.columns]
    for i, c in enumerate(extra):
        a = adv[c.estimate].to_numpy()
        aerr = np.vstack([a - adv[c.lo].to_numpy(), adv[c.hi].to_numpy() - a])
        ax.errorbar(x + 0.12 * (i + 1), a, yerr=aerr, fmt="sD^v"[i % 4], capsize=4, label=c.label)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks(x, adv["cell"].to_list(), rotation=25, ha="right", fontsize=8)
    ax.set_ylabel("start-player advantage (win rate)")
    ax.set_title("Start-player advantage with 95% intervals")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
