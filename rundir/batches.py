"""Batch files and their records: written with a content hash, verified before they are trusted.

A run has one table of games (``data/``, ledger ``batches.jsonl``) and, for a study that records
positions, a second table (``positions/``, ledger ``positions.jsonl``) with one file per batch
under the same rules; every function here takes the ``table`` (default: the games).

Every batch file is recorded in ``DIR/batches.jsonl`` when written: its path, SHA-256, size,
the study hash, cell, game range and row count (the same identity is also stored in the file's
Parquet metadata under ``balancelab.batch``). The record is made durable *before* the file is
renamed into place, so a file under a batch name without a record was not written by this run.
A later record supersedes every earlier record of its cell whose range it overlaps (a replayed
range replaces whatever covered it before, however it was cut), and :func:`rewrite_records`
lets the writer retire records whose files failed validation, so records and data agree again
after every repair. A record's ``path`` must be exactly the batch file name of its cell and
range: no record can point anywhere else.

:func:`check_run` compares the directory with the records (read-only): a recorded file that is
missing, of another size or another hash has failed validation; a batch-named file without a
record (or recorded for another study) too; a file that cannot be read is reported separately
(it may be fine: it must never be deleted); anything else is a stray file that no reader uses.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import hashlib
import io
import json
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .columns import GAME_INDEX, PLAYER
from .layout import (
    CELL_PREFIX,
    DATA,
    LEDGERS,
    TMP_SUFFIX,
    data_dir,
    ledger_path,
    parse_part,
    part_path,
    relative,
)
from .store import (
    CHUNK,
    RunWriteError,
    append_line,
    atomic_write_text,
    describe,
    open_dir,
    open_in,
    tmp_name,
    write_new,
)

META_KEY = b"balancelab.batch"
#: Most bytes of ``batches.jsonl`` read (about four million records).
MAX_LEDGER_BYTES = 1 << 30
#: Most bytes of one ledger line.
MAX_RECORD_BYTES = 4096


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


def encode(table: pa.Table, identity: dict[str, object], *, compact: bool = False) -> bytes:
    """The Parquet bytes of a batch (zstd), its identity in the schema metadata; ``compact``: for
    files kept in the repository (zstd level 19, integers delta-encoded, strings dictionary-encoded:
    about 40% smaller, slower to write)."""
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(identity, sort_keys=True).encode()
    buf = io.BytesIO()
    options: dict[str, Any] = {}
    if compact:
        ints = [f.name for f in table.schema if pa.types.is_integer(f.type)]
        strings = [f.name for f in table.schema if pa.types.is_string(f.type)]
        encodings = {name: "DELTA_BINARY_PACKED" for name in ints}
        options = {"compression_level": 19, "use_dictionary": strings, "column_encoding": encodings}
    pq.write_table(table.replace_schema_metadata(meta), buf, compression="zstd", **options)
    return buf.getvalue()


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """Holds SIGINT and SIGTERM until the block ends; a stop that arrives meanwhile is raised
    again right after. Their handlers are swapped for one that notes the signal: Python runs a
    handler on the main thread whichever thread the kernel delivered the signal to, so this holds
    in a process with other threads too (blocking the signals on the main thread with
    ``pthread_sigmask`` did not: a signal sent to the process goes to any thread that has it
    unblocked, and its handler then ran inside the block). Where a handler was not set from
    Python (it cannot be restored), the signals are blocked on this thread instead; off the main
    thread, where no Python handler runs, a no-op."""
    stops = (signal.SIGINT, signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in stops}
    if any(h is None for h in previous.values()):
        with _masked(stops):
            yield
        return
    held: list[int] = []
    for s in stops:
        signal.signal(s, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


@contextlib.contextmanager
def _masked(stops: tuple[signal.Signals, ...]) -> Iterator[None]:
    """``stops`` blocked on this thread until the block ends (where ``pthread_sigmask`` exists)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(stops))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def write_batch(
    out: Path,
    study_hash: str,
    cell_id: str,
    start: int,
    end: int,
    n_players: int,
    table: pa.Table,
    kind: str = DATA,
    *,
    compact: bool = False,
) -> BatchRecord:
    """Checks the keys of ``table``, writes it as the batch file of games ``start .. end`` of
    ``cell_id`` and records it: temporary file + fsync, record appended + fsync, rename, fsync
    of the folder. Raises :class:`ValueError` for a wrong table, :class:`RunWriteError` on I/O."""
    problem = check_keys(table, start, end, n_players)
    if problem is not None:
        raise ValueError(f"batch {cell_id} {start}..{end}: {problem}")
    final = part_path(out, cell_id, start, end, kind)
    identity = {"study": study_hash, "cell": cell_id, "start": start, "end": end, "rows": table.num_rows}
    data = encode(table, identity, compact=compact)
    record = BatchRecord(
        relative(out, final), study_hash, cell_id, start, end, table.num_rows, len(data),
        hashlib.sha256(data).hexdigest(),
    )  # fmt: skip
    tmp = tmp_name(final.name)
    dfd = -1
    try:
        out.mkdir(parents=True, exist_ok=True)
        dfd = open_dir(out, [kind, f"{CELL_PREFIX}{cell_id}"], create=True)
        write_new(dfd, tmp, data)
        with _stops_held():  # a stop between the record and the rename would leave a record without its file
            append_line(ledger_path(out, kind), json.dumps(asdict(record), sort_keys=True))
            os.replace(tmp, final.name, src_dir_fd=dfd, dst_dir_fd=dfd)
        os.fsync(dfd)
    except BaseException as exc:  # a failed write, or a stop (Ctrl-C, SIGTERM): no file left half-written
        if dfd >= 0:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dfd)
        if not isinstance(exc, OSError) or isinstance(exc, RunWriteError):
            raise
        raise RunWriteError(final, exc) from exc
    finally:
        if dfd >= 0:
            os.close(dfd)
    return record


