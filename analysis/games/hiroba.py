"""Hiroba-specific tables: what each seat achieves (gardens, kois, pebbles, passes, stones), and
which tile set a study played with.

Per seat, each figure is a mean over independent units (games, or deals with ``pair_seats``)
with a 95% interval: Student-t for counts, Wilson (design-effect Wilson over deals when paired)
for the pass rate. The tile set comes from the manifest: the engine's built-in set (variant
``tiles`` null) or a file, named with its path and SHA-256 as recorded when the study ran.
:data:`SECTION` plugs this into the generic analysis and report (see :mod:`analysis.games`).
"""

from __future__ import annotations

import polars as pl

from ..content import Block, Finding, Section, Table, Text, interval_rows
from ..datafiles import DataFile
from ..model import StudyAnalysis
from ..stats.intervals import ALPHA
from ..stats.seats import seat_figures
from ..words import around, pts_ci
from . import GameSection

__all__ = ["BUILTIN_TILES", "SECTION", "SEAT_METRICS", "seat_metrics", "tile_sets"]

#: Column, label and kind (``mean`` or ``share``) of each per-seat figure, in report order.
SEAT_METRICS: tuple[tuple[str, str, str], ...] = (
    ("gardens_won", "gardens won outright", "mean"),
    ("gardens_tied", "gardens tied", "mean"),
    ("koi_won", "kois won", "mean"),
    ("koi_placed", "kois placed", "mean"),
    ("pebbles_placed", "pebbles placed (of 9)", "mean"),
    ("passes", "pass rate", "share"),
    ("stones_placed", "stones placed", "mean"),
)

BUILTIN_TILES = "rust_core/src/games/hiroba/hiroba_tiles.txt"
TILES = DataFile("tiles", "tile set", BUILTIN_TILES, "the engine's own set")
#: The tile sets of a run (see :meth:`DataFile.used`).
tile_sets = TILES.used


def seat_metrics(rows: pl.DataFrame, *, paired: bool, alpha: float = ALPHA) -> pl.DataFrame:
    """Per seat and figure of :data:`SEAT_METRICS` (see :func:`analysis.stats.seats.seat_figures`)."""
    return seat_figures(rows, SEAT_METRICS, paired=paired, alpha=alpha)


def _tables(rows: pl.DataFrame, paired: bool) -> dict[str, pl.DataFrame]:
    return {"hiroba": seat_metrics(rows, paired=paired)}


def _sections(s: StudyAnalysis) -> list[Section]:
    table = s.table("hiroba")
    blocks: list[Block] = [Text(line) for line in TILES.scope(s)]
    if not table.height:
        return [Section(HEADING, (*blocks, Text("No games recorded.")))]
    blocks.append(
        Text(
            "Means per player at each seat (seat 1 = start player) with 95% intervals. Gardens won "
            "outright break ties on equal scores; kois can only be placed in gardens won outright; the "
            "pass rate is the share of players left with pebbles they could not place."
        )
    )
    rows = interval_rows(table, ["cell", "seat"], [c for c, _, _ in SEAT_METRICS], s.short, 2)
    blocks.append(Table(("cell", "seat", *[label for _, label, _ in SEAT_METRICS]), rows))
    return [Section(HEADING, tuple(blocks))]


def _findings(s: StudyAnalysis) -> list[Finding]:
    """Without a skill ladder but with several line-ups: the strongest line-up's numbers, and where the
    expert-level answer is followed."""
    if s.rungs or len({c.lineup for c in s.balance}) < 2:
        return []
    return [
        Finding(
            "Strongest agents here",
            _strongest(s)
            + "Hiroba's start-player numbers move with the agents' strength, so no line-up of this study "
            "gives the game's value for skilled players, and greedy self-play's numbers (the start "
            "player ahead) describe greedy play, not the game. The skill-ladder study hiroba-skill "
            "(reports/hiroba-skill/) follows the 2-player advantage from greedy up a ladder of ever "
            "stronger searches and says whether it has converged (there greedy self-play favours the "
            "start player, and every search budget tested favours the second player, who moves last).",
            lead=True,
        )
    ]


def _strongest(s: StudyAnalysis) -> str:
    """``With the strongest agents of this study (mcts:iters=1000 self-play) the start player is
    behind: ...`` per player count (and variant, when the strongest line-up plays several)."""
    top = max(s.balance, key=lambda c: c.strength)
    cells = [c for c in s.balance if c.lineup == top.lineup]
    several = len({c.variant_name for c in cells}) > 1  # e.g. a switch study's search rung
    bits = []
    for c in sorted(cells, key=lambda c: c.n_players):
        r = s.advantage_row(c.id)
        where = f"with {c.n_players} players" + (f" ({c.variant_name})" if several else "")
        bits.append(f"{pts_ci(r['advantage'], r['lo'], r['hi'], marks=around(s.threshold))} {where}")
    return (
        f"With the strongest agents of this study ({top.lineup} self-play), which are not expert players, "
        "the start-player advantage is " + "; ".join(bits) + ". "
    )


HEADING = "Hiroba: gardens, kois and pebbles by seat"

SECTION = GameSection(
    findings=_findings,
    tables=_tables,
    scope=TILES.scope,
    provenance=TILES.provenance,
    sections=_sections,
    chance_after_setup=False,
    methods=(
        "Hiroba's per-seat figures are means over deals (games without paired seats) with Student-t "
        "intervals; the pass rate uses the same intervals as win rates."
    ),
)
