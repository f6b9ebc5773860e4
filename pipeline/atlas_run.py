"""Running the atlas: every game's study into ``OUT/<game>/`` (first round, then precision rounds).

Each game is an ordinary run directory, so an interrupted atlas continues where it stopped with the
same command: the first round's sizes come from the recorded calibration (``OUT/costs.json``) and
the budget, and are therefore the same again; a game's precision rounds that ended (settled, or its
share spent) are recorded and not run again for the same plan, and rounds cut short get what is
left of their share, counted from the games the directory holds beyond the first round at their
measured cost. Every
invocation's core-seconds are appended to ``OUT/atlas.json`` (with the plan), which the atlas page
reads for the budget it spent and the cost of what would settle the rest.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rundir import Manifest, read_manifest

from .atlas import AtlasPlan, planned_study, seconds_per_game
from .runner import run_study
from .study import Study

__all__ = ["STATE", "AtlasRun", "read_state", "refine_left", "run_atlas"]

STATE = "atlas.json"
#: ``--precision`` value handed to a ladder run (not used by the ladder's rounds; see the README).
LADDER_PRECISION = 0.5


@dataclass
class AtlasRun:
    """How to run every game (the ``run_study`` options shared by all) and what was done."""

    options: dict[str, Any]
    ladder_round: Callable[..., Any] | None = None
    quiet: bool = False
    #: False: first rounds only (``--first-round-only``); the page says what more would settle.
    refine: bool = True


def read_state(out: Path) -> dict[str, Any]:
    """``OUT/atlas.json`` (``{}`` when absent or unreadable)."""
    try:
        data = json.loads((out / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_state(out: Path, state: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(out / STATE)


def refine_left(
    study: Study, plan: AtlasPlan, man: Manifest | None, costs: Mapping[str, Any], share: float
) -> float:
    """Core-seconds of ``share`` not yet spent on precision rounds: the games the directory plans
    beyond the first round, at their measured cost, are what was spent."""
    if man is None:
        return share
    first = {c.cell: c.games for c in plan.game(study.game).cells}
    cost = seconds_per_game(study, costs)
    spent = sum(max(c.games - first.get(c.id, 0), 0) * cost.get(c.id, 0.0) for c in man.study.cells)
    return max(share - spent, 0.0)


def _kept(study: Study, man: Manifest | None) -> Study:
    """``study`` with every cell at least as large as the directory planned it (precision rounds
    grow cells beyond the first round): games lost from disk are played again, never dropped."""
    if man is None:
        return study
    before = {c.id: c.games for c in man.study.cells}
    return replace(study, cells=[replace(c, games=max(c.games, before.get(c.id, 0))) for c in study.cells])


def _record(state: dict[str, Any], game: str, phase: str, man: Manifest) -> None:
    state.setdefault("spent", []).append(
        {
            "game": game,
            "phase": phase,
            "task_seconds": man.task_seconds,
            "task_cpu_seconds": man.task_cpu_seconds,
            "games_played": man.games_played,
            "finished": man.finished,
        }
    )


def run_atlas(
    studies: list[Study], out: Path, plan: AtlasPlan, costs: Mapping[str, Any], how: AtlasRun
) -> dict[str, Path]:
    """Plays every game's first round, then its precision rounds within its share of
    ``plan.refine_s`` (what earlier games left over passes on); returns game → run directory."""
    state = read_state(out)
    now = json.loads(json.dumps(plan.to_dict()))  # as read back from atlas.json
    if state.get("plan") != now:  # another plan: its precision rounds are still to run
        state["plan"], state["refined"] = now, []
    _write_state(out, state)
    dirs: dict[str, Path] = {}
    refine_pool = plan.refine_s
    for i, study in enumerate(studies):
        target = out / study.game
        dirs[study.game] = target
        first = _kept(planned_study(study, plan.game(study.game)), read_manifest(target))
        man = run_study(first, target, **how.options)
        _record(state, study.game, "first round", man)
        _write_state(out, state)
        share = refine_pool / (len(studies) - i)
        left = refine_left(study, plan, read_manifest(target), costs, share)
        done = study.game in state.get("refined", [])
        if study.ladder and how.ladder_round is not None and how.refine and left > 1.0 and not done:
            if not how.quiet:
                print(f"{study.name}: precision rounds, up to {left / 3600:.3f} core-hours", file=sys.stderr)
            man = run_study(
                first,
                target,
                **how.options,
                precision=LADDER_PRECISION,
                max_core_hours=left / 3600,
                ladder_round=how.ladder_round,
            )
            _record(state, study.game, "precision rounds", man)
            state.setdefault("refined", []).append(study.game)  # ended: settled or its share spent
            _write_state(out, state)
        spent = share - refine_left(study, plan, read_manifest(target), costs, share)
        refine_pool = max(refine_pool - spent, 0.0)
    return dirs