def _record(line: str) -> BatchRecord:
    """One ledger line as a record; :class:`ValueError` if it is not one."""
    if len(line) > MAX_RECORD_BYTES:
        raise ValueError("longer than a record")
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    rec = BatchRecord(**data)
    ints = (rec.start, rec.end, rec.rows, rec.bytes)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in ints) or not 0 <= rec.start < rec.end:
        raise ValueError("bad range or counts")
    if not all(isinstance(v, str) for v in (rec.path, rec.study, rec.cell, rec.sha256)):
        raise ValueError("bad text field")
    return rec


class _Latest:
    """The live records: the last one per path, and per (study, cell) disjoint ranges in which a
    later record replaces every earlier one it overlaps."""

    def __init__(self) -> None:
        self.by_path: dict[str, BatchRecord] = {}
        self.ranges: dict[tuple[str, str], list[tuple[int, int, str]]] = {}

    def add(self, rec: BatchRecord) -> None:
        old = self.by_path.pop(rec.path, None)
        if old is not None:
            self._drop(old)
        spans = self.ranges.setdefault((rec.study, rec.cell), [])
        i = bisect.bisect_left(spans, (rec.end, -1, ""))
        j = i
        while j > 0 and spans[j - 1][1] > rec.start:
            j -= 1
        for _, _, path in spans[j:i]:
            del self.by_path[path]
        spans[j:i] = [(rec.start, rec.end, rec.path)]
        self.by_path[rec.path] = rec

    def _drop(self, rec: BatchRecord) -> None:
        spans = self.ranges[(rec.study, rec.cell)]
        spans.remove((rec.start, rec.end, rec.path))


