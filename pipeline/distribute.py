"""Spreading batches over Ray workers; the driver receives Arrow tables and writes them.

Tasks return ``pyarrow.Table`` (never files), so results reach the driver on a multi-node cluster
without a shared filesystem. A bounded number of tasks is in flight; a task lost with its worker
or node is played again (Ray retries it, and the driver resubmits what still fails).

Files named by path options (``Study.files``) travel the same way: the driver reads them once,
checks them against the SHA-256 taken when the study was loaded and ships their bytes; a worker
plays from its own copy (content-addressed, under the system temporary directory), so neither a
shared filesystem nor an edit of the file during the run can change the games.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

import rust_core
from rundir import POSITIONS
from rundir.store import describe

from . import sink
from .plan import Batch, BatchSizer, cut
from .study import Cell, Study, StudyError, read_data_file

MAX_ATTEMPTS = 6


def read_files(study: Study) -> dict[str, bytes]:
    """The bytes of every file of ``study.files``, checked against the SHA-256 taken at load time."""
    data: dict[str, bytes] = {}
    for path, digest in study.files.items():
        try:
            blob = read_data_file(path)
        except OSError as exc:
            raise StudyError(study.source, "(files)", f"cannot read {path}: {describe(exc)}") from None
        if hashlib.sha256(blob).hexdigest() != digest:
            raise StudyError(
                study.source,
                "(files)",
                f"{path} changed since the study was loaded (sha256 was {digest[:12]}); run again",
            )
        data[path] = blob
    return data


def batch_spec(study: Study, cell: Cell) -> rust_core.BatchSpec:
    """What ``cell`` of ``study`` plays (the files travel separately: see :func:`read_files`)."""
    return rust_core.BatchSpec(
        study.game,
        cell.variant,
        cell.agents,
        study.seed,
        study.pair_seats,
        luck=study.luck,
        luck_value=study.luck_value,
    )


def play_batch(
    spec: rust_core.BatchSpec, start: int, count: int, files: dict[str, bytes] | None = None
) -> tuple[pa.Table, float, float]:
    """Runs on a worker: games ``start .. start + count`` of ``spec`` as an Arrow table (plus
    ``n_players``), with the wall and CPU seconds it took. ``files`` holds the bytes of the files
    named by path options (shipped from the driver): the engine gets their text, and no worker
    opens a path."""
    (table, _), seconds, cpu = _play(spec, start, count, files, False)
    return table, seconds, cpu


def play_batch_positions(
    spec: rust_core.BatchSpec, start: int, count: int, files: dict[str, bytes] | None = None
) -> tuple[tuple[pa.Table, pa.Table], float, float]:
    """:func:`play_batch` of a study that records positions: the games table and the positions
    table of the same games (``rust_core.BatchSpec.simulate_positions``)."""
    (table, positions), seconds, cpu = _play(spec, start, count, files, True)
    assert positions is not None
    return (table, positions), seconds, cpu


def _play(
    spec: rust_core.BatchSpec, start: int, count: int, files: dict[str, bytes] | None, positions: bool
) -> tuple[tuple[pa.Table, pa.Table | None], float, float]:
    if not hasattr(rust_core, "simulate"):  # the source folder, seen as a namespace package
        raise ImportError(
            f"balancelab is not installed on this worker ({platform.node()}): install it on every node"
        )
    t0 = time.perf_counter()
    c0 = time.process_time()
    text = {path: blob.decode("utf-8") for path, blob in (files or {}).items()}
    spec = dataclasses.replace(spec, files=text)
    pos: pa.Table | None = None
    if positions:
        batch, pos_batch = spec.simulate_positions(start, count)
        pos = pa.Table.from_batches([pos_batch])
    else:
        batch = spec.simulate(start, count)
    table = pa.Table.from_batches([batch])
    n_players = pa.array(np.full(table.num_rows, len(spec.agents), dtype=np.int32))
    table = table.append_column(pa.field("n_players", pa.int32(), nullable=False), n_players)
    return (table, pos), time.perf_counter() - t0, time.process_time() - c0


@dataclass
class Progress:
    """What the driver reports after every written batch."""

    games_done: int
    games_total: int
    batches_written: int
    path: Path


@dataclass
class Stats:
    """Totals of one call of :func:`run_batches`."""

    games: int = 0
    batches: int = 0
    task_seconds: float = 0.0  # time the workers spent playing (summed over tasks)
    task_cpu_seconds: float = 0.0  # CPU time of that (less than task_seconds if the CPU was shared)
    write_seconds: float = 0.0  # time the driver spent fetching and writing results
    resubmitted: int = 0  # batches played again after a lost worker, node or object

    def count(self, games: int, seconds: float, cpu_seconds: float, write_seconds: float) -> None:
        """Adds one landed batch."""
        self.games += games
        self.batches += 1
        self.task_seconds += seconds
        self.task_cpu_seconds += cpu_seconds
        self.write_seconds += write_seconds


@dataclass
class _Work:
    cells: dict[str, Cell]
    gaps: dict[str, list[tuple[int, int]]]
    planned: dict[str, int]
    done: dict[str, int] = field(default_factory=dict)

    def next_cell(self) -> Cell | None:
        open_cells = [cid for cid, g in self.gaps.items() if g]
        if not open_cells:
            return None
        cid = min(open_cells, key=lambda c: (self.done.get(c, 0) / max(1, self.planned[c]), c))
        return self.cells[cid]

    def take(self, cell: Cell, size: int) -> Batch:
        gap = self.gaps[cell.id][0]
        batch = cut(cell, gap, size)
        if batch.end == gap[1]:
            self.gaps[cell.id].pop(0)
        else:
            self.gaps[cell.id][0] = (batch.end, gap[1])
        self.done[cell.id] = self.done.get(cell.id, 0) + batch.games
        return batch

    def remaining(self) -> int:
        return sum(b - a for g in self.gaps.values() for a, b in g)


def _land(study: Study, out: Path, study_hash: str, batch: Batch, n_players: int, result: Any) -> Path:
    """Writes one finished batch (its positions first: a games file implies its positions) and
    returns the games file's path."""
    if study.record_positions:
        table, positions = result
        sink.write_batch(out, study_hash, batch, n_players, positions, POSITIONS)
        del positions
    else:
        table = result
    return out / sink.write_batch(out, study_hash, batch, n_players, table).path


