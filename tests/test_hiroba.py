"""Hiroba through the Python face: what its metric columns add up to, the replay's final board,
the tile-file option in the schema, the built-in study and its report section (built-in tile set).
What every game owes (columns, determinism, replay rows, tile files) is in test_games_contract.py."""

from __future__ import annotations

import re

from helpers_runs import write_run

import balancelab_cli as cli
import rust_core
from analysis.report import write_report
from pipeline.replay import format_log
from pipeline.study import load_study

METRICS = [
    "gardens_won",
    "gardens_tied",
    "koi_won",
    "koi_placed",
    "koi_points",
    "garden_points",
    "pebbles_placed",
    "passes",
    "stranded",
    "stones_placed",
]


def test_metric_columns_add_up():
    batch = rust_core.simulate("hiroba", {}, ["greedy", "random", "random"], seed=2, start=0, count=6)
    assert [c["name"] for c in rust_core.metric_columns("hiroba")] == METRICS
    t = batch.to_pydict()
    for i in range(batch.num_rows):
        assert 0 <= t["pebbles_placed"][i] <= 9 and t["passes"][i] in (0, 1)
        assert t["passes"][i] == 0 or t["pebbles_placed"][i] < 9
        # `passes` counts every player left with pebbles, `stranded` how many they kept.
        assert t["stranded"][i] == 9 - t["pebbles_placed"][i]
        assert t["passes"][i] == int(t["stranded"][i] > 0)
        assert (
            t["koi_placed"][i] <= t["koi_won"][i]
            and t["koi_points"][i] == t["koi_won"][i] - t["koi_placed"][i]
        )
        assert t["score"][i] == t["garden_points"][i] + t["koi_points"][i]


def test_replay_ends_with_the_board():
    variant = {"line_rule": "last"}
    agents = ["greedy", "random", "random"]
    rows = rust_core.simulate("hiroba", variant, agents, 9, 4, 1, pair_seats=True).to_pylist()
    log = rust_core.replay("hiroba", variant, agents, 9, 4, pair_seats=True)
    assert log["events"][0]["event"] == "setup"
    board = log["events"][-1]
    assert board["event"] == "board" and len(board["rows"]) == 9
    pebbles = sum(len(re.findall(r"\b[1-9][a-d]\b", r)) for r in board["rows"])
    assert pebbles == sum(r["pebbles_placed"] for r in rows)
    text = format_log(log)
    # the final board is printed as a grid of 9 rows, one per line, after the board event
    tail = text.split("\n  board:", 1)[1].splitlines()
    assert tail[1].strip() == "rows:"
    assert [line.strip() for line in tail[2:11]] == [r.strip() for r in board["rows"]]
    assert "turn order: position 0 = player" in text
    assert re.search(r"player \d: pebble ", text)  # actions named by their type
    assert f"score {rows[0]['score']} " in text and "gardens_won=" in text


def test_cli_replay_prints_the_board(capsys):
    argv = ["replay", "hiroba", "--seed", "3", "--game-index", "1", "--agents", "greedy", "random"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    rows = out.split("\n  board:", 1)[1].split("result:")[0].splitlines()[2:]
    assert len(rows) == 9 and all(r.count("|") == 2 for r in rows)


def test_schema_marks_tiles_as_a_path_option():
    schema = {o["name"]: o for o in rust_core.variant_schema("hiroba")}
    rules = ["rotate_tiles", "line_rule", "water_tiles", "stones_on_start", "stone_turns"]
    assert set(schema) == {*rules, "tiles"}
    assert [n for n, o in schema.items() if o["path"]] == ["tiles"]
    assert not any(o["path"] for o in rust_core.variant_schema("alhambra"))


def test_builtin_study_is_greedy_and_mcts_on_the_default_rules():
    study = load_study("hiroba-start-player")
    assert {c.agents[0].split(":")[0] for c in study.cells} == {"greedy", "mcts"}
    assert all(cell.variant == {} for cell in study.cells)
    greedy = [c.games for c in study.cells if c.agents[0] == "greedy"]
    mcts = [c.games for c in study.cells if c.agents[0].startswith("mcts")]
    assert min(greedy) > 10 * max(mcts)
    # --games changes the greedy cells only; the mcts line-up keeps its own count
    small = load_study("hiroba-start-player", 40)
    assert [c.games for c in small.cells if c.agents[0] == "greedy"] == [40, 42, 40]
    assert [c.games for c in small.cells if c.agents[0] != "greedy"] == mcts


def test_report_has_the_hiroba_section_and_the_builtin_tile_set(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="hiroba-mini",
        game="hiroba",
        pair_seats=True,
        cells=[
            {"id": "p2", "label": "2 players", "agents": ["greedy"] * 2, "games": 40},
            {"id": "p4", "label": "4 players", "agents": ["random"] * 4, "games": 40},
        ],
    )
    index = write_report(run, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    page = index.read_text()
    assert "## Hiroba: gardens, kois and pebbles by seat" in md and "Hiroba: gardens, kois" in page
    assert "| tile set | built-in (the engine's own set, rust_core/src/games/hiroba/hiroba_tiles.txt" in md
    header = next(x for x in md.splitlines() if x.startswith("| cell | seat | gardens won outright"))
    for label in ("gardens tied", "kois won", "kois placed", "pebbles placed", "pass rate", "stones placed"):
        assert label in header
    section = md.split("## Hiroba", 1)[1].split("\n## ", 1)[0]
    rows = [x for x in section.splitlines() if x.startswith("| 2 players") or x.startswith("| 4 players")]
    assert len(rows) == 2 + 4
    # the start player is dealt 2 stones, the last of 4 players none
    assert rows[0].endswith("| 2.00 [2.00, 2.00] |") and rows[-1].endswith("| 0.00 [0.00, 0.00] |")
    assert "Dirk" not in md and "adjusted for starting hand" not in page
