"""From diagnosis to fix: the score handicap rule, compensation in points, sweeps, `fairest`."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import rust_core
from analysis.stats.compensation import Outcomes, compensation, fair_handicap, outcomes, win_shares
from analysis.stats.sweep import crossing
from balancelab_cli import main
from pipeline.study import StudyError, parse_text


def _table(game: str, variant: dict[str, object], agents: list[str], games: int = 12) -> pl.DataFrame:
    batch = rust_core.simulate(game, variant, agents, 5, 0, games, pair_seats=True)
    return pl.from_arrow(batch)  # type: ignore[return-value]


# --- the rule ---------------------------------------------------------------------------------


def test_zero_handicap_reproduces_the_rows_exactly():
    for agents in (["greedy", "greedy"], ["mcts:iters=8", "greedy"]):
        base = _table("hiroba", {}, agents)
        assert base.equals(_table("hiroba", {"handicap": [0, 0]}, agents))
        assert base.equals(_table("hiroba", {"handicap": None}, agents))


def test_handicap_adds_points_and_reranks_with_the_tiebreak():
    base = _table("hiroba", {}, ["greedy", "greedy"], 40)
    h = _table("hiroba", {"handicap": [0, 3]}, ["greedy", "greedy"], 40)
    assert (h["score"] - base["score"]).to_list() == [3 * s for s in base["seat"]]  # greedy ignores it
    o = outcomes(base, paired=True)
    shares = win_shares(o.scores, o.tiebreaks, np.array([0.0, 3.0]))
    recorded = h.sort("game_index", "seat")["win"].to_numpy().reshape(-1, 2)
    assert np.array_equal(shares, recorded)
    assert not np.array_equal(win_shares(o.scores, o.tiebreaks, np.zeros(2)), recorded)  # winners changed


def test_hand_made_outcomes_rank_as_the_game_does():
    scores = np.array([[10.0, 8.0], [10.0, 8.0], [10.0, 8.0]])
    ties = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
    got = win_shares(scores, ties, np.array([0.0, 2.0]))
    assert got.tolist() == [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]  # equal scores: tie-break, then shared
    assert win_shares(scores, ties, np.array([0.0, 1.0]))[:, 0].tolist() == [1.0, 1.0, 1.0]


def test_bad_handicap_is_refused_naming_the_option():
    for bad in ([0, 1, 2], [0, 1.5], "2", [0, 5000]):
        with pytest.raises(ValueError, match="handicap"):
            rust_core.validate("coin", {"handicap": bad}, ["random", "random"])
    assert [o["name"] for o in rust_core.contract_options()] == ["handicap"]
    assert rust_core.normalize_variant("coin", {"handicap": [0, 0]}, 2) == rust_core.normalize_variant(
        "coin", {}, 2
    )


# --- compensation -----------------------------------------------------------------------------


def _synthetic(shift: list[int], games: int, seed: int) -> Outcomes:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 21, size=(games, len(shift))) + np.array(shift)
    return Outcomes(scores.astype(float), np.zeros_like(scores, dtype=float), np.arange(games) // 2)


def test_bootstrap_compensation_recovers_a_known_shift():
    c = compensation(_synthetic([3, 0], 4000, 1), resamples=200)
    assert abs(c.points[1] - 3) < 0.5
    assert c.lo[1] <= 3 <= c.hi[1] and c.hi[1] - c.lo[1] < 1.5
    assert c.whole() == (0, 3)
    assert compensation(_synthetic([0, 3], 4000, 2), resamples=50).whole() == (0, -3)


def _recount(o: Outcomes, weights: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Mean win share per seat under ``h``, every game ranked again at each corner of the whole
    points around the fractional handicaps (multilinear interpolation)."""
    base = np.floor(h)
    parts = [i for i in range(h.size) if h[i] - base[i] > 1e-12]
    total = np.zeros(h.size)
    for corner in itertools.product((0, 1), repeat=len(parts)):
        trial, weight = base.copy(), 1.0
        for i, up in zip(parts, corner, strict=True):
            trial[i] += up
            weight *= h[i] - base[i] if up else 1 - (h[i] - base[i])
        total += weight * np.average(win_shares(o.scores, o.tiebreaks, trial), axis=0, weights=weights)
    return total


