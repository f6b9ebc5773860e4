"""Parquet output: one zstd file per batch, written under a temporary name and renamed when complete.

Layout: ``DIR/data/cell=<cell_id>/part-<start:012d>-<end:012d>.parquet`` with ``end`` exclusive.
A file counts only if its footer reads and it holds exactly ``(end - start) * n_players`` rows of
games ``start .. end - 1``; anything else is deleted and played again.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .plan import Batch
from .study import Study

PART = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")
TMP_SUFFIX = ".tmp"


def data_dir(out: Path) -> Path:
    return out / "data"


def cell_dir(out: Path, cell_id: str) -> Path:
    return data_dir(out) / f"cell={cell_id}"


def part_name(start: int, end: int) -> str:
    return f"part-{start:012d}-{end:012d}.parquet"


def batch_path(out: Path, batch: Batch) -> Path:
    return cell_dir(out, batch.cell_id) / part_name(batch.start, batch.end)


def write_batch(out: Path, batch: Batch, table: pa.Table) -> Path:
    """Writes ``table`` as the file of ``batch``: temporary name, fsync, atomic rename."""
    final = batch_path(out, batch)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".{final.name}.{os.getpid()}{TMP_SUFFIX}"
    pq.write_table(table, tmp, compression="zstd")
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    return final


@dataclass
class Scan:
    """What a data directory holds: valid ranges per cell, and what was removed."""

    covered: dict[str, list[tuple[int, int]]]
    removed: list[tuple[Path, str]]

    def games(self, cell_id: str) -> int:
        return sum(b - a for a, b in self.covered.get(cell_id, []))


def check_file(path: Path, start: int, end: int, n_players: int) -> str | None:
    """``None`` if ``path`` is a complete batch file of games ``start .. end``, else why not."""
    try:
        meta = pq.read_metadata(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable footer means a broken file
        return f"unreadable ({type(exc).__name__})"
    expected = (end - start) * n_players
    if meta.num_rows != expected:
        return f"{meta.num_rows} rows, expected {expected}"
    names = meta.schema.names
    if "game_index" not in names:
        return "no game_index column"
    col = names.index("game_index")
    lo, hi = None, None
    for rg in range(meta.num_row_groups):
        stats = meta.row_group(rg).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        lo = stats.min if lo is None else min(lo, stats.min)
        hi = stats.max if hi is None else max(hi, stats.max)
    if lo is not None and (lo != start or hi != end - 1):
        return f"game_index {lo}..{hi}, expected {start}..{end - 1}"
    return None


def scan(out: Path, study: Study) -> Scan:
    """Validates the data of ``out`` against ``study``; deletes temporary, broken and overlapping files."""
    covered: dict[str, list[tuple[int, int]]] = {c.id: [] for c in study.cells}
    removed: list[tuple[Path, str]] = []
    players = {c.id: c.n_players for c in study.cells}
    root = data_dir(out)
    if not root.is_dir():
        return Scan(covered, removed)
    for folder in sorted(root.iterdir()):
        if not folder.is_dir():
            continue
        cell_id = folder.name[len("cell=") :] if folder.name.startswith("cell=") else None
        for path in sorted(folder.iterdir()):
            if path.name.endswith(TMP_SUFFIX):
                path.unlink(missing_ok=True)
                removed.append((path, "unfinished temporary file"))
                continue
            m = PART.match(path.name)
            if cell_id not in players or m is None:
                continue  # not ours: leave it alone, readers only look at part files of known cells
            start, end = int(m.group(1)), int(m.group(2))
            problem = check_file(path, start, end, players[cell_id]) if end > start else "empty range"
            if problem is None and any(a < end and start < b for a, b in covered[cell_id]):
                problem = "overlaps another batch file"
            if problem is not None:
                path.unlink(missing_ok=True)
                removed.append((path, problem))
                continue
            covered[cell_id].append((start, end))
    return Scan(covered, removed)