def read_records(out: Path, table: str = DATA) -> tuple[list[BatchRecord], list[str]]:
    """The live records of ``batches.jsonl`` (the last one per path; a later record supersedes
    every earlier one of its cell it overlaps) and notes on damaged lines. A torn last line (a
    crash while appending) is ignored silently. The ledger is read without following a link,
    at most :data:`MAX_LEDGER_BYTES`."""
    try:
        raw = _read_ledger(out, table)
    except FileNotFoundError:
        return [], []
    lines = raw.decode("utf-8", errors="replace").split("\n")
    lines = lines[:-1]  # the part after the last newline: empty, or torn by a crash
    latest = _Latest()
    notes = []
    for number, line in enumerate(lines, 1):
        try:
            rec = _record(line)
        except (ValueError, TypeError, RecursionError) as exc:
            notes.append(f"{LEDGERS[table]} line {number}: damaged record ignored ({type(exc).__name__})")
            continue
        latest.add(rec)
    return list(latest.by_path.values()), notes


def _read_ledger(out: Path, table: str) -> bytes:
    with open_in(out, LEDGERS[table]) as fd:
        size = os.fstat(fd).st_size
        if size > MAX_LEDGER_BYTES:
            raise OSError(0, f"{size:,} bytes, more than the {MAX_LEDGER_BYTES:,} a ledger may hold")
        chunks = []
        while chunk := os.read(fd, CHUNK):
            chunks.append(chunk)
            if sum(map(len, chunks)) > MAX_LEDGER_BYTES:
                raise OSError(0, f"more than the {MAX_LEDGER_BYTES:,} bytes a ledger may hold")
        return b"".join(chunks)


def rewrite_records(out: Path, records: Iterable[BatchRecord], table: str = DATA) -> None:
    """Replaces ``batches.jsonl`` atomically by ``records`` (the writer's repair: records of
    files that failed validation are retired, so the ledger names only files that are there)."""
    lines = [json.dumps(asdict(r), sort_keys=True) for r in sorted(records, key=lambda r: (r.cell, r.start))]
    atomic_write_text(ledger_path(out, table), "".join(line + "\n" for line in lines))


def file_identity(out: Path, rel: str) -> dict[str, object] | None:
    """The identity stored in a batch file's metadata, if it has one."""
    try:
        with open_in(out, rel) as fd, os.fdopen(os.dup(fd), "rb") as fh:
            meta = pq.read_schema(fh).metadata or {}
        ident = json.loads(meta[META_KEY])
        return ident if isinstance(ident, dict) else None
    except Exception:  # noqa: BLE001 - a file without readable metadata has no identity
        return None


def sha256_fd(fd: int) -> str:
    digest = hashlib.sha256()
    while chunk := os.read(fd, CHUNK):
        digest.update(chunk)
    return digest.hexdigest()


def file_digest(out: Path, rel: str, expected_size: int) -> tuple[int, str]:
    """(size, SHA-256) of the batch file ``out/rel`` (the hash only if the size is as expected)."""
    with open_in(out, rel) as fd:
        size = os.fstat(fd).st_size
        return size, sha256_fd(fd) if size == expected_size else ""


def read_table(out: Path, rel: str) -> pa.Table:
    """A batch file's table, opened without following a link."""
    with open_in(out, rel) as fd, os.fdopen(os.dup(fd), "rb") as fh:
        return pq.read_table(fh)


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
    #: (path as recorded, why): records that name no batch file of their cell and range (a
    #: damaged ledger line); they can never be satisfied and are retired by the writer.
    retired: list[tuple[str, str]] = field(default_factory=list)
    #: Every live record, of any study (the writer keeps only the good ones when it repairs).
    records: list[BatchRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def covered(self, cell_id: str) -> list[tuple[int, int]]:
        return sorted((r.start, r.end) for r in self.good if r.cell == cell_id)

    def games(self, cell_id: str) -> int:
        return sum(r.games for r in self.good if r.cell == cell_id)

    def files(self, cell_id: str | None = None) -> list[str]:
        return sorted(r.path for r in self.good if cell_id is None or r.cell == cell_id)


def _verify(out: Path, rec: BatchRecord) -> tuple[str, str] | None:
    """``None`` if the recorded file is as written; else ``("bad"|"unreadable", why)``."""
    try:
        size, digest = file_digest(out, rec.path, rec.bytes)
    except FileNotFoundError:
        return "bad", "missing"
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR, errno.EINVAL):
            return "bad", describe(exc)
        return "unreadable", f"cannot read: {describe(exc)}"
    if size != rec.bytes or digest != rec.sha256:
        return "bad", _changed(out, rec, size, digest)
    return None


