"""Titania through the Python face: its metric columns, replay with every kind of event and the
final board, board files (replaced, refused with exit status 2 naming the space), the built-in
study and its report section (built-in board). What every game owes (columns, determinism, replay
rows, the packaged board, broken boards) is in test_games_contract.py."""

from __future__ import annotations

import pathlib
import re

import pytest
from helpers_runs import write_run

import balancelab_cli as cli
import rust_core
from analysis.games.titania import boards
from analysis.report import write_report
from pipeline.replay import format_log
from pipeline.study import load_study
from rundir import Cell, EngineSpec, Manifest, Study
from rust_core import titania

METRICS = [
    "tower_points",
    "decoration_points",
    "score_tile_points",
    "space_points",
    "shells_left",
    "starfish_left",
    "floors_built",
    "ships_placed",
    "cards_played",
    "epoch_1_turns",
    "epoch_2_turns",
    "end_reason",
]


def test_metric_columns_add_up():
    batch = rust_core.simulate("titania", {}, ["greedy", "random", "random"], seed=2, start=0, count=6)
    assert [c["name"] for c in rust_core.metric_columns("titania")] == METRICS
    t = batch.to_pydict()
    for i in range(batch.num_rows):
        parts = ("tower_points", "decoration_points", "score_tile_points", "space_points")
        assert t["score"][i] == sum(t[c][i] for c in parts)
        assert t["tower_points"][i] >= 3 * t["floors_built"][i]
        assert t["ships_placed"][i] >= t["cards_played"][i]
        assert t["epoch_1_turns"][i] > 0 and t["epoch_2_turns"][i] > 0
        assert t["epoch_1_turns"][i] + t["epoch_2_turns"][i] == t["turns"][i]
        assert t["end_reason"][i] == 0, "normal games, not the turn cap"


def test_greedy_beats_random():
    agents = ["greedy", "random"]
    t = rust_core.simulate("titania", {}, agents, seed=3, start=0, count=100, pair_seats=True).to_pydict()
    greedy = sum(w for w, p in zip(t["win"], t["player"], strict=True) if p == 0)
    assert greedy >= 95


def test_replay_shows_every_play_ship_reward_floor_and_the_final_board():
    agents = ["greedy", "greedy"]
    rows = rust_core.simulate("titania", {}, agents, 9, 4, 1, pair_seats=True).to_pylist()
    log = rust_core.replay("titania", {}, agents, 9, 4, pair_seats=True)
    kinds = {e["event"] for e in log["events"]}
    assert {"setup", "ship", "fog_revealed", "reward", "floor", "epoch_end", "final_scores", "board"} <= kinds
    assert log["events"][0]["board"] == "built-in"
    board = log["events"][-1]
    assert board["event"] == "board" and len(board["rows"]) == 11 and len(board["towers"]) == 15
    text = format_log(log)
    assert re.search(r"player \d: play card=", text) and re.search(r"player \d: build colour=", text)
    assert "\n    rows:\n" in text and "\n    towers:\n" in text
    assert f"score {rows[0]['score']} " in text and "tower_points=" in text


def test_schema_defaults_and_rules_version():
    schema = {o["name"]: o for o in rust_core.variant_schema("titania")}
    assert list(schema) == ["board", "tiebreak", "draw", "epoch_2_start"]
    assert schema["board"]["path"] and schema["board"]["default"] is None
    assert schema["tiebreak"]["default"] == "components" and schema["draw"]["default"] == "up_to"
    assert rust_core.rules_version("titania") == 2


@pytest.mark.parametrize(
    "variant", [{"tiebreak": "uncapped"}, {"draw": "all_or_none"}, {"epoch_2_start": "start_player"}]
)
def test_each_rule_switch_plays_and_is_logged(variant):
    agents = ["greedy", "random", "greedy"]
    rows = rust_core.simulate("titania", variant, agents, 6, 0, 3, pair_seats=True).to_pylist()
    assert len(rows) == 9 and all(r["end_reason"] == 0 for r in rows)
    log = rust_core.replay("titania", variant, agents, 6, 1, pair_seats=True)
    setup = log["events"][0]
    (name, value), *_ = variant.items()
    assert setup["rules"][name] == value and setup["start_position"] == 0
    assert len(setup["board_lines"]) == setup["spaces"] + 22 + 30  # spaces, fog tiles, score tiles
    final = next(e for e in log["events"] if e["event"] == "final_scores")
    assert final["end_reason"] == "normal" and all("hand" in p for p in final["players"])
    for e in log["events"]:
        if e["event"] != "action":
            assert "player" not in e, e


