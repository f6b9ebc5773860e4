"""The invocations that played a run (``Manifest.history()``), as the pages state them: at which
commits its games were played, in how much wall time, at what CPU per game.

A run continued several times was played by several invocations, possibly at different commits:
each figure here covers every one of them, never only the latest."""

from __future__ import annotations

from rundir import UNRECORDED, Play


def played_at(plays: list[Play]) -> str | None:
    """The commit (or commits, each with its games) the games were played at; ``None`` when no
    play was made from a checkout. An interrupted play is named so."""
    if not any(p.git_commit for p in plays):
        return None
    commits = {p.git_commit for p in plays}
    if len(commits) == 1 and all(p.finished for p in plays):
        return commits.pop()
    return ", ".join(_one(p) for p in plays)


def _one(p: Play) -> str:
    """One play's commit and games, e.g. ``abc123 (2,000 games, interrupted)``."""
    if p.host == UNRECORDED:
        return f"not recorded ({p.games:,} games)"
    state = "" if p.finished else ", interrupted"
    return f"{p.git_commit or 'not from a checkout'} ({p.games:,} games{state})"


def wall_seconds(plays: list[Play]) -> float | None:
    """Wall time of every play together; ``None`` if a play's is unknown (interrupted)."""
    walls = [p.wall_seconds for p in plays]
    return sum(w for w in walls if w is not None) if walls and None not in walls else None


def cpu_ms_per_game(plays: list[Play]) -> float | None:
    """Task CPU per game (ms) over the plays that finished (an interrupted play's CPU is not
    known in full); ``None`` where they record none."""
    done = [p for p in plays if p.finished]
    games = sum(p.games for p in done)
    cpu = sum(p.task_cpu_seconds for p in done)
    return 1000 * cpu / games if games and cpu else None


def dirty(plays: list[Play]) -> str | None:
    """The first commit or build of a play made from a modified working tree, or ``None``."""
    for p in plays:
        for mark in (p.git_commit or "", p.build or ""):
            if "-dirty" in mark:
                return mark
    return None
