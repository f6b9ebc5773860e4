"""The balance atlas in data and words: one row per game × player count.

For every game's atlas run (a skill-ladder study over every player count) and every player count:

* the **rung** read: the strongest rung whose Elo step from the rung below has a 95% interval above
  0 (measurably stronger; :func:`chosen_rung`), else the lowest rung;
* at that rung, the start player's advantage (2 players) or every seat's win share (3+ players,
  intervals simultaneous over the seats: Bonferroni), each interval **anytime-valid** (a
  confidence sequence, :mod:`analysis.stats.sequential`: the atlas' precision rounds look at the
  rows after every round and grow the unsettled ones, so a fixed-sample interval would overstate
  its confidence), and the **verdict** in words
  (:func:`two_player_verdict`, :func:`seat_verdict`): *fair within ±t* only when every interval
  lies inside the threshold band, *favours seat k* only when seat k's interval lies above its fair
  share (for 2 players: the advantage's interval excludes 0), else *not settled*; nothing is said
  that the interval does not show, and no verdict rests on fewer than :data:`MIN_VERDICT_DEALS`
  deals;
* the **trend** along the ladder (:mod:`analysis.skill`'s verdict: converged, still moving, not
  settled);
* what would settle an unsettled verdict: the deals the rung needs (the half-width shrinking as
  1/√deals, a little optimistic for a confidence sequence, whose width shrinks as √(log n / n),
  until the interval excludes the fair value or fits the band, the room of
  :func:`analysis.precision.settle_room`) at the cell's measured cost, and for the trend the deals
  per rung at which :func:`analysis.precision.uncertainty` reaches 1.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from .claims import threshold_points
from .games import section
from .model import StudyAnalysis
from .plays import played_at
from .precision import uncertainty
from .skill import LadderMetric
from .stats.intervals import Estimate
from .stats.practical import MIN_VERDICT_DEALS
from .stats.seats import seat_win_sequences, start_advantage_sequence
from .strength import Z95
from .study import analyse
from .words import around, pct, pts, pts_span, signed

__all__ = [
    "GameAtlas",
    "AtlasRow",
    "SeatShare",
    "chosen_rung",
    "few_deals",
    "points_words",
    "game_atlas",
    "seat_verdict",
    "settle_deals",
    "share_digits",
    "two_player_verdict",
]


@dataclass(frozen=True)
class SeatShare:
    """One seat's win share (seat 1 = start player) with its interval."""

    seat: int
    share: float
    lo: float
    hi: float


@dataclass(frozen=True)
class AtlasRow:
    """One game × player count (module docstring). ``kind``: fair / favours / unsettled."""

    game: str
    n_players: int
    rung: str
    elo: float
    elo_lo: float
    elo_hi: float
    rung_note: str
    cell: str
    deals: int
    advantage: float
    lo: float
    hi: float
    seats: tuple[SeatShare, ...]
    kind: str
    verdict: str
    trend: str
    threshold: float
    settle_deals: int | None = None
    settle_core_hours: float | None = None
    trend_core_hours: float | None = None


@dataclass
class GameAtlas:
    """One game's part of the atlas: its rows, rungs with Elo, ladder metrics (for the figure),
    scope sentences and the agents played."""

    game: str
    study: str
    description: str
    rungs: list[str]
    elo: dict[str, tuple[float, float, float]]
    rows: list[AtlasRow]
    metrics: list[LadderMetric]
    scope: list[str]
    games: int
    threshold: float
    git_commit: str | None
    notes: list[str] = field(default_factory=list)
    #: Games on disk per cell id (what the run holds, whatever invocations played it).
    cell_games: dict[str, int] = field(default_factory=dict)


