"""Every rendered claim is implied by its record: property tests over a grid of estimates,
intervals, thresholds, deal counts and evidence (Hypothesis), plus worked cases from the review."""

from __future__ import annotations

import math
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.claims import (
    FixClaim,
    Interval,
    OtherPlay,
    SkillClaim,
    SweepClaim,
    fix_sentence,
    fix_status,
    handicap_words,
    own_play,
    skill_sentence,
    skill_status,
    sweep_sentence,
    sweep_status,
)
from analysis.stats.practical import MIN_VERDICT_DEALS
from analysis.words import signed

ORDINAL = ("start", "second", "third", "fourth", "fifth")
THRESHOLDS = st.sampled_from([0.01, 0.02, 0.03, 0.05])


@st.composite
def intervals(draw: st.DrawFn, scale: float = 0.2) -> Interval:
    value = draw(st.floats(-scale, scale, allow_nan=False))
    below = draw(st.floats(0, scale / 2, allow_nan=False))
    above = draw(st.floats(0, scale / 2, allow_nan=False))
    return Interval(value, value - below, value + above)


def _inside(i: Interval, t: float) -> bool:
    """Written again from the definition, not through the module: the whole interval within ±t."""
    return -t <= i.lo and i.hi <= t


def _outside(i: Interval, t: float) -> bool:
    return i.lo > t or i.hi < -t


@st.composite
def fix_claims(draw: st.DrawFn) -> FixClaim:
    n = draw(st.integers(2, 5))
    none = draw(st.booleans())  # no handicap half the time: the sentences that must not say "refutes"
    rest = [0] * (n - 1) if none else draw(st.lists(st.integers(-6, 6), min_size=n - 1, max_size=n - 1))
    handicap = (0, *rest)
    scale = draw(st.sampled_from([0.6, 8.0]))  # 0.6: a fair handicap that may round to none
    fair_at = (Interval(0, 0, 0), *(draw(intervals(scale)) for _ in range(n - 1)))
    played = draw(st.none() | intervals())
    unit = draw(st.sampled_from(["points", "points", "points", None]))
    seats = st.lists(st.integers(-4, 4), min_size=n - 1, max_size=n - 1).filter(any)
    same: bool = draw(st.booleans())
    others: list[list[int]] = draw(st.lists(seats, max_size=3, unique_by=tuple))
    if others and same:
        others[0] = list(handicap[1:]) if any(handicap) else others[0]  # another play of this very handicap
    return FixClaim(
        subject=f"{n}-player Game",
        handicap=handicap,
        fair_at=fair_at,
        predicted=draw(st.none() | intervals()) if played is None else draw(intervals()),
        played=played,
        threshold=draw(THRESHOLDS),
        deals=draw(st.one_of(st.integers(1, 30), st.integers(1, 50_000))),
        played_deals=draw(st.one_of(st.integers(1, 30), st.integers(1, 50_000))),
        score_unit=unit,  # type: ignore[arg-type]
        score_note="its score is a ranking key, not points",
        missing=draw(st.none() | st.just("the run predates the tiebreak column")),
        base=draw(st.none() | intervals()),
        base_deals=draw(st.integers(1, 50_000)),
        others=tuple(
            OtherPlay(
                (0, *h),
                draw(intervals()),
                draw(st.one_of(st.integers(1, 30), st.integers(1, 50_000))),
                "sibling",
            )
            for h in others
        ),
        rescored_by=draw(st.sampled_from(["", "greedy"])),
    )


def test_a_prediction_never_gives_a_handicap_another_report_played_and_refuted():
    """Found by the property below (CI, 2026-11-29): predicted fair, not played here, while a sibling
    report's play of the same handicap lies beyond ±1 point: play decides, so no "Give"."""
    c = FixClaim(
        subject="2-player Game", handicap=(0, 1), fair_at=(Interval(0, 0, 0), Interval(0.0, 0.0, 0.0)),
        predicted=Interval(0.0, 0.0, 0.0), played=None, threshold=0.01, deals=20, played_deals=1,
        played_in="", score_unit="points", score_note="", missing=None, base=None, base_deals=1,
        others=(OtherPlay((0, 1), Interval(0.125, 0.125, 0.125), 20, "sibling"),), rescored_by="",
    )  # fmt: skip
    text = fix_sentence(c)
    assert fix_status(c) == "refuted" and "Give " not in text
    assert "in the sibling study (20 deals)" in text and "refutes" in text


