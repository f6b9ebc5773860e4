"""Taluva through the Python face: its metric columns, replay with the final map, the variant
options, the built-in study and its report section. What every game owes (columns, determinism,
replay rows, options refused with the allowed values) is in test_games_contract.py."""

from __future__ import annotations

import json

import pytest
from helpers_runs import write_run

import rust_core
from analysis.games.taluva import derived
from analysis.report import write_report
from pipeline.replay import format_log
from pipeline.study import load_study

METRICS = [
    "end_reason",
    "temples",
    "towers",
    "huts",
    "huts_lost",
    "eliminated",
    "elimination_turn",
    "tiles_placed",
    "eruptions",
]


def test_metric_columns_count_the_buildings_and_the_tiles():
    batch = rust_core.simulate("taluva", {}, ["greedy", "random", "random"], seed=2, start=0, count=6)
    assert [c["name"] for c in rust_core.metric_columns("taluva")] == METRICS
    t = batch.to_pydict()
    for i in range(batch.num_rows):
        assert 0 <= t["temples"][i] <= 3 and 0 <= t["towers"][i] <= 2 and 0 <= t["huts"][i] <= 20
        assert t["huts_lost"][i] <= t["huts"][i] and t["eruptions"][i] <= t["tiles_placed"][i]
        assert t["end_reason"][i] in (0, 1, 2)
        assert (t["elimination_turn"][i] is None) == (t["eliminated"][i] == 0)
    # per game: tiles placed add up to at most 48, one end reason
    for g in set(t["game_index"]):
        rows = [i for i in range(batch.num_rows) if t["game_index"][i] == g]
        assert sum(t["tiles_placed"][i] for i in rows) <= 48
        assert len({t["end_reason"][i] for i in rows}) == 1


def test_tiles_per_player_limits_the_game():
    batch = rust_core.simulate("taluva", {"tiles": 12}, ["random"] * 3, seed=4, start=0, count=20)
    t = batch.to_pydict()
    for g in set(t["game_index"]):
        rows = [i for i in range(batch.num_rows) if t["game_index"][i] == g]
        placed = sum(t["tiles_placed"][i] for i in rows)
        assert placed <= 36
        if t["end_reason"][rows[0]] == 2:
            assert placed == 36


@pytest.mark.parametrize(
    ("variant", "needle"),
    [
        ({"tiles": 0}, "tiles"),
        ({"tiles": 13}, "tiles"),  # 4 players x 13 > 48
        ({"tiles": 25}, "tiles"),
        ({"lost_huts": True}, "lost_huts"),
        ({"eliminated": 1}, "eliminated"),
    ],
)
def test_bad_option_values_other_than_words_are_refused_naming_them(variant, needle):
    with pytest.raises(ValueError, match=needle):
        rust_core.validate("taluva", variant, ["random"] * 4)


def test_switches_are_listed_and_normal_forms_merge_all_tiles():
    names = [o["name"] for o in rust_core.variant_schema("taluva")]
    assert names == ["tiles", "new_hut", "expansion", "eruption_levels", "lost_huts", "eliminated"]
    full = rust_core.normalize_variant("taluva", {}, 4)
    assert full == rust_core.normalize_variant("taluva", {"tiles": 12}, 4)
    assert full["tiles"] == "all" and full["eliminated"] == "by_turn" and set(full) == set(names)
    assert rust_core.normalize_variant("taluva", {"tiles": 12}, 3)["tiles"] == 12
    with pytest.raises(ValueError, match="tiles"):
        rust_core.normalize_variant("taluva", {"tiles": 13}, 4)


@pytest.mark.parametrize(
    "variant", [{"eruption_levels": "any"}, {"lost_huts": "not_placed"}, {"eliminated": "zero"}]
)
def test_each_new_switch_plays_and_the_log_has_the_deal(variant):
    agents = ["greedy", "random", "greedy"]
    rows = rust_core.simulate("taluva", variant, agents, 5, 0, 6, pair_seats=True).to_pylist()
    assert len(rows) == 18
    log = rust_core.replay("taluva", variant, agents, 5, 2, pair_seats=True)
    setup = log["events"][0]
    assert setup["variant"][next(iter(variant))] == next(iter(variant.values()))
    order = setup["tile_order"]
    assert len(order) == 48 and setup["tiles_not_in_game"] == []
    placed = [e["action"]["tile"] for e in log["events"] if e["event"] == "action" and "tile" in e["action"]]
    assert placed == order[: len(placed)], "tiles are drawn in the logged order"


