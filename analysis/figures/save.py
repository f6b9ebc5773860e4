"""Writing a figure as PNG and SVG."""

from __future__ import annotations

import pathlib

import matplotlib.pyplot as plt
from matplotlib.figure import Figure


def save_figure(fig: Figure, directory: pathlib.Path, name: str) -> pathlib.Path:
    """Writes ``name.png`` and ``name.svg`` into ``directory``, closes ``fig``, returns the PNG path."""
    directory.mkdir(parents=True, exist_ok=True)
    png = directory / f"{name}.png"
    fig.savefig(png, dpi=110, bbox_inches="tight")
    fig.savefig(directory / f"{name}.svg", bbox_inches="tight")
    plt.close(fig)
    return png
