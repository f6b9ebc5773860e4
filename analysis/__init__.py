"""balancelab's analysis of study runs (polars + statsmodels/scipy).

Notebook use::

    import analysis
    lf = analysis.load("runs/alhambra-dirk")          # lazy frame over every row
    s = analysis.analyse("runs/alhambra-dirk")         # every table of the report
    s.advantage, s.seats, s.scores, s.outcomes, s.comparisons, s.warnings
    s.tables                                           # the game's own tables (Alhambra: dirk)

Per-cell building blocks live in :mod:`analysis.stats` (``seat_win_rates``,
``start_advantage``, ``equal_seats_test``, ``game_table``, ``margin``, ``game_length``,
``tie_share``, ``score_by_seat``, ``compare_cells``), each game's own section in
``analysis/<game>.py`` (:mod:`analysis.alhambra`, :mod:`analysis.hiroba`, listed in
:mod:`analysis.games`), the precision hook in :mod:`analysis.precision` and the report in
:mod:`analysis.report`.
"""

from .load import cell_rows, load, read_manifest
from .study import StudyAnalysis, analyse

__all__ = ["StudyAnalysis", "analyse", "cell_rows", "load", "read_manifest"]
