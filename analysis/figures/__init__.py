"""Report figures (matplotlib, Agg backend): each function takes a StudyAnalysis and returns a Figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from .advantage import advantage_figure  # noqa: E402
from .dirk import dirk_figure  # noqa: E402
from .forest import forest_figure  # noqa: E402
from .outcomes import length_figure, scores_figure  # noqa: E402
from .save import save_figure  # noqa: E402
from .seats import seats_figure  # noqa: E402

__all__ = [
    "advantage_figure",
    "dirk_figure",
    "forest_figure",
    "length_figure",
    "save_figure",
    "scores_figure",
    "seats_figure",
]
