"""The atlas' precision rounds: the next games go to the rows that settle cheapest.

After the first round, every row of the atlas (a game × player count, read at its chosen rung,
:func:`analysis.atlas.game_atlas`) is either settled (fair within ±t, or favouring a seat) or says
how many deals would settle its one question (:func:`analysis.atlas.settle_deals`) and what they
cost at the cell's measured cost per game. :func:`row_round` grows the unsettled rows cheapest
first, so a fixed budget settles as many rows as it can: each grown row to its projected deals
plus :data:`MARGIN`, at most :data:`MAX_GROWTH` times its deals in one round (the projection is
re-made from the new games in the next round), until the round's core-seconds are spent.

The loop that calls it (``pipeline.atlas_run``) looks at the data after every round, so the
rows' intervals are anytime-valid (confidence sequences, :mod:`analysis.stats.sequential`): a row
that settles after several looks keeps its 95%.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass

from .atlas import AtlasRow, game_atlas

__all__ = ["MARGIN", "MAX_GROWTH", "RowRound", "row_round"]

#: Deals beyond the projection a grown row gets (the projection assumes the estimate holds).
MARGIN = 1.2
#: Largest factor on a row's deals in one round.
MAX_GROWTH = 4.0
#: Fewest deals added to a grown row.
MIN_ADD = 8
#: Deals an unsettled 2-player row is grown to before others that cannot settle (the atlas reads
#: every 2-player row at strong play on at least this many deals, or settled on fewer).
TWO_PLAYER_DEALS = 1000


@dataclass(frozen=True)
class RowRound:
    """The next round: total games per cell id per game (only cells that grow), its estimated
    core-seconds, whether every row is settled, and one line saying what is open."""

    games: dict[str, dict[str, int]]
    cost_s: float
    settled: bool
    line: str


def _target(r: AtlasRow) -> int:
    assert r.settle_deals is not None
    want = math.ceil(r.settle_deals * MARGIN)
    if _short(r):  # to TWO_PLAYER_DEALS this round, fewer where the projection settles it sooner
        want = min(want, TWO_PLAYER_DEALS)
    return max(min(want, math.ceil(r.deals * MAX_GROWTH)), r.deals + MIN_ADD)


def _short(r: AtlasRow) -> bool:
    """An unsettled 2-player row below :data:`TWO_PLAYER_DEALS`: grown to it whatever it costs to settle."""
    return r.n_players == 2 and r.deals < TWO_PLAYER_DEALS


def row_round(
    dirs: Mapping[str, pathlib.Path], cost: Mapping[str, Mapping[str, float]], budget_s: float
) -> RowRound:
    """Where the next ``budget_s`` core-seconds go (module docstring): ``dirs`` game → run
    directory, ``cost`` game → cell id → measured CPU seconds per game."""
    rows = [r for g, d in dirs.items() for r in game_atlas(d, cost.get(g, {})).rows]
    growable = (r for r in rows if r.kind == "unsettled" and r.settle_deals is not None)
    open_ = sorted(
        (r for r in growable if r.cell in cost.get(r.game, {})),
        key=lambda r: (r.settle_core_hours or 0.0, r.game, r.n_players),
    )
    settled = sum(r.kind != "unsettled" for r in rows)
    head = f"atlas rows: {settled} of {len(rows)} settled"
    if not open_:
        return RowRound({}, 0.0, True, f"{head}; no open row can be settled by more deals")
    # rows the budget cannot settle wait while others can (the cheapest one is grown when none can),
    # except 2-player rows short of TWO_PLAYER_DEALS, which are grown to it first
    short = [r for r in open_ if _short(r)]
    fits = [r for r in open_ if not _short(r) and (r.settle_core_hours or 0.0) * 3600 <= budget_s]
    feasible = short + fits or open_[:1]
    games: dict[str, dict[str, int]] = {}
    spent = 0.0
    for r in feasible:
        per_deal = r.n_players * cost[r.game][r.cell]
        deals = _target(r)
        room = budget_s - spent
        if (deals - r.deals) * per_deal > room:
            deals = r.deals + math.floor(room / per_deal) if per_deal > 0 else deals
            if deals - r.deals < MIN_ADD:
                break
        games.setdefault(r.game, {})[r.cell] = deals * r.n_players
        spent += (deals - r.deals) * per_deal
    first = open_[0]
    if not games:
        need = first.settle_core_hours or 0.0
        line = (
            f"{head}; the {budget_s / 3600:.2f} core-hours left settle no open row (the cheapest, "
            f"{first.game} {first.n_players} players, needs about {need:.2f} core-hours more)"
        )
        return RowRound(games, 0.0, False, line)
    line = (
        f"{head}; next round {spent / 3600:.2f} core-hours on {sum(map(len, games.values()))} rows, "
        f"cheapest first ({first.game} {first.n_players} players: {first.deals:,} → "
        f"{games.get(first.game, {}).get(first.cell, 0) // first.n_players:,} deals)"
    )
    return RowRound(games, spent, False, line)
