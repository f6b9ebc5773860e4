"""Claims as typed data, sentences from one place: a fix or a sweep can say no more than its numbers.

A report's sentence about a fix ("give the second player +2 points …") or a sweep ("fair at
dirk_tiles = 3.4 …") is a claim a designer acts on. Each is first a record — what was asked, the
numbers with their intervals, the study's practical threshold, and whether the evidence was
*played* (a cell of the study ran with the setting) or *predicted* (recomputed from the scores of
games played without it) — and only then words, rendered here and nowhere else:

* :class:`FixClaim` and :func:`fix_status` / :func:`fix_sentence`: a score handicap. Played
  evidence outranks prediction: once the handicap was played, the played interval alone decides
  (``confirmed``: within ±t; ``refuted``: wholly beyond ±t; else ``played, not settled``) and a
  refuted handicap is never recommended. Unplayed, "should be fair" is said only when the
  *interval* of the predicted advantage lies within ±t. No handicap is said in points when the
  game's score is not in points, nor when the run lacks what the recount needs. "Give" is said
  only for 2 players (3+: only the start player's advantage is checked) and never where the game is
  already fair within ±t without a handicap; every other handicap played for the question (in the
  reports beside this one) is quoted, judged at this page's threshold; a play by agents that do
  not read the handicap (greedy, random) is said to be the same games re-scored.
* :class:`SweepClaim` and :func:`sweep_status` / :func:`sweep_sentence`: a numeric option swept
  over played cells. A played cell within ±t is the answer; a fitted line is read only when its
  slope interval excludes 0 and a lack-of-fit test does not reject it; "never fair" only when every
  played cell lies wholly beyond ±t on one side and the line agrees.
* :class:`SkillClaim` and :func:`skill_status` / :func:`skill_sentence`: one question asked at
  several skill levels. "The answer changes with skill" only when the paired difference strongest
  minus weakest excludes 0 and the levels' settled directions differ; "the same" only when every
  level has the same settled direction and that difference holds 0 (a change in size is said as
  one); without the difference, no more than the directions.

Seats are named by turn order (the start player, the second player, …) everywhere. The
threshold is printed beside every "fair", "confirmed" and "refuted".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from .stats.practical import MIN_VERDICT_DEALS, classify, direction
from .words import MINUS, around, pts_span, signed

__all__ = [
    "LACK_OF_FIT_ALPHA",
    "FixClaim",
    "Interval",
    "OtherPlay",
    "SkillClaim",
    "SweepClaim",
    "band_words",
    "fix_sentence",
    "fix_status",
    "handicap_words",
    "option_value",
    "plain_play_warning",
    "seat_name",
    "skill_sentence",
    "skill_status",
    "sweep_sentence",
    "sweep_status",
    "threshold_points",
    "threshold_source_words",
]

#: A lack-of-fit p-value below this rejects the straight line through a sweep's cells.
LACK_OF_FIT_ALPHA = 0.05

ORDINALS = ("start player", "second player", "third player", "fourth player", "fifth player", "sixth player")

FixStatus = Literal[
    "not measured", "not in points", "too few deals", "confirmed", "refuted", "played, not settled",
    "predicted fair", "predicted not fair", "prediction not settled",
]  # fmt: skip
SweepStatus = Literal["fair where played", "fair on the fitted line", "never fair", "not settled"]
SkillStatus = Literal[
    "changes", "same direction, different size", "same", "directions differ, change not shown",
    "directions differ, not compared", "same direction, not compared", "settled at some levels",
    "not settled",
]  # fmt: skip


def plain_play_warning(what: str = "", who: str = "greedy") -> str:
    """The warning beside an answer played only by agents that do not search (greedy, random): one
    wording for every page; ``what`` says what the answer is (``this is the race's answer for that
    play``), ``who`` played it (:func:`analysis.skill.plain_agents`)."""
    said = f"{what}, and " if what else ""
    return (
        f"Played by {who} agents only: {said}the answer may change with skill (a skill ladder says "
        "whether it does)."
    )


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval (shares of win rate, or option values for a crossing)."""

    value: float
    lo: float
    hi: float

    def within(self, t: float) -> bool:
        """The whole interval lies within ±t (fair or negligible against the threshold)."""
        return classify(self.lo, self.hi, t) in ("fair", "negligible")

    def beyond(self, t: float) -> bool:
        """The whole interval lies beyond ±t on one side."""
        return classify(self.lo, self.hi, t) == "matters"


