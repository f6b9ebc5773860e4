"""Skill ladders: study files expand a ladder into rung and step cells; the analysis reads every
number per rung against the rungs' Elo and says whether it converged, is moving or is unsettled."""

from __future__ import annotations

import pathlib

import pytest
from helpers_runs import set_study_keys, write_run

import balancelab_cli as cli
from analysis.skill import LadderMetric, LadderPoint, convergence
from pipeline.study import StudyError, load_study

LADDER = """\
name = "t"
game = "coin"
seed = 3
games_per_cell = 10
pair_seats = true
[grid]
players = [2, 3]
ladder = ["random", "greedy", { agent = "mcts:iters=20", games = 4 }]
"""


def _pt(agent: str, est: float, half: float, elo: float = 0.0, units: int = 100) -> LadderPoint:
    return LadderPoint(agent, agent, elo, elo - 10, elo + 10, est, est - half, est + half, units)


def _metric(points: list[LadderPoint], threshold: float = 0.01) -> LadderMetric:
    return LadderMetric(
        "start_advantage",
        "start-player advantage",
        2,
        "",
        threshold,
        True,
        0.0,
        tuple(points),
        convergence(points, threshold),
    )


# ---------------------------------------------------------------- study files


def test_a_ladder_expands_into_self_play_per_rung_and_steps_between_neighbours(write_study):
    study = load_study(str(write_study(text=LADDER)))
    assert study.ladder == ["random", "greedy", "mcts:iters=20"]
    cells = {c.id: c for c in study.cells}
    assert list(cells) == [
        "p2-random",
        "p2-greedy",
        "p2-mcts-iters-20",
        "p3-random",
        "p3-greedy",
        "p3-mcts-iters-20",
        "p2-random_v_greedy",
        "p2-greedy_v_mcts-iters-20",
    ]
    assert cells["p3-greedy"].agents == ["greedy"] * 3
    assert cells["p2-greedy_v_mcts-iters-20"].agents == ["greedy", "mcts:iters=20"]
    assert cells["p2-greedy_v_mcts-iters-20"].label == "2 players, greedy vs mcts:iters=20"
    # a rung's games size its self-play cells and the step into it; --games changes the rest
    assert [cells[i].games for i in cells] == [10, 10, 4, 12, 12, 6, 10, 4]
    more = load_study(str(write_study(text=LADDER, filename="more.toml")), 100)
    assert [c.games for c in more.cells] == [100, 100, 4, 102, 102, 6, 100, 4]
    assert more.to_dict()["ladder"] == study.ladder == study.ladder


def test_a_ladder_with_named_variants_gets_steps_per_variant(write_study):
    text = (
        LADDER.replace("players = [2, 3]", "players = [2]")
        + "[grid.variants]\nfair = {}\nbiased = { p = [0.6, 0.4] }\n"
    )
    study = load_study(str(write_study(text=text)))
    steps = [c for c in study.cells if len(set(c.agents)) == 2]
    assert [c.id for c in steps] == [
        "p2-fair-random_v_greedy",
        "p2-biased-random_v_greedy",
        "p2-fair-greedy_v_mcts-iters-20",
        "p2-biased-greedy_v_mcts-iters-20",
    ]
    assert steps[1].variant == {"p": [0.6, 0.4]} and steps[1].label == "2 players, biased, random vs greedy"


@pytest.mark.parametrize(
    ("ladder", "field", "needle"),
    [
        ('["random"]', "grid.ladder", "at least 2 agent specs"),
        ('"random"', "grid.ladder", "at least 2 agent specs"),
        ('["random", 3]', "grid.ladder[1]", "agent spec string"),
        ('["random", "random"]', "grid.ladder[1]", "already on the ladder"),
        ('["random", { agent = "greedy", games = 0 }]', "grid.ladder[1].games", "positive integer"),
        ('["random", { agent = "greedy", colour = 1 }]', "grid.ladder[1].colour", "allowed: agent, games"),
        ('["random", { games = 5 }]', "grid.ladder[1].agent", "missing"),
        ('["random", "grandmaster"]', "grid.ladder[1]", "allowed: random"),
        ('["random", { agent = "mcts:iters=x" }]', "grid.ladder[1].agent", "iters"),
    ],
)
def test_bad_ladders_name_the_field_and_the_allowed_values(write_study, ladder, field, needle):
    text = LADDER.replace(
        'ladder = ["random", "greedy", { agent = "mcts:iters=20", games = 4 }]', f"ladder = {ladder}"
    )
    with pytest.raises(StudyError) as info:
        load_study(str(write_study(text=text)))
    assert info.value.field == field and needle in str(info.value), str(info.value)


