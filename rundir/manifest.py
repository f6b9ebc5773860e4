"""``DIR/manifest.json`` as a typed record, with its format version checked on read.

The manifest holds the study as resolved (its identity decides whether a directory may be
continued), the engine that played it (rules version of the game, a version per agent spec),
the tool versions, and times and progress. :data:`FORMAT` is bumped whenever its layout or the
layout of the directory changes; a manifest of another format is refused, naming both.

The manifest carries its own ``checksum`` (SHA-256 of its canonical JSON without that field):
a damaged manifest (a flipped byte, an edit) is refused by every reader, naming the damage
(:class:`ManifestDamaged`), and is never parsed into records: what decides the games is then
taken from the study, never from the damaged copy. The writer rebuilds it from the study only
where the verified batch files record that study's identity (see
:func:`pipeline.resume.read_for` and docs/guide/resume-and-signals.md). It is read without
following a link and at most :data:`MAX_MANIFEST_BYTES`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .cells import ROLES, lineup_words, with_roles
from .layout import CELL_ID, MANIFEST, manifest_path
from .store import atomic_write_text, describe, read_bounded

#: Format of the manifest and of the directory layout written by this balancelab. A manifest
#: written before the checksum was added has none; it is read as it is and gets one when written.
FORMAT = 2
#: Most bytes of ``manifest.json`` read.
MAX_MANIFEST_BYTES = 64 << 20
CHECKSUM = "checksum"
#: The study key ``estimator``'s values: the outcome the start-player advantage reads.
ESTIMATORS = ("raw", "corrected", "fitted")


class RunFormatError(ValueError):
    """A manifest that this balancelab cannot read: another format, or damaged."""


class ManifestDamaged(RunFormatError):
    """A manifest whose checksum does not match (or that does not parse); ``raw`` holds its JSON
    object as read (``None`` if it is none), for comparisons only: it is never parsed."""

    def __init__(self, message: str, raw: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.raw = raw

    def restore_hint(self, out: Path) -> str:
        """Which command restores the manifest of run ``out``, in words."""
        study = self.raw.get("study") if self.raw is not None else None
        source = study.get("source") if isinstance(study, dict) else None
        if isinstance(source, str) and 0 < len(source) <= 300 and source.isprintable():
            command = f"balancelab run {source.removeprefix('builtin:')} --out {out}"
        else:
            command = f"balancelab run STUDY --out {out} (STUDY: the study it was run with)"
        return (
            f"`{command}` restores it from the study (with the --variant options of the first run, "
            "if any) when its verified batch files record that study"
        )


def checksum(data: dict[str, Any]) -> str:
    """SHA-256 of a manifest's canonical JSON without its ``checksum`` field."""
    rest = {k: v for k, v in data.items() if k != CHECKSUM}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Cell:
    """One cell: player count, variant and agent line-up, its planned games, what it is for
    (:mod:`rundir.cells`: ``play``, ``step`` or ``check``) and the words of its label that name
    its variant. The last two are made once when the study is resolved and stored; manifests
    without them get them when read (:func:`rundir.cells.with_roles`). Not part of the identity."""

    id: str
    label: str
    n_players: int
    variant: dict[str, Any]
    agents: list[str]
    games: int
    role: str = ""
    variant_label: str | None = None

    @property
    def lineup(self) -> str:
        """``greedy`` when every seat has the same agent, else ``greedy vs random``."""
        return lineup_words(self.agents) if self.agents else ""