@settings(max_examples=1500, deadline=None)
@given(fix_claims())
def test_a_fix_sentence_never_says_more_than_its_numbers(c: FixClaim) -> None:
    text = fix_sentence(c)
    c = own_play(c)  # a play of its own handicap in another report is its played evidence
    t = c.threshold
    recommends = text.startswith(("Give ", "No handicap is needed"))
    if "should be fair" in text:
        assert c.played is None and c.predicted is not None and _inside(c.predicted, t)
    if recommends:
        assert c.missing is None and c.score_unit == "points"
        if c.played is not None:  # played evidence outranks prediction
            assert _inside(c.played, t)
        else:
            assert c.predicted is not None and _inside(c.predicted, t)
    if c.played is not None and not _inside(c.played, t):
        assert not recommends and "should be fair" not in text
    if "refutes" in text:
        assert c.played is not None and _outside(c.played, t)
    if "is fair at this skill level (played)" in text:
        assert c.played is not None and _inside(c.played, t)
    if c.missing is not None or c.score_unit is None:  # no number in points at all
        assert not re.search(r"\d\s*points?\b", text) and not recommends
    if re.search(r"\bfair\b", text) and c.missing is None and c.score_unit is not None:
        assert f"±{100 * t:g} point" in text  # the threshold beside every "fair"
    assert not re.search(r"\bseat [01]\b", text)  # seats by turn order, never from 0
    if c.played is not None and fix_status(c) not in ("not measured", "not in points"):
        assert f"{c.played_deals:,} deals" in text
    _fix_says_no_more_for_no_handicap_or_three_players(c, text)
    _fix_quotes_every_play_and_gives_only_what_play_allows(c, text)
    _fix_rests_on_enough_deals(c, text)


def _fix_rests_on_enough_deals(c: FixClaim, text: str) -> None:
    """One minimum for every verdict: no handicap put forward from a prediction on fewer than 20
    deals, and a play on fewer neither confirms nor refutes."""
    measured = c.missing is None and c.score_unit is not None
    if measured and c.played is None and c.predicted is not None and c.deals < MIN_VERDICT_DEALS:
        assert "Give " not in text and "should be fair" not in text and "fewer than the 20" in text
    if measured and c.played is not None and c.played_deals < MIN_VERDICT_DEALS:
        assert fix_status(c) == "played, not settled" and "Give " not in text and "refutes" not in text


def _fix_quotes_every_play_and_gives_only_what_play_allows(c: FixClaim, text: str) -> None:
    """Issue 51, third audit: "Give" only for 2 players, never where the game is already fair
    without a handicap nor for a handicap any play refutes; every other play quoted with its own
    verdict; re-scored plays said so; a fair handicap with no spread not printed as an interval."""
    t, n = c.threshold, len(c.handicap)
    quoted = fix_status(c) not in ("not measured", "not in points")  # other plays are quoted
    measured = quoted and fix_status(c) != "too few deals"
    fair_base = c.base is not None and _inside(c.base, t) and c.base_deals >= MIN_VERDICT_DEALS
    if n >= 3 or (fair_base and any(c.handicap)):
        assert "Give " not in text
    if "Give " in text:
        assert not any(
            o.handicap == c.handicap and o.deals >= MIN_VERDICT_DEALS and _outside(o.advantage, t)
            for o in c.others
        )
    if fair_base and any(c.handicap) and measured:
        assert "already" in text and "without a handicap" in text
    for o in c.others if quoted else ():
        judged = (
            "not settled"
            if o.deals < MIN_VERDICT_DEALS
            else "confirmed"
            if _inside(o.advantage, t)
            else "refuted"
            if _outside(o.advantage, t)
            else "not settled"
        )
        said = re.escape(f"{handicap_words(o.handicap)} in the sibling study ({o.deals:,} deals): ")
        assert re.search(rf"{said}[^;]*\({judged}\)", text)
    if "re-scored" in text:
        assert c.rescored_by and quoted and (c.others or (c.played is not None and any(c.handicap)))
    if measured and any(c.handicap) and c.played is not None and c.rescored_by:
        assert "re-scored" in text
    for seat, f in enumerate(c.fair_at[1:], 1):
        if signed(f.lo) == signed(f.hi):  # no spread: never printed as an interval
            name, value = ("start", -f.value) if n == 2 and f.value < 0 else (ORDINAL[seat], f.value)
            assert not re.search(rf"the {name} player {re.escape(signed(value))} \[", text)


