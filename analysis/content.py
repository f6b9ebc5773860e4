"""What a report section is made of, as plain data: text, tables and dot-and-whisker plots.

A game's section (:mod:`analysis.games`) returns these; the renderer (:mod:`analysis.report`)
turns them into HTML, Markdown and figures. Nothing here draws or formats a page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import polars as pl

__all__ = [
    "Block",
    "Code",
    "Dot",
    "DotPlot",
    "Finding",
    "Interval",
    "Section",
    "Table",
    "TableCell",
    "Text",
    "interval_rows",
]


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval, for a table cell.

    ``kind``: ``number`` (``digits`` decimals), ``percent`` (a share, shown as %) or ``points``
    (a difference of shares, shown signed in points of win rate). The ends of either keep more
    decimals where rounding would put one on or across a mark it is not on: the ``marks`` given
    (shares; points: 0 besides)."""

    estimate: float
    lo: float
    hi: float
    digits: int = 3
    kind: Literal["number", "percent", "points"] = "number"
    marks: tuple[float, ...] = (0.0,)


@dataclass(frozen=True)
class Code:
    """An exact setting for a table cell, shown as code (``handicap = [0, -4]``): words elsewhere,
    the spelling a study file takes only where a designer needs to copy it."""

    text: str


TableCell = str | int | float | Interval | Code


@dataclass(frozen=True)
class Text:
    """A paragraph; ``warning`` paragraphs are highlighted."""

    text: str
    warning: bool = False


@dataclass(frozen=True)
class Table:
    """A table: header and rows of cells (text, numbers or :class:`Interval`)."""

    header: tuple[str, ...]
    rows: tuple[tuple[TableCell, ...], ...]


@dataclass(frozen=True)
class Dot:
    """One row of a dot-and-whisker plot: its label, the cell it belongs to (its colour) and
    the estimate with its interval; ``hollow`` draws an open marker (e.g. not confirmed)."""

    label: str
    cell: str
    estimate: float
    lo: float
    hi: float
    hollow: bool = False


@dataclass(frozen=True)
class DotPlot:
    """A dot-and-whisker (forest) plot: one row per :class:`Dot`, top to bottom, coloured by cell.

    ``reference``: a vertical line (fair share, zero difference) named ``reference_label``;
    ``band``: a shaded interval (the practical threshold); ``percent``: values are shares or
    differences of shares, drawn in percent / points. ``takeaway`` is the one-line caption."""

    name: str
    title: str
    takeaway: str
    xlabel: str
    dots: tuple[Dot, ...]
    reference: float | None = None
    reference_label: str = ""
    band: tuple[float, float] | None = None
    percent: bool = False
    hollow_label: str = ""


Block = Text | Table | DotPlot


@dataclass(frozen=True)
class Section:
    """A report section: a heading and its blocks in order."""

    heading: str
    blocks: tuple[Block, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Finding:
    """One answer of the verdict block: a short title and one plain sentence."""

    title: str
    sentence: str
    cells: tuple[str, ...] = ()
    #: A game's finding that must open the verdict block (e.g. the expert-level answer, ahead of
    #: the numbers of weaker agents).
    lead: bool = False


def interval_rows(
    table: pl.DataFrame, keys: list[str], columns: Sequence[str], name: Callable[[str], str], digits: int
) -> tuple[tuple[TableCell, ...], ...]:
    """One table row per group of ``keys`` of a long table (``metric``, ``estimate``, ``lo``,
    ``hi``): the cell's ``name``, the seat shown 1-based (when ``seat`` is a key), then an
    :class:`Interval` per column."""
    rows: list[tuple[TableCell, ...]] = []
    for key, part in table.group_by(keys, maintain_order=True):
        by = {r["metric"]: r for r in part.iter_rows(named=True)}
        head: list[TableCell] = [name(str(key[0]))]
        if len(key) > 1:
            head.append(int(str(key[1])) + 1)
        rows.append(
            (*head, *[Interval(by[c]["estimate"], by[c]["lo"], by[c]["hi"], digits) for c in columns])
        )
    return tuple(rows)