@dataclass(frozen=True)
class Study:
    """A study with its cells resolved: the one record the parser builds (`pipeline.study`), the
    runner plays and the manifest stores (as resolved when the run was started or last continued)."""

    name: str
    description: str
    game: str
    seed: int
    games_per_cell: int
    pair_seats: bool
    source: str
    cells: list[Cell]
    #: SHA-256 of every file given through a path option, by absolute path.
    files: dict[str, str] = field(default_factory=dict)
    #: The report's practical-significance threshold (a share of games; None = the default).
    #: Not part of the identity: changing it changes the reading, not the games.
    practical_threshold: float | None = None
    #: The skill ladder's agent specs, weakest first (``grid.ladder``; empty without one). Not part
    #: of the identity: the cells it expands into are.
    ladder: list[str] = field(default_factory=list)
    #: Whether the run also records the positions table (one sampled decision per player per
    #: game; README.md, "Positions"). Part of the identity only when set, so studies without
    #: it keep their hash.
    record_positions: bool = False
    #: Whether every row also carries the player's luck (column ``luck``: ``rust_core``'s luck
    #: measurement, the same games). Part of the identity only when set, like ``record_positions``.
    luck: bool = False
    #: The value the luck is measured with (study key ``luck_value``; ``rust_core``'s
    #: ``LuckValue``): ``learned`` (the game's learned evaluation, the default) or
    #: ``rollout:k=K[,h=H][,at=all|deal|all+ties|deal+ties]`` (greedy playouts). Part of the
    #: identity only when not the default: it changes the luck column, not the games.
    luck_value: str = "learned"
    #: The cell that plays the published rules (study key ``official``); not part of the identity.
    official: str | None = None
    #: Which outcome the start-player advantage reads (study key ``estimator``, one of
    #: :data:`ESTIMATORS`): ``raw`` the win share, ``corrected`` the win share minus the measured
    #: luck, ``fitted`` minus the luck times a slope fitted on the units before (both need
    #: ``luck``). Not part of the identity: it changes the reading, not the games.
    estimator: str = "raw"

    def identity(self) -> dict[str, Any]:
        """What must match for a directory to be continued: everything but game counts and prose."""
        extra: dict[str, Any] = {"record_positions": True} if self.record_positions else {}
        extra |= {"luck": True} if self.luck else {}
        extra |= {"luck_value": self.luck_value} if self.luck_value != "learned" else {}
        return extra | {
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

    def differences(self, now: Study) -> list[str]:
        """The identity fields in which ``now`` differs from this study (empty: the same
        identity), changed files named with both hashes, e.g. ``files (files given through
        variant options changed: /x/tiles.txt (sha256 3f2a9c01b7de, now 77aa01c2d3e4))``."""
        mine, theirs = now.identity(), self.identity()
        out = []
        for key in (k for k in mine if mine[k] != theirs.get(k)):
            if key != "files":
                out.append(key)
                continue
            changed = []
            for path in sorted(mine["files"].keys() | theirs["files"].keys()):
                old, cur = theirs["files"].get(path), mine["files"].get(path)
                if old != cur:
                    changed.append(
                        f"{path} (sha256 {(old or 'not used')[:12]}, now {(cur or 'not used')[:12]})"
                    )
            out.append(f"files (files given through variant options changed: {'; '.join(changed)})")
        return out

    def cell(self, cell_id: str) -> Cell:
        for c in self.cells:
            if c.id == cell_id:
                return c
        raise KeyError(f"no cell {cell_id!r}; cells: {', '.join(c.id for c in self.cells)}")

    def games_planned(self) -> int:
        return sum(c.games for c in self.cells)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class EngineSpec:
    """What decides the games for a seed: the game's rules version and each agent's version."""

    rules_version: dict[str, int]
    agent_versions: dict[str, int]
    #: Where an agent uses the game's learned evaluation (``xmcts``): game -> its weights file,
    #: content hash and what it was fitted on (for the report; the hash is in the agent's version).
    evaluations: dict[str, str] = field(default_factory=dict)

    def changes(self, now: EngineSpec) -> list[str]:
        """What differs from ``now``, e.g. ``rules_version of alhambra 1, now 2``; a game or agent
        recorded on one side only (a renamed key) is a difference too."""
        out = []
        for label, old, cur in (
            ("rules_version of", self.rules_version, now.rules_version),
            ("version of agent", self.agent_versions, now.agent_versions),
        ):
            for key in sorted(old.keys() | cur.keys(), key=str):
                if key not in cur:
                    out.append(f"{label} {key} {old[key]} recorded, not used now")
                elif key not in old:
                    out.append(f"{label} {key} not recorded, now {cur[key]}")
                elif old[key] != cur[key]:
                    out.append(f"{label} {key} {old[key]}, now {cur[key]}")
        return out


#: ``host`` and ``started`` of a play that stands for games no manifest recorded (a manifest
#: rebuilt after damage knows the games on disk, not who played them).
UNRECORDED = "not recorded"


@dataclass
class Play:
    """One invocation that played games into a run directory: the code (``git_commit``, null
    outside a checkout, and ``build``, the compiled engine's hash), the machine, its times, the
    games it added and their CPU. ``finished`` is null for an invocation that stopped before its
    end (a crash, a kill): its ``games`` are then counted by the next invocation, from the files."""

    git_commit: str | None
    build: str | None
    host: str
    started: str
    finished: str | None = None
    games: int = 0
    wall_seconds: float | None = None
    task_cpu_seconds: float = 0.0


@dataclass
class Manifest:
    """``manifest.json``: see README.md, "Output layout"."""

    study: Study
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
    #: Every invocation that played games here, oldest first (the fields above are the latest's).
    plays: list[Play] = field(default_factory=list)
    format: int = FORMAT

    @property
    def study_hash(self) -> str:
        return self.study.hash()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["study_hash"] = self.study_hash
        data[CHECKSUM] = checksum(data)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = MANIFEST) -> Manifest:
        """The manifest of ``data``; :class:`ManifestDamaged` if its checksum does not match (with
        what it says attached), :class:`RunFormatError` if it is of another format or malformed."""
        check_format(data, where)
        if CHECKSUM in data:
            found, want = data.get(CHECKSUM), checksum(data)
            if found != want:  # never parsed: what it says may be the damage
                raise ManifestDamaged(
                    f"{where}: damaged manifest (checksum {str(found)[:12]!r} recorded, "
                    f"{want[:12]} computed: it was changed after it was written)",
                    data,
                )
        return cls._parse(data, where)

    @classmethod
    def _parse(cls, data: dict[str, Any], where: str) -> Manifest:
        """The records of ``data``, built only once every field is known, present and typed."""
        problem = _shape_problem(data)
        if problem is None:
            study = dict(data["study"])
            cells = [Cell(**c) for c in study.pop("cells")]
            spec = Study(cells=cells, **study)
            engine = EngineSpec(**data["engine"])
            try:
                _check_types(spec, engine)
                spec = with_roles(spec)
            except ValueError as exc:
                problem = str(exc)
        if problem is not None:
            raise ManifestDamaged(f"{where}: damaged manifest ({problem})", data)
        rest = {
            k: v for k, v in data.items() if k not in ("study", "engine", "study_hash", CHECKSUM, "plays")
        }
        return cls(study=spec, engine=engine, plays=[Play(**p) for p in data.get("plays", [])], **rest)

    def history(self) -> list[Play]:
        """The invocations that played this directory's games, oldest first (never empty). A
        manifest written before plays were recorded knows only its latest invocation: that one."""
        if self.plays:
            return self.plays
        build = self.versions.get("build")
        return [
            Play(
                self.git_commit,
                build,
                self.host,
                self.started,
                self.finished,
                self.games_played,
                self.wall_seconds,
                self.task_cpu_seconds,
            )
        ]

    def with_study(self, study: Study) -> Manifest:
        return replace(self, study=study, games_planned=study.games_planned())


