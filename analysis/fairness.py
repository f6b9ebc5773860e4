"""From diagnosis to fix: per-cell compensation in points, its confirmation by play, and sweeps.

* **Compensation** (:mod:`analysis.stats.compensation`): for every balance cell played without a
  handicap, the per-seat score handicap that equalises the win shares, with a deal-level
  bootstrap interval.
* **Confirmation**: a cell of the same study that differs only by ``handicap`` = that estimate in
  whole points (e.g. a ``grid.options.handicap`` axis) plays the fix; its start-player advantage
  is read against the practical threshold (``fair``/``negligible``: confirmed; ``matters``/
  ``measurable``: refuted; ``unsettled``: more games).
* **Sweeps** (:mod:`analysis.stats.sweep`): cells that differ only in one numeric option (three
  values or more; for ``handicap``, in one seat's points) get a fitted line and its crossing of fair.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from .model import CellInfo, StudyAnalysis
from .stats.compensation import Compensation, compensation, outcomes, win_shares
from .stats.sweep import Crossing, crossing, fit_rows

__all__ = ["CellFix", "Sweep", "cell_fixes", "sweeps"]

HANDICAP = "handicap"
#: Confirmation readings of a cell's practical class.
CONFIRMS = {"fair": "confirmed", "negligible": "confirmed", "matters": "refuted", "measurable": "refuted"}


@dataclass(frozen=True)
class CellFix:
    """A cell's compensation and, where the study played it, the cell confirming it."""

    cell: CellInfo
    comp: Compensation
    confirm_cell: str | None = None
    confirm_finding: str | None = None
    confirm_advantage: tuple[float, float, float] | None = None
    #: The start-player advantage the recorded scores predict under the whole-point handicap.
    predicted: float = float("nan")

    @property
    def agrees(self) -> bool | None:
        """Whether the played cell's interval holds the predicted advantage (``None``: not played)."""
        if self.confirm_advantage is None:
            return None
        _, lo, hi = self.confirm_advantage
        return lo <= self.predicted <= hi

    @property
    def reading(self) -> str:
        if self.confirm_cell is None:
            return "not played"
        return CONFIRMS.get(self.confirm_finding or "", "not settled")


@dataclass(frozen=True)
class Sweep:
    """Cells differing in one numeric option: the option, its values by cell, and the fit."""

    option: str
    label: str
    cells: tuple[tuple[str, float], ...]
    fit: Crossing


def handicap_of(cell: CellInfo) -> list[int]:
    value = cell.variant.get(HANDICAP)
    return [int(v) for v in value] if isinstance(value, list) else [0] * cell.n_players


def _rest_key(cell: CellInfo, option: str) -> str:
    rest = {k: v for k, v in cell.variant.items() if k != option}
    if option != HANDICAP and not any(handicap_of(cell)):
        rest.pop(HANDICAP, None)
    return json.dumps([cell.n_players, list(cell.agents), rest], sort_keys=True)


def cell_fixes(s: StudyAnalysis) -> list[CellFix]:
    """Compensation of every balance cell played without a handicap, with its confirmation."""
    by_rest: dict[str, list[CellInfo]] = defaultdict(list)
    for c in s.balance:
        by_rest[_rest_key(c, HANDICAP)].append(c)
    fixes = []
    for c in s.balance:
        if any(handicap_of(c)):
            continue
        games = outcomes(s.rows[c.id], paired=s.paired)
        comp = compensation(games)
        whole = list(comp.whole())
        shares = win_shares(games.scores, games.tiebreaks, np.array(whole, dtype=float))
        predicted = float(shares[:, 0].mean()) - 1 / c.n_players
        fix = CellFix(c, comp, predicted=predicted)
        same = by_rest[_rest_key(c, HANDICAP)]
        match = next((o for o in same if handicap_of(o) == whole and any(whole)), None)
        if match is not None:
            r = s.advantage_row(match.id)
            played = (r["advantage"], r["lo"], r["hi"])
            fix = CellFix(c, comp, match.id, str(r["finding"]), played, predicted)
        fixes.append(fix)
    return fixes