def seat_name(seat: int) -> str:
    """A turn-order seat counted from 0 in the data, named for a reader: ``the second player``."""
    return f"the {ORDINALS[seat]}" if seat < len(ORDINALS) else f"seat {seat + 1}"


def threshold_points(t: float) -> str:
    """A practical threshold (a share) in points of win rate: ``1 point``, ``2.5 points``; the one
    spelling every page uses (:func:`band_words` adds the ±)."""
    return f"{100 * t:g} point{'' if abs(100 * t - 1) < 1e-9 else 's'}"


def threshold_source_words(source: str) -> str:
    """Where the practical threshold came from, in words (the study key stays in Provenance)."""
    return {"default": "the default", "given": "given for this report"}.get(source, "this study's threshold")


def band_words(t: float) -> str:
    """``±1 point`` / ``±2 points`` of win rate."""
    return f"±{threshold_points(t)}"


def _pts(i: Interval, t: float | None = None) -> str:
    """``+2.1 points [+0.3, +3.9]``, the ends on their side of 0 (and of ±t, when given)."""
    return f"{signed(100 * i.value)} points {pts_span(i.lo, i.hi, (0.0,) if t is None else around(t))}"


@dataclass(frozen=True)
class OtherPlay:
    """Another handicap played for a fix's question in a report beside this one: the start
    player's advantage it played (a share, 95% interval) over ``deals`` deals."""

    handicap: tuple[int, ...]
    advantage: Interval
    deals: int
    report: str


@dataclass(frozen=True)
class FixClaim:
    """A score handicap for one question (a cell: game, player count, line-up) and its evidence.

    ``handicap``: whole points per turn-order seat (index 0 = the start player, always 0);
    ``fair_at``: the fractional handicap per seat that equalises the shares, with its interval
    (points); ``predicted``: the start player's advantage the recorded scores give under
    ``handicap`` had nobody played differently; ``played``: the start player's advantage of the
    cell played with ``handicap`` (``None``: not played). ``score_unit``: ``None`` when the
    game's score is not in points (``score_note`` says why); ``missing``: why the recount could
    not be made (``None``: it was). ``base``: the start player's advantage played without a
    handicap (``None``: not known); ``others``: the other handicaps played for this question in
    the reports beside this one; ``rescored_by``: the line-up's agents when none of them reads the
    handicap (``greedy``: a handicapped play is the same games re-scored)."""

    subject: str
    handicap: tuple[int, ...]
    fair_at: tuple[Interval, ...]
    predicted: Interval | None
    played: Interval | None
    threshold: float
    deals: int
    played_deals: int = 0
    #: The sibling report whose study played ``handicap`` (empty: this study played it).
    played_in: str = ""
    score_unit: Literal["points"] | None = "points"
    score_note: str = ""
    missing: str | None = None
    base: Interval | None = None
    base_deals: int = 0
    others: tuple[OtherPlay, ...] = ()
    rescored_by: str = ""


def _refuted_elsewhere(c: FixClaim) -> bool:
    """Another play of this very handicap lies wholly beyond ±t (plays that disagree settle nothing)."""
    return any(
        o.handicap == c.handicap and o.deals >= MIN_VERDICT_DEALS and o.advantage.beyond(c.threshold)
        for o in c.others
    )


