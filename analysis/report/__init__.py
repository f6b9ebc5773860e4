"""The study report: ``write_report(run_dir, out_dir=run_dir/"report")`` -> ``out_dir/index.html``."""

from .build import write_report

__all__ = ["write_report"]
