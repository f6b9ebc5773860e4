"""Played evidence across reports: the handicaps one study played, read by the reports beside it.

A study that plays a cell with a score handicap measures what that handicap does; another study's
report that *predicts* the same handicap for the same question (game and rules version, player
count, line-up and agent versions, the same other options) must quote that play, not its
prediction (played evidence outranks prediction, on every page). So every report writes
``played.json`` beside its pages: one record per handicapped cell it played (:class:`Played`);
and a report written into a folder of reports (e.g. ``reports/<name>/``) reads its siblings'
records (:func:`read_siblings`), and its fixes take a sibling's played result where their own
study did not play the handicap (:func:`analysis.fairness.cell_fixes`). Only the start player's
advantage with its interval travels, read against the reading page's own threshold.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import asdict, dataclass
from typing import Any

from .model import CellInfo, StudyAnalysis, handicap_of

__all__ = ["PLAYED", "Played", "find", "played_cells", "read_siblings", "write_played"]

#: The file beside a report's pages.
PLAYED = "played.json"


@dataclass(frozen=True)
class Played:
    """A cell played with a score handicap: the question it answers and what play measured (the
    start player's advantage as a share, with its 95% interval, over ``units`` deals or games)."""

    report: str
    study: str
    game: str
    rules_version: int
    n_players: int
    agents: tuple[str, ...]
    agent_versions: tuple[int, ...]
    #: The cell's other options (the variant without the handicap), canonical JSON.
    rest: str
    handicap: tuple[int, ...]
    advantage: tuple[float, float, float]
    units: int


def _rest(cell: CellInfo) -> str:
    return json.dumps({k: v for k, v in cell.variant.items() if k != "handicap"}, sort_keys=True)


def _key(s: StudyAnalysis, cell: CellInfo) -> tuple[Any, ...]:
    """What must match for two cells to answer the same question with the same play."""
    engine = s.manifest.engine
    versions = tuple(engine.agent_versions.get(a, -1) for a in cell.agents)
    return (
        s.game,
        engine.rules_version.get(s.game, -1),
        cell.n_players,
        tuple(cell.agents),
        versions,
        _rest(cell),
    )


def played_cells(s: StudyAnalysis, report: str) -> list[Played]:
    """Every balance cell of ``s`` played with a handicap, as records of the report ``report``."""
    out = []
    for c in s.balance:
        if not any(handicap_of(c)) or c.id not in s.rows:
            continue
        r = s.advantage_row(c.id)
        game, rules, n, agents, versions, rest = _key(s, c)
        advantage = (float(r["advantage"]), float(r["lo"]), float(r["hi"]))
        out.append(
            Played(
                report,
                s.name,
                game,
                rules,
                n,
                agents,
                versions,
                rest,
                tuple(handicap_of(c)),
                advantage,
                int(r["units"]),
            )
        )
    return out


def write_played(s: StudyAnalysis, out: pathlib.Path, report: str) -> None:
    """``out/played.json``: the handicapped cells ``s`` played, as records of the report named
    ``report`` (none: the file is removed)."""
    records = played_cells(s, report)
    path = out / PLAYED
    if not records:
        path.unlink(missing_ok=True)
        return
    path.write_text(json.dumps([asdict(p) for p in records], indent=1) + "\n", encoding="utf-8")


def _parse(raw: Any) -> Played | None:
    try:
        p = Played(**raw)
        return Played(
            **{
                **asdict(p),
                "agents": tuple(p.agents),
                "agent_versions": tuple(p.agent_versions),
                "handicap": tuple(p.handicap),
                "advantage": tuple(float(x) for x in p.advantage),
            }
        )
    except (TypeError, ValueError):
        return None


def read_siblings(out: pathlib.Path) -> list[Played]:
    """The records of the reports beside ``out`` (``out/../*/played.json``, not ``out``'s own);
    a file that does not read as records is skipped."""
    found: list[Played] = []
    for path in sorted(out.resolve().parent.glob(f"*/{PLAYED}")):
        if path.parent == out.resolve():
            continue
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found += [p for p in map(_parse, raw if isinstance(raw, list) else []) if p is not None]
    return found


def find(s: StudyAnalysis, cell: CellInfo, handicap: list[int]) -> Played | None:
    """A sibling report's play of ``handicap`` for ``cell``'s question (the most deals), if any."""
    if not s.elsewhere:
        return None
    key = _key(s, cell)
    hits = [
        p
        for p in s.elsewhere
        if (p.game, p.rules_version, p.n_players, p.agents, p.agent_versions, p.rest) == key
        and list(p.handicap) == list(handicap)
    ]
    return max(hits, key=lambda p: p.units) if hits else None