def _raw(cell: CellInfo, option: str) -> Any:
    """The option's value in ``cell`` (no handicap: zeros)."""
    return handicap_of(cell) if option == HANDICAP else cell.variant.get(option)


def _numeric(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _varying(values: list[Any]) -> list[int]:
    """Positions of list values that differ between the cells."""
    return [i for i in range(len(values[0])) if len({json.dumps(v[i]) for v in values}) > 1]


def _xs(values: list[Any]) -> list[float] | None:
    """The swept number of each value: the value itself, or for lists of one length the entries
    that vary between the cells (all equal within a cell, e.g. ``[k, k, "third"]`` or a handicap
    ``[0, k]``); ``None`` when the values are no sweep."""
    if all(_numeric(v) for v in values):
        return [float(v) for v in values]
    if not all(isinstance(v, list) for v in values) or len({len(v) for v in values}) != 1:
        return None
    varying = _varying(values)
    xs = []
    for v in values:
        picked = {json.dumps(v[i]) for i in varying}
        if len(picked) != 1 or not _numeric(v[varying[0]]):
            return None
        xs.append(float(v[varying[0]]))
    return xs


ORDINALS = ("start player", "second player", "third player", "fourth player", "fifth player", "sixth player")


def _sweep_name(option: str, values: list[Any]) -> str:
    if option != HANDICAP:
        return option
    seats = _varying(values)
    names = [ORDINALS[i] if i < len(ORDINALS) else f"seat {i}" for i in seats]
    return f"the {' and '.join(names)}'s handicap (points)"


def sweeps(s: StudyAnalysis, min_values: int = 3) -> list[Sweep]:
    """Every sweep of the study (cells differing in one numeric option, ``min_values`` or more values)."""
    return sweeps_of(s.balance, s.rows, paired=s.paired, min_values=min_values)


def sweeps_of(
    cells: list[CellInfo], rows: dict[str, pl.DataFrame], *, paired: bool, min_values: int = 3
) -> list[Sweep]:
    """The sweeps among ``cells`` (with games in ``rows``)."""
    cells = [c for c in cells if c.id in rows]
    options = sorted({k for c in cells for k in c.variant} | {HANDICAP})
    found = []
    for option in options:
        groups: dict[str, list[CellInfo]] = defaultdict(list)
        for c in cells:
            if option in c.variant or option == HANDICAP:
                groups[_rest_key(c, option)].append(c)
        for group in groups.values():
            xs = _xs([_raw(c, option) for c in group])
            if xs is None or len(set(xs)) < min_values:
                continue
            members = list(zip(group, xs, strict=True))
            parts = [rows[c.id].with_columns(x=pl.lit(x), cell=pl.lit(c.id)) for c, x in members]
            both = pl.concat(
                [p.select("x", "cell", "seat", "win", "game_index", "deal_index") for p in parts]
            )
            xv, yv, cluster = fit_rows(both, paired=paired)
            n = members[0][0].n_players
            fit = crossing(xv, yv, cluster, 1 / n)
            label = f"{n} players, {members[0][0].lineup}"
            name = _sweep_name(option, [_raw(c, option) for c in group])
            found.append(Sweep(name, label, tuple((c.id, x) for c, x in members), fit))
    return found


def summary(s: StudyAnalysis) -> dict[str, Any]:
    """The fixes and sweeps as JSON-able data (for ``fairest`` and tests)."""
    return {
        "fixes": [
            {"cell": f.cell.id, "points": list(f.comp.points), "lo": list(f.comp.lo), "hi": list(f.comp.hi),
             "whole": list(f.comp.whole()), "confirm_cell": f.confirm_cell, "reading": f.reading}
            for f in cell_fixes(s)
        ],
        "sweeps": [
            {"option": w.option, "label": w.label, "value": w.fit.value, "lo": w.fit.lo, "hi": w.fit.hi,
             "in_range": w.fit.in_range}
            for w in sweeps(s)
        ],
    }  # fmt: skip