def _fields_problem(data: Any, record: type, where: str) -> str | None:
    """Why ``data`` cannot be the fields of dataclass ``record`` (not a table, a field unknown
    or missing), or ``None``."""
    if not isinstance(data, dict):
        return f"{where} is not a table"
    names = {f.name: f for f in fields(record)}
    unknown = sorted(str(k) for k in data if k not in names)
    if unknown:
        return f"unknown field {(where + '.' if where else '') + unknown[0][:80]!r}"
    for name, spec in names.items():
        if name not in data and spec.default is MISSING and spec.default_factory is MISSING:
            return f"field {(where + '.' if where else '') + name!r} missing"
    return None


#: The manifest's plain fields by type (``None`` allowed where the record allows it).
_TEXTS = ("host", "started", "first_started")
_NUMBERS = ("games_done", "games_planned", "games_played", "batches", "resubmitted")


def _shape_problem(data: dict[str, Any]) -> str | None:
    """Why ``data`` cannot be read into a :class:`Manifest`, naming the field, or ``None``."""
    top = {k: v for k, v in data.items() if k not in ("study_hash", CHECKSUM)}
    problem = _fields_problem(top, Manifest, "")
    problem = problem or _fields_problem(data["study"], Study, "study")
    problem = problem or _fields_problem(data["engine"], EngineSpec, "engine")
    if problem is not None:
        return problem
    cells = data["study"]["cells"]
    if not isinstance(cells, list):
        return "study.cells is not a list"
    for i, cell in enumerate(cells):
        problem = problem or _fields_problem(cell, Cell, f"study.cells[{i}]")
    return problem or _plays_problem(data.get("plays", [])) or _values_problem(data)


