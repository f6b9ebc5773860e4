"""The public Python API of rust_core (issue 2): names, columns, errors, timing, paired seats,
replay, and the Alhambra rule helpers on the reference's worked examples. Determinism and replay
rows for every game (Alhambra's variants included) are in test_games_contract.py."""

from __future__ import annotations

import pyarrow as pa
import pytest

import rust_core
from rust_core import alhambra

TWO = ["random", "random"]


def test_names_and_schema() -> None:
    assert "alhambra" in rust_core.games()
    assert {"random", "greedy", "mcts"} <= set(rust_core.agents())
    schema = {o["name"]: o for o in rust_core.variant_schema("alhambra")}
    assert set(schema) == {
        "start_player",
        "hole_rule",
        "wall_rule",
        "leftover_rule",
        "money_copies",
        "dirk",
        "dirk_tiles",
        "open_hands",
    }
    assert schema["hole_rule"]["default"] == "area"
    assert schema["dirk_tiles"]["default"] == [6, 6, "third"]
    assert all(o["description"] and o["allowed"] for o in schema.values())


def test_simulate_columns_one_row_per_player_per_game() -> None:
    batch = rust_core.simulate("alhambra", {}, TWO, seed=3, start=0, count=50)
    assert isinstance(batch, pa.RecordBatch)
    assert batch.num_rows == 100
    t = batch.to_pydict()
    for col in [
        "game_index",
        "deal_index",
        "player",
        "seat",
        "agent",
        "score",
        "rank",
        "win",
        "turns",
        "capped",
        "start_money_cards",
        "start_money_value",
        "score_1",
        "score_2",
        "score_3",
        "longest_wall",
        "city_tiles",
        "reserve_tiles",
        "dirk_score",
    ]:
        assert col in t, col
    assert batch.schema.field("dirk_score").nullable
    assert batch.schema.field("score").metadata[b"description"]
    for g in range(50):
        rows = [i for i in range(100) if t["game_index"][i] == g]
        assert sorted(t["player"][i] for i in rows) == [0, 1]
        assert sorted(t["seat"][i] for i in rows) == [0, 1]
        assert sum(t["win"][i] for i in rows) == pytest.approx(1.0)
        best = max(t["score"][i] for i in rows)
        for i in rows:
            assert (t["rank"][i] == 1) == (t["score"][i] == best)
            assert t["score_3"][i] == t["score"][i]
            assert t["dirk_score"][i] is not None
        # The start player (seat 0) was dealt the fewest cards.
        start = next(i for i in rows if t["seat"][i] == 0)
        assert all(t["start_money_cards"][start] <= t["start_money_cards"][i] for i in rows)
    no_dirk = rust_core.simulate("alhambra", {"dirk": False}, TWO, 3, 0, 5).to_pydict()
    assert set(no_dirk["dirk_score"]) == {None}


def test_ties_share_the_win() -> None:
    batch = rust_core.simulate("alhambra", {}, ["random"] * 4, 1, 0, 400).to_pydict()
    wins: dict[int, float] = {}
    for g, w in zip(batch["game_index"], batch["win"], strict=True):
        wins[g] = wins.get(g, 0.0) + w
    assert all(v == pytest.approx(1.0) for v in wins.values())
    assert {w for w in batch["win"]} >= {0.0, 1.0}


@pytest.mark.parametrize(
    ("game", "variant", "agents", "needle"),
    [
        ("chess", {}, TWO, 'unknown game "chess"; allowed: alhambra'),
        ("alhambra", {"hole": "area"}, TWO, 'unknown variant option "hole"'),
        ("alhambra", {"hole_rule": "square"}, TWO, 'allowed: "area" | "cell"'),
        ("alhambra", {"dirk_tiles": [6, 6]}, TWO, "dirk_tiles"),
        ("alhambra", {"money_copies": 9}, TWO, "money_copies"),
        ("alhambra", {}, ["random", "smart"], 'unknown agent "smart"; allowed: random, greedy, mcts'),
        ("alhambra", {}, ["random", "mcts:iters=0"], "iters=0"),
        ("alhambra", {}, ["random", "mcts:width=3"], 'unknown parameter "width"'),
        ("alhambra", {}, ["random", "mcts:depth=x"], "depth=x: allowed an integer 0..=100000"),
        ("alhambra", {}, ["random"] * 7, "2 to 6 players"),
    ],
)
def test_bad_input_names_the_culprit_and_the_allowed(game, variant, agents, needle) -> None:
    with pytest.raises(ValueError, match=None) as err:
        rust_core.simulate(game, variant, agents, 1, 0, 1)
    assert needle in str(err.value)


