"""The analysis of one run as data: :class:`StudyAnalysis` and the cells' names and groups.

Cells are named for people, not by id: a cell's label from the study (``2 players, no_dirk,
greedy``) splits into its player count, its variant (the named variant and/or grid options) and
its line-up (the agents), and :attr:`CellInfo.name` keeps only the parts that differ between the
study's cells. Cells sharing player count and variant answer the same question at different skill
levels (line-ups); cells sharing player count and line-up are the variants of that question.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from rundir.labels import option_label

from .agents import ladder_key, lineup_name
from .stats.practical import DEFAULT_THRESHOLD

__all__ = ["CellInfo", "StudyAnalysis", "cell_infos", "cell_label", "ladder_checks", "ladder_steps"]


@dataclass(frozen=True)
class CellInfo:
    """A cell as the report names and groups it; ``order`` is its place in the study."""

    id: str
    label: str
    order: int
    n_players: int
    agents: tuple[str, ...]
    variant: dict[str, Any]
    lineup: str
    variant_name: str
    name: str

    @property
    def question(self) -> tuple[int, str]:
        """Cells with the same key answer one question (player count and variant)."""
        return (self.n_players, self.variant_name)

    @property
    def variant_group(self) -> tuple[int, str]:
        """Cells with the same key are variants of one setting (player count and line-up)."""
        return (self.n_players, self.lineup)

    @property
    def strength(self) -> tuple[tuple[int, int, str], ...]:
        """Sort key of the line-up by agent strength."""
        return tuple(sorted((ladder_key(a) for a in self.agents), reverse=True))


def cell_label(cell: dict[str, Any]) -> str:
    """The cell's label with each option value in words (``dirk_tiles=(4, 4, third)``), also for
    runs whose manifests spelled it as code (``dirk_tiles=[4, 4, 'third']``)."""
    label = str(cell.get("label", cell["id"]))
    for key, value in dict(cell.get("variant") or {}).items():
        words = option_label(key, value)
        for old in {f"{key}={value}", f"{key}={json.dumps(value)}"} - {words}:
            label = re.sub(rf"(?<![\w.]){re.escape(old)}(?=,|$| )", words.replace("\\", r"\\"), label)
    return label


def _parts(cell: dict[str, Any]) -> tuple[str, str, str]:
    """Players, variant and line-up parts of a cell's label (as the pipeline builds it)."""
    label = cell_label(cell)
    agents = list(cell.get("agents", []))
    n = int(cell.get("n_players", len(agents)))
    lineup = lineup_name(agents) if agents else ""
    players = f"{n} players"
    middle = label
    if middle.startswith(players):
        middle = middle[len(players) :].lstrip(", ")
    if lineup and (middle == lineup or middle.endswith(", " + lineup)):
        middle = middle[: len(middle) - len(lineup)].rstrip(", ")
    return players, middle, lineup


def cell_infos(cells: list[dict[str, Any]]) -> list[CellInfo]:
    """The cells of a manifest, in study order, with short names (see the module docstring)."""
    parts = [_parts(c) for c in cells]
    varies = [len({p[i] for p in parts}) > 1 for i in range(3)]
    out = []
    for i, (cell, (players, middle, lineup)) in enumerate(zip(cells, parts, strict=True)):
        shown = [x for x, v in zip((players, middle, lineup), varies, strict=True) if v and x]
        label = cell_label(cell)
        out.append(
            CellInfo(
                id=str(cell["id"]),
                label=label,
                order=i,
                n_players=int(cell.get("n_players", len(cell.get("agents", [])))),
                agents=tuple(cell.get("agents", [])),
                variant=dict(cell.get("variant") or {}),
                lineup=lineup,
                variant_name=middle,
                name=", ".join(shown) if shown else label,
            )
        )
    return out


def ladder_checks(cells: list[dict[str, Any]], ladder: list[str]) -> set[str]:
    """Ids of a ladder's head-to-head cells between rungs that are not neighbours (e.g. the top
    rung against the lowest): they check the chained Elo and answer no balance question."""
    pairs = {frozenset(p) for p in zip(ladder, ladder[1:], strict=False)}
    return {
        str(c["id"])
        for c in cells
        if len(c.get("agents", [])) == 2
        and len(set(c["agents"])) == 2
        and all(a in ladder for a in c["agents"])
        and frozenset(c["agents"]) not in pairs
    }


