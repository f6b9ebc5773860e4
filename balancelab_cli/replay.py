"""``balancelab replay``: one game's event log, given explicitly or taken from a run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .errors import fail
from .options import game_index, seed


def add_parser(sub: Any) -> None:
    """``balancelab replay``: one game's event log."""
    replay = sub.add_parser(
        "replay",
        usage="%(prog)s (GAME --seed SEED | --run DIR --cell ID) --game-index I [options]",
        help="print the event log of one game",
        description="Print the readable event log of one game: given explicitly (GAME --seed --game-index "
        "[--variant ...] [--agents ...]) or taken from a run (--run DIR --cell ID --game-index I), in which "
        "case the result is checked against the recorded rows.",
    )
    replay.add_argument("game", nargs="?", help="game name (not with --run)")
    replay.add_argument("--seed", type=seed, help="study seed (required with GAME)")
    replay.add_argument("--game-index", type=game_index, required=True, help="index of the game in its cell")
    replay.add_argument(
        "--variant",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help='variant options; values are JSON (true, 3, [4,4,"third"]) or plain strings; '
        "relative file paths (e.g. tiles=my_tiles.txt) are read from the current directory",
    )
    replay.add_argument(
        "--agents", nargs="+", default=None, help="agent specs, one per player (default: 2 x random)"
    )
    replay.add_argument("--pair-seats", action="store_true", help="the study paired seats")
    replay.add_argument(
        "--run", type=Path, help="a run directory: take game, seed, variant and agents from it"
    )
    replay.add_argument("--cell", help="with --run: the cell id")
    replay.add_argument("--json", action="store_true", help="print the raw JSON event log")
    replay.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    import rust_core
    from pipeline import replay as replay_mod
    from pipeline import study as study_mod

    if args.run is not None:
        return _replay_from_run(args)
    if not args.game:
        return fail(f"replay: give GAME (one of {', '.join(rust_core.games())}) or --run DIR")
    if args.seed is None:
        return fail("replay: --seed is required with GAME")
    try:
        variant = replay_mod.parse_variant(args.variant)
        variant = study_mod.resolve_paths(args.game, variant, Path.cwd(), "--variant")
        agents = args.agents or ["random", "random"]
        rust_core.validate(args.game, variant, agents)
        log = rust_core.replay(
            args.game, variant, agents, args.seed, args.game_index, pair_seats=args.pair_seats
        )
    except ValueError as exc:
        return fail(str(exc))
    print(json.dumps(log, indent=1) if args.json else replay_mod.format_log(log))
    return 0


def _replay_from_run(args: argparse.Namespace) -> int:
    """``replay --run DIR --cell ID``: the game as the run plays it, checked against its rows."""
    from pipeline import replay as replay_mod

    if args.game or args.seed is not None or args.variant or args.agents:
        return fail("replay --run takes the game, seed, variant and agents from the run; give only --cell")
    if not args.cell:
        return fail("replay --run needs --cell ID")
    try:
        log, recorded = replay_mod.from_run(args.run, args.cell, args.game_index)
    except ValueError as exc:
        return fail(str(exc))
    print(json.dumps(log, indent=1) if args.json else replay_mod.format_log(log))
    note = sys.stderr if args.json else sys.stdout  # --json: stdout holds the JSON only
    if not recorded:
        print(f"(game {args.game_index} is not in the data of {args.run} yet)", file=note)
        return 0
    problems = replay_mod.mismatches(log, recorded)
    if problems:
        print("MISMATCH with the recorded rows:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"(matches the {len(recorded)} rows recorded in {args.run})", file=note)
    return 0
