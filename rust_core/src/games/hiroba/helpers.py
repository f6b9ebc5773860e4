"""Hiroba helpers: the packaged tile file and checking a tile file of your own.

The engine's 12 terrain tiles are a data file, ``rust_core/src/games/hiroba/hiroba_tiles.txt`` (the
engine's own set: the publisher's layouts are not public; its header documents the format).
Play with another set through the variant option ``tiles`` (a path), e.g.
``balancelab replay hiroba --seed 1 --game-index 0 --variant tiles=my_tiles.txt`` or
``variant = { tiles = "my_tiles.txt" }`` in a study (relative to the study file).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from . import read_files, validate

__all__ = ["PLAYER_COUNTS", "check_tiles", "default_tiles_path"]

#: Player counts of the game; :func:`check_tiles` checks a set-up for each.
PLAYER_COUNTS = (2, 3, 4)


def default_tiles_path() -> Path:
    """The packaged tile file (the built-in set, which ``tiles = null`` plays with)."""
    return Path(str(resources.files("rust_core") / "data" / "hiroba_tiles.txt"))


def check_tiles(path: str | os.PathLike[str], players: Iterable[int] = PLAYER_COUNTS) -> None:
    """Raises ``ValueError`` if ``path`` is not a valid tile file, with the engine's message
    naming the file, the tile and the broken rule (e.g. ``tile 7: garden B is not connected``),
    or if it gives no valid set-up for one of ``players``."""
    name = os.fspath(path)
    variant = {"tiles": name}
    files = read_files("hiroba", variant)
    for n in players:
        validate("hiroba", variant, ["random"] * n, files=files)
