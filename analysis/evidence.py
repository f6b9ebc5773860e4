"""Played evidence across reports: the handicaps one study played, read by the reports beside it.

A study that plays a cell with a score handicap measures what that handicap does; another study's
report that *predicts* the same handicap for the same question (game and rules version, player
count, line-up and agent versions, the same other options) must quote that play, not its
prediction (played evidence outranks prediction, on every page). So every report writes
``played.json`` beside its pages: one record per handicapped cell it played (:class:`Played`);
and a report written into a folder of reports (e.g. ``reports/<name>/``) reads its siblings'
records (:func:`read_siblings`), and its fixes take a sibling's played result where their own
study did not play the handicap (:func:`analysis.fairness.cell_fixes`). Only the start player's
advantage with its interval travels, read against the reading page's own threshold. Options are
compared in the engine's normal form (defaults filled in: ``dirk_tiles = [6, 6, "third"]`` given
explicitly and left out are one question), and a page quotes every handicap a sibling played for its
question (:func:`played_for`), not only the one its own fix names.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import rust_core

from .model import CellInfo, StudyAnalysis, handicap_of

__all__ = ["PLAYED", "Played", "find", "played_cells", "played_for", "read_siblings", "write_played"]

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


@lru_cache(maxsize=4096)
def _normal(game: str, n_players: int, rest: str) -> str:
    """``rest`` (canonical JSON of options without the handicap) in the engine's normal form for
    ``n_players`` (``rust_core.normalize_variant``: every option at its value, defaults filled in,
    values that play the same game merged); as given where the engine refuses it (an unknown game,
    a file option whose file is not here)."""
    options = json.loads(rest)
    try:
        options = rust_core.normalize_variant(game, options, n_players)
    except (rust_core.EngineError, ValueError, TypeError):
        pass
    return json.dumps(options, sort_keys=True)


def _question(p: Played) -> tuple[Any, ...]:
    """A record's question as :func:`_key` gives a cell's (its options in normal form)."""
    return (
        p.game,
        p.rules_version,
        p.n_players,
        p.agents,
        p.agent_versions,
        _normal(p.game, p.n_players, p.rest),
    )


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
        _normal(s.game, cell.n_players, _rest(cell)),
    )


def played_cells(s: StudyAnalysis, report: str) -> list[Played]:
    """Every balance cell of ``s`` played with a handicap, as records of the report ``report``."""
    out = []
    for c in s.balance:
        if not any(handicap_of(c)) or c.id not in s.rows:
            continue
        r = s.advantage_row(c.id)
        game, rules, n, agents, versions, _ = _key(s, c)
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
                _rest(c),
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


def played_for(s: StudyAnalysis, cell: CellInfo) -> list[Played]:
    """Every handicap the sibling reports played for ``cell``'s question (game, rules version,
    players, line-up and agent versions, the other options in normal form): per handicap the play
    with the most deals, in handicap order."""
    if not s.elsewhere:
        return []
    key = _key(s, cell)
    best: dict[tuple[int, ...], Played] = {}
    for p in s.elsewhere:
        if any(p.handicap) and _question(p) == key:
            if p.handicap not in best or p.units > best[p.handicap].units:
                best[p.handicap] = p
    return [best[h] for h in sorted(best)]


def find(s: StudyAnalysis, cell: CellInfo, handicap: list[int]) -> Played | None:
    """A sibling report's play of ``handicap`` for ``cell``'s question (the most deals), if any."""
    return next((p for p in played_for(s, cell) if list(p.handicap) == list(handicap)), None)
