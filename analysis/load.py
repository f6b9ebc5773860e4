"""Reading a study run: the manifest and a lazy polars frame over its Parquet files."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import polars as pl

__all__ = ["cell_rows", "load", "read_manifest"]


def read_manifest(run_dir: pathlib.Path | str) -> dict[str, Any]:
    """The run's ``manifest.json`` (study definition, versions, timings) as a dict."""
    return json.loads((pathlib.Path(run_dir) / "manifest.json").read_text())


def load(run_dir: pathlib.Path | str) -> pl.LazyFrame:
    """A lazy frame over every row of the run (one row per player per game).

    Columns: the ``rust_core.simulate`` columns, ``n_players`` and ``cell`` (the cell id, a
    string, from the ``cell=<id>`` hive partition). Nothing is read until ``collect()``;
    filter on ``cell`` first to read one cell only.

    >>> lf = load("runs/alhambra-dirk")  # doctest: +SKIP
    >>> dirk = lf.filter(pl.col("cell") == "dirk")  # doctest: +SKIP
    >>> dirk.group_by("seat").agg(pl.col("win").mean()).collect()  # doctest: +SKIP
    """
    data = pathlib.Path(run_dir) / "data"
    files = sorted(data.glob("cell=*/*.parquet"))
    if not files:
        raise FileNotFoundError(f"no Parquet files under {data}")
    return pl.scan_parquet(
        [str(f) for f in files],
        hive_partitioning=True,
        hive_schema={"cell": pl.String},
    )


def cell_rows(run_dir: pathlib.Path | str, cell_id: str, columns: list[str] | None = None) -> pl.DataFrame:
    """The rows of one cell (optionally only ``columns``), sorted by game and player."""
    lf = load(run_dir).filter(pl.col("cell") == cell_id)
    if columns is not None:
        lf = lf.select(columns)
    return lf.collect().sort("game_index", "player")
