"""balancelab's analysis of study runs (polars + statsmodels/scipy).

Notebook use::

    import analysis
    lf = analysis.load("runs/alhambra-dirk")          # lazy frame over every row
    s = analysis.analyse("runs/alhambra-dirk")         # every table of the report
    s.advantage, s.seats, s.scores, s.outcomes, s.comparisons, s.warnings
    s.tables                                           # the game's own tables (Alhambra: dirk)
    analysis.verdict(s)                                # the verdict block's findings (sentences)

Data flows one way through the package (``tests/test_report.py`` checks the import graph):
statistics (:mod:`analysis.stats`, :mod:`analysis.load`) → the analysis as data
(:mod:`analysis.model`, :mod:`analysis.study`; each game's section in ``analysis/games/<game>.py``
returning data through :mod:`analysis.games`) → sentences (:mod:`analysis.findings`) → the one
renderer (:mod:`analysis.report`: figures, HTML, Markdown). The precision hook is
:mod:`analysis.precision`, agent strength :mod:`analysis.strength`.
"""

from .findings import verdict
from .load import cell_rows, load, read_manifest
from .model import StudyAnalysis
from .study import analyse

__all__ = ["StudyAnalysis", "analyse", "cell_rows", "load", "read_manifest", "verdict"]
