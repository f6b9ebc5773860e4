"""Which data file each cell of a run used, for games whose layout is a file option (Hiroba's
tiles, Titania's board, Maharaja's map): the engine's own built-in file, or a user's file named by
its path and SHA-256. Every report names it (summary and provenance)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rundir import Manifest

from .model import StudyAnalysis

__all__ = ["DataFile"]


@dataclass(frozen=True)
class DataFile:
    """A game's file option: ``option`` (the variant option), ``noun`` (e.g. ``"tile set"``),
    ``builtin`` (the packaged default's path) and ``own`` (what the built-in file is, e.g.
    ``"the engine's own set"``)."""

    option: str
    noun: str
    builtin: str
    own: str

    def used(self, manifest: Manifest) -> list[dict[str, Any]]:
        """The files of a run: ``source`` (``"built-in"`` or the file's path), ``sha256`` (as
        recorded in the manifest; ``None`` for the built-in file) and ``cells`` (ids)."""
        files = manifest.study.files
        found: dict[str | None, list[str]] = {}
        for cell in manifest.study.cells:
            path = cell.variant.get(self.option)
            found.setdefault(path, []).append(cell.id)
        return [
            {"source": path or "built-in", "sha256": files.get(path) if path else None, "cells": cells}
            for path, cells in found.items()
        ]

    def describe(self, entry: dict[str, Any], rust_core_version: str | None) -> str:
        if entry["sha256"] is None and entry["source"] == "built-in":
            version = f" of rust_core {rust_core_version}" if rust_core_version else ""
            return f"built-in ({self.own}, {self.builtin}{version}; not the publisher's)"
        digest = entry["sha256"][:12] if entry["sha256"] else "not recorded"
        return f"file {entry['source']} (sha256 {digest})"

    def lines(self, s: StudyAnalysis) -> list[tuple[str, str]]:
        """(field, text) per file; the field names the cells when the study used several."""
        found = self.used(s.manifest)
        version = s.manifest.versions.get("rust_core")
        return [
            (
                self.noun if len(found) == 1 else f"{self.noun} of {', '.join(f['cells'])}",
                self.describe(f, version),
            )
            for f in found
        ]

    def scope(self, s: StudyAnalysis) -> list[str]:
        """One summary sentence per file."""
        return [f"{field[0].upper()}{field[1:]}: {text}." for field, text in self.lines(s)]

    def provenance(self, s: StudyAnalysis) -> list[list[str]]:
        return [[field, text] for field, text in self.lines(s)]