def chosen_rung(s: StudyAnalysis) -> tuple[int, str]:
    """Index of the strongest rung measurably stronger than the one below (Elo step's 95% interval
    above 0), with a note; 0 (the lowest rung) when none is."""
    st = s.ladder.strength.get("") if s.ladder is not None else None
    rungs = s.rungs
    if st is None:
        return 0, "rungs not rated (no head-to-head games)"
    rated = set(st.ratings["agent"].to_list())
    for k in range(len(rungs) - 1, 0, -1):
        if not {rungs[k - 1], rungs[k]} <= rated:
            continue
        gap, se = st.elo_diff(rungs[k - 1], rungs[k])
        if math.isfinite(se) and gap - Z95 * se > 0:
            above = "" if k == len(rungs) - 1 else f"; {rungs[k + 1]} is not measurably stronger"
            return (
                k,
                f"{signed(gap, 0)} Elo over {rungs[k - 1]} "
                f"(95% CI {signed(gap - Z95 * se, 0)} to {signed(gap + Z95 * se, 0)}){above}",
            )
    return 0, f"no search rung is measurably stronger than {rungs[0]}"


def _band(lo: float, hi: float, centre: float, t: float) -> bool:
    return centre - t <= lo and hi <= centre + t


#: ``1 point``, ``2.5 points``: the claims' one spelling of a threshold (kept under this name for importers).
points_words = threshold_points


def two_player_verdict(est: float, lo: float, hi: float, t: float) -> tuple[str, str]:
    """(kind, words) of a 2-player start-player advantage ``est`` [``lo``, ``hi``] against ±``t``."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "unsettled", "not settled (no interval)"
    if _band(lo, hi, 0.0, t):
        return "fair", f"fair within ±{points_words(t)}"
    if lo > 0:
        more = f", by more than {points_words(t)}" if lo > t else ""
        return "favours", f"favours seat 1 (the start player){more}"
    if hi < 0:
        more = f", by more than {points_words(t)}" if hi < -t else ""
        return "favours", f"favours seat 2{more}"
    return "unsettled", "not settled"


def seat_verdict(seats: tuple[SeatShare, ...], t: float) -> tuple[str, str]:
    """(kind, words) of 3+ seats' win shares (simultaneous intervals) against the fair share ±``t``."""
    fair = 1 / len(seats)
    if any(not (math.isfinite(s.lo) and math.isfinite(s.hi)) for s in seats):
        return "unsettled", "not settled (no interval)"
    if all(_band(s.lo, s.hi, fair, t) for s in seats):
        return "fair", f"fair within ±{points_words(t)} for every seat"
    up = [s.seat for s in seats if s.lo > fair]
    down = [s.seat for s in seats if s.hi < fair]
    parts = []
    if up:
        parts.append(f"favours seat{'s' if len(up) > 1 else ''} {_and(up)}")
    if down:
        several = len(down) > 1
        whose = "their" if several else "its"
        parts.append(f"seat{'s' if several else ''} {_and(down)} below {whose} fair share")
    if parts:
        return "favours", "; ".join(parts)
    return "unsettled", "not settled"


def _and(seats: list[int]) -> str:
    return ", ".join(map(str, seats[:-1])) + (" and " if len(seats) > 1 else "") + str(seats[-1])


def settle_deals(intervals: list[tuple[float, float, float]], units: int, t: float) -> int | None:
    """Deals at which the row's one question settles, each interval (estimate, lo, hi around its fair
    value 0) narrowing as 1/√deals: "not fair" settles once any one interval excludes 0 (the seat
    farthest from its share is enough), "fair within ±t" once every interval lies inside ±t;
    whichever needs fewer deals (the room at least a tenth of t, as
    :func:`analysis.precision.settle_room`). None when there is no interval yet."""
    if units <= 0 or not intervals:
        return None
    half = [(hi - lo) / 2 for _, lo, hi in intervals]
    if not all(math.isfinite(h) for h in half):
        return None
    floor = t / 10
    unfair = min(
        units * (h / max(abs(est), floor)) ** 2 for (est, _, _), h in zip(intervals, half, strict=True)
    )
    fair = max(
        units * (h / max(t - abs(est), floor)) ** 2 for (est, _, _), h in zip(intervals, half, strict=True)
    )
    return math.ceil(min(unfair, fair))