def _fix_says_no_more_for_no_handicap_or_three_players(c: FixClaim, text: str) -> None:
    """No handicap is not refuted as a handicap; 3+ players read the start player's advantage only."""
    t, none, n = c.threshold, not any(c.handicap), len(c.handicap)
    measured = fix_status(c) not in ("not measured", "not in points", "too few deals")
    if "refutes" in text:
        assert not none  # only a handicap that gives points is refuted by play
    if "no whole-point handicap" in text:
        assert none and all(math.floor(f.value + 0.5) == 0 for f in c.fair_at[1:])
        assert "only decides ties" in text and "its effect is not measured" in text
    if "Which whole-point handicap would fix it is not measured" in text:
        assert none and measured
        evidence = c.played if c.played is not None else c.predicted
        assert evidence is not None and _outside(evidence, t)
    if text.startswith("No handicap is needed"):
        assert none and n == 2
    within = c.played if c.played is not None else c.predicted
    if n >= 3:
        assert "should be fair" not in text and "is fair at this skill level" not in text
        if measured and within is not None and _inside(within, t):
            assert "the other seats' shares were not" in text
            assert "start player's advantage" in text


def _direction(i: Interval, t: float) -> str:
    """A level's answer, from the definition: within ±t, else the side the interval excludes 0 on."""
    if _inside(i, t):
        return "fair"
    return "ahead" if i.lo > 0 else "behind" if i.hi < 0 else "open"


@st.composite
def skill_claims(draw: st.DrawFn) -> SkillClaim:
    k = draw(st.integers(2, 4))
    levels = tuple((f"level-{j}", draw(intervals())) for j in range(k))
    few = draw(st.just(()) | st.lists(st.booleans(), min_size=k, max_size=k).map(tuple))
    return SkillClaim(levels, draw(st.none() | intervals(0.3)), draw(THRESHOLDS), few=few)


@settings(max_examples=1500, deadline=None)
@given(skill_claims())
def test_a_skill_sentence_never_says_more_than_its_numbers(c: SkillClaim) -> None:
    text = skill_sentence(c)
    t, d = c.threshold, c.difference
    few = c.few or (False,) * len(c.levels)  # a level on too few deals answers nothing
    dirs = ["open" if short else _direction(i, t) for (_, i), short in zip(c.levels, few, strict=True)]
    settled = {x for x in dirs if x != "open"}
    shown = d is not None and (d.lo > 0 or d.hi < 0)  # the difference excludes 0
    one_way = len(settled) == 1 and "open" not in dirs
    # "changes" exactly when the directions differ and so does strongest minus weakest; "the same"
    # exactly when every level has one direction and that difference holds 0
    assert ("changes with skill" in text) == (shown and len(settled) > 1)
    assert text.startswith("The answer is the same") == (d is not None and not shown and one_way)
    assert ("not the same size" in text) == (shown and one_way)
    assert ("not the game at expert level" in text) == (shown and (len(settled) > 1 or one_way))
    if "same direction at every skill level" in text.lower():
        assert one_way
    if "directions differ" in text.lower():
        assert len(settled) > 1 and not (shown and len(settled) > 1)
    assert text.startswith("Not settled at any") == (not settled)
    assert text.startswith("Settled only at some") == (len(settled) == 1 and "open" in dirs)
    if "holds 0" in text:
        assert d is not None and d.lo <= 0 <= d.hi
    assert ("strongest minus weakest" in text) == (d is not None)
    _each_level_says_its_own_answer(c, text, dirs)


def _each_level_says_its_own_answer(c: SkillClaim, text: str, dirs: list[str]) -> None:
    band = f"±{100 * c.threshold:g} point"
    words = {"ahead": "start player ahead", "behind": "start player behind", "fair": f"fair within {band}"}
    said = re.findall(r"(?:: |; )level-(\d) ([^;]*?)(?=; level-| \(95%)", text)
    assert [int(j) for j, _ in said] == list(range(len(c.levels)))  # every level, weakest first
    for (_, part), d in zip(said, dirs, strict=True):
        assert (words[d] if d != "open" else "not settled") in part
    if re.search(r"\bfair\b", text):
        assert band in text


