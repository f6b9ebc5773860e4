"""Drawing: a :class:`~analysis.content.DotPlot` as a matplotlib figure, and saving figures."""

from __future__ import annotations

import io
import pathlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from PIL import Image  # noqa: E402

from ..content import Dot, DotPlot  # noqa: E402
from ..words import signed  # noqa: E402
from .style import NEUTRAL  # noqa: E402

__all__ = ["DPI", "draw_dotplot", "lossless_png", "save_figure"]

#: Figures are drawn 7–8 inches wide: about 860 pixels, sharp in a 1100-pixel page column.
DPI = 110


def lossless_png(image: Image.Image) -> Image.Image:
    """The same pixels in the smallest PNG mode that holds them exactly: RGB when every pixel is
    opaque (matplotlib writes RGBA), an exact palette when there are at most 256 colours."""
    if image.mode == "RGBA" and image.getchannel("A").getextrema() != (255, 255):
        return image
    rgb = np.asarray(image.convert("RGB"))
    packed = (rgb[..., 0].astype(np.uint32) << 16) | (rgb[..., 1].astype(np.uint32) << 8) | rgb[..., 2]
    colours, index = np.unique(packed, return_inverse=True)
    if len(colours) > 256:
        return Image.fromarray(rgb)
    out = Image.frombytes(
        "P", (rgb.shape[1], rgb.shape[0]), index.reshape(packed.shape).astype(np.uint8).tobytes()
    )
    out.putpalette(
        np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
        .astype(np.uint8)
        .ravel()
        .tobytes()
    )
    return out


def save_figure(fig: Figure, directory: pathlib.Path, name: str) -> pathlib.Path:
    """Writes ``name.png`` (the figure's one file, losslessly compacted) into ``directory``,
    closes ``fig``, returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    png = directory / f"{name}.png"
    lossless_png(Image.open(buffer)).save(png, format="PNG", optimize=True)
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
