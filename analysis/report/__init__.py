"""The study report: ``write_report(run_dir, reports_root)`` -> ``reports_root/<study>/index.html``."""

from .build import write_report

__all__ = ["write_report"]
