"""The manifest of a run being written: what it records, and whether a directory may be continued.

The record itself (fields, format, reading and writing) is :mod:`rundir.manifest`. A
directory belongs to one study played by one engine: running a different study into it
(:class:`ManifestMismatch`) or the same study with another rules version of the game or another
version of an agent (:class:`EngineChanged`) is refused; more games per cell are allowed. Files
given through path options are part of the study: a changed file (other SHA-256) is refused.

A damaged manifest (its checksum does not match) is written again by a run only when what it
still says about the games (the study's identity, the engine) is that of the study being run:
then only fields that do not change the games (counts, times, prose, the practical threshold)
can have been damaged, and the run restores them from the study and the data.
"""

from __future__ import annotations

import datetime as dt
import platform
from importlib import metadata
from pathlib import Path

import rust_core
from rundir import EngineSpec, Manifest, read_manifest, write_manifest
from rundir.layout import data_dir, is_foreign_nonempty
from rundir.manifest import ManifestDamaged

from . import version
from .study import Study

__all__ = ["EngineChanged", "ManifestMismatch", "check_compatible", "engine_of", "new", "read", "write"]


class ManifestMismatch(ValueError):
    """The output directory holds another study, or is not a run directory."""


class EngineChanged(ManifestMismatch):
    """The output directory was played by another version of the game's rules or of an agent."""


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def versions() -> dict[str, str | None]:
    def dist(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    return {
        "balancelab": dist("balancelab"),
        "rust_core": rust_core.__version__,
        "build": version.engine_build(),
        "ray": dist("ray"),
        "pyarrow": dist("pyarrow"),
        "python": platform.python_version(),
    }


def engine_of(study: Study) -> EngineSpec:
    """The rules version of the study's game and the version of every agent spec it uses."""
    specs = sorted({a for c in study.cells for a in c.agents})
    learned = any(spec.split(":", 1)[0] == "xmcts" for spec in specs)
    return EngineSpec(
        rules_version={study.game: rust_core.rules_version(study.game)},
        agent_versions={spec: rust_core.agent_version(spec, study.game) for spec in specs},
        evaluations={study.game: evaluation_of(study.game)} if learned else {},
    )


def evaluation_of(game: str) -> str:
    """``game``'s learned evaluation in words: its weights file, content hash, and what it was
    fitted on."""
    return (
        f"{game}_eval_weights.txt (hash {rust_core.eval_hash(game)}), fitted on {rust_core.eval_fitted(game)}"
    )


def read(out: Path) -> Manifest | None:
    """The manifest of ``out`` (:class:`rundir.RunFormatError` if of another format)."""
    return read_manifest(out)


def read_for(out: Path, study: Study) -> tuple[Manifest | None, str | None]:
    """The manifest of ``out`` for a run of ``study``, and a note if it was damaged but may be
    restored (see the module's docstring); a damaged manifest that may not is refused
    (:class:`rundir.manifest.ManifestDamaged`)."""
    try:
        return read_manifest(out), None
    except ManifestDamaged as exc:
        old = exc.manifest
        if old is None or old.study.identity() != study.identity():
            raise ManifestDamaged(
                f"{exc}; the damage may touch what decides the games (the study or the engine), so "
                f"{out} cannot be continued: run the study into a new --out directory"
            ) from None
        if old.engine.changes(engine_of(study)):
            raise ManifestDamaged(
                f"{exc}; its engine versions differ from this engine's, so {out} cannot be "
                "continued: run the study into a new --out directory"
            ) from None
        return old, f"{exc}; the study and the engine it names are intact: written again from the study"


def write(out: Path, manifest: Manifest) -> None:
    write_manifest(out, manifest)


def _file_changes(mine: dict[str, str], theirs: dict[str, str]) -> str:
    """Which files differ, e.g. ``/x/tiles.txt (sha256 3f2a9c01b7de, now 77aa01c2d3e4)``."""
    changes = []
    for path in sorted(mine.keys() | theirs.keys()):
        old, cur = theirs.get(path), mine.get(path)
        if old != cur:
            changes.append(f"{path} (sha256 {(old or 'not used')[:12]}, now {(cur or 'not used')[:12]})")
    return "; ".join(changes)


def check_compatible(out: Path, study: Study, old: Manifest | None) -> None:
    """Raises :class:`ManifestMismatch` if ``out`` is not a run directory of ``study``, or
    :class:`EngineChanged` if it was played by other rules or agent versions."""
    if old is None:
        if is_foreign_nonempty(out) or (data_dir(out).exists() and any(data_dir(out).iterdir())):
            raise ManifestMismatch(
                f"--out {out}: not empty and holds no manifest.json, so it is not a balancelab run; "
                "give a new or empty directory"
            )
        return
    mine, theirs = study.identity(), old.study.identity()
    if mine != theirs:
        diffs = [k for k in mine if mine[k] != theirs.get(k)]
        detail = ""
        if "files" in diffs:
            changed = _file_changes(mine["files"], theirs["files"])
            detail = f" (files given through variant options changed: {changed})"
        raise ManifestMismatch(
            f"{out} holds study {old.study.name!r} from {old.study.source}, which differs from "
            f"{study.source} in: {', '.join(diffs)}{detail}; use another --out directory (or delete {out})"
        )
    changes = old.engine.changes(engine_of(study))
    if changes:
        raise EngineChanged(
            f"{out} was played by another engine ({'; '.join(changes)}): its games cannot be mixed with "
            f"games of this one; start a new run with another --out directory, e.g. "
            f"`balancelab run {study.source.removeprefix('builtin:')} --out {out}-new`"
        )


def new(study: Study, old: Manifest | None) -> Manifest:
    """A manifest for a run starting now (keeping the first start time of a continued directory)."""
    started = now()
    return Manifest(
        study=study,
        engine=engine_of(study),
        versions=versions(),
        git_commit=version.source_commit(),  # None for an installed package: versions["build"] names it
        host=platform.node(),
        started=started,
        first_started=old.first_started if old is not None else started,
        games_done=old.games_done if old is not None else 0,
        games_planned=sum(c.games for c in study.cells),
    )
