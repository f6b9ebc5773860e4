"""``balancelab studies``: the built-in studies."""

from __future__ import annotations

import argparse
from typing import Any

from pipeline.words import plural

from .errors import fail


def add_parser(sub: Any) -> None:
    """``balancelab studies``."""
    studies = sub.add_parser(
        "studies", help="list the built-in studies", description="List the built-in studies."
    )
    studies.add_argument("--show", metavar="NAME", help="print the TOML of one built-in study")
    studies.set_defaults(func=cmd_studies)


def cmd_studies(args: argparse.Namespace) -> int:
    from pipeline import study as study_mod

    if args.show:
        if args.show not in study_mod.builtin_names():
            return fail(
                f"--show {args.show}: no such built-in; built-ins: {', '.join(study_mod.builtin_names())}"
            )
        print(study_mod.builtin_text(args.show), end="")
        return 0
    for name in study_mod.builtin_names():
        s = study_mod.load_study(name)
        games = sum(c.games for c in s.cells)
        print(f"{name:<28} {plural(len(s.cells), 'cell'):>8}, {plural(games, 'game'):>15}  {s.description}")
    return 0