def test_simulate_timed_plays_the_same_games_and_times_each_agent() -> None:
    spec = rust_core.BatchSpec("hiroba", {}, ["mcts:iters=100", "random"], 3, pair_seats=True)
    games, clocks = spec.simulate_timed(0, 4)
    assert games.equals(spec.simulate(0, 4))
    log = spec.replay(1)
    mine = [e for e in log["events"] if e["event"] == "action" and e["player"] == 1]
    one = spec.simulate_timed(1, 1)[1]
    assert (one[1].decisions, one[1].searched) == (len(mine), sum(e["options"] > 1 for e in mine))
    assert all(c.searched <= c.decisions for c in clocks)
    assert clocks[0].ms_per_searched > clocks[1].ms_per_searched > 0
    assert rust_core.AgentClock(0.0, 3, 0).ms_per_searched == 0.0


def test_pair_seats_share_deals_and_rotate_agents() -> None:
    t = rust_core.simulate("alhambra", {}, ["greedy", "random"], 5, 0, 20, pair_seats=True).to_pydict()
    for i in range(0, 40, 4):
        assert t["deal_index"][i : i + 4] == [i // 4] * 4
        # Same deal, agents swapped: each agent's starting money swaps between the games.
        g0 = {t["player"][k]: t["start_money_value"][k] for k in (i, i + 1)}
        g1 = {t["player"][k]: t["start_money_value"][k] for k in (i + 2, i + 3)}
        assert g0[0] == g1[1] and g0[1] == g1[0]


def test_replay_has_three_scorings() -> None:
    variant = {"leftover_rule": "count"}
    agents = ["greedy", "random", "random"]
    rows = rust_core.simulate("alhambra", variant, agents, 9, 3, 1).to_pylist()
    log = rust_core.replay("alhambra", variant, agents, 9, 3)
    assert log["events"][0]["event"] == "setup"
    kinds = {e["event"] for e in log["events"]}
    assert {"action", "scoring", "refill", "game_end"} <= kinds
    assert sum(e["event"] == "scoring" for e in log["events"]) == 3
    # the scores after each of the 3 scorings: the last is the final score
    assert all(r["score_3"] == r["score"] for r in log["result"]) and len(rows) == 3


def test_tiles_match_the_reference() -> None:
    tiles = alhambra.tiles()
    assert len(tiles) == 54
    assert tiles[0] == {"id": 0, "kind": "pavilion", "price": 2, "walls": "NEW"}
    assert tiles[53] == {"id": 53, "kind": "tower", "price": 13, "walls": "E"}
    assert sum(len(t["walls"]) for t in tiles) == 80
    assert [sum(t["kind"] == k for t in tiles) for k in alhambra.KINDS] == [7, 7, 9, 9, 11, 11]


def test_placement_error_worked_examples() -> None:
    assert alhambra.placement_error([], 5, 1, 0) is None
    assert alhambra.placement_error([], 11, 1, 0) is not None
    assert alhambra.placement_error([(1, 0, 4), (0, -1, 6)], 50, 1, -1) is None
    assert alhambra.placement_error([(1, 0, 4)], 50, 1, -1) is not None
    # Two-square pocket: illegal under "area", legal under "cell".
    ring = [(1, 0, 6), (2, 0, 13), (3, 0, 21), (3, 1, 22), (3, 2, 30), (2, 2, 31), (1, 2, 40), (0, 2, 41)]
    assert alhambra.placement_error(ring, 51, 0, 1, hole_rule="area") is not None
    assert alhambra.placement_error(ring, 51, 0, 1, hole_rule="cell") is None
    with pytest.raises(ValueError, match="illegal city"):
        alhambra.placement_error([(2, 0, 6)], 5, 1, 0)  # unreachable tile
    with pytest.raises(ValueError, match="hole_rule"):
        alhambra.placement_error([], 5, 1, 0, hole_rule="none")


def test_outer_wall_length_examples() -> None:
    assert alhambra.outer_wall_length([(1, 0, 5)]) == 1
    ring = [(-1, -1, 3), (0, -1, 4), (1, -1, 8), (1, 0, 5), (1, 1, 2), (0, 1, 12), (-1, 1, 1), (-1, 0, 11)]
    assert alhambra.outer_wall_length(ring, rule="trail") == 12
    assert alhambra.outer_wall_length(ring, rule="simple_path") == 11
    assert alhambra.outer_wall_length([(1, 0, 5), (2, 1, 11)]) == 2  # joined at a pinch corner


def test_majority_points_examples() -> None:
    towers = [[0, 0, 0, 0, 0, c] for c in (3, 3, 1, 0)]
    assert alhambra.majority_points(towers, 3) == [17, 17, 6, 0]
    assert alhambra.majority_points([[0, 0, 0, 0, 0, 2]] * 3, 2) == [6, 6, 6]
    assert alhambra.majority_points([[1, 0, 0, 0, 0, 0], [0] * 6], 1) == [1, 0]
    with pytest.raises(ValueError, match="round"):
        alhambra.majority_points(towers, 4)
