"""Running a study into a directory: check, resume scan, distribute, manifest, precision rounds."""

from __future__ import annotations

import contextlib
import fcntl
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import manifest, sink
from .cluster import CONNECT_TIMEOUT_S, RaySession
from .distribute import Progress, read_files, run_batches
from .plan import BatchSizer, missing_ranges
from .study import Study, games_for

DEFAULT_MAX_GAMES = 1_000_000
MANIFEST_EVERY_S = 5.0


def _say(quiet: bool, message: str) -> None:
    if not quiet:
        print(message, flush=True)


def prepare(study: Study, out: Path) -> tuple[Study, dict[str, Any] | None]:
    """Refuses a directory holding another study, or files of the study changed since it was
    loaded (:class:`StudyError`); returns the study and the old manifest."""
    old = manifest.read(out)
    manifest.check_compatible(out, study, old)
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
    with open(out / ".lock", "w") as fh:
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


def halfwidths(out: Path) -> dict[str, float] | None:
    """Per-cell 95% half-width of the start-player advantage, if the analysis package provides it."""
    try:
        from analysis.precision import max_halfwidths
    except ImportError:
        return None
    return {str(k): float(v) for k, v in max_halfwidths(out).items()}


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


def run_study(
    study: Study,
    out: Path,
    *,
    workers: int | None = None,
    address: str | None = None,
    batch_games: int | None = None,
    target_seconds: float = 2.0,
    progress: bool = True,
    quiet: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    on_written: Callable[[Progress], None] | None = None,
    connect_timeout_s: float = CONNECT_TIMEOUT_S,
) -> dict[str, Any]:
    """Plays every missing game of ``study`` into ``out`` and returns the final manifest.

    Ray is started (or the cluster at ``address``/``RAY_ADDRESS`` joined) only if a game is
    missing; for a new directory before anything is written, so a Ray that cannot start or a
    cluster that cannot be reached (:class:`RayUnavailable`) leaves nothing behind.

    Raises :class:`manifest.ManifestMismatch` (before starting anything) if ``out`` holds another study,
    :class:`StudyError` if a file of the study changed since it was loaded, :class:`DirectoryBusy` if
    another run is writing to ``out``.
    """
    t_start = time.perf_counter()
    prepare(study, out)  # refuse another study before creating anything
    settings = _Settings(batch_games, target_seconds, progress, quiet, precision, max_games, on_written)
    with RaySession(workers, address, lambda m: _note(quiet, m), connect_timeout_s) as ray:
        if manifest.read(out) is None:
            ray.start()  # a new directory always has games to play: fail before writing anything
        out.mkdir(parents=True, exist_ok=True)
        with exclusive(out):
            study, old = prepare(study, out)
            return _run_locked(study, old, out, t_start, ray, settings)


def _note(quiet: bool, message: str) -> None:
    """What is happening (starting Ray, writing the report): on stderr, beside the progress bar."""
    if not quiet:
        print(message, file=sys.stderr, flush=True)


@dataclass
class _Settings:
    batch_games: int | None
    target_seconds: float
    progress: bool
    quiet: bool
    precision: float | None
    max_games: int | None
    on_written: Callable[[Progress], None] | None


def _missing(study: Study, covered: dict[str, list[tuple[int, int]]]) -> dict[str, list[tuple[int, int]]]:
    return {c.id: missing_ranges(c.games, covered.get(c.id, [])) for c in study.cells}


def _run_locked(
    study: Study, old: dict[str, Any] | None, out: Path, t_start: float, ray: RaySession, s: _Settings
) -> dict[str, Any]:
    scan = sink.scan(out, study)
    for path, why in scan.removed:
        _say(s.quiet, f"recomputing {path.relative_to(out)}: {why}")
    study = fit_to_data(study, scan.covered)
    man = manifest.new(study, old)
    man["games_done"] = sum(scan.games(c.id) for c in study.cells)
    man["workers"] = ray.concurrency
    manifest.write(out, man)
    rounds = _Rounds(study, out, man, ray, s)
    try:
        rounds.play(scan.covered)
    finally:
        rounds.close()
    man["finished"] = manifest.now()
    man["wall_seconds"] = round(time.perf_counter() - t_start, 3)
    man["compute_seconds"] = round(rounds.compute, 3)
    man["games_played"] = rounds.played  # by this invocation (games_done counts the whole directory)
    man["games_per_second"] = round(rounds.played / rounds.compute, 1) if rounds.compute > 0 else None
    manifest.write(out, man)
    return man