def _trend_units(m: LadderMetric) -> float | None:
    """Factor on every rung's deals at which :func:`analysis.precision.uncertainty` reaches 1."""
    if m.verdict is None or m.verdict.status != "unsettled":
        return None
    base = {p.cell: float(max(p.units, 1)) for p in m.points}

    def u(f: float) -> float:
        return uncertainty(m, {k: v * f for k, v in base.items()})

    lo, hi = 1.0, 2.0
    while u(hi) > 1:
        lo, hi = hi, hi * 2
        if hi > 1e5:
            return None
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if u(mid) > 1 else (lo, mid)
    return hi


def _seats(s: StudyAnalysis, cell: str, n: int) -> tuple[SeatShare, ...]:
    """Every seat's win share with its anytime-valid interval, simultaneous over the seats."""
    rows = s.rows.get(cell)
    if rows is None or not rows.height:
        return ()
    seq = seat_win_sequences(rows, paired=s.paired, alpha=0.05 / n)
    return tuple(SeatShare(i + 1, e.estimate, e.lo, e.hi) for i, e in enumerate(seq))


def _advantage(s: StudyAnalysis, cell: str) -> Estimate:
    """The start player's advantage with its anytime-valid interval."""
    return start_advantage_sequence(s.rows[cell], paired=s.paired)


def _row(s: StudyAnalysis, n: int, k: int, note: str, cost: Mapping[str, float]) -> AtlasRow | None:
    rung = s.rungs[k]
    cell = next((c for c in s.balance if c.n_players == n and set(c.agents) == {rung}), None)
    if cell is None or cell.id not in s.rows:
        return None
    r = s.advantage_row(cell.id)
    st = s.ladder.strength.get("") if s.ladder is not None else None
    elo = (float("nan"),) * 3
    if st is not None and rung in st.ratings["agent"].to_list():
        hit = st.ratings.row(st.ratings["agent"].to_list().index(rung), named=True)
        elo = (hit["elo"], hit["elo_lo"], hit["elo_hi"])
    t = s.threshold
    seats = _seats(s, cell.id, n) if n > 2 else ()
    adv = _advantage(s, cell.id)
    if n == 2:
        kind, words = two_player_verdict(adv.estimate, adv.lo, adv.hi, t)
        intervals = [(adv.estimate, adv.lo, adv.hi)]
    else:
        kind, words = seat_verdict(seats, t)
        intervals = [(x.share - 1 / n, x.lo - 1 / n, x.hi - 1 / n) for x in seats]
    units = int(r["units"])
    kind, words = few_deals(kind, words, units)
    need = settle_deals(intervals, units, t) if kind == "unsettled" else None
    if need is not None:
        need = max(need, MIN_VERDICT_DEALS)
    m = s.ladder.metric("start_advantage", n) if s.ladder is not None else None
    trend = "one rung only" if m is None or m.verdict is None else _trend_words(m)
    hours = None
    if need is not None and cell.id in cost:
        hours = max(need - units, 0) * n * cost[cell.id] / 3600
    return AtlasRow(
        s.game,
        n,
        rung,
        *elo,
        note,
        cell.id,
        units,
        adv.estimate,
        adv.lo,
        adv.hi,
        seats,
        kind,
        words,
        trend,
        t,
        need,
        hours,
        _trend_hours(s, m, cost),
    )


def few_deals(kind: str, words: str, units: int) -> tuple[str, str]:
    """(kind, words) of a row on ``units`` deals: below :data:`MIN_VERDICT_DEALS` (too few for the
    intervals' approximation) not settled, naming no verdict, as every report words it."""
    if units >= MIN_VERDICT_DEALS:
        return kind, words
    return (
        "unsettled",
        f"not settled (only {units} deals, fewer than the {MIN_VERDICT_DEALS} a verdict needs)",
    )


def _trend_words(m: LadderMetric) -> str:
    from .ladder_findings import per_100_elo, status_words

    c = m.verdict
    assert c is not None
    if c.status == "moving" and c.slope is not None:
        return f"still moving with skill ({per_100_elo(m, c)})"
    return status_words(c)


