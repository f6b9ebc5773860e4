"""Alhambra rule helpers: the tile set, placement legality, outer walls and majorities.

Cities are lists of ``(x, y, tile_id)`` without the fountain at ``(0, 0)``; x grows east,
y grows **south**. Tile ids are those of the rules reference (0 = pavilion 2 NEW ... 53).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _native

KINDS = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
CURRENCIES = ("yellow", "green", "blue", "orange")

City = Sequence[tuple[int, int, int]]


def tiles() -> list[dict[str, object]]:
    """The 54 tiles as ``{id, kind, price, walls}`` (walls: a string over ``"NESW"``)."""
    return [
        {"id": i, "kind": kind, "price": price, "walls": walls}
        for i, kind, price, walls in _native.alhambra_tiles()
    ]


def _city(city: City) -> list[tuple[int, int, int]]:
    try:
        return [(int(x), int(y), int(t)) for x, y, t in city]
    except (TypeError, ValueError) as e:
        raise ValueError(f"city must be a list of (x, y, tile_id) triples: {e}") from None


def placement_error(city: City, tile_id: int, x: int, y: int, hole_rule: str = "area") -> str | None:
    """``None`` if ``tile_id`` may be placed at ``(x, y)``, else a short reason.

    ``hole_rule`` is ``"area"`` or ``"cell"``. An illegal ``city`` is a ``ValueError``.
    """
    return _native.alhambra_placement_error(_city(city), tile_id, x, y, hole_rule)


def outer_wall_length(city: City, rule: str = "trail") -> int:
    """Longest continuous outer wall (``rule``: ``"trail"`` or ``"simple_path"``).

    Measures any arrangement; it does not judge legality.
    """
    return _native.alhambra_outer_wall_length(_city(city), rule)


def majority_points(counts: Sequence[Sequence[int]], round: int) -> list[int]:
    """Majority points per player for scoring ``round`` (1, 2, 3).

    ``counts[p]`` holds player p's 6 city tile counts in kind order :data:`KINDS`.
    """
    return _native.alhambra_majority_points([list(map(int, c)) for c in counts], round)
