"""Rule-switch studies and safety-net games, for any game (issue 28): the built-in switch studies
hold each switch alone, the analysis compares each switched cell with its defaults cell only and
ranks the switches, and every report counts games the engine's safety net ended."""

from __future__ import annotations

import polars as pl
import pytest
from helpers_runs import write_run

import analysis
import rust_core
from analysis.report import write_report
from analysis.study import _capped_warning, capped_games
from analysis.switches import switch_changes, switch_findings
from pipeline.study import load_study

SWITCH_STUDIES = ["hiroba-switches", "maharaja-switches", "taluva-switches", "titania-switches"]


@pytest.mark.parametrize("name", SWITCH_STUDIES)
def test_builtin_switch_studies_change_each_switch_alone(name):
    study = load_study(name)
    schema = rust_core.variant_schema(study.game)
    options = {o["name"] for o in schema if not o["path"]}
    greedy = [c for c in study.cells if set(c.agents) == {"greedy"}]
    switched = {k for c in greedy for k in c.variant}
    assert switched == options, sorted(options ^ switched)
    assert all(len(c.variant) <= 1 for c in study.cells), "one switch per cell"
    for n in {c.n_players for c in study.cells}:
        lineups = {tuple(c.agents) for c in study.cells if c.n_players == n}
        for agents in lineups:
            group = [c for c in study.cells if c.n_players == n and tuple(c.agents) == agents]
            assert sum(1 for c in group if not c.variant) == 1, f"{n} players {agents}: one defaults cell"


def _cell(cid, variant=None, games=150):
    cell = {"id": cid, "label": f"3 players, {cid}", "agents": ["greedy"] * 3, "games": games}
    return cell | ({"variant": variant} if variant else {})


@pytest.fixture(scope="module")
def switch_run(tmp_path_factory):
    cells = [
        _cell("p3-defaults"),
        _cell("p3-epoch_2", {"epoch_2_start": "start_player"}),
        _cell("p3-draw", {"draw": "all_or_none"}),
    ]
    root = tmp_path_factory.mktemp("switches")
    return write_run(root / "run", name="titania-switch-mini", game="titania", pair_seats=True, cells=cells)


def test_each_switch_is_compared_with_its_defaults_paired_by_deal(switch_run):
    s = analysis.analyse(switch_run)
    t = switch_changes(s)
    assert t["option"].to_list() == ["epoch_2_start", "draw"], "largest change first"
    draw = t.row(1, named=True)
    assert draw["diff"] == 0.0 and draw["moves"] == "within", "greedy always draws the most"
    both = s.comparisons.filter((pl.col("metric") == "start_advantage") & (pl.col("cell_b") == "p3-draw"))
    # paired by deal, not as independent samples: here and in the study's comparisons alike
    assert draw["hi"] == 0.0 == both["hi"][0] and both["lo"][0] == 0.0
    assert t.row(0, named=True)["diff"] > 0 and set(t["base"]) == {"p3-defaults"}
    (finding,) = switch_findings(s)
    assert finding.title == "Rule switches (3 players, greedy)"
    unchanged = "draw = all_or_none (0.0 points: the start-player result changed in none of 50 deals)"
    assert unchanged in finding.sentence


def test_the_report_ranks_the_switches_and_counts_capped_games(switch_run, tmp_path):
    index = write_report(switch_run, tmp_path / "report")
    md = (index.parent / "report.md").read_text()
    section = md.split("## Rule switches ranked by their effect", 1)[1].split("\n## ", 1)[0]
    rows = [x for x in section.splitlines() if x.startswith("| 3 |")]
    assert len(rows) == 2 and "epoch_2_start = start_player" in rows[0] and "draw = all_or_none" in rows[1]
    verdict = md.split("## ", 2)[1]
    assert "Rule switches (3 players, greedy)" in verdict, "a verdict finding"
    assert md.count("| 0 of 150 |") == 3, "the outcomes table counts capped games in every cell"
    assert "safety net" not in verdict, "no warning without capped games"


def test_capped_games_are_counted_and_named():
    rows = pl.from_arrow(rust_core.simulate("coin", {}, ["random"] * 2, 1, 0, 10))
    assert isinstance(rows, pl.DataFrame) and capped_games(rows) == 0
    hit = rows.with_columns(pl.when(pl.col("game_index").is_in([2, 7])).then(1).otherwise(0).alias("capped"))
    assert capped_games(hit) == 2, "games, not rows"
    assert capped_games(rows.drop("capped")) is None, "data from before the column"
    (w,) = _capped_warning([{"label": "2 players", "capped": 2, "games": 10}, {"label": "x", "capped": 0}])
    assert "2 players: 2 of 10" in w and "x:" not in w
    assert _capped_warning([{"label": "x", "capped": None, "games": 3}]) == []


def test_a_games_expert_finding_names_the_variants_of_a_search_rung(tmp_path):
    cells = []
    for agent in ("greedy", "mcts:iters=10"):
        for name, variant in (("defaults", {}), ("stone_turns_last_turn", {"stone_turns": "last_turn"})):
            cid = f"p2-{name}-{agent.replace(':', '-').replace('=', '-')}"
            cell = {"id": cid, "label": f"2 players, {name}, {agent}", "agents": [agent] * 2, "games": 10}
            cells.append(cell | ({"variant": variant} if variant else {}))
    run = write_run(tmp_path / "run", name="hiroba-mini", game="hiroba", pair_seats=True, cells=cells)
    s = analysis.analyse(run)
    (expert,) = [f for f in analysis.verdict(s) if f.title == "Strongest agents here"]
    for name in ("defaults", "stone_turns_last_turn"):
        assert f"with 2 players ({name})" in expert.sentence, (
            "each cell of the strongest line-up by its variant"
        )
    assert "which are not expert players" in expert.sentence


def test_a_switch_on_fewer_deals_than_every_verdict_needs_is_not_settled(tmp_path):
    """taluva-switches read 'within ±1 point' from 10 deals whose result never changed: under the
    20-deal minimum the change is not settled, however narrow its interval."""
    cells = [_cell("p3-defaults", games=30), _cell("p3-draw", {"draw": "all_or_none"}, games=30)]
    run = write_run(tmp_path / "run", name="titania-switch-few", game="titania", pair_seats=True, cells=cells)
    row = switch_changes(analysis.analyse(run)).row(0, named=True)
    assert row["units"] == 10 and row["diff"] == 0.0 and row["hi"] == 0.0
    assert row["finding"] == "unsettled" and row["moves"] == "undetermined"