def own_play(c: FixClaim) -> FixClaim:
    """``c`` with its own handicap's play where this study did not play it but another report did
    (among ``others``; the one on most deals): played evidence outranks a prediction, so that play
    decides the fix and is no longer quoted as another handicap."""
    same = [o for o in c.others if o.handicap == c.handicap] if c.played is None else []
    if not same:
        return c
    o = max(same, key=lambda x: x.deals)
    rest = tuple(x for x in c.others if x is not o)
    return replace(c, played=o.advantage, played_deals=o.deals, played_in=o.report, others=rest)


def fix_status(c: FixClaim) -> FixStatus:
    """What the evidence of ``c`` supports (see the module docstring)."""
    c = own_play(c)
    if c.missing is not None:
        return "not measured"
    if c.score_unit is None:
        return "not in points"
    if c.played is not None:
        if 0 < c.played_deals < MIN_VERDICT_DEALS:  # one minimum for every verdict
            return "played, not settled"
        if c.played.within(c.threshold):
            return "played, not settled" if _refuted_elsewhere(c) else "confirmed"
        return "refuted" if c.played.beyond(c.threshold) else "played, not settled"
    if c.predicted is None:
        return "not measured"
    if c.deals < MIN_VERDICT_DEALS:
        return "too few deals"
    if c.predicted.within(c.threshold):
        return "predicted fair"
    return "predicted not fair" if c.predicted.beyond(c.threshold) else "prediction not settled"


def _rule(c: FixClaim) -> str:
    return handicap_words(c.handicap)


def handicap_words(handicap: tuple[int, ...] | list[int]) -> str:
    """``the second player +2 points`` / ``no handicap`` (2 players: a negative handicap of the
    second player is said as points to the start player)."""
    h = list(handicap)
    if len(h) == 2 and h[1] < 0:
        h = [-h[1], 0]
    given = [(seat, p) for seat, p in enumerate(h) if p]
    if not given:
        return "no handicap"
    return "; ".join(f"{seat_name(s)} {signed(p, 0)} point{'' if abs(p) == 1 else 's'}" for s, p in given)


def _flat(i: Interval) -> bool:
    """An interval that prints with no width: the bootstrap gives it no spread (a point is a whole
    unit of score and the fraction only breaks ties), so it is not shown as an interval."""
    return signed(i.lo) == signed(i.hi)


def _seat_fair(seat: int, f: Interval) -> str:
    """``the second player +1.4 [+1.3, +1.6]``; a flat interval: the value alone."""
    return f"{seat_name(seat)} {signed(f.value)}" + ("" if _flat(f) else f" [{signed(f.lo)}, {signed(f.hi)}]")


def _fair_at(c: FixClaim) -> str:
    """Each seat's fair handicap with its interval (2 players: a negative one said as points to the
    start player, as :func:`handicap_words` does)."""
    if len(c.fair_at) == 2 and c.fair_at[1].value < 0:
        f = c.fair_at[1]
        return _seat_fair(0, Interval(-f.value, -f.hi, -f.lo))
    return "; ".join(_seat_fair(s, c.fair_at[s]) for s in range(1, len(c.fair_at)))


def _rounds_to_none(c: FixClaim) -> bool:
    """Every seat's fair handicap rounds (half up, as :meth:`Compensation.whole` does) to 0."""
    return len(c.fair_at) > 1 and all(math.floor(f.value + 0.5) == 0 for f in c.fair_at[1:])


def _ties_to(c: FixClaim) -> str:
    """The seat a fractional fair handicap favours in ties: the one given the most (start: 0)."""
    values = [0.0, *(f.value for f in c.fair_at[1:])]
    return seat_name(max(range(len(values)), key=lambda s: values[s]))


