"""balancelab's Rust core: game engines, agents and the batch runner.

All games are played in Rust (GIL released); results come back as Arrow.

>>> import rust_core
>>> "alhambra" in rust_core.games()
True
>>> batch = rust_core.simulate("alhambra", {}, ["random", "random"], seed=1, start=0, count=10)
>>> batch.num_rows
20
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from . import _native, alhambra, hiroba

__all__ = [
    "agents",
    "alhambra",
    "games",
    "hiroba",
    "metric_columns",
    "replay",
    "simulate",
    "validate",
    "variant_schema",
]
__version__: str = _native.__version__


def games() -> list[str]:
    """Names of the available games."""
    return list(_native.games())


def agents() -> list[str]:
    """Names of the available agents (a spec is ``name`` or ``name:key=value,...``)."""
    return list(_native.agents())


def variant_schema(game: str) -> list[dict[str, Any]]:
    """Every variant option of ``game``: ``name``, ``default``, ``allowed``, ``description`` and
    ``path`` (true if the value is a file path, e.g. Hiroba's ``tiles``)."""
    return json.loads(_native.variant_schema(game))


def metric_columns(game: str) -> list[dict[str, Any]]:
    """The game-specific output columns of ``game``: ``name``, ``description``, ``nullable``."""
    return [
        {"name": n, "description": d, "nullable": nullable} for n, d, nullable in _native.metric_columns(game)
    ]


def _variant_json(variant: Mapping[str, Any] | None) -> str:
    if variant is None:
        variant = {}
    if not isinstance(variant, Mapping):
        raise ValueError(f"variant must be a dict of option names to values, got {type(variant).__name__}")
    return json.dumps(dict(variant))


def _agent_list(agents: Sequence[str]) -> list[str]:
    if isinstance(agents, str) or not all(isinstance(a, str) for a in agents):
        raise ValueError("agents must be a list of agent spec strings, one per player")
    return list(agents)


def validate(game: str, variant: Mapping[str, Any] | None, agents: Sequence[str]) -> None:
    """Raises ``ValueError`` naming the bad game, option, value or agent; plays nothing."""
    _native.validate(game, _variant_json(variant), _agent_list(agents))


def simulate(
    game: str,
    variant: Mapping[str, Any] | None,
    agents: Sequence[str],
    seed: int,
    start: int,
    count: int,
    *,
    pair_seats: bool = False,
) -> pa.RecordBatch:
    """Plays games ``start .. start + count`` of a study and returns one row per player per game.

    Game ``i`` depends only on ``(seed, i, game, variant, agents)``. With ``pair_seats`` every
    ``len(agents)`` consecutive games share one deal (``deal_index = i // n``) with the agents
    rotated across the dealt positions. Columns: see ``README.md`` (and each field's
    ``description`` in the Arrow schema metadata).
    """
    if seed < 0 or start < 0 or count < 0:
        raise ValueError("seed, start and count must be non-negative")
    return _native.simulate(game, _variant_json(variant), _agent_list(agents), seed, start, count, pair_seats)


def replay(
    game: str,
    variant: Mapping[str, Any] | None,
    agents: Sequence[str],
    seed: int,
    game_index: int,
    *,
    pair_seats: bool = False,
) -> dict[str, Any]:
    """The full event log of one game (JSON-able): set-up, every action, rule events, result.

    The ``result`` rows equal what :func:`simulate` gives for the same game.
    """
    text = _native.replay(game, _variant_json(variant), _agent_list(agents), seed, game_index, pair_seats)
    return json.loads(text)
