"""Calibration of the analysis on the synthetic ``coin`` game, whose seat win rates are known.

Many small studies are simulated (one ``rust_core.simulate`` call, split into blocks of
consecutive game indices: every game has its own deal stream, so blocks are independent
studies) and analysed with the same functions the reports use. The 95% intervals must
cover the truth in 93-97% of the studies, and comparing two identical cells must reject
(after Bonferroni) in at most 5% of them.
"""

from __future__ import annotations

import gc

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

import rust_core
from analysis.stats import compare_cells, seat_win_rates, start_advantage

N_STUDIES = 1000


@pytest.fixture(autouse=True)
def _fast_gc():
    # statsmodels' multipletests calls gc.collect() on every call; freezing the objects that
    # exist already keeps each collection cheap in this loop of thousands of comparisons.
    gc.freeze()
    yield
    gc.unfreeze()


def _studies(variant: dict, n_players: int, games: int, seed: int, *, pair_seats: bool) -> list[pl.DataFrame]:
    batch = rust_core.simulate(
        "coin", variant, ["random"] * n_players, seed, 0, N_STUDIES * games, pair_seats=pair_seats
    )
    df = pl.from_arrow(batch).with_columns((pl.col("game_index") // games).alias("study"))
    return df.partition_by("study", maintain_order=True)


def _coverage(studies: list[pl.DataFrame], truth: np.ndarray, *, paired: bool) -> tuple[float, float]:
    n = truth.size
    seat_hits, adv_hits = [], []
    for rows in studies:
        t = seat_win_rates(rows, paired=paired)
        seat_hits.extend(((t["lo"].to_numpy() <= truth) & (truth <= t["hi"].to_numpy())).tolist())
        adv = start_advantage(rows, paired=paired)
        adv_hits.append(adv.lo <= truth[0] - 1 / n <= adv.hi)
    return float(np.mean(seat_hits)), float(np.mean(adv_hits))


@pytest.mark.parametrize(
    ("p", "tie", "games", "pair_seats"),
    [
        ([0.45, 0.35, 0.20], 0.05, 150, False),  # games are the units: Wilson intervals
        ([0.58, 0.42], 0.0, 400, True),  # 200 deals of 2 rotated games are the units: t over deals
    ],
)
def test_intervals_cover_the_true_seat_win_rates(p, tie, games, pair_seats):
    n = len(p)
    truth = (1 - tie) * np.array(p) + tie / n
    studies = _studies({"p": p, "tie": tie}, n, games, seed=11 + n, pair_seats=pair_seats)
    assert len(studies) == N_STUDIES
    seat_cov, adv_cov = _coverage(studies, truth, paired=pair_seats)
    print(f"p={p} tie={tie} pair_seats={pair_seats}: coverage seat {seat_cov:.4f}, advantage {adv_cov:.4f}")
    assert 0.93 <= seat_cov <= 0.97
    assert 0.93 <= adv_cov <= 0.97


def test_intervals_miss_a_wrong_truth():
    # The same check with a truth that is off by 0.08 must fail: the intervals are not vacuous.
    studies = _studies({"p": [0.45, 0.35, 0.20], "tie": 0.0}, 3, 150, seed=5, pair_seats=False)[:200]
    seat_cov, adv_cov = _coverage(studies, np.array([0.53, 0.27, 0.20]), paired=False)
    assert adv_cov < 0.6 and seat_cov < 0.8


@pytest.mark.parametrize("pair_seats", [False, True])
def test_bonferroni_comparison_of_identical_cells_rarely_rejects(pair_seats):
    variant = {"p": [0.40, 0.35, 0.25], "tie": 0.1}
    a = _studies(variant, 3, 150, seed=21, pair_seats=pair_seats)
    b = _studies(variant, 3, 150, seed=22, pair_seats=pair_seats)
    rejects = []
    for rows_a, rows_b in zip(a, b, strict=True):
        res = compare_cells({"A": rows_a, "B": rows_b}, paired=pair_seats)
        assert res.height == 4
        rejects.append(bool(res["reject"].any()))
    rate = float(np.mean(rejects))
    print(f"pair_seats={pair_seats}: family-wise rejection rate {rate:.4f}")
    # coin games all last one turn: the length test is exact and left out, so the Bonferroni family
    # is the 3 other tests and the error rate sits right at 5%; with 1,000 studies the measured
    # rate must be compatible with at most 5% (its Wilson 95% interval reaches down to 5%)
    lo, _ = proportion_confint(sum(rejects), len(rejects), method="wilson")
    assert lo <= 0.05 and rate <= 0.065


def test_bonferroni_comparison_detects_a_real_difference():
    a = _studies({"p": [0.5, 0.5]}, 2, 400, seed=31, pair_seats=False)[:50]
    b = _studies({"p": [0.65, 0.35]}, 2, 400, seed=32, pair_seats=False)[:50]
    power = np.mean(
        [
            compare_cells({"A": x, "B": y}, paired=False).filter(pl.col("metric") == "start_advantage")[
                "reject"
            ][0]
            for x, y in zip(a, b, strict=True)
        ]
    )
    assert power > 0.8