def _trend_hours(s: StudyAnalysis, m: LadderMetric | None, cost: Mapping[str, float]) -> float | None:
    """Core-hours more that would settle the trend verdict (every rung's deals times the factor)."""
    f = _trend_units(m) if m is not None else None
    if f is None or m is None or not all(p.cell in cost for p in m.points):
        return None
    n = m.n_players
    return sum((f - 1) * max(p.units, 1) * n * cost[p.cell] for p in m.points) / 3600


def game_atlas(run_dir: pathlib.Path | str, cost: Mapping[str, float] | None = None) -> GameAtlas:
    """The atlas rows of one game's run (``cost``: CPU seconds per game by cell id, for the
    core-hours that would settle what is not settled)."""
    s = analyse(run_dir, allow_partial=True, generic=True)  # the same page from a run or its data
    k, note = chosen_rung(s)
    counts = sorted({c.n_players for c in s.balance})
    rows = [r for n in counts if (r := _row(s, n, k, note, cost or {})) is not None]
    st = s.ladder.strength.get("") if s.ladder is not None else None
    elo = {}
    if st is not None:
        elo = {r["agent"]: (r["elo"], r["elo_lo"], r["elo_hi"]) for r in st.ratings.iter_rows(named=True)}
    game = section(s.game)
    scope = game.scope(s) if game.scope is not None else []
    metrics = [m for m in (s.ladder.metrics if s.ladder else []) if m.key == "start_advantage"]
    done, planned = s.analysed
    notes = [] if done >= planned else [f"{done:,} of {planned:,} planned games analysed (run incomplete)"]
    return GameAtlas(
        s.game,
        s.name,
        s.description,
        s.rungs,
        elo,
        rows,
        metrics,
        scope,
        done,
        s.threshold,
        played_at(s.manifest.history()),
        notes,
        {c.id: int(s.advantage_row(c.id)["games"]) for c in s.info if c.id in s.rows},
    )


def _side(x: float) -> int:
    """−1, 0 or +1: below, on (within 1e-9) or above."""
    return (x > 1e-9) - (x < -1e-9)


def share_digits(lo: float, hi: float, fair: float, t: float, *, from_fair: bool = False) -> int:
    """Decimals (in points) an interval of a share keeps: none (one when narrow), more until each
    printed end lies strictly on the same side of every mark (the fair share and the threshold
    marks fair ± ``t``) as the true end, equal to a mark only when the end is on it, so that an
    end 0.73 points above the share never prints as ``+1`` beside ±1 point (``from_fair``: the ends
    are printed as distances from the fair share). Unlike :func:`analysis.words.edge_digits`, which
    reads a mark exactly, the share columns' ends are compared with the marks *as printed* (the
    fair share ``17%`` for 1/6, and that ± ``t``)."""
    base = 1 if hi - lo < 0.05 else 0
    steps = (0.0, 100 * t, -100 * t)

    def keeps(d: int) -> bool:
        shown = [round(100 * (v - fair), d) if from_fair else round(100 * v, d) for v in (lo, hi)]
        centre = 0.0 if from_fair else round(100 * fair, d)
        return all(
            _side(p - centre - k) == _side(100 * (v - fair) - k)
            for v, p in zip((lo, hi), shown, strict=True)
            for k in steps
            if math.isfinite(v)
        )

    return next((d for d in range(base, base + 4) if keeps(d)), base + 4)


def cell_words(r: AtlasRow) -> str:
    """The number of a row: the advantage (2 players) or every seat's share (3+)."""
    if r.n_players == 2:
        return f"{pts(r.advantage)} points {pts_span(r.lo, r.hi, around(r.threshold))}"
    f = 1 / r.n_players

    def seat(x: SeatShare) -> str:
        d = share_digits(x.lo, x.hi, f, r.threshold)
        return f"{x.seat}: {pct(x.share, 0)} [{100 * x.lo:.{d}f}, {100 * x.hi:.{d}f}]"

    return " · ".join(seat(x) for x in r.seats)
