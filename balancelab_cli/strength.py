"""``balancelab strength``: the agents of head-to-head runs rated (win shares, an Elo ladder)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .errors import fail
from .options import add_report_dir


def add_parser(sub: Any) -> None:
    """``balancelab strength``."""
    strength = sub.add_parser(
        "strength",
        help="rate the agents of head-to-head runs (win shares, Bradley–Terry Elo ladder)",
        description="Win shares per pairing and a Bradley–Terry Elo ladder with 95% intervals over "
        "every 2-player cell of two different agents in the given runs (pooled); prints the tables and "
        "writes strength.md, strength_*.csv and figures/strength_elo_ladder.png|svg into the first run's "
        "report directory (FIRST_RUN_DIR/report) or --report-dir.",
    )
    strength.add_argument("run_dirs", type=Path, nargs="+", metavar="RUN_DIR", help="run directories")
    add_report_dir(strength, "write here (default: FIRST_RUN_DIR/report)")
    strength.add_argument("--anchor", help="agent fixed at Elo 0 (default: greedy if present)")
    strength.set_defaults(func=cmd_strength)


def cmd_strength(args: argparse.Namespace) -> int:
    from analysis.report import write_strength
    from analysis.strength import analyse_strength, format_strength
    from rundir import manifest_path

    for run_dir in args.run_dirs:
        if not manifest_path(run_dir).exists():
            return fail(f"{run_dir}: no manifest.json; not a run directory")
    try:
        st = analyse_strength(*args.run_dirs, anchor=args.anchor)
    except (ValueError, FileNotFoundError) as exc:
        return fail(str(exc))
    print(format_strength(st))
    paths = write_strength(st, args.report_dir or args.run_dirs[0] / "report")
    print(f"strength: {paths['markdown']}, {paths['figure']}")
    return 0
