"""Maharaja helpers: the packaged map file and checking a map file of your own.

The engine's map is a data file, ``rust_core/src/games/maharaja/maharaja_map.txt`` (the engine's own map: the
printed board is not public; its header documents the format). Play on another map through the
variant option ``map`` (a path), e.g.
``balancelab replay maharaja --seed 1 --game-index 0 --variant map=my_map.txt`` or
``variant = { map = "my_map.txt" }`` in a study (relative to the study file).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from . import read_files, validate

__all__ = ["check_map", "default_map_path"]


def default_map_path() -> Path:
    """The packaged map file (the built-in map, which ``map = null`` plays on)."""
    return Path(str(resources.files("rust_core") / "data" / "maharaja_map.txt"))


def check_map(path: str | os.PathLike[str]) -> None:
    """Raises ``ValueError`` if ``path`` is not a valid map file, with the engine's message naming
    the file, the city or road and the broken rule (e.g. ``city Bhopal: on 2 roads, needs at
    least 3``)."""
    variant = {"map": os.fspath(path)}
    validate("maharaja", variant, ["random"] * 2, files=read_files("maharaja", variant))