def test_cli_refuses_a_bad_ladder_with_exit_2_and_writes_nothing(write_study, tmp_path, capsys):
    path = write_study(text=LADDER.replace('"greedy", {', '"greedy", "greedy", {'))
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "--out", str(out)]) == 2
    assert "grid.ladder[2]" in capsys.readouterr().err
    assert not out.exists()


def test_built_in_skill_studies_have_ladders_with_head_to_head_steps():
    built_in = (
        ("hiroba-skill", "mcts:iters=10000", "xmcts:iters=10000"),
        ("alhambra-skill", "mcts:iters=1000", "xmcts:iters=1000"),
    )
    for name, mcts_top, top in built_in:
        study = load_study(name)
        assert study.ladder[0] == "greedy" and study.ladder[-2:] == [mcts_top, top]
        steps = [c for c in study.cells if len(set(c.agents)) == 2]
        neighbours = {frozenset(p) for p in zip(study.ladder, study.ladder[1:], strict=False)}
        chained = [c for c in steps if frozenset(c.agents) in neighbours]
        assert len(chained) == len(study.ladder) - 1 and all(c.n_players == 2 for c in steps)
        # at least one match between rungs that are not neighbours checks the chained Elo up to
        # the top mcts rung (the learned-evaluation rung above it is its neighbour's step)
        assert [mcts_top] in [
            [a for a in c.agents if a == mcts_top] for c in steps if frozenset(c.agents) not in neighbours
        ]


# ---------------------------------------------------------------- convergence on constructed tables


def test_top_two_rungs_within_the_threshold_have_converged():
    c = convergence([_pt("a", -0.10, 0.01), _pt("b", -0.031, 0.003), _pt("c", -0.030, 0.003)], 0.01)
    assert c is not None and c.status == "converged"
    assert c.diff == pytest.approx(0.001) and -0.01 <= c.lo and c.hi <= 0.01
    assert c.trend == "moving"  # it did move lower down the ladder


def test_top_two_rungs_apart_are_still_moving_and_the_sentence_says_which_way():
    from analysis.ladder_findings import convergence_sentence

    m = _metric([_pt("mcts:iters=30", -0.18, 0.02), _pt("mcts:iters=1000", -0.05, 0.02)])
    assert m.verdict is not None and m.verdict.status == "moving"
    text = convergence_sentence(m)
    said = "Still moving: the start player's disadvantage shrinks from mcts:iters=30 to mcts:iters=1000"
    assert text.startswith(said)
    assert "as the agents get stronger" not in text  # two rungs show a step, not a trend over the ladder
    assert "−18.0 points at mcts:iters=30" in text and "−5.0 points at mcts:iters=1000" in text
    assert "not converged" in text
    grows = _metric([_pt("a", 0.02, 0.01), _pt("b", 0.10, 0.01)])
    assert "the start player's advantage grows" in convergence_sentence(grows)
    flips = _metric([_pt("a", -0.08, 0.01), _pt("b", 0.06, 0.01)])
    assert "the start-player advantage changes sign" in convergence_sentence(flips)
    falls = _metric([_pt("a", 0.005, 0.01), _pt("b", -0.25, 0.01)])  # from fair within ±1 to -25
    assert "the start-player advantage falls from a to b" in convergence_sentence(falls)


def test_wide_intervals_are_not_settled_and_say_how_many_units_would_settle_it():
    from analysis.ladder_findings import convergence_sentence

    m = _metric([_pt("a", -0.20, 0.02), _pt("b", -0.06, 0.05, units=200), _pt("c", -0.05, 0.05, units=200)])
    c = m.verdict
    assert c is not None and c.status == "unsettled" and c.lo < 0 < c.hi
    # the difference's half-width is 1.96 * sqrt(2) * 0.05/1.96 = 0.0707; ±0.01 needs (7.07)^2 times the units
    assert c.units_needed == pytest.approx(200 * (0.05 * 2**0.5 / 0.01) ** 2, rel=0.01)
    text = convergence_sentence(m)
    assert text.startswith("Not settled") and "not converged" in text
    assert "Over the whole ladder it moved" in text and "shrinks" in text
    # a threshold wide enough makes the same numbers converge; one rung only has no verdict
    assert convergence(m.points, 0.2).status == "converged"  # type: ignore[union-attr]
    assert convergence(m.points[:1], 0.01) is None


