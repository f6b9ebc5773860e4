"""``balancelab fairest``: a study's candidate settings raced to the fairest one."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .errors import fail, guarded_run
from .options import add_address, add_output_options, add_workers, fraction, positive
from .report import write_report


def add_parser(sub: Any) -> None:
    """``balancelab fairest``."""
    fairest = sub.add_parser(
        "fairest",
        help="race a study's candidate settings to the fairest one (adaptive games, resumable)",
        description="Every cell of the study is a candidate setting (its named variants and option values, "
        "e.g. grid.options.dirk_tiles = [0, 1, 2, 3] or { from = 0, to = 6, step = 1 }). Round by round, "
        "the candidates whose start-player advantage interval lies wholly farther from fair than the best "
        "one's are dropped and the rest get twice the games, until one is left, all left are within the "
        "practical threshold, or --max-games. Played through the normal run directory (OUT/data, "
        "manifest.json): running it again continues. Prints the fairest settings with intervals, and "
        "the report has the race per candidate (games, advantage, turns, ties, score spread).",
    )
    fairest.add_argument("study", help="path of a study TOML file, or the name of a built-in study")
    fairest.add_argument("--out", type=Path, help="output directory (default: runs/<study name>-fairest)")
    fairest.add_argument(
        "--games", type=positive, help="first-round games per candidate (default: the study's)"
    )
    fairest.add_argument(
        "--max-games",
        type=positive,
        help="at most this many games per candidate (default: 64 x the first round)",
    )
    fairest.add_argument(
        "--threshold", type=fraction, help="practical threshold (default: the study's, else 0.01 = 1 point)"
    )
    add_workers(fairest, "parallel tasks (default: all local CPUs)")
    add_address(fairest, "Ray cluster to join, HOST:PORT (default: start a local Ray)")
    add_output_options(fairest, quiet="print only errors and the result line")
    fairest.set_defaults(func=cmd_fairest)


def cmd_fairest(args: argparse.Namespace) -> int:
    import functools

    from analysis.fairest import fairest_round  # the command line wires the analysis into the runner
    from pipeline import study as study_mod
    from pipeline.runner import run_study

    try:
        study = study_mod.load_study(args.study, args.games)
    except ValueError as exc:
        return fail(str(exc))
    if len(study.cells) < 2:
        return fail(
            f"{args.study}: fairest needs at least 2 candidate cells, the study has {len(study.cells)}"
        )
    first = max(c.games for c in study.cells)
    cap = args.max_games or 64 * first
    if cap < first:
        return fail(f"--max-games: must be at least the first round's {first} games, got {cap}")
    threshold = args.threshold or study.practical_threshold or 0.01
    out = args.out or Path("runs") / f"{study.name}-fairest"
    decide = functools.partial(fairest_round, threshold=threshold, max_games=cap)
    man = guarded_run(
        lambda: run_study(
            study,
            out,
            workers=args.workers,
            address=args.address,
            quiet=args.quiet,
            progress=not (args.no_progress or args.quiet),
            max_games=cap,
            fairest_round=decide,
        )  # fmt: skip
    )
    if isinstance(man, int):
        return man
    rounds = [r["fairest"] for r in man.precision_rounds if "fairest" in r]
    print(rounds[-1]["line"] if rounds else f"{study.name}: no round decided")
    if args.no_report:
        return 0
    return write_report(out, args.report_dir, args.quiet)
