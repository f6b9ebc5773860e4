"""Taluva-specific tables: what each seat builds (temples, towers, huts), how often it is
eliminated, and how its games end (won by two kinds, as the last player in, at tiles out).

Per seat, each figure is a mean over independent units (games, or deals with ``pair_seats``)
with a 95% interval: Student-t for counts, Wilson (design-effect Wilson over deals when paired)
for shares. :data:`SECTION` plugs this into the generic analysis and report (see
:mod:`analysis.games`).
"""

from __future__ import annotations

import polars as pl

from ..content import Block, Section, Table, Text, interval_rows
from ..model import StudyAnalysis
from ..stats.intervals import ALPHA
from ..stats.seats import seat_figures
from . import GameSection

__all__ = ["END_REASONS", "SECTION", "SEAT_METRICS", "derived", "seat_metrics"]

#: ``end_reason`` codes of the engine.
END_REASONS = {0: "two kinds", 1: "last player", 2: "tiles out"}

#: Column, label and kind (``mean`` or ``share``) of each per-seat figure, in report order.
SEAT_METRICS: tuple[tuple[str, str, str], ...] = (
    ("temples", "temples (of 3)", "mean"),
    ("towers", "towers (of 2)", "mean"),
    ("huts", "huts (of 20)", "mean"),
    ("huts_lost", "huts lost", "mean"),
    ("eliminated", "eliminated", "share"),
    ("won_two_kinds", "won by two kinds", "share"),
    ("won_last_player", "won as last player", "share"),
    ("won_tiles_out", "won at tiles out", "share"),
    ("ended_two_kinds", "game ended by two kinds", "share"),
    ("ended_tiles_out", "game ended at tiles out", "share"),
)


def derived(rows: pl.DataFrame) -> pl.DataFrame:
    """The rows with the per-seat end-reason indicators of :data:`SEAT_METRICS` (wins as shares:
    a shared win at tiles out counts as its share)."""
    won = pl.col("win")
    return rows.with_columns(
        (won * (pl.col("end_reason") == 0)).alias("won_two_kinds"),
        (won * (pl.col("end_reason") == 1)).alias("won_last_player"),
        (won * (pl.col("end_reason") == 2)).alias("won_tiles_out"),
        (pl.col("end_reason") == 0).cast(pl.Float64).alias("ended_two_kinds"),
        (pl.col("end_reason") == 2).cast(pl.Float64).alias("ended_tiles_out"),
    )


def seat_metrics(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Per seat and figure of :data:`SEAT_METRICS` (see :func:`analysis.stats.seats.seat_figures`)."""
    rows = derived(rows)
    return seat_figures(rows, SEAT_METRICS, paired=paired, alpha=alpha)


def _tables(rows: pl.DataFrame, paired: bool) -> dict[str, pl.DataFrame]:
    return {"taluva": seat_metrics(rows, paired=paired)}


HEADING = "Taluva: buildings, eliminations and how games end, by seat"


def _sections(s: StudyAnalysis) -> list[Section]:
    table = s.table("taluva")
    if not table.height:
        return [Section(HEADING, (Text("No games recorded."),))]
    blocks: list[Block] = [
        Text(
            "Means per player at each seat (seat 1 = start player) with 95% intervals. Huts count those "
            "lost to eruptions. A game ends when a player has built every piece of two kinds (that "
            "player wins), when one player is left after eliminations (a player who cannot build after "
            "placing a tile is out), or when the tiles run out (temples, then towers, then huts decide; "
            "still tied: a shared win, counted here as its share)."
        )
    ]
    rows = interval_rows(table, ["cell", "seat"], [c for c, _, _ in SEAT_METRICS], s.short, 2)
    blocks.append(Table(("cell", "seat", *[label for _, label, _ in SEAT_METRICS]), rows))
    return [Section(HEADING, tuple(blocks))]


SECTION = GameSection(
    tables=_tables,
    score_in_points=False,
    score_note=(
        "Taluva's score is a ranking key (100,000 + 10,000 per temple + 100 per tower + huts, plus "
        "1,000,000 for an instant win), not points a rule could give"
    ),
    sections=_sections,
    methods=(
        "Taluva's per-seat figures are means over deals (games without paired seats) with Student-t "
        "intervals for counts; shares (eliminations, wins by end reason, end reasons) use the same "
        "intervals as win rates."
    ),
    glossary=(
        (
            "ranking key",
            "a number that orders the players as the rules rank them (temples first, then towers, then "
            "huts; an instant win above all), not a score in points",
        ),
    ),
)