def test_top_rungs_that_measurably_differ_are_still_moving_even_without_a_trend():
    from analysis.ladder_findings import convergence_sentence

    zigzag = [(0, -0.20), (100, -0.05), (200, -0.20), (300, -0.05)]
    m = _metric([_pt(f"r{elo}" if elo else "greedy", est, 0.01, elo=elo) for elo, est in zigzag])
    c = m.verdict
    assert c is not None and c.status == "moving" and c.lo > 0 and c.slope is not None
    assert not c.slope.excludes_zero
    text = convergence_sentence(m)
    assert text.startswith("Still moving: ") and "r200, −5.0 points at r300" in text
    assert "not converged" in text and "Not settled" not in text


def test_the_trend_is_fitted_over_the_search_rungs_not_greedy():
    from analysis.skill import fitted

    three = [_pt("greedy", -0.2, 0.01, elo=0), _pt("mcts:iters=100", -0.1, 0.01, elo=300),
             _pt("mcts:iters=1000", -0.1, 0.01, elo=500)]  # fmt: skip
    assert fitted(three) == [1, 2]
    assert fitted(three[:2]) == [0, 1]  # greedy only where it is part of the only step


# ---------------------------------------------------------------- a whole ladder run (coin)


def _ladder_run(tmp_path: pathlib.Path, p_random: list[float], p_greedy: list[float]) -> pathlib.Path:
    cells = [
        {
            "id": "p2-random",
            "label": "2 players, random",
            "agents": ["random"] * 2,
            "games": 8000,
            "variant": {"p": p_random},
        },
        {
            "id": "p2-greedy",
            "label": "2 players, greedy",
            "agents": ["greedy"] * 2,
            "games": 8000,
            "variant": {"p": p_greedy},
        },
        {
            "id": "p2-random_v_greedy",
            "label": "2 players, random vs greedy",
            "agents": ["random", "greedy"],
            "games": 400,
        },
    ]
    run = write_run(
        tmp_path / "run", name="coin-ladder", game="coin", cells=cells, pair_seats=True, batch=4000
    )
    return set_study_keys(run, ladder=["random", "greedy"], practical_threshold=0.03)


def test_a_moving_ladder_headlines_the_top_rung_and_never_a_lower_rungs_number(tmp_path):
    import analysis
    from analysis.findings import verdict

    s = analysis.analyse(_ladder_run(tmp_path, [0.3, 0.7], [0.45, 0.55]))
    assert s.steps == {"p2-random_v_greedy"} and [c.id for c in s.balance] == ["p2-random", "p2-greedy"]
    m = s.ladder.metric("start_advantage", 2)
    assert [p.agent for p in m.points] == ["random", "greedy"]
    # coin ignores the agents: with paired seats each deal is one win each, so equal strength
    assert m.points[0].elo == 0 and m.points[1].elo == pytest.approx(0, abs=1e-6)
    assert m.points[1].elo_lo <= m.points[1].elo <= m.points[1].elo_hi
    assert m.verdict.status == "moving"
    findings = verdict(s)
    head = findings[0]
    assert head.title == "Start player along the skill ladder (2 players)"
    assert "top rung, greedy self-play" in head.sentence and "Still moving" in head.sentence
    assert "the start player's disadvantage shrinks" in head.sentence
    # the lower rung's number appears only as that rung's, never as the game's start-player sentence
    assert not any(f.title == "random" or f.sentence.startswith("The start player wins") for f in findings)
    assert all(f.title != "Skill" for f in findings)
    # coin ignores the agents: the top step gains nothing, and the ladder finding says so
    ladder = next(f.sentence for f in findings if f.title == "Skill ladder")
    assert "The top step: greedy won 50.0% (95% CI " in ladder and "not measurably stronger" in ladder


