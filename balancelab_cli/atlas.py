"""``balancelab atlas``: every game and player count along a skill ladder, in one page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .errors import fail, fail_run, guarded_run
from .options import (
    add_address,
    add_allow_partial,
    add_no_progress,
    add_no_report,
    add_quiet,
    add_report_dir,
    add_workers,
    checked,
    positive,
)
from .report import write_report


def add_parser(sub: Any) -> None:
    """``balancelab atlas``: its options (the command itself: :func:`cmd_atlas`)."""
    atlas = sub.add_parser(
        "atlas",
        help="the balance atlas: every game and player count along a skill ladder, in one page",
        description="Run the built-in atlas studies (atlas-<game>: every player count, a skill ladder of "
        "self-play) into OUT/<game>/, sized from measured cost to fit --core-hours, then write the atlas "
        "page (game x player count) with every game's report. Resumable: the same command continues.",
    )
    _add_plan_options(atlas)
    add_report_dir(atlas, "write the atlas page here (default: OUT/report)")
    add_no_report(atlas, "do not write the pages")
    add_allow_partial(atlas, "write the pages over what is played so far (each page says so)")
    _add_source_options(atlas)
    add_workers(atlas, "parallel tasks (default: all CPUs)")
    add_address(atlas, "Ray cluster to join, HOST:PORT (default: $RAY_ADDRESS, else local)")
    add_no_progress(atlas)
    add_quiet(atlas)
    atlas.set_defaults(func=cmd_atlas)


def _add_plan_options(atlas: Any) -> None:
    """``balancelab atlas``: which games, how much to spend, and where the runs go."""
    atlas.add_argument(
        "--games",
        type=lambda text: [g.strip() for g in text.split(",") if g.strip()],
        help="comma-separated games (default: every game with an atlas study)",
    )
    atlas.add_argument(
        "--core-hours",
        type=checked(float, lambda v: 0 < v <= 1e6, "a positive number of core-hours"),
        default=1.0,
        help="budget of the whole atlas in core-hours, calibration included (default: 1)",
    )
    atlas.add_argument(
        "--more-core-hours",
        type=checked(float, lambda v: 0 <= v <= 1e6, "a number of core-hours, 0 or more"),
        default=0.0,
        help="core-hours more for the precision rounds only (the first rounds stay as --core-hours plans "
        "them): grows the unsettled rows of an atlas whose budget is spent (default: 0)",
    )
    atlas.add_argument("--plan", action="store_true", help="print the plan and its cost; play nothing")
    atlas.add_argument(
        "--first-round-only",
        action="store_true",
        help="play the planned first rounds only, no precision rounds (a run short of wall time)",
    )
    atlas.add_argument(
        "--out", type=Path, default=Path("runs/atlas"), help="output directory (default: runs/atlas)"
    )


def _add_source_options(atlas: Any) -> None:
    """``balancelab atlas``: pages from runs already played, and the replay check of their rows."""
    atlas.add_argument(
        "--report-only", action="store_true", help="write the pages from the runs as they are; play nothing"
    )
    atlas.add_argument(
        "--from",
        dest="from_dir",
        type=Path,
        metavar="DATA",
        help="read the runs from an atlas page's data folder (e.g. reports/atlas/data) instead of OUT; "
        "plays nothing: re-renders the page (into --report-dir, default DATA/..); with --verify: checks it",
    )
    atlas.add_argument(
        "--verify",
        type=positive,
        metavar="N",
        help="replay N games of every cell (OUT, or --from DATA) and compare them with the stored rows; "
        "exit 1 on any difference",
    )


def cmd_atlas(args: argparse.Namespace) -> int:
    """Plan (from measured cost), run every game, then write each game's report and the atlas page."""
    from analysis.atlas_round import row_round
    from pipeline import study as study_mod
    from pipeline.atlas import (
        COSTS,
        AtlasError,
        atlas_studies,
        calibrate,
        format_plan,
        plan_atlas,
        read_costs,
    )
    from pipeline.atlas_run import AtlasRun, run_atlas

    try:
        studies = atlas_studies(args.games)
        if args.verify is not None:
            return _atlas_verify(studies, args.from_dir or args.out, args.verify)
        if args.report_only or args.from_dir is not None:
            return _atlas_pages(studies, args, read_costs((args.from_dir or args.out) / COSTS))
        costs = calibrate(studies, args.out, quiet=args.quiet or args.plan)
        plan = plan_atlas(studies, costs, args.core_hours * 3600, args.more_core_hours * 3600)
    except (AtlasError, study_mod.StudyError) as exc:
        return fail(str(exc))
    if args.plan or not args.quiet:
        print(format_plan(plan))
    if args.plan:
        return 0
    options = {
        "workers": args.workers,
        "address": args.address,
        "progress": not (args.no_progress or args.quiet),
        "quiet": args.quiet,
    }
    how = AtlasRun(options, row_round, args.quiet, refine=not args.first_round_only)
    status = _run_atlas(studies, args, plan, costs, how, run_atlas)
    if status != 0 or args.no_report:
        return status
    return _atlas_pages(studies, args, costs)


