"""Running a study into a directory: check, resume scan, distribute, manifest, precision rounds."""

from __future__ import annotations

import contextlib
import fcntl
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import manifest, sink
from .distribute import Progress, ray_session, read_files, run_batches
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
) -> dict[str, Any]:
    """Plays every missing game of ``study`` into ``out`` and returns the final manifest.

    Raises :class:`manifest.ManifestMismatch` (before starting anything) if ``out`` holds another study,
    :class:`StudyError` if a file of the study changed since it was loaded, :class:`DirectoryBusy` if
    another run is writing to ``out``.
    """
    t_start = time.perf_counter()
    prepare(study, out)  # refuse another study before creating anything
    out.mkdir(parents=True, exist_ok=True)
    with exclusive(out):
        study, old = prepare(study, out)
        return _run_locked(
            study,
            old,
            out,
            t_start,
            workers,
            address,
            batch_games,
            target_seconds,
            progress,
            quiet,
            precision,
            max_games,
            on_written,
        )


def _run_locked(
    study: Study,
    old: dict[str, Any] | None,
    out: Path,
    t_start: float,
    workers: int | None,
    address: str | None,
    batch_games: int | None,
    target_seconds: float,
    progress: bool,
    quiet: bool,
    precision: float | None,
    max_games: int | None,
    on_written: Callable[[Progress], None] | None,
) -> dict[str, Any]:
    scan = sink.scan(out, study)
    for path, why in scan.removed:
        _say(quiet, f"recomputing {path.relative_to(out)}: {why}")
    study = fit_to_data(study, scan.covered)
    man = manifest.new(study, old)
    compute = 0.0
    played = 0
    done = sum(scan.games(c.id) for c in study.cells)
    man["games_done"] = done
    with ray_session(workers, address) as concurrency:
        man["workers"] = concurrency
        manifest.write(out, man)
        sizer = BatchSizer(study, target_seconds=target_seconds, fixed_games=batch_games)
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(
                total=sum(c.games for c in study.cells),
                initial=done,
                unit="games",
                unit_scale=True,
                smoothing=0.05,
                dynamic_ncols=True,
                desc=study.name,
            )
        cap = max_games or max(DEFAULT_MAX_GAMES, max(c.games for c in study.cells))
        state = {"last_write": time.monotonic(), "base_done": done}

        def written(p: Progress) -> None:
            if time.monotonic() - state["last_write"] > MANIFEST_EVERY_S:
                man["games_done"] = state["base_done"] + p.games_done
                manifest.write(out, man)
                state["last_write"] = time.monotonic()
            if on_written is not None:
                on_written(p)

        try:
            rounds = 0
            while True:
                rounds += 1
                covered = sink.scan(out, study).covered if rounds > 1 else scan.covered
                gaps = {c.id: missing_ranges(c.games, covered.get(c.id, [])) for c in study.cells}
                state["base_done"] = base_done = man["games_done"]
                t0 = time.perf_counter()
                stats = run_batches(study, out, gaps, concurrency, sizer, written, progress_bar=bar)
                compute += time.perf_counter() - t0
                man["games_done"] = base_done + stats.games
                played += stats.games
                for key in ("task_seconds", "task_cpu_seconds", "write_seconds"):
                    man[key] = round(man.get(key, 0.0) + getattr(stats, key), 3)
                for key in ("batches", "resubmitted"):
                    man[key] = man.get(key, 0) + getattr(stats, key)
                man["study"] = study.to_dict()
                man["games_planned"] = sum(c.games for c in study.cells)
                manifest.write(out, man)
                if precision is None:
                    break
                widths = halfwidths(out)
                if widths is None:
                    _say(
                        quiet,
                        "note: --precision needs analysis.precision.max_halfwidths, which is not "
                        "available; stopping after one round",
                    )
                    break
                man.setdefault("precision_rounds", []).append(
                    {"games": {c.id: c.games for c in study.cells}, "halfwidths": widths}
                )
                grown = grow(study, widths, precision, cap)
                if grown is None:
                    worst = max(widths.values()) if widths else float("nan")
                    reached = all(w <= precision for w in widths.values())
                    _say(
                        quiet,
                        f"precision: largest half-width {worst:.4f} "
                        f"({'target reached' if reached else 'game cap reached'})",
                    )
                    break
                study = grown
                man["study"] = study.to_dict()
                if bar is not None:
                    bar.total = sum(c.games for c in study.cells)
                    bar.refresh()
                _say(
                    quiet,
                    f"precision: largest half-width {max(widths.values()):.4f} > {precision}; "
                    f"playing up to {max(c.games for c in study.cells)} games per cell",
                )
        finally:
            if bar is not None:
                bar.close()
    man["finished"] = manifest.now()
    man["wall_seconds"] = round(time.perf_counter() - t_start, 3)
    man["compute_seconds"] = round(compute, 3)
    man["games_played"] = played  # by this invocation (games_done counts the whole directory)
    man["games_per_second"] = round(played / compute, 1) if compute > 0 else None
    manifest.write(out, man)
    return man
