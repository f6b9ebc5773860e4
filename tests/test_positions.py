"""Replay logs name players by position in every game, and every game flags the engine's safety
net (issue 28): under ``pair_seats`` the position (dealt seat) differs from the agent index, and
rule events must use the position, in keys ``position`` / ``*_position`` / ``*_positions``."""

from __future__ import annotations

from typing import Any

import pytest

import rust_core

GAMES = rust_core.games()
#: Keys that would name a player in a rule event other than by position.
NOT_POSITION = {"player", "seat", "winner", "winners", "start_player", "ranking", "winner_seat"}


def _players(game: str) -> int:
    lo, hi = rust_core.player_range(game)
    return max(lo, min(3, hi))


def _log(game: str, index: int) -> dict[str, Any]:
    n = _players(game)
    agents = ["greedy", "random", "greedy"][:n]
    return rust_core.BatchSpec(game, {}, agents, seed=5, pair_seats=True).replay(index)


def _keys(value: Any, out: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((k, v))
            _keys(v, out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, out)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_rule_events_name_players_by_position(game):
    log = _log(game, 1)  # the second game of a deal: the agents rotated by one position
    rows = {r["position"]: r for r in log["result"]}
    n = len(rows)
    assert all(r["player"] != q for q, r in rows.items()), "the rotation separates position and player"
    for e in log["events"]:
        if e["event"] == "action":
            assert e["player"] == rows[e["position"]]["player"], "an action names the agent at its position"
            continue
        for k, v in _keys(e, []):
            assert k not in NOT_POSITION, f"{game}: {e['event']} event says {k!r}, not a position"
            if k == "position" or k.endswith("_position"):
                assert v is None or v in rows, f"{game}: {e['event']}.{k} = {v} is no position of {n}"
            if k.endswith("_positions"):
                assert all(q in rows for q in v), f"{game}: {e['event']}.{k} = {v}"


@pytest.mark.parametrize("game", GAMES)
def test_start_and_winner_positions_point_at_the_right_rows(game):
    checked = 0
    for index in range(1, 7):
        log = _log(game, index)
        rows = {r["position"]: r for r in log["result"]}
        for k, v in _keys(log["events"], []):
            if v is None or not isinstance(v, int):
                continue
            if k == "start_position":
                assert rows[v]["seat"] == 0, f"{game} game {index}: start_position {v} is not seat 0"
                checked += 1
            if k == "winner_position":
                assert rows[v]["win"] > 0, f"{game} game {index}: winner_position {v} did not win"
                checked += 1
    named = {"alhambra", "titania", "taluva", "coin"}
    assert checked > 0 or game not in named, f"{game}: no start or winner position checked"


def test_maharaja_turn_events_name_the_acting_position():
    """Maharaja's seats differ from positions (the characters order the turns): a ``turn`` event's
    position is the one whose actions follow."""
    log = _log("maharaja", 1)
    rows = log["result"]
    assert any(r["seat"] != r["position"] for r in rows), "seat and position differ here"
    events = log["events"]
    follow = 0
    for i, e in enumerate(events):
        if e["event"] != "turn":
            continue
        nxt = next(x for x in events[i + 1 :] if x["event"] == "action")
        assert nxt["position"] == e["position"]
        follow += 1
    assert follow > 5


@pytest.mark.parametrize("game", GAMES)
def test_capped_column_and_replay_agree(game):
    n = _players(game)
    agents = ["greedy", "random", "greedy"][:n]
    batch = rust_core.simulate(game, {}, agents, 5, 0, 4, pair_seats=True).to_pydict()
    assert batch["capped"] == [0] * (4 * n), "ordinary self-play ends by the rules"
    assert rust_core.BatchSpec(game, {}, agents, seed=5, pair_seats=True).replay(2)["capped"] is False
