"""Fault injection: bytes flipped, records damaged, files renamed or lost in a finished run (batch
files, ``batches.jsonl``, ``manifest.json``), then the same command again. Every trial must end
in a complete run holding exactly the rows of the clean one (records and data agreeing), or, for
a manifest damaged where it decides the games, in one line naming it (exit 2) and nothing changed.
No trial may raise (a traceback) or need a third run (a stuck run)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from conftest import SMALL_STUDY, _read_run

import balancelab_cli as cli
import rundir

GAMES = 96
SEEDS = range(12)


@pytest.fixture(scope="module")
def clean(tmp_path_factory, ray_local):
    """A finished run of a small random-play study (2 cells of 96 games, batches of 16) and its rows."""
    base = tmp_path_factory.mktemp("clean")
    study = base / "small.toml"
    study.write_text(SMALL_STUDY.format(name="small", seed=3, games=GAMES, pair_seats="true", players="[2]"))
    out = base / "run"
    args = ["run", str(study), "--out", str(out), "--no-report", "--quiet", "--batch-games", "16"]
    assert cli.main(args) == 0
    return study, out, _read_run(out)


def _copy(clean, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(clean[1], run)
    return run


def _flip(path: Path, rng: random.Random, lo: int = 0) -> None:
    data = bytearray(path.read_bytes())
    at = rng.randrange(lo, len(data))
    data[at] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(data))


def _parts(run: Path) -> list[Path]:
    return sorted(run.glob("data/cell=*/part-*.parquet"))


def _ledger(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / rundir.LEDGER).read_text().splitlines()]


def _write_ledger(run: Path, records: list[dict]) -> None:
    (run / rundir.LEDGER).write_text("".join(json.dumps(r) + "\n" for r in records))


def _rerun(study: Path, run: Path, capsys) -> tuple[int, str]:
    rc = cli.main(
        ["run", str(study), "--out", str(run), "--no-report", "--no-progress", "--batch-games", "7"]
    )
    return rc, capsys.readouterr().err


def _assert_healed(clean, run: Path, capsys) -> None:
    """A second run has nothing left to play; records and data agree; the rows are the clean ones."""
    study, _, rows = clean
    rc, err = _rerun(study, run, capsys)
    assert rc == 0 and "playing again" not in err, err
    verified = rundir.verify_run(run)
    assert verified.complete(), verified.problems()
    records, notes = rundir.read_records(run)
    assert notes == [] and sorted(r.path for r in records) == verified.check.files()
    assert sorted(p.relative_to(run).as_posix() for p in _parts(run)) == verified.check.files()
    assert _read_run(run).equals(rows)


def _damage_structural(run: Path, kind: str, rng: random.Random) -> None:
    parts = _parts(run)
    victim = parts[rng.randrange(len(parts))]
    records = _ledger(run)
    rel = victim.relative_to(run).as_posix()
    mine = next(r for r in records if r["path"] == rel)
    if kind == "truncated":
        victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    elif kind == "deleted":
        victim.unlink()
    elif kind == "renamed":
        victim.rename(victim.with_name(f"part-{mine['start']:012d}-{mine['end'] + 1:012d}.parquet"))
    elif kind == "never appeared":  # the README's crash case, with another split than the original
        mid = (mine["start"] + mine["end"]) // 2
        ghost = dict(mine, end=mid, path=rel.replace(f"{mine['end']:012d}.parquet", f"{mid:012d}.parquet"))
        _write_ledger(run, [*records, ghost])
    elif kind == "path flipped":
        mine["path"] = rel.replace("part-0", "part-1", 1)
        _write_ledger(run, records)
    elif kind == "path outside":
        mine["path"] = f"../outside/{victim.name}"
        _write_ledger(run, records)
    elif kind == "sha256 flipped":
        mine["sha256"] = ("0" if mine["sha256"][0] != "0" else "1") + mine["sha256"][1:]
        _write_ledger(run, records)
    elif kind == "copy of another":
        other = next(p for p in parts if p != victim)
        shutil.copyfile(other, victim)
    else:
        raise AssertionError(kind)


STRUCTURAL = [
    "truncated",
    "deleted",
    "renamed",
    "never appeared",
    "path flipped",
    "path outside",
    "sha256 flipped",
    "copy of another",
]


@pytest.mark.parametrize("kind", STRUCTURAL)
def test_a_damaged_batch_or_record_heals_in_one_run(clean, tmp_path, capsys, kind):
    run = _copy(clean, tmp_path)
    _damage_structural(run, kind, random.Random(kind))
    assert not rundir.verify_run(run).complete()
    rc, err = _rerun(clean[0], run, capsys)
    assert rc == 0, err
    _assert_healed(clean, run, capsys)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_flipped_byte_in_a_batch_file_heals_and_the_report_succeeds(clean, tmp_path, capsys, seed):
    run = _copy(clean, tmp_path)
    rng = random.Random(seed)
    parts = _parts(run)
    _flip(parts[rng.randrange(len(parts))], rng)
    rc, err = _rerun(clean[0], run, capsys)
    assert rc == 0 and "playing again" in err, err
    _assert_healed(clean, run, capsys)
    if seed == 0:  # the reproduction ends in a report
        assert cli.main(["report", str(run), "--report-dir", str(tmp_path / "report")]) == 0
        assert (tmp_path / "report" / "index.html").is_file()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_flipped_byte_in_the_ledger_heals(clean, tmp_path, capsys, seed):
    run = _copy(clean, tmp_path)
    _flip(run / rundir.LEDGER, random.Random(seed))
    rc, err = _rerun(clean[0], run, capsys)
    assert rc == 0, err
    _assert_healed(clean, run, capsys)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_flipped_byte_in_the_manifest_is_named_and_restored_only_where_the_games_are_safe(
    clean, tmp_path, capsys, seed
):
    run = _copy(clean, tmp_path)
    path = run / rundir.MANIFEST
    before = json.loads(path.read_text())
    _flip(path, random.Random(seed))
    try:
        changed = json.loads(path.read_bytes().decode("utf-8")) != before
    except ValueError:
        changed = True
    if changed:  # every reader refuses it, in one line
        assert cli.main(["report", str(run), "--report-dir", str(tmp_path / "r")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "manifest.json" in err, err
    damaged = path.read_bytes()
    rc, err = _rerun(clean[0], run, capsys)
    assert rc in (0, 2), err
    if rc == 2:  # it may have touched what decides the games: refused, nothing changed
        assert err.count("\n") == 1 and "manifest.json" in err, err
        assert path.read_bytes() == damaged
        return
    _assert_healed(clean, run, capsys)
    man = rundir.read_manifest(run)
    assert [c.games for c in man.study.cells] == [GAMES, GAMES]
    assert man.study.practical_threshold is None and man.games_done == 2 * GAMES


def test_a_changed_game_count_or_threshold_is_refused_by_the_report_and_restored_by_a_run(
    clean, tmp_path, capsys
):
    run = _copy(clean, tmp_path)
    path = run / rundir.MANIFEST
    text = path.read_text()
    edited = text.replace(f'"games": {GAMES}', '"games": 32', 1).replace(
        '"practical_threshold": null', '"practical_threshold": 0.05'
    )
    assert edited != text
    path.write_text(edited)
    assert cli.main(["report", str(run), "--report-dir", str(tmp_path / "r")]) == 2
    assert "damaged manifest (checksum" in capsys.readouterr().err
    rc, err = _rerun(clean[0], run, capsys)
    assert rc == 0 and "written again from the study" in err, err
    _assert_healed(clean, run, capsys)
    assert [c.games for c in rundir.read_manifest(run).study.cells] == [GAMES, GAMES]


def test_a_changed_seed_is_restored_from_the_study_a_renamed_agent_version_never(clean, tmp_path, capsys):
    """The study decides the games, the manifest is its copy: a damaged copy of the seed is
    rebuilt from the study (its identity is what the verified batch files record); a damaged
    engine table is refused (no data file records the engine); a consistent edit is no damage
    but another study or engine, refused either way."""
    for edit, restored in (
        (lambda d: d["study"].update(seed=d["study"]["seed"] + 1), True),
        (lambda d: d["engine"].update(agent_versions={"rnadom": 1}), False),
    ):
        run = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
        shutil.copytree(clean[1], run)
        data = json.loads((run / rundir.MANIFEST).read_text())
        edit(data)
        data["checksum"] = rundir.manifest.checksum(data)  # a consistent edit: refused
        (run / rundir.MANIFEST).write_text(json.dumps(data))
        rc, err = _rerun(clean[0], run, capsys)
        assert rc == 2 and err.count("\n") == 1, err
        data["checksum"] = "0" * 64  # damage
        (run / rundir.MANIFEST).write_text(json.dumps(data))
        before = (run / rundir.MANIFEST).read_bytes()
        if restored:
            _assert_healed(clean, run, capsys)
            continue
        rc, err = _rerun(clean[0], run, capsys)
        assert rc == 2 and err.count("\n") == 1 and "new --out directory" in err, err
        assert (run / rundir.MANIFEST).read_bytes() == before


def test_a_non_utf8_manifest_is_one_line(clean, tmp_path, capsys):
    run = _copy(clean, tmp_path)
    path = run / rundir.MANIFEST
    path.write_bytes(path.read_bytes().replace(b'"small"', b'"sm\xffll"', 1))
    assert cli.main(["report", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not UTF-8" in err, err
