"""``balancelab run``: a study into a run directory, then its report."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pipeline.cluster import CONNECT_TIMEOUT_S, TCP_TIMEOUT_S
from pipeline.words import plural

from .errors import fail, guarded_run
from .options import add_address, add_output_options, add_workers, fraction, positive, positive_float
from .report import write_report


def add_parser(sub: Any) -> None:
    """``balancelab run``: its options."""
    run = sub.add_parser(
        "run",
        help="run a study (a TOML file or a built-in name) into a directory; resumable",
        description="Run a study: every cell's games, cut into batches, played on Ray workers, written as "
        "Parquet under OUT/data with OUT/manifest.json. Running the same command again continues where "
        "it stopped; broken or missing batch files are played again.",
    )
    run.add_argument(
        "study", help="path of a study TOML file, or the name of a built-in study (balancelab studies)"
    )
    run.add_argument("--out", type=Path, help="output directory (default: runs/<study name>)")
    add_workers(run, "parallel tasks (default: all CPUs of the local machine or the cluster)")
    run.add_argument("--games", type=positive, help="games per cell, overriding the study's games_per_cell")
    run.add_argument(
        "--variant",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="study-wide variant options over the study's own (values are JSON or plain strings; "
        "relative file paths, e.g. tiles=my_tiles.txt, from the current directory); an option the "
        "grid sets per cell is refused",
    )
    _add_cluster_options(run)
    _add_precision_options(run)
    add_output_options(run, quiet="print only errors (implies --no-progress)")
    run.set_defaults(func=cmd_run)


def _add_cluster_options(run: Any) -> None:
    """``balancelab run``: where the games are played and how they are cut into tasks."""
    add_address(
        run,
        "Ray cluster to join, HOST:PORT of the head (default: $RAY_ADDRESS, else start a local Ray); "
        "checked before anything is written",
    )
    run.add_argument(
        "--connect-timeout",
        type=positive_float,
        default=CONNECT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"with --address: give up if the cluster has not accepted the driver within this time "
        f"(default: {CONNECT_TIMEOUT_S:g}; an unreachable address fails within {TCP_TIMEOUT_S:g} s)",
    )
    run.add_argument(
        "--batch-games",
        type=positive,
        help="fixed games per batch (default: sized so a task takes about --task-seconds)",
    )
    run.add_argument("--task-seconds", type=float, default=2.0, help="target seconds per task (default: 2)")


def _add_precision_options(run: Any) -> None:
    """``balancelab run``: adaptive sizing (play until the verdicts are settled)."""
    run.add_argument(
        "--precision",
        type=fraction,
        help="keep adding games until every cell's 95%% half-width "
        "of the start-player advantage is at most this (e.g. 0.005)",
    )
    run.add_argument(
        "--max-games",
        type=positive,
        help="with --precision: at most this many games per cell (default: 1,000,000 or the study's size)",
    )
    run.add_argument(
        "--max-core-hours",
        type=float,
        help="with --precision on a study with a skill ladder: stop when this many core-hours are spent "
        "(default: 1); rounds go to the rungs that settle the start-player verdicts, and stop once every "
        "verdict is converged or still moving",
    )


def cmd_run(args: argparse.Namespace) -> int:
    from pipeline import study as study_mod
    from pipeline.replay import parse_variant
    from pipeline.runner import run_study

    try:
        study = study_mod.load_study(args.study, args.games, parse_variant(args.variant))
    except ValueError as exc:  # StudyError, or a malformed --variant
        return fail(str(exc))
    if args.max_games is not None and args.precision is None:
        return fail("--max-games: only with --precision")
    if args.max_core_hours is not None and args.precision is None:
        return fail("--max-core-hours: only with --precision")
    out = args.out or Path("runs") / study.name
    from analysis import precision as measured  # the command line wires the analysis into the runner

    man = guarded_run(
        lambda: run_study(
            study,
            out,
            workers=args.workers,
            address=args.address,
            batch_games=args.batch_games,
            target_seconds=args.task_seconds,
            progress=not (args.no_progress or args.quiet),
            quiet=args.quiet,
            precision=args.precision,
            max_games=args.max_games,
            max_core_hours=args.max_core_hours,
            connect_timeout_s=args.connect_timeout,
            halfwidths=measured.max_halfwidths,
            ladder_round=measured.ladder_round,
        )
    )
    if isinstance(man, int):
        return man
    if not args.quiet:
        line = closing_line(
            study.name, out, man.games_played, man.games_done, man.wall_seconds, man.games_per_second
        )
        print(line)
    if args.no_report:
        return 0
    return write_report(out, args.report_dir, args.quiet)


def closing_line(
    name: str, out: Path, played: int, total: int, wall: float | None, rate: float | None
) -> str:
    """What this invocation did: games played now (not those of earlier runs), time and speed."""
    wall = wall or 0.0
    if played == 0:
        return f"{name}: nothing left to play; {plural(total, 'game')} in {out} ({wall:.1f} s)"
    speed = f", {rate:,.0f} games/s while playing" if rate else ""
    earlier = f"; {plural(total, 'game')} in all" if total != played else ""
    return f"{name}: {plural(played, 'game')} played into {out} in {wall:.1f} s{speed}{earlier}"
