"""File-path variant options (schema ``"path": true``; Hiroba's ``tiles``) through the pipeline:
resolved against the study file, checked up front, hashed into the manifest, shipped to workers,
a changed file refused on resume and replay; the report names the tile set."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib

import pyarrow as pa
import pytest

import balancelab_cli as cli
import rust_core
from analysis.report import write_report
from pipeline import resume
from pipeline.distribute import play_batch
from pipeline.runner import run_study
from pipeline.study import StudyError, load_study
from rust_core import hiroba

STUDY = """\
name = "{name}"
game = "hiroba"
seed = 21
games_per_cell = {games}
pair_seats = true
variant = {{ tiles = "{tiles}" }}
[grid]
players = [2, 3]
agents = ["random", {{ agents = "greedy", games = 6 }}]
"""


def mirrored(text: str, tile: int) -> str:
    """The tile file with one tile mirrored left to right (still valid, another set)."""
    lines = text.splitlines()
    at = lines.index(f"tile {tile}")
    for i in range(at + 1, at + 4):
        lines[i] = "   ".join(reversed(lines[i].split()))
    return "\n".join(lines) + "\n"


def same(a: pa.Table, b: pa.Table) -> bool:
    return a.column_names == b.column_names and all(a[c].equals(b[c]) for c in a.column_names)


def sha(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_study(root: pathlib.Path, name: str = "tiles", games: int = 12, tile: int = 4) -> pathlib.Path:
    """``root/studies/NAME.toml`` with ``tiles = "sets/NAME.txt"`` (relative to the study file)."""
    tiles = root / "studies" / "sets" / f"{name}.txt"
    tiles.parent.mkdir(parents=True, exist_ok=True)
    tiles.write_text(mirrored(hiroba.default_tiles_path().read_text(), tile))
    study = root / "studies" / f"{name}.toml"
    study.write_text(STUDY.format(name=name, games=games, tiles=f"sets/{name}.txt"))
    return study


@pytest.fixture(scope="module")
def tiles_run(ray_local, tmp_path_factory) -> tuple[pathlib.Path, pathlib.Path]:
    """A study with a relative tile file, run on local Ray from another working directory."""
    root = tmp_path_factory.mktemp("paths")
    study = make_study(root)
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    here = os.getcwd()
    os.chdir(elsewhere)
    try:
        run_study(load_study(str(study)), root / "run", workers=2, progress=False, quiet=True)
    finally:
        os.chdir(here)
    return study, root / "run"


def test_relative_tile_file_runs_on_workers_and_its_sha256_is_recorded(tiles_run, read_run, expected_run):
    study_path, out = tiles_run
    tiles = (study_path.parent / "sets" / "tiles.txt").resolve()
    man = json.loads((out / "manifest.json").read_text())
    assert man["study"]["files"] == {str(tiles): sha(tiles)}
    assert {c["variant"]["tiles"] for c in man["study"]["cells"]} == {str(tiles)}
    assert {c["id"]: c["games"] for c in man["study"]["cells"]} == {
        "p2-random": 12,
        "p2-greedy": 6,
        "p3-random": 12,
        "p3-greedy": 6,
    }
    got = read_run(out)
    assert got.num_rows == 2 * 12 + 2 * 6 + 3 * 12 + 3 * 6
    assert same(got, expected_run(study_path))
    # the file was really used: the built-in set gives other games
    builtin = rust_core.simulate("hiroba", {}, ["random"] * 2, 21, 0, 40, pair_seats=True)
    mine = rust_core.simulate("hiroba", {"tiles": str(tiles)}, ["random"] * 2, 21, 0, 40, pair_seats=True)
    assert not builtin.equals(mine)


def test_report_names_the_tile_file_and_its_sha256(tiles_run, tmp_path):
    study_path, out = tiles_run
    tiles = (study_path.parent / "sets" / "tiles.txt").resolve()
    index = write_report(out, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    line = f"| tile set | file {tiles} (sha256 {sha(tiles)[:12]}) |"
    assert line in md
    assert f"Tile set: file {tiles} (sha256 {sha(tiles)[:12]})." in md
    assert "## Hiroba: gardens, kois and pebbles by seat" in md
    page = index.read_text()
    assert f"file {tiles} (sha256 {sha(tiles)[:12]})" in page and "Hiroba: gardens, kois" in page


def test_workers_play_the_shipped_bytes_not_the_path(tmp_path):
    text = mirrored(hiroba.default_tiles_path().read_text(), 9)
    gone = "/nonexistent/balancelab/tiles.txt"
    spec = rust_core.BatchSpec("hiroba", {"tiles": gone}, ["random"] * 2, 3, pair_seats=True)
    table, _, _ = play_batch(spec, 0, 40, {gone: text.encode()})
    # Without the shipped bytes a worker fails: the engine never opens the path itself.
    with pytest.raises(rust_core.EngineError, match="no content was given") as err:
        play_batch(spec, 0, 40)
    assert (err.value.kind, err.value.option, err.value.value) == ("bad_file", "tiles", gone)
    (tmp_path / "t.txt").write_text(text)
    from_file = rust_core.simulate(
        "hiroba", {"tiles": str(tmp_path / "t.txt")}, ["random"] * 2, 3, 0, 40, pair_seats=True
    )
    assert table.drop(["n_players"]).equals(pa.Table.from_batches([from_file]))
    builtin = rust_core.simulate("hiroba", {}, ["random"] * 2, 3, 0, 40, pair_seats=True)
    assert not table.drop(["n_players"]).equals(pa.Table.from_batches([builtin]))


def test_a_changed_tile_file_is_refused_on_resume_and_replay(ray_local, tmp_path, capsys):
    study_path = make_study(tmp_path, "resume", games=4)
    out = tmp_path / "run"
    run_study(load_study(str(study_path)), out, workers=2, progress=False, quiet=True)
    tiles = study_path.parent / "sets" / "resume.txt"
    old, original = sha(tiles), tiles.read_bytes()
    argv = ["replay", "--run", str(out), "--cell", "p2-random", "--game-index", "1"]
    assert cli.main(argv) == 0
    assert "matches the 2 rows recorded" in capsys.readouterr().out
    tiles.write_text(mirrored(tiles.read_text(), 5))
    with pytest.raises(resume.ManifestMismatch) as err:
        run_study(load_study(str(study_path)), out, workers=2, progress=False, quiet=True)
    message = str(err.value)
    assert "files" in message and str(tiles.resolve()) in message and old[:12] in message
    assert cli.main(["run", str(study_path), "--out", str(out), "--no-progress"]) == 2
    assert "changed" in capsys.readouterr().err
    assert cli.main(argv) == 2
    assert "changed since the run" in capsys.readouterr().err
    # the file put back: the run is continued (nothing left to play)
    tiles.write_bytes(original)
    man = run_study(load_study(str(study_path)), out, workers=2, progress=False, quiet=True)
    assert man.games_played == 0


def test_missing_or_bad_tile_files_are_study_errors_naming_the_field(tmp_path, capsys):
    study_path = make_study(tmp_path, "bad")
    text = study_path.read_text()
    study_path.write_text(text.replace('tiles = "sets/bad.txt"', 'tiles = "sets/none.txt"'))
    with pytest.raises(StudyError) as err:
        load_study(str(study_path))
    assert err.value.field == "variant.tiles"
    assert str((study_path.parent / "sets" / "none.txt").resolve()) in err.value.message
    assert "no such file" in err.value.message
    assert cli.main(["run", str(study_path), "--out", str(tmp_path / "out")]) == 2
    assert "variant.tiles" in capsys.readouterr().err and not (tmp_path / "out").exists()
    broken = study_path.parent / "sets" / "broken.txt"
    broken.write_text(hiroba.default_tiles_path().read_text().replace("tile 12", "tile 13"))
    study_path.write_text(
        text.replace('variant = { tiles = "sets/bad.txt" }', "")
        + '[grid.variants]\nmine = { tiles = "sets/broken.txt" }\n'
    )
    with pytest.raises(StudyError) as err:
        load_study(str(study_path))
    assert err.value.field == "grid.variants.mine"
    assert "expected `tile 12`, found `tile 13`" in err.value.message
    # grid.options values are resolved one by one, and cell ids use the values as written
    study_path.write_text(
        text.replace('variant = { tiles = "sets/bad.txt" }', "")
        + '[grid.options]\ntiles = ["sets/bad.txt", "sets/none.txt"]\n'
    )
    with pytest.raises(StudyError) as err:
        load_study(str(study_path))
    assert err.value.field == "grid.options.tiles[1]"
    study_path.write_text(
        text.replace('variant = { tiles = "sets/bad.txt" }', "")
        + '[grid.options]\ntiles = ["sets/bad.txt", "sets/broken.txt"]\n'
    )
    with pytest.raises(StudyError) as err:
        load_study(str(study_path))
    assert err.value.field == "grid.options.tiles" and "tile 13" in err.value.message
    good = study_path.parent / "sets" / "good.txt"
    good.write_text(hiroba.default_tiles_path().read_text())
    study_path.write_text(
        text.replace('variant = { tiles = "sets/bad.txt" }', "")
        + '[grid.options]\ntiles = ["sets/bad.txt", "sets/good.txt"]\n'
    )
    study = load_study(str(study_path))
    assert study.cells[0].id == "p2-tiles_sets-bad-txt-random"
    assert set(study.files) == {
        str((study_path.parent / "sets" / n).resolve()) for n in ("bad.txt", "good.txt")
    }


def test_replay_variant_paths_are_relative_to_the_current_directory(tmp_path, monkeypatch, capsys):
    (tmp_path / "t.txt").write_text(mirrored(hiroba.default_tiles_path().read_text(), 4))
    monkeypatch.chdir(tmp_path)
    argv = ["replay", "hiroba", "--seed", "2", "--game-index", "0", "--json"]
    assert cli.main([*argv, "--variant", "tiles=t.txt"]) == 0
    log = json.loads(capsys.readouterr().out)
    expected = rust_core.replay("hiroba", {"tiles": str(tmp_path / "t.txt")}, ["random"] * 2, 2, 0)
    assert log == expected and log["events"][0]["tile_set"] == "custom"
    assert cli.main([*argv, "--variant", "tiles=missing.txt"]) == 2
    err = capsys.readouterr().err
    assert "--variant: tiles: no such file" in err and str(tmp_path / "missing.txt") in err


def test_a_file_changed_after_loading_the_study_stops_the_run_before_it_starts(tmp_path):
    study_path = make_study(tmp_path, "late")
    study = load_study(str(study_path))
    tiles = study_path.parent / "sets" / "late.txt"
    tiles.write_text(mirrored(tiles.read_text(), 6))
    with pytest.raises(StudyError, match="changed since the study was loaded"):
        run_study(study, tmp_path / "out", workers=2, progress=False, quiet=True)
    assert not (tmp_path / "out").exists()