def _board_file(tmp_path: pathlib.Path, old: str, new: str) -> pathlib.Path:
    text = titania.default_board_path().read_text()
    assert old in text
    path = tmp_path / "board.txt"
    path.write_text(text.replace(old, new, 1))
    return path


#: A board with no crane next to one site (the other broken boards: tests/test_games_contract.py).
NO_CRANE = (
    "space   4  -2  crane",
    "space   4  -2  reward  points:1",
    "space (4, -1) site: no crane next to it",
)


def test_cli_refuses_a_bad_board_with_exit_2(tmp_path, monkeypatch, capsys):
    old, new, needle = NO_CRANE
    _board_file(tmp_path, old, new)
    monkeypatch.chdir(tmp_path)
    argv = ["replay", "titania", "--seed", "1", "--game-index", "0", "--variant", "board=board.txt"]
    assert cli.main(argv) == 2
    assert needle in capsys.readouterr().err
    study = tmp_path / "bad.toml"
    study.write_text(
        'name = "bad"\ngame = "titania"\nseed = 1\ngames_per_cell = 4\nvariant = { board = "board.txt" }\n'
        '[grid]\nplayers = [2]\nagents = ["random"]\n'
    )
    assert cli.main(["run", str(study), "--out", str(tmp_path / "out")]) == 2
    assert needle in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_a_replaced_board_plays_and_is_named(tmp_path):
    # The same board with one reward changed: valid, another board.
    path = _board_file(tmp_path, "space   3  -2  reward  shells:white:1", "space   3  -2  reward  points:3")
    log = rust_core.replay("titania", {"board": str(path)}, ["greedy"] * 2, 1, 0)
    assert log["events"][0]["board"] == str(path)
    cells = [
        Cell("p2", "p2", 2, {"board": str(path)}, ["greedy"] * 2, 2),
        Cell("p3", "p3", 3, {}, ["greedy"] * 3, 3),
    ]
    study = Study("t", "", "titania", 1, 2, False, "test", cells, files={str(path): "ab" * 32})
    manifest = Manifest(study, EngineSpec({}, {}), {}, None, "test", "", "")
    assert boards(manifest) == [
        {"source": str(path), "sha256": "ab" * 32, "cells": ["p2"]},
        {"source": "built-in", "sha256": None, "cells": ["p3"]},
    ]


def test_builtin_study_is_greedy_and_mcts_on_the_default_rules():
    study = load_study("titania-start-player")
    assert {c.agents[0].split(":")[0] for c in study.cells} == {"greedy", "mcts"}
    assert all(cell.variant == {} for cell in study.cells)
    small = load_study("titania-start-player", 40)
    assert [c.games for c in small.cells if c.agents[0] == "greedy"] == [40, 42, 40]


def test_report_has_the_titania_section_and_the_builtin_board(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="titania-mini",
        game="titania",
        pair_seats=True,
        cells=[
            {"id": "p2", "label": "2 players", "agents": ["greedy"] * 2, "games": 40},
            {"id": "p4", "label": "4 players", "agents": ["random"] * 4, "games": 40},
        ],
    )
    index = write_report(run, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    assert "## Titania: points, towers and ships by seat" in md
    assert "| board | built-in (the engine's own design, rust_core/src/games/titania/titania_board.txt" in md
    header = next(x for x in md.splitlines() if x.startswith("| cell | seat | tower points"))
    for label in ("decoration points", "score tiles", "floors built", "ships placed", "shells left"):
        assert label in header
    section = md.split("## Titania", 1)[1].split("\n## ", 1)[0]
    rows = [x for x in section.splitlines() if x.startswith("| 2 players") or x.startswith("| 4 players")]
    assert len(rows) == 2 + 4 + 2  # per seat, then the epoch lengths per cell
    assert "turns of epoch 1" in section


def test_builtin_switch_study_has_each_rule_switch_alone():
    study = load_study("titania-switches")
    switched = {next(iter(c.variant), "defaults") for c in study.cells}
    names = {o["name"] for o in rust_core.variant_schema("titania")} - {"board"}
    greedy = [c for c in study.cells if c.agents == ["greedy"] * c.n_players]
    assert switched == names | {"defaults"} and len(greedy) == 3 * 4
    assert {c.n_players for c in study.cells if c not in greedy} == {2}, "the search rung: 2 players"