@st.composite
def sweep_claims(draw: st.DrawFn) -> SweepClaim:
    xs = draw(st.lists(st.integers(0, 10), min_size=2, max_size=6, unique=True))
    cells = tuple((float(x), draw(intervals())) for x in sorted(xs))
    slope = draw(intervals(0.1))
    bounded = draw(st.booleans())
    cross = draw(intervals(15.0))
    crossing = cross if bounded else Interval(cross.value, -math.inf, math.inf)
    p = draw(st.sampled_from([math.nan, 0.001, 0.04, 0.2, 0.9]))
    return SweepClaim("k", "2 players, greedy", cells, slope, crossing, p, draw(THRESHOLDS))


@settings(max_examples=1500, deadline=None)
@given(sweep_claims())
def test_a_sweep_sentence_never_says_more_than_its_numbers(c: SweepClaim) -> None:
    text = sweep_sentence(c)
    t = c.threshold
    played_fair = [a for _, a in c.cells if _inside(a, t)]
    slope_known = c.slope.lo > 0 or c.slope.hi < 0
    line_fits = not (c.lack_of_fit_p < 0.05)
    if text.startswith("Never fair"):
        assert not played_fair and slope_known and line_fits
        assert all(a.lo > t for _, a in c.cells) or all(a.hi < -t for _, a in c.cells)
        assert not c.x_min <= c.crossing.value <= c.x_max
    if "where played" in text:
        assert played_fair
    if "on the fitted line" in text:
        assert not played_fair and slope_known and line_fits
        assert math.isfinite(c.crossing.lo) and math.isfinite(c.crossing.hi)
        assert c.x_min <= c.crossing.value <= c.x_max
    assert f"±{100 * t:g} point" in text


# --- the review's cases, worked by hand -----------------------------------------------------------


def _claim(**kw: object) -> FixClaim:
    base: dict[str, object] = dict(
        subject="2-player Hiroba",
        handicap=(0, 0),
        fair_at=(Interval(0, 0, 0), Interval(0.4, -0.3, 1.1)),
        predicted=Interval(0.021, 0.003, 0.039),
        played=None,
        threshold=0.01,
        deals=900,
    )
    base.update(kw)
    return FixClaim(**base)  # type: ignore[arg-type]


def test_give_nothing_is_not_said_fair_when_its_own_prediction_is_not():
    # hiroba-skill greedy: "give the second player nothing … should be fair" with +2.1 [+0.3, +3.9]
    c = _claim()
    assert fix_status(c) == "prediction not settled"
    assert "should be fair" not in fix_sentence(c) and not fix_sentence(c).startswith("Give")


def test_a_handicap_refuted_by_play_is_never_recommended():
    # hiroba-handicap: +2 to the start player played −5.2 [−6.0, −4.5]
    c = _claim(
        handicap=(0, -2), predicted=Interval(0.0, -0.004, 0.004), played=Interval(-0.052, -0.06, -0.045)
    )
    assert fix_status(c) == "refuted"
    text = fix_sentence(c)
    assert text.startswith("Do not give the start player +2 points") and "−5.2 points [−6.0, −4.5]" in text


def test_a_score_that_is_not_points_gets_no_handicap_in_points():
    c = _claim(score_unit=None, score_note="Taluva's score is a ranking key (+1,000,000 for an instant win)")
    assert fix_status(c) == "not in points"
    assert "+990104" not in fix_sentence(c) and "ranking key" in fix_sentence(c)


def test_a_run_without_tiebreaks_is_refused_for_compensation():
    c = _claim(missing="the run predates the tiebreak column; re-run the study to measure it")
    assert fix_sentence(c).startswith("Compensation for 2-player Hiroba not measured: the run predates")


