"""Shared fixtures. Ray started by tests keeps its traffic on loopback and stays quiet."""

from __future__ import annotations

import logging
import os
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


#: Fixtures that start Ray: a test that needs one (directly or through another fixture) is `slow`.
RAY_FIXTURES = frozenset({"ray_local", "token_cluster"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test that starts Ray `slow`, so that `pytest -m "not slow"` leaves it out; tests
    that play studies or run the command line end to end without these fixtures are marked in
    their own modules."""
    for item in items:
        if RAY_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    """A local Ray with 2 CPUs for one test module (the pipeline uses it as it finds it)."""
    import ray

    if ray.is_initialized():
        ray.shutdown()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    try:
        yield
    finally:
        ray.shutdown()


SMALL_STUDY = """\
name = "{name}"
description = "test study"
game = "alhambra"
seed = {seed}
games_per_cell = {games}
pair_seats = {pair_seats}

[grid]
players = {players}
agents = ["random"]

[grid.variants]
official = {{}}
no_dirk = {{ dirk = false }}
"""


@pytest.fixture
def write_study(tmp_path: Path) -> Callable[..., Path]:
    """Writes a small study TOML (two variants) and returns its path; ``text=`` writes raw text."""

    def make(
        name: str = "small",
        seed: int = 5,
        games: int = 60,
        pair_seats: bool = True,
        players: str = "[2]",
        text: str | None = None,
        filename: str | None = None,
    ) -> Path:
        body = (
            text
            if text is not None
            else SMALL_STUDY.format(
                name=name, seed=seed, games=games, pair_seats=str(pair_seats).lower(), players=players
            )
        )
        path = tmp_path / (filename or f"{name}.toml")
        path.write_text(textwrap.dedent(body))
        return path

    return make


def _read_run(out: Path):
    """All rows of the verified batch files of a run (through the run-directory contract) as one
    table with a ``cell`` column, sorted by cell, game, player."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import rundir

    tables = []
    for record in sorted(rundir.verify_run(out).check.good, key=lambda r: r.path):
        table = pq.read_table(out / record.path)
        table = table.replace_schema_metadata(None)
        cell = record.cell
        tables.append(table.append_column("cell", pa.array([cell] * table.num_rows, pa.string())))
    table = pa.concat_tables(tables)
    return table.sort_by([("cell", "ascending"), ("game_index", "ascending"), ("player", "ascending")])


def _expected_run(study_path: Path, games: int | None = None):
    """What a complete run of a study must hold, played directly with ``rust_core.simulate``."""
    import numpy as np
    import pyarrow as pa

    import rust_core
    from pipeline.study import load_study

    study = load_study(str(study_path), games)
    tables = []
    for cell in study.cells:
        batch = rust_core.simulate(
            study.game, cell.variant, cell.agents, study.seed, 0, cell.games, pair_seats=study.pair_seats
        )
        table = pa.Table.from_batches([batch])
        table = table.append_column("n_players", pa.array(np.full(table.num_rows, cell.n_players, np.int32)))
        tables.append(table.append_column("cell", pa.array([cell.id] * table.num_rows, pa.string())))
    table = pa.concat_tables(tables)
    return table.sort_by([("cell", "ascending"), ("game_index", "ascending"), ("player", "ascending")])


@pytest.fixture
def read_run():
    return _read_run


@pytest.fixture
def expected_run():
    return _expected_run
