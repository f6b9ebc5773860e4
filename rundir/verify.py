"""A run directory as readers see it: the manifest, the verified batch files, what is missing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .batches import RunCheck, check_run
from .layout import MANIFEST, POSITIONS
from .manifest import Manifest, RunFormatError, read_manifest


class IncompleteRun(ValueError):
    """A run lacking games or holding files that failed validation, read without ``allow_partial``."""


@dataclass
class VerifiedRun:
    """The manifest and the judgement of every file (see :func:`verify_run`)."""

    out: Path
    manifest: Manifest
    check: RunCheck

    def games(self, cell_id: str) -> int:
        """Verified games of a cell that the study plans (a cell may hold more after a smaller --games)."""
        return self.check.games(cell_id)

    def planned(self, cell_id: str) -> int:
        return self.manifest.study.cell(cell_id).games

    def missing(self) -> dict[str, tuple[int, int]]:
        """Per cell short of its planned games: (verified games, planned games)."""
        out = {}
        for cell in self.manifest.study.cells:
            have = self.games(cell.id)
            if have < cell.games:
                out[cell.id] = (have, cell.games)
        return out

    def share(self) -> tuple[int, int]:
        """(verified games counted against the plan, planned games)."""
        cells = self.manifest.study.cells
        return sum(min(self.games(c.id), c.games) for c in cells), sum(c.games for c in cells)

    def complete(self) -> bool:
        return not self.missing() and not self.check.bad and not self.check.unreadable

    def problems(self) -> list[str]:
        """Why the run is not complete, one line each (empty if it is)."""
        lines = [f"{p}: {why}" for p, why in self.check.bad + self.check.unreadable]
        lines += [f"cell {c}: {have} of {want} games" for c, (have, want) in self.missing().items()]
        return lines

    def paths(self, cell_id: str | None = None) -> list[Path]:
        return [self.out / p for p in self.check.files(cell_id)]

    def require_complete(self, allow_partial: bool) -> None:
        """Raises :class:`IncompleteRun` naming what is missing unless the run is complete or
        ``allow_partial``."""
        if self.complete() or allow_partial:
            return
        done, planned = self.share()
        raise IncompleteRun(
            f"{self.out}: incomplete run ({done:,} of {planned:,} planned games verified): "
            + "; ".join(self.problems())
            + f"; run `balancelab run` with the same study and --out {self.out} to finish it, or "
            "analyse what is there with --allow-partial"
        )


def verify_run(out: Path) -> VerifiedRun:
    """Reads and checks ``out`` (manifest format, every batch file's hash); changes nothing."""
    manifest = read_manifest(out)
    if manifest is None:
        raise RunFormatError(f"{out}: no {MANIFEST}; not a run directory")
    study = manifest.study
    return VerifiedRun(out, manifest, check_run(out, study.hash(), [c.id for c in study.cells]))


def positions_paths(out: Path) -> list[Path]:
    """The verified files of the positions table of run ``out`` (a study with
    ``record_positions``); :class:`IncompleteRun` if any file of it failed validation."""
    manifest = read_manifest(out)
    if manifest is None:
        raise RunFormatError(f"{out}: no {MANIFEST}; not a run directory")
    study = manifest.study
    if not study.record_positions:
        raise IncompleteRun(f"{out}: the study does not record positions (record_positions = true)")
    check = check_run(out, study.hash(), [c.id for c in study.cells], POSITIONS)
    bad = check.bad + check.unreadable
    if bad:
        raise IncompleteRun(f"{out}: " + "; ".join(f"{p}: {why}" for p, why in bad))
    return [out / p for p in check.files()]