def test_never_fair_is_not_said_when_a_played_cell_is_fair():
    # hiroba-handicap (threshold ±2 points): the −3 cell plays −0.5 [−1.3, +0.3] next to "never fair"
    cells = (
        (-3.0, Interval(-0.005, -0.013, 0.003)),
        (0.0, Interval(-0.03, -0.04, -0.02)),
        (3.0, Interval(-0.06, -0.07, -0.05)),
    )
    c = SweepClaim(
        "handicap",
        "2 players",
        cells,
        Interval(-0.009, -0.012, -0.006),
        Interval(-3.6, -4.5, -2.9),
        0.3,
        0.02,
    )
    assert sweep_status(c) == "fair where played"
    assert "handicap = −3: −0.5 points [−1.3, +0.3]" in sweep_sentence(c)
    # the other played values are said too (alhambra-handicap left out its undetermined −3 and +1)
    assert sweep_sentence(c).endswith("Elsewhere: beyond ±2 points at 3; not settled at 0.")


def test_a_slope_interval_holding_zero_never_says_never_fair():
    # the four dirk_tiles sweeps: "never fair" with slope intervals that include 0
    cells = tuple((float(x), Interval(-0.05, -0.06, -0.04)) for x in range(4))
    c = SweepClaim(
        "dirk_tiles",
        "2 players",
        cells,
        Interval(0.002, -0.001, 0.005),
        Interval(20.0, -math.inf, math.inf),
        0.5,
        0.01,
    )
    assert sweep_status(c) == "not settled"
    curved = SweepClaim(
        "dirk_tiles", "2 players", cells, Interval(0.01, 0.008, 0.012), Interval(5.0, 4.5, 5.5), 0.001, 0.01
    )
    assert sweep_status(curved) == "not settled"  # lack of fit: no straight-line reading


def test_no_handicap_refuted_by_play_is_not_said_to_refute_a_handicap():
    # maharaja: "No handicap fixes … yet: … fair at the second player +0.2 [+0.2, +0.2] … play refutes
    # this handicap": only the unhandicapped cell was played; +0.2 merely rounds to no whole point
    c = _claim(
        subject="2-player Maharaja (2 players, greedy)",
        fair_at=(Interval(0, 0, 0), Interval(0.2, 0.18, 0.22)),
        played=Interval(0.102, 0.095, 0.109),
        played_deals=6000,
    )
    assert fix_status(c) == "refuted"
    text = fix_sentence(c)
    assert text.startswith("2-player Maharaja (2 players, greedy) is not fair without a handicap")
    assert "[+0.2, +0.2]" not in text  # no spread: a fraction of a point only decides ties
    assert "suggest no whole-point handicap (900 deals)" in text
    assert "only decides ties (a tie-break in the second player's favour; its effect is not measured)" in text
    assert "beyond ±1 point. Which whole-point handicap would fix it is not measured." in text
    assert "refutes" not in text and "No handicap fixes" not in text


def test_three_players_are_said_fair_for_the_start_player_only():
    # hiroba 3p: "… within ±1 point, so 3-player Hiroba … should be fair": only the start player's
    # predicted advantage was read, not the other seats' shares
    three = (Interval(0, 0, 0), Interval(1.2, 0.5, 1.9), Interval(2.1, 1.4, 2.8))
    c = _claim(
        subject="3-player Hiroba", handicap=(0, 1, 2), fair_at=three, predicted=Interval(0.002, -0.004, 0.008)
    )
    assert fix_status(c) == "predicted fair"
    text = fix_sentence(c)
    assert "should be fair" not in text and "Give" not in text  # only the start player's advantage
    assert text.startswith(
        "A handicap of the second player +1 point; the third player +2 points would bring the start "
        "player's advantage in 3-player Hiroba within ±1 point (a prediction; the other seats' shares "
        "were not predicted): "
    )
    assert text.endswith(
        "within ±1 point (not played). Searching agents adapt to a handicap, which a recount of the "
        "scores does not see: only play settles it."
    )  # a line-up not said to ignore the handicap: its agents may adapt
    greedy = fix_sentence(replace(c, rescored_by="greedy"))
    assert greedy.endswith("within ±1 point (not played).")  # greedy does not read the handicap
    played = fix_sentence(_claim(subject="3-player Hiroba", handicap=(0, 1, 2), fair_at=three,
                                 played=Interval(0.002, -0.004, 0.008), played_deals=5000))  # fmt: skip
    assert "is fair" not in played and "Give" not in played
    assert played.startswith("A handicap of the second player +1 point; the third player +2 points brings")
    assert played.endswith(
        "[−0.4, +0.8], within ±1 point (played); the other seats' shares were not read for this fix."
    )


