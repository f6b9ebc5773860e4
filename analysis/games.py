"""Game-specific parts of the analysis and the report: one module per game, listed once here.

The generic analysis (:mod:`analysis.study`) and report (:mod:`analysis.report`) know no game.
A game that wants more than the generic tables adds a module ``analysis/<game>.py`` defining
``SECTION = GameSection(...)`` and one line in :data:`SECTIONS`. Every part is optional:

* ``advantage``: extra per-cell fields of the start-player advantage (e.g. Alhambra's
  hand-adjusted advantage), shown as the ``advantage_columns`` of the advantage table and
  figure, explained by ``advantage_note``;
* ``tables``: per-cell tables, concatenated over cells (with ``cell``, ``label``,
  ``n_players``) into ``StudyAnalysis.tables[name]``;
* ``summary``: sentences for the summary paragraph;
* ``provenance``: extra ``[field, value]`` rows of the provenance table (e.g. the tile set);
* ``report``: writes the game's own report section(s), after "Scores, margins, length and ties".
"""

from __future__ import annotations

import importlib
import pathlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

if TYPE_CHECKING:
    from .report.build import Doc
    from .study import StudyAnalysis

__all__ = ["SECTIONS", "AdvantageColumn", "GameSection", "section"]

#: Game name -> module defining ``SECTION``.
SECTIONS: dict[str, str] = {
    "alhambra": "analysis.alhambra",
    "hiroba": "analysis.hiroba",
    "maharaja": "analysis.maharaja",  # map: built-in or path + SHA-256
}


@dataclass(frozen=True)
class AdvantageColumn:
    """An extra estimate of the start-player advantage: its label and its three fields."""

    label: str
    estimate: str
    lo: str
    hi: str


@dataclass(frozen=True)
class GameSection:
    """What a game adds to the generic analysis and report (see the module docstring)."""

    advantage: Callable[[pl.DataFrame, bool], dict[str, Any]] | None = None
    advantage_columns: tuple[AdvantageColumn, ...] = ()
    advantage_note: str = ""
    tables: Callable[[pl.DataFrame, bool], dict[str, pl.DataFrame]] | None = None
    summary: Callable[[StudyAnalysis], list[str]] | None = None
    provenance: Callable[[StudyAnalysis], list[list[str]]] | None = None
    report: Callable[[Doc, StudyAnalysis, pathlib.Path], None] | None = None


NO_SECTION = GameSection()


def section(game: str | None) -> GameSection:
    """The game's section, or an empty one for a game without its own module."""
    module = SECTIONS.get(game or "")
    if module is None:
        return NO_SECTION
    found = importlib.import_module(module).SECTION
    if not isinstance(found, GameSection):
        raise TypeError(f"{module}.SECTION must be a GameSection, got {type(found).__name__}")
    return found
