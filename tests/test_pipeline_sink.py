"""Batch files and the resume scan (no Ray): what is recorded when written, and how every kind of
damage is detected, named and handled (deleted and played again, or reported and kept)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rundir
import rust_core
from pipeline import sink
from pipeline.distribute import play_batch
from pipeline.plan import Batch
from pipeline.study import load_study
from rundir.layout import MAX_GAMES, MAX_PLAYERS, PART


def _table(study, cell_id, start, end, seed=None):
    cell = study.cell(cell_id)
    spec = rust_core.BatchSpec(
        study.game, cell.variant, cell.agents, study.seed if seed is None else seed, True
    )
    table, _, _ = play_batch(spec, start, end - start)
    return table


def _write(out, study, cell_id, start, end):
    table = _table(study, cell_id, start, end)
    record = sink.write_batch(out, study.hash(), Batch(cell_id, start, end), 2, table)
    return out / record.path


def _inside_data_page(path, column="score"):
    """The offset of the last byte of a column chunk: compressed values, not a page header."""
    meta = pq.read_metadata(path)
    chunk = meta.row_group(0).column(meta.schema.names.index(column))
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    return start + chunk.total_compressed_size - 1


def _flip_bit(path, at):
    data = bytearray(path.read_bytes())
    data[at] ^= 0x10
    path.write_bytes(bytes(data))


@pytest.fixture
def run(write_study, tmp_path):
    study = load_study(str(write_study(games=40)))
    out = tmp_path / "run"
    paths = {
        (cell, start): _write(out, study, cell, start, start + 10)
        for cell in ("p2-official", "p2-no_dirk")
        for start in (0, 10, 20, 30)
    }
    return study, out, paths


def test_every_batch_file_is_recorded_with_its_hash_and_identity(run):
    study, out, paths = run
    records, notes = rundir.read_records(out)
    assert notes == [] and len(records) == 8
    rec = next(r for r in records if r.cell == "p2-no_dirk" and r.start == 10)
    path = paths[("p2-no_dirk", 10)]
    assert rec.path == "data/cell=p2-no_dirk/part-000000000010-000000000020.parquet"
    assert (rec.end, rec.rows, rec.bytes) == (20, 20, path.stat().st_size)
    assert rec.sha256 == hashlib.sha256(path.read_bytes()).hexdigest() and rec.study == study.hash()
    assert rundir.file_identity(out, rec.path) == {
        "study": rec.study,
        "cell": "p2-no_dirk",
        "start": 10,
        "end": 20,
        "rows": 20,
    }
    clean = sink.scan(out, study)
    assert clean.removed == [] and clean.strays == []
    assert clean.covered == {
        "p2-official": [(0, 10), (10, 20), (20, 30), (30, 40)],
        "p2-no_dirk": clean.covered["p2-no_dirk"],
    }


def test_truncated_bit_flipped_deleted_duplicated_stray_and_foreign_files(run, write_study):
    study, out, paths = run
    truncated, flipped, deleted = (
        paths[("p2-official", 0)],
        paths[("p2-official", 10)],
        paths[("p2-official", 20)],
    )
    copied_over, foreign_slot = paths[("p2-no_dirk", 0)], paths[("p2-no_dirk", 10)]
    data = truncated.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    _flip_bit(flipped, _inside_data_page(flipped))  # inside a data page: the footer still reads
    assert pq.read_metadata(flipped).num_rows == 20
    deleted.unlink()
    shutil.copy(paths[("p2-official", 30)], copied_over)  # a valid file under another batch's name
    stray = paths[("p2-no_dirk", 20)].with_name("part-000000000020-000000000030 (copy).parquet")
    shutil.copy(paths[("p2-no_dirk", 20)], stray)
    other = load_study(str(write_study(seed=6, games=40, filename="other.toml")))
    sink.write_batch(out / "elsewhere", other.hash(), Batch("p2-no_dirk", 10, 20), 2,
                     _table(other, "p2-no_dirk", 10, 20))  # fmt: skip
    shutil.copy(out / "elsewhere/data/cell=p2-no_dirk/part-000000000010-000000000020.parquet", foreign_slot)
    unrecorded = paths[("p2-no_dirk", 30)].with_name(rundir.part_name(40, 50))
    shutil.copy(paths[("p2-no_dirk", 30)], unrecorded)
    (truncated.parent / ".part-000000000040-000000000050.parquet.99.tmp").write_bytes(b"half")
    result = sink.scan(out, study)
    why = {out / rel: w for rel, w in result.removed}
    assert why[truncated] == f"{len(data) // 2} bytes, {len(data)} when written (truncated or replaced)"
    assert why[flipped].startswith("content changed since it was written (sha256 ")
    assert why[deleted] == "missing"
    assert why[copied_over] == "a copy of the batch file of p2-official games 30..40"
    assert why[foreign_slot].startswith("a batch file of another study (study hash ")
    assert why[unrecorded] == "not recorded in batches.jsonl (not written by this run)"
    assert len(result.removed) == 6
    assert result.strays == [f"data/cell=p2-no_dirk/{stray.name}"] and stray.exists()
    assert result.covered == {"p2-official": [(30, 40)], "p2-no_dirk": [(20, 30), (30, 40)]}
    for path in (truncated, flipped, copied_over, foreign_slot, unrecorded):
        assert not path.exists()
    assert not list(out.rglob("*.tmp"))


def test_an_unreadable_file_is_reported_and_never_deleted(run, monkeypatch):
    study, out, paths = run
    locked = paths[("p2-official", 10)]
    real = rundir.batches.file_digest

    def file_digest(root, rel, size):
        if root / rel == locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(locked))
        return real(root, rel, size)

    monkeypatch.setattr(rundir.batches, "file_digest", file_digest)
    with pytest.raises(sink.UnreadableData) as info:
        sink.scan(out, study)
    message = str(info.value)
    assert "part-000000000010-000000000020.parquet: cannot read: Permission denied" in message
    assert "never deleted" in message and locked.exists()
    check = rundir.check_run(out, study.hash(), ["p2-official", "p2-no_dirk"])
    assert [p for p, _ in check.unreadable] == [
        "data/cell=p2-official/part-000000000010-000000000020.parquet"
    ]


def test_an_unreadable_ledger_judges_no_file_and_deletes_nothing(run, monkeypatch):
    study, out, paths = run

    def read_ledger(root, table=rundir.DATA):
        raise PermissionError(errno.EACCES, "Permission denied", str(root / rundir.LEDGER))

    monkeypatch.setattr(rundir.batches, "_read_ledger", read_ledger)
    with pytest.raises(sink.UnreadableData, match="batches.jsonl: cannot read: Permission denied"):
        sink.scan(out, study)
    assert all(p.exists() for p in paths.values())


def test_the_record_is_durable_before_the_file_appears(run, monkeypatch):
    """A crash between recording and renaming leaves a record without its file: "missing", replayed."""
    study, out, _ = run

    def crash(src, dst, **kwargs):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(rundir.RunWriteError, match="cannot write .*part-000000000040-000000000050.parquet"):
        _write(out, study, "p2-official", 40, 50)
    monkeypatch.undo()
    assert not list(out.rglob("*.tmp"))
    records, _ = rundir.read_records(out)
    assert any(r.start == 40 for r in records)
    check = rundir.check_run(out, study.hash(), ["p2-official", "p2-no_dirk"])
    assert check.bad == [("data/cell=p2-official/part-000000000040-000000000050.parquet", "missing")]


def test_file_then_record_then_rename_then_folder_each_made_durable(run, monkeypatch):
    study, out, _ = run
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}").rsplit("/", 2)[-2:]))
        real_fsync(fd)

    def replace(src, dst, **kwargs):
        folder = os.readlink(f"/proc/self/fd/{kwargs['dst_dir_fd']}").rsplit("/", 1)[-1]
        events.append(("rename", [folder, str(dst)]))
        real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    _write(out, study, "p2-official", 40, 50)
    name = "part-000000000040-000000000050.parquet"
    assert events == [
        ("fsync", ["cell=p2-official", f".{name}.{os.getpid()}.tmp"]),  # the file's bytes
        ("fsync", ["run", "batches.jsonl"]),  # its record
        ("rename", ["cell=p2-official", name]),
        ("fsync", ["data", "cell=p2-official"]),  # the rename
    ]


def test_a_torn_ledger_line_is_ignored_and_cut_before_the_next_record(run):
    study, out, _ = run
    ledger = out / rundir.LEDGER
    whole = ledger.read_bytes()
    ledger.write_bytes(whole + b'{"path": "data/cell=p2-official/part-0000')  # killed mid-append
    records, notes = rundir.read_records(out)
    assert len(records) == 8 and notes == []
    _write(out, study, "p2-official", 40, 50)
    text = ledger.read_text()
    assert text.count("\n") == 9 and all(json.loads(line) for line in text.splitlines())


def test_disk_full_leaves_no_partial_file_or_record(run, monkeypatch):
    study, out, _ = run
    ledger_before = (out / rundir.LEDGER).read_bytes()
    real_write = os.write

    def full(fd, data):
        real_write(fd, data[:5])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(rundir.RunWriteError) as info:
        _write(out, study, "p2-official", 40, 50)
    monkeypatch.undo()
    assert "No space left on device" in str(info.value) and "batches.jsonl" in str(info.value)
    assert (out / rundir.LEDGER).read_bytes() == ledger_before
    assert not list(out.rglob("*.tmp")) and not list(out.rglob("part-000000000040-*"))


def test_a_table_with_wrong_keys_is_never_written(write_study, tmp_path):
    study = load_study(str(write_study(games=10)))
    table = _table(study, "p2-official", 0, 4)
    doubled = pa.concat_tables([table.slice(0, 2), table.slice(0, 2), table.slice(4)])
    with pytest.raises(ValueError, match="key twice or missing"):
        sink.write_batch(tmp_path, "h", Batch("p2-official", 0, 4), 2, doubled)
    with pytest.raises(ValueError, match="outside games 4..7"):
        sink.write_batch(tmp_path, "h", Batch("p2-official", 4, 8), 2, table)
    assert not (tmp_path / rundir.LEDGER).exists() and not (tmp_path / "data").exists()


def test_written_file_has_simulate_columns_plus_int32_n_players(write_study, tmp_path):
    study = load_study(str(write_study(games=4, players="[3]")))
    cell = study.cells[0]
    table, _, _ = play_batch(
        rust_core.BatchSpec(study.game, cell.variant, cell.agents, study.seed, True), 0, 3
    )
    record = sink.write_batch(tmp_path, "h", Batch(cell.id, 0, 3), 3, table)
    path = tmp_path / record.path
    assert path.name == "part-000000000000-000000000003.parquet"
    table = pq.read_table(path)
    batch = rust_core.simulate(study.game, cell.variant, cell.agents, study.seed, 0, 3, pair_seats=True)
    assert table.column_names == batch.schema.names + ["n_players"]
    assert table["n_players"].type == pa.int32() and set(table["n_players"].to_pylist()) == {3}
    assert set(rundir.columns.REQUIRED) <= set(table.column_names)


def test_the_file_name_pattern_holds_the_largest_game_count():
    assert PART.match(rundir.part_name(MAX_GAMES, MAX_GAMES + MAX_PLAYERS))
    with pytest.raises(ValueError, match="does not fit"):
        rundir.part_name(0, 10**12)