def _skill_claim(strong: Interval, difference: Interval | None) -> SkillClaim:
    return SkillClaim(
        (("greedy", Interval(0.239, 0.228, 0.249)), ("mcts:iters=100", strong)), difference, 0.01
    )


def test_directions_that_differ_are_no_change_with_skill_when_the_difference_holds_zero():
    # maharaja-switches: "The answer changes with skill (strongest minus weakest: −28.8 points
    # [−65.8, +8.2], simultaneous 95%)"
    c = _skill_claim(Interval(-0.05, -0.08, -0.02), Interval(-0.288, -0.658, 0.082))
    assert skill_status(c) == "directions differ, change not shown"
    text = skill_sentence(c)
    assert "changes with skill" not in text
    assert "no change with skill is shown (strongest minus weakest: −28.8 points [−65.8, +8.2]" in text
    moved = _skill_claim(Interval(-0.05, -0.08, -0.02), Interval(-0.288, -0.35, -0.22))
    assert skill_sentence(moved).startswith("The answer changes with skill (strongest minus weakest: −28.8")
    assert (
        skill_status(_skill_claim(Interval(-0.05, -0.08, -0.02), None)) == "directions differ, not compared"
    )


def test_the_same_direction_is_not_the_same_answer_when_the_sizes_differ():
    # hiroba-switches: "The answer is the same at every skill level tested: greedy +23.9 (22.8–24.9)
    # … mcts:iters=100 +15.6 (12.0–19.0)"
    c = _skill_claim(Interval(0.156, 0.12, 0.19), Interval(-0.083, -0.12, -0.045))
    assert skill_status(c) == "same direction, different size"
    text = skill_sentence(c)
    assert text.startswith(
        "The same direction at every skill level tested (start player ahead), but not the same size "
        "(strongest minus weakest: −8.3 points [−12.0, −4.5], simultaneous 95%)"
    )
    assert "not the game at expert level" in text
    same = _skill_claim(Interval(0.23, 0.21, 0.25), Interval(-0.009, -0.03, 0.012))
    assert skill_sentence(same).startswith(
        "The answer is the same at every skill level tested (start player ahead"
    )
    unpaired = skill_sentence(_skill_claim(Interval(0.156, 0.12, 0.19), None))
    assert (
        unpaired.startswith("The same direction at every skill level tested") and "not measured" in unpaired
    )


# --- through a run: the game's declaration and the run's columns decide ------------------------


def _fix_lines(tmp_path, game: str, monkeypatch=None, drop: str | None = None) -> list[str]:
    import helpers_runs
    import pyarrow as pa
    from helpers_runs import write_run

    from analysis import analyse
    from analysis.fairness import cell_fixes, sweeps
    from analysis.report.fairness import fairness_findings

    if drop is not None:
        real = helpers_runs.rust_core.simulate

        def without(*args, **kw):
            rb = real(*args, **kw)
            keep = [i for i, f in enumerate(rb.schema) if f.name != drop]
            return pa.RecordBatch.from_arrays(
                [rb.column(i) for i in keep], schema=pa.schema([rb.schema.field(i) for i in keep])
            )

        monkeypatch.setattr(helpers_runs.rust_core, "simulate", without)
    cells = [{"id": "g2", "agents": ["greedy", "greedy"], "games": 40}]
    run = write_run(tmp_path / game, name=f"{game}-fix", game=game, pair_seats=True, cells=cells, batch=40)
    s = analyse(run)
    return [f.sentence for f in fairness_findings(s, cell_fixes(s), sweeps(s))]


def test_taluva_gets_no_handicap_in_points(tmp_path):
    (line,) = _fix_lines(tmp_path, "taluva")
    assert line.startswith("Compensation for 2-player Taluva") and "ranking key" in line
    assert not re.search(r"[+−]\d+ points", line)


def test_a_run_without_the_tiebreak_column_is_refused_not_read_as_zero(tmp_path, monkeypatch):
    (line,) = _fix_lines(tmp_path, "hiroba", monkeypatch, drop="tiebreak")
    assert "not measured: the run predates the tiebreak column" in line
    monkeypatch.undo()
    (measured,) = _fix_lines(tmp_path / "with", "hiroba")
    assert "recorded scores put fair at the second player" in measured


