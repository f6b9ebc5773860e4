"""Game-specific parts of the analysis: one module per game, listed once here.

The generic analysis (:mod:`analysis.study`), the findings (:mod:`analysis.findings`) and the
renderer (:mod:`analysis.report`) know no game. A game that wants more than the generic tables
adds a module ``analysis/games/<game>.py`` defining ``SECTION = GameSection(...)`` and one line in
:data:`SECTIONS`. **A section returns data, never draws or formats a page**: polars tables,
estimates, sentences (:class:`~analysis.content.Finding`) and report blocks
(:mod:`analysis.content`: :class:`~analysis.content.Text`, :class:`~analysis.content.Table`,
:class:`~analysis.content.DotPlot`). It must not import :mod:`analysis.report` or matplotlib; the
one renderer draws its plots in the study's cell colours and writes HTML and Markdown
(``tests/test_report.py`` checks the import graph).

Every part is optional:

* ``advantage(rows, paired) -> dict``: extra per-cell fields of the start-player advantage
  (estimates with ``lo``/``hi``), merged into ``StudyAnalysis.advantage``;
* ``advantage_parts``: when those fields split the raw advantage into parts that add up to it
  (Alhambra: moving first + the starting hand), their labels and field names: the report shows
  them as a labelled pair under the raw advantage, which stays the number that describes the game;
  ``advantage_note`` says what the parts mean;
* ``tables(rows, paired) -> {name: frame}``: per-cell tables, concatenated over cells (with
  ``cell``, ``label``, ``n_players``) into ``StudyAnalysis.tables[name]``;
* ``findings(s) -> [Finding]``: answers for the verdict block at the top of the report (one plain
  sentence each, with number and interval);
* ``scope(s) -> [str]``: sentences on what was played (e.g. the tile set), shown under the title;
* ``provenance(s) -> [[field, value]]``: extra rows of the provenance table;
* ``sections(s) -> [Section]``: the game's own report sections, after the generic ones;
* ``methods`` and ``glossary``: how the game's own estimates are made, and its terms;
* ``ladder_values(s, cell_id) -> [LadderValue]``: the game's own balance numbers of one self-play
  cell, for studies with a skill ladder (:mod:`analysis.skill` reports each per rung, against the
  rung's Elo, with a convergence verdict).

A minimal game module::

    from ..content import DotPlot, Dot, Finding, Section, Table, Text
    from . import GameSection

    def _tables(rows, paired):                # one frame per cell
        return {"mygame": my_stats(rows, paired=paired)}

    def _sections(s):                         # data only; the renderer draws the DotPlot
        t = s.table("mygame")
        dots = tuple(Dot(f"{s.short(r['cell'])}: {r['stat']}", r["cell"], r["estimate"], r["lo"],
                         r["hi"]) for r in t.iter_rows(named=True))
        return [Section("My game: ...", (Text("..."), DotPlot("mygame", "title", "takeaway.",
                                                              "x label", dots)))]

    SECTION = GameSection(tables=_tables, sections=_sections)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..content import Finding, Section
from ..model import StudyAnalysis

__all__ = ["SECTIONS", "AdvantagePart", "ChanceWords", "GameSection", "LadderValue", "section"]

#: Game name -> module defining ``SECTION``.
SECTIONS: dict[str, str] = {
    "alhambra": "analysis.games.alhambra",
    "coin": "analysis.games.coin",
    "hiroba": "analysis.games.hiroba",
    "titania": "analysis.games.titania",
    "maharaja": "analysis.games.maharaja",  # map: built-in or path + SHA-256
    "taluva": "analysis.games.taluva",
}


@dataclass(frozen=True)
class AdvantagePart:
    """One part of the raw start-player advantage: its label and the names of its three fields
    in the ``advantage`` dict. The parts of a section add up to the raw advantage."""

    label: str
    estimate: str
    lo: str
    hi: str


@dataclass(frozen=True)
class LadderValue:
    """One balance number of a cell for the skill ladder: a key and words for it, the estimate
    with its 95% interval, the threshold below which two rungs agree (same unit as the estimate),
    ``percent``: a share or difference of shares (shown in % / points), ``reference``: the value
    of a fair game (0 for an advantage; None when there is none)."""

    key: str
    label: str
    estimate: float
    lo: float
    hi: float
    threshold: float
    percent: bool = True
    reference: float | None = 0.0


@dataclass(frozen=True)
class ChanceWords:
    """What a game's chance events are, in the words of the luck section: the set-up's
    (``setup``), every later one (``drawn``) and the later ones as those a measurement left out
    (``later``)."""

    setup: str = "every card or tile of the set-up"
    drawn: str = "every card or tile drawn"
    later: str = "the cards or tiles drawn later"


@dataclass(frozen=True)
class GameSection:
    """What a game adds to the generic analysis and report (see the module docstring)."""

    advantage: Callable[[pl.DataFrame, bool], dict[str, Any]] | None = None
    advantage_parts: tuple[AdvantagePart, ...] = ()
    advantage_note: str = ""
    tables: Callable[[pl.DataFrame, bool], dict[str, pl.DataFrame]] | None = None
    findings: Callable[[StudyAnalysis], list[Finding]] | None = None
    scope: Callable[[StudyAnalysis], list[str]] | None = None
    provenance: Callable[[StudyAnalysis], list[list[str]]] | None = None
    sections: Callable[[StudyAnalysis], list[Section]] | None = None
    methods: str = ""
    glossary: tuple[tuple[str, str], ...] = ()
    ladder_values: Callable[[StudyAnalysis, str], list[LadderValue]] | None = None
    #: Whether the ``score`` column is in points a rule could hand out (a score handicap then means
    #: something); ``False`` for a ranking key, with ``score_note`` saying what it is instead.
    score_in_points: bool = True
    score_note: str = ""
    #: For a score in points whose point is not obvious: what one point is, in words for every page
    #: that speaks of points (e.g. Maharaja's point is a palace built). Empty: a point is a point.
    score_unit: str = ""
    #: Whether chance acts after the set-up (cards or tiles drawn in play); ``False`` where the
    #: set-up is the game's only chance event (Hiroba), so a page does not speak of later draws.
    chance_after_setup: bool = True
    #: What its chance events are (cards or tiles unless the game says otherwise).
    chance: ChanceWords = ChanceWords()


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
