"""Maharaja through the Python face: its metric columns, replay with revealed wheels and scorings,
another map, the built-in study and its report section (built-in map, start player named). What
every game owes (columns, determinism, replay rows, map files) is in test_games_contract.py."""

from __future__ import annotations

import pathlib
import re

from helpers_runs import write_run

import rust_core
from analysis.report import write_report
from pipeline.replay import format_log
from pipeline.study import load_study
from rust_core import maharaja

METRICS = [
    "palaces_built",
    "houses_built",
    "houses_moved",
    "gold_end",
    "first_character",
    "last_character",
    "characters_held",
    "forfeits",
    "tolls_paid",
    "tolls_received",
    "scoring_gold",
    "scorings_present",
    "rounds",
    "end_reason",
    *[f"city_{k}_round" for k in range(1, 8)],
]


def test_metric_columns_follow_the_rounds_and_the_characters():
    batch = rust_core.simulate("maharaja", {}, ["greedy", "random", "random"], seed=2, start=0, count=6)
    assert [c["name"] for c in rust_core.metric_columns("maharaja")] == METRICS
    t = batch.to_pydict()
    for i in range(batch.num_rows):
        assert t["score"][i] == t["palaces_built"][i] <= 7
        assert t["end_reason"][i] in (1, 2, 3) and t["rounds"][i] == t["turns"][i]
        assert t["capped"][i] == int(t["end_reason"][i] == 3), "the round limit is the safety net"
        assert 1 <= t["first_character"][i] <= 6 and t["characters_held"][i] == 1
        rounds = [t[f"city_{k}_round"][i] for k in range(1, 8)]
        scored = sorted(r for r in rounds if r is not None)
        assert len(set(scored)) == len(scored) and all(1 <= r <= t["rounds"][i] for r in scored)
    # the start player (seat 0) holds the lowest character of the game
    for g in set(t["game_index"]):
        rows = [i for i in range(batch.num_rows) if t["game_index"][i] == g]
        seat0 = next(i for i in rows if t["seat"][i] == 0)
        assert t["first_character"][seat0] == min(t["first_character"][i] for i in rows)


def test_replay_shows_wheels_travel_builds_and_scorings():
    agents = ["greedy", "random", "random"]
    rows = rust_core.simulate("maharaja", {}, agents, 9, 4, 1, pair_seats=True).to_pylist()
    log = rust_core.replay("maharaja", {}, agents, 9, 4, pair_seats=True)
    events = [e["event"] for e in log["events"]]
    assert events[0] == "setup"
    rounds = [e for e in log["events"] if e["event"] == "round"]
    scorings = [e for e in log["events"] if e["event"] == "scoring"]
    assert len(rounds) == len(scorings) == rows[0]["rounds"]
    shown = [e for e in log["events"] if e["event"] == "turn"]
    assert all(len(e["wheel"]) == 2 for e in shown) and len(shown) == 3 * len(rounds)
    # rule events name players by turn-order position, never by agent index
    assert log["events"][0]["map"] == "built-in" and log["events"][0]["variant"]["gold"] == "hidden"
    assert all("player" not in e for e in log["events"] if e["event"] != "action")
    assert all("options" in e for e in log["events"] if e["event"] == "action"), "only the runner's actions"
    assert sorted({e["position"] for e in shown}) == [0, 1, 2]
    assert "travel" in events and "game_end" in events
    text = format_log(log)
    assert "\\u" not in text
    assert re.search(r"turn: .*wheel=\[", text) and re.search(r"travel: .*route=\[", text)
    assert re.search(r"scoring: city=\"\w+\" .*ranking_positions=", text)


def test_schema_marks_map_as_a_path_option():
    schema = {o["name"]: o for o in rust_core.variant_schema("maharaja")}
    rules = ["short", "one_palace_per_city", "advanced_1", "advanced_2", "reveal"]
    readings = ["route", "gold", "powers", "repick"]
    assert set(schema) == {*rules, *readings, "map"}
    assert [n for n, o in schema.items() if o["path"]] == ["map"]


def _map_file(tmp_path: pathlib.Path, old: str, new: str) -> pathlib.Path:
    text = maharaja.default_map_path().read_text()
    assert old in text
    path = tmp_path / "map.txt"
    path.write_text(text.replace(old, new, 1))
    return path


def test_another_map_changes_the_games(tmp_path):
    path = _map_file(tmp_path, "road Delhi Jaipur   1", "road Delhi Jaipur   2")
    a = rust_core.simulate("maharaja", {"map": str(path)}, ["random"] * 3, 5, 0, 20)
    b = rust_core.simulate("maharaja", {}, ["random"] * 3, 5, 0, 20)
    assert not a.equals(b)


def test_builtin_study_is_greedy_and_mcts_on_the_default_rules():
    study = load_study("maharaja-start-player")
    assert {c.agents[0].split(":")[0] for c in study.cells} == {"greedy", "mcts"}
    assert all(cell.variant == {} for cell in study.cells)


def test_report_has_the_maharaja_section_the_map_and_the_start_player(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="maharaja-mini",
        game="maharaja",
        pair_seats=True,
        cells=[
            {"id": "p2", "label": "2 players", "agents": ["greedy"] * 2, "games": 40},
            {"id": "p3", "label": "3 players", "agents": ["random"] * 3, "games": 42},
        ],
    )
    index = write_report(run, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    assert "## Maharaja: palaces, gold and houses by seat" in md
    assert "| map | built-in (the engine's own map, rust_core/src/games/maharaja/maharaja_map.txt" in md
    assert "whoever holds the lowest character when the first round begins" in md
    header = next(x for x in md.splitlines() if x.startswith("| cell | seat | palaces built"))
    for label in ("gold at the end", "houses built", "forfeited actions", "gold from scorings", "tolls paid"):
        assert label in header
    section = md.split("## Maharaja", 1)[1].split("\n## ", 1)[0]
    seat_rows = [x for x in section.splitlines() if re.match(r"\| [23] players, \w+ \| \d \|", x)]
    assert len(seat_rows) == 2 + 3
    assert "governor track" in section and "mean rounds" in section
