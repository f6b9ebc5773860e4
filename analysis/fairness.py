"""From diagnosis to fix: per-cell compensation in points, its confirmation by play, and sweeps.

* **Compensation** (:mod:`analysis.stats.compensation`): for every balance cell played without a
  handicap, the per-seat score handicap that equalises the win shares, with a deal-level
  bootstrap interval.
* **Confirmation**: a cell of the same study that differs only by ``handicap`` = that estimate in
  whole points (e.g. a ``grid.options.handicap`` axis) plays the fix; its start-player advantage
  is read against the practical threshold (``fair``/``negligible``: confirmed; ``matters``/
  ``measurable`` or ``unsettled``: not settled, more games).
* **Re-estimation**: agents that play to the handicap may play differently with it, so an
  estimate from unhandicapped games can be refuted by play. The fix is then estimated again from
  the games of the cell that refuted it (their scores without the handicap give the whole
  handicap that equalises them under that play), and confirmed by the cell played with the new
  whole-point value, and so on along the handicaps the study played: a chain that ends at a
  confirmed fix that agrees with its prediction, at a value not played, or at one already tried.
* **Sweeps** (:mod:`analysis.stats.sweep`): cells that differ only in one numeric option (three
  values or more; for ``handicap``, in one seat's points) get a fitted line and its crossing of fair.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl

from rundir.labels import value_words

from .claims import FixClaim, Interval, OtherPlay, SweepClaim, seat_name
from .evidence import find, played_for
from .games import section
from .model import CellInfo, StudyAnalysis, handicap_of
from .skill import plain_agents
from .stats.compensation import NO_TIEBREAK, Compensation, compensation, outcomes, win_shares
from .stats.intervals import clustered_wilson
from .stats.practical import classify
from .stats.sweep import Crossing, crossing, fit_rows

__all__ = [
    "CellFix",
    "Sweep",
    "cell_fixes",
    "fix_claim",
    "rescored_by",
    "subject",
    "sweep_claim",
    "sweeps",
    "unmeasured_claims",
]

HANDICAP = "handicap"
#: Confirmation readings of a cell's practical class.
#: (``measurable``: a difference, but not shown to matter: not settled, like ``unsettled``.)
CONFIRMS = {"fair": "confirmed", "negligible": "confirmed", "matters": "refuted"}


@dataclass(frozen=True)
class CellFix:
    """A cell's compensation (estimated from its games) and, where the study played it, the cell
    confirming it; ``step`` > 0: a re-estimate from the games of the cell that refuted the last."""

    cell: CellInfo
    comp: Compensation
    confirm_cell: str | None = None
    #: The sibling report that played the handicap (:mod:`analysis.evidence`), where this study did not.
    confirm_report: str | None = None
    confirm_finding: str | None = None
    confirm_advantage: tuple[float, float, float] | None = None
    #: The start-player advantage the recorded scores predict under the whole-point handicap, and
    #: its 95% interval (deal-clustered Wilson on the start player's predicted win share).
    predicted: float = float("nan")
    predicted_lo: float = float("nan")
    predicted_hi: float = float("nan")
    #: Units (deals when paired, else games) of the cell played with the handicap.
    confirm_units: int = 0
    #: The handicap ``cell`` was played with (the estimate is the whole handicap, not a change).
    played_at: tuple[int, ...] = ()
    step: int = 0

    @property
    def agrees(self) -> bool | None:
        """Whether the played cell's interval holds the predicted advantage (``None``: not played)."""
        if self.confirm_advantage is None:
            return None
        _, lo, hi = self.confirm_advantage
        return bool(lo <= self.predicted <= hi)

    @property
    def reading(self) -> str:
        if self.confirm_cell is None and self.confirm_report is None:
            return "not played"
        return CONFIRMS.get(self.confirm_finding or "", "not settled")

    @property
    def settled(self) -> bool:
        """Confirmed by play, and play agrees with the prediction: the chain ends here."""
        return self.reading == "confirmed" and bool(self.agrees)


@dataclass(frozen=True)
class Sweep:
    """Cells differing in one numeric option: the option, its values by cell, and the fit."""

    option: str
    label: str
    cells: tuple[tuple[str, float], ...]
    fit: Crossing


def _rest_key(cell: CellInfo, option: str) -> str:
    rest = {k: v for k, v in cell.variant.items() if k != option}
    if option != HANDICAP and not any(handicap_of(cell)):
        rest.pop(HANDICAP, None)
    return json.dumps([cell.n_players, list(cell.agents), rest], sort_keys=True)


def cell_fixes(s: StudyAnalysis) -> list[CellFix]:
    """The fix of every balance cell played without a handicap: its compensation with its
    confirmation, then the re-estimates along the handicapped cells of the study (see the module)."""
    by_rest: dict[str, list[CellInfo]] = defaultdict(list)
    for c in s.balance:
        by_rest[_rest_key(c, HANDICAP)].append(c)
    if unmeasured_claims(s):  # no compensation in points for this game or run
        return []
    fixes = []
    for c in s.balance:
        if not any(handicap_of(c)):
            fixes += _chain(s, c, by_rest[_rest_key(c, HANDICAP)])
    return fixes


