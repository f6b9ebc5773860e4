"""The one renderer: draws every figure and writes the HTML and Markdown report.

``write_report(run_dir, out_dir=run_dir/"report")`` -> ``out_dir/index.html``;
``write_strength(st, out_dir)`` writes ``balancelab strength``'s files. Nothing outside
this package draws or formats a page; it reads the analysis (:mod:`analysis.study`), the
findings (:mod:`analysis.findings`) and the games' sections (:mod:`analysis.games`) as data.
"""

from .build import write_report
from .strength import write_strength

__all__ = ["write_report", "write_strength"]
