"""Batch files and their records: written with a content hash, verified before they are trusted.

Every batch file is recorded in ``DIR/batches.jsonl`` when written: its path, SHA-256, size,
the study hash, cell, game range and row count (the same identity is also stored in the file's
Parquet metadata under ``balancelab.batch``). The record is made durable *before* the file is
renamed into place, so a file under a batch name without a record was not written by this run.

:func:`check_run` compares the directory with the records (read-only): a recorded file that is
missing, of another size or another hash has failed validation; a batch-named file without a
record (or recorded for another study) too; a file that cannot be read is reported separately
(it may be fine: it must never be deleted); anything else is a stray file that no reader uses.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .columns import GAME_INDEX, PLAYER
from .layout import LEDGER, TMP_SUFFIX, data_dir, ledger_path, parse_part, part_path, relative
from .store import RunWriteError, append_line, fsync_dir, tmp_path

META_KEY = b"balancelab.batch"
CHUNK = 1 << 20


@dataclass(frozen=True)
class BatchRecord:
    """One line of ``batches.jsonl``."""

    path: str
    study: str
    cell: str
    start: int
    end: int
    rows: int
    bytes: int
    sha256: str

    @property
    def games(self) -> int:
        return self.end - self.start


def check_keys(table: pa.Table, start: int, end: int, n_players: int) -> str | None:
    """``None`` if ``table`` holds each (game, player) of games ``start .. end`` exactly once."""
    expected = (end - start) * n_players
    if table.num_rows != expected:
        return f"{table.num_rows} rows, expected {expected}"
    games = table[GAME_INDEX].to_numpy().astype(np.int64) - start
    players = table[PLAYER].to_numpy().astype(np.int64)
    if games.size and (games.min() < 0 or games.max() >= end - start or players.min() < 0):
        return f"game_index or player outside games {start}..{end - 1}"
    if players.size and players.max() >= n_players:
        return f"player {players.max()} in a {n_players}-player cell"
    keys = np.sort(games * n_players + players)
    if not np.array_equal(keys, np.arange(expected)):
        return "a (game_index, player) key twice or missing"
    return None


def encode(table: pa.Table, identity: dict[str, object]) -> bytes:
    """The Parquet bytes of a batch (zstd), its identity in the schema metadata."""
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(identity, sort_keys=True).encode()
    buf = io.BytesIO()
    pq.write_table(table.replace_schema_metadata(meta), buf, compression="zstd")
    return buf.getvalue()


def write_batch(
    out: Path, study_hash: str, cell_id: str, start: int, end: int, n_players: int, table: pa.Table
) -> BatchRecord:
    """Checks the keys of ``table``, writes it as the batch file of games ``start .. end`` of
    ``cell_id`` and records it: temporary file + fsync, record appended + fsync, rename, fsync
    of the folder. Raises :class:`ValueError` for a wrong table, :class:`RunWriteError` on I/O."""
    problem = check_keys(table, start, end, n_players)
    if problem is not None:
        raise ValueError(f"batch {cell_id} {start}..{end}: {problem}")
    final = part_path(out, cell_id, start, end)
    identity = {"study": study_hash, "cell": cell_id, "start": start, "end": end, "rows": table.num_rows}
    data = encode(table, identity)
    record = BatchRecord(
        relative(out, final), study_hash, cell_id, start, end, table.num_rows, len(data),
        hashlib.sha256(data).hexdigest(),
    )  # fmt: skip
    tmp = tmp_path(final)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        append_line(ledger_path(out), json.dumps(asdict(record), sort_keys=True))
        os.replace(tmp, final)
        fsync_dir(final.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise exc if isinstance(exc, RunWriteError) else RunWriteError(final, exc) from exc
    return record


def read_records(out: Path) -> tuple[list[BatchRecord], list[str]]:
    """The records of ``batches.jsonl`` (the last one per path wins) and notes on damaged lines.
    A torn last line (a crash while appending) is ignored silently."""
    path = ledger_path(out)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return [], []
    lines = text.split("\n")
    lines = lines[:-1]  # the part after the last newline: empty, or torn by a crash
    latest: dict[str, BatchRecord] = {}
    notes = []
    for number, line in enumerate(lines, 1):
        try:
            rec = BatchRecord(**json.loads(line))
        except (json.JSONDecodeError, TypeError) as exc:
            notes.append(f"{path.name} line {number}: damaged record ignored ({type(exc).__name__})")
            continue
        latest[rec.path] = rec
    return list(latest.values()), notes


def file_identity(path: Path) -> dict[str, object] | None:
    """The identity stored in a batch file's metadata, if it has one."""
    try:
        meta = pq.read_schema(path).metadata or {}
        return json.loads(meta[META_KEY])
    except Exception:  # noqa: BLE001 - a file without readable metadata has no identity
        return None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class RunCheck:
    """What a run directory holds, judged against its records (nothing is changed)."""

    good: list[BatchRecord] = field(default_factory=list)
    #: (path relative to the run, why): failed validation; its games must be played again.
    bad: list[tuple[str, str]] = field(default_factory=list)
    #: (path, why): could not be read; maybe fine, never deleted.
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    #: Files no reader uses (not named like a batch file, or in a folder of no cell).
    strays: list[str] = field(default_factory=list)
    #: Temporary files left by a stopped run.
    temporaries: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def covered(self, cell_id: str) -> list[tuple[int, int]]:
        return sorted((r.start, r.end) for r in self.good if r.cell == cell_id)

    def games(self, cell_id: str) -> int:
        return sum(r.games for r in self.good if r.cell == cell_id)

    def files(self, cell_id: str | None = None) -> list[str]:
        return sorted(r.path for r in self.good if cell_id is None or r.cell == cell_id)