def _estimate(c: FixClaim) -> str:
    """Where the recorded scores put fair. A fair handicap that rounds to no whole point is not
    printed as an interval: a fraction of a point only decides ties, and that tie-break was not
    played; a seat whose interval has no width is printed without one."""
    if _rule(c) == "no handicap" and _rounds_to_none(c):
        if all(f.value == 0 for f in c.fair_at[1:]):
            return f"the recorded scores put fair at no handicap ({c.deals:,} deals)"
        return (
            f"the recorded scores suggest no whole-point handicap ({c.deals:,} deals): the fair handicap "
            f"they give is a fraction of a point, which only decides ties (a tie-break in {_ties_to(c)}'s "
            "favour; its effect is not measured)"
        )
    flat = any(_flat(f) for f in c.fair_at[1:])
    note = (
        " (no interval where the bootstrap gives none: a fraction of a point only decides ties)"
        if flat
        else ""
    )
    return f"the recorded scores put fair at {_fair_at(c)} points ({c.deals:,} deals){note}"


#: 3+ players: a fix reads the start player's advantage only, not every seat's share.
_OTHERS_PLAYED = "the other seats' shares were not read for this fix"
_OTHERS_PREDICTED = "the other seats' shares were not predicted"
_NOT_MEASURED_FIX = "Which whole-point handicap would fix it is not measured."


def _give(c: FixClaim, played: bool) -> str:
    """The head of a fix within the threshold: the rule to give, for 2 players only; with no
    handicap, "no handicap is needed". 3+ players: only the start player's advantage was checked,
    so a handicap is not recommended, only said to bring that advantage within ±t."""
    none = _rule(c) == "no handicap"
    if len(c.handicap) >= 3:
        if none:
            return f"{c.subject} without a handicap"
        verb = "brings" if played else "would bring"
        band = band_words(c.threshold)
        return f"A handicap of {_rule(c)} {verb} the start player's advantage in {c.subject} within {band}"
    return "No handicap is needed" if none else f"Give {_rule(c)}"


def _verdict(i: Interval, t: float) -> str:
    """``within ±1 point`` / ``beyond ±1 point`` / ``neither within nor beyond ±1 point``."""
    band = band_words(t)
    if i.within(t):
        return f"within {band}"
    return f"beyond {band}" if i.beyond(t) else f"neither within nor beyond {band}"


def _already(c: FixClaim) -> str | None:
    """Where the unhandicapped play lies within ±t and the fix names a handicap: already fair
    without one, and where the handicap would move the advantage (never "give")."""
    if c.base is None or _rule(c) == "no handicap" or not c.base.within(c.threshold):
        return None
    if 0 < c.base_deals < MIN_VERDICT_DEALS:  # too few deals to call it fair
        return None
    rule, band, t = _rule(c), band_words(c.threshold), c.threshold
    base = f"played without one ({c.base_deals:,} deals), the start player's advantage is {_pts(c.base, t)}"
    if len(c.handicap) == 2:
        head = f"{c.subject} is already fair within {band} without a handicap: {base}"
    else:
        head = (
            f"The start player's advantage in {c.subject} is already within {band} without a handicap: "
            f"{base}; {_OTHERS_PLAYED}"
        )
    if c.played is not None:
        where = f" in the {c.played_in} study" if c.played_in else ""
        moved = (
            f"played with {rule}{where} ({c.played_deals:,} deals), it moves to {_pts(c.played, t)}, "
            f"{_verdict(c.played, t)}"
        )
    else:
        assert c.predicted is not None
        moved = (
            f"with {rule} the scores predict it would move to {_pts(c.predicted, t)}, "
            f"{_verdict(c.predicted, t)} (a prediction from the scores; not played)"
        )
    return f"{head}. {moved[:1].upper()}{moved[1:]}."


def _within(c: FixClaim, played: bool) -> str:
    """What a start-player advantage within ±t says: the game is fair for 2 players; for 3+ only
    that the start player's advantage is within ±t (the other seats were not read)."""
    band = band_words(c.threshold)
    if len(c.handicap) == 2:
        if played:
            return f"within {band}, so {c.subject} is fair at this skill level (played)"
        return (
            f"within {band}, so {c.subject} should be fair at this skill level (a prediction from the "
            "scores; not played)"
        )
    if played:
        return f"within {band} (played); {_OTHERS_PLAYED}"
    return (
        f"within {band}, so the start player's advantage should be within {band} at this skill level "
        f"(a prediction from the scores; not played); {_OTHERS_PREDICTED}"
    )