def test_the_share_curve_equals_a_recount_at_every_whole_point():
    from analysis.stats.compensation import _share_curve

    rng = np.random.default_rng(7)
    for n in (2, 3, 5):
        games = 600
        scores = rng.integers(0, 12, size=(games, n)).astype(float)  # many ties
        o = Outcomes(scores, rng.integers(0, 3, size=(games, n)).astype(float), np.arange(games) // 2)
        weights = rng.integers(0, 3, size=games).astype(float)
        h = np.concatenate(([0.0], rng.normal(0, 2, size=n - 1)))  # fractional: corners
        for seat in range(1, n):
            at = _share_curve(o, weights, h, seat)
            for x in range(-15, 16):
                trial = h.copy()
                trial[seat] = x
                assert at(x) == pytest.approx(_recount(o, weights, trial)[seat], abs=1e-12)


def test_three_player_compensation_equalises_every_seat():
    o = _synthetic([4, 2, 0], 6000, 3)
    h = fair_handicap(o)
    assert np.allclose(h, [0, 2, 4], atol=0.6)
    shares = win_shares(o.scores, o.tiebreaks, np.round(h)).mean(axis=0)
    assert np.allclose(shares, 1 / 3, atol=0.03)


# --- the fix chain: estimate, play, re-estimate -----------------------------------------------


def _cell_rows(edge: int, handicap: int, games: int, seed: int) -> pl.DataFrame:
    """Two-player games whose second player plays ``edge`` points better; the recorded scores carry
    the handicap ``[0, handicap]`` (as the batch runner records them)."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 21, size=(games, 2)) + np.array([0, edge])
    return pl.DataFrame(
        {
            "game_index": np.repeat(np.arange(games), 2),
            "deal_index": np.repeat(np.arange(games) // 2, 2),
            "seat": np.tile([0, 1], games),
            "score": (raw + np.array([0, handicap])).ravel(),
            "tiebreak": np.zeros(2 * games, dtype=np.int64),
        }
    )


class _Fake:
    """The parts of a StudyAnalysis the fix chain reads: cells, rows, each cell's advantage."""

    game, paired, threshold = "coin", True, 0.03
    elsewhere: list[object] = []  # no sibling report played anything

    def __init__(self, cells: dict[str, tuple[int, int]], agent: str = "mcts") -> None:
        from analysis.model import CellInfo

        # a searching agent by default: the fake's players play differently under a handicap
        self.rows = {k: _cell_rows(e, h, 8000, i) for i, (k, (e, h)) in enumerate(cells.items())}
        self.balance = [
            CellInfo(k, k, i, 2, (agent, agent), {"handicap": [0, h]} if h else {}, agent, k, k)
            for i, (k, (_, h)) in enumerate(cells.items())
        ]

    def advantage_row(self, cell: str) -> dict[str, object]:
        from analysis.stats.practical import classify

        o = outcomes(self.rows[cell], paired=True)
        start = win_shares(o.scores, o.tiebreaks, np.zeros(2))[:, 0]
        per_deal = np.bincount(o.deal, start) / np.bincount(o.deal) - 0.5
        half = 1.96 * per_deal.std(ddof=1) / np.sqrt(per_deal.size)
        a = float(per_deal.mean())
        finding = classify(a - half, a + half, self.threshold)
        return {"advantage": a, "lo": a - half, "hi": a + half, "finding": finding}


def test_a_refuted_fix_is_re_estimated_from_the_games_that_refuted_it():
    from analysis.fairness import cell_fixes
    from analysis.report.fairness import chain_words

    # The second player is 1 point better; given a handicap, it plays 3 points better.
    s = _Fake({"none": (1, 0), "start_1": (3, -1), "start_3": (3, -3)})
    chain = cell_fixes(s)  # type: ignore[arg-type]
    assert [f.step for f in chain] == [0, 1]
    first, second = chain
    assert first.comp.whole() == (0, -1) and first.confirm_cell == "start_1"
    assert first.reading == "refuted" and first.agrees is False
    assert second.played_at == (0, -1) and second.comp.whole() == (0, -3)
    assert second.confirm_cell == "start_3" and second.reading == "confirmed" and second.agrees
    words = chain_words(s, chain)  # type: ignore[arg-type]
    refuted, confirmed = words.split(". Give ")
    assert refuted.startswith("Do not give the start player +1 point:") and "play refutes" in refuted
    assert confirmed.startswith("the start player +3 points: played with the start player +3 points")
    assert words.endswith("within ±3 points, so 2-player Coin (none) is fair at this skill level (played).")
    # greedy does not read the handicap: its plays are the same games re-scored, said once per chain
    greedy = _Fake({"none": (1, 0), "start_1": (3, -1), "start_3": (3, -3)}, agent="greedy")
    assert chain_words(greedy, cell_fixes(greedy)).count("same games re-scored") == 1  # type: ignore[arg-type]
    # Without the cell that plays the new value, the chain ends at an estimate not yet played.
    s = _Fake({"none": (1, 0), "start_1": (3, -1)})
    *_, last = cell_fixes(s)  # type: ignore[arg-type]
    assert last.step == 1 and last.reading == "not played"


# --- sweeps -----------------------------------------------------------------------------------


def test_sweep_crossing_on_synthetic_data():
    rng = np.random.default_rng(4)
    x = np.repeat(np.arange(5.0), 3000)
    y = (rng.random(x.size) < 0.3 + 0.1 * x).astype(float)
    fit = crossing(x, y, np.arange(x.size), 0.5)
    assert fit.lo <= 2 <= fit.hi and fit.hi - fit.lo < 0.5 and fit.in_range
    far = crossing(x[x < 1.5], y[x < 1.5], np.arange(int((x < 1.5).sum())), 0.5)
    assert not far.in_range and far.value > far.x_max == 1
    flat = crossing(x, (rng.random(x.size) < 0.3).astype(float), np.arange(x.size), 0.5)
    assert not flat.settled or not flat.in_range


# --- study fields -----------------------------------------------------------------------------

COIN = """\
name = "coin-race"
game = "coin"
seed = 3
games_per_cell = {games}
pair_seats = true
practical_threshold = 0.03
[grid]
players = [2]
agents = ["random"]
[grid.options]
first = {first}
"""


def test_a_numeric_range_expands_into_cells():
    study = parse_text(COIN.format(games=10, first="{ from = 0.3, to = 0.7, step = 0.1 }"), "s.toml")
    assert [c.variant["first"] for c in study.cells] == [0.3, 0.4, 0.5, 0.6, 0.7]
    text = COIN.format(games=10, first="[0.5]").replace(
        "first = [0.5]", "moves = { from = 1, to = 3, step = 1 }"
    )
    assert [c.variant["moves"] for c in parse_text(text, "s.toml").cells] == [1, 2, 3]  # whole numbers


@pytest.mark.parametrize(
    ("first", "says"),
    [
        ("{ from = 0.7, to = 0.3, step = 0.1 }", "grid.options.first: 'to' (0.3) must not be below"),
        ("{ from = 0.3, to = 0.7, step = 0 }", "grid.options.first.step: must be a positive number"),
        (
            "{ from = 0.3, to = 0.7, step = 0.1, stride = 1 }",
            "grid.options.first.stride: unknown field; allowed: from, to, step",
        ),
        ("{ from = 0, to = 1, step = 0.0001 }", "expands into 10,001 values"),
    ],
)
def test_bad_ranges_give_one_line_errors(first: str, says: str):
    with pytest.raises(StudyError) as err:
        parse_text(COIN.format(games=10, first=first), "s.toml")
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_bad_handicap_cell_names_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "s.toml"
    path.write_text(COIN.format(games=10, first="[0.5]").replace("first = [0.5]", "handicap = [[0, 1, 2]]"))
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("balancelab: error:") and "handicap" in err and "\n" not in err
    assert not (tmp_path / "out").exists()


def test_fairest_needs_two_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "s.toml"
    path.write_text(COIN.format(games=10, first="[0.5]"))
    assert main(["fairest", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "at least 2 candidate cells" in capsys.readouterr().err


def test_official_must_name_exactly_one_cell():
    text = COIN.format(games=10, first="[0.4, 0.5]")
    with pytest.raises(StudyError, match="official: no cell has these options"):
        parse_text(text.replace("[grid]", "official = { first = 0.45 }\n[grid]"), "s.toml")
    study = parse_text(text.replace("[grid]", "official = { first = 0.4 }\n[grid]"), "s.toml")
    assert study.official == next(c.id for c in study.cells if c.variant["first"] == 0.4)


# --- fairest on coin --------------------------------------------------------------------------


def test_fairest_on_coin_finds_the_fair_value(tmp_path: Path, ray_local: None):
    path = tmp_path / "coin.toml"
    text = COIN.format(games=400, first="{ from = 0.3, to = 0.7, step = 0.1 }")
    path.write_text(text.replace("[grid]", "official = { first = 0.4 }\n[grid]"))
    out = tmp_path / "run"
    args = ["fairest", str(path), "--out", str(out), "--max-games", "6400", "--no-progress", "--quiet"]
    assert main(args) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    rounds = [r["fairest"] for r in manifest["precision_rounds"] if "fairest" in r]
    last = rounds[-1]
    status = {c["label"]: c["status"] for c in last["candidates"]}
    assert status["first=0.5"] == "in"
    assert status["first=0.3"] == status["first=0.7"] == "out (worse)"
    assert last["crossing"]["left_lo"] <= 0.5 <= last["crossing"]["left_hi"]
    assert last["crossing"]["left_hi"] - last["crossing"]["left_lo"] < 0.4  # some were shown worse
    games = {c["label"]: c["games"] for c in last["candidates"]}
    assert games["first=0.5"] > games["first=0.3"]  # games went where the answer was
    report = (out / "report" / "report.md").read_text()
    assert "From diagnosis to fix" in report and "Fairest settings" in report
    assert "Played by random agents only" in report  # random coin agents: said once, naming them
    assert "official first=0.4" in last["line"] and "the fairest minus the official" in last["line"]
    assert "anytime-valid" in report
    assert main(args) == 0  # resumes: nothing left to play, same answer
    again = json.loads((out / "manifest.json").read_text())
    assert again["games_done"] == manifest["games_done"]


def test_a_reason_for_no_handicap_shared_by_every_cell_is_said_once(tmp_path):
    """taluva-switches and the atlas's Taluva page said "Compensation … is not given in points" once
    per cell: a reason every cell shares is one line for the study."""
    from helpers_runs import write_run

    from analysis import analyse
    from analysis.report.fairness import fairness_findings

    cells = [
        {"id": f"p{n}", "label": f"{n} players", "agents": ["random"] * n, "players": n, "games": 20}
        for n in (2, 3)
    ]
    s = analyse(write_run(tmp_path / "run", name="taluva-two", game="taluva", pair_seats=True, cells=cells))
    said = [f for f in fairness_findings(s, [], []) if "not given in points" in f.sentence]
    assert len(said) == 1 and said[0].title == "Handicap"
    assert said[0].sentence.startswith(
        "Compensation for any of the 2 cells of this study is not given in points"
    )
