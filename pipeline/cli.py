"""``balancelab``: run studies, list built-ins, replay single games, write reports.

Exit status: 0 success, 1 failure while running (including a Ray cluster that cannot be reached
or refuses the driver, a full or read-only disk), 2 bad input (study file, options, directory).
Every error is one line on stderr (``balancelab: error: ...``), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from .cluster import CONNECT_TIMEOUT_S, TCP_TIMEOUT_S, signals_stop
from .words import plural

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


T = TypeVar("T")


def _checked(convert: Callable[[str], T], ok: Callable[[T], bool], expected: str) -> Callable[[str], T]:
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

_positive = _checked(int, lambda v: v >= 1, "a positive integer")
_seed = _checked(int, lambda v: 0 <= v <= MAX_SEED, f"an integer 0..{MAX_SEED}")
_game_index = _checked(int, lambda v: 0 <= v <= MAX_GAME_INDEX, f"an integer 0..{MAX_GAME_INDEX}")
_fraction = _checked(float, lambda v: 0 < v < 1, "a number in (0, 1)")
_positive_float = _checked(float, lambda v: 0 < v < float("inf"), "a positive number of seconds")


class _Version(argparse.Action):
    """``--version``: the package version and the engine's build, computed only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and the engine's build")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from .version import describe

        print(describe())
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"balancelab: error: {_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="balancelab",
        description="Seeded self-play simulation of board games, spread over Ray, landing in Parquet.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    for add in (_add_run, _add_studies, _add_replay, _add_report, _add_strength, _add_fairest, _add_atlas):
        add(sub)
    return parser


def _add_run(sub: Any) -> None:
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
    run.add_argument(
        "--workers",
        type=_positive,
        help="parallel tasks (default: all CPUs of the local machine or the cluster)",
    )
    run.add_argument("--games", type=_positive, help="games per cell, overriding the study's games_per_cell")
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
    _add_output_options(run, quiet="print only errors (implies --no-progress)")
    run.set_defaults(func=cmd_run)


def _add_output_options(parser: Any, quiet: str) -> None:
    """What a command prints and whether it writes its report (``run`` and ``fairest``)."""
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--no-report", action="store_true", help="do not write the report at the end")
    parser.add_argument(
        "--report-dir", type=Path, metavar="DIR", help="write the report here (default: OUT/report)"
    )
    parser.add_argument("--quiet", action="store_true", help=quiet)


def _add_cluster_options(run: Any) -> None:
    """``balancelab run``: where the games are played and how they are cut into tasks."""
    run.add_argument(
        "--address",
        help="Ray cluster to join, HOST:PORT of the head (default: $RAY_ADDRESS, else start a local Ray); "
        "checked before anything is written",
    )
    run.add_argument(
        "--connect-timeout",
        type=_positive_float,
        default=CONNECT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"with --address: give up if the cluster has not accepted the driver within this time "
        f"(default: {CONNECT_TIMEOUT_S:g}; an unreachable address fails within {TCP_TIMEOUT_S:g} s)",
    )
    run.add_argument(
        "--batch-games",
        type=_positive,
        help="fixed games per batch (default: sized so a task takes about --task-seconds)",
    )
    run.add_argument("--task-seconds", type=float, default=2.0, help="target seconds per task (default: 2)")


def _add_precision_options(run: Any) -> None:
    """``balancelab run``: adaptive sizing (play until the verdicts are settled)."""
    run.add_argument(
        "--precision",
        type=_fraction,
        help="keep adding games until every cell's 95%% half-width "
        "of the start-player advantage is at most this (e.g. 0.005)",
    )
    run.add_argument(
        "--max-games",
        type=_positive,
        help="with --precision: at most this many games per cell (default: 1,000,000 or the study's size)",
    )
    run.add_argument(
        "--max-core-hours",
        type=float,
        help="with --precision on a study with a skill ladder: stop when this many core-hours are spent "
        "(default: 1); rounds go to the rungs that settle the start-player verdicts, and stop once every "
        "verdict is converged or still moving",
    )


def _add_studies(sub: Any) -> None:
    """``balancelab studies``."""
    studies = sub.add_parser(
        "studies", help="list the built-in studies", description="List the built-in studies."
    )
    studies.add_argument("--show", metavar="NAME", help="print the TOML of one built-in study")
    studies.set_defaults(func=cmd_studies)


def _add_replay(sub: Any) -> None:
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
    replay.add_argument("--seed", type=_seed, help="study seed (required with GAME)")
    replay.add_argument("--game-index", type=_game_index, required=True, help="index of the game in its cell")
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


def _add_report(sub: Any) -> None:
    """``balancelab report``."""
    report = sub.add_parser(
        "report",
        help="write the HTML report of a run",
        description="Write the report of a run directory: RUN_DIR/report/index.html (with report.md and "
        "figures/), or into --report-dir. The committed example reports are regenerated on purpose only, "
        "e.g. balancelab report runs/alhambra-dirk --report-dir reports/alhambra-dirk.",
    )
    report.add_argument("run_dir", type=Path, help="run directory (with manifest.json)")
    report.add_argument(
        "--report-dir", type=Path, metavar="DIR", help="write the report here (default: RUN_DIR/report)"
    )
    report.add_argument(
        "--allow-partial",
        action="store_true",
        help="analyse an incomplete run (missing games or files that failed validation); "
        "prints the share of the planned games analysed",
    )
    report.set_defaults(func=cmd_report)


def _add_strength(sub: Any) -> None:
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
    strength.add_argument(
        "--report-dir", type=Path, metavar="DIR", help="write here (default: FIRST_RUN_DIR/report)"
    )
    strength.add_argument("--anchor", help="agent fixed at Elo 0 (default: greedy if present)")
    strength.set_defaults(func=cmd_strength)


def _add_fairest(sub: Any) -> None:
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
        "--games", type=_positive, help="first-round games per candidate (default: the study's)"
    )
    fairest.add_argument(
        "--max-games",
        type=_positive,
        help="at most this many games per candidate (default: 64 x the first round)",
    )
    fairest.add_argument(
        "--threshold", type=_fraction, help="practical threshold (default: the study's, else 0.01 = 1 point)"
    )
    fairest.add_argument("--workers", type=_positive, help="parallel tasks (default: all local CPUs)")
    fairest.add_argument("--address", help="Ray cluster to join, HOST:PORT (default: start a local Ray)")
    _add_output_options(fairest, quiet="print only errors and the result line")
    fairest.set_defaults(func=cmd_fairest)


#: Longest error line printed (a message quoting a huge input is cut).
MAX_MESSAGE = 2000


def _line(message: str) -> str:
    message = message.replace("\n", " ")
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + " ..."


def fail(message: str) -> int:
    print(f"balancelab: error: {_line(message)}", file=sys.stderr)
    return 2


def write_report(
    run_dir: Path, out_dir: Path | None, quiet: bool = False, allow_partial: bool = False
) -> int:
    from analysis.load import DuplicateKeys
    from analysis.report import write_report as _write_report
    from rundir import IncompleteRun, RunFormatError, read_manifest, verify_run
    from rundir.manifest import ManifestDamaged

    target = out_dir or run_dir / "report"
    try:
        man = read_manifest(run_dir)  # a damaged or foreign manifest: one line, before saying anything
        if allow_partial and man is not None and verify_run(run_dir).share()[0] == 0:
            resume = resume_command(man.study.source, run_dir)
            return fail(
                f"{run_dir}: no verified games yet (the run stopped before its first batch was "
                f"written), so there is nothing to analyse; `{resume}` continues it"
            )
        if not quiet:
            print(f"writing the report into {target} ...", file=sys.stderr, flush=True)
        index = _render(run_dir, target, out_dir is None, allow_partial, _write_report)
    except ManifestDamaged as exc:
        return fail(f"{exc}; {exc.restore_hint(run_dir)}")
    except (IncompleteRun, RunFormatError, DuplicateKeys) as exc:
        return fail(str(exc))
    except OSError as exc:
        if exc.filename is None and exc.strerror and exc.strerror.startswith("cannot write"):
            return fail_run(exc.strerror)  # a RunWriteError names the file
        return fail_run(f"cannot write the report into {target}: {_reason(exc)}")
    if allow_partial:
        done, planned = verify_run(run_dir).share()
        share = done / planned if planned else 0.0
        print(f"analysed {done:,} of {planned:,} planned games ({share:.1%})", file=sys.stderr)
    if not quiet:
        print(f"report: {index}")
    return 0


