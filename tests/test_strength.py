"""Agent strength: Bradley–Terry / Elo recovery on synthetic paired results, and a tiny real run."""

from __future__ import annotations

import functools
import math
import pathlib
from typing import Any

import numpy as np
import polars as pl
import pytest
from helpers_runs import write_run

from analysis.report import write_strength
from analysis.strength import (
    ELO_PER_LOGIT,
    analyse_strength,
    fit_bradley_terry,
    format_strength,
    ladder_key,
    strength_from_rows,
)
from balancelab_cli import main as cli_main
from pipeline.study import load_study
from rundir import Cell

#: Known Bradley–Terry strengths (logits) of synthetic agents; greedy is the anchor (0).
TRUE = {"random": -1.5, "greedy": 0.0, "mcts:iters=100": 0.6, "mcts:iters=300": 1.0, "mcts:iters=1000": 1.1}
PAIRS = [
    ("greedy", "random"),
    ("mcts:iters=100", "random"),
    ("mcts:iters=100", "greedy"),
    ("mcts:iters=300", "greedy"),
    ("mcts:iters=300", "mcts:iters=100"),
    ("mcts:iters=1000", "mcts:iters=300"),
    ("mcts:iters=1000", "greedy"),
]


def _synthetic_rows(a: str, b: str, deals: int, rng: np.random.Generator, tie: float = 0.05) -> pl.DataFrame:
    """Rows (two per game, two games per deal, seats swapped) with P(a wins) from TRUE; a deal
    effect makes the two games of a deal correlated, as with real paired games."""
    shift = np.repeat(rng.normal(0, 0.8, deals), 2)  # deal difficulty shared by both games
    pd = 1 / (1 + np.exp(-(TRUE[a] - TRUE[b] + shift)))
    u = rng.random(2 * deals)
    wa = np.where(u < tie, 0.5, np.where(u < tie + (1 - tie) * pd, 1.0, 0.0))
    games = np.arange(2 * deals)
    return pl.DataFrame(
        {
            "game_index": np.repeat(games, 2),
            "deal_index": np.repeat(games // 2, 2),
            "player": np.tile([0, 1], 2 * deals),
            "agent": np.tile([a, b], 2 * deals),
            "win": np.column_stack([wa, 1 - wa]).ravel(),
        }
    )


def _cell(cid: str, agents: list[str]) -> Cell:
    """A cell as the study resolved it (only its id and line-up matter here)."""
    return Cell(cid, cid, len(agents), {}, agents, 0)


def _synthetic(deals: int, seed: int) -> list[tuple[str, list[Cell], dict[str, pl.DataFrame], bool]]:
    rng = np.random.default_rng(seed)
    cells: list[Cell] = []
    rows: dict[str, pl.DataFrame] = {}
    for i, (a, b) in enumerate(PAIRS):
        cid = f"c{i}"
        # alternate the order of the line-up so orientation handling is exercised
        agents = [a, b] if i % 2 == 0 else [b, a]
        cells.append(_cell(cid, agents))
        rows[cid] = _synthetic_rows(agents[0], agents[1], deals, rng)
    return [("synthetic", cells, rows, True)]


def test_ladder_order() -> None:
    specs = ["mcts:iters=1000", "greedy", "mcts:iters=300", "random", "mcts:iters=3000", "mcts:iters=100"]
    assert sorted(specs, key=ladder_key) == [
        "random",
        "greedy",
        "mcts:iters=100",
        "mcts:iters=300",
        "mcts:iters=1000",
        "mcts:iters=3000",
    ]


def test_bradley_terry_recovers_known_strengths() -> None:
    st = strength_from_rows("synthetic", _synthetic(deals=1500, seed=7))
    assert st.anchor == "greedy"
    assert st.notes == []
    got = dict(zip(st.ratings["agent"].to_list(), st.ratings["strength"].to_list(), strict=True))
    for agent in TRUE:
        # 0.1 logit ≈ 17 Elo; the standard errors here are about 0.05
        assert abs(got[agent] - _marginal_truth(agent)) < 0.1, (agent, got[agent], _marginal_truth(agent))
    r = st.ratings.filter(pl.col("agent") == "greedy")
    assert r["elo"][0] == 0 and r["elo_lo"][0] == 0 and r["elo_hi"][0] == 0
    assert np.allclose(st.ratings["elo"].to_numpy(), st.ratings["strength"].to_numpy() * ELO_PER_LOGIT)
    assert (st.ratings["games"] > 0).all()
    # pairs: oriented with the higher-ladder agent first, shares in their intervals
    assert st.pairs.height == len(PAIRS)
    for p in st.pairs.iter_rows(named=True):
        assert ladder_key(p["agent_a"]) > ladder_key(p["agent_b"])
        assert p["lo"] <= p["share_a"] <= p["hi"]
        assert p["units"] == 1500 and p["games"] == 3000
    # gains: greedy -> 100 -> 300 -> 1000; 300 -> 1000 is small (0.1 logit)
    assert st.gains["from"].to_list() == ["greedy", "mcts:iters=100", "mcts:iters=300"]
    assert st.gains["significant"].to_list()[:2] == [True, True]
    text = format_strength(st)
    assert "Elo" in text and "mcts:iters=1000" in text
    # every term the tables use is defined on the page (issue 51: "Elo" was used undefined)
    assert "- **Elo**: a strength scale from head-to-head games" in text and "- **units**:" in text


def _synthetic_units(deals: int, seed: int, tie: float = 0.05) -> pl.DataFrame:
    """Deal-level results (the input of the fit) under the same model as ``_synthetic_rows``."""
    rng = np.random.default_rng(seed)
    parts = []
    for a, b in PAIRS:
        pd = 1 / (1 + np.exp(-(TRUE[a] - TRUE[b] + rng.normal(0, 0.8, (deals, 1)))))
        u = rng.random((deals, 2))
        score = np.where(u < tie, 0.5, np.where(u < tie + (1 - tie) * pd, 1.0, 0.0)).sum(axis=1)
        parts.append(
            pl.DataFrame({"agent_a": [a] * deals, "agent_b": [b] * deals, "games": 2, "score_a": score})
        )
    return pl.concat(parts)


def test_elo_intervals_cover() -> None:
    """The 95% intervals of the non-anchor strengths cover the truth in about 95% of replications
    (the per-deal sandwich covariance honours the within-deal correlation)."""
    reps, hits = 80, {a: 0 for a in TRUE if a != "greedy"}
    for rep in range(reps):
        ratings, cov, agents, notes = fit_bradley_terry(_synthetic_units(150, 1000 + rep), "greedy")
        assert notes == [] and cov.shape == (len(agents), len(agents))
        for r in ratings.iter_rows(named=True):
            if r["agent"] in hits:
                lo, hi = r["elo_lo"] / ELO_PER_LOGIT, r["elo_hi"] / ELO_PER_LOGIT
                hits[r["agent"]] += lo <= _marginal_truth(r["agent"]) <= hi
    for agent, h in hits.items():
        assert h / reps >= 0.86, (agent, h / reps)


@functools.cache
def _marginal_truth(agent: str, tie: float = 0.05) -> float:
    """The logit of the expected share of ``agent`` against the anchor under the synthetic model
    (deal effect and ties both pull the marginal share towards 1/2): what BT estimates."""
    shifts = np.random.default_rng(0).normal(0, 0.8, 200_000)
    diff = TRUE[agent] - TRUE["greedy"]
    p = tie / 2 + (1 - tie) * float(np.mean(1 / (1 + np.exp(-(diff + shifts)))))
    return math.log(p / (1 - p))


def test_separation_adds_prior_and_saturation_statement() -> None:
    rng = np.random.default_rng(3)
    rows = {
        "a": pl.DataFrame(
            {
                "game_index": [0, 0, 1, 1],
                "deal_index": [0, 0, 0, 0],
                "player": [0, 1, 0, 1],
                "agent": ["greedy", "random", "greedy", "random"],
                "win": [1.0, 0.0, 1.0, 0.0],
            }
        ),
        "b": _synthetic_rows("mcts:iters=100", "greedy", 50, rng),
        "c": _synthetic_rows("mcts:iters=300", "mcts:iters=100", 50, rng),
    }
    cells = [
        _cell("a", ["greedy", "random"]),
        _cell("b", ["mcts:iters=100", "greedy"]),
        _cell("c", ["mcts:iters=300", "mcts:iters=100"]),
        _cell("self", ["greedy", "greedy"]),  # skipped: not a head-to-head cell
    ]
    st = strength_from_rows("sep", [("sep", cells, rows, True)])
    assert len(st.notes) == 1 and "virtual tied game" in st.notes[0]
    elo = dict(zip(st.ratings["agent"].to_list(), st.ratings["elo"].to_list(), strict=True))
    assert np.isfinite(elo["random"]) and elo["random"] < 0
    assert "shown" in st.saturation


def test_errors() -> None:
    cells = [_cell("x", ["greedy", "greedy"])]
    with pytest.raises(ValueError, match="nothing to rate"):
        strength_from_rows("x", [("x", cells, {}, True)])
    rng = np.random.default_rng(1)
    rows = {
        "a": _synthetic_rows("greedy", "random", 5, rng),
        "b": _synthetic_rows("mcts:iters=300", "mcts:iters=100", 5, rng),
    }
    cells2 = [
        _cell("a", ["greedy", "random"]),
        _cell("b", ["mcts:iters=300", "mcts:iters=100"]),
    ]
    with pytest.raises(ValueError, match="do not connect"):
        strength_from_rows("x", [("x", cells2, rows, True)])


def test_builtin_strength_studies() -> None:
    s = load_study("alhambra-strength")
    assert s.pair_seats and all(c.n_players == 2 and c.variant == {} for c in s.cells)
    agents = {a for c in s.cells for a in c.agents}
    assert agents == {"random", "greedy", "mcts:iters=100", "mcts:iters=300", "mcts:iters=1000"}
    assert "p2-mcts-iters-1000_v_greedy" in [c.id for c in s.cells]
    assert "p2-greedy_v_random" in [c.id for c in s.cells]
    top = load_study("alhambra-strength-3000")
    assert {a for c in top.cells for a in c.agents} == {"greedy", "mcts:iters=1000", "mcts:iters=3000"}
    assert load_study("alhambra-strength-baseline").cells[0].agents == ["greedy", "random"]
    headline = load_study("alhambra-strength-1000")
    assert [(c.agents, c.games) for c in headline.cells] == [(["mcts:iters=1000", "greedy"], 2000)]


def test_tiny_real_run(tmp_path: pathlib.Path) -> None:
    run = write_run(
        tmp_path / "run",
        name="tiny-strength",
        game="alhambra",
        pair_seats=True,
        cells=[
            {"id": "p2-greedy_v_random", "agents": ["greedy", "random"], "games": 8},
            {"id": "p2-mcts_v_greedy", "agents": ["mcts:iters=3", "greedy"], "games": 4},
            {"id": "p2-mcts_v_random", "agents": ["mcts:iters=3", "random"], "games": 4},
        ],
    )
    st = analyse_strength(run)
    assert st.name == "tiny-strength"
    assert set(st.ratings["agent"].to_list()) == {"random", "greedy", "mcts:iters=3"}
    assert st.pairs["games"].sum() == 16
    paths = write_strength(st, tmp_path / "reports")
    for key in ("markdown", "ratings", "pairs", "figure"):
        assert paths[key].exists() and paths[key].stat().st_size > 0
    assert sorted(p.name for p in (tmp_path / "reports" / "figures").iterdir()) == ["strength_elo_ladder.png"]

    assert cli_main(["strength", str(run), "--report-dir", str(tmp_path / "cli")]) == 0
    assert (tmp_path / "cli" / "strength.md").exists()
    assert cli_main(["strength", str(run)]) == 0  # with the run's own report
    assert (run / "report" / "strength.md").exists()
    assert cli_main(["strength", str(tmp_path / "nope")]) == 2

    from analysis.report import write_report

    index = write_report(run, tmp_path / "rep")
    md = (index.parent / "report.md").read_text()
    assert "Agent strength" in md
    assert (index.parent / "figures" / "elo_ladder.png").exists()


def _step(lower: str, upper: str, gain: float, lo: float, hi: float) -> dict[str, Any]:
    return {"from": lower, "to": upper, "gain": gain, "lo": lo, "hi": hi, "significant": lo > 0}


def test_saturation_statement_tells_a_plateau_from_an_under_powered_step() -> None:
    from analysis.strength import _saturation

    a, b, c = "mcts:iters=100", "mcts:iters=300", "mcts:iters=1000"
    diffs = {(a, b): (40.0, 10.0, 70.0), (b, c): (60.0, 20.0, 100.0), (a, c): (100.0, 60.0, 140.0)}
    steps = [_step(a, b, *diffs[a, b]), _step(b, c, *diffs[b, c])]
    text = _saturation(steps, lambda x, y: diffs[x, y])
    assert "still rises at the top of the ladder; no plateau within it" in text
    # b -> c not significant, and nothing above b is: a plateau at b.
    diffs[b, c] = (5.0, -30.0, 40.0)
    steps = [_step(a, b, *diffs[a, b]), _step(b, c, *diffs[b, c])]
    text = _saturation(steps, lambda x, y: diffs[x, y])
    assert (
        f"no higher MCTS rung of these runs is shown stronger than {b}" in text
        and f"may level off at {b}" in text
    )
    assert "a gain of up to 40 Elo is not ruled out" in text  # never "saturates" on an interval holding 0
    # a -> b not significant but c is above a: the step is under-powered, strength still rises.
    diffs[a, b], diffs[b, c] = (20.0, -10.0, 50.0), (30.0, -5.0, 65.0)
    steps = [_step(a, b, *diffs[a, b]), _step(b, c, *diffs[b, c])]
    text = _saturation(steps, lambda x, y: diffs[x, y])
    assert (
        "under-powered, not a plateau" in text
        and f"No MCTS rung of these runs above {b} is shown stronger" in text
    )
    assert "saturates" not in text and "level off at" not in text