def _chain(s: StudyAnalysis, base: CellInfo, same: list[CellInfo]) -> list[CellFix]:
    """The fix estimated from ``base``, then from each cell whose play refuted the last estimate."""
    steps = [_fix(s, base, same, 0)]
    tried = {tuple(handicap_of(base))}
    while not steps[-1].settled and steps[-1].confirm_cell is not None:
        nxt = next(c for c in same if c.id == steps[-1].confirm_cell)
        if tuple(handicap_of(nxt)) in tried:
            break
        tried.add(tuple(handicap_of(nxt)))
        steps.append(_fix(s, nxt, same, len(steps)))
    return steps


def _fix(s: StudyAnalysis, c: CellInfo, same: list[CellInfo], step: int) -> CellFix:
    """The whole handicap that equalises the games of ``c`` (played with its own handicap, taken off
    their scores), what those scores predict under it, and the cell of ``same`` that played it."""
    played = handicap_of(c)
    games = outcomes(s.rows[c.id], played if any(played) else None, paired=s.paired)
    comp = compensation(games)
    whole = list(comp.whole())
    shares = win_shares(games.scores, games.tiebreaks, np.array(whole, dtype=float))
    per_unit = np.bincount(games.deal, shares[:, 0]) / np.bincount(games.deal)
    p = clustered_wilson(per_unit).shifted(-1 / c.n_players)
    fix = CellFix(
        c,
        comp,
        predicted=p.estimate,
        predicted_lo=p.lo,
        predicted_hi=p.hi,
        played_at=tuple(played),
        step=step,
    )
    # The cell played with the whole value; the cell itself when its own games put fair at its own
    # handicap (an unhandicapped cell that needs none is its own confirmation).
    match = next((o for o in same if handicap_of(o) == whole), None)
    if match is None:
        return _played_elsewhere(s, fix, whole)
    r = s.advantage_row(match.id)
    result = (r["advantage"], r["lo"], r["hi"])
    return replace(
        fix,
        confirm_cell=match.id,
        confirm_finding=str(r["finding"]),
        confirm_advantage=result,
        confirm_units=int(r.get("units") or 0),
    )


def _played_elsewhere(s: StudyAnalysis, fix: CellFix, whole: list[int]) -> CellFix:
    """``fix`` with a sibling report's play of its handicap, where one played it (played
    evidence outranks prediction on every page: :mod:`analysis.evidence`)."""
    p = find(s, fix.cell, whole)
    if p is None:
        return fix
    _, lo, hi = p.advantage
    return replace(
        fix,
        confirm_report=p.report,
        confirm_finding=classify(lo, hi, s.threshold),
        confirm_advantage=p.advantage,
        confirm_units=p.units,
    )


def _held(cell: CellInfo, option: str) -> list[str]:
    """The other options a sweep of ``option`` holds fixed, ``dirk_tiles = 2`` (a handicap only when
    one is given), so that sweeps of one option at different settings of another are told apart."""
    rest = json.loads(_rest_key(cell, option))[2]
    return [f"{k} = {value_words(v)}" for k, v in sorted(rest.items())]


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


#: A 2-player handicap sweep of the second player's points is read as the start player's, the other
#: way round (``[0, -2]`` is the start player +2), the way every fix sentence says a handicap.
_SECOND_SEAT, _START_SEAT = "the second player's handicap (points)", "the start player's handicap (points)"


def _sweep_name(option: str, values: list[Any]) -> str:
    if option != HANDICAP:
        return option
    seats = _varying(values)
    names = [seat_name(i).removeprefix("the ") for i in seats]
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
            values = [_raw(c, option) for c in group]
            xs = _xs(values)
            if xs is None or len(set(xs)) < min_values:
                continue
            name = _sweep_name(option, values)
            if name == _SECOND_SEAT and group[0].n_players == 2:  # as the fixes say it: the start player's
                xs, name = [0.0 - x for x in xs], _START_SEAT  # 0.0 - x: never −0
            members = list(zip(group, xs, strict=True))
            parts = [rows[c.id].with_columns(x=pl.lit(x), cell=pl.lit(c.id)) for c, x in members]
            both = pl.concat(
                [p.select("x", "cell", "seat", "win", "game_index", "deal_index") for p in parts]
            )
            xv, yv, cluster = fit_rows(both, paired=paired)
            n = members[0][0].n_players
            fit = crossing(xv, yv, cluster, 1 / n)
            label = ", ".join([f"{n} players", members[0][0].lineup, *_held(members[0][0], option)])
            found.append(Sweep(name, label, tuple((c.id, x) for c, x in members), fit))
    return found


def subject(s: StudyAnalysis, c: CellInfo) -> str:
    """``2-player Hiroba (greedy)``: the question a fix answers, for its sentence."""
    game = (s.game or "the game").capitalize()
    return f"{c.n_players}-player {game} ({c.name})" if c.name else f"{c.n_players}-player {game}"


