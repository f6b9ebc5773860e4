"""The positions table: a study's second table of sampled decisions, under the run contract."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import rundir
import rust_core
from pipeline import sink
from pipeline.runner import run_study
from pipeline.study import load_study

pytestmark = pytest.mark.usefixtures("ray_local")

STUDY = """\
name = "positions"
game = "hiroba"
seed = 3
games_per_cell = 24
pair_seats = true
record_positions = {record}

[grid]
players = [2]
agents = ["greedy"]
"""


def study_at(tmp_path: Path, record: bool = True) -> Path:
    path = tmp_path / f"study-{record}.toml"
    path.write_text(STUDY.format(record=str(record).lower()))
    return path


def positions(out: Path) -> pl.DataFrame:
    frame = pl.concat([pl.read_parquet(p) for p in rundir.positions_paths(out)])
    return frame.sort("game_index", "player")


def test_rows_are_the_same_for_any_worker_count_and_batch_size(tmp_path: Path) -> None:
    study = load_study(str(study_at(tmp_path)))
    one, two = tmp_path / "one", tmp_path / "two"
    run_study(study, one, workers=1, batch_games=24, progress=False, quiet=True)
    run_study(study, two, workers=2, batch_games=5, progress=False, quiet=True)
    a, b = positions(one), positions(two)
    assert a.height == 48 and a.equals(b)
    names = rust_core.feature_names("hiroba")
    assert [c for c in a.columns if c.startswith("f_")] == [f"f_{n}" for n in names]
    # One row per (game, player); the win is the player's win in the games table.
    assert a.select("game_index", "player").is_unique().all()
    games = pl.read_parquet(one / "data").sort("game_index", "player")
    assert a["win"].to_list() == games["win"].to_list()
    assert (a["decision"] < a["decisions"]).all()


def test_a_damaged_positions_file_is_played_again(tmp_path: Path) -> None:
    study = load_study(str(study_at(tmp_path)))
    out = tmp_path / "run"
    run_study(study, out, workers=1, batch_games=8, progress=False, quiet=True)
    before = positions(out)
    victim = sorted((out / "positions").rglob("*.parquet"))[1]
    victim.write_bytes(b"not parquet")
    scan = sink.scan(out, study)
    assert [why for _, why in scan.removed] and not victim.exists()
    assert scan.games(study.cells[0].id) == 16  # the games of the damaged positions file are due again
    run_study(study, out, workers=1, batch_games=8, progress=False, quiet=True)
    assert positions(out).equals(before)


def test_recording_positions_is_part_of_the_identity_only_when_set(tmp_path: Path) -> None:
    on = load_study(str(study_at(tmp_path, True)))
    off = load_study(str(study_at(tmp_path, False)))
    assert on.record_positions and not off.record_positions
    assert "record_positions" not in off.identity() and on.hash() != off.hash()
    out = tmp_path / "plain"
    run_study(off, out, workers=1, batch_games=24, progress=False, quiet=True)
    assert not (out / "positions").exists()
    with pytest.raises(rundir.IncompleteRun, match="record_positions"):
        rundir.positions_paths(out)


def test_a_label_search_values_each_position_without_changing_the_games() -> None:
    spec = rust_core.BatchSpec("taluva", {}, ["greedy", "greedy"], 7, pair_seats=True)
    plain_games, plain = (pl.from_arrow(b) for b in spec.simulate_positions(0, 6))
    games, labelled = (pl.from_arrow(b) for b in spec.simulate_positions(0, 6, "mcts:iters=20"))
    assert games.equals(plain_games)
    assert labelled.drop("value").equals(plain.drop("value"))
    assert plain["value"].is_nan().all()
    values = labelled["value"].filter(labelled["value"].is_not_nan())
    assert values.len() > 0 and values.is_between(0, 1).all()
    # Another split of the games labels every position the same.
    _, head = spec.simulate_positions(0, 2, "mcts:iters=20")
    _, tail = spec.simulate_positions(2, 4, "mcts:iters=20")
    parts = pl.concat([pl.from_arrow(head), pl.from_arrow(tail)])  # type: ignore[list-item]
    assert parts["value"].equals(labelled["value"])
    # Another label agent, another value.
    _, other = spec.simulate_positions(0, 6, "mcts:iters=200")
    assert not pl.from_arrow(other)["value"].equals(labelled["value"])  # type: ignore[union-attr]
