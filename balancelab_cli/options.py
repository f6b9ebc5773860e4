"""Argument types and the options several commands share, each declared here once."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def checked(convert: Callable[[str], T], ok: Callable[[T], bool], expected: str) -> Callable[[str], T]:
    """An argparse ``type``: ``convert`` the text and check it, naming what was expected."""

    def parse(text: str) -> T:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value}")
        return value

    return parse


#: Largest study seed and game index a command accepts (the engine's seed is 64-bit; game
#: indices fit the 12-digit batch file names).
MAX_SEED = 2**63 - 1  # pipeline.study.MAX_SEED, not imported here: `balancelab` must handle signals at once
MAX_GAME_INDEX = 10**12 - 1

positive = checked(int, lambda v: v >= 1, "a positive integer")
seed = checked(int, lambda v: 0 <= v <= MAX_SEED, f"an integer 0..{MAX_SEED}")
game_index = checked(int, lambda v: 0 <= v <= MAX_GAME_INDEX, f"an integer 0..{MAX_GAME_INDEX}")
fraction = checked(float, lambda v: 0 < v < 1, "a number in (0, 1)")
positive_float = checked(float, lambda v: 0 < v < float("inf"), "a positive number of seconds")


def add_report_dir(parser: Any, help: str = "write the report here (default: OUT/report)") -> None:
    """``--report-dir DIR``: where a command writes its report or page."""
    parser.add_argument("--report-dir", type=Path, metavar="DIR", help=help)


def add_workers(parser: Any, help: str) -> None:
    """``--workers N``: parallel tasks."""
    parser.add_argument("--workers", type=positive, help=help)


def add_address(parser: Any, help: str) -> None:
    """``--address HOST:PORT``: the Ray cluster to join."""
    parser.add_argument("--address", help=help)


def add_no_progress(parser: Any) -> None:
    """``--no-progress``."""
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_quiet(parser: Any, help: str = "print only errors (implies --no-progress)") -> None:
    """``--quiet``: what a command still prints."""
    parser.add_argument("--quiet", action="store_true", help=help)


def add_no_report(parser: Any, help: str = "do not write the report at the end") -> None:
    """``--no-report``."""
    parser.add_argument("--no-report", action="store_true", help=help)


def add_allow_partial(parser: Any, help: str) -> None:
    """``--allow-partial``: a report over an incomplete run."""
    parser.add_argument("--allow-partial", action="store_true", help=help)


def add_output_options(parser: Any, quiet: str) -> None:
    """What a command prints and whether it writes its report (``run`` and ``fairest``)."""
    add_no_progress(parser)
    add_no_report(parser)
    add_report_dir(parser)
    add_quiet(parser, quiet)