class _Rounds:
    """The rounds of one run: the missing games, then (with ``precision``) more until it is reached."""

    def __init__(self, study: Study, out: Path, man: dict[str, Any], ray: RaySession, s: _Settings) -> None:
        self.study, self.out, self.man, self.ray, self.s = study, out, man, ray, s
        self.sizer = BatchSizer(study, target_seconds=s.target_seconds, fixed_games=s.batch_games)
        self.cap = s.max_games or max(DEFAULT_MAX_GAMES, max(c.games for c in study.cells))
        self.compute = 0.0
        self.played = 0
        self.bar: Any = None
        self.last_write = time.monotonic()
        self.base_done = man["games_done"]

    def play(self, covered: dict[str, list[tuple[int, int]]]) -> None:
        while True:
            self.play_round(_missing(self.study, covered))
            if self.s.precision is None or not self.grow():
                return
            covered = sink.scan(self.out, self.study).covered

    def play_round(self, gaps: dict[str, list[tuple[int, int]]]) -> None:
        man = self.man
        self.base_done = man["games_done"]
        if any(gaps.values()):
            concurrency = self.ray.start()
            man["workers"] = man.get("workers") or concurrency
            self.open_bar()
            t0 = time.perf_counter()
            stats = run_batches(
                self.study, self.out, gaps, concurrency, self.sizer, self.written, progress_bar=self.bar
            )
            self.compute += time.perf_counter() - t0
            man["games_done"] = self.base_done + stats.games
            self.played += stats.games
            for key in ("task_seconds", "task_cpu_seconds", "write_seconds"):
                man[key] = round(man.get(key, 0.0) + getattr(stats, key), 3)
            for key in ("batches", "resubmitted"):
                man[key] = man.get(key, 0) + getattr(stats, key)
        man["study"] = self.study.to_dict()
        man["games_planned"] = sum(c.games for c in self.study.cells)
        manifest.write(self.out, man)

    def written(self, p: Progress) -> None:
        if time.monotonic() - self.last_write > MANIFEST_EVERY_S:
            self.man["games_done"] = self.base_done + p.games_done
            manifest.write(self.out, self.man)
            self.last_write = time.monotonic()
        if self.s.on_written is not None:
            self.s.on_written(p)

    def grow(self) -> bool:
        """Records this round's half-widths; grows the study if the target is not reached (True)."""
        assert self.s.precision is not None
        widths = halfwidths(self.out)
        if widths is None:
            _say(
                self.s.quiet,
                "note: --precision needs analysis.precision, which is not available; one round only",
            )
            return False
        self.man.setdefault("precision_rounds", []).append(
            {"games": {c.id: c.games for c in self.study.cells}, "halfwidths": widths}
        )
        grown = grow(self.study, widths, self.s.precision, self.cap)
        if grown is None:
            return False
        self.study = grown
        self.man["study"] = self.study.to_dict()
        if self.bar is not None:
            self.bar.total = sum(c.games for c in self.study.cells)
            self.bar.refresh()
        _say(
            self.s.quiet,
            f"precision: largest half-width {max(widths.values()):.4f} > {self.s.precision}; "
            f"playing up to {max(c.games for c in self.study.cells):,} games per cell",
        )
        return True

    def open_bar(self) -> None:
        if self.bar is not None or not self.s.progress:
            return
        from tqdm import tqdm

        self.bar = tqdm(
            total=sum(c.games for c in self.study.cells),
            initial=self.man["games_done"],
            unit="games",
            unit_scale=True,
            smoothing=0.05,
            dynamic_ncols=True,
            desc=self.study.name,
        )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def precision_reached(man: dict[str, Any], target: float) -> str:
    """One line on the precision a run reached, e.g. ``precision: largest 95% half-width 0.0048
    (cell p2-x) <= 0.005: target reached``."""
    rounds = man.get("precision_rounds") or []
    if not rounds or not rounds[-1]["halfwidths"]:
        return "precision: not measured (analysis.precision unavailable)"
    widths = rounds[-1]["halfwidths"]
    cell = max(widths, key=lambda c: widths[c])
    worst = widths[cell]
    verdict = "target reached" if worst <= target else "not reached: a cell hit the game cap (--max-games)"
    sign = "<=" if worst <= target else ">"
    return (
        f"precision: largest 95% half-width of the start-player advantage {worst:.4f} (cell {cell}) "
        f"{sign} {target}: {verdict}"
    )
