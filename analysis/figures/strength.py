"""Agent strength: the Elo ladder with 95% error bars, and head-to-head win shares."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..strength import StrengthAnalysis  # noqa: E402

__all__ = ["elo_figure"]

#: Agents further than this below the top of the ladder are left out of the zoomed panel.
ZOOM_ELO = 600.0


def _short(spec: str) -> str:
    return spec.replace("mcts:iters=", "mcts ")


def _ladder(ax: Axes, r: pl.DataFrame, anchor: str, title: str) -> None:
    x = np.arange(r.height)
    elo = r["elo"].to_numpy()
    err = np.clip(np.vstack([elo - r["elo_lo"].to_numpy(), r["elo_hi"].to_numpy() - elo]), 0, None)
    ax.errorbar(x, elo, yerr=err, fmt="o-", capsize=5, color="tab:blue")
    for xi, e in zip(x, elo, strict=True):
        ax.annotate(f"{e:+.0f}", (xi, e), textcoords="offset points", xytext=(8, -4), fontsize=8)
    ax.axhline(0, color="k", lw=0.8, ls=":")
    ax.set_xticks(x)
    ax.set_xticklabels([_short(a) for a in r["agent"].to_list()], rotation=30, ha="right")
    ax.set_ylabel(f"Elo (Bradley–Terry; {anchor} = 0)")
    ax.set_title(title, fontsize=10)


def elo_figure(st: StrengthAnalysis) -> Figure:
    """Left: Bradley–Terry Elo per agent (ladder order, anchor = 0) with 95% intervals, plus a
    zoomed panel without agents far below the top when the ladder spans more than ``ZOOM_ELO``.
    Right: win share of the higher-ladder agent per pairing with 95% intervals (dashed: 1/2)."""
    r = st.ratings
    zoom = r.filter(pl.col("elo_hi") >= float(r["elo"].to_numpy().max()) - ZOOM_ELO)
    panels = 3 if 2 <= zoom.height < r.height else 2
    fig, axes = plt.subplots(
        1,
        panels,
        figsize=(5.5 * panels, max(3.5, 0.45 * max(r.height, st.pairs.height) + 1.5)),
        width_ratios=[1.0] * (panels - 1) + [1.1],
    )
    _ladder(axes[0], r, st.anchor, "Elo ladder (95% CI)")
    if panels == 3:
        _ladder(axes[1], zoom, st.anchor, f"zoom: within {ZOOM_ELO:.0f} Elo of the top")

    bx = axes[-1]
    p = st.pairs
    y = np.arange(p.height)[::-1]
    share = p["share_a"].to_numpy()
    perr = np.clip(np.vstack([share - p["lo"].to_numpy(), p["hi"].to_numpy() - share]), 0, None)
    bx.errorbar(share, y, xerr=perr, fmt="s", capsize=4, color="tab:green")
    bx.axvline(0.5, color="k", lw=0.8, ls="--")
    bx.set_yticks(y)
    bx.set_yticklabels(
        [
            f"{_short(a)} vs {_short(b)} (n={n})"
            for a, b, n in p.select("agent_a", "agent_b", "games").iter_rows()
        ],
        fontsize=8,
    )
    bx.set_xlim(0, 1.02)
    bx.set_xlabel("win share of the first agent (ties = ½)")
    bx.set_title("Head-to-head (paired deals, 95% CI)", fontsize=10)
    fig.tight_layout()
    return fig