def _atlas_pages(studies: Any, args: argparse.Namespace, costs: Any) -> int:
    """Every game's full report into DIR/<game>/ (not from a data folder), then the atlas page into DIR."""
    from analysis.report.atlas import write_atlas
    from pipeline import study as study_mod
    from pipeline.atlas import seconds_per_game
    from pipeline.atlas_run import read_state

    source = args.from_dir or args.out
    target = args.report_dir or (source.parent if args.from_dir else args.out / "report")
    dirs = {s.game: source / s.game for s in studies}
    for study in studies:
        if not (dirs[study.game] / "manifest.json").exists():
            return fail(f"{dirs[study.game]}: no manifest.json; run the atlas first (without --report-only)")
    # a data folder holds only the columns the page reads: the games' full reports (which read each
    # game's own columns too) come from the run directories only
    for game, run_dir in dirs.items() if args.from_dir is None else ():
        # the reports beside the atlas's folder (e.g. reports/hiroba-handicap) lend their played handicaps
        status = write_report(run_dir, target / game, True, args.allow_partial, siblings_of=target)
        if status != 0:
            return status
    cost = {}
    for s in studies:
        try:
            cost[s.game] = seconds_per_game(s, costs)
        except study_mod.StudyError:  # never calibrated (--report-only): no core-hours estimates
            cost[s.game] = {}
    page = write_atlas(dirs, target, read_state(source), cost)
    print(f"atlas: {page}")
    return _atlas_data(source, studies, target, args)


def _atlas_data(source: Path, studies: Any, target: Path, args: argparse.Namespace) -> int:
    """The page's data beside it (``pipeline.atlas_data``), unless the page was read from there."""
    from pipeline.atlas_data import DATA_DIR, export

    dest = target / DATA_DIR
    if dest.resolve() == source.resolve():
        return 0
    try:
        export(source, [s.game for s in studies], dest, allow_partial=args.allow_partial)
    except (ValueError, OSError) as exc:  # IncompleteRun is a ValueError: say how to go on
        return fail_run(f"atlas data: {exc}; run the atlas to the end, or --allow-partial")
    print(f"atlas data: {dest}")
    return 0


def _atlas_verify(studies: Any, source: Path, n: int) -> int:
    """Replays ``n`` games of every cell and compares them with the stored rows."""
    from pipeline.atlas_data import verify
    from rundir import RunFormatError

    try:
        played, bad = verify(source, [s.game for s in studies], n)
    except (RunFormatError, ValueError) as exc:
        return fail(f"atlas verify: {exc}; --from names an atlas page's data folder, else --out an atlas run")
    for m in bad[:20]:
        print(f"differs: {m.game} {m.cell} game {m.game_index}: {m.why[:300]}", file=sys.stderr)
    if bad:
        return fail_run(f"atlas verify: {len(bad)} of {played} replayed games differ from {source}")
    print(f"atlas verify: {played} games replayed from {source}, every one as stored")
    return 0


def _run_atlas(studies: Any, args: argparse.Namespace, plan: Any, costs: Any, how: Any, run: Any) -> int:
    """The atlas's runs, each error as one line (as ``balancelab run``'s)."""
    done = guarded_run(lambda: run(studies, args.out, plan, costs, how))
    return done if isinstance(done, int) else 0