def ladder_steps(cells: list[dict[str, Any]], ladder: list[str]) -> set[str]:
    """Ids of a skill ladder's head-to-head cells: 2 players, neighbouring rungs (they rate the
    rungs; they answer no balance question)."""
    pairs = {frozenset(p) for p in zip(ladder, ladder[1:], strict=False)}
    return {
        str(c["id"])
        for c in cells
        if len(c.get("agents", [])) == 2 and frozenset(c["agents"]) in pairs and len(set(c["agents"])) == 2
    }


@dataclass
class StudyAnalysis:
    """Tables (polars) of one run; see :func:`analysis.analyse`.

    Per cell (columns ``cell``, ``label``, ``n_players``): ``seats`` (win rate per seat),
    ``advantage`` (start-player advantage, its class against the practical threshold, and a game's
    extra estimates), ``scores``, ``outcomes``; ``comparisons`` between cells; ``tables``: the
    game's own tables by name. ``threshold`` is the practical threshold (a share: 0.01 = 1 point).
    """

    manifest: dict[str, Any]
    paired: bool
    cells: list[dict[str, Any]]
    rows: dict[str, pl.DataFrame]
    seats: pl.DataFrame
    advantage: pl.DataFrame
    scores: pl.DataFrame
    outcomes: pl.DataFrame
    comparisons: pl.DataFrame
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    threshold: float = DEFAULT_THRESHOLD
    threshold_source: str = "default"
    #: (games analysed, games planned): equal unless the run was read with ``allow_partial``.
    analysed: tuple[int, int] = (0, 0)
    #: The skill ladder (:class:`analysis.skill.SkillLadder`) of a study with ``grid.ladder``.
    ladder: Any = None
    #: Only the generic analysis (no game's own tables or ladder values): what the atlas page reads,
    #: from a run or from its data folder, which keeps only the generic columns.
    generic: bool = False

    @property
    def name(self) -> str:
        return str(self.manifest["study"]["name"])

    @property
    def anytime_valid(self) -> bool:
        """The advantage rows carry anytime-valid intervals (confidence sequences: a raced run)."""
        a = self.advantage
        return "anytime_valid" in a.columns and bool(a["anytime_valid"].any())

    @property
    def game(self) -> str:
        return str(self.manifest["study"].get("game", ""))

    @property
    def description(self) -> str:
        return str(self.manifest["study"].get("description", "") or "")

    @property
    def info(self) -> list[CellInfo]:
        """Every cell of the study, in study order."""
        return cell_infos(self.cells)

    @property
    def played(self) -> list[CellInfo]:
        """The cells with games, in study order (the order of every table and figure)."""
        return [c for c in self.info if c.id in self.rows]

    @property
    def rungs(self) -> list[str]:
        """The study's skill ladder, weakest first (empty without one)."""
        return [str(a) for a in self.manifest["study"].get("ladder") or []]

    @property
    def steps(self) -> set[str]:
        """Ids of the ladder's head-to-head cells (see :func:`ladder_steps`)."""
        return ladder_steps(self.cells, self.rungs)

    @property
    def checks(self) -> set[str]:
        """Ids of the ladder's non-neighbour head-to-head cells (see :func:`ladder_checks`)."""
        return ladder_checks(self.cells, self.rungs)

    @property
    def balance(self) -> list[CellInfo]:
        """The played cells that answer a balance question: all but the ladder's head-to-head
        cells (neighbours rate the rungs, the others check that rating), in study order."""
        skip = self.steps | self.checks
        return [c for c in self.played if c.id not in skip]

    def cell(self, cell_id: str) -> CellInfo:
        return next(c for c in self.info if c.id == cell_id)

    def label(self, cell_id: str) -> str:
        """The cell's full label from the study."""
        return self.cell(cell_id).label

    def short(self, cell_id: str) -> str:
        """The cell's short name (the parts of its label that differ between cells)."""
        return self.cell(cell_id).name

    def table(self, name: str) -> pl.DataFrame:
        """A game-specific table (empty if the game or the study has none)."""
        return self.tables.get(name, pl.DataFrame())

    def advantage_row(self, cell_id: str) -> dict[str, Any]:
        """The ``advantage`` row of a cell."""
        return self.advantage.filter(pl.col("cell") == cell_id).row(0, named=True)
