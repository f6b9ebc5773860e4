"""The analysis API on small runs written in the pipeline's format (no Ray, no pipeline)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from helpers_runs import write_run

import analysis
from analysis.games import alhambra
from analysis.precision import max_halfwidths
from analysis.stats import (
    compare_cells,
    equal_seats_test,
    game_table,
    seat_win_rates,
    start_advantage,
    tie_share,
)
from analysis.stats.seats import start_advantage_sequence


@pytest.fixture(scope="module")
def coin_run(tmp_path_factory):
    return write_run(
        tmp_path_factory.mktemp("coin") / "run",
        name="coin-mini",
        game="coin",
        cells=[
            {"id": "biased", "agents": ["random"] * 3, "variant": {"p": [0.6, 0.3, 0.1]}, "games": 1200},
            {"id": "fair", "agents": ["random"] * 3, "games": 1200},
            {"id": "ties", "agents": ["random"] * 2, "variant": {"tie": 1.0}, "games": 50},
        ],
        batch=400,
    )


def test_load_is_lazy_and_has_cell_partitions(coin_run):
    lf = analysis.load(coin_run)
    assert isinstance(lf, pl.LazyFrame)
    counts = dict(lf.group_by("cell").len().collect().iter_rows())
    assert counts == {"biased": 3600, "fair": 3600, "ties": 100}
    assert lf.collect_schema()["n_players"] == pl.Int32
    assert analysis.read_manifest(coin_run)["study"]["name"] == "coin-mini"


def test_seat_win_rates_find_the_bias(coin_run):
    rows = analysis.cell_rows(coin_run, "biased")
    t = seat_win_rates(rows, paired=False)
    assert t["seat"].to_list() == [0, 1, 2]
    assert np.allclose(t["win_rate"].sum(), 1.0)
    for truth, lo, hi in zip([0.6, 0.3, 0.1], t["lo"], t["hi"], strict=True):
        assert lo <= truth <= hi
    adv = start_advantage(rows, paired=False)
    assert adv.lo > 0.2 and abs(adv.estimate - (t["win_rate"][0] - 1 / 3)) < 1e-12
    assert equal_seats_test(rows, paired=False).p_value < 1e-10
    assert equal_seats_test(analysis.cell_rows(coin_run, "fair"), paired=False).p_value > 0.001


def test_ties_count_as_shares(coin_run):
    rows = analysis.cell_rows(coin_run, "ties")
    assert seat_win_rates(rows, paired=False)["win_rate"].to_list() == [0.5, 0.5]
    games = game_table(rows)
    assert games["tie"].all() and (games["margin"] == 0).all()
    assert tie_share(games, paired=False).estimate == 1.0


def test_paired_analysis_uses_the_deal_as_unit(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="paired",
        game="coin",
        pair_seats=True,
        cells=[{"id": "c", "agents": ["random"] * 2, "variant": {"p": [0.7, 0.3]}, "games": 400}],
    )
    rows = analysis.cell_rows(run, "c")
    paired = start_advantage(rows, paired=True)
    naive = start_advantage(rows, paired=False)
    # Both games of a deal have the same outcome by seat: 200 independent deals, not 400 games.
    assert paired.n_units == 200 and naive.n_units == 400
    assert paired.halfwidth > 1.3 * naive.halfwidth
    # the --precision loop reads the anytime-valid interval over the same 200 deals: wider
    seq = start_advantage_sequence(rows, paired=True)
    assert seq.n_units == 200 and max_halfwidths(run) == {"c": pytest.approx(seq.halfwidth)}
    assert seq.halfwidth > paired.halfwidth


def test_max_halfwidths_per_cell(coin_run):
    hw = max_halfwidths(coin_run)
    assert set(hw) == {"biased", "fair", "ties"}
    # the confidence sequence at p = 1/3 over 1200 games (tuned to 1000 units): sd = 0.471, so
    # 0.471 * sqrt(2 (1200 r + 1) / (1200^2 r) * log(sqrt(1200 r + 1) / 0.05)) with r = rho^2 = 0.00794
    assert hw["fair"] == pytest.approx(0.0411, abs=0.002)
    assert 0 < hw["ties"] < 0.2


def test_max_halfwidths_is_infinite_without_games(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="empty",
        game="coin",
        cells=[
            {"id": "a", "agents": ["random"] * 2, "games": 0},
            {"id": "b", "agents": ["random"] * 2, "games": 100},
        ],
    )
    hw = max_halfwidths(run)
    assert hw["a"] == math.inf and 0 < hw["b"] < 0.2


def test_compare_cells_verdicts(coin_run):
    cells = {c: analysis.cell_rows(coin_run, c) for c in ("biased", "fair")}
    res = compare_cells(cells, paired=False)
    adv = res.filter(pl.col("metric") == "start_advantage").row(0, named=True)
    assert adv["reject"] and adv["diff"] < -0.2 and adv["p_adj"] >= adv["p_value"]
    assert "lower start-player win rate" in adv["verdict"]
    turns = res.filter(pl.col("metric") == "turns").row(0, named=True)
    assert not turns["reject"] and turns["verdict"].startswith("no meaningful difference")
    small = compare_cells({k: v.filter(pl.col("game_index") < 30) for k, v in cells.items()}, paired=False)
    margin = small.filter(pl.col("metric") == "margin").row(0, named=True)
    assert "at this sample size" in margin["verdict"] or margin["reject"]


def test_alhambra_tables(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="alh",
        game="alhambra",
        cells=[
            {"id": "d", "agents": ["random"] * 2, "games": 40},
            {
                "id": "r",
                "agents": ["random"] * 2,
                "games": 40,
                "variant": {"dirk": False, "start_player": "random"},
            },
        ],
    )
    d = analysis.cell_rows(run, "d")
    stats = alhambra.dirk_stats(d, paired=False)
    assert stats.height == 3 + 6
    row = stats.row(0, named=True)
    assert 0 <= row["lo"] <= row["estimate"] <= row["hi"] <= 1
    assert alhambra.dirk_stats(analysis.cell_rows(run, "r"), paired=False).height == 0
    adj = alhambra.hand_adjusted_advantage(d, paired=False)
    assert adj.lo < adj.estimate < adj.hi and math.isfinite(adj.halfwidth)
    s = analysis.analyse(run)
    assert {"adjusted", "adj_lo", "adj_hi"} <= set(s.advantage.columns)
    assert len(s.warnings) == 2  # 40 games per cell cannot support a verdict


@pytest.mark.parametrize(
    ("lo", "hi", "cls"),
    [
        (0.012, 0.03, "matters"),
        (-0.03, -0.011, "matters"),
        (0.002, 0.03, "measurable"),
        (0.002, 0.008, "negligible"),
        (-0.008, 0.009, "fair"),
        (-0.02, 0.005, "unsettled"),
    ],
)
def test_practical_classes(lo, hi, cls):
    from analysis.stats.practical import classify

    assert classify(lo, hi, 0.01) == cls


def test_p_values_and_points_read_as_words():
    from analysis.words import p_value, pct_ci, pts

    assert [p_value(x) for x in (0.0, 2.02e-119, 0.0004, 0.0123, 0.432, 0.999)] == [
        "< 0.001",
        "< 0.001",
        "< 0.001",
        "0.012",
        "0.43",
        "1",
    ]
    assert pts(-0.016) == "\u22121.6" and pts(0.047) == "+4.7"
    assert pct_ci(0.4843, 0.4792, 0.4894) == "48.4% (95% CI 47.9–48.9%)"


def test_advantage_parts_match_the_cluster_robust_fit(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="alh",
        game="alhambra",
        pair_seats=True,
        cells=[{"id": "d", "agents": ["random"] * 2, "games": 400}],
    )
    rows = analysis.cell_rows(run, "d")
    parts = alhambra.advantage_parts(rows, paired=True)
    raw = start_advantage(rows, paired=True)
    adjusted = alhambra.hand_adjusted_advantage(rows, paired=True)
    assert parts["raw"].estimate == pytest.approx(raw.estimate, abs=1e-9)
    assert parts["moving_first"].estimate == pytest.approx(adjusted.estimate, abs=1e-9)
    assert parts["moving_first"].halfwidth == pytest.approx(adjusted.halfwidth, rel=0.02)
    hand = parts["starting_hand"]
    assert hand.estimate == pytest.approx(raw.estimate - adjusted.estimate, abs=1e-9)
    assert hand.lo < hand.estimate < hand.hi


def _fake_study(advantages: dict[str, tuple[str, float, float, float]], compare: list[dict] | None = None):
    """A StudyAnalysis with hand-made advantage rows: cell id -> (label, est, lo, hi)."""
    from analysis.model import StudyAnalysis
    from analysis.stats.practical import classify
    from rundir import Cell, EngineSpec, Manifest, Study
    from rundir.cells import with_roles

    cells = [
        Cell(cid, label, 2, {}, [label.rsplit(", ", 1)[1]] * 2, 100)
        for cid, (label, *_rest) in advantages.items()
    ]
    study = with_roles(Study("fake", "", "coin", 1, 100, True, "test", cells))
    adv = pl.DataFrame(
        [
            {
                "cell": cid,
                "label": label,
                "n_players": 2,
                "games": 100,
                "units": 50,
                "win_rate": 0.5 + e,
                "fair": 0.5,
                "advantage": e,
                "lo": lo,
                "hi": hi,
                "halfwidth": (hi - lo) / 2,
                "finding": classify(lo, hi, 0.01),
                "equal_seats_p": 0.5,
            }
            for cid, (label, e, lo, hi) in advantages.items()
        ]
    )
    empty = pl.DataFrame()
    return StudyAnalysis(
        manifest=Manifest(study, EngineSpec({}, {}), {}, None, "test", "", ""),
        paired=True,
        cells=study.cells,
        rows={c.id: empty for c in cells},
        seats=empty,
        advantage=adv,
        scores=empty,
        outcomes=empty,
        comparisons=pl.DataFrame(compare) if compare else empty,
    )


def _start_comparison(a: str, b: str, diff: float, lo: float, hi: float) -> dict:
    """A row of the comparisons table for the start-player advantage (b − a, simultaneous interval)."""
    reject = lo > 0 or hi < 0
    return {"metric": "start_advantage", "cell_a": a, "cell_b": b, "diff": diff, "lo": lo, "hi": hi,
            "p_adj": 0.001 if reject else 0.5, "in_family": True, "reject": reject}  # fmt: skip


def _skill_sentence(advantages: dict, compare: list[dict] | None = None) -> str:
    from analysis.findings import verdict

    skill = [f for f in verdict(_fake_study(advantages, compare)) if f.title == "Skill"]
    assert len(skill) == 1
    return skill[0].sentence


def test_skill_finding_says_when_the_answer_changes():
    levels = {
        "g": ("2 players, greedy", 0.04, 0.033, 0.048),
        "m": ("2 players, mcts:iters=100", -0.18, -0.23, -0.13),
    }
    changes = _skill_sentence(levels, [_start_comparison("g", "m", -0.22, -0.27, -0.17)])
    assert changes.startswith(
        "The answer changes with skill (strongest minus weakest: −22.0 points [−27.0, −17.0]"
    )
    assert changes.index("greedy") < changes.index("mcts")  # weakest first
    assert "not the game at expert level" in changes
    # the table holds b − a: the same difference read from the other side
    assert _skill_sentence(levels, [_start_comparison("m", "g", 0.22, 0.17, 0.27)]) == changes
    unpaired = _skill_sentence(levels)  # not compared: no more than the directions
    assert unpaired.startswith(
        "The directions differ between skill levels (the strongest and weakest were not"
    )
    same = {
        "g": ("2 players, greedy", 0.04, 0.033, 0.048),
        "m": ("2 players, mcts:iters=100", 0.05, 0.02, 0.08),
    }
    said = _skill_sentence(same, [_start_comparison("g", "m", 0.01, -0.02, 0.04)])
    assert said.startswith("The answer is the same at every skill level tested (start player ahead at each; ")
    assert "+1.0 points [−2.0, +4.0], simultaneous 95%, which holds 0" in said
    assert _skill_sentence(same).startswith(
        "The same direction at every skill level tested (start player ahead;"
    )


def test_skill_finding_needs_the_difference_to_say_the_answer_changes():
    # maharaja-switches: directions differ, but strongest minus weakest −28.8 points [−65.8, +8.2]
    levels = {
        "g": ("2 players, greedy", 0.106, 0.09, 0.12),
        "m": ("2 players, mcts:iters=100", -0.182, -0.55, -0.02),
    }
    text = _skill_sentence(levels, [_start_comparison("g", "m", -0.288, -0.658, 0.082)])
    assert "changes with skill" not in text
    assert text.startswith(
        "The directions differ between skill levels, but no change with skill is shown (strongest minus "
        "weakest: −28.8 points [−65.8, +8.2], simultaneous 95%, which holds 0)"
    )


def test_skill_finding_says_a_change_in_size_with_the_same_direction():
    # hiroba-switches: greedy +23.9 [22.8, 24.9] and mcts:iters=100 +15.6 [12.0, 19.0] were "the same"
    levels = {
        "g": ("2 players, greedy", 0.239, 0.228, 0.249),
        "m": ("2 players, mcts:iters=100", 0.156, 0.12, 0.19),
    }
    text = _skill_sentence(levels, [_start_comparison("g", "m", -0.083, -0.12, -0.045)])
    assert not text.startswith("The answer is the same")
    assert text.startswith(
        "The same direction at every skill level tested (start player ahead), but not the same size "
        "(strongest minus weakest: −8.3 points [−12.0, −4.5], simultaneous 95%): greedy +23.9 points "
        "[+22.8, +24.9], start player ahead; mcts:iters=100 +15.6 points [+12.0, +19.0], start player ahead"
    )


def test_closest_to_fair_cites_the_differences_with_their_intervals():
    from analysis.findings import verdict

    def comp(a, b, diff, reject, p):
        return {
            "metric": "start_advantage",
            "cell_a": a,
            "cell_b": b,
            "diff": diff,
            "lo": diff - 0.01,
            "hi": diff + 0.01,
            "p_adj": p,
            "in_family": True,
            "reject": reject,
        }

    s = _fake_study(
        {
            "a": ("2 players, official, greedy", -0.016, -0.021, -0.011),
            "b": ("2 players, no_dirk, greedy", -0.020, -0.024, -0.015),
            "c": ("2 players, money_3, greedy", -0.004, -0.008, 0.0),
            "d": ("2 players, other, greedy", 0.006, 0.001, 0.011),
        },
        [
            comp("a", "c", 0.012, True, 0.0001),
            comp("b", "c", 0.016, True, 0.0001),
            comp("c", "d", 0.01, False, 0.2),
            comp("a", "b", -0.004, False, 0.5),
            comp("a", "d", 0.022, True, 0.0001),
            comp("b", "d", 0.026, True, 0.0001),
        ],
    )
    closest = next(f for f in verdict(s) if f.title.startswith("Variant closest to fair"))
    text = closest.sentence
    assert text.startswith("money_3 is closest to fair")
    # each difference is the other setting minus the closest, with its interval (paired, simultaneous)
    assert "closer to fair than official (−1.6; difference −1.2 points [−2.2, −0.2])" in text
    assert "Bonferroni p" not in text and "paired by deal" in text
    assert "other (+0.6 points (95% CI +0.1 to +1.1)) errs the other way" in text
    assert text.startswith("money_3 is closest to fair by its estimate")
    # the other side of fair by its estimate only (its interval holds 0): never "errs the other way"
    wide = pl.when(pl.col("cell") == "d").then(-0.004).otherwise(pl.col("lo"))
    s.advantage = s.advantage.with_columns(lo=wide)
    again = next(f for f in verdict(s) if f.title.startswith("Variant closest to fair")).sentence
    assert "errs the other way" not in again
    assert "other (+0.6 points (95% CI −0.4 to +1.1): the other side of fair by its estimate only)" in again
    # three ways against the threshold: within, beyond, undetermined (never "not fair" unshown)
    assert "Fair within ±1 point (interval inside the band): money_3 (−0.4 points" in text
    assert "Beyond ±1 point (interval wholly outside the band): official (−1.6 points" in text
    assert "no_dirk (−2.0 points" in text.split("Beyond")[1]
    assert "Undetermined (interval reaches across ±1 point: neither shown fair nor shown unfair): " in text
    assert "unfair): other (+0.6" in text
    assert "None of these variants" not in text
    # greedy only: the answer may change with skill, said once, in the words the fairest page uses
    warning = "Played by greedy agents only: the answer may change with skill (a skill ladder"
    assert text.endswith(warning + " says whether it does).") and text.count("Played by") == 1


def test_closest_to_fair_played_by_search_gives_no_greedy_warning():
    from analysis.findings import verdict

    s = _fake_study(
        {
            "a": ("2 players, official, mcts:iters=100", -0.016, -0.021, -0.011),
            "c": ("2 players, money_3, mcts:iters=100", -0.004, -0.008, 0.0),
        }
    )
    closest = next(f for f in verdict(s) if f.title.startswith("Variant closest to fair"))
    assert closest.sentence.startswith("money_3 is closest to fair") and "greedy" not in closest.sentence


def test_skill_finding_when_one_level_is_unsettled():
    from analysis.findings import verdict

    s = _fake_study(
        {
            "g": ("2 players, greedy", 0.01, -0.024, 0.044),
            "m": ("2 players, mcts:iters=100", -0.16, -0.24, -0.07),
        }
    )
    skill = next(f for f in verdict(s) if f.title == "Skill")
    assert skill.sentence.startswith("Settled only at some skill levels (greedy needs more games)")
    assert "changes" not in skill.sentence and "same" not in skill.sentence


def test_cells_sharing_deals_are_compared_as_pairs():
    from analysis.stats.compare import _shared, _welch

    rng = np.random.default_rng(3)
    deal = rng.normal(0, 1, 400)  # what a deal gives both cells
    a, b = deal + rng.normal(0, 0.3, 400), deal + 0.1 + rng.normal(0, 0.3, 400)
    ids = np.arange(400)
    diff, lo, hi, p = _shared(a, ids, b, ids, 0.05)  # type: ignore[misc]
    _, wlo, whi, _ = _welch(a, b, 0.05)
    assert lo <= 0.1 <= hi and p < 0.05 and (hi - lo) < 0.5 * (whi - wlo)  # pairs: far narrower
    # the leader of a race has more deals: the shared ones pair, the rest count as they are
    more = np.concatenate([b, 0.1 + rng.normal(0, 1.04, 400)])
    diff2, lo2, hi2, _ = _shared(a, ids, more, np.arange(800), 0.05)  # type: ignore[misc]
    assert lo2 <= 0.1 <= hi2 and diff2 == pytest.approx(more.mean() - a.mean())
    assert _shared(a, ids, b, ids + 1000, 0.05) is None  # nothing shared: Welch
