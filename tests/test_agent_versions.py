"""Agent versions are per game: ``rust_core.agent_version(spec, game)`` depends on the agent and on
that game's own learned evaluation, so a refit of one game's weights leaves the runs of every other
game resumable (the Rust side: ``versions_are_per_game_a_refit_of_alhambra_leaves_hiroba_alone`` in
``rust_core/src/agents/tests.rs``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers_runs import write_study_run

import balancelab_cli as cli
import rundir
import rust_core
from pipeline.study import load_study

STUDY = """\
name = "hiroba-xmcts"
game = "hiroba"
seed = 3
games_per_cell = 4
pair_seats = true

[grid]
players = [2]
agents = [["greedy", "xmcts:iters=4"]]
"""


def test_xmcts_has_a_version_per_game_and_the_other_agents_one_for_all():
    learned = [g for g in rust_core.games() if rust_core.feature_names(g)]
    assert {"alhambra", "hiroba"} <= set(learned)
    xmcts = {g: rust_core.agent_version("xmcts:iters=50", g) for g in learned}
    assert len(set(xmcts.values())) == len(learned), xmcts  # each game's own evaluation
    assert all(rust_core.agent_version("xmcts", g) == v for g, v in xmcts.items()), "parameters don't count"
    for spec in ("random", "greedy", "mcts:iters=10", "mcts1"):
        assert len({rust_core.agent_version(spec, g) for g in rust_core.games()}) == 1, spec
    assert rust_core.agent_version("mcts", "coin") == 6


@pytest.mark.parametrize(
    ("spec", "game", "words"),
    [("xmcts", "chess", ["chess", "alhambra", "hiroba"]), ("alphazero", "hiroba", ["alphazero", "xmcts"])],
)
def test_an_unknown_game_or_agent_is_refused_naming_the_allowed_ones(spec, game, words):
    with pytest.raises(rust_core.EngineError) as info:
        rust_core.agent_version(spec, game)
    assert all(w in str(info.value) for w in words), str(info.value)


def _refit(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """This engine as it would be with ``game``'s weights refitted: xmcts's version in that game
    (and the content hash of that game's evaluation) changes, nothing else."""
    version, eval_hash = rust_core.agent_version, rust_core.eval_hash

    def refitted_version(spec: str, in_game: str) -> int:
        now = version(spec, in_game)
        return now ^ 1 if in_game == game and spec.split(":", 1)[0] == "xmcts" else now

    monkeypatch.setattr(rust_core, "agent_version", refitted_version)
    monkeypatch.setattr(rust_core, "eval_hash", lambda g: "0" * 8 if g == game else eval_hash(g))


def _hiroba_run(write_study: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path]:
    path = write_study(text=STUDY, filename="hiroba-xmcts.toml")
    out = tmp_path / "run"
    write_study_run(load_study(str(path)), out, batch=4)  # complete: a resume plays nothing (no Ray)
    return path, out


def test_resume_of_a_hiroba_run_survives_a_refit_of_alhambras_weights(write_study, tmp_path, monkeypatch):
    path, out = _hiroba_run(write_study, tmp_path)
    recorded = rundir.read_manifest(out).engine.agent_versions
    assert recorded["xmcts:iters=4"] == rust_core.agent_version("xmcts", "hiroba")
    alhambra = rust_core.agent_version("xmcts", "alhambra")
    _refit("alhambra", monkeypatch)
    assert rust_core.agent_version("xmcts", "alhambra") != alhambra  # the refit changed Alhambra's
    assert cli.main(["run", str(path), "--out", str(out), "--no-progress", "--no-report"]) == 0
    assert rundir.read_manifest(out).engine.agent_versions == recorded


def test_resume_of_a_hiroba_run_is_refused_after_a_refit_of_hirobas_weights(
    write_study, tmp_path, monkeypatch, capsys
):
    path, out = _hiroba_run(write_study, tmp_path)
    before = json.loads((out / rundir.MANIFEST).read_text())
    _refit("hiroba", monkeypatch)
    assert cli.main(["run", str(path), "--out", str(out), "--no-progress", "--no-report"]) == 2
    err = capsys.readouterr().err
    assert "played by another engine (version of agent xmcts:iters=4 " in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert json.loads((out / rundir.MANIFEST).read_text()) == before
