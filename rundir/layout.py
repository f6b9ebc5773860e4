"""Paths inside a run directory, the batch file name pattern and the game-count limit.

A run directory holds::

    DIR/manifest.json                                     the study, engine versions, progress
    DIR/batches.jsonl                                     one record per batch file written
    DIR/data/cell=<cell_id>/part-<start:012d>-<end:012d>.parquet   games start..end-1
    DIR/positions.jsonl, DIR/positions/cell=<cell_id>/part-...     the positions table (studies
                                                          with record_positions): one file per
                                                          batch, recorded and checked alike
    DIR/.lock                                             held by the run writing here

Nothing outside :mod:`rundir` knows these names.
"""

from __future__ import annotations

import re
from pathlib import Path

MANIFEST = "manifest.json"
LEDGER = "batches.jsonl"
DATA = "data"
#: The second table of a run (sampled decision positions), beside ``data``.
POSITIONS = "positions"
#: Each table's folder and ledger.
LEDGERS = {DATA: LEDGER, POSITIONS: "positions.jsonl"}
LOCK = ".lock"
TMP_SUFFIX = ".tmp"

#: Most games a cell may have (a study's ``games_per_cell``, a line-up's ``games``, ``--games``,
#: ``--max-games``, ``--batch-games``). With seat pairs a cell is rounded up to whole rotations,
#: at most ``MAX_PLAYERS - 1`` more; the 12-digit file names hold up to 10^12 - 1.
MAX_GAMES = 1_000_000_000
MAX_PLAYERS = 64
DIGITS = 12
PART = re.compile(r"part-(\d{12})-(\d{12})\.parquet")
CELL_PREFIX = "cell="
#: A cell id: what a folder name may hold (checked when a manifest is read, so no cell id can
#: lead a path out of the run).
CELL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,249}")

assert MAX_GAMES + MAX_PLAYERS < 10**DIGITS


def manifest_path(out: Path) -> Path:
    return out / MANIFEST


def ledger_path(out: Path, table: str = DATA) -> Path:
    return out / LEDGERS[table]


def data_dir(out: Path, table: str = DATA) -> Path:
    return out / table


def cell_dir(out: Path, cell_id: str, table: str = DATA) -> Path:
    return data_dir(out, table) / f"{CELL_PREFIX}{cell_id}"


def part_name(start: int, end: int) -> str:
    if not 0 <= start < end < 10**DIGITS:
        raise ValueError(f"game range {start}..{end} does not fit a batch file name")
    return f"part-{start:0{DIGITS}d}-{end:0{DIGITS}d}.parquet"


def part_path(out: Path, cell_id: str, start: int, end: int, table: str = DATA) -> Path:
    return cell_dir(out, cell_id, table) / part_name(start, end)


def relative(out: Path, path: Path) -> str:
    """``path`` relative to the run directory, with forward slashes (as recorded)."""
    return path.relative_to(out).as_posix()


def parse_part(path: Path) -> tuple[str, int, int] | None:
    """``(cell_id, start, end)`` of a batch file path (of either table), or ``None`` if it is not
    named like one."""
    m = PART.fullmatch(path.name)
    folder = path.parent.name
    if m is None or not folder.startswith(CELL_PREFIX) or path.parent.parent.name not in LEDGERS:
        return None
    return folder[len(CELL_PREFIX) :], int(m.group(1)), int(m.group(2))


def is_foreign_nonempty(out: Path) -> bool:
    """True if ``out`` is a directory holding something but no manifest: not a run directory.
    (A run stopped before writing its manifest leaves at most the lock and a temporary file.)"""
    if not out.is_dir() or manifest_path(out).exists():
        return False
    return any(
        p.name != LOCK and not (p.name.startswith(".") and p.name.endswith(TMP_SUFFIX)) for p in out.iterdir()
    )