def fix_sentence(c: FixClaim) -> str:
    """The claim in words; never more than :func:`fix_status` supports: the fix, then every other
    handicap played for the question, then (a line-up that does not read the handicap) that such
    plays are the same games re-scored."""
    c = own_play(c)
    status = fix_status(c)
    if status == "not measured":
        return f"Compensation for {c.subject} not measured: {c.missing or 'no recount was possible'}."
    if status == "not in points":
        why = c.score_note or "its score is not points"
        return f"Compensation for {c.subject} is not given in points: {why}."
    if status == "too few deals":
        few = (
            f"No handicap is put forward for {c.subject}: its {c.deals:,} deals are fewer than the "
            f"{MIN_VERDICT_DEALS} a verdict needs."
        )
        return " ".join(x for x in (few, _others(c), _rescored(c)) if x)
    main = _already(c) or _fix_words(c, status)
    return " ".join(x for x in (main, _needed(c, status), _adapts(c, status), _others(c), _rescored(c)) if x)


def _needed(c: FixClaim, status: FixStatus) -> str:
    """A handicap confirmed by play while the game without one is not settled either way: the
    handicap suffices, but is not shown to be needed."""
    if status != "confirmed" or c.base is None or _rule(c) == "no handicap":
        return ""
    if c.base.within(c.threshold) or c.base.beyond(c.threshold):
        return ""
    return (
        f"Without a handicap ({c.base_deals:,} deals) it is not settled either way: "
        f"{_pts(c.base, c.threshold)}, so the handicap is not shown to be needed."
    )


def _adapts(c: FixClaim, status: FixStatus) -> str:
    """A prediction for agents that read the handicap (searches): the recount cannot see them adapt."""
    predicted = status in ("predicted fair", "predicted not fair", "prediction not settled")
    if not predicted or c.rescored_by or _rule(c) == "no handicap":
        return ""
    return (
        "Searching agents adapt to a handicap, which a recount of the scores does not see: only play "
        "settles it."
    )


def _others(c: FixClaim) -> str:
    """One clause per other handicap played for the question, judged at this page's threshold."""
    if not c.others:
        return ""
    t = c.threshold
    said = [
        f"{handicap_words(o.handicap)} in the {o.report} study ({o.deals:,} deals): {_pts(o.advantage, t)}, "
        + (
            f"{_verdict(o.advantage, t)} ({_reading(o.advantage, t)})"
            if o.deals >= MIN_VERDICT_DEALS
            else f"fewer deals than the {MIN_VERDICT_DEALS} a verdict needs (not settled)"
        )
        for o in c.others
    ]
    return f"Other handicaps played for this question: {'; '.join(said)}."


def _reading(i: Interval, t: float) -> str:
    return "confirmed" if i.within(t) else "refuted" if i.beyond(t) else "not settled"


def _rescored(c: FixClaim) -> str:
    """A line-up that does not read the handicap: its handicapped plays are re-scored games."""
    plays = c.others or (c.played is not None and _rule(c) != "no handicap")
    if not c.rescored_by or not plays:
        return ""
    who = c.rescored_by[:1].upper() + c.rescored_by[1:]
    return (
        f"{who} does not read the handicap, so a handicapped play by it is the same games re-scored: it "
        "shows the scores, not how players adapt."
    )


