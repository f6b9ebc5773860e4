"""Luck-corrected outcomes: the same games, an unbiased correction, and the report's section."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import polars as pl
import pytest

import rust_core


@pytest.mark.parametrize("game", ["coin", "alhambra", "taluva"])
def test_measuring_luck_plays_the_same_games(game):
    plain = pl.from_arrow(rust_core.simulate(game, {}, ["greedy", "greedy"], 4, 0, 6, pair_seats=True))
    measured = pl.from_arrow(
        rust_core.simulate(game, {}, ["greedy", "greedy"], 4, 0, 6, pair_seats=True, luck=True)
    )
    assert "luck" not in plain.columns and plain.equals(measured.drop("luck"))  # type: ignore[union-attr]
    per_game = measured.group_by("game_index").agg(pl.col("luck").sum())  # type: ignore[union-attr]
    assert per_game["luck"].abs().max() < 1e-9  # the players' luck of a game sums to 0


def _coin_run(tmp_path, monkeypatch):
    import helpers_runs
    from helpers_runs import write_run

    real = helpers_runs.rust_core.simulate
    monkeypatch.setattr(helpers_runs.rust_core, "simulate", lambda *a, **k: real(*a, **k, luck=True))
    cells = [{"id": "c", "agents": ["random", "random"], "variant": {"first": 0.6}, "games": 800}]
    return write_run(tmp_path / "run", name="coin-luck", game="coin", pair_seats=True, cells=cells, batch=400)


def test_the_corrected_advantage_holds_the_truth_with_fewer_deals(tmp_path, monkeypatch):
    from analysis import analyse
    from analysis.luck import luck_rows

    s = analyse(_coin_run(tmp_path, monkeypatch))
    (row,) = luck_rows(s)
    assert row.units == 400 and row.corrected.lo <= 0.10 <= row.corrected.hi  # first = 0.6: +10 points
    assert row.difference.lo <= 0 <= row.difference.hi  # unbiased: raw and corrected agree
    assert row.deals_saved.lo > 2 and 0.5 < row.luck_share <= 1  # coin is all luck, and V sees it
    assert row.deals_saved.lo < row.deals_saved.estimate < row.deals_saved.hi


def test_the_report_says_which_estimator_and_what_it_saved(tmp_path, monkeypatch):
    from analysis.report import write_report

    index = write_report(_coin_run(tmp_path, monkeypatch), tmp_path / "report")
    md = (index.parent / "report.md").read_text()
    assert "## Luck against skill" in md and "The verdicts above use the raw outcomes." in md
    assert "deals saved [95% CI]" in md
    # one cell: no sweep and no Elo on this page, so the list of raw numbers names neither
    raw = "the seat win rates, the test that all seats win equally often, the other outcomes"
    assert f"Always raw: {raw} (margins, lengths, ties) and the game's own tables." in md


COIN_LUCK = """
name = "coin-luck-value"
game = "coin"
seed = 3
games_per_cell = 40
pair_seats = true
luck = {luck}
luck_value = "{value}"

