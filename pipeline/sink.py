"""The driver's side of the batch files: writing one per batch, and the resume scan.

Paths, records and verification are the run-directory contract (:mod:`rundir`). On
resume every recorded file is checked against its content hash: a file that failed validation
(missing, truncated, changed, not recorded, from another study, overlapping) is deleted and its
games are played again; a file that cannot be read stops the run (:class:`UnreadableData`) and is
never deleted; stray files (not named like a batch file) are named and left alone: no reader
uses them. The ledger is then rewritten to name only the files that passed validation: every
record of a file that was deleted, never appeared, or names no batch file is retired (said on
stderr), so a repaired run is as reportable as one that never broke.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from rundir import DATA, POSITIONS, BatchRecord, check_run, parse_part
from rundir import write_batch as _write
from rundir.batches import rewrite_records
from rundir.layout import LEDGERS
from rundir.store import unlink_in

from .plan import Batch
from .study import Study


class UnreadableData(OSError):
    """Batch files that cannot be read (permissions, I/O errors): fix them, nothing is deleted."""


def write_batch(
    out: Path, study_hash: str, batch: Batch, n_players: int, table: pa.Table, kind: str = DATA
) -> BatchRecord:
    """Writes and records the file of ``batch`` in table ``kind`` (see :func:`rundir.write_batch`)."""
    return _write(out, study_hash, batch.cell_id, batch.start, batch.end, n_players, table, kind)


@dataclass
class Scan:
    """What a run directory holds: valid ranges per cell, what was removed, what was left alone."""

    covered: dict[str, list[tuple[int, int]]]
    removed: list[tuple[str, str]] = field(default_factory=list)
    strays: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def games(self, cell_id: str) -> int:
        return sum(b - a for a, b in self.covered.get(cell_id, []))


def _remove(out: Path, rel: str) -> None:
    """Deletes the batch file ``rel`` inside ``out/data`` (a link itself, never its target;
    nothing that is not named like a batch file)."""
    if parse_part(out / rel) is None:
        return
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        unlink_in(out, rel)


def scan(out: Path, study: Study) -> Scan:
    """Verifies the data of ``out`` against its records; deletes temporary files and files that
    failed validation, and retires their records; raises :class:`UnreadableData` if a file
    cannot be read. For a study that records positions the positions table is scanned alike,
    and a range counts as played only where both tables hold it (same batch ranges)."""
    games = _scan_table(out, study, DATA)
    if not study.record_positions:
        return games
    positions = _scan_table(out, study, POSITIONS)
    for cell_id, ranges in games.covered.items():
        have = set(positions.covered.get(cell_id, []))
        games.covered[cell_id] = [r for r in ranges if r in have]
    games.removed += positions.removed
    games.strays += positions.strays
    games.notes += positions.notes
    return games


def _scan_table(out: Path, study: Study, table: str) -> Scan:
    check = check_run(out, study.hash(), [c.id for c in study.cells], table)
    if check.unreadable:
        listing = "; ".join(f"{p}: {why}" for p, why in check.unreadable)
        raise UnreadableData(
            f"{out}: cannot read {listing}; fix the permissions (or move the file away to have its "
            "games played again) and run the same command again; unreadable files are never deleted"
        )
    removed = []
    for rel, why in check.bad:
        _remove(out, rel)
        removed.append((rel, why))
    for rel in check.temporaries:
        with contextlib.suppress(OSError):
            unlink_in(out, rel)
    notes = list(check.notes)
    if len(check.good) != len(check.records) or check.notes:
        rewrite_records(out, check.good, table)
        retired = len(check.records) - len(check.good)
        notes.append(
            f"{LEDGERS[table]} rewritten: {retired} record(s) of files that failed validation retired"
            + (", damaged lines dropped" if check.notes else "")
        )
    for rel, why in check.retired:
        notes.append(f"record of {rel!r} retired: {why}")
    covered = {c.id: check.covered(c.id) for c in study.cells}
    return Scan(covered, removed, list(check.strays), notes)
