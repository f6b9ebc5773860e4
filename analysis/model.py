"""The analysis of one run as data: :class:`StudyAnalysis` and the cells' names and groups.

Cells are named for people, not by id: a cell (``rundir.Cell``, as the study resolved it) has a
player count, a variant (its ``variant_label``: the named variant and/or grid options in words)
and a line-up (the agents), and :attr:`CellInfo.name` keeps only the parts that differ between the
study's cells. Cells sharing player count and variant answer the same question at different skill
levels (line-ups); cells sharing player count and line-up are the variants of that question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

from rundir import Cell, Manifest
from rundir.cells import CHECK, PLAY, STEP

from .agents import ladder_key
from .stats.practical import DEFAULT_THRESHOLD

__all__ = ["CellInfo", "StudyAnalysis", "cell_infos", "handicap_of", "unhandicapped"]


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
    #: What the cell is for (:mod:`rundir.cells`): ``play``, ``step`` or ``check``.
    role: str = PLAY

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


def handicap_of(cell: CellInfo) -> list[int]:
    """The cell's score handicap by turn-order seat (zeros without one)."""
    value = cell.variant.get("handicap")
    return [int(v) for v in value] if isinstance(value, list) else [0] * cell.n_players


def unhandicapped(cells: list[CellInfo]) -> tuple[list[CellInfo], bool]:
    """The cells a summary over cells reads, and whether some were left out: those without a score
    handicap when the study also plays handicapped ones (a mean or range over handicaps describes
    no game), else every cell."""
    plain = [c for c in cells if not any(handicap_of(c))]
    return (plain, True) if plain and len(plain) < len(cells) else (cells, False)


def cell_infos(cells: list[Cell]) -> list[CellInfo]:
    """The cells of a study, in study order, with short names (see the module docstring): each
    name keeps the parts (players, variant, line-up) that differ between the study's cells."""
    parts = [(f"{c.n_players} players", c.variant_label or "", c.lineup) for c in cells]
    varies = [len({p[i] for p in parts}) > 1 for i in range(3)]
    out = []
    for i, (cell, (players, middle, lineup)) in enumerate(zip(cells, parts, strict=True)):
        shown = [x for x, v in zip((players, middle, lineup), varies, strict=True) if v and x]
        out.append(
            CellInfo(
                id=cell.id,
                label=cell.label,
                order=i,
                n_players=cell.n_players,
                agents=tuple(cell.agents),
                variant=dict(cell.variant),
                lineup=lineup,
                variant_name=middle,
                name=", ".join(shown) if shown else cell.label,
                role=cell.role,
            )
        )
    return out


@dataclass
class StudyAnalysis:
    """Tables (polars) of one run; see :func:`analysis.analyse`.

    Per cell (columns ``cell``, ``label``, ``n_players``): ``seats`` (win rate per seat),
    ``advantage`` (start-player advantage, its class against the practical threshold, and a game's
    extra estimates), ``scores``, ``outcomes``; ``comparisons`` between cells; ``tables``: the
    game's own tables by name. ``threshold`` is the practical threshold (a share: 0.01 = 1 point).
    """

    manifest: Manifest
    paired: bool
    cells: list[Cell]
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
    #: Per balance cell whose games recorded their luck, its :class:`analysis.luck.LuckRow` (the
    #: corrected advantage, deals saved with their bootstrap interval): computed once, read by every
    #: section that states them.
    luck: list[Any] = field(default_factory=list)
    #: Handicapped cells the reports beside this one played (:class:`analysis.evidence.Played`):
    #: a fix this study did not play quotes their play (set by the report writer).
    elsewhere: list[Any] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.manifest.study.name

    @property
    def anytime_valid(self) -> bool:
        """The advantage rows carry anytime-valid intervals (confidence sequences: a raced run)."""
        a = self.advantage
        return "anytime_valid" in a.columns and bool(a["anytime_valid"].any())

    @property
    def game(self) -> str:
        return self.manifest.study.game

    @property
    def description(self) -> str:
        return self.manifest.study.description or ""

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
        return list(self.manifest.study.ladder)

    @property
    def steps(self) -> set[str]:
        """Ids of the ladder's head-to-head cells between neighbouring rungs (role ``step``)."""
        return {c.id for c in self.cells if c.role == STEP}

    @property
    def checks(self) -> set[str]:
        """Ids of the ladder's non-neighbour head-to-head cells (role ``check``)."""
        return {c.id for c in self.cells if c.role == CHECK}

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