def _fix_words(c: FixClaim, status: FixStatus) -> str:
    """The fix itself in words (the played or the predicted evidence of its own handicap)."""
    if c.played is not None:
        return _played_sentence(c, status)
    assert c.predicted is not None
    rule, band, estimate = _rule(c), band_words(c.threshold), _estimate(c)
    none = rule == "no handicap"
    under = "without one" if none else f"with {rule}"
    predicted = f"{under} the scores predict a start-player advantage of {_pts(c.predicted, c.threshold)}"
    if status == "predicted fair":
        if len(c.handicap) >= 3 and not none:
            return (
                f"{_give(c, played=False)} (a prediction; {_OTHERS_PREDICTED}): {estimate}; {predicted}, "
                f"within {band} (not played)."
            )
        return f"{_give(c, played=False)}: {estimate}; {predicted}, {_within(c, played=False)}."
    if status == "predicted not fair":
        if none:
            return (
                f"{c.subject} is predicted not fair without a handicap: "
                f"{estimate}; {predicted}, beyond {band} (not played). {_NOT_MEASURED_FIX}"
            )
        return (
            f"The nearest whole-point handicap ({rule}) is predicted not fair for {c.subject}: {estimate}; "
            f"{predicted}, beyond {band} (not played)."
        )
    what = f"{c.subject} is fair without a handicap" if none else f"{rule} makes {c.subject} fair"
    return (
        f"Whether {what} is not settled: {estimate}; {predicted}, neither within nor beyond {band} "
        "(not played; more deals needed)."
    )


def _played_sentence(c: FixClaim, status: FixStatus) -> str:
    """A played handicap in words: the played interval alone decides (played outranks predicted);
    "refutes this handicap" only for a handicap that gives points (none is not a handicap)."""
    assert c.played is not None
    rule, band = _rule(c), band_words(c.threshold)
    none = rule == "no handicap"
    where = f" in the {c.played_in} study" if c.played_in else ""
    how = ("without one" if none else f"with {rule}") + where
    advantage = _pts(c.played, c.threshold)
    played = f"played {how} ({c.played_deals:,} deals), the start player's advantage is {advantage}"
    if status == "confirmed":
        return f"{_give(c, played=True)}: {played}, {_within(c, played=True)}."
    if status == "refuted":
        if none:
            return (
                f"{c.subject} is not fair without a handicap: {_estimate(c)}; "
                f"but {played}, beyond {band}. {_NOT_MEASURED_FIX}"
            )
        return f"Do not give {rule}: {_estimate(c)}, but {played}, beyond {band}; play refutes this handicap."
    head = f"Without a handicap {c.subject}" if none else f"{c.subject} with {rule}"
    if c.played.within(c.threshold):  # within here, refuted by another play of it (quoted after)
        others = f"; {_OTHERS_PLAYED}" if len(c.handicap) >= 3 else ""
        disputed = f"within {band}, but another play of it lies beyond {band}{others}"
        return f"{head} is not settled: {played}, {disputed}."
    return f"{head} is not settled: {played}, neither within nor beyond {band}."


@dataclass(frozen=True)
class SweepClaim:
    """A numeric option swept over played cells: each cell's value and start-player advantage,
    the fitted line's slope (per unit, shares) and crossing of fair (option units; the interval
    may be unbounded), and the lack-of-fit p-value of the straight line (``nan``: two values only,
    untestable)."""

    option: str
    subject: str
    cells: tuple[tuple[float, Interval], ...]
    slope: Interval
    crossing: Interval
    lack_of_fit_p: float
    threshold: float

    @property
    def x_min(self) -> float:
        return min(x for x, _ in self.cells)

    @property
    def x_max(self) -> float:
        return max(x for x, _ in self.cells)


def _line_ok(c: SweepClaim) -> bool:
    """The straight line may be read: its slope excludes 0 and lack of fit is not shown."""
    slope_known = c.slope.lo > 0 or c.slope.hi < 0
    return slope_known and not (c.lack_of_fit_p < LACK_OF_FIT_ALPHA)


def sweep_status(c: SweepClaim) -> SweepStatus:
    """What the played cells and the line support (see the module docstring)."""
    if any(a.within(c.threshold) for _, a in c.cells):
        return "fair where played"
    bounded = math.isfinite(c.crossing.lo) and math.isfinite(c.crossing.hi)
    inside = c.x_min <= c.crossing.value <= c.x_max
    if _line_ok(c) and bounded and inside:
        return "fair on the fitted line"
    all_above = all(a.beyond(c.threshold) and a.lo > 0 for _, a in c.cells)
    all_below = all(a.beyond(c.threshold) and a.hi < 0 for _, a in c.cells)
    if (all_above or all_below) and _line_ok(c) and not inside:
        return "never fair"
    return "not settled"