def run_batches(
    study: Study,
    out: Path,
    gaps: dict[str, list[tuple[int, int]]],
    concurrency: int,
    sizer: BatchSizer,
    on_written: Callable[[Progress], None] | None = None,
    games_already: int = 0,
    progress_bar: Any = None,
) -> Stats:
    """Plays every gap of every cell on Ray and writes one file per batch."""
    import ray
    from ray.exceptions import RayError, RayTaskError

    task = play_batch_positions if study.record_positions else play_batch
    remote = ray.remote(num_cpus=1, max_retries=3)(task)
    files = read_files(study)
    files_ref = ray.put(files) if files else None
    cells = {c.id: c for c in study.cells}
    specs = {c.id: batch_spec(study, c) for c in study.cells}
    study_hash = study.hash()
    work = _Work(cells, {k: list(v) for k, v in gaps.items()}, {c.id: c.games for c in study.cells})
    total_missing = work.remaining()
    in_flight: dict[Any, tuple[Batch, int]] = {}
    max_in_flight = max(2, 2 * concurrency)
    stats = Stats()

    def submit(batch: Batch, attempt: int) -> None:
        ref = remote.remote(specs[batch.cell_id], batch.start, batch.games, files_ref)
        in_flight[ref] = (batch, attempt)

    try:
        while in_flight or work.remaining():
            while len(in_flight) < max_in_flight:
                cell = work.next_cell()
                if cell is None:
                    break
                in_flight_games = sum(b.games for b, _ in in_flight.values())
                size = sizer.size(cell, work.remaining() + in_flight_games, concurrency)
                submit(work.take(cell, size), 1)
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                batch, attempt = in_flight.pop(ref)
                t_fetch = time.perf_counter()
                try:
                    result, seconds, cpu_seconds = ray.get(ref)
                except RayTaskError:
                    raise
                except RayError:
                    if attempt >= MAX_ATTEMPTS:
                        raise
                    submit(batch, attempt + 1)
                    stats.resubmitted += 1
                    continue
                sizer.observe(batch.cell_id, batch.games, seconds)
                path = _land(study, out, study_hash, batch, cells[batch.cell_id].n_players, result)
                del result
                stats.count(batch.games, seconds, cpu_seconds, time.perf_counter() - t_fetch)
                if progress_bar is not None:
                    progress_bar.update(batch.games)
                if on_written is not None:
                    on_written(
                        Progress(
                            games_already + stats.games, games_already + total_missing, stats.batches, path
                        )
                    )
    finally:
        for ref in in_flight:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
    return stats