def _interval(v: float, lo: float, hi: float) -> Interval:
    return Interval(float(v), float(lo), float(hi))


def _base(s: StudyAnalysis, cell: CellInfo) -> tuple[Interval | None, int]:
    """The start player's advantage ``cell`` played without a handicap, and its deals (``None``:
    a handicapped cell, or one not played)."""
    if any(handicap_of(cell)) or cell.id not in s.rows:
        return None, 0
    r = s.advantage_row(cell.id)
    return _interval(r["advantage"], r["lo"], r["hi"]), int(r.get("units") or 0)


def _others(s: StudyAnalysis, cell: CellInfo, f: CellFix) -> tuple[OtherPlay, ...]:
    """Every handicap the reports beside this one played for ``cell``'s question, but the one ``f``
    already quotes as its own played evidence."""
    quoted = f.comp.whole() if f.confirm_report is not None else None
    return tuple(
        OtherPlay(p.handicap, _interval(*p.advantage), p.units, p.report)
        for p in played_for(s, cell)
        if p.handicap != quoted
    )


def rescored_by(cell: CellInfo) -> str:
    """``greedy``: the line-up's agents when none reads the score handicap (greedy and random play
    the same moves with it, so a handicapped cell is the same games re-scored); else empty."""
    return plain_agents(cell.agents)


def fix_claim(
    s: StudyAnalysis, f: CellFix, about: CellInfo | None = None, *, others: bool = True
) -> FixClaim:
    """The fix ``f`` as a typed claim (:mod:`analysis.claims`): the estimate, the prediction with
    its interval, the played result when the study played it, the study's threshold, the advantage
    played without a handicap, and (``others``) every other handicap the reports beside this one
    played for the question; ``about``: the unhandicapped cell whose question the fix answers
    (default: ``f``'s own cell)."""
    cell = about or f.cell
    played = _interval(*f.confirm_advantage) if f.confirm_advantage is not None else None
    base, base_deals = _base(s, cell)
    return FixClaim(
        subject=subject(s, cell),
        handicap=f.comp.whole(),
        fair_at=tuple(_interval(*v) for v in zip(f.comp.points, f.comp.lo, f.comp.hi, strict=True)),
        predicted=_interval(f.predicted, f.predicted_lo, f.predicted_hi),
        played=played,
        threshold=s.threshold,
        deals=f.comp.n_deals,
        played_deals=f.confirm_units,
        played_in=f.confirm_report or "",
        base=base,
        base_deals=base_deals,
        others=_others(s, cell, f) if others else (),
        rescored_by=rescored_by(cell),
    )


def unmeasured_claims(s: StudyAnalysis) -> list[FixClaim]:
    """Claims that say why no compensation in points is given (the score is not points, or the run
    lacks the tie-break column); empty when compensation can be measured."""
    game = section(s.game)
    missing = None if all("tiebreak" in r.columns for r in s.rows.values()) else NO_TIEBREAK
    if game.score_in_points and missing is None:
        return []
    cells = [c for c in s.balance if not any(handicap_of(c))]
    return [
        FixClaim(subject(s, c), (0,) * c.n_players, (), None, None, s.threshold, 0,
                 score_unit="points" if game.score_in_points else None, score_note=game.score_note,
                 missing=missing)
        for c in cells
    ]  # fmt: skip


def sweep_claim(s: StudyAnalysis, w: Sweep) -> SweepClaim:
    """The sweep ``w`` as a typed claim: every played cell's advantage beside the fitted line."""
    cells = []
    for cell, x in sorted(w.cells, key=lambda t: t[1]):
        r = s.advantage_row(cell)
        cells.append((x, _interval(r["advantage"], r["lo"], r["hi"])))
    fit = w.fit
    return SweepClaim(
        option=w.option,
        subject=w.label,
        cells=tuple(cells),
        slope=_interval(fit.slope, fit.slope_lo, fit.slope_hi),
        crossing=_interval(fit.value, fit.lo, fit.hi),
        lack_of_fit_p=fit.lack_of_fit_p,
        threshold=s.threshold,
    )


def summary(s: StudyAnalysis) -> dict[str, Any]:
    """The fixes and sweeps as JSON-able data (for ``fairest`` and tests)."""
    return {
        "fixes": [
            {"cell": f.cell.id, "step": f.step, "played_at": list(f.played_at), "points": list(f.comp.points),
             "lo": list(f.comp.lo), "hi": list(f.comp.hi), "whole": list(f.comp.whole()),
             "confirm_cell": f.confirm_cell, "reading": f.reading, "agrees": f.agrees}
            for f in cell_fixes(s)
        ],
        "sweeps": [
            {"option": w.option, "label": w.label, "value": w.fit.value, "lo": w.fit.lo, "hi": w.fit.hi,
             "in_range": w.fit.in_range}
            for w in sweeps(s)
        ],
    }  # fmt: skip