def _x(v: float) -> str:
    return f"{v:.2f}".replace("-", MINUS) if math.isfinite(v) else ("∞" if v > 0 else f"{MINUS}∞")


def _elsewhere(c: SweepClaim) -> str:
    """The played values not within ±t, by what their intervals show: `` Elsewhere: beyond ±1 point
    at −3; not settled at 1.``"""
    rest = [(x, a) for x, a in c.cells if not a.within(c.threshold)]
    beyond = [option_value(x) for x, a in rest if a.beyond(c.threshold)]
    open_ = [option_value(x) for x, a in rest if not a.beyond(c.threshold)]
    parts = [f"beyond {band_words(c.threshold)} at {', '.join(beyond)}"] * bool(beyond) + [
        f"not settled at {', '.join(open_)}"
    ] * bool(open_)
    return f" Elsewhere: {'; '.join(parts)}." if parts else ""


def option_value(v: float) -> str:
    """An option's played value, shortest form, with a true minus sign: ``−2``, ``0.5``."""
    return f"{v:g}".replace("-", MINUS)


def _fit_words(c: SweepClaim) -> str:
    s = c.slope
    slope = f"{signed(100 * s.value, 2)} [{signed(100 * s.lo, 2)}, {signed(100 * s.hi, 2)}] points per unit"
    fit = (
        "lack of fit not testable"
        if math.isnan(c.lack_of_fit_p)
        else f"lack-of-fit p = {c.lack_of_fit_p:.2f}"
    )
    return f"fitted line {slope}, {fit}"


def sweep_sentence(c: SweepClaim) -> str:
    """The sweep in words; never more than :func:`sweep_status` supports."""
    status = sweep_status(c)
    band = band_words(c.threshold)
    if status == "fair where played":
        fair = [(x, a) for x, a in c.cells if a.within(c.threshold)]
        where = "; ".join(f"{c.option} = {option_value(x)}: {_pts(a, c.threshold)}" for x, a in fair)
        return f"Fair within {band} where played ({c.subject}): {where}.{_elsewhere(c)}"
    if status == "fair on the fitted line":
        cr = c.crossing
        return (
            f"Fair within {band} at {c.option} = {_x(cr.value)} [{_x(cr.lo)}, {_x(cr.hi)}] on the fitted "
            f"line ({c.subject}; {_fit_words(c)}); no played value is within {band}, so this is a prediction."
        )
    if status == "never fair":
        side = "ahead" if c.cells[0][1].lo > 0 else "behind"
        return (
            f"Never fair between {option_value(c.x_min)} and {option_value(c.x_max)} ({c.subject}): every "
            f"played value leaves the start player {side} beyond {band}, and the fitted line crosses fair "
            f"only outside the range ({_fit_words(c)})."
        )
    return (
        f"Not settled ({c.subject}): no played value of {c.option} is shown within {band}, and the played "
        f"values and the fitted line ({_fit_words(c)}) do not show where or whether it becomes fair."
    )


@dataclass(frozen=True)
class SkillClaim:
    """One question (player count, variant) asked at several skill levels: each level's line-up
    and start-player advantage with its 95% interval, weakest first; ``difference``: the paired
    difference of the advantage, strongest minus weakest, with its simultaneous 95% interval
    (``None``: not compared); ``intervals``: what the levels' intervals are, for the sentence."""

    levels: tuple[tuple[str, Interval], ...]
    difference: Interval | None
    threshold: float
    intervals: str = "95% intervals"
    #: Per level: played on fewer deals than every verdict needs (its answer is then not settled).
    few: tuple[bool, ...] = ()

    def directions(self) -> list[str]:
        """Each level's answer: ``above``/``below`` (excludes 0), ``fair`` (within ±t), ``unsettled``
        (also where the level rests on too few deals)."""
        few = self.few or (False,) * len(self.levels)
        return [
            "unsettled" if short else direction(i.lo, i.hi, self.threshold)
            for (_, i), short in zip(self.levels, few, strict=True)
        ]


