"""Writes small study runs in the pipeline's on-disk format, without the pipeline.

``RUN_DIR/manifest.json`` plus ``RUN_DIR/data/cell=<id>/part-<start:012d>-<end:012d>.parquet``
(zstd) holding ``rust_core.simulate`` columns and ``n_players`` (int32).
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import rust_core


def write_run(
    run_dir: pathlib.Path,
    *,
    name: str,
    game: str,
    cells: list[dict[str, Any]],
    seed: int = 1,
    pair_seats: bool = False,
    batch: int = 500,
) -> pathlib.Path:
    """Simulates every cell and writes a run; cells have ``id``, ``agents``, ``games`` and
    optionally ``variant`` and ``label``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    done = 0
    manifest_cells = []
    for cell in cells:
        agents = list(cell["agents"])
        variant = dict(cell.get("variant", {}))
        games = int(cell["games"])
        out = run_dir / "data" / f"cell={cell['id']}"
        out.mkdir(parents=True, exist_ok=True)
        for start in range(0, games, batch):
            count = min(batch, games - start)
            rb = rust_core.simulate(game, variant, agents, seed, start, count, pair_seats=pair_seats)
            table = pa.Table.from_batches([rb])
            table = table.append_column("n_players", pa.array([len(agents)] * table.num_rows, pa.int32()))
            pq.write_table(table, out / f"part-{start:012d}-{start + count:012d}.parquet", compression="zstd")
        done += games
        manifest_cells.append(
            {
                "id": cell["id"],
                "label": cell.get("label", cell["id"]),
                "n_players": len(agents),
                "variant": variant,
                "agents": agents,
                "games": games,
            }
        )
    manifest = {
        "study": {
            "name": name,
            "game": game,
            "seed": seed,
            "games_per_cell": max(int(c["games"]) for c in cells),
            "pair_seats": pair_seats,
            "cells": manifest_cells,
        },
        "versions": {
            "balancelab": "0.1.0",
            "rust_core": rust_core.__version__,
            "ray": "n/a",
            "python": "3.11",
        },
        "git_commit": "0000000",
        "started": "2024-01-01T00:00:00Z",
        "finished": "2024-01-01T00:00:05Z",
        "wall_seconds": 5.0,
        "games_done": done,
    }
    (run_dir / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return run_dir