def _changed(out: Path, rec: BatchRecord, size: int, digest: str) -> str:
    """Why a file's hash differs from its record, as precisely as its metadata tells."""
    ident = file_identity(out, rec.path) or {}
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


def _unrecorded(out: Path, rel: str, study_hash: str) -> str:
    ident = file_identity(out, rel)
    if ident is not None and ident.get("study") != study_hash:
        other = str(ident.get("study"))[:12]
        return f"a batch file of another study (study hash {other}, this run {study_hash[:12]})"
    return "not recorded in batches.jsonl (not written by this run)"


def _expected_path(out: Path, rec: BatchRecord, table: str) -> str | None:
    """The one path a record may name: the batch file of its cell and range."""
    try:
        return relative(out, part_path(out, rec.cell, rec.start, rec.end, table))
    except ValueError:
        return None


def check_run(out: Path, study_hash: str, cells: Iterable[str], table: str = DATA) -> RunCheck:
    """Judges every file under ``out/data`` (or ``out/<table>``) and every record; changes nothing."""
    known = set(cells)
    try:
        records, notes = read_records(out, table)
    except OSError as exc:  # without the records no file can be judged: judge none
        return RunCheck(unreadable=[(LEDGERS[table], f"cannot read: {exc.strerror or exc}")])
    check = RunCheck(notes=notes)
    mine = {r.path: r for r in records if r.study == study_hash and r.cell in known}
    for rec in sorted(mine.values(), key=lambda r: (r.cell, r.start, r.end)):
        if rec.path != _expected_path(out, rec, table):
            check.retired.append((rec.path, "record does not match its file name"))
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
    check.records = records
    _walk(out, study_hash, known, mine, check, table)
    return check


def _walk(
    out: Path, study_hash: str, known: set[str], mine: dict[str, BatchRecord], check: RunCheck, table: str
) -> None:
    root = data_dir(out, table)
    if os.path.islink(root):
        check.unreadable.append((table, describe(OSError(errno.ELOOP, "link"))))
        return
    if not root.exists():
        return
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: _unlistable(out, e, check)):
        dirnames.sort()
        for name in list(dirnames):
            path = Path(dirpath) / name
            if path.is_symlink():  # never descended; a cell's folder must be a real one
                rel = relative(out, path)
                cell = name[len(CELL_PREFIX) :] if name.startswith(CELL_PREFIX) else None
                if Path(dirpath) == root and cell in known:
                    check.unreadable.append((rel, describe(OSError(errno.ELOOP, "link"))))
                else:
                    check.strays.append(rel)
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = relative(out, path)
            if rel in mine:
                continue
            parsed = parse_part(path)
            if name.startswith(".") and name.endswith(TMP_SUFFIX):
                check.temporaries.append(rel)
            elif parsed is not None and parsed[0] in known:
                check.bad.append((rel, _unrecorded(out, rel, study_hash)))
            else:
                check.strays.append(rel)


def verified_studies(out: Path, table: str = DATA) -> dict[str, int]:
    """Games per study hash held by the batch files that pass validation (recorded under their
    own name, size and SHA-256 as written): the verified record of which study played the data,
    which anchors the restoring of a damaged manifest. Changes nothing; :class:`OSError` if the
    ledger cannot be read."""
    records, _ = read_records(out, table)
    games: dict[str, int] = {}
    for rec in records:
        if rec.path == _expected_path(out, rec, table) and _verify(out, rec) is None:
            games[rec.study] = games.get(rec.study, 0) + rec.games
    return games


def _unlistable(out: Path, exc: OSError, check: RunCheck) -> None:
    where = relative(out, Path(exc.filename)) if exc.filename else str(out)
    check.unreadable.append((where, f"cannot list: {exc.strerror or exc}"))