def test_the_glossary_defines_every_term_the_page_uses(tmp_path):
    from types import SimpleNamespace

    from analysis.report.doc import Doc
    from analysis.report.methods import glossary

    doc = Doc(tmp_path, {}, {})
    doc.para("xmcts is +536 Elo over mcts; the handicap was played and play refutes it.")
    glossary(doc, SimpleNamespace(game="coin"))  # type: ignore[arg-type]
    defined = {line.split(" | ")[0].strip("| ") for line in doc.md if line.startswith("| ")}
    assert {"Elo", "played", "refutes"} <= defined and "expert limit" not in defined


def test_no_verdict_rests_on_fewer_than_twenty_deals(tmp_path):
    from helpers_runs import write_run

    from analysis import analyse
    from analysis.findings import start_player

    cells = [{"id": "c", "agents": ["random", "random"], "variant": {"first": 0.95}, "games": 24}]
    s = analyse(write_run(tmp_path / "run", name="coin-few", game="coin", pair_seats=True, cells=cells))
    row = s.advantage_row("c")
    assert row["units"] == 12 and row["lo"] > 0.01  # the interval alone would say it matters
    assert row["finding"] == "unsettled" and row["few_units"]
    assert (
        "not settled: only 12 deals (or games), fewer than the 20 a verdict needs"
        in start_player(s, s.cell("c")).sentence
    )


def test_a_handicap_is_named_in_words_not_code():
    from analysis.claims import handicap_words
    from analysis.switches import _value_words

    assert handicap_words([0, -4]) == "the start player +4 points"
    assert handicap_words((0, 1, 2)) == "the second player +1 point; the third player +2 points"
    assert handicap_words((0, 0, -1)) == "the third player −1 point"  # a true minus sign, as every number
    assert _value_words("handicap", [0, 2]) == "the second player +2 points"
    assert _value_words("dirk_tiles", [4, 4, "third"]) == "4, 4, third"
    assert _value_words("start_player", None) == "none" and _value_words("dirk", False) == "off"


def test_a_ranking_key_gets_no_winning_margin_comparison(tmp_path):
    from helpers_runs import write_run

    from analysis import analyse

    cells = [{"id": c, "agents": ["greedy", "greedy"], "variant": v, "games": 40} for c, v in
             (("a", {}), ("b", {"tiles": 12}))]  # fmt: skip
    s = analyse(write_run(tmp_path / "run", name="taluva-two", game="taluva", pair_seats=True, cells=cells))
    assert "margin" not in s.comparisons["metric"].to_list()
    assert "start_advantage" in s.comparisons["metric"].to_list()


def test_played_elsewhere_is_quoted_for_every_handicap_and_judged_here():
    # hiroba-skill (greedy, ±1 point): "Without a handicap … not settled" while hiroba-handicap played
    # the second player +1 point at greedy: −0.9 [−1.7, −0.1], and the start player +2: +12.1
    others = (
        OtherPlay((0, -2), Interval(0.121, 0.113, 0.129), 10_000, "hiroba-handicap"),
        OtherPlay((0, 1), Interval(-0.009, -0.017, -0.001), 10_000, "hiroba-handicap"),
    )
    c = _claim(played=Interval(0.021, 0.003, 0.039), played_deals=2000, others=others)
    text = fix_sentence(c)
    assert (
        "Other handicaps played for this question: the start player +2 points in the hiroba-handicap " in text
    )
    assert "+12.1 points [+11.3, +12.9], beyond ±1 point (refuted)" in text
    assert (
        "the second player +1 point in the hiroba-handicap study (10,000 deals): −0.9 points [−1.7, −0.1], "
        "neither within nor beyond ±1 point (not settled)."
    ) in text
    assert "at ±2" not in fix_sentence(replace(c, threshold=0.02))  # judged at this page's threshold
    assert "−0.9 points [−1.7, −0.1], within ±2 points (confirmed)" in fix_sentence(
        replace(c, threshold=0.02)
    )


def test_a_handicap_another_play_refutes_is_not_given():
    # this study confirms +1 to the second player, a sibling's play of it lies beyond ±1: not "Give"
    c = _claim(handicap=(0, 1), played=Interval(0.002, -0.004, 0.008), played_deals=4000)
    assert fix_sentence(c).startswith("Give the second player +1 point")
    refuted = replace(c, others=(OtherPlay((0, 1), Interval(-0.03, -0.04, -0.02), 9000, "other"),))
    assert fix_status(refuted) == "played, not settled" and "Give" not in fix_sentence(refuted)


