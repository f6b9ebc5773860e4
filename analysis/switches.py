"""Rule switches ranked by their effect on the start-player advantage.

In a study whose cells include the defaults and cells that change one variant option each (the
built-in ``taluva-switches`` and ``titania-switches``), each such cell is compared with the
defaults cell of the same player count and line-up: the change of the start-player win rate with
its 95% interval and the verdict against the study's practical threshold, both from the generic
Holm-corrected cell comparisons (:func:`analysis.stats.compare.compare_cells`). Rows are ranked
by the size of the change. Game modules add :func:`switch_sections` to their ``sections``.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from .content import Block, Interval, Section, Table, Text
from .model import CellInfo, StudyAnalysis

__all__ = ["switch_changes", "switch_sections"]


def _switch(base: CellInfo, cell: CellInfo) -> tuple[str, Any] | None:
    """The one option ``cell`` sets differently from ``base`` (None if not exactly one)."""
    keys = set(base.variant) | set(cell.variant)
    diff = [k for k in sorted(keys) if base.variant.get(k) != cell.variant.get(k)]
    if len(diff) != 1 or cell.n_players != base.n_players or cell.agents != base.agents:
        return None
    return diff[0], cell.variant.get(diff[0])


def switch_changes(s: StudyAnalysis) -> pl.DataFrame:
    """Per player count and line-up, each one-switch cell against the defaults cell (variant
    without options): ``n_players``, ``agents``, ``option``, ``value``, ``cell``, ``diff``, ``lo``,
    ``hi`` (change of the start-player win rate), ``finding``; ranked by ``|diff|``."""
    comp = s.comparisons.filter(pl.col("metric") == "start_advantage") if s.comparisons.height else None
    recs: list[dict[str, Any]] = []
    for base in (c for c in s.balance if not c.variant):
        for cell in s.balance:
            sw = _switch(base, cell)
            if sw is None or comp is None:
                continue
            pair = comp.filter(
                ((pl.col("cell_a") == base.id) & (pl.col("cell_b") == cell.id))
                | ((pl.col("cell_a") == cell.id) & (pl.col("cell_b") == base.id))
            )
            if not pair.height:
                continue
            r = pair.row(0, named=True)
            sign = 1.0 if r["cell_a"] == base.id else -1.0
            lo, hi = sorted((sign * r["lo"], sign * r["hi"]))
            recs.append(
                {
                    "n_players": base.n_players,
                    "agents": base.lineup,
                    "option": sw[0],
                    "value": str(sw[1]),
                    "cell": cell.id,
                    "diff": sign * r["diff"],
                    "lo": lo,
                    "hi": hi,
                    "finding": r["finding"],
                }
            )
    if not recs:
        return pl.DataFrame()
    frame = pl.DataFrame(recs).with_columns(pl.col("diff").abs().alias("_size"))
    return frame.sort(["n_players", "agents", "_size"], descending=[False, False, True]).drop("_size")


def switch_sections(s: StudyAnalysis, game: str) -> list[Section]:
    """A section ranking the study's one-switch cells by their change of the advantage (none if
    the study has no defaults cell with one-switch neighbours)."""
    t = switch_changes(s)
    if not t.height:
        return []
    blocks: list[Block] = [
        Text(
            "Each cell that changes one rule switch against the defaults cell of the same player count "
            "and line-up: the change of the start-player win rate (points, 95% interval, Holm-corrected "
            f"comparison) and its class against the practical threshold of {100 * s.threshold:.3g} points, "
            "largest change first."
        )
    ]
    rows = tuple(
        (
            r["n_players"],
            r["agents"],
            f"{r['option']} = {r['value']}",
            Interval(r["diff"], r["lo"], r["hi"], 1, "points"),
            r["finding"],
        )
        for r in t.iter_rows(named=True)
    )
    blocks.append(Table(("players", "line-up", "switch", "change of the advantage", "class"), rows))
    return [
        Section(f"{game}: rule switches ranked by their effect on the start-player advantage", tuple(blocks))
    ]
