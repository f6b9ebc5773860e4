"""A run whose agents use a learned evaluation (``xmcts``) records which one, and its report names
it with what it was fitted on; a run without one records nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import rundir
import rust_core
from analysis.report import write_report
from pipeline.runner import run_study
from pipeline.study import load_study

pytestmark = pytest.mark.usefixtures("ray_local")

STUDY = """\
name = "named"
game = "hiroba"
seed = 3
games_per_cell = 8
pair_seats = true

[grid]
players = [2]
agents = [{agents}]
"""


def _run(write_study: Callable[..., Path], tmp_path: Path, agents: str) -> Path:
    path = write_study(text=STUDY.format(agents=agents), filename="named.toml")
    out = tmp_path / "run"
    run_study(load_study(str(path)), out, workers=1, batch_games=8, progress=False, quiet=True)
    return out


def test_the_report_names_the_learned_evaluation_and_what_it_was_fitted_on(
    write_study, tmp_path: Path
) -> None:
    out = _run(write_study, tmp_path, '"greedy", "xmcts:iters=8"')
    recorded = rundir.read_manifest(out).engine.evaluations
    fitted = rust_core.eval_fitted("hiroba")
    assert fitted.startswith("rules v") and "positions" in fitted
    assert recorded == {
        "hiroba": f"hiroba_eval_weights.txt (hash {rust_core.eval_hash('hiroba')}), fitted on {fitted}"
    }
    md = (write_report(out).parent / "report.md").read_text()
    said = recorded["hiroba"].replace("variant {}", "the engine's default rules (no variant option set)")
    assert "variant {}" in recorded["hiroba"] and f"Learned evaluation of hiroba (xmcts): {said}." in md
    assert "An xmcts version is its own version mixed with the content hash" in md
    version = rust_core.agent_version("xmcts", "hiroba")
    row = rf"^\| xmcts:iters=8 \| {version} \| the tree search of mcts .*learned evaluation"
    assert re.search(row, md, re.M), "the methods table describes xmcts"


def test_a_run_without_xmcts_records_no_evaluation(write_study, tmp_path: Path) -> None:
    out = _run(write_study, tmp_path, '"greedy"')
    assert rundir.read_manifest(out).engine.evaluations == {}
    assert "Learned evaluation of" not in (write_report(out).parent / "report.md").read_text()
