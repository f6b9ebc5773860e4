"""No link is followed inside a run directory and no path outside the run is read or written
because a file inside it says so: one trial per writer (and per reader that a file of the run
steers). A victim outside the run must keep its bytes; every refusal is one line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import SMALL_STUDY, _read_run

import balancelab_cli as cli
import rundir

VICTIM = b"precious bytes outside the run\n"


@pytest.fixture(scope="module")
def clean(tmp_path_factory, ray_local):
    base = tmp_path_factory.mktemp("clean")
    study = base / "small.toml"
    study.write_text(SMALL_STUDY.format(name="small", seed=4, games=40, pair_seats="true", players="[2]"))
    out = base / "run"
    assert (
        cli.main(["run", str(study), "--out", str(out), "--no-report", "--quiet", "--batch-games", "10"]) == 0
    )
    return study, out, _read_run(out)


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_bytes(VICTIM)
    return path


def _copy(clean, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(clean[1], run)
    return run


def _run(study: Path, out: Path, capsys, *extra: str) -> tuple[int, str]:
    rc = cli.main(["run", str(study), "--out", str(out), "--no-progress", "--no-report", *extra])
    return rc, capsys.readouterr().err


def _one_line(err: str) -> None:
    errors = [line for line in err.splitlines() if line.startswith("balancelab: error:")]
    assert len(errors) == 1 and "Traceback" not in err, err


def _lose_a_batch(run: Path) -> None:
    next(iter(sorted(run.glob("data/cell=*/part-*.parquet")))).unlink()


def test_a_lock_link_is_refused_and_its_target_kept(clean, tmp_path, capsys, victim):
    out = tmp_path / "new"
    out.mkdir()
    (out / rundir.LOCK).symlink_to(victim)
    rc, err = _run(clean[0], out, capsys)
    assert rc in (1, 2)
    _one_line(err)
    assert "symbolic link" in err and victim.read_bytes() == VICTIM


def test_a_ledger_link_is_refused_and_its_target_kept(clean, tmp_path, capsys, victim):
    run = _copy(clean, tmp_path)
    _lose_a_batch(run)
    victim.write_bytes((run / rundir.LEDGER).read_bytes())
    before = victim.read_bytes()
    (run / rundir.LEDGER).unlink()
    (run / rundir.LEDGER).symlink_to(victim)
    rc, err = _run(clean[0], run, capsys)
    assert rc == 1
    _one_line(err)
    assert "batches.jsonl" in err and "symbolic link" in err and victim.read_bytes() == before


def test_a_manifest_link_is_refused_and_its_target_kept(clean, tmp_path, capsys, victim):
    run = _copy(clean, tmp_path)
    (run / rundir.MANIFEST).unlink()
    (run / rundir.MANIFEST).symlink_to(victim)
    rc, err = _run(clean[0], run, capsys)
    assert rc in (1, 2)
    _one_line(err)
    assert victim.read_bytes() == VICTIM
    assert cli.main(["report", str(run)]) == 2
    _one_line(capsys.readouterr().err)


def test_a_link_at_the_manifests_temporary_name_is_replaced_not_written(clean, tmp_path, capsys, victim):
    run = _copy(clean, tmp_path)
    (run / f".{rundir.MANIFEST}.{os.getpid()}.tmp").symlink_to(victim)
    rc, err = _run(clean[0], run, capsys)
    assert rc == 0, err
    assert victim.read_bytes() == VICTIM and not (run / rundir.MANIFEST).is_symlink()


def test_a_report_link_is_replaced_not_written_through(clean, tmp_path, capsys, victim):
    run = _copy(clean, tmp_path)
    (run / "report").mkdir()
    (run / "report" / "index.html").symlink_to(victim)
    assert cli.main(["report", str(run)]) == 0
    assert victim.read_bytes() == VICTIM
    index = run / "report" / "index.html"
    assert not index.is_symlink() and b"<html" in index.read_bytes().lower()


def test_a_report_folder_link_inside_the_run_is_refused(clean, tmp_path, capsys):
    run = _copy(clean, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (run / "report").symlink_to(elsewhere)
    assert cli.main(["report", str(run)]) == 1
    _one_line(capsys.readouterr().err)
    assert list(elsewhere.iterdir()) == []


def test_a_cell_folder_link_sends_no_batch_outside_the_run(clean, tmp_path, capsys):
    run = _copy(clean, tmp_path)
    cell = next(iter(sorted(run.glob("data/cell=*"))))
    elsewhere = tmp_path / "elsewhere"
    shutil.move(cell, elsewhere)
    (elsewhere / next(iter(sorted(os.listdir(elsewhere))))).unlink()  # a batch to play again
    before = sorted(os.listdir(elsewhere))
    cell.symlink_to(elsewhere, target_is_directory=True)
    rc, err = _run(clean[0], run, capsys)
    assert rc == 1
    _one_line(err)
    assert "symbolic link" in err and sorted(os.listdir(elsewhere)) == before


def test_a_data_folder_link_is_refused(clean, tmp_path, capsys):
    run = _copy(clean, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(run / "data", elsewhere)
    (run / "data").symlink_to(elsewhere, target_is_directory=True)
    before = sorted(p.name for p in elsewhere.rglob("*"))
    rc, err = _run(clean[0], run, capsys)
    assert rc == 1
    _one_line(err)
    assert sorted(p.name for p in elsewhere.rglob("*")) == before


def test_a_batch_file_link_is_removed_itself_and_its_games_played_again(clean, tmp_path, capsys, victim):
    run = _copy(clean, tmp_path)
    part = next(iter(sorted(run.glob("data/cell=*/part-*.parquet"))))
    shutil.copyfile(part, victim)
    before = victim.read_bytes()
    part.unlink()
    part.symlink_to(victim)
    rc, err = _run(clean[0], run, capsys)
    assert rc == 0 and "symbolic link" in err, err
    assert victim.read_bytes() == before and not part.is_symlink()
    assert rundir.verify_run(run).complete() and _read_run(run).equals(clean[2])


def test_a_ledger_path_outside_the_run_is_never_read(clean, tmp_path, capsys, monkeypatch):
    run = _copy(clean, tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    records = [json.loads(line) for line in (run / rundir.LEDGER).read_text().splitlines()]
    part = run / records[0]["path"]
    shutil.copyfile(part, outside / part.name)
    records[0]["path"] = f"../outside/{part.name}"
    (run / rundir.LEDGER).write_text("".join(json.dumps(r) + "\n" for r in records))
    opened: list[str] = []
    real = rundir.store.open_in

    def spy(root, rel):
        opened.append(rel)
        return real(root, rel)

    monkeypatch.setattr(rundir.batches, "open_in", spy)
    verified = rundir.verify_run(run)
    assert not any(".." in rel for rel in opened)
    assert [p for p, _ in verified.check.retired] == [records[0]["path"]]
    assert not verified.complete()  # its own file is now unrecorded
    assert cli.main(["report", str(run)]) == 2
    _one_line(capsys.readouterr().err)


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "unused", "directory"])
def test_manifest_files_never_make_replay_read_outside(clean, tmp_path, capsys, kind):
    run = _copy(clean, tmp_path)
    data = json.loads((run / rundir.MANIFEST).read_text())
    target = {"dev-zero": "/dev/zero", "unused": "/etc/hostname", "directory": "/etc"}.get(kind)
    if kind == "fifo":
        target = str(tmp_path / "fifo")
        os.mkfifo(target)
    data["study"]["files"] = {target: "0" * 64}
    if kind != "unused":  # a crafted cell naming it too, so only the file checks stand in the way
        data["study"]["cells"][0]["variant"]["tiles"] = target
    data["checksum"] = rundir.manifest.checksum(data)  # a consistent edit: the checksum is no defence
    (run / rundir.MANIFEST).write_text(json.dumps(data))
    cell = data["study"]["cells"][0]["id"]
    rc = cli.main(["replay", "--run", str(run), "--cell", cell, "--game-index", "0"])
    err = capsys.readouterr().err
    assert rc == 2
    _one_line(err)
    assert "sha256 0000" not in err.lower()
