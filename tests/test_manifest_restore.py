"""A damaged ``manifest.json`` and the study it copies, through the command line: the study is the
source of truth. Bookkeeping damage (the checksum, prose, speeds, recorded library versions,
times) and damage to the manifest's copy of the study are rebuilt from the study, because the
verified batch files record the study's identity: one line, then rows identical to the clean
run. Damage where no data file can vouch for it (the engine table), a study the data do not
record, or games that do not replay with this engine are refused in one line naming why, with no
exception text, and nothing changed. A run stopped before its first batch answers
``report --allow-partial`` with the command that continues it, and that command does."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest
import test_repair
from conftest import SMALL_STUDY
from helpers_runs import write_study_run
from test_repair import GAMES, _assert_healed, _copy, _rerun

import balancelab_cli as cli
import rundir
from pipeline.study import load_study

#: The clean run of tests/test_repair.py (a module fixture: played once here too).
clean = test_repair.clean

Path_ = tuple[Any, ...]

#: Fields that do not decide the games: rebuilt from the study and this engine.
BOOKKEEPING: list[Path_] = [
    ("checksum",),
    ("study", "description"),
    ("games_per_second",),
    ("versions", "ray"),
    ("versions", "pyarrow"),
    ("study_hash",),
    ("host",),
]
#: The manifest's copy of what decides the games: the verified data record the study's hash,
#: so the study given (the truth) rebuilds it.
STUDY_COPY: list[Path_] = [("study", "seed"), ("study", "name"), ("study", "cells", 0, "agents")]
#: The engine table: no data file records it, so damage there is refused.
ENGINE: list[tuple[Path_, Any]] = [
    (("engine", "agent_versions", "random"), 99),
    (("engine", "rules_version", "alhambra"), 99),
]
STOPPED_WORDS = re.compile(r"\b\w+(Error|Exception)\b|Traceback|__init__")


def _edit(data: dict[str, Any], path: Path_, how: str) -> None:
    """Damages ``data`` at ``path``: a changed value, or the key renamed (``key``)."""
    *parents, last = path
    node: Any = data
    for key in parents:
        node = node[key]
    if how == "key":
        node[last[:-1] + last[-1].swapcase()] = node.pop(last)
    else:
        old = node[last]
        node[last] = (
            old + 1 if isinstance(old, int) and not isinstance(old, bool) else ["greedy"] * 2
            if isinstance(old, list) else "0" * 64 if last in ("checksum", "study_hash") else 1e9
            if isinstance(old, float) or old is None else f"{old}-x"
        )  # fmt: skip


def _damage(run: Path, path: Path_, how: str) -> None:
    data = json.loads((run / rundir.MANIFEST).read_text())
    _edit(data, path, how)
    (run / rundir.MANIFEST).write_text(json.dumps(data, indent=2))


def _snapshot(run: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run).as_posix(): p.read_bytes()
        for p in sorted(run.rglob("*"))
        if p.is_file() and p.name != rundir.LOCK
    }


def _assert_refused(clean, run: Path, capsys, words: str, study: Path | None = None) -> None:
    """One line naming ``words``, no exception text, nothing changed."""
    before = _snapshot(run)
    rc, err = _rerun(study or clean[0], run, capsys)
    assert rc == 2 and err.count("\n") == 1 and words in err, err
    assert not STOPPED_WORDS.search(err), err
    assert _snapshot(run) == before


def _assert_restored(clean, run: Path, capsys) -> None:
    """The report refuses the damaged manifest naming the command that restores it; that command
    says so in one line and heals the run to the clean rows."""
    rc = cli.main(["report", str(run), "--report-dir", str(run.parent / "r")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and f"--out {run}" in err and "balancelab run" in err, err
    assert not STOPPED_WORDS.search(err), err
    rc, err = _rerun(clean[0], run, capsys)
    notes = [line for line in err.splitlines() if "written again from the study" in line]
    assert rc == 0 and len(notes) == 1 and not STOPPED_WORDS.search(err), err
    _assert_healed(clean, run, capsys)
    man = rundir.read_manifest(run)
    assert man is not None and man.games_done == 2 * GAMES
    assert man.study.identity() == load_study(str(clean[0])).identity()


@pytest.mark.parametrize("how", ["value", "key"])
@pytest.mark.parametrize("path", BOOKKEEPING, ids=".".join)
def test_bookkeeping_damage_is_rebuilt_from_the_study(clean, tmp_path, capsys, path, how):
    run = _copy(clean, tmp_path)
    _damage(run, path, how)
    _assert_restored(clean, run, capsys)


@pytest.mark.parametrize("path", STUDY_COPY, ids=lambda p: ".".join(map(str, p)))
def test_damage_to_the_manifests_copy_of_the_study_is_rebuilt_from_the_study(clean, tmp_path, capsys, path):
    run = _copy(clean, tmp_path)
    _damage(run, path, "value")
    _assert_restored(clean, run, capsys)


@pytest.mark.parametrize("damage", ["truncated", "not-json", "empty", "not-utf8", "a-list"])
def test_an_unreadable_manifest_is_rebuilt_when_its_games_replay(clean, tmp_path, capsys, damage):
    run = _copy(clean, tmp_path)
    path = run / rundir.MANIFEST
    text = path.read_bytes()
    path.write_bytes(
        {
            "truncated": text[: len(text) // 2],
            "not-json": b"{" + text,
            "empty": b"",
            "not-utf8": text.replace(b'"small"', b'"sm\xffll"', 1),
            "a-list": b"[]",
        }[damage]
    )
    if damage == "a-list":  # no manifest at all, but a JSON list: not restored, one line
        _assert_refused(clean, run, capsys, "not a balancelab manifest")
        return
    _assert_restored(clean, run, capsys)


@pytest.mark.parametrize(("path", "value"), ENGINE, ids=["agent_versions", "rules_version"])
def test_damage_to_the_engine_table_is_refused(clean, tmp_path, capsys, path, value):
    run = _copy(clean, tmp_path)
    data = json.loads((run / rundir.MANIFEST).read_text())
    data[path[0]][path[1]][path[2]] = value
    (run / rundir.MANIFEST).write_text(json.dumps(data))
    _assert_refused(clean, run, capsys, "records another engine")


def test_a_damaged_manifest_is_not_rebuilt_from_a_study_the_data_do_not_record(clean, tmp_path, capsys):
    run = _copy(clean, tmp_path)
    _damage(run, ("study", "description"), "value")
    other = tmp_path / "other.toml"
    other.write_text(SMALL_STUDY.format(name="small", seed=4, games=GAMES, pair_seats="true", players="[2]"))
    _assert_refused(clean, run, capsys, "record another study", study=other)


def test_an_unreadable_manifest_over_games_that_do_not_replay_is_refused(clean, tmp_path, capsys):
    """Verified files (records and hashes agree) whose rows this engine does not play: the engine
    that played them is unknown, so the manifest is not rebuilt."""
    run = _copy(clean, tmp_path)
    first = sorted(rundir.read_records(run)[0], key=lambda r: (r.cell, r.start))[0]
    table = rundir.batches.read_table(run, first.path)
    score = table.column("score")
    table = table.set_column(
        table.schema.get_field_index("score"), "score", pc.add(score, pa.scalar(1, score.type))
    )
    study_hash = load_study(str(clean[0])).hash()
    rundir.write_batch(run, study_hash, first.cell, first.start, first.end, 2, table)
    (run / rundir.MANIFEST).write_text("")
    _assert_refused(clean, run, capsys, "does not replay as recorded")


def test_a_run_stopped_before_its_first_batch_agrees_with_report_and_resume(clean, tmp_path, capsys):
    """``report --allow-partial``: exit 2, one line naming the command that continues it; that
    command continues it to the clean rows (also when its manifest is damaged then)."""
    for damaged in (False, True):
        run = tmp_path / f"run-{damaged}"
        write_study_run(load_study(str(clean[0])), run, games=0)
        if damaged:
            _damage(run, ("games_planned",), "value")
        rc = cli.main(["report", str(run), "--allow-partial"])
        err = capsys.readouterr().err
        assert rc == 2 and err.count("\n") == 1 and f"--out {run}" in err, err
        if not damaged:
            assert "no verified games yet" in err and f"balancelab run {clean[0]} --out {run}" in err, err
        shutil.rmtree(run / "report", ignore_errors=True)
        _assert_healed(clean, run, capsys)