def _plays_problem(plays: Any) -> str | None:
    """Why ``plays`` cannot be the manifest's record of its invocations, or ``None``."""
    if not isinstance(plays, list):
        return "plays is not a list"
    for i, play in enumerate(plays):
        problem = _fields_problem(play, Play, f"plays[{i}]")
        if problem is not None:
            return problem
        if not all(isinstance(play.get(k), str) for k in ("host", "started")):
            return f"plays[{i}]: host or started is not text"
        games = play.get("games", 0)
        if isinstance(games, bool) or not isinstance(games, int) or games < 0:
            return f"plays[{i}].games is not a count"
        cpu = play.get("task_cpu_seconds", 0.0)
        if isinstance(cpu, bool) or not isinstance(cpu, (int, float)):
            return f"plays[{i}].task_cpu_seconds is not a number"
    return None


def _values_problem(data: dict[str, Any]) -> str | None:
    """Why the study's and the manifest's plain values are of the wrong type, or ``None``."""
    study = data["study"]
    for key, kind in (("name", str), ("game", str), ("source", str), ("description", str)):
        if not isinstance(study[key], kind):
            return f"study.{key} is not text"
    for key in ("seed", "games_per_cell"):
        if isinstance(study[key], bool) or not isinstance(study[key], int):
            return f"study.{key} is not a whole number"
    if not isinstance(data.get("versions", {}), dict):
        return "versions is not a table"
    bad = [k for k in _TEXTS if not isinstance(data[k], str)]
    bad += [k for k in _NUMBERS if isinstance(data.get(k, 0), bool) or not isinstance(data.get(k, 0), int)]
    return f"{bad[0]} of the wrong type" if bad else None


def _check_types(spec: Study, engine: EngineSpec) -> None:
    """Refuses values a reader would trip on: cell ids that are no folder name of a run, games
    that are no counts, files and versions that are not text and numbers."""
    for cell in spec.cells:
        if not isinstance(cell.id, str) or not CELL_ID.fullmatch(cell.id):
            raise ValueError(f"cell id {str(cell.id)[:80]!r} is not a cell id")
        if isinstance(cell.games, bool) or not isinstance(cell.games, int) or cell.games < 0:
            raise ValueError(f"games of cell {cell.id} is {cell.games!r}")
        if not isinstance(cell.agents, list) or not isinstance(cell.variant, dict):
            raise ValueError(f"cell {cell.id}: agents or variant of the wrong type")
        if cell.role and cell.role not in ROLES:
            raise ValueError(f"cell {cell.id}: role {str(cell.role)[:40]!r} is none of {', '.join(ROLES)}")
        if not isinstance(cell.label, str) or not isinstance(cell.variant_label, (str, type(None))):
            raise ValueError(f"cell {cell.id}: label or variant_label is not text")
    if spec.estimator not in ESTIMATORS:
        raise ValueError(f"study.estimator {str(spec.estimator)[:40]!r} is none of {', '.join(ESTIMATORS)}")
    if not isinstance(spec.files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in spec.files.items()
    ):
        raise ValueError("study.files must map paths to SHA-256 texts")
    for table in (engine.rules_version, engine.agent_versions):
        if not isinstance(table, dict):
            raise ValueError("engine versions must be tables")
    if not isinstance(engine.evaluations, dict) or not all(
        isinstance(v, str) for v in engine.evaluations.values()
    ):
        raise ValueError("engine.evaluations must map games to texts")


def check_format(data: Any, where: str) -> None:
    """Refuses a manifest of another format, naming its format and this one."""
    if not isinstance(data, dict):
        raise RunFormatError(f"{where}: not a balancelab manifest (a JSON object is expected)")
    found = data.get("format")
    if found == FORMAT and not isinstance(found, bool):
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
        raw = read_bounded(out, MANIFEST, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RunFormatError(f"{path}: cannot read: {describe(exc)}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ManifestDamaged(f"{path}: damaged manifest (not UTF-8 at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ManifestDamaged(f"{path}: damaged manifest (not JSON: {exc})") from None
    except RecursionError:
        raise ManifestDamaged(f"{path}: damaged manifest (nested too deeply)") from None
    return Manifest.from_dict(data, str(path))


def write_manifest(out: Path, manifest: Manifest) -> None:
    """Writes the manifest atomically (temporary file, fsync, rename, fsync of the directory)."""
    text = json.dumps(manifest.to_dict(), indent=2) + "\n"
    atomic_write_text(manifest_path(out), text, root=out)
