"""One colour and one order per cell, the same in every figure of a report."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from matplotlib import colormaps  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

__all__ = ["NEUTRAL", "cell_colours"]

#: Okabe–Ito colours (readable with colour-vision deficiencies), yellow last.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")
#: Colour of marks that belong to no single cell (differences between two cells).
NEUTRAL = "#444444"


def cell_colours(cell_ids: list[str]) -> dict[str, str]:
    """Cell id -> colour, by the cells' order in the study (Okabe–Ito, then tab20)."""
    extra = [to_hex(colormaps["tab20"](i)) for i in range(20)]
    palette = list(OKABE_ITO) + extra
    return {cid: palette[i % len(palette)] for i, cid in enumerate(cell_ids)}
