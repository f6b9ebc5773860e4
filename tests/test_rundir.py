"""The run-directory contract without Ray: manifest format, engine versions on resume, the
report's refusals (incomplete run, duplicated keys), replay JSON, input limits, isolation."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers_runs import write_run, write_study_run

import analysis
import balancelab_cli as cli
import rundir
import rust_core
from analysis.load import DuplicateKeys
from pipeline import resume
from pipeline.study import StudyError, load_study


def _coin_run(tmp_path, games=40):
    return write_run(
        tmp_path / "coin",
        name="coin-mini",
        game="coin",
        cells=[{"id": "fair", "agents": ["random", "random"], "games": games}],
        batch=10,
    )


def _snapshot(out):
    return {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != rundir.LOCK}


@pytest.mark.parametrize(
    ("found", "words"), [(1, "older balancelab"), (None, "older"), (3, "newer balancelab")]
)
def test_a_manifest_of_another_format_is_refused_naming_both(tmp_path, capsys, write_study, found, words):
    run = _coin_run(tmp_path)
    data = json.loads((run / rundir.MANIFEST).read_text())
    if found is None:
        del data["format"]
    else:
        data["format"] = found
    (run / rundir.MANIFEST).write_text(json.dumps(data))
    with pytest.raises(rundir.RunFormatError) as info:
        rundir.read_manifest(run)
    message = str(info.value)
    assert f"format {found if found is not None else 1}" in message and "reads format 2" in message
    assert words in message
    with pytest.raises(rundir.RunFormatError):
        analysis.analyse(run)
    assert cli.main(["report", str(run), "--report-dir", str(tmp_path / "r")]) == 2
    assert "reads format 2" in capsys.readouterr().err
    before = _snapshot(run)
    assert cli.main(["run", str(write_study(games=10)), "--out", str(run), "--no-progress"]) == 2
    assert "reads format 2" in capsys.readouterr().err
    assert _snapshot(run) == before


def test_resume_refuses_a_changed_rules_version_or_agent_version(write_study, tmp_path, capsys):
    path = write_study(games=20)
    out = tmp_path / "run"
    write_study_run(load_study(str(path)), out, batch=10, games=10)  # an unfinished run
    recorded = json.loads((out / rundir.MANIFEST).read_text())
    rules, agents = recorded["engine"]["rules_version"], recorded["engine"]["agent_versions"]
    assert set(rules) == {"alhambra"} and set(agents) == {"random"}
    for change, needles in (
        ({"rules_version": {"alhambra": rules["alhambra"] + 1}}, ["rules_version of alhambra"]),
        ({"agent_versions": {"random": agents["random"] + 5}}, ["version of agent random"]),
        (
            {"rules_version": {"alhambra": 99}, "agent_versions": {"random": 98}},
            [
                f"rules_version of alhambra 99, now {rules['alhambra']}",
                f"agent random 98, now {agents['random']}",
            ],
        ),
    ):
        edited = json.loads(json.dumps(recorded))
        edited["engine"].update(change)
        edited["checksum"] = rundir.manifest.checksum(edited)
        (out / rundir.MANIFEST).write_text(json.dumps(edited))
        before = _snapshot(out)
        assert cli.main(["run", str(path), "--out", str(out), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert "played by another engine" in err and "start a new run with another --out" in err, err
        for needle in needles:
            assert needle in err, err
        assert _snapshot(out) == before  # nothing written, nothing played


def test_the_report_refuses_an_incomplete_run_unless_allow_partial(write_study, tmp_path, capsys):
    path = write_study(games=20)
    out = tmp_path / "run"
    write_study_run(load_study(str(path)), out, batch=10, games=10)
    with pytest.raises(rundir.IncompleteRun) as info:
        analysis.analyse(out)
    assert "cell p2-official: 10 of 20 games" in str(info.value) and "--allow-partial" in str(info.value)
    reports = tmp_path / "reports"
    assert cli.main(["report", str(out), "--report-dir", str(reports)]) == 2
    assert "incomplete run (20 of 40 planned games verified)" in capsys.readouterr().err
    assert not reports.exists()
    assert cli.main(["report", str(out), "--report-dir", str(reports), "--allow-partial"]) == 0
    assert "analysed 20 of 40 planned games (50.0%)" in capsys.readouterr().err
    md = (reports / "report.md").read_text()
    assert "Partial run: 20 of 40 planned games analysed (50.0%)" in md
    assert "| games analysed | 20 of 40 planned |" in md
    assert "| engine | alhambra rules v" in md and "agents random v" in md


def test_the_report_refuses_a_damaged_file_and_ignores_strays(tmp_path, capsys):
    run = _coin_run(tmp_path)
    parts = sorted((run / "data").rglob("part-*.parquet"))
    stray = parts[0].with_name(parts[0].stem + " (copy).parquet")
    stray.write_bytes(parts[0].read_bytes())
    s = analysis.analyse(run)
    assert s.analysed == (40, 40) and s.advantage["games"].to_list() == [40]  # the copy is not read
    assert any("(copy).parquet" in w for w in s.warnings)
    data = bytearray(parts[1].read_bytes())
    data[len(data) // 2] ^= 1
    parts[1].write_bytes(bytes(data))
    with pytest.raises(rundir.IncompleteRun) as info:
        analysis.analyse(run)
    assert parts[1].name in str(info.value)
    s = analysis.analyse(run, allow_partial=True)
    assert s.analysed == (30, 40) and s.advantage["games"].to_list() == [30]
    assert any(parts[1].name in w and "(75.0%)" in w for w in s.warnings)


def test_duplicated_keys_are_always_refused(tmp_path, monkeypatch):
    run = _coin_run(tmp_path)
    part = sorted((run / "data").rglob("part-*.parquet"))[0]
    table = pq.read_table(part)
    games = table["game_index"].to_pylist()
    games[2:4] = games[0:2]  # game 1 recorded as game 0 again: right row count, a key twice
    table = table.set_column(table.schema.get_field_index("game_index"), "game_index", pa.array(games))
    monkeypatch.setattr(rundir.batches, "check_keys", lambda *a: None)  # a writer with that bug
    study_hash = rundir.read_manifest(run).study.hash()
    rundir.write_batch(run, study_hash, "fair", 0, 10, 2, table)
    monkeypatch.undo()
    with pytest.raises(DuplicateKeys, match="cell fair game 0 player 0"):
        analysis.analyse(run)
    with pytest.raises(DuplicateKeys):
        analysis.analyse(run, allow_partial=True)
    assert cli.main(["report", str(run), "--report-dir", str(tmp_path / "r")]) == 2


def test_replay_json_from_a_run_is_valid_json_with_notes_on_stderr(write_study, tmp_path, capsys):
    path = write_study(games=10)
    out = tmp_path / "run"
    write_study_run(load_study(str(path)), out, batch=4, games=8)  # games 8 and 9 not played yet
    argv = ["replay", "--run", str(out), "--cell", "p2-no_dirk", "--game-index", "7"]
    assert cli.main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    log = json.loads(captured.out)
    assert log["game_index"] == 7 and len(log["result"]) == 2
    assert "matches the 2 rows recorded" in captured.err
    assert cli.main(["replay", "--run", str(out), "--cell", "p2-no_dirk", "--game-index", "9", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["game_index"] == 9 and "not in the data" in captured.err
    assert cli.main(["replay", "--run", str(out), "--cell", "p2-no_dirk", "--game-index", "10"]) == 2
    assert "has games 0..9" in capsys.readouterr().err  # a game the run never plans


def test_identical_cells_are_refused_naming_both(write_study, tmp_path, capsys):
    text = """\
