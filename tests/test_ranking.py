"""Raw scores and the handicap as data: the ``handicap`` column, and the one Python ranking
(:func:`analysis.stats.ranking.rank_seats`) checked against the engine's on real games."""

from __future__ import annotations

import pathlib

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

import rust_core
from analysis.stats.compensation import compensation, outcomes
from analysis.stats.ranking import rank_seats, raw_scores

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: A run committed before the ``handicap`` column (atlas data).
OLD_RUN_FILE = ROOT / "reports/atlas/data/alhambra/data/cell=p2-greedy/part-000000000000-000000004000.parquet"


def _points(n: int, k: int) -> list[int]:
    """Small per-seat handicaps of both signs (``k`` picks one of a few), so that games tie."""
    return [((s * (k + 1)) % 5 - 2) if s else 0 for s in range(n)]


def _games(rows: pl.DataFrame, name: str, n: int) -> np.ndarray:
    return rows.sort("game_index", "seat")[name].to_numpy().reshape(-1, n)


def test_rank_seats_ranks_as_the_engine_on_every_game_under_a_handicap():
    decided = shared = 0
    for game in rust_core.games():
        lo, hi = rust_core.player_range(game)
        for n in range(lo, min(hi, 4) + 1):
            for k in range(2):
                points = _points(n, k)
                agents = (["greedy", "random"] * 2)[:n]
                rows = pl.from_arrow(rust_core.simulate(game, {"handicap": points}, agents, 3, 0, 120))
                assert isinstance(rows, pl.DataFrame)
                score, h, ties = (_games(rows, c, n) for c in ("score", "handicap", "tiebreak"))
                assert (h == np.array(points)[None, :]).all(), f"{game} {n}p: the handicap by seat"
                got = rank_seats(score - h, ties, np.array(points))
                ctx = f"{game} {n}p handicap {points}"
                assert np.array_equal(got.ranks, _games(rows, "rank", n)), ctx
                assert np.array_equal(got.wins, _games(rows, "win", n)), ctx
                top = score == score.max(axis=1, keepdims=True)
                decided += int(((top.sum(axis=1) > 1) & (got.wins.max(axis=1) == 1)).sum())
                shared += int((got.wins.max(axis=1) < 1).sum())
    assert decided and shared, "the games include ties the tie-break decides and ties that share the win"


def test_rank_seats_on_hand_made_games():
    # The engine's own cases (rust_core/src/game.rs, ranks_share_ties).
    r = rank_seats(np.array([[10, 30, 30, 5], [10, 30, 30, 30]]), np.array([[0, 0, 0, 0], [0, 2, 1, 2]]))
    assert r.ranks.tolist() == [[3, 1, 1, 4], [4, 1, 3, 1]]
    assert r.wins.tolist() == [[0, 0.5, 0.5, 0], [0, 0.5, 0, 0.5]]
    # A handicap that catches up: a tie the tie-break decides, then one that stays shared.
    h = rank_seats(np.array([[10, 8], [10, 8]]), np.array([[0, 1], [0, 0]]), np.array([0, 2]))
    assert h.ranks.tolist() == [[2, 1], [1, 1]] and h.wins.tolist() == [[0, 1], [0.5, 0.5]]
    per_game = rank_seats(np.array([[10, 8], [10, 8]]), np.zeros((2, 2)), np.array([[0, 3], [0, 1]]))
    assert per_game.wins.tolist() == [[0, 1], [1, 0]]


def _rows(score: list[int], handicap: list[int | None] | None) -> pl.DataFrame:
    data: dict[str, object] = {"seat": [0, 1] * (len(score) // 2), "score": score}
    if handicap is not None:
        data["handicap"] = pl.Series(handicap, dtype=pl.Int64)
    return pl.DataFrame(data)


def test_raw_scores_take_the_recorded_handicap_off_or_the_cells_for_an_old_run():
    assert raw_scores(_rows([10, 12], [0, 3]), [0, 3]).to_list() == [10, 9]
    assert raw_scores(_rows([10, 12], None), [0, 3]).to_list() == [10, 9]  # no column: the cell's
    assert raw_scores(_rows([10, 12], None)).to_list() == [10, 12]  # neither: none
    # A resumed run: older batch files lack the column (null there), newer ones hold it.
    assert raw_scores(_rows([10, 12, 7, 9], [None, None, 0, 3]), [0, 3]).to_list() == [10, 9, 7, 6]
    with pytest.raises(ValueError, match="handicap of 3 points where the cell's is 2"):
        raw_scores(_rows([10, 12], [0, 3]), [0, 2])
    with pytest.raises(ValueError, match="handicap of 3 points where the cell's is 0"):
        raw_scores(_rows([10, 12], [0, 3]))  # the cell has none


def test_a_committed_run_without_the_handicap_column_is_read():
    rows = pl.read_parquet(OLD_RUN_FILE)
    assert "handicap" not in rows.columns
    o = outcomes(rows, None, paired=True)
    assert np.array_equal(o.scores, _games(rows, "score", 2))


def _simulate_without(column: str, starts: set[int]):
    """``rust_core.simulate`` as a run that predates ``column`` wrote batches from ``starts``."""
    real = rust_core.simulate

    def simulate(*args, **kw):
        rb = real(*args, **kw)
        start = args[4] if len(args) > 4 else kw["start"]
        if start not in starts:
            return rb
        keep = [i for i, f in enumerate(rb.schema) if f.name != column]
        return pa.RecordBatch.from_arrays(
            [rb.column(i) for i in keep], schema=pa.schema([rb.schema[i] for i in keep])
        )

    return simulate


@pytest.mark.parametrize(
    ("old_batches", "nulls"), [({0, 60}, None), ({0}, 120)], ids=["old run", "resumed old run"]
)
def test_an_old_run_gives_the_raw_scores_and_compensation_of_a_new_one(
    tmp_path, monkeypatch, old_batches, nulls
):
    import helpers_runs
    from helpers_runs import write_run

    from analysis.load import cell_rows

    cells = [{"id": "h", "agents": ["greedy", "greedy"], "variant": {"handicap": [0, 3]}, "games": 120}]
    new = write_run(tmp_path / "new", name="h-new", game="hiroba", pair_seats=True, cells=cells, batch=60)
    monkeypatch.setattr(helpers_runs.rust_core, "simulate", _simulate_without("handicap", old_batches))
    old = write_run(tmp_path / "old", name="h-old", game="hiroba", pair_seats=True, cells=cells, batch=60)
    a, b = cell_rows(new, "h"), cell_rows(old, "h")
    assert (b["handicap"].null_count() if "handicap" in b.columns else None) == nulls
    oa, ob = outcomes(a, [0, 3], paired=True), outcomes(b, [0, 3], paired=True)
    assert np.array_equal(oa.scores, ob.scores)
    assert np.array_equal(oa.scores, _games(a, "score", 2) - np.array([0, 3]))
    assert compensation(oa, resamples=30) == compensation(ob, resamples=30)
