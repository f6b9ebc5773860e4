"""``DIR/manifest.json``: the study as resolved, versions and build, times and progress.

Written atomically (temporary file + rename). A directory belongs to one study: running a
different study into it is refused (:class:`ManifestMismatch`); more games per cell are allowed.
Files given through path options are part of the study: a changed file (other SHA-256) is refused.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

import rust_core

from . import version
from .study import Study

MANIFEST = "manifest.json"
FORMAT = 1


class ManifestMismatch(ValueError):
    """The output directory holds another study."""


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


def identity(study: dict[str, Any]) -> dict[str, Any]:
    """What must match for a directory to be continued: everything but game counts and prose."""
    return {
        "name": study["name"],
        "game": study["game"],
        "seed": study["seed"],
        "pair_seats": study["pair_seats"],
        "cells": [{k: c[k] for k in ("id", "n_players", "variant", "agents")} for c in study["cells"]],
        "files": study.get("files", {}),
    }


def _file_changes(mine: dict[str, str], theirs: dict[str, str]) -> str:
    """Which files differ, e.g. ``/x/tiles.txt (sha256 3f2a9c01b7de, now 77aa01c2d3e4)``."""
    changes = []
    for path in sorted(mine.keys() | theirs.keys()):
        old, cur = theirs.get(path), mine.get(path)
        if old != cur:
            changes.append(f"{path} (sha256 {(old or 'not used')[:12]}, now {(cur or 'not used')[:12]})")
    return "; ".join(changes)


def read(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.exists():
        return None
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def write(out: Path, manifest: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".{MANIFEST}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=2, sort_keys=False)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, out / MANIFEST)


def check_compatible(out: Path, study: Study, old: dict[str, Any] | None) -> None:
    """Raises :class:`ManifestMismatch` if ``out`` holds another study or another engine's data."""
    if old is None:
        if (out / "data").exists() and any((out / "data").iterdir()):
            raise ManifestMismatch(f"{out} holds data but no {MANIFEST}; use an empty or new --out directory")
        return
    mine, theirs = identity(study.to_dict()), identity(old["study"])
    if mine != theirs:
        diffs = [k for k in mine if mine[k] != theirs.get(k)]
        detail = ""
        if "files" in diffs:
            changed = _file_changes(mine["files"], theirs["files"])
            detail = f" (files given through variant options changed: {changed})"
        raise ManifestMismatch(
            f"{out} holds study {theirs['name']!r} from {old['study'].get('source')}, which differs from "
            f"{study.source} in: {', '.join(diffs)}{detail}; use another --out directory (or delete {out})"
        )
    old_engine = old.get("versions", {}).get("rust_core")
    if old_engine is not None and old_engine != rust_core.__version__:
        raise ManifestMismatch(
            f"{out} was played with rust_core {old_engine}, this is rust_core {rust_core.__version__}; "
            "use another --out directory"
        )


def new(study: Study, old: dict[str, Any] | None) -> dict[str, Any]:
    """A manifest for a run starting now (keeping the first start time of a continued directory).

    ``git_commit`` only when running from a source checkout; ``versions.build`` always."""
    commit = version.source_commit()
    man = {
        "format": FORMAT,
        "study": study.to_dict(),
        "versions": versions(),
        "started": now(),
        "first_started": (old or {}).get("first_started") or (old or {}).get("started") or now(),
        "finished": None,
        "wall_seconds": None,
        "compute_seconds": None,
        "games_done": (old or {}).get("games_done", 0),
        "games_planned": sum(c.games for c in study.cells),
        "batches": 0,
        "resubmitted": 0,
        "task_seconds": 0.0,
        "task_cpu_seconds": 0.0,
        "write_seconds": 0.0,
        "layout": "data/cell=<id>/part-<start:012d>-<end:012d>.parquet, end exclusive, zstd",
        "host": platform.node(),
    }
    if commit:
        man["git_commit"] = commit
    return man
