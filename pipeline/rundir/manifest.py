"""``DIR/manifest.json`` as a typed record, with its format version checked on read.

The manifest holds the study as resolved (its identity decides whether a directory may be
continued), the engine that played it (rules version of the game, a version per agent spec),
the tool versions, and times and progress. :data:`FORMAT` is bumped whenever its layout or the
layout of the directory changes; a manifest of another format is refused, naming both.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .layout import MANIFEST, manifest_path
from .store import atomic_write_text

#: Format of the manifest and of the directory layout written by this balancelab.
FORMAT = 2


class RunFormatError(ValueError):
    """A manifest that this balancelab cannot read: another format, or damaged."""


@dataclass(frozen=True)
class CellSpec:
    """One cell: player count, variant and agent line-up, and its planned games."""

    id: str
    label: str
    n_players: int
    variant: dict[str, Any]
    agents: list[str]
    games: int


@dataclass(frozen=True)
class StudySpec:
    """The study as resolved when the run was started or last continued."""

    name: str
    description: str
    game: str
    seed: int
    games_per_cell: int
    pair_seats: bool
    source: str
    cells: list[CellSpec]
    #: SHA-256 of every file given through a path option, by absolute path.
    files: dict[str, str] = field(default_factory=dict)
    #: The report's practical-significance threshold (a share of games; None = the default).
    #: Not part of the identity: changing it changes the reading, not the games.
    practical_threshold: float | None = None
    #: The skill ladder's agent specs, weakest first (``grid.ladder``; empty without one). Not part
    #: of the identity: the cells it expands into are.
    ladder: list[str] = field(default_factory=list)

    def identity(self) -> dict[str, Any]:
        """What must match for a directory to be continued: everything but game counts and prose."""
        return {
            "name": self.name,
            "game": self.game,
            "seed": self.seed,
            "pair_seats": self.pair_seats,
            "cells": [
                {"id": c.id, "n_players": c.n_players, "variant": c.variant, "agents": c.agents}
                for c in self.cells
            ],
            "files": dict(sorted(self.files.items())),
        }

    def hash(self) -> str:
        """SHA-256 of the identity (canonical JSON): recorded with every batch file."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def cell(self, cell_id: str) -> CellSpec:
        for c in self.cells:
            if c.id == cell_id:
                return c
        raise KeyError(f"no cell {cell_id!r}; cells: {', '.join(c.id for c in self.cells)}")

    def games_planned(self) -> int:
        return sum(c.games for c in self.cells)


@dataclass(frozen=True)
class EngineSpec:
    """What decides the games for a seed: the game's rules version and each agent's version."""

    rules_version: dict[str, int]
    agent_versions: dict[str, int]

    def changes(self, now: EngineSpec) -> list[str]:
        """What differs from ``now``, e.g. ``rules_version of alhambra 1, now 2``."""
        out = []
        for label, old, cur in (
            ("rules_version of", self.rules_version, now.rules_version),
            ("version of agent", self.agent_versions, now.agent_versions),
        ):
            for key in sorted(old.keys() & cur.keys()):
                if old[key] != cur[key]:
                    out.append(f"{label} {key} {old[key]}, now {cur[key]}")
        return out


@dataclass
class Manifest:
    """``manifest.json``: see README.md, "Output layout"."""

    study: StudySpec
    engine: EngineSpec
    versions: dict[str, str | None]
    git_commit: str | None
    host: str
    started: str
    first_started: str
    finished: str | None = None
    wall_seconds: float | None = None
    compute_seconds: float | None = None
    games_done: int = 0
    games_planned: int = 0
    games_played: int = 0
    games_per_second: float | None = None
    workers: int | None = None
    batches: int = 0
    resubmitted: int = 0
    task_seconds: float = 0.0
    task_cpu_seconds: float = 0.0
    write_seconds: float = 0.0
    precision_rounds: list[dict[str, Any]] = field(default_factory=list)
    format: int = FORMAT

    @property
    def study_hash(self) -> str:
        return self.study.hash()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["study_hash"] = self.study_hash
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = MANIFEST) -> Manifest:
        check_format(data, where)
        try:
            study = dict(data["study"])
            cells = [CellSpec(**c) for c in study.pop("cells")]
            spec = StudySpec(cells=cells, **study)
            engine = EngineSpec(**data["engine"])
            known = {f.name for f in fields(cls)} - {"study", "engine"}
            rest = {k: v for k, v in data.items() if k in known}
            return cls(study=spec, engine=engine, **rest)
        except (KeyError, TypeError, ValueError) as exc:
            raise RunFormatError(f"{where}: damaged manifest ({type(exc).__name__}: {exc})") from None

    def with_study(self, study: StudySpec) -> Manifest:
        return replace(self, study=study, games_planned=study.games_planned())


def check_format(data: Any, where: str) -> None:
    """Refuses a manifest of another format, naming its format and this one."""
    if not isinstance(data, dict):
        raise RunFormatError(f"{where}: not a balancelab manifest (a JSON object is expected)")
    found = data.get("format")
    if found == FORMAT:
        return
    if isinstance(found, int) and found > FORMAT:
        why = "written by a newer balancelab; upgrade balancelab to read it"
    else:
        why = "written by an older balancelab; run the study again into a new directory"
    found_text = found if found is not None else "1 (no format field)"
    raise RunFormatError(
        f"{where}: run directory format {found_text}, this balancelab reads format {FORMAT} ({why})"
    )


def read_manifest(out: Path) -> Manifest | None:
    """The manifest of ``out`` (``None`` if there is none); :class:`RunFormatError` if unreadable."""
    path = manifest_path(out)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RunFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RunFormatError(f"{path}: damaged manifest (not JSON: {exc})") from None
    return Manifest.from_dict(data, str(path))


def write_manifest(out: Path, manifest: Manifest) -> None:
    """Writes the manifest atomically (temporary file, fsync, rename, fsync of the directory)."""
    text = json.dumps(manifest.to_dict(), indent=2) + "\n"
    atomic_write_text(manifest_path(out), text)