[grid]
players = [2]
agents = ["random"]
"""


def test_a_study_names_its_luck_value_and_it_is_part_of_its_identity(write_study):
    from pipeline.study import load_study

    study = load_study(str(write_study(text=COIN_LUCK.format(luck="true", value="rollout:k=4,at=deal"))))
    assert study.luck_value == "rollout:k=4,at=deal"
    assert study.identity()["luck_value"] == "rollout:k=4,at=deal"
    learned = load_study(str(write_study(text=COIN_LUCK.format(luck="true", value="learned"))))
    assert "luck_value" not in learned.identity()  # the default keeps every study's hash


@pytest.mark.parametrize(
    ("luck", "value", "said"),
    [("false", "rollout:k=4", "needs luck = true"), ("true", "rollout:k=0", "allowed: learned, rollout:k=K")],
)
def test_a_bad_luck_value_is_refused_naming_the_field(write_study, luck, value, said):
    from pipeline.study import StudyError, load_study

    with pytest.raises(StudyError, match="luck_value") as err:
        load_study(str(write_study(text=COIN_LUCK.format(luck=luck, value=value))))
    assert said in str(err.value)


def test_the_batch_measures_luck_with_the_study_value(write_study):
    from pipeline.distribute import batch_spec
    from pipeline.study import load_study

    text = COIN_LUCK.format(luck="true", value="rollout:k=4").replace('"coin"', '"hiroba"')
    study = load_study(str(write_study(text=text)))
    spec = batch_spec(study, study.cells[0])
    assert spec.luck and spec.luck_value == "rollout:k=4"
    rollout = spec.simulate(0, 8).column("luck").to_pylist()
    learned = batch_spec(dataclasses.replace(study, luck_value="learned"), study.cells[0])
    assert rollout != learned.simulate(0, 8).column("luck").to_pylist()  # another value, other luck


@pytest.mark.parametrize(
    ("value", "said", "not_said"),
    [
        ("learned", "every chance event", "tie-break"),
        ("rollout:k=4,at=deal", "the deal only", "tie-break"),
        ("rollout:k=4,at=deal+ties", "not at the cards or tiles drawn later", "deal only"),
        ("rollout:k=4,at=all+ties", "every chance event", "the deal only"),
    ],
)
def test_the_luck_section_names_what_was_measured_and_what_playouts_cost(value, said, not_said):
    from analysis.report.luck import _chance, _cost, _where
    from rundir import Play

    play = Play("abc", "b", "h", "t0", "t1", games=400, wall_seconds=3.0, task_cpu_seconds=2.0)
    run = SimpleNamespace(study=SimpleNamespace(luck_value=value), history=lambda: [play])
    fake = SimpleNamespace(paired=True, manifest=run, game="taluva")
    where, cost = _where(fake), _cost(fake)  # type: ignore[arg-type]
    assert said in where and not_said not in where
    assert ("tie-break of a greedy player" in where) == value.endswith("+ties")
    assert ("tie-breaks" in _chance(fake)) == value.endswith("+ties")  # type: ignore[arg-type]
    # playouts cost CPU, and the page says how much next to the deals they save
    assert (cost == "") == (value == "learned")
    assert value == "learned" or "5.0 ms of CPU" in cost and "deals, not CPU" in cost


@pytest.mark.parametrize("value", ["learned", "rollout:k=4,at=deal", "rollout:k=4,at=deal+ties"])
def test_a_game_whose_set_up_is_its_only_chance_event_has_no_later_draws_named(value):
    """Hiroba has no chance event after the set-up: its page says so instead of naming draws
    the measurement left out (or measured)."""
    from analysis.report.luck import _where

    run = SimpleNamespace(study=SimpleNamespace(luck_value=value))
    where = _where(SimpleNamespace(manifest=run, game="hiroba"))  # type: ignore[arg-type]
    assert "the game's only chance event" in where and "drawn" not in where
    assert ("tie-break of a greedy player" in where) == value.endswith("+ties")


@pytest.mark.parametrize("value", ["learned", "rollout:k=4,at=deal", "rollout:k=4,at=deal+ties"])
def test_coin_names_its_own_chance_events_not_cards_or_tiles(value):
    """coin has no cards or tiles: its page names its set-up and the outcome drawn at the end."""
    from analysis.report.luck import _where

    run = SimpleNamespace(study=SimpleNamespace(luck_value=value))
    where = _where(SimpleNamespace(manifest=run, game="coin"))  # type: ignore[arg-type]
    assert "card" not in where and "tile" not in where
    assert ("outcome" in where) == (value != "rollout:k=4,at=deal")  # the deal alone: no draw named
    assert "its set-up, which shows nothing" in where or value == "learned"


def test_the_estimator_names_the_ladder_trend_only_in_a_study_with_a_ladder():
    from analysis.report.luck import _readers

    assert "ladder" not in _readers(SimpleNamespace(rungs=[]))  # type: ignore[arg-type]
    assert "the skill ladder's trend" in _readers(SimpleNamespace(rungs=["greedy", "xmcts"]))  # type: ignore[arg-type]
