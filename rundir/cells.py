"""What a cell is for, and the part of its label that names its variant: made once, stored.

Every cell of a study has a **role**, made when the study is resolved (``pipeline.study``) and
stored with the cell in the manifest, so that readers never work it out again:

* ``play``: self-play or a line-up that answers a balance question (the report's cells);
* ``step``: a skill ladder's head-to-head between neighbouring rungs (2 players): it rates the
  rungs (Elo) and answers no balance question;
* ``check``: a head-to-head between rungs that are not neighbours: it checks the chained Elo.

and a **variant label**: the words of its label that name the variant (players and line-up left
out), e.g. ``money_copies=1, dirk_tiles=(4, 4, third)``, empty for the default game.

Manifests written before these fields existed are read with both filled in by
:func:`with_roles` (the role from the ladder, the variant label from the label as the pipeline
built it), so every reader gets the same record from old and new runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .labels import option_label

if TYPE_CHECKING:
    from .manifest import Cell, Study

__all__ = ["CHECK", "PLAY", "ROLES", "STEP", "lineup_words", "role_of", "with_roles"]

PLAY = "play"
STEP = "step"
CHECK = "check"
ROLES = (PLAY, STEP, CHECK)
#: The note ``pipeline.study`` appends to the label of a cell that plays the same game as another.
SAME_GAME = re.compile(r" \(= [A-Za-z0-9_-]+: the same game\)$")


def lineup_words(agents: list[str] | tuple[str, ...]) -> str:
    """``greedy`` when every seat has the same agent, else ``greedy vs random`` (as labels say)."""
    return agents[0] if len(set(agents)) == 1 else " vs ".join(agents)


def role_of(agents: list[str] | tuple[str, ...], ladder: list[str]) -> str:
    """The cell's role (module docstring) from its line-up and the study's ladder."""
    if len(agents) != 2 or len(set(agents)) != 2 or not all(a in ladder for a in agents):
        return PLAY
    neighbours = {frozenset(p) for p in zip(ladder, ladder[1:], strict=False)}
    return STEP if frozenset(agents) in neighbours else CHECK


def _label_in_words(cell: Cell) -> str:
    """The cell's label with each option value in words (``dirk_tiles=(4, 4, third)``), also for
    manifests that spelled it as code (``dirk_tiles=[4, 4, 'third']``)."""
    label = cell.label
    for key, value in cell.variant.items():
        words = option_label(key, value)
        for old in {f"{key}={value}", f"{key}={json.dumps(value)}"} - {words}:
            label = re.sub(rf"(?<![\w.]){re.escape(old)}(?=,|$| )", words.replace("\\", r"\\"), label)
    return label


def _variant_words(cell: Cell) -> str:
    """The variant part of a label as the pipeline builds it (``<n> players, <variant>,
    <line-up>``): for manifests that did not store it."""
    middle, players = SAME_GAME.sub("", cell.label), f"{cell.n_players} players"
    if middle.startswith(players):
        middle = middle[len(players) :].lstrip(", ")
    lineup = lineup_words(cell.agents) if cell.agents else ""
    if lineup and (middle == lineup or middle.endswith(", " + lineup)):
        middle = middle[: len(middle) - len(lineup)].rstrip(", ")
    return middle


def with_roles(study: Study) -> Study:
    """``study`` with every cell's role and variant label set (kept where already stored), and
    labels in words."""
    ladder = list(study.ladder)
    cells = []
    for c in study.cells:
        c = replace(c, label=_label_in_words(c))
        cells.append(
            replace(
                c,
                role=c.role or role_of(c.agents, ladder),
                variant_label=_variant_words(c) if c.variant_label is None else c.variant_label,
            )
        )
    return replace(study, cells=cells)
