"""Reading a study run through the run-directory contract (:mod:`rundir`).

Only batch files that pass validation (their recorded content hash) are read; a run lacking
games, or holding files that failed validation, is refused unless ``allow_partial``; the
``(cell, game_index, player)`` keys are always checked for duplicates.

A run continued from an atlas data folder (``balancelab atlas --out`` on a copy of
``reports/atlas/data``) holds batch files of two forms: the data folder's compact ones (the
generic columns only) and the full ones played since. Its files are read with the union of their
columns, a column missing from a file reads as null there, and :attr:`Run.partial_columns` names
those columns (the analysis then leaves out the game's own tables: :func:`analysis.study.analyse`).
"""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass
from typing import Any

import polars as pl

from rundir import MANIFEST, IncompleteRun, Manifest, RunFormatError, VerifiedRun, verify_run
from rundir import columns as col
from rundir import read_manifest as read_run_manifest

__all__ = ["Run", "cell_rows", "load", "open_run", "read_manifest"]


class DuplicateKeys(ValueError):
    """A ``(cell, game_index, player)`` key occurs more than once."""


@dataclass
class Run:
    """A verified run: its manifest (as a dict), the files that passed validation, and what was
    left out (``notes``: one line each, empty for a complete run) or ignored (``ignored``: files
    that are no batch file of this run)."""

    run_dir: pathlib.Path
    verified: VerifiedRun
    notes: list[str]
    ignored: list[str]

    @property
    def manifest(self) -> Manifest:
        """The run's manifest as its typed record (cells with their roles: :mod:`rundir.cells`)."""
        return self.verified.manifest

    @property
    def share(self) -> tuple[int, int]:
        """(games analysed, games planned)."""
        return self.verified.share()

    @functools.cached_property
    def _schemas(self) -> dict[pathlib.Path, dict[str, Any]]:
        """Every verified batch file's columns and types (its footer, read once)."""
        return {f: dict(pl.read_parquet_schema(f)) for f in self.verified.paths(None)}

    @property
    def partial_columns(self) -> list[str]:
        """Columns some verified batch files hold and others lack (empty for a run of one form),
        but for those every reader takes from the cell where a file lacks them (``handicap``: a
        run begun before the column, continued)."""
        schemas = [set(s) for s in self._schemas.values()]
        if not schemas:
            return []
        common = schemas[0].intersection(*schemas[1:])
        return sorted(set().union(*schemas) - common - {col.HANDICAP})

    @property
    def compact(self) -> bool:
        """Every verified batch file holds only the compact form's columns (an atlas data folder,
        or a copy of one: ``rundir.columns.COMPACT``), none of the game's own."""
        names = {n for s in self._schemas.values() for n in s}
        return bool(names) and names <= {*col.COMPACT, col.HANDICAP}

    def scan(self, cell_id: str | None = None) -> pl.LazyFrame:
        """A lazy frame over the verified files (of one cell), with the ``cell`` column; files
        of different columns are read with the union of their columns (nulls where missing)."""
        files = self.verified.paths(cell_id)
        if not files:
            where = f"cell {cell_id} of " if cell_id else ""
            raise FileNotFoundError(f"no verified batch files in {where}{self.run_dir}")
        schema: dict[str, Any] = {}
        for f in files:
            for name, dtype in (self._schemas.get(f) or pl.read_parquet_schema(f)).items():
                schema.setdefault(name, dtype)
        return pl.scan_parquet(
            [str(f) for f in files],
            schema=schema,
            missing_columns="insert",
            hive_partitioning=True,
            hive_schema={col.CELL: pl.String},
        )

    def cell_rows(self, cell_id: str, cols: list[str] | None = None) -> pl.DataFrame:
        lf = self.scan(cell_id)
        if cols is not None:
            lf = lf.select(cols)
        return lf.collect().sort(col.GAME_INDEX, col.PLAYER)


def _check_keys(run: Run) -> None:
    if not run.verified.check.good:
        return
    keys = run.scan().select(col.RUN_KEY)
    dupes = keys.group_by(col.RUN_KEY).len().filter(pl.col("len") > 1).collect()
    if dupes.height:
        first = dupes.sort(col.RUN_KEY).row(0, named=True)
        raise DuplicateKeys(
            f"{run.run_dir}: {dupes.height} (cell, game_index, player) keys occur more than once, e.g. "
            f"cell {first['cell']} game {first['game_index']} player {first['player']}; "
            "the data cannot be analysed"
        )


def open_run(run_dir: pathlib.Path | str, *, allow_partial: bool = False) -> Run:
    """Verifies ``run_dir`` (manifest format, every batch file's hash, key uniqueness).

    Raises :class:`rundir.RunFormatError` for a manifest of another format,
    :class:`rundir.IncompleteRun` if games are missing or files failed validation
    (unless ``allow_partial``), :class:`DuplicateKeys` if a key occurs twice.
    """
    path = pathlib.Path(run_dir)
    verified = verify_run(path)
    verified.require_complete(allow_partial)
    run = Run(path, verified, verified.problems(), list(verified.check.strays))
    _check_keys(run)
    return run


def read_manifest(run_dir: pathlib.Path | str) -> dict[str, Any]:
    """The run's manifest (study definition, engine, versions, timings) as a dict; its format is
    checked (:class:`rundir.RunFormatError`)."""
    path = pathlib.Path(run_dir)
    manifest = read_run_manifest(path)
    if manifest is None:
        raise RunFormatError(f"{path}: no {MANIFEST}; not a run directory")
    return manifest.to_dict()


def load(run_dir: pathlib.Path | str, *, allow_partial: bool = False) -> pl.LazyFrame:
    """A lazy frame over every verified row of the run (one row per player per game).

    Columns: the ``rust_core.simulate`` columns, ``n_players`` and ``cell`` (the cell id, a
    string, from the ``cell=<id>`` hive partition). Refuses an incomplete run unless
    ``allow_partial`` (see :func:`open_run`). Filter on ``cell`` first to read one cell only.

    >>> lf = load("runs/alhambra-dirk")  # doctest: +SKIP
    >>> dirk = lf.filter(pl.col("cell") == "dirk")  # doctest: +SKIP
    >>> dirk.group_by("seat").agg(pl.col("win").mean()).collect()  # doctest: +SKIP
    """
    return open_run(run_dir, allow_partial=allow_partial).scan()


def cell_rows(
    run_dir: pathlib.Path | str,
    cell_id: str,
    columns: list[str] | None = None,
    *,
    allow_partial: bool = False,
) -> pl.DataFrame:
    """The rows of one cell (optionally only ``columns``), sorted by game and player."""
    return open_run(run_dir, allow_partial=allow_partial).cell_rows(cell_id, columns)


__all__ += ["DuplicateKeys", "IncompleteRun"]