def skill_status(c: SkillClaim) -> SkillStatus:
    """What the levels and their difference support (see the module docstring): the answer changes
    only when settled directions differ *and* the difference excludes 0; the same only when every
    level has one settled direction and the difference holds 0."""
    dirs = c.directions()
    settled = {d for d in dirs if d != "unsettled"}
    d = c.difference
    shown = d is not None and (d.lo > 0 or d.hi < 0)
    if len(settled) > 1:
        if d is None:
            return "directions differ, not compared"
        return "changes" if shown else "directions differ, change not shown"
    if not settled:
        return "not settled"
    if "unsettled" in dirs:
        return "settled at some levels"
    if d is None:
        return "same direction, not compared"
    return "same direction, different size" if shown else "same"


def _direction_words(d: str, t: float) -> str:
    return {
        "above": "start player ahead",
        "below": "start player behind",
        "fair": f"fair within {band_words(t)}",
        "unsettled": "not settled",
    }[d]


def _expert_caveat(c: SkillClaim) -> str:
    """Where the answer moves with skill: the strongest line-up is not the game at expert level."""
    return (
        f"A result from one skill level does not carry over to players of another. The strongest line-up "
        f"here, {c.levels[-1][0]}, is only the closest model tested, not the game at expert level: whether "
        "stronger play moves the answer again needs a skill ladder (a study that plays ever stronger agents "
        "against each other), which says per number whether it has converged."
    )


def _levels_words(c: SkillClaim) -> str:
    """Each level, weakest first: ``greedy +23.9 points [+22.8, +24.9], start player ahead``."""
    said = [
        f"{name} {_pts(i, c.threshold)}, {_direction_words(d, c.threshold)}"
        for (name, i), d in zip(c.levels, c.directions(), strict=True)
    ]
    return "; ".join(said) + f" ({c.intervals})"


def skill_sentence(c: SkillClaim) -> str:
    """The skill levels in words; never more than :func:`skill_status` supports."""
    status = skill_status(c)
    dirs, side = c.directions(), _levels_words(c)
    one = _direction_words(dirs[0], c.threshold)
    diff = "" if c.difference is None else f"strongest minus weakest: {_pts(c.difference)}, simultaneous 95%"
    if status == "changes":
        return f"The answer changes with skill ({diff}): {side}. {_expert_caveat(c)}"
    if status == "same direction, different size":
        return (
            f"The same direction at every skill level tested ({one}), but not the same size ({diff}): "
            f"{side}. {_expert_caveat(c)}"
        )
    if status == "same":
        return (
            f"The answer is the same at every skill level tested ({one} at each; {diff}, which holds 0, "
            f"so no change in size is shown): {side}."
        )
    if status == "directions differ, change not shown":
        return (
            f"The directions differ between skill levels, but no change with skill is shown ({diff}, which "
            f"holds 0): {side}. More deals would tell whether skill moves the answer."
        )
    unmeasured = "the strongest and weakest were not compared"
    if status == "directions differ, not compared":
        return f"The directions differ between skill levels ({unmeasured}, so no change is shown): {side}."
    if status == "same direction, not compared":
        return (
            f"The same direction at every skill level tested ({one}; {unmeasured}, so a change in size is "
            f"not measured): {side}."
        )
    if status == "settled at some levels":
        open_ = [name for (name, _), d in zip(c.levels, dirs, strict=True) if d == "unsettled"]
        evidence = f"; {diff}" if diff else ""
        return f"Settled only at some skill levels ({', '.join(open_)} needs more games{evidence}): {side}."
    return f"Not settled at any skill level tested{f' ({diff})' if diff else ''}: {side}."
