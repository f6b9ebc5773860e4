"""Writes small study runs through the run-directory contract (:mod:`rundir`), without
Ray: the manifest, one recorded batch file per ``batch`` games, ``rust_core.simulate`` columns
plus ``n_players`` (int32)."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pyarrow as pa

import rundir
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
    specs = [
        rundir.Cell(
            id=c["id"],
            label=c.get("label", c["id"]),
            n_players=len(c["agents"]),
            variant=dict(c.get("variant", {})),
            agents=list(c["agents"]),
            games=int(c["games"]),
        )
        for c in cells
    ]
    study = rundir.Study(name, "", game, seed, max(c.games for c in specs), pair_seats, "test", specs, {})
    for cell in specs:
        for start in range(0, cell.games, batch):
            count = min(batch, cell.games - start)
            rb = rust_core.simulate(
                game, cell.variant, cell.agents, seed, start, count, pair_seats=pair_seats
            )
            table = pa.Table.from_batches([rb])
            table = table.append_column("n_players", pa.array([cell.n_players] * table.num_rows, pa.int32()))
            rundir.write_batch(run_dir, study.hash(), cell.id, start, start + count, cell.n_players, table)
    manifest = rundir.Manifest(
        study=study,
        engine=rundir.EngineSpec({game: 1}, {a: 1 for c in specs for a in c.agents}),
        versions={"balancelab": "0.1.0", "rust_core": rust_core.__version__, "ray": "n/a", "python": "3.11"},
        git_commit="0000000",
        host="test",
        started="2024-01-01T00:00:00Z",
        first_started="2024-01-01T00:00:00Z",
        finished="2024-01-01T00:00:05Z",
        wall_seconds=5.0,
        games_done=sum(c.games for c in specs),
        games_planned=sum(c.games for c in specs),
    )
    rundir.write_manifest(run_dir, manifest)
    return run_dir


def write_study_run(study: Any, run_dir: pathlib.Path, *, batch: int = 500, games: int | None = None) -> None:
    """Writes the run of a loaded ``pipeline.study.Study`` the way ``balancelab run`` leaves it,
    without Ray (``games``: only the first games of every cell, an unfinished run)."""
    from pipeline import resume

    run_dir.mkdir(parents=True, exist_ok=True)
    man = resume.new(study, None)
    rundir.write_manifest(run_dir, man)
    for cell in study.cells:
        upto = cell.games if games is None else min(games, cell.games)
        for start in range(0, upto, batch):
            count = min(batch, upto - start)
            rb = rust_core.simulate(
                study.game, cell.variant, cell.agents, study.seed, start, count, pair_seats=study.pair_seats
            )
            table = pa.Table.from_batches([rb])
            table = table.append_column("n_players", pa.array([cell.n_players] * table.num_rows, pa.int32()))
            rundir.write_batch(
                run_dir, man.study.hash(), cell.id, start, start + count, cell.n_players, table
            )
    man.games_done = sum(min(c.games, games or c.games) for c in study.cells)
    man.finished = None if games is not None else "2024-01-01T00:00:05Z"
    rundir.write_manifest(run_dir, man)


def set_study_keys(run_dir: pathlib.Path, **keys: Any) -> pathlib.Path:
    """Sets study keys (``ladder``, ``practical_threshold``, …) in a written run's manifest, as a
    study file with those keys would have recorded them (checksum renewed); returns ``run_dir``."""
    path = run_dir / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["study"].update(keys)
    manifest["checksum"] = rundir.manifest.checksum(manifest)
    path.write_text(json.dumps(manifest))
    return run_dir
