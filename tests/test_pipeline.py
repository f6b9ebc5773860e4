"""The pipeline on a local Ray: layout, manifest, determinism, resume, refusal, replay, precision rounds."""

from __future__ import annotations

import json
import os
import re
import sys
import types

import pyarrow.parquet as pq
import pytest

import balancelab_cli as cli
import rundir
from pipeline import resume
from pipeline.plan import missing_ranges
from pipeline.runner import grow, run_study
from pipeline.study import load_study

pytestmark = pytest.mark.usefixtures("ray_local")


def same(a, b) -> bool:
    return a.column_names == b.column_names and all(a[c].equals(b[c]) for c in a.column_names)


def test_missing_ranges():
    assert missing_ranges(10, []) == [(0, 10)]
    assert missing_ranges(10, [(0, 4), (6, 10)]) == [(4, 6)]
    assert missing_ranges(10, [(2, 4), (4, 5)]) == [(0, 2), (5, 10)]
    assert missing_ranges(10, [(0, 12)]) == []


def test_run_layout_manifest_and_rows(write_study, tmp_path, read_run, expected_run):
    path = write_study(games=60)
    out = tmp_path / "run"
    man = run_study(load_study(str(path)), out, workers=2, batch_games=16, progress=False, quiet=True)
    on_disk = json.loads((out / "manifest.json").read_text())
    assert on_disk == man.to_dict()
    assert on_disk["format"] == 2 and on_disk["study_hash"] == man.study.hash()
    # the rules version recorded for resume checks is the one the engine writes into every row
    assert on_disk["engine"]["rules_version"] == {"alhambra": read_run(out)["rules_version"][0].as_py()}
    assert set(on_disk["engine"]["agent_versions"]) == {"random"}
    study = on_disk["study"]
    assert study["name"] == "small" and study["game"] == "alhambra" and study["seed"] == 5
    assert study["pair_seats"] is True and study["games_per_cell"] == 60
    assert [c["id"] for c in study["cells"]] == ["p2-official", "p2-no_dirk"]
    assert study["cells"][1] == {
        "id": "p2-no_dirk",
        "label": "2 players, no_dirk, random",
        "n_players": 2,
        "variant": {"dirk": False},
        "agents": ["random", "random"],
        "games": 60,
        "role": "play",
        "variant_label": "no_dirk",
    }
    assert set(on_disk["versions"]) >= {"balancelab", "rust_core", "build", "ray", "python"}
    assert on_disk["versions"]["build"].startswith("sha256:")
    assert on_disk.get("git_commit") != "None" and on_disk["started"] and on_disk["finished"]
    assert on_disk["games_done"] == 120 and on_disk["wall_seconds"] > 0
    files = sorted(p.relative_to(out).as_posix() for p in (out / "data").rglob("*") if p.is_file())
    assert len(files) == 8  # 60 games in batches of 16: 16, 16, 16, 12 per cell
    for f in files:
        assert re.fullmatch(r"data/cell=p2-(official|no_dirk)/part-\d{12}-\d{12}\.parquet", f)
    meta = pq.ParquetFile(out / files[0]).metadata
    assert meta.row_group(0).column(0).compression == "ZSTD"
    assert "data/cell=p2-official/part-000000000048-000000000060.parquet" in files
    got = read_run(out)
    assert same(got, expected_run(path))
    assert got["n_players"].type.bit_width == 32


def test_same_data_with_one_or_two_workers_and_any_batch_size(write_study, tmp_path, read_run, expected_run):
    path = write_study(games=90, players="[2, 3]")
    tables = []
    for i, (workers, batch) in enumerate([(1, 6), (2, 30), (2, None)]):
        out = tmp_path / f"run{i}"
        run_study(load_study(str(path)), out, workers=workers, batch_games=batch, progress=False, quiet=True)
        tables.append(read_run(out))
    names = {len(list((tmp_path / f"run{i}").rglob("*.parquet"))) for i in range(3)}
    assert len(names) > 1  # the batches really differed
    assert same(tables[0], tables[1]) and same(tables[1], tables[2])
    assert same(tables[0], expected_run(path))


def test_resume_replays_missing_truncated_changed_copied_and_foreign_files_only(
    write_study, tmp_path, read_run, expected_run, capsys
):
    path = write_study(games=80)
    out = tmp_path / "run"
    run_study(load_study(str(path)), out, workers=2, batch_games=20, progress=False, quiet=True)
    parts = sorted((out / "data").rglob("part-*.parquet"))
    assert len(parts) == 8
    missing, truncated, wrong, flipped, copied, foreign, keep = (parts[i] for i in (0, 1, 5, 2, 3, 4, 7))
    missing.unlink()
    data = truncated.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    table = pq.read_table(wrong)
    pq.write_table(table.slice(0, table.num_rows - 2), wrong, compression="zstd")
    raw = bytearray(flipped.read_bytes())
    raw[len(raw) // 2] ^= 4
    flipped.write_bytes(bytes(raw))
    copied.write_bytes(parts[6].read_bytes())
    other = tmp_path / "other"
    run_study(load_study(str(write_study(seed=99, games=80, filename="o.toml"))), other, workers=2,
              batch_games=20, progress=False, quiet=True)  # fmt: skip
    foreign.write_bytes((other / foreign.relative_to(out)).read_bytes())  # same name, another seed
    stray = keep.with_name("part-000000000060-000000000080 (copy).parquet")
    stray.write_bytes(keep.read_bytes())
    (wrong.parent / ".part-x.parquet.123.tmp").write_bytes(b"half")
    kept = os.stat(keep).st_ino, os.stat(keep).st_mtime_ns
    capsys.readouterr()
    man = run_study(load_study(str(path)), out, workers=2, batch_games=20, progress=False, quiet=True)
    err = capsys.readouterr().err
    for damaged in (missing, truncated, wrong, flipped, copied, foreign):
        assert f"playing again {damaged.relative_to(out).as_posix()}: " in err, err
    assert "a batch file of another study" in err and "content changed since it was written" in err
    assert f"ignoring {stray.relative_to(out).as_posix()}: not a batch file of this run" in err
    assert (os.stat(keep).st_ino, os.stat(keep).st_mtime_ns) == kept and stray.exists()
    assert not list(out.rglob("*.tmp"))
    assert same(read_run(out), expected_run(path))
    assert man.games_done == 160
    # nothing to do the third time
    before = {p: p.stat().st_mtime_ns for p in out.rglob("part-*.parquet")}
    run_study(load_study(str(path)), out, workers=2, batch_games=20, progress=False, quiet=True)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("part-*.parquet")} == before


def test_more_games_extend_a_directory_and_another_study_is_refused(
    write_study, tmp_path, read_run, expected_run, capsys
):
    path = write_study(games=40)
    out = tmp_path / "run"
    run_study(load_study(str(path)), out, workers=2, progress=False, quiet=True)
    run_study(load_study(str(path), 100), out, workers=2, progress=False, quiet=True)
    assert same(read_run(out), expected_run(path, 100))
    other = write_study(seed=6, games=40, filename="other.toml")
    with pytest.raises(resume.ManifestMismatch, match="seed"):
        run_study(load_study(str(other)), out, workers=2, progress=False, quiet=True)
    assert cli.main(["run", str(other), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert str(out) in err and "seed" in err and "another --out" in err
    # a smaller --games keeps the games on disk
    man = run_study(load_study(str(path), 20), out, workers=2, progress=False, quiet=True)
    assert [c.games for c in man.study.cells] == [100, 100]
    assert man.games_played == 0
    # a run stopped early plans by what it asked for and what is on disk, not by the old plan
    old = json.loads((out / "manifest.json").read_text())
    for cell in old["study"]["cells"]:
        cell["games"] = 1000
    old["finished"] = None
    old["checksum"] = rundir.manifest.checksum(old)
    (out / "manifest.json").write_text(json.dumps(old))
    man = run_study(load_study(str(path), 40), out, workers=2, progress=False, quiet=True)
    assert [c.games for c in man.study.cells] == [100, 100]
    assert man.games_played == 0 and man.games_done == 200


def test_cli_run_then_replay_matches_recorded_rows(write_study, tmp_path, capsys, monkeypatch):
    path = write_study(games=30)
    out = tmp_path / "run"
    assert (
        cli.main(["run", str(path), "--out", str(out), "--workers", "2", "--no-progress", "--no-report"]) == 0
    )
    captured = capsys.readouterr()
    assert "60 games" in captured.out and not (out / "report").exists()
    assert cli.main(["replay", "--run", str(out), "--cell", "p2-no_dirk", "--game-index", "7"]) == 0
    from_run = capsys.readouterr().out
    assert "matches the 2 rows recorded" in from_run
    assert "player 0" in from_run and "result:" in from_run
    argv = [
        "replay",
        "alhambra",
        "--seed",
        "5",
        "--game-index",
        "7",
        "--variant",
        "dirk=false",
        "--pair-seats",
    ]
    assert cli.main(argv) == 0
    explicit = capsys.readouterr().out
    assert explicit.strip() == from_run.rsplit("\n(matches", 1)[0].strip()
    assert (
        cli.main(["replay", "alhambra", "--seed", "5", "--game-index", "7", "--variant", "dirk=maybe"]) == 2
    )
    assert "dirk" in capsys.readouterr().err


@pytest.mark.parametrize("failure", ["ENOSPC", "EROFS"])
def test_disk_full_or_read_only_ends_with_one_message_and_exit_1(
    write_study, tmp_path, capsys, monkeypatch, failure, read_run, expected_run
):
    """Disk full while batch files are written, or a read-only directory (the first manifest):
    one line, exit 1, nothing half-written; the same command continues once the disk has room."""
    import errno

    path = write_study(games=40)
    out = tmp_path / "run"
    real_fsync, calls = os.fsync, []
    code = getattr(errno, failure)

    def failing_fsync(fd):
        calls.append(fd)
        if failure == "EROFS" or len(calls) > 12:
            raise OSError(code, os.strerror(code))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    argv = ["run", str(path), "--out", str(out), "--batch-games", "10", "--no-progress", "--no-report"]
    assert cli.main(argv) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("balancelab: error: cannot write "), err
    assert os.strerror(code) in err[0]
    assert not list(out.rglob("*.tmp"))
    if failure == "EROFS":
        assert sorted(p.name for p in out.iterdir()) == [".lock"]  # no manifest, no data
    else:
        records, _ = rundir.read_records(out)
        assert 0 < len(records) < 8
    assert cli.main(argv) == 0
    assert same(read_run(out), expected_run(path))


def test_grow_asks_for_games_by_the_square_of_the_width_ratio(write_study):
    study = load_study(str(write_study(games=100)))
    grown = grow(study, {"p2-official": 0.02, "p2-no_dirk": 0.005}, 0.01, 10_000)
    assert grown is not None
    assert [c.games for c in grown.cells] == [400, 100]  # at most 4x per round
    assert grow(study, {"p2-official": 0.009, "p2-no_dirk": 0.005}, 0.01, 10_000) is None
    assert grow(study, {"p2-official": 0.02, "p2-no_dirk": 0.02}, 0.01, 100) is None


def test_precision_rounds_until_every_cell_is_narrow_enough(write_study, tmp_path, monkeypatch, read_run):
    calls = []

    def max_halfwidths(run_dir):
        games = {
            c.name.split("=", 1)[1]: pq.read_table(c).num_rows // 2 for c in (run_dir / "data").iterdir()
        }
        calls.append(games)
        return {cell: 1.0 / n**0.5 for cell, n in games.items()}  # width 0.05 needs 400 games

    path = write_study(games=50)
    out = tmp_path / "run"
    man = run_study(
        load_study(str(path)),
        out,
        workers=2,
        progress=False,
        quiet=True,
        precision=0.05,
        halfwidths=max_halfwidths,
    )
    assert calls[0] == {"p2-official": 50, "p2-no_dirk": 50}
    assert all(n >= 400 for n in calls[-1].values())
    assert [c.games for c in man.study.cells] == [calls[-1]["p2-official"], calls[-1]["p2-no_dirk"]]
    table = read_run(out)
    assert table.num_rows == 2 * sum(c.games for c in man.study.cells)
    assert len(man.precision_rounds) == len(calls)


def test_a_directory_being_written_by_another_run_is_refused(write_study, tmp_path):
    from pipeline.runner import DirectoryBusy, exclusive

    path = write_study(games=10)
    out = tmp_path / "run"
    out.mkdir()
    with exclusive(out):
        with pytest.raises(DirectoryBusy, match="another balancelab run"):
            run_study(load_study(str(path)), out, workers=2, progress=False, quiet=True)
    assert not (out / "data").exists()
    man = run_study(load_study(str(path)), out, workers=2, progress=False, quiet=True)
    assert man.games_done == 20


def test_cli_report_calls_the_analysis_report(tmp_path, monkeypatch, capsys):
    from helpers_runs import write_run

    calls = []

    def write_report(run_dir, out_dir, allow_partial=False, siblings_of=None, name=None):
        calls.append((run_dir, allow_partial))
        assert name == siblings_of.name  # the report as the reports beside it know it, not the scratch folder
        (out_dir / "index.html").write_text("<html>report</html>")
        return out_dir / "index.html"

    fake = types.ModuleType("analysis.report")
    fake.write_report = write_report
    monkeypatch.setitem(sys.modules, "analysis.report", fake)
    assert cli.main(["report", str(tmp_path)]) == 2  # not a run directory
    assert "manifest.json" in capsys.readouterr().err
    run = write_run(
        tmp_path / "run", name="coin-mini", game="coin", batch=5,
        cells=[{"id": "fair", "agents": ["random", "random"], "games": 10}],
    )  # fmt: skip
    assert cli.main(["report", str(run), "--report-dir", str(tmp_path / "r")]) == 0
    assert cli.main(["report", str(run)]) == 0
    assert calls == [(run, False), (run, False)]  # rendered privately, then copied into place
    for index in (tmp_path / "r" / "index.html", run / "report" / "index.html"):
        assert index.read_text() == "<html>report</html>"
    assert "index.html" in capsys.readouterr().out


def test_a_continuation_that_plays_nothing_keeps_the_record_of_the_play(write_study, tmp_path):
    """Changing only a study's reading (here its description) and running it again plays nothing:
    the manifest takes the new study but keeps where, when and with what CPU the games were played,
    so a page written afterwards still names the commit and the cost of the play."""
    path = write_study(games=20)
    out = tmp_path / "run"
    run_study(load_study(str(path)), out, workers=2, progress=False, quiet=True)
    first = rundir.read_manifest(out)
    assert first is not None and first.task_cpu_seconds > 0 and first.games_played == 40
    text = path.read_text()
    path.write_text(text.replace('description = "', 'description = "read again: '))
    man = run_study(load_study(str(path)), out, workers=2, progress=False, quiet=True)
    assert man.games_played == 0  # this invocation played nothing
    kept = rundir.read_manifest(out)
    assert kept is not None and kept.study.description.startswith("read again: ")
    for name in ("git_commit", "started", "finished", "wall_seconds", "task_cpu_seconds", "games_played"):
        assert getattr(kept, name) == getattr(first, name), name


def test_every_play_of_a_continued_run_is_recorded_and_an_interrupted_one_gets_its_games(
    write_study, tmp_path
):
    """Three invocations play one directory; the second is left as a crash leaves it (its play
    unfinished, no games counted): the manifest records each play with the games it added, the
    third gives the interrupted one the games it left, and the page names every play."""
    from dataclasses import replace

    from analysis.report import write_report

    path = write_study(games=20)
    out = tmp_path / "run"
    for games in (20, 30):
        run_study(load_study(str(path), games), out, workers=2, progress=False, quiet=True)
    man = rundir.read_manifest(out)
    assert man is not None and [p.games for p in man.plays] == [40, 20]
    assert all(p.finished and p.task_cpu_seconds > 0 and p.wall_seconds for p in man.plays)
    crashed = replace(man.plays[1], finished=None, games=0, wall_seconds=None)
    rundir.write_manifest(out, replace(man, plays=[man.plays[0], crashed]))
    run_study(load_study(str(path), 40), out, workers=2, progress=False, quiet=True)
    man = rundir.read_manifest(out)
    assert man is not None and [p.games for p in man.plays] == [40, 20, 20] and man.games_done == 80
    assert [bool(p.finished) for p in man.plays] == [True, False, True]
    md = (write_report(out, tmp_path / "page").parent / "report.md").read_text()
    commit = man.plays[0].git_commit
    assert "| played in | 3 invocations (continued) |" in md
    assert f"{commit} (40 games), {commit} (20 games, interrupted), {commit} (20 games)" in md
    assert "| wall time (s) | n/a |" in md  # the interrupted play's is not known
