"""Agent specs in words: their order by strength and what each one is (for the report's methods).

No statistics here: :func:`ladder_key` orders specs random < greedy < mcts by iterations < others,
the order used by line-ups in the report and by the strength ladder (:mod:`analysis.strength`).
"""

from __future__ import annotations

import re

__all__ = ["describe", "iterations", "ladder_key"]

_FAMILY = {"random": 0, "greedy": 1, "mcts": 2}


def _iters(spec: str) -> int | None:
    """The ``iters=`` parameter of any search spec (``xmcts:iters=300`` → 300), else None."""
    m = re.search(r"iters=(\d+)", spec)
    return int(m.group(1)) if m else None


def iterations(spec: str) -> int | None:
    """MCTS iterations of a spec (``mcts:iters=300`` → 300), None for other agents."""
    return _iters(spec) if spec.startswith("mcts") else None


def ladder_key(spec: str) -> tuple[int, int, str]:
    """Sort key of an agent spec on the ladder: random < greedy < mcts by iterations < others."""
    name = spec.split(":", 1)[0]
    m = re.search(r"iters=(\d+)", spec)
    return (_FAMILY.get(name, 3), int(m.group(1)) if m else 0, spec)


def _budget(spec: str) -> str:
    """``300 simulated continuations`` for a search spec with ``iters=300``."""
    n = _iters(spec)
    return f"{n} simulated continuations" if n is not None else "simulated continuations"


def describe(spec: str) -> str:
    """One sentence on what the agent does and how strong it is."""
    name = spec.split(":", 1)[0]
    if name == "random":
        return "random: picks uniformly among the legal moves; far weaker than any human player."
    if name == "greedy":
        return (
            "greedy: one move of look-ahead with the game's own evaluation; a quick, steady player "
            "that never plans further than the current turn."
        )
    if name == "mcts":
        budget = _budget(spec)
        return (
            f"{spec}: Monte-Carlo tree search with {budget} per decision, seeing only what the "
            "player may see; stronger with more iterations (see the Elo ladder of agent strength)."
        )
    if name == "xmcts":
        return (
            f"{spec}: the tree search of mcts with {_budget(spec)} per decision (with search settings of "
            "its own in some games), whose continuations end with the game's learned evaluation (a model "
            "fitted on recorded games; which one is named below the table)."
        )
    if name == "mcts1":
        return (
            f"{spec}: the first version of the tree search, kept unchanged as a yardstick for "
            "benchmarks; weaker than today's mcts at the same time per move."
        )
    return f"{spec}: see the README's Agents section."
