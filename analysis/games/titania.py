"""Titania-specific tables: where each seat's points come from (towers, decorations, score tiles,
spaces), what it builds and plays, what it keeps, how long the epochs last, and which board a
study played on.

Per seat, each figure is a mean over independent units (games, or deals with ``pair_seats``)
with a 95% Student-t interval. The board comes from the manifest: the engine's built-in board
(variant ``board`` null) or a file, named with its path and SHA-256 as recorded when the study
ran. :data:`SECTION` plugs this into the generic analysis and report (see :mod:`analysis.games`).
"""

from __future__ import annotations

import polars as pl

from ..content import Block, Section, Table, Text, interval_rows
from ..datafiles import DataFile
from ..model import StudyAnalysis
from ..stats.intervals import ALPHA
from ..stats.seats import seat_figures
from . import GameSection

__all__ = [
    "BUILTIN_BOARD",
    "EPOCH_METRICS",
    "SECTION",
    "SEAT_METRICS",
    "boards",
    "epoch_lengths",
    "seat_metrics",
]

#: Column and label of each per-seat figure, in report order.
SEAT_METRICS: tuple[tuple[str, str], ...] = (
    ("tower_points", "tower points"),
    ("decoration_points", "decoration points"),
    ("score_tile_points", "score tiles"),
    ("space_points", "space points"),
    ("floors_built", "floors built"),
    ("ships_placed", "ships placed"),
    ("cards_played", "cards played"),
    ("shells_left", "shells left"),
    ("starfish_left", "starfish left"),
)

#: Per-game columns (equal for every player of a game): the length of each epoch in turns.
EPOCH_METRICS: tuple[tuple[str, str], ...] = (
    ("epoch_1_turns", "turns of epoch 1"),
    ("epoch_2_turns", "turns of epoch 2"),
)

BUILTIN_BOARD = "rust_core/src/games/titania/titania_board.txt"
BOARD = DataFile("board", "board", BUILTIN_BOARD, "the engine's own design")
#: The boards of a run (see :meth:`DataFile.used`).
boards = BOARD.used


def _means(
    rows: pl.DataFrame, columns: tuple[tuple[str, str], ...], paired: bool, alpha: float
) -> pl.DataFrame:
    """Means with Student-t intervals per seat (:func:`analysis.stats.seats.seat_figures`)."""
    means = [(column, label, "mean") for column, label in columns]
    return seat_figures(rows, means, paired=paired, alpha=alpha)


def seat_metrics(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Per seat and figure of :data:`SEAT_METRICS`: ``seat``, ``metric`` (column), ``label``,
    ``estimate``, ``lo``, ``hi``, ``n_units`` (see :func:`analysis.stats.seats.seat_figures`)."""
    return _means(rows, SEAT_METRICS, paired, alpha)


def epoch_lengths(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Mean turns of each epoch (one value per game, read from seat 0's rows) with intervals."""
    return _means(rows.filter(pl.col("seat") == 0), EPOCH_METRICS, paired, alpha).drop("seat")


def _tables(rows: pl.DataFrame, paired: bool) -> dict[str, pl.DataFrame]:
    return {
        "titania": seat_metrics(rows, paired=paired),
        "titania_epochs": epoch_lengths(rows, paired=paired),
    }


def _sections(s: StudyAnalysis) -> list[Section]:
    table = s.table("titania")
    blocks: list[Block] = [Text(line) for line in BOARD.scope(s)]
    if not table.height:
        return [Section(HEADING, (*blocks, Text("No games recorded.")))]
    blocks.append(
        Text(
            "Means per player at each seat (seat 1 = start player) with 95% intervals. A player's score "
            "is tower + decoration + space points + score tiles; ties go to the most starfish and shell "
            "pieces left."
        )
    )
    header = ("cell", "seat", *[label for _, label in SEAT_METRICS])
    blocks.append(
        Table(header, interval_rows(table, ["cell", "seat"], [c for c, _ in SEAT_METRICS], s.short, 2))
    )
    epochs = s.table("titania_epochs")
    if epochs.height:
        blocks.append(
            Text("Length of each epoch in turns (an epoch ends after the turn that empties a ship supply).")
        )
        header = ("cell", *[label for _, label in EPOCH_METRICS])
        blocks.append(
            Table(header, interval_rows(epochs, ["cell"], [c for c, _ in EPOCH_METRICS], s.short, 1))
        )
    return [Section(HEADING, tuple(blocks))]


HEADING = "Titania: points, towers and ships by seat"

SECTION = GameSection(
    tables=_tables,
    scope=BOARD.scope,
    provenance=BOARD.provenance,
    sections=_sections,
    methods=(
        "Titania's per-seat figures and epoch lengths are means over deals (games without paired seats) "
        "with Student-t intervals."
    ),
)