def test_a_game_already_fair_without_a_handicap_is_not_given_one():
    # alhambra-handicap (±3 points): "Give the start player +1 point" while its own unhandicapped cell
    # played −1.7 [−2.2, −1.2]
    c = _claim(
        subject="2-player Alhambra (none, greedy)",
        handicap=(0, -1),
        fair_at=(Interval(0, 0, 0), Interval(-1.2, -1.4, -1.0)),
        played=Interval(-0.003, -0.008, 0.002),
        played_deals=20_000,
        threshold=0.03,
        base=Interval(-0.017, -0.022, -0.012),
        base_deals=20_000,
    )
    text = fix_sentence(c)
    assert "Give" not in text
    assert text.startswith(
        "2-player Alhambra (none, greedy) is already fair within ±3 points without a handicap: played "
        "without one (20,000 deals), the start player's advantage is −1.7 points [−2.2, −1.2]. Played with "
        "the start player +1 point (20,000 deals), it moves to −0.3 points [−0.8, +0.2], within ±3 points."
    )
    assert fix_sentence(replace(c, base=Interval(-0.04, -0.05, -0.035))).startswith("Give the start player")


def test_greedy_plays_of_a_handicap_are_said_to_be_the_same_games_re_scored():
    # greedy's evaluation (rust_core/src/agents/greedy.rs: View::greedy_values) never reads the handicap
    c = _claim(handicap=(0, 1), played=Interval(-0.009, -0.017, -0.001), played_deals=10_000, threshold=0.02)
    said = (
        "Greedy does not read the handicap, so a handicapped play by it is the same games re-scored: it shows"
    )
    assert said in fix_sentence(replace(c, rescored_by="greedy"))
    assert "re-scored" not in fix_sentence(c)  # mcts reads it: its play is a play
    unhandicapped = _claim(played=Interval(0.021, 0.003, 0.039), played_deals=2000, rescored_by="greedy")
    assert "re-scored" not in fix_sentence(unhandicapped)  # nothing handicapped was quoted


def test_a_fair_handicap_without_spread_is_not_printed_as_an_interval():
    # maharaja 4 players greedy: "the second player −0.2 [−0.2, −0.2]; … −0.5 [−0.5, −0.5]"
    flat = (
        Interval(0, 0, 0),
        Interval(-0.2, -0.2, -0.2),
        Interval(-0.3, -0.3, -0.3),
        Interval(-0.5, -0.5, -0.5),
    )
    c = _claim(
        subject="4-player Maharaja",
        handicap=(0, 0, 0, 0),
        fair_at=flat,
        played=Interval(-0.079, -0.084, -0.073),
    )
    text = fix_sentence(c)
    assert "[−0.2, −0.2]" not in text and "[−0.5, −0.5]" not in text
    assert "(a tie-break in the start player's favour; its effect is not measured)" in text
    five = (Interval(0, 0, 0), Interval(-0.3, -0.3, -0.3), Interval(-0.7, -0.72, -0.64))
    rounded = fix_sentence(_claim(subject="3-player Game", handicap=(0, 0, -1), fair_at=five))
    assert "the second player −0.3; the third player −0.7 [−0.7, −0.6] points" in rounded
    assert "a fraction of a point only decides ties" in rounded


def test_a_confirmed_handicap_on_a_game_not_settled_without_one_is_not_said_needed():
    """alhambra-handicap mcts:iters=100: "Give the start player +1 point" (played +0.2 [−2.1, +2.4])
    while the game without a handicap, −0.7 [−3.03, +1.58], was not shown unfair either."""
    c = _claim(
        subject="2-player Alhambra (none, mcts:iters=100)",
        handicap=(0, -1),
        played=Interval(0.002, -0.021, 0.024),
        played_deals=1000,
        threshold=0.03,
        base=Interval(-0.007, -0.0303, 0.0158),
        base_deals=1000,
    )
    assert fix_status(c) == "confirmed"
    assert "so the handicap is not shown to be needed" in fix_sentence(c)
    shown = replace(c, base=Interval(-0.05, -0.07, -0.035))  # beyond ±3 without it: needed
    assert "not shown to be needed" not in fix_sentence(shown)
