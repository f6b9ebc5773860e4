"""The analysis API on small runs written in the pipeline's format (no Ray, no pipeline)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from helpers_runs import write_run

import analysis
from analysis import alhambra
from analysis.precision import max_halfwidths
from analysis.stats import (
    compare_cells,
    equal_seats_test,
    game_table,
    seat_win_rates,
    start_advantage,
    tie_share,
)


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
    assert max_halfwidths(run) == {"c": pytest.approx(paired.halfwidth)}


def test_max_halfwidths_per_cell(coin_run):
    hw = max_halfwidths(coin_run)
    assert set(hw) == {"biased", "fair", "ties"}
    # Wilson half-width at p = 1/3 with 1200 games: 1.96 * sqrt(p (1 - p) / 1200) = 0.0267.
    assert hw["fair"] == pytest.approx(0.0267, abs=0.001)
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
    assert adv["reject"] and adv["diff"] < -0.2 and adv["p_holm"] >= adv["p_value"]
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
