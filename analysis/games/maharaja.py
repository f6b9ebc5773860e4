"""Maharaja-specific tables: what each seat achieves (palaces, houses, gold, forfeits, tolls), how
the games ended, and which map a study played on.

Seat 0 is the start player, which in Maharaja is whoever holds the lowest character when the
first round begins (the engine's ``seat`` column): the characters are chosen at set-up, so the
start player is the outcome of those choices, not a dealt position. Per seat, each figure is a
mean over independent units (games, or deals with ``pair_seats``) with a 95% Student-t interval.
Per cell: the share of games ending by the 7th palace, by the governor track, or by the round
limit (Wilson intervals), and the mean number of rounds. The map comes from the manifest: the
engine's built-in map (variant ``map`` null) or a file, named with its path and SHA-256.
:data:`SECTION` plugs this into the generic analysis and report (see :mod:`analysis.games`).
"""

from __future__ import annotations

import polars as pl

from ..content import Block, Interval, Section, Table, TableCell, Text, interval_rows
from ..datafiles import DataFile
from ..model import StudyAnalysis
from ..stats.intervals import ALPHA, Estimate, wilson
from ..stats.seats import seat_figures
from . import GameSection

__all__ = ["BUILTIN_MAP", "END_REASONS", "SECTION", "SEAT_METRICS", "end_reasons", "maps", "seat_metrics"]

#: Column and label of each per-seat mean, in report order.
SEAT_METRICS: tuple[tuple[str, str], ...] = (
    ("palaces_built", "palaces built"),
    ("gold_end", "gold at the end"),
    ("houses_built", "houses built"),
    ("forfeits", "forfeited actions"),
    ("scoring_gold", "gold from scorings"),
    ("tolls_paid", "tolls paid"),
)

#: ``end_reason`` codes of the engine.
END_REASONS: dict[int, str] = {1: "7th palace", 2: "governor track", 3: "round limit"}

BUILTIN_MAP = "rust_core/src/games/maharaja/maharaja_map.txt"
MAP = DataFile("map", "map", BUILTIN_MAP, "the engine's own map")
#: The maps of a run (see :meth:`DataFile.used`).
maps = MAP.used


def seat_metrics(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Per seat and figure of :data:`SEAT_METRICS`: ``seat``, ``metric``, ``label``,
    ``estimate``, ``lo``, ``hi``, ``n_units`` (see :func:`analysis.stats.seats.seat_figures`)."""
    means = [(column, label, "mean") for column, label in SEAT_METRICS]
    return seat_figures(rows, means, paired=paired, alpha=alpha)


def end_reasons(rows: pl.DataFrame, *, alpha: float = ALPHA) -> pl.DataFrame:
    """Share of games per end reason (Wilson intervals over games) and the mean rounds:
    ``reason``, ``share``, ``lo``, ``hi``, ``games``, ``mean_rounds``."""
    games = rows.filter(pl.col("seat") == 0)
    n = games.height
    mean_rounds = float(games["rounds"].cast(pl.Float64).mean() or 0.0) if n else float("nan")
    recs = []
    for code, name in END_REASONS.items():
        k = games.filter(pl.col("end_reason") == code).height
        e = wilson(float(k), n, alpha) if n else Estimate(float("nan"), float("nan"), float("nan"), 0, "none")
        recs.append(
            {
                "reason": name,
                "share": e.estimate,
                "lo": e.lo,
                "hi": e.hi,
                "games": n,
                "mean_rounds": mean_rounds,
            }
        )
    return pl.DataFrame(recs)


def _tables(rows: pl.DataFrame, paired: bool) -> dict[str, pl.DataFrame]:
    return {"maharaja": seat_metrics(rows, paired=paired), "maharaja_end": end_reasons(rows)}


START_PLAYER_NOTE = (
    "Start player (seat 1 in the tables) = whoever holds the lowest character when the first round "
    "begins; the characters are picked at set-up, so this seat is chosen by the players' picks, not dealt."
)


def _scope(s: StudyAnalysis) -> list[str]:
    return [START_PLAYER_NOTE, *MAP.scope(s)]


def _sections(s: StudyAnalysis) -> list[Section]:
    blocks: list[Block] = [Text(line) for line in _scope(s)]
    table = s.table("maharaja")
    if not table.height:
        return [Section(HEADING, (*blocks, Text("No games recorded.")))]
    blocks.append(
        Text(
            "Means per player at each seat (seat 1 = start player) with 95% intervals "
            "(score = palaces built; ties: gold)."
        )
    )
    rows = interval_rows(table, ["cell", "seat"], [c for c, _ in SEAT_METRICS], s.short, 2)
    blocks.append(Table(("cell", "seat", *[label for _, label in SEAT_METRICS]), rows))
    ends = s.table("maharaja_end")
    if ends.height:
        blocks.append(Text("How the games ended (share of games, 95% Wilson intervals) and the mean rounds."))
        end_rows: tuple[tuple[TableCell, ...], ...] = tuple(
            (
                s.short(str(r["cell"])),
                str(r["reason"]),
                Interval(r["share"], r["lo"], r["hi"], kind="percent"),
                round(float(r["mean_rounds"]), 2),
            )
            for r in ends.iter_rows(named=True)
        )
        blocks.append(Table(("cell", "end", "share", "mean rounds"), end_rows))
    return [Section(HEADING, tuple(blocks))]


HEADING = "Maharaja: palaces, gold and houses by seat"

SECTION = GameSection(
    tables=_tables,
    scope=_scope,
    provenance=MAP.provenance,
    sections=_sections,
    score_unit=(
        "a point of Maharaja's score is a palace built (ties between equal palaces go to the most gold, "
        "then the lower character number), so a handicap of less than one point only decides ties"
    ),
    methods=(
        "Maharaja's per-seat figures are means over deals (games without paired seats) with Student-t "
        "intervals; end reasons are shares of games with Wilson intervals. The start player is whoever "
        "holds the lowest character when the first round begins."
    ),
)
