"""The ``balancelab`` parser: the program's options, its examples, and one module per command."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import NoReturn

from . import atlas, fairest, replay, report, run, strength, studies
from .errors import line

EXAMPLES = """\
examples:
  balancelab studies
  balancelab run alhambra-dirk                      # built-in study, local Ray; runs/alhambra-dirk/report/
  balancelab run my-study.toml --out runs/mine --games 200000 --workers 2
  balancelab run alhambra-start-player --precision 0.005 --max-games 400000
  balancelab run hiroba-start-player                # Hiroba, 2-4 players, greedy and mcts self-play
  balancelab run titania-start-player               # Titania, 2-4 players, greedy and mcts self-play
  balancelab run alhambra-dirk --address HEAD:6379        # join a cluster (or RAY_ADDRESS, ray job submit)
  balancelab replay alhambra --seed 1 --game-index 7 --variant dirk=false --agents random random
  balancelab replay --run runs/alhambra-dirk --cell p2-no_dirk --game-index 7
  balancelab replay hiroba --seed 1 --game-index 0 --agents greedy random --variant tiles=my_tiles.txt
  balancelab replay titania --seed 1 --game-index 0 --agents greedy random --variant board=my_board.txt
  balancelab report runs/alhambra-dirk              # again into runs/alhambra-dirk/report/
  balancelab report runs/alhambra-dirk --report-dir reports/alhambra-dirk   # the committed example
  balancelab fairest my-sweep.toml --games 400 --max-games 20000   # race candidate settings to the fairest
  balancelab strength runs/alhambra-strength runs/alhambra-strength-1000 runs/alhambra-strength-3000
  balancelab atlas --core-hours 1 --plan            # the atlas plan and its cost; without --plan: run it
  balancelab atlas --games titania,taluva --core-hours 0.5 --report-dir reports/atlas
"""

#: The commands, in the order ``balancelab --help`` lists them: each module adds its own parser.
COMMANDS = (run, studies, replay, report, strength, fairest, atlas)


class _Version(argparse.Action):
    """``--version``: the package version and the engine's build, computed only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and the engine's build")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from pipeline.version import describe

        print(describe())
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"balancelab: error: {line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="balancelab",
        description="Seeded self-play simulation of board games, spread over Ray, landing in Parquet.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser
