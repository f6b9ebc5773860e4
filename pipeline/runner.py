"""Running a study into a directory: check, resume scan, distribute, manifest, precision rounds."""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from rundir import MAX_GAMES, Manifest, RunWriteError, write_manifest
from rundir.layout import LOCK
from rundir.store import open_file

from . import resume, sink
from .cluster import CONNECT_TIMEOUT_S, RaySession
from .distribute import Progress, read_files, run_batches
from .plan import BatchSizer, missing_ranges
from .study import Study, games_for

DEFAULT_MAX_GAMES = 1_000_000
MANIFEST_EVERY_S = 5.0
MAX_TASK_SECONDS = 3600.0


class RunOptionError(ValueError):
    """A bad option of ``run_study``/``balancelab run``: ``field`` names it."""

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}")


def _say(quiet: bool, message: str) -> None:
    if not quiet:
        print(message, flush=True)


def _warn(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def check_options(
    target_seconds: float, batch_games: int | None, max_games: int | None, precision: float | None
) -> None:
    """Refuses non-finite or out-of-range options before anything is started or written."""
    if not (math.isfinite(target_seconds) and 0 < target_seconds <= MAX_TASK_SECONDS):
        raise RunOptionError(
            "--task-seconds",
            f"must be a number of seconds in (0, {MAX_TASK_SECONDS:g}], got {target_seconds}",
        )
    for name, value in (("--batch-games", batch_games), ("--max-games", max_games)):
        if value is not None and not 1 <= value <= MAX_GAMES:
            raise RunOptionError(name, f"must be an integer 1..{MAX_GAMES}, got {value}")
    if precision is not None and not (math.isfinite(precision) and 0 < precision < 1):
        raise RunOptionError("--precision", f"must be a number in (0, 1), got {precision}")


def prepare(study: Study, out: Path, quiet: bool = True) -> tuple[Study, Manifest | None]:
    """Refuses a directory that is not a run of this study and engine, or files of the study
    changed since it was loaded (:class:`StudyError`); returns the study and the old manifest
    (``None`` for a damaged one that is rebuilt from the study: said unless ``quiet``)."""
    if out.exists() and not out.is_dir():
        raise resume.ManifestMismatch(f"--out {out}: exists and is not a directory")
    old, note = resume.read_for(out, study)
    if note is None:
        resume.check_compatible(out, study, old)
    elif not quiet:
        _warn(f"note: {note}")
    read_files(study)
    return study, old


def fit_to_data(study: Study, covered: dict[str, list[tuple[int, int]]]) -> Study:
    """Every cell grown to cover the games already on disk (a directory's data never shrinks or has holes)."""
    cells = []
    for cell in study.cells:
        end = max((b for _, b in covered.get(cell.id, [])), default=0)
        games = max(cell.games, games_for(end, cell.n_players, study.pair_seats))
        cells.append(replace(cell, games=games))
    return replace(study, cells=cells)


class DirectoryBusy(ValueError):
    """Another ``balancelab run`` is writing to the same directory."""


@contextlib.contextmanager
def exclusive(out: Path) -> Iterator[None]:
    """Holds ``out/.lock`` for the run (released by the OS even if the process is killed)."""
    try:  # never through a link, never truncated: the lock holds nothing
        fh = os.fdopen(open_file(str(out / LOCK), os.O_WRONLY | os.O_CREAT), "w")
    except OSError as exc:
        raise RunWriteError(out / LOCK, exc) from exc
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DirectoryBusy(
                f"{out}: another balancelab run is writing here; wait for it or stop it"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def grow(study: Study, widths: dict[str, float], target: float, max_games: int) -> Study | None:
    """More games for every cell whose half-width exceeds ``target``, or ``None`` if nothing can grow.

    The half-width shrinks as 1/sqrt(games), so a cell needs about ``games * (width / target)^2``;
    one round at most quadruples a cell and never passes ``max_games``.
    """
    cells = []
    grew = False
    for cell in study.cells:
        width = widths.get(cell.id)
        games = cell.games
        if width is None or not math.isfinite(width):
            want = games * 2
        elif width > target:
            want = math.ceil(games * (width / target) ** 2 * 1.1)
        else:
            want = games
        want = min(max(want, games), games * 4, max_games)
        want = games_for(want, cell.n_players, study.pair_seats)
        if want > max_games and study.pair_seats:
            want -= cell.n_players
        if want > games:
            grew = True
            cells.append(replace(cell, games=want))
        else:
            cells.append(cell)
    return replace(study, cells=cells) if grew else None


class FairestStep(Protocol):
    """The next round of a ``fairest`` search (``analysis.fairest.FairestStep``): the games per
    cell id that grow, whether the race is settled, one line, and the record for the manifest."""

    games: Mapping[str, int]
    settled: bool
    line: str
    record: Mapping[str, Any]


class LadderStep(Protocol):
    """A ladder study's next precision round (``analysis.precision.LadderRound``): the games per
    cell id that grow, whether every verdict is settled, the round's cost, and the closing line."""

    games: Mapping[str, int]
    settled: bool
    cost_s: float
    line: str


@dataclass
class RunConfig:
    """How to run (not what: that is the study)."""

    workers: int | None = None
    address: str | None = None
    batch_games: int | None = None
    target_seconds: float = 2.0
    progress: bool = True
    quiet: bool = False
    precision: float | None = None
    max_games: int | None = None
    #: With ``precision`` on a study with a skill ladder: the core-hours budget of all rounds.
    max_core_hours: float | None = None
    #: Core-seconds of the directory's earlier invocations (set by the runner; the ladder's cost basis).
    prior_core_seconds: float = 0.0
    on_written: Callable[[Progress], None] | None = None
    connect_timeout_s: float = CONNECT_TIMEOUT_S
    #: What ``precision`` measures, passed in by the caller (the CLI passes the analysis's
    #: functions; the runner imports no analysis): per-cell 95% half-widths of the start-player
    #: advantage of a run directory, and a ladder study's next round.
    halfwidths: Callable[[Path], Mapping[str, float]] | None = None
    ladder_round: Callable[[Path, float, float, float], LadderStep] | None = None
    #: ``balancelab fairest``: the racing decision after every round (``analysis.fairest``); with
    #: it, rounds continue (without ``precision``) until it says the race is settled.
    fairest_round: Callable[[Path], FairestStep] | None = None


def run_study(study: Study, out: Path, **options: Any) -> Manifest:
    """Plays every missing game of ``study`` into ``out`` and returns the final manifest.

    ``options`` are the fields of :class:`RunConfig`. Raises (before starting or writing anything)
    :class:`RunOptionError` for a bad option, :class:`resume.ManifestMismatch` if ``out`` holds
    another study or is not a run directory, :class:`resume.EngineChanged` if it was played by
    other rules or agent versions, :class:`rundir.RunFormatError` for a manifest of
    another format, :class:`StudyError` if a file of the study changed since it was loaded,
    :class:`DirectoryBusy` if another run is writing to ``out``, :class:`sink.UnreadableData` if
    a batch file cannot be read; :class:`rundir.RunWriteError` if writing fails.

    Ray is started (or the cluster at ``address``/``RAY_ADDRESS`` joined) only if a game is
    missing; for a new directory before anything is written, so a Ray that cannot start or a
    cluster that cannot be reached (:class:`pipeline.cluster.RayUnavailable`) leaves nothing behind.
    """
    cfg = RunConfig(**options)
    check_options(cfg.target_seconds, cfg.batch_games, cfg.max_games, cfg.precision)
    if cfg.max_core_hours is not None and not (math.isfinite(cfg.max_core_hours) and cfg.max_core_hours > 0):
        raise RunOptionError(
            "--max-core-hours", f"must be a positive number of hours, got {cfg.max_core_hours}"
        )
    t_start = time.perf_counter()
    _, old = prepare(study, out)  # refuse another study before creating anything
    with RaySession(cfg.workers, cfg.address, lambda m: _note(cfg.quiet, m), cfg.connect_timeout_s) as ray:
        if old is None:
            ray.start()  # a new directory always has games to play: fail before writing anything
        return _run(study, out, cfg, ray, t_start)


def _note(quiet: bool, message: str) -> None:
    """What is happening (starting Ray, writing the report): on stderr, beside the progress bar."""
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def _run(study: Study, out: Path, cfg: RunConfig, ray: RaySession, t_start: float) -> Manifest:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunWriteError(out, exc) from exc
    with exclusive(out):
        study, old = prepare(study, out, cfg.quiet)
        scan = sink.scan(out, study)
        for rel, why in scan.removed:
            _warn(f"playing again {rel}: {why}")
        for rel in scan.strays:
            _warn(f"ignoring {rel}: not a batch file of this run (no reader uses it; delete it if unwanted)")
        for note in scan.notes:
            _warn(f"note: {note}")
        study = fit_to_data(study, scan.covered)
        man = resume.new(study, old)
        cfg.prior_core_seconds = old.task_seconds if old is not None else 0.0
        man.games_done = sum(scan.games(c.id) for c in study.cells)
        resume.settle(man.plays, man.games_done)
        write_manifest(out, man)  # before Ray starts: data never lies in a directory without one
        compute, played = _play(study, out, man, scan, cfg, ray)
    man.finished = resume.now()
    man.wall_seconds = round(time.perf_counter() - t_start, 3)
    man.compute_seconds = round(compute, 3)
    man.games_played = played  # by this invocation (games_done counts the whole directory)
    man.games_per_second = round(played / compute, 1) if compute > 0 else None
    man.plays[-1].finished, man.plays[-1].wall_seconds = man.finished, man.wall_seconds  # games, CPU: tallied
    write_manifest(out, _kept(old, man) if played == 0 and old is not None else man)
    return man  # what this invocation did (the closing line, the atlas's accounting)


def _kept(old: Manifest, man: Manifest) -> Manifest:
    """The manifest of a continuation that played nothing (e.g. to change the estimator or the
    prose): the directory's record of where, when and how its games were played stands (commit,
    versions, host, times, CPU), with this invocation's study, counts and precision rounds."""
    return replace(
        old,
        plays=man.plays[:-1],  # the earlier plays (an interrupted one with its games), not this one
        study=man.study,
        games_done=man.games_done,
        games_planned=man.games_planned,
        finished=old.finished or man.finished,
        precision_rounds=man.precision_rounds or old.precision_rounds,
    )


class _Writer:
    """Rewrites the manifest's progress at most every :data:`MANIFEST_EVERY_S` seconds."""

    def __init__(self, out: Path, man: Manifest, on_written: Callable[[Progress], None] | None) -> None:
        self.out, self.man, self.on_written = out, man, on_written
        self.last = time.monotonic()
        self.base_done = self.start_done = man.games_done

    def __call__(self, p: Progress) -> None:
        if time.monotonic() - self.last > MANIFEST_EVERY_S:
            self.man.games_done = self.base_done + p.games_done
            self.tally()
            write_manifest(self.out, self.man)
            self.last = time.monotonic()
        if self.on_written is not None:
            self.on_written(p)

    def tally(self) -> None:
        """This invocation's play record brought up to the manifest's counts (a crash keeps them)."""
        play = self.man.plays[-1]
        play.games = self.man.games_done - self.start_done
        play.task_cpu_seconds = self.man.task_cpu_seconds


def _progress_bar(study: Study, done: int) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=sum(c.games for c in study.cells),
        initial=done,
        unit="games",
        unit_scale=True,
        smoothing=0.05,
        dynamic_ncols=True,
        desc=study.name,
    )


def _play(
    study: Study, out: Path, man: Manifest, scan: sink.Scan, cfg: RunConfig, ray: RaySession
) -> tuple[float, int]:
    """Plays rounds (one, or more with ``precision``); Ray is started only for a round with games
    to play. Returns compute seconds and games played."""
    compute, played = 0.0, 0
    sizer = BatchSizer(study, target_seconds=cfg.target_seconds, fixed_games=cfg.batch_games)
    bar = None
    cap = cfg.max_games or max(DEFAULT_MAX_GAMES, max(c.games for c in study.cells))
    writer = _Writer(out, man, cfg.on_written)
    covered = scan.covered
    try:
        while True:
            gaps = {c.id: missing_ranges(c.games, covered.get(c.id, [])) for c in study.cells}
            writer.base_done = base_done = man.games_done
            if any(gaps.values()):
                concurrency = ray.start()
                man.workers = man.workers or concurrency
                if bar is None and cfg.progress:
                    bar = _progress_bar(study, man.games_done)
                t0 = time.perf_counter()
                stats = run_batches(study, out, gaps, concurrency, sizer, writer, progress_bar=bar)
                compute += time.perf_counter() - t0
                played += stats.games
                _account(man, stats, base_done, study)
                writer.tally()
            write_manifest(out, man)
            more = cfg.precision is not None or cfg.fairest_round is not None
            grown = _next_round(study, out, man, cfg, cap) if more else None
            if grown is None:
                break
            study = grown
            man.study = study
            if bar is not None:
                bar.total = sum(c.games for c in study.cells)
                bar.refresh()
            covered = sink.scan(out, study).covered
    finally:
        if bar is not None:
            bar.close()
    return compute, played


def _account(man: Manifest, stats: Any, base_done: int, study: Study) -> None:
    man.games_done = base_done + stats.games
    man.task_seconds = round(man.task_seconds + stats.task_seconds, 3)
    man.task_cpu_seconds = round(man.task_cpu_seconds + stats.task_cpu_seconds, 3)
    man.write_seconds = round(man.write_seconds + stats.write_seconds, 3)
    man.batches += stats.batches
    man.resubmitted += stats.resubmitted
    man.study = study
    man.games_planned = sum(c.games for c in study.cells)


def _next_round(study: Study, out: Path, man: Manifest, cfg: RunConfig, cap: int) -> Study | None:
    """The study grown for the next precision (or ``fairest``) round, or ``None`` when done."""
    if cfg.fairest_round is not None:
        return _next_fairest_round(study, out, man, cfg, cap)
    assert cfg.precision is not None
    if study.ladder:
        return _next_ladder_round(study, out, man, cfg, cap)
    if cfg.halfwidths is None:
        _say(
            cfg.quiet, "note: --precision needs a half-width function (halfwidths=); stopping after one round"
        )
        return None
    widths = {str(k): float(v) for k, v in cfg.halfwidths(out).items()}
    man.precision_rounds.append({"games": {c.id: c.games for c in study.cells}, "halfwidths": widths})
    grown = grow(study, widths, cfg.precision, cap)
    worst = max(widths.values()) if widths else float("nan")
    if grown is None:
        _say(cfg.quiet, precision_reached(widths, cfg.precision))
        return None
    _say(
        cfg.quiet,
        f"precision: largest half-width {worst:.4f} > {cfg.precision}; "
        f"playing up to {max(c.games for c in grown.cells)} games per cell",
    )
    return grown


def _next_fairest_round(study: Study, out: Path, man: Manifest, cfg: RunConfig, cap: int) -> Study | None:
    """A ``fairest`` search's next round: the cells still in the race grow (``cfg.fairest_round``)."""
    assert cfg.fairest_round is not None
    r = cfg.fairest_round(out)
    man.precision_rounds.append({"games": {c.id: c.games for c in study.cells}, "fairest": dict(r.record)})
    cells = [
        replace(c, games=games_for(min(r.games[c.id], cap), c.n_players, study.pair_seats))
        if c.id in r.games and r.games[c.id] > c.games
        else c
        for c in study.cells
    ]
    _say(cfg.quiet, r.line)
    if r.settled or cells == study.cells:
        return None
    return replace(study, cells=cells)


#: Core-hours of a ladder run with --precision when --max-core-hours is not given.
DEFAULT_LADDER_CORE_HOURS = 1.0


def _next_ladder_round(study: Study, out: Path, man: Manifest, cfg: RunConfig, cap: int) -> Study | None:
    """A ladder study's next round (``cfg.ladder_round``): games where they
    settle the start-player verdicts, within the core-hours budget; ``None`` when settled or spent."""
    if cfg.ladder_round is None:
        _say(
            cfg.quiet, "note: --precision on a ladder needs a ladder-round function (ladder_round=); stopping"
        )
        return None
    budget = (cfg.max_core_hours or DEFAULT_LADDER_CORE_HOURS) * 3600
    r = cfg.ladder_round(out, cfg.prior_core_seconds + man.task_seconds, man.task_seconds, budget)
    man.precision_rounds.append({"games": {c.id: c.games for c in study.cells}, "ladder": r.line})
    cells = [
        replace(c, games=games_for(min(r.games[c.id], cap), c.n_players, study.pair_seats))
        if c.id in r.games and r.games[c.id] > c.games
        else c
        for c in study.cells
    ]
    if r.settled or cells == study.cells or man.task_seconds >= budget:
        _say(cfg.quiet, r.line + ("" if r.settled else f"; budget {budget / 3600:g} core-hours reached"))
        return None
    _say(cfg.quiet, f"{r.line}; next round about {r.cost_s / 3600:.2f} core-hours")
    return replace(study, cells=cells)


def precision_reached(widths: dict[str, float], target: float) -> str:
    """One line on the precision a run reached, e.g. ``precision: largest 95% half-width of the
    start-player advantage 0.0048 (cell p2-x) <= 0.005: target reached``."""
    if not widths:
        return "precision: not measured (no cell with games)"
    cell = max(widths, key=lambda c: widths[c])
    worst = widths[cell]
    if worst <= target:
        verdict, sign = "target reached", "<="
    else:
        verdict, sign = "not reached: a cell hit the game cap (--max-games)", ">"
    return (
        f"precision: largest 95% half-width of the start-player advantage {worst:.4f} (cell {cell}) "
        f"{sign} {target}: {verdict}"
    )