def _verify(out: Path, rec: BatchRecord) -> tuple[str, str] | None:
    """``None`` if the recorded file is as written; else ``("bad"|"unreadable", why)``."""
    path = out / rec.path
    try:
        size = path.stat().st_size
        digest = sha256_of(path)
    except FileNotFoundError:
        return "bad", "missing"
    except OSError as exc:
        return "unreadable", f"cannot read: {exc.strerror or exc}"
    if size != rec.bytes or digest != rec.sha256:
        return "bad", _changed(path, rec, size, digest)
    return None


def _changed(path: Path, rec: BatchRecord, size: int, digest: str) -> str:
    """Why a file's hash differs from its record, as precisely as its metadata tells."""
    ident = file_identity(path) or {}
    if ident.get("study") not in (None, rec.study):
        other = str(ident["study"])[:12]
        return f"a batch file of another study (study hash {other}, this run {rec.study[:12]})"
    if ident and (ident.get("cell"), ident.get("start"), ident.get("end")) != (rec.cell, rec.start, rec.end):
        return (
            f"a copy of the batch file of {ident.get('cell')} games {ident.get('start')}..{ident.get('end')}"
        )
    if size != rec.bytes:
        return f"{size} bytes, {rec.bytes} when written (truncated or replaced)"
    return f"content changed since it was written (sha256 {digest[:12]}, recorded {rec.sha256[:12]})"


def _unrecorded(path: Path, study_hash: str) -> str:
    ident = file_identity(path)
    if ident is not None and ident.get("study") != study_hash:
        other = str(ident.get("study"))[:12]
        return f"a batch file of another study (study hash {other}, this run {study_hash[:12]})"
    return "not recorded in batches.jsonl (not written by this run)"


def check_run(out: Path, study_hash: str, cells: Iterable[str]) -> RunCheck:
    """Judges every file under ``out/data`` and every record; changes nothing."""
    known = set(cells)
    try:
        records, notes = read_records(out)
    except OSError as exc:  # without the records no file can be judged: judge none
        return RunCheck(unreadable=[(LEDGER, f"cannot read: {exc.strerror or exc}")])
    check = RunCheck(notes=notes)
    mine = {r.path: r for r in records if r.study == study_hash and r.cell in known}
    for rec in sorted(mine.values(), key=lambda r: (r.cell, r.start, r.end)):
        if parse_part(out / rec.path) != (rec.cell, rec.start, rec.end):
            check.bad.append((rec.path, "record does not match its file name"))
            continue
        verdict = _verify(out, rec)
        if verdict is None and any(
            g.cell == rec.cell and g.start < rec.end and rec.start < g.end for g in check.good
        ):
            verdict = ("bad", "overlaps another batch file")
        if verdict is None:
            check.good.append(rec)
        elif verdict[0] == "bad":
            check.bad.append((rec.path, verdict[1]))
        else:
            check.unreadable.append((rec.path, verdict[1]))
    _walk(out, study_hash, known, mine, check)
    return check


def _walk(out: Path, study_hash: str, known: set[str], mine: dict[str, BatchRecord], check: RunCheck) -> None:
    root = data_dir(out)
    if not root.exists():
        return
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: _unlistable(out, e, check)):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = relative(out, path)
            if rel in mine:
                continue
            parsed = parse_part(path)
            if name.startswith(".") and name.endswith(TMP_SUFFIX):
                check.temporaries.append(rel)
            elif parsed is not None and parsed[0] in known:
                check.bad.append((rel, _unrecorded(path, study_hash)))
            else:
                check.strays.append(rel)


def _unlistable(out: Path, exc: OSError, check: RunCheck) -> None:
    where = relative(out, Path(exc.filename)) if exc.filename else str(out)
    check.unreadable.append((where, f"cannot list: {exc.strerror or exc}"))
