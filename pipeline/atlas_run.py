"""Running the atlas: every game's study into ``OUT/<game>/`` (first round, then precision rounds).

Each game is an ordinary run directory, so an interrupted atlas continues where it stopped with the
same command: the first round's sizes come from the recorded calibration (``OUT/costs.json``) and
the budget, and are therefore the same again. The precision rounds then grow the unsettled rows of
all games, cheapest to settle first (``analysis.atlas_round``), within the plan's ``refine_s``;
when they end (every row settled, or the budget spent) that is recorded and they are not run again
for the same plan, and rounds cut short get what is left, counted from the games the directories
hold beyond the first round at their measured cost. Every
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

__all__ = ["STATE", "AtlasRun", "read_state", "refine_spent", "run_atlas"]

STATE = "atlas.json"
#: The precision rounds' entry in ``atlas.json``'s ``refined`` (they ended: settled or spent).
ROUNDS = "rows"


@dataclass
class AtlasRun:
    """How to run every game (the ``run_study`` options shared by all) and what was done."""

    options: dict[str, Any]
    #: The next precision round (``analysis.atlas_round.row_round``), passed in by the caller.
    row_round: Callable[..., Any] | None = None
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


def refine_spent(study: Study, plan: AtlasPlan, man: Manifest | None, costs: Mapping[str, Any]) -> float:
    """Core-seconds spent on precision rounds: the games the directory plans beyond the first
    round, at their measured cost."""
    if man is None:
        return 0.0
    first = {c.cell: c.games for c in plan.game(study.game).cells}
    cost = seconds_per_game(study, costs)
    return sum(max(c.games - first.get(c.id, 0), 0) * cost.get(c.id, 0.0) for c in man.study.cells)


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
    """Plays every game's first round, then precision rounds over all games (``how.row_round``:
    the unsettled rows cheapest to settle first) within ``plan.refine_s``; returns game → run
    directory."""
    state = read_state(out)
    now = json.loads(json.dumps(plan.to_dict()))  # as read back from atlas.json
    if state.get("plan") != now:  # another plan: its precision rounds are still to run
        state["plan"], state["refined"] = now, []
    _write_state(out, state)
    dirs = {s.game: out / s.game for s in studies}
    for study in studies:
        first = _kept(planned_study(study, plan.game(study.game)), read_manifest(dirs[study.game]))
        man = run_study(first, dirs[study.game], **how.options)
        _record(state, study.game, "first round", man)
        _write_state(out, state)
    if how.row_round is not None and how.refine and ROUNDS not in state.get("refined", []):
        _row_rounds(studies, out, plan, costs, how, state)
        state.setdefault("refined", []).append(ROUNDS)  # ended: settled or the budget spent
        _write_state(out, state)
    return dirs


def _row_rounds(
    studies: list[Study],
    out: Path,
    plan: AtlasPlan,
    costs: Mapping[str, Any],
    how: AtlasRun,
    state: dict[str, Any],
) -> None:
    """Precision rounds until every row is settled or ``plan.refine_s`` is spent (counted from the
    games the directories hold beyond the first round, so an interrupted round resumes)."""
    assert how.row_round is not None
    dirs = {s.game: out / s.game for s in studies}
    cost = {s.game: seconds_per_game(s, costs) for s in studies}
    by_game = {s.game: s for s in studies}
    while True:
        left = plan.refine_s - sum(refine_spent(s, plan, read_manifest(dirs[s.game]), costs) for s in studies)
        if left <= 1.0:
            _say(how, f"atlas precision rounds: budget spent ({plan.refine_s / 3600:.2f} core-hours)")
            return
        r = how.row_round(dirs, cost, left)
        _say(how, r.line)
        state.setdefault("rounds", []).append({"line": r.line, "games": r.games})
        _write_state(out, state)
        if r.settled or not r.games:
            return
        for game, grown in r.games.items():
            study = _kept(planned_study(by_game[game], plan.game(game)), read_manifest(dirs[game]))
            cells = [replace(c, games=max(c.games, grown.get(c.id, 0))) for c in study.cells]
            man = run_study(replace(study, cells=cells), dirs[game], **how.options)
            _record(state, game, "precision round", man)
            _write_state(out, state)


def _say(how: AtlasRun, line: str) -> None:
    if not how.quiet:
        print(line, file=sys.stderr, flush=True)