def test_replay_ends_with_the_map():
    variant = {"expansion": "connected", "new_hut": "not_adjacent"}
    agents = ["greedy", "random"]
    rows = rust_core.simulate("taluva", variant, agents, 9, 3, 1, pair_seats=True).to_pylist()
    log = rust_core.replay("taluva", variant, agents, 9, 3, pair_seats=True)
    events = log["events"]
    assert events[0]["event"] == "setup" and events[0]["variant"]["expansion"] == "connected"
    placing = ("extend", "eruption")
    placements = [e for e in events if e["event"] == "action" and e["action"]["type"] in placing]
    assert len(placements) == sum(r["tiles_placed"] for r in rows)
    first = placements[0]["action"]
    assert first["volcano"] == [0, 0] and first["rotation"] == 4 and len(first["hexes"]) == 3
    assert [e["event"] for e in events[-2:]] == ["game_end", "map"]
    text = format_log(log)
    tail = text.split("\n  map:", 1)[1].splitlines()
    assert tail[1].strip() == "rows:" and tail[2].strip().startswith("r=")
    # every hex of land is in the map: 3 per tile at sea level
    tokens = sum(len(r.split()) - 1 for r in events[-1]["rows"])
    extends = sum(1 for p in placements if p["action"]["type"] == "extend")
    assert tokens == 3 * extends


def test_builtin_study_plays_all_tiles_and_12_per_player():
    study = load_study("taluva-start-player")
    assert {c.agents[0].split(":")[0] for c in study.cells} == {"greedy", "mcts"}
    assert {json.dumps(c.variant, sort_keys=True) for c in study.cells} == {"{}", '{"tiles": 12}'}
    # 12 tiles per player at 4 players is all 48: one cell per line-up, its label says so
    four = [c for c in study.cells if c.n_players == 4]
    assert [c.variant for c in four] == [{}, {}] and all("(= p4-tiles_12" in c.label for c in four)
    assert len([c for c in study.cells if c.n_players == 3]) == 4


def test_end_reason_indicators_split_the_wins():
    import polars as pl

    rows = pl.DataFrame({"win": [1.0, 0.0, 0.5, 0.5], "end_reason": [0, 0, 2, 2]})
    d = derived(rows)
    assert d["won_two_kinds"].to_list() == [1.0, 0.0, 0.0, 0.0]
    assert d["won_tiles_out"].to_list() == [0.0, 0.0, 0.5, 0.5]
    assert d["ended_two_kinds"].to_list() == [1.0, 1.0, 0.0, 0.0]


def test_report_has_the_taluva_section(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="taluva-mini",
        game="taluva",
        pair_seats=True,
        cells=[
            {"id": "p2", "label": "2 players", "agents": ["greedy"] * 2, "games": 40},
            {
                "id": "p3",
                "label": "3 players, 12 tiles",
                "agents": ["random"] * 3,
                "games": 30,
                "variant": {"tiles": 12},
            },
        ],
    )
    index = write_report(run, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    assert "## Taluva: buildings, eliminations and how games end, by seat" in md
    header = next(x for x in md.splitlines() if x.startswith("| cell | seat | temples (of 3)"))
    for label in ("towers (of 2)", "huts (of 20)", "eliminated", "won by two kinds", "won at tiles out"):
        assert label in header
    section = md.split("## Taluva", 1)[1].split("\n## ", 1)[0]
    rows = [x for x in section.splitlines() if x.startswith("| ") and "[" in x]
    assert len(rows) == 2 + 3


def test_builtin_switch_study_has_each_switch_alone():
    study = load_study("taluva-switches")
    switched = {next(iter(c.variant), "defaults") for c in study.cells}
    names = {o["name"] for o in rust_core.variant_schema("taluva")}
    assert switched == names | {"defaults"}
    greedy = [c for c in study.cells if c.agents == ["greedy"] * c.n_players]
    assert all(len(c.variant) <= 1 for c in study.cells)
    assert len(greedy) == 3 * 7 - 1  # p4-tiles_12 is all 48 tiles: merged into p4-defaults
    search = [c for c in study.cells if c not in greedy]
    assert {next(iter(c.variant), "defaults") for c in search} == {"defaults", "eliminated"}
    assert {c.n_players for c in search} == {3}
