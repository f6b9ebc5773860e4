"""Skill ladders: study files expand a ladder into rung and step cells; the analysis reads every
number per rung against the rungs' Elo and says whether it converged, is moving or is unsettled."""

from __future__ import annotations

import json
import pathlib

import pytest
from helpers_runs import write_run

from analysis.skill import LadderMetric, LadderPoint, convergence
from pipeline import cli, rundir
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
    assert more.to_dict()["ladder"] == study.ladder == study.to_spec().ladder


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
    for name, top in (("hiroba-skill", "mcts:iters=10000"), ("alhambra-skill", "mcts:iters=1000")):
        study = load_study(name)
        assert study.ladder[0] == "greedy" and study.ladder[-1] == top
        steps = [c for c in study.cells if len(set(c.agents)) == 2]
        assert len(steps) == len(study.ladder) - 1 and all(c.n_players == 2 for c in steps)


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
    assert text.startswith("Still moving: the start player's disadvantage shrinks as the agents get stronger")
    assert "−18.0 points at mcts:iters=30" in text and "−5.0 points at mcts:iters=1000" in text
    assert "not converged" in text
    grows = _metric([_pt("a", 0.02, 0.01), _pt("b", 0.10, 0.01)])
    assert "the start player's advantage grows" in convergence_sentence(grows)
    flips = _metric([_pt("a", -0.08, 0.01), _pt("b", 0.06, 0.01)])
    assert "the start-player advantage changes sign" in convergence_sentence(flips)
    falls = _metric([_pt("a", 0.005, 0.01), _pt("b", -0.25, 0.01)])  # from fair within ±1 to -25
    assert "the start-player advantage falls as the agents get stronger" in convergence_sentence(falls)


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
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["study"]["ladder"] = ["random", "greedy"]
    manifest["study"]["practical_threshold"] = 0.03
    manifest["checksum"] = rundir.manifest.checksum(manifest)
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


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
    assert "strongest rung, greedy self-play" in head.sentence and "Still moving" in head.sentence
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
    findings = {f.title: f.sentence for f in verdict(s)}
    assert findings["random"].startswith("With random self-play, the start player wins ")
    assert findings["greedy"].startswith("With greedy self-play, the start player wins ")
    assert "hiroba-skill" in findings["Expert level"] and "converged" in findings["Expert level"]
    skill = findings["Skill"]
    assert "not the game at expert level" in skill or skill.startswith(
        ("The answer is the same", "Not settled")
    )