name = "same"
game = "alhambra"
seed = 1
games_per_cell = 10
[grid]
players = [2]
agents = ["random"]
[grid.variants]
official = {}
explicit = { dirk = true, hole_rule = "area" }
"""
    path = write_study(text=text)
    with pytest.raises(StudyError) as info:
        load_study(str(path))
    assert info.value.field == "grid"
    assert "p2-official and p2-explicit have identical settings" in info.value.message
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "identical settings" in capsys.readouterr().err and not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (["--task-seconds", "nan"], ["--task-seconds", "(0, 3600]", "nan"]),
        (["--task-seconds", "inf"], ["--task-seconds", "inf"]),
        (["--task-seconds", "-1"], ["--task-seconds"]),
        (["--games", "1000000001"], ["--games", "1..1000000000"]),
        (["--batch-games", "1000000001"], ["--batch-games", "1..1000000000"]),
        (["--precision", "0.01", "--max-games", "10000000000"], ["--max-games", "1..1000000000"]),
    ],
)
def test_bad_run_options_exit_2_before_ray_starts_or_anything_is_written(
    write_study, tmp_path, capsys, extra, needles
):
    import ray

    out = tmp_path / "out"
    assert cli.main(["run", str(write_study(games=10)), "--out", str(out), "--no-progress", *extra]) == 2
    err = capsys.readouterr().err
    for needle in needles:
        assert needle in err, err
    assert not out.exists() and not ray.is_initialized()


def test_a_non_empty_directory_without_a_manifest_is_refused(write_study, tmp_path, capsys):
    out = tmp_path / "etc"
    out.mkdir()
    (out / "passwd").write_text("root:x:0:0\n")
    assert cli.main(["run", str(write_study(games=10)), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"--out {out}: not empty and holds no manifest.json" in err
    assert sorted(p.name for p in out.iterdir()) == ["passwd"]


def test_the_manifest_round_trips_and_is_typed(write_study, tmp_path):
    out = tmp_path / "run"
    study = load_study(str(write_study(games=10)))
    write_study_run(study, out, batch=5)
    man = rundir.read_manifest(out)
    assert isinstance(man.study.cells[0], rundir.Cell) and man.study.cells[1].variant == {"dirk": False}
    assert man.study.identity() == study.identity()
    assert rundir.Manifest.from_dict(man.to_dict()) == man
    assert json.loads((out / rundir.MANIFEST).read_text())["study_hash"] == study.hash()
    broken = man.to_dict()
    del broken["study"]["seed"]
    with pytest.raises(rundir.RunFormatError, match="damaged manifest"):
        rundir.Manifest.from_dict(broken)


def test_analysis_imports_no_part_of_the_pipeline():
    code = (
        "import sys, analysis, analysis.report, analysis.strength, analysis.precision; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pipeline'))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    mods = json.loads(res.stdout.replace("'", '"'))
    assert mods == [], mods


def test_the_engine_recorded_is_rust_cores_rules_and_agent_versions(write_study):
    text = """\
name = "engine"
game = "alhambra"
seed = 1
games_per_cell = 4
[grid]
players = [2]
agents = ["random", ["greedy", "mcts:iters=10"], ["xmcts:iters=5", "random"]]
"""
    study = load_study(str(write_study(text=text)))
    engine = resume.engine_of(study)
    assert engine.rules_version == {"alhambra": rust_core.rules_version("alhambra")}
    specs = ("greedy", "mcts:iters=10", "random", "xmcts:iters=5")
    assert engine.agent_versions == {spec: rust_core.agent_version(spec, "alhambra") for spec in specs}
    # the versions in the study's game: xmcts's is that of Alhambra's evaluation, not Hiroba's
    assert engine.agent_versions["xmcts:iters=5"] != rust_core.agent_version("xmcts:iters=5", "hiroba")
