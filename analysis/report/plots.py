"""Drawing: a :class:`~analysis.content.DotPlot` as a matplotlib figure, and saving figures."""

from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ..content import Dot, DotPlot  # noqa: E402
from ..words import signed  # noqa: E402
from .style import NEUTRAL  # noqa: E402

#: Text stays text in SVG (searchable, editable by a designer).
plt.rcParams["svg.fonttype"] = "none"

__all__ = ["draw_dotplot", "save_figure"]


def save_figure(fig: Figure, directory: pathlib.Path, name: str) -> pathlib.Path:
    """Writes ``name.png`` and ``name.svg`` into ``directory``, closes ``fig``, returns the PNG path."""
    directory.mkdir(parents=True, exist_ok=True)
    png = directory / f"{name}.png"
    fig.savefig(png, dpi=110, bbox_inches="tight")
    fig.savefig(directory / f"{name}.svg", bbox_inches="tight")
    plt.close(fig)
    return png


def _rows(dots: tuple[Dot, ...]) -> list[tuple[str, list[Dot]]]:
    """Dots grouped by label, in order of first appearance."""
    labels = list(dict.fromkeys(d.label for d in dots))
    return [(label, [d for d in dots if d.label == label]) for label in labels]


def _guides(ax: Axes, p: DotPlot, scale: float) -> list[Patch | Line2D]:
    handles: list[Patch | Line2D] = []
    if p.band is not None:
        lo, hi = p.band
        ax.axvspan(lo * scale, hi * scale, color="#d9d9d9", alpha=0.7, lw=0, zorder=0)
        handles.append(Patch(color="#d9d9d9", label="within the practical threshold"))
    if p.reference is not None:
        ax.axvline(p.reference * scale, color="black", lw=1, ls="--", zorder=1)
        handles.append(Line2D([], [], color="black", lw=1, ls="--", label=p.reference_label or "reference"))
    return handles


def draw_dotplot(p: DotPlot, colours: dict[str, str], names: dict[str, str]) -> Figure:
    """Dot-and-whisker rows (dots sharing a label dodge within their row, coloured by cell), the
    estimate written beside each dot, the reference line and threshold band, and a legend."""
    rows = _rows(p.dots)
    width = max(len(ds) for _, ds in rows)
    fig, ax = plt.subplots(figsize=(7.8, 0.9 + len(rows) * (0.32 + 0.2 * width)))
    scale = 100.0 if p.percent else 1.0
    handles = _guides(ax, p, scale)
    for i, (_, ds) in enumerate(rows):
        offsets = np.linspace(0.25, -0.25, len(ds)) if len(ds) > 1 else np.zeros(1)
        for d, off in zip(ds, offsets, strict=True):
            y = len(rows) - 1 - i + off
            colour = colours.get(d.cell, NEUTRAL)
            est, lo, hi = d.estimate * scale, d.lo * scale, d.hi * scale
            ax.errorbar(
                est, y, xerr=[[max(est - lo, 0)], [max(hi - est, 0)]], fmt="none", ecolor=colour, capsize=3
            )
            face = "white" if d.hollow else colour
            ax.plot(est, y, "o", ms=6, mfc=face, mec=colour, zorder=3)
            ax.annotate(
                signed(est, 1) if p.percent and p.reference == 0 else f"{est:.{1 if p.percent else 2}f}",
                (hi, y),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                fontsize=7,
                color=colour,
            )
    ax.set_yticks(range(len(rows)), [label for label, _ in rows][::-1], fontsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(p.xlabel, fontsize=9)
    ax.set_title(p.title, fontsize=10, loc="left")
    ax.grid(axis="x", color="#eeeeee", zorder=0)
    ax.margins(x=0.12)
    shown = list(dict.fromkeys(d.cell for d in p.dots if d.cell in colours))
    if width > 1 or any(names.get(c, c) not in {label for label, _ in rows} for c in shown):
        handles += [Line2D([], [], marker="o", ls="", color=colours[c], label=names.get(c, c)) for c in shown]
    if any(d.hollow for d in p.dots):
        handles.append(Line2D([], [], marker="o", ls="", mfc="white", mec=NEUTRAL, label=p.hollow_label))
    if handles:
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    fig.tight_layout()
    return fig
