"""The balance atlas: the built-in ``atlas-<game>`` studies, their measured cost, and the plan.

``balancelab atlas`` runs one study per game (every player count the game allows, a skill ladder
of self-play, its rungs given as data in ``pipeline/studies/atlas-<game>.toml``) into
``OUT/<game>/``, each an ordinary resumable run directory. Here:

* :func:`atlas_studies`: the studies of the chosen games;
* :func:`calibrate`: the cost of one game of every cell, measured on this machine (CPU seconds of
  a short calibration batch through the engine, at game indices the study never plays), recorded
  in ``OUT/costs.json`` and reused while the rules and agent versions are unchanged;
* :func:`plan_atlas`: every cell's games within a core-hours budget (deterministic for the same
  costs and budget), leaving :data:`REFINE_SHARE` for the precision rounds, which the caller's
  ``row_round`` (``analysis.atlas_round``) spends on the unsettled rows cheapest to settle;
  ``more_s`` (``--more-core-hours``) adds to the precision rounds only, the first rounds unchanged,
  so an atlas whose budget is spent (or a copy of its data folder) grows its unsettled rows further.

The sizing rule (units are deals: every deal is played once per seat rotation):

1. the lowest rung (the cheap baseline) gets :data:`BASE_DEALS` deals per player count, less if
   that would take more than :data:`BASE_SHARE` of the budget;
2. every search rung and every player count gets at least :data:`MIN_DEALS` deals, so every
   player count is on the page;
3. the 2-player question (the one whose rungs are rated in Elo by the head-to-head steps) is
   raised to :data:`TARGET_DEALS` deals where the budget allows, cheapest game first;
4. what is left of the first-round budget (all but :data:`REFINE_SHARE`) is shared out in equal
   core-seconds per question (water-filling: a question stops at :data:`MAX_DEALS`);
5. head-to-head steps (2 players, neighbouring rungs) get :data:`STEP_FRACTION` of the 2-player
   deals, at least :data:`MIN_STEP_DEALS`.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import rust_core
from rundir.cells import PLAY

from .distribute import batch_spec, read_files
from .study import Cell, Study, StudyError, builtin_names, games_for, load_study

__all__ = [
    "AtlasError",
    "AtlasPlan",
    "CellPlan",
    "GamePlan",
    "atlas_games",
    "atlas_studies",
    "calibrate",
    "format_plan",
    "plan_atlas",
    "planned_study",
]

PREFIX = "atlas-"
COSTS = "costs.json"
#: Deals of the lowest rung per player count, and its largest share of the budget.
BASE_DEALS = 2000
BASE_SHARE = 0.1
#: Fewest deals of a search rung per player count, and of a head-to-head step.
MIN_DEALS = 4
MIN_STEP_DEALS = 20
#: Deals the 2-player question is raised to first.
TARGET_DEALS = 400
#: Most deals of one question in the first round.
MAX_DEALS = 20_000
#: Head-to-head step deals per 2-player deal.
STEP_FRACTION = 0.25
#: Share of the budget kept for the precision rounds (after the first round): half, because the
#: first round cannot know which rows settle cheaply and the rounds can.
REFINE_SHARE = 0.5
#: Calibration: play until this many CPU seconds, at most this many games, per cell.
CALIBRATION_SECONDS = 0.5
CALIBRATION_GAMES = 400
#: First game index of a calibration batch (far beyond any study's games).
CALIBRATION_START = 10**11


class AtlasError(ValueError):
    """Bad input to the atlas: ``field`` names the option."""

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}")


def atlas_games() -> list[str]:
    """The games with a built-in atlas study, in name order."""
    return [n[len(PREFIX) :] for n in builtin_names() if n.startswith(PREFIX)]


def atlas_studies(games: Iterable[str] | None = None) -> list[Study]:
    """The built-in atlas studies of ``games`` (all when None), refused naming ``--games``."""
    known = atlas_games()
    chosen = list(dict.fromkeys(games)) if games is not None else known
    bad = [g for g in chosen if g not in known]
    if bad or not chosen:
        raise AtlasError("--games", f"unknown game {', '.join(bad) or '(none)'}; allowed: {', '.join(known)}")
    return [load_study(PREFIX + g) for g in chosen]


# ---------------------------------------------------------------- measured cost


def cost_key(study: Study, cell: Cell) -> str:
    """What a game's cost depends on: game, rules version, player count, agents and their
    versions, variant."""
    agents = ",".join(f"{a}@{rust_core.agent_version(a, study.game)}" for a in cell.agents)
    variant = json.dumps(cell.variant, sort_keys=True)
    return f"{study.game}@{rust_core.rules_version(study.game)}|p{cell.n_players}|{agents}|{variant}"


def read_costs(path: Path) -> dict[str, dict[str, float]]:
    """The recorded calibrations (``{}`` when there are none or the file is unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def _measure(study: Study, cell: Cell, files: dict[str, bytes]) -> dict[str, float]:
    """CPU seconds of a calibration batch of ``cell``: games one at a time (then doubling) until
    :data:`CALIBRATION_SECONDS` or :data:`CALIBRATION_GAMES`."""
    spec = batch_spec(study, cell)
    text = {p: b.decode("utf-8") for p, b in files.items()}
    spec = replace(spec, files=text) if text else spec
    played, cpu, size = 0, 0.0, 1
    while cpu < CALIBRATION_SECONDS and played < CALIBRATION_GAMES:
        c0 = time.process_time()
        spec.simulate(CALIBRATION_START + played, size)
        cpu += time.process_time() - c0
        played += size
        size = min(size * 2, CALIBRATION_GAMES - played) or 1
    return {"seconds_per_game": cpu / played, "games": float(played), "cpu_seconds": cpu}


def calibrate(studies: list[Study], out: Path, quiet: bool = True) -> dict[str, dict[str, float]]:
    """The measured cost of every cell of ``studies`` (by :func:`cost_key`), from ``out/costs.json``
    where recorded, else measured now and recorded (the file is rewritten after each study)."""
    path = out / COSTS
    costs = read_costs(path)
    for study in studies:
        files = read_files(study)
        todo = [c for c in study.cells if cost_key(study, c) not in costs]
        for cell in todo:
            costs[cost_key(study, cell)] = _measure(study, cell, files)
        if todo:
            if not quiet:
                spent = sum(costs[cost_key(study, c)]["cpu_seconds"] for c in todo)
                print(f"calibrated {study.name}: {len(todo)} cells, {spent:.1f} CPU seconds", flush=True)
            out.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(costs, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            tmp.replace(path)
    return costs


def seconds_per_game(study: Study, costs: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Cell id → measured CPU seconds per game (a cell never measured: StudyError)."""
    out = {}
    for c in study.cells:
        rec = costs.get(cost_key(study, c))
        if rec is None:
            raise StudyError(study.source, "(costs)", f"cell {c.id} was never calibrated")
        out[c.id] = float(rec["seconds_per_game"])
    return out


def calibration_seconds(costs: Mapping[str, Mapping[str, float]], studies: list[Study]) -> float:
    """CPU seconds the calibration of ``studies`` took (counted against the budget)."""
    keys = {cost_key(s, c) for s in studies for c in s.cells}
    return sum(float(costs[k].get("cpu_seconds", 0.0)) for k in keys if k in costs)


# ---------------------------------------------------------------- the plan


@dataclass(frozen=True)
class CellPlan:
    """One cell's first-round size: deals, games (deals × seat rotations) and core-seconds."""

    cell: str
    n_players: int
    agents: tuple[str, ...]
    role: str  # "base" (lowest rung), "rung" (a search rung), "step" (head-to-head) or "other"
    deals: int
    games: int
    seconds: float


@dataclass(frozen=True)
class GamePlan:
    """One game's first round: its cells and cost (core-seconds)."""

    game: str
    study: str
    cells: tuple[CellPlan, ...]

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.cells)


@dataclass(frozen=True)
class AtlasPlan:
    """The whole atlas: the budget (core-seconds), the calibration spent, each game's first
    round, and the core-seconds left for the precision rounds (``refine_s``)."""

    budget_s: float
    calibration_s: float
    games: tuple[GamePlan, ...]
    #: Core-seconds added to the precision rounds only (``--more-core-hours``): the first rounds
    #: stay as planned from ``budget_s``, so a finished atlas can grow its unsettled rows further.
    more_s: float = 0.0

    @property
    def first_round_s(self) -> float:
        return sum(g.seconds for g in self.games)

    @property
    def refine_s(self) -> float:
        return max(self.budget_s - self.calibration_s - self.first_round_s, 0.0) + self.more_s

    def game(self, name: str) -> GamePlan:
        return next(g for g in self.games if g.game == name)

    def to_dict(self) -> dict[str, Any]:
        more = {"more_s": self.more_s} if self.more_s else {}  # absent at 0: older atlas.json files match
        return {
            "budget_s": self.budget_s,
            "calibration_s": self.calibration_s,
            "first_round_s": self.first_round_s,
            "refine_s": self.refine_s,
            **more,
            "games": [asdict(g) for g in self.games],
        }


def _role(study: Study, cell: Cell) -> str:
    """The cell's part in the plan: a head-to-head between rungs (``step``: the cell's role,
    :mod:`rundir.cells`), the lowest rung's self-play (``base``), another rung's (``rung``)."""
    if cell.role != PLAY:
        return "step"
    rungs = study.ladder
    if len(set(cell.agents)) == 1 and cell.agents[0] in rungs:
        return "base" if cell.agents[0] == rungs[0] else "rung"
    return "other"


@dataclass
class _Question:
    """A game × player count: its search-rung cells (one deal each per deal of the question)."""

    game: str
    n_players: int
    per_deal: float  # core-seconds of one deal of every search rung (+ steps at 2 players)
    deals: float = 0.0


def _questions(studies: list[Study], cost: dict[str, dict[str, float]]) -> list[_Question]:
    out = []
    for s in studies:
        for n in dict.fromkeys(c.n_players for c in s.cells):
            per = sum(cost[s.game][c.id] * n for c in s.cells if c.n_players == n and _role(s, c) == "rung")
            if n == 2:
                per += sum(cost[s.game][c.id] * 2 * STEP_FRACTION for c in s.cells if _role(s, c) == "step")
            out.append(_Question(s.game, n, per))
    return out


def _water_fill(qs: list[_Question], budget: float) -> None:
    """Equal core-seconds per question on top of its deals, each capped at :data:`MAX_DEALS`."""
    open_ = [q for q in qs if q.per_deal > 0 and q.deals < MAX_DEALS]
    while open_ and budget > 1e-9:
        share = budget / len(open_)
        budget = 0.0
        for q in list(open_):
            room = (MAX_DEALS - q.deals) * q.per_deal
            used = min(share, room)
            q.deals += used / q.per_deal
            budget += share - used
            if used >= room:
                open_.remove(q)
        if budget < 1e-6 * share:
            break


def plan_atlas(
    studies: list[Study], costs: Mapping[str, Mapping[str, float]], budget_s: float, more_s: float = 0.0
) -> AtlasPlan:
    """Every cell's first-round games within ``budget_s`` core-seconds (module docstring), and
    ``more_s`` more for the precision rounds only; AtlasError naming ``--core-hours`` when even the
    smallest atlas does not fit."""
    cost = {s.game: seconds_per_game(s, costs) for s in studies}
    calib = calibration_seconds(costs, studies)
    avail = budget_s - calib
    base_per_deal = sum(
        cost[s.game][c.id] * c.n_players for s in studies for c in s.cells if _role(s, c) == "base"
    )
    base = min(BASE_DEALS, math.floor(BASE_SHARE * max(avail, 0.0) / base_per_deal)) if base_per_deal else 0
    qs = _questions(studies, cost)
    for q in qs:
        q.deals = MIN_DEALS
    floor = base * base_per_deal + sum(q.deals * q.per_deal for q in qs) + _step_floor(studies, cost)
    if base < MIN_DEALS or floor > avail:
        least = MIN_DEALS * base_per_deal + sum(q.deals * q.per_deal for q in qs) + _step_floor(studies, cost)
        need = calib + max(least, MIN_DEALS * base_per_deal / BASE_SHARE)
        raise AtlasError(
            "--core-hours",
            f"{budget_s / 3600:g} is too small for an atlas of {', '.join(s.game for s in studies)}: "
            f"it needs at least {math.ceil(need / 36) / 100:.2f}",
        )
    first = (avail - base * base_per_deal) * (1 - REFINE_SHARE) - _step_floor(studies, cost)
    left = first - sum(q.deals * q.per_deal for q in qs)
    for q in sorted((q for q in qs if q.n_players == 2), key=lambda q: (q.per_deal, q.game)):
        add = min(max(TARGET_DEALS - q.deals, 0.0) * q.per_deal, max(left, 0.0))
        q.deals += add / q.per_deal if q.per_deal else 0.0
        left -= add
    _water_fill(qs, max(left, 0.0))
    deals = {(q.game, q.n_players): max(MIN_DEALS, math.floor(q.deals)) for q in qs}
    games = tuple(_game_plan(s, cost[s.game], deals, base) for s in studies)
    return AtlasPlan(budget_s, calib, games, more_s)


def _step_floor(studies: list[Study], cost: dict[str, dict[str, float]]) -> float:
    return sum(
        cost[s.game][c.id] * 2 * MIN_STEP_DEALS for s in studies for c in s.cells if _role(s, c) == "step"
    )


def _game_plan(
    study: Study, cost: dict[str, float], deals: dict[tuple[str, int], int], base: int
) -> GamePlan:
    cells = []
    for c in study.cells:
        role = _role(study, c)
        if role == "base":
            d = base
        elif role == "rung":
            d = deals[(study.game, c.n_players)]
        else:  # head-to-head steps and any other line-up: a share of the 2-player deals
            d = max(MIN_STEP_DEALS, math.ceil(STEP_FRACTION * deals.get((study.game, 2), 0)))
        g = games_for(d * c.n_players, c.n_players, study.pair_seats)
        cells.append(CellPlan(c.id, c.n_players, tuple(c.agents), role, d, g, g * cost[c.id]))
    return GamePlan(study.game, study.name, tuple(cells))


def planned_study(study: Study, plan: GamePlan) -> Study:
    """``study`` with every cell's games from the plan."""
    games = {c.cell: c.games for c in plan.cells}
    return replace(study, cells=[replace(c, games=games.get(c.id, c.games)) for c in study.cells])


def format_plan(plan: AtlasPlan) -> str:
    """The plan as a table: per game and cell the deals, games and core-seconds, then the totals."""
    lines = [f"{'game':<10} {'cell':<38} {'role':<5} {'deals':>7} {'games':>8} {'core-s':>8}"]
    for g in plan.games:
        for c in g.cells:
            lines.append(
                f"{g.game:<10} {c.cell:<38} {c.role:<5} {c.deals:>7,} {c.games:>8,} {c.seconds:>8.0f}"
            )
        lines.append(f"{g.game:<10} {'(first round)':<38} {'':<5} {'':>7} {'':>8} {g.seconds:>8.0f}")
    lines.append(
        f"budget {(plan.budget_s + plan.more_s) / 3600:.2f} core-hours: calibration "
        f"{plan.calibration_s / 3600:.3f}, first round {plan.first_round_s / 3600:.2f}, "
        f"precision rounds up to {plan.refine_s / 3600:.2f}"
        + (f" ({plan.more_s / 3600:.2f} of them --more-core-hours)" if plan.more_s else "")
    )
    return "\n".join(lines)
