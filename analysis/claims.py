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
  game's score is not in points, nor when the run lacks what the recount needs.
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
from dataclasses import dataclass
from typing import Literal

from .stats.practical import classify, direction
from .words import MINUS, around, pts_span, signed

__all__ = [
    "LACK_OF_FIT_ALPHA",
    "FixClaim",
    "Interval",
    "SkillClaim",
    "SweepClaim",
    "band_words",
    "fix_sentence",
    "fix_status",
    "handicap_words",
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
    "not measured", "not in points", "confirmed", "refuted", "played, not settled",
    "predicted fair", "predicted not fair", "prediction not settled",
]  # fmt: skip
SweepStatus = Literal["fair where played", "fair on the fitted line", "never fair", "not settled"]
SkillStatus = Literal[
    "changes", "same direction, different size", "same", "directions differ, change not shown",
    "directions differ, not compared", "same direction, not compared", "settled at some levels",
    "not settled",
]  # fmt: skip


def plain_play_warning(what: str = "") -> str:
    """The warning beside an answer played only by agents that do not search (greedy, random): one
    wording for every page; ``what`` says what the answer is (``this is the fairest setting for
    that play``)."""
    said = f"{what}, and " if what else ""
    return (
        f"Played by greedy (or random) agents only: {said}the answer may change with skill (a skill "
        "ladder says whether it does)."
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
class FixClaim:
    """A score handicap for one question (a cell: game, player count, line-up) and its evidence.

    ``handicap``: whole points per turn-order seat (index 0 = the start player, always 0);
    ``fair_at``: the fractional handicap per seat that equalises the shares, with its interval
    (points); ``predicted``: the start player's advantage the recorded scores give under
    ``handicap`` had nobody played differently; ``played``: the start player's advantage of the
    cell played with ``handicap`` (``None``: not played). ``score_unit``: ``None`` when the
    game's score is not in points (``score_note`` says why); ``missing``: why the recount could
    not be made (``None``: it was)."""

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


def fix_status(c: FixClaim) -> FixStatus:
    """What the evidence of ``c`` supports (see the module docstring)."""
    if c.missing is not None:
        return "not measured"
    if c.score_unit is None:
        return "not in points"
    if c.played is not None:
        if c.played.within(c.threshold):
            return "confirmed"
        return "refuted" if c.played.beyond(c.threshold) else "played, not settled"
    if c.predicted is None:
        return "not measured"
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


def _fair_at(c: FixClaim) -> str:
    """Each seat's fair handicap with its interval (2 players: a negative one said as points to the
    start player, as :func:`handicap_words` does)."""
    if len(c.fair_at) == 2 and c.fair_at[1].value < 0:
        f = c.fair_at[1]
        return f"{seat_name(0)} {signed(-f.value)} [{signed(-f.hi)}, {signed(-f.lo)}]"
    return "; ".join(
        f"{seat_name(s)} {signed(c.fair_at[s].value)} [{signed(c.fair_at[s].lo)}, {signed(c.fair_at[s].hi)}]"
        for s in range(1, len(c.fair_at))
    )


def _rounds_to_none(c: FixClaim) -> bool:
    """Every seat's fair handicap rounds (half up, as :meth:`Compensation.whole` does) to 0."""
    return len(c.fair_at) > 1 and all(math.floor(f.value + 0.5) == 0 for f in c.fair_at[1:])


def _estimate(c: FixClaim) -> str:
    """Where the recorded scores put fair; with no handicap, that it rounds to none (when it does)."""
    rounds = (
        ", which rounds to no whole-point handicap"
        if _rule(c) == "no handicap" and _rounds_to_none(c)
        else ""
    )
    return f"the recorded scores put fair at {_fair_at(c)} points ({c.deals:,} deals){rounds}"


#: 3+ players: a fix reads the start player's advantage only, not every seat's share.
_OTHERS_PLAYED = "the other seats' shares were not read for this fix"
_OTHERS_PREDICTED = "the other seats' shares were not predicted"
_NOT_MEASURED_FIX = "Which whole-point handicap would fix it is not measured."


def _give(c: FixClaim) -> str:
    """The head of a fix within the threshold: the rule to give; with no handicap, "no handicap is
    needed" for 2 players only (3+ players: only the start player's advantage was read)."""
    none = _rule(c) == "no handicap"
    if len(c.handicap) >= 3 and none:
        return f"{c.subject} without a handicap"
    return "No handicap is needed" if none else f"Give {_rule(c)}"


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
    """The claim in words; never more than :func:`fix_status` supports."""
    status = fix_status(c)
    if status == "not measured":
        return f"Compensation for {c.subject} not measured: {c.missing or 'no recount was possible'}."
    if status == "not in points":
        why = c.score_note or "its score is not points"
        return f"Compensation for {c.subject} is not given in points: {why}."
    if c.played is not None:
        return _played_sentence(c, status)
    assert c.predicted is not None
    rule, band, estimate = _rule(c), band_words(c.threshold), _estimate(c)
    none = rule == "no handicap"
    under = "without one" if none else f"with {rule}"
    predicted = f"{under} the scores predict a start-player advantage of {_pts(c.predicted, c.threshold)}"
    if status == "predicted fair":
        return f"{_give(c)}: {estimate}; {predicted}, {_within(c, played=False)}."
    if status == "predicted not fair":
        if none:
            return (
                f"{c.subject} is predicted not fair without a handicap, and the scores suggest none: "
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
        return f"{_give(c)}: {played}, {_within(c, played=True)}."
    if status == "refuted":
        if none:
            return (
                f"{c.subject} is not fair without a handicap, and the scores suggest none: {_estimate(c)}; "
                f"but {played}, beyond {band}. {_NOT_MEASURED_FIX}"
            )
        return f"Do not give {rule}: {_estimate(c)}, but {played}, beyond {band}; play refutes this handicap."
    head = f"Without a handicap {c.subject}" if none else f"{c.subject} with {rule}"
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
        where = "; ".join(f"{c.option} = {x:g}: {_pts(a, c.threshold)}" for x, a in fair)
        return f"Fair within {band} where played ({c.subject}): {where}."
    if status == "fair on the fitted line":
        cr = c.crossing
        return (
            f"Fair within {band} at {c.option} = {_x(cr.value)} [{_x(cr.lo)}, {_x(cr.hi)}] on the fitted "
            f"line ({c.subject}; {_fit_words(c)}); no played value is within {band}, so this is a prediction."
        )
    if status == "never fair":
        side = "ahead" if c.cells[0][1].lo > 0 else "behind"
        return (
            f"Never fair between {c.x_min:g} and {c.x_max:g} ({c.subject}): every played value leaves the "
            f"start player {side} beyond {band}, and the fitted line crosses fair only outside the range "
            f"({_fit_words(c)})."
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
