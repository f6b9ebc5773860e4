"""The driver's side of the batch files: writing one per batch, and the resume scan.

Paths, records and verification are the run-directory contract (:mod:`pipeline.rundir`). On
resume every recorded file is checked against its content hash: a file that failed validation
(missing, truncated, changed, not recorded, from another study, overlapping) is deleted and its
games are played again; a file that cannot be read stops the run (:class:`UnreadableData`) and is
never deleted; stray files (not named like a batch file) are named and left alone: no reader
uses them.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from .plan import Batch
from .rundir import BatchRecord, check_run, data_dir, parse_part
from .rundir import write_batch as _write
from .study import Study


class UnreadableData(OSError):
    """Batch files that cannot be read (permissions, I/O errors): fix them, nothing is deleted."""


def write_batch(out: Path, study_hash: str, batch: Batch, n_players: int, table: pa.Table) -> BatchRecord:
    """Writes and records the file of ``batch`` (see :func:`pipeline.rundir.write_batch`)."""
    return _write(out, study_hash, batch.cell_id, batch.start, batch.end, n_players, table)


@dataclass
class Scan:
    """What a run directory holds: valid ranges per cell, what was removed, what was left alone."""

    covered: dict[str, list[tuple[int, int]]]
    removed: list[tuple[str, str]] = field(default_factory=list)
    strays: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def games(self, cell_id: str) -> int:
        return sum(b - a for a, b in self.covered.get(cell_id, []))


def _removable(out: Path, rel: str) -> Path | None:
    """The path of a batch file inside ``out/data`` that may be deleted (never anything else)."""
    path = out / rel
    if parse_part(path) is None:
        return None
    try:
        path.resolve().relative_to(data_dir(out).resolve())
    except ValueError:
        return None
    return path


def scan(out: Path, study: Study) -> Scan:
    """Verifies the data of ``out`` against its records; deletes temporary files and files that
    failed validation; raises :class:`UnreadableData` if a file cannot be read."""
    check = check_run(out, study.to_spec().hash(), [c.id for c in study.cells])
    if check.unreadable:
        listing = "; ".join(f"{p}: {why}" for p, why in check.unreadable)
        raise UnreadableData(
            f"{out}: cannot read {listing}; fix the permissions (or move the file away to have its "
            "games played again) and run the same command again; unreadable files are never deleted"
        )
    removed = []
    for rel, why in check.bad:
        path = _removable(out, rel)
        if path is not None and path.exists():
            path.unlink()
        removed.append((rel, why))
    for rel in check.temporaries:
        with contextlib.suppress(OSError):
            (out / rel).unlink()
    covered = {c.id: check.covered(c.id) for c in study.cells}
    return Scan(covered, removed, list(check.strays), list(check.notes))
