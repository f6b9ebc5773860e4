"""Titania helpers: the packaged board file and checking a board file of your own.

The engine's board (90 hex spaces, the fog tiles and the score tiles) is a data file,
``rust_core/src/games/titania/titania_board.txt`` (the engine's own design: the printed board is not public;
its header documents the format). Play on another board through the variant option ``board``
(a path), e.g. ``balancelab replay titania --seed 1 --game-index 0 --variant board=my_board.txt``
or ``variant = { board = "my_board.txt" }`` in a study (relative to the study file).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from . import validate

__all__ = ["check_board", "default_board_path"]


def default_board_path() -> Path:
    """The packaged board file (the built-in board, which ``board = null`` plays with)."""
    return Path(str(resources.files("rust_core") / "data" / "titania_board.txt"))


def check_board(path: str | os.PathLike[str]) -> None:
    """Raises ``ValueError`` if ``path`` is not a valid board file, with the engine's message
    naming the file, the space or tile and the broken rule (e.g. ``space (4, -1) site: no crane
    next to it``)."""
    validate("titania", {"board": os.fspath(path)}, ["random", "random"])