def test_a_converged_ladder_says_so_and_the_report_plots_it(tmp_path):
    import analysis
    from analysis.findings import verdict
    from analysis.report import write_report

    run = _ladder_run(tmp_path, [0.4, 0.6], [0.4, 0.6])
    s = analysis.analyse(run)
    m = s.ladder.metric("start_advantage", 2)
    assert m.verdict.status == "converged"
    assert "Converged: greedy and random agree within ±3 points" in verdict(s)[0].sentence
    index = write_report(run, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    assert "## Skill ladder: does the answer hold for stronger players?" in md
    assert (index.parent / "figures" / "ladder_start_advantage_p2.png").exists()
    assert "random vs greedy" not in md.split("## Start-player advantage")[1].split("## Skill ladder")[0]


def test_a_study_without_a_ladder_attributes_numbers_to_agents_and_points_to_the_skill_study(tmp_path):
    import analysis
    from analysis.findings import verdict

    cells = [
        {"id": "p2-random", "label": "2 players, random", "agents": ["random"] * 2, "games": 200},
        {"id": "p2-greedy", "label": "2 players, greedy", "agents": ["greedy"] * 2, "games": 200},
    ]
    s = analysis.analyse(write_run(tmp_path / "run", name="h", game="hiroba", cells=cells, pair_seats=True))
    ordered = verdict(s)
    findings = {f.title: f.sentence for f in ordered}
    # the expert-level finding leads, with the strongest line-up's number, before any line-up's own
    assert ordered[0].title == "Strongest agents here"
    assert ordered[0].sentence.startswith("With the strongest agents of this study (greedy self-play), which")
    assert [f.title for f in ordered].index("greedy") < [f.title for f in ordered].index("random")
    assert findings["random"].startswith("With random self-play, the start player wins ")
    assert findings["greedy"].startswith("With greedy self-play, the start player wins ")
    assert (
        "hiroba-skill" in findings["Strongest agents here"]
        and "converged" in findings["Strongest agents here"]
    )
    skill = findings["Skill"]
    assert "not the game at expert level" in skill or skill.startswith(
        ("The answer is the same", "Not settled")
    )


# ---------------------------------------------------------------- trend, verdict and calibration


def test_the_trend_and_settling_numbers_match_the_hiroba_ladder_reread_by_hand():
    """The committed hiroba-skill report's search rungs (Elo, advantage, 95% CI in points): a
    line of +1.0 point per 100 Elo [+0.4, +1.7]; the top two rungs need about 9,300 deals each
    to agree within ±1 point if the true difference is 0, about 100,000 if +0.7 persists."""
    from analysis.stats.trend import needed_per_rung, saturating_limit, slope_from_points

    elo = [401, 539, 688, 843, 987]
    est = [-12.8, -10.1, -8.8, -7.9, -7.3]
    ci = [(-14.9, -10.7), (-12.2, -7.9), (-11.1, -6.4), (-11.0, -4.7), (-11.8, -2.5)]
    se = [(hi - lo) / 3.92 for lo, hi in ci]
    slope = slope_from_points(elo, est, se)
    assert [round(v, 1) for v in slope.per(100)] == [1.0, 0.4, 1.7]
    assert not saturating_limit(elo, est, se).supported  # a line fits as well: no extrapolation
    assert needed_per_rung(se[-1], 200, se[-2], 500, 1.0, 1.96) == pytest.approx(9300, rel=0.01)
    assert needed_per_rung(se[-1], 200, se[-2], 500, 1.0, 1.96, gap=0.7) == pytest.approx(103_000, rel=0.02)
    assert needed_per_rung(se[-1], 200, se[-2], 500, 1.0, 1.96, gap=1.2) is None
    # Alhambra's top two rungs (mcts:iters=1000, 100 deals; 300, 150 deals)
    assert needed_per_rung(14.0 / 3.92, 100, 11.2 / 3.92, 150, 1.0, 1.96) == pytest.approx(9600, rel=0.01)


def test_a_saturating_ladder_gets_an_expert_limit_and_a_straight_one_none():
    import numpy as np

    from analysis.stats.trend import saturating_limit

    x = np.array([100.0, 200, 300, 400, 500])
    lim = saturating_limit(x, -5 + 8 * np.exp(-x / 100), [0.2] * 5)
    assert lim.supported and lim.lo < -5 < lim.hi and lim.scale == pytest.approx(100, rel=0.01)
    flat = saturating_limit(x, 0.01 * x, [0.2] * 5)
    assert not flat.supported and "straight line" in flat.reason


def test_no_expert_limit_from_a_curve_that_misses_the_strongest_rung():
    """hiroba-skill with xmcts:iters=10000 on top (Elo, advantage, SE in points): the search rungs
    level off near -9 points, then the strongest rung reads -16.0. The best saturating curve
    (scale 74 Elo, limit -9.4) leaves the top rung 2.9 SE below it, misfit chi-squared 10.2 on 3
    degrees of freedom: it is rejected, and no limit is given."""
    from analysis.stats.trend import saturating_limit

    elo = [401, 539, 688, 843, 987, 1105]
    se = [1.07, 1.1, 1.2, 1.6, 2.4, 2.3]
    lim = saturating_limit(elo, [-12.8, -10.1, -8.8, -7.9, -7.3, -16.0], se)
    assert not lim.supported and "does not fit the rungs either" in lim.reason and "p 0.017" in lim.reason
    # a steeper start and a top that continues the curve: the limit stands
    assert saturating_limit(elo, [-14.8, -10.1, -8.8, -7.9, -7.3, -7.0], se).supported


def test_converged_needs_a_flat_trend_not_only_two_agreeing_rungs():
    from analysis.stats.trend import Slope, trend_status

    steep = Slope(2e-4, 1e-4, 3e-4, 0.95, 4, "t")  # 1.5 to 4.5 points over a 150 Elo step
    flat = Slope(0.0, -5e-5, 5e-5, 0.95, 4, "t")  # within ±0.75 points per step
    assert trend_status((-0.005, 0.005), steep, 150, 0.01) == "moving"
    assert trend_status((-0.005, 0.005), flat, 150, 0.01) == "converged"
    assert trend_status((-0.02, 0.02), flat, 150, 0.01) == "unsettled"


def test_calibration_small_slope_intervals_cover_and_converged_is_rare_at_the_threshold():
    """A small version of bench/calibrate_trend.py (coin ladders with a known slope)."""
    import importlib.util
    import sys

    path = pathlib.Path(__file__).resolve().parent.parent / "bench" / "calibrate_trend.py"
    spec = importlib.util.spec_from_file_location("calibrate_trend", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["calibrate_trend"] = bench  # dataclasses look their module up there
    spec.loader.exec_module(bench)
    Scenario, replicate = bench.Scenario, bench.replicate

    moving = replicate(Scenario("moving", 1e-4, 400, 0.01), reps=80, seed=7)
    assert 0.86 <= moving["coverage"] <= 1.0 and moving["moving"] > 0.5
    edge = replicate(Scenario("edge", 0.02 / 150, 3000, 0.02, shared=False), reps=60, seed=8)
    assert 0.85 <= edge["coverage"] <= 1.0 and edge["converged"] <= 0.05
    flat = replicate(Scenario("flat", 0.0, 6000, 0.02, shared=False), reps=40, seed=9)
    assert flat["converged"] >= 0.2  # the verdict can be reached where it holds


def test_elo_check_and_trend_in_a_ladder_run_with_a_non_neighbour_match(tmp_path):
    import analysis
    from analysis.findings import verdict

    def cell(cid: str, agents: list[str], games: int, p: float | None = None) -> dict:
        out = {"id": cid, "label": f"2 players, {' vs '.join(dict.fromkeys(agents))}", "agents": agents}
        return out | {"games": games} | ({"variant": {"p": [p, 1 - p]}} if p is not None else {})

    rungs = ["random", "greedy", "mcts:iters=20"]
    cells = [
        cell("p2-random", ["random"] * 2, 2000, 0.40),
        cell("p2-greedy", ["greedy"] * 2, 2000, 0.44),
        cell("p2-mcts", ["mcts:iters=20"] * 2, 2000, 0.48),
        cell("p2-random_v_greedy", ["random", "greedy"], 400),
        cell("p2-greedy_v_mcts", ["greedy", "mcts:iters=20"], 400),
        cell("p2-random_v_mcts", ["random", "mcts:iters=20"], 400),
    ]
    run = write_run(tmp_path / "run", name="coin-3", game="coin", cells=cells, pair_seats=True, batch=2000)
    s = analysis.analyse(set_study_keys(run, ladder=rungs))
    assert s.checks == {"p2-random_v_mcts"} and s.steps == {"p2-random_v_greedy", "p2-greedy_v_mcts"}
    assert [c.id for c in s.balance] == ["p2-random", "p2-greedy", "p2-mcts"]
    # the rungs are not compared pairwise: the trend replaces that
    assert s.comparisons.height == 0
    (check,) = s.ladder.checks
    assert (check.lower, check.upper) == ("random", "mcts:iters=20") and check.agree
    ladder = next(f.sentence for f in verdict(s) if f.title == "Skill ladder")
    assert "The chained Elo agrees with every non-neighbour match played" in ladder
    # coin ignores the agents: every rung has the same Elo, so no trend against Elo can be fitted and
    # the verdict falls back to the top two rungs; two numbers (advantage, ties) form the family
    m = s.ladder.metric("start_advantage", 2)
    assert m.verdict is not None and m.verdict.slope is None and m.verdict.family == 2
    assert m.verdict.level == pytest.approx(0.975)
    # the page's Agent strength fits every match, the ladder its neighbours: it says why they differ
    from analysis.report.build import build

    md = "\n".join(build(s, tmp_path / "out").md)
    strength = md.split("## Agent strength", 1)[1]
    assert "the skill ladder's Elo fits the games between neighbouring rungs only" in strength


def test_ladder_precision_sends_games_to_the_unsettled_top_rungs_and_stops_when_settled(tmp_path):
    from analysis.precision import ladder_round

    run = _ladder_run(tmp_path / "open", [0.45, 0.55], [0.47, 0.53])  # 2 points apart, ±3 threshold
    r = ladder_round(run, basis_s=100.0, spent_s=100.0, budget_s=3600.0)
    assert not r.settled and r.games and 0 < r.cost_s <= 100.0
    # only the rungs and the step into a grown rung grow, never by less than they have
    assert set(r.games) <= {"p2-random", "p2-greedy", "p2-random_v_greedy"}
    assert all(n > 8000 for k, n in r.games.items() if k != "p2-random_v_greedy")
    assert r.line.startswith("ladder precision: 2 players: not settled after 0.03 core-hours")
    assert "more core-hours" in r.line and "games" in r.line
    # no budget left: nothing is allocated, and the closing line still says what would be needed
    broke = ladder_round(run, basis_s=100.0, spent_s=3600.0, budget_s=3600.0)
    assert broke.games == {} and "settling needs about" in broke.line
    done = ladder_round(_ladder_run(tmp_path / "done", [0.4, 0.6], [0.4, 0.6]), 100.0, 100.0, 3600.0)
    assert done.settled and done.games == {} and "every start-player verdict settled" in done.line


def test_max_core_hours_needs_precision(tmp_path):
    import balancelab_cli as cli

    assert cli.main(["run", "hiroba-skill", "--out", str(tmp_path / "x"), "--max-core-hours", "1"]) == 2
    assert not (tmp_path / "x").exists()


def test_the_top_step_says_stronger_weaker_or_not_measurably_stronger():
    import polars as pl

    from analysis.ladder_findings import _top_step

    def words(share: float, lo: float, hi: float, a: str = "top") -> str:
        b = "second" if a == "top" else "top"
        pairs = pl.DataFrame({"agent_a": [a], "agent_b": [b], "share_a": [share], "lo": [lo], "hi": [hi]})
        return _top_step(pairs, "second", "top")

    assert words(0.6, 0.55, 0.65).endswith("measurably stronger.")
    assert "not measurably stronger" in words(0.52, 0.45, 0.59)
    weaker = words(0.35, 0.31, 0.40)
    assert "won 35.0% (95% CI 31.0–40.0%)" in weaker and "measurably weaker" in weaker
    assert "not measurably stronger" not in weaker
    # the same match recorded the other way round reads the same
    assert words(0.65, 0.60, 0.69, a="second") == weaker


def test_a_step_to_another_kind_of_agent_says_so():
    """hiroba-skill: "the start player's disadvantage grows from mcts:iters=10000 to
    xmcts:iters=10000" read as more budget; the step changes the search itself."""
    from analysis.ladder_findings import movement

    lo, hi = _pt("mcts:iters=10000", -0.073, 0.02, 987), _pt("xmcts:iters=10000", -0.16, 0.04, 1105)
    m = _metric([lo, hi])
    assert movement(m, lo, hi).endswith("(another kind of agent, not only a larger budget)")
    same = _pt("mcts:iters=3000", -0.09, 0.02, 846)
    assert "another kind" not in movement(m, same, lo)