def resume_command(source: str, run_dir: Path) -> str:
    """The command that continues run ``run_dir`` of the study from ``source``."""
    return f"balancelab run {source.removeprefix('builtin:')} --out {run_dir}"


def _render(
    run_dir: Path, target: Path, inside_run: bool, allow_partial: bool, render: Callable[..., Path]
) -> Path:
    """Writes the report into a private temporary folder, then copies each file into ``target``
    (temporary name, rename): a link in the way is replaced, never written through, and inside the
    run no folder on the way is followed."""
    from rundir.store import atomic_write_bytes

    root = run_dir if inside_run else target
    scratch = Path(tempfile.mkdtemp(prefix="balancelab-report-"))
    try:
        index = render(run_dir, scratch, allow_partial=allow_partial)
        for path in sorted(scratch.rglob("*")):
            if path.is_file() and not path.is_symlink():
                atomic_write_bytes(target / path.relative_to(scratch), path.read_bytes(), root=root)
        return target / Path(index).relative_to(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def fail_run(message: str) -> int:
    """A failure while running (not bad input): one line, exit status 1."""
    print(f"balancelab: error: {_line(message)}", file=sys.stderr)
    return 1


def _reason(exc: OSError) -> str:
    from rundir.store import describe

    return str(exc) if exc.strerror is None or not exc.filename else describe(exc)


def cmd_run(args: argparse.Namespace) -> int:
    from . import study as study_mod
    from .replay import parse_variant
    from .runner import run_study

    try:
        study = study_mod.load_study(args.study, args.games, parse_variant(args.variant))
    except ValueError as exc:  # StudyError, or a malformed --variant
        return fail(str(exc))
    if args.max_games is not None and args.precision is None:
        return fail("--max-games: only with --precision")
    if args.max_core_hours is not None and args.precision is None:
        return fail("--max-core-hours: only with --precision")
    out = args.out or Path("runs") / study.name
    from analysis import precision as measured  # the CLI wires the analysis into the runner

    man = _guarded_run(
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


def cmd_fairest(args: argparse.Namespace) -> int:
    import functools

    from analysis.fairest import fairest_round  # the CLI wires the analysis into the runner

    from . import study as study_mod
    from .runner import run_study

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
    man = _guarded_run(
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


def cmd_studies(args: argparse.Namespace) -> int:
    from . import study as study_mod

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


def cmd_replay(args: argparse.Namespace) -> int:
    import rust_core

    from . import replay
    from . import study as study_mod

    if args.run is not None:
        if args.game or args.seed is not None or args.variant or args.agents:
            return fail(
                "replay --run takes the game, seed, variant and agents from the run; give only --cell"
            )
        if not args.cell:
            return fail("replay --run needs --cell ID")
        try:
            log, recorded = replay.from_run(args.run, args.cell, args.game_index)
        except ValueError as exc:
            return fail(str(exc))
        print(json.dumps(log, indent=1) if args.json else replay.format_log(log))
        note = sys.stderr if args.json else sys.stdout  # --json: stdout holds the JSON only
        if not recorded:
            print(f"(game {args.game_index} is not in the data of {args.run} yet)", file=note)
            return 0
        problems = replay.mismatches(log, recorded)
        if problems:
            print("MISMATCH with the recorded rows:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 1
        print(f"(matches the {len(recorded)} rows recorded in {args.run})", file=note)
        return 0
    if not args.game:
        return fail(f"replay: give GAME (one of {', '.join(rust_core.games())}) or --run DIR")
    if args.seed is None:
        return fail("replay: --seed is required with GAME")
    try:
        variant = replay.parse_variant(args.variant)
        variant = study_mod.resolve_paths(args.game, variant, Path.cwd(), "--variant")
        agents = args.agents or ["random", "random"]
        rust_core.validate(args.game, variant, agents)
        log = rust_core.replay(
            args.game, variant, agents, args.seed, args.game_index, pair_seats=args.pair_seats
        )
    except ValueError as exc:
        return fail(str(exc))
    print(json.dumps(log, indent=1) if args.json else replay.format_log(log))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from rundir import manifest_path

    if not manifest_path(args.run_dir).exists():
        return fail(f"{args.run_dir}: no manifest.json; not a run directory")
    return write_report(args.run_dir, args.report_dir, allow_partial=args.allow_partial)


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


def _add_atlas(sub: Any) -> None:
    """``balancelab atlas``: its options (the command itself: :func:`cmd_atlas`)."""
    atlas = sub.add_parser(
        "atlas",
        help="the balance atlas: every game and player count along a skill ladder, in one page",
        description="Run the built-in atlas studies (atlas-<game>: every player count, a skill ladder of "
        "self-play) into OUT/<game>/, sized from measured cost to fit --core-hours, then write the atlas "
        "page (game x player count) with every game's report. Resumable: the same command continues.",
    )
    atlas.add_argument(
        "--games",
        type=lambda text: [g.strip() for g in text.split(",") if g.strip()],
        help="comma-separated games (default: every game with an atlas study)",
    )
    atlas.add_argument(
        "--core-hours",
        type=_checked(float, lambda v: 0 < v <= 1e6, "a positive number of core-hours"),
        default=1.0,
        help="budget of the whole atlas in core-hours, calibration included (default: 1)",
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
    atlas.add_argument(
        "--report-dir", type=Path, metavar="DIR", help="write the atlas page here (default: OUT/report)"
    )
    atlas.add_argument("--no-report", action="store_true", help="do not write the pages")
    atlas.add_argument(
        "--allow-partial",
        action="store_true",
        help="write the pages over what is played so far (each page says so)",
    )
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
        type=_positive,
        metavar="N",
        help="replay N games of every cell (OUT, or --from DATA) and compare them with the stored rows; "
        "exit 1 on any difference",
    )
    atlas.add_argument("--workers", type=_positive, help="parallel tasks (default: all CPUs)")
    atlas.add_argument("--address", help="Ray cluster to join, HOST:PORT (default: $RAY_ADDRESS, else local)")
    atlas.add_argument("--no-progress", action="store_true", help="no progress bar")
    atlas.add_argument("--quiet", action="store_true", help="print only errors (implies --no-progress)")
    atlas.set_defaults(func=cmd_atlas)


def cmd_atlas(args: argparse.Namespace) -> int:
    """Plan (from measured cost), run every game, then write each game's report and the atlas page."""
    from analysis.atlas_round import row_round

    from . import study as study_mod
    from .atlas import COSTS, AtlasError, atlas_studies, calibrate, format_plan, plan_atlas, read_costs
    from .atlas_run import AtlasRun, run_atlas

    try:
        studies = atlas_studies(args.games)
        if args.verify is not None:
            return _atlas_verify(studies, args.from_dir or args.out, args.verify)
        if args.report_only or args.from_dir is not None:
            return _atlas_pages(studies, args, read_costs((args.from_dir or args.out) / COSTS))
        costs = calibrate(studies, args.out, quiet=args.quiet or args.plan)
        plan = plan_atlas(studies, costs, args.core_hours * 3600)
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
    """Every game's full report into DIR/<game>/, then the atlas page into DIR."""
    from analysis.report.atlas import write_atlas

    from . import study as study_mod
    from .atlas import seconds_per_game
    from .atlas_run import read_state

    source = args.from_dir or args.out
    target = args.report_dir or (source.parent if args.from_dir else args.out / "report")
    dirs = {s.game: source / s.game for s in studies}
    for study in studies:
        if not (dirs[study.game] / "manifest.json").exists():
            return fail(f"{dirs[study.game]}: no manifest.json; run the atlas first (without --report-only)")
    for game, run_dir in dirs.items():
        status = write_report(run_dir, target / game, quiet=True, allow_partial=args.allow_partial)
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
    from .atlas_data import DATA_DIR, export

    dest = target / DATA_DIR
    if dest.resolve() == source.resolve():
        return 0
    try:
        export(source, [s.game for s in studies], dest)
    except (ValueError, OSError) as exc:
        note = "; run the atlas to the end for its data" if args.allow_partial else ""
        return fail_run(f"atlas data: {exc}{note}")
    print(f"atlas data: {dest}")
    return 0


def _atlas_verify(studies: Any, source: Path, n: int) -> int:
    """Replays ``n`` games of every cell and compares them with the stored rows."""
    from .atlas_data import verify

    played, bad = verify(source, [s.game for s in studies], n)
    for m in bad[:20]:
        print(f"differs: {m.game} {m.cell} game {m.game_index}: {m.why[:300]}", file=sys.stderr)
    if bad:
        return fail_run(f"atlas verify: {len(bad)} of {played} replayed games differ from {source}")
    print(f"atlas verify: {played} games replayed from {source}, every one as stored")
    return 0


def _run_atlas(studies: Any, args: argparse.Namespace, plan: Any, costs: Any, how: Any, run: Any) -> int:
    """The atlas's runs, each error as one line (as ``balancelab run``'s)."""
    done = _guarded_run(lambda: run(studies, args.out, plan, costs, how))
    return done if isinstance(done, int) else 0


def _guarded_run(call: Callable[[], T]) -> T | int:
    """``call()``, a run of the run machinery, or its error as one line and an exit status: 2 for
    input the run refuses (a mismatched or busy directory, a bad option), 1 for a failed write,
    unreadable data or no Ray (the batches written so far are kept)."""
    from rundir import RunFormatError, RunWriteError

    from . import manifest
    from . import study as study_mod
    from .cluster import RayUnavailable
    from .runner import DirectoryBusy, RunOptionError
    from .sink import UnreadableData

    try:
        return call()
    except (
        manifest.ManifestMismatch,
        DirectoryBusy,
        study_mod.StudyError,
        RunOptionError,
        RunFormatError,
    ) as exc:
        return fail(str(exc))
    except (RunWriteError, UnreadableData) as exc:
        return fail_run(f"{exc}; the batches written so far are kept")
    except RayUnavailable as exc:
        return fail_run(str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    # SIGTERM stops any command as Ctrl-C does: exit status 130, one line; called as the program
    # (no ``argv``), a stop after the command has finished is ignored while the process exits
    with signals_stop(exiting=argv is None):
        try:
            return _main(argv)
        except KeyboardInterrupt:
            print("interrupted; run the same command again to continue", file=sys.stderr)
            return 130


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `balancelab`: what it can do
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except OSError as exc:  # a disk, a permission, a name too long: one line, never a traceback
        where = f"{str(exc.filename)[:200]}: " if exc.filename else ""
        return fail_run(f"{where}{_reason(exc)}")
    except (RecursionError, MemoryError) as exc:
        return fail(f"input too large or nested too deeply ({type(exc).__name__})")
    except Exception as exc:  # noqa: BLE001 - a bug: still one line (BALANCELAB_DEBUG=1 shows where)
        if os.environ.get("BALANCELAB_DEBUG"):
            raise
        return fail_run(
            f"internal error ({type(exc).__name__}: {str(exc)[:300]}); please report it "
            "(BALANCELAB_DEBUG=1 shows the traceback)"
        )


if __name__ == "__main__":
    sys.exit(main())
