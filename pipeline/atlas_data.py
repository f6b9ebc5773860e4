"""The atlas' data beside its page: a compact copy of every game's run, and a replay check.

``balancelab atlas`` writes the page into ``DIR`` and, beside it, ``DIR/data/``: the atlas
directory in small form, so that anyone can re-derive every number of the page
(``balancelab atlas --report-only --from DIR/data``) and check the games were played as recorded
(``balancelab atlas --verify N --from DIR/data``). :func:`export` makes it:

* ``data/costs.json`` and ``data/atlas.json``: the measured costs and the plan and spending;
* ``data/<game>/manifest.json``: the run's manifest as written (study, seeds, rules and agent
  versions, hashes, git commit);
* ``data/<game>/data/cell=<id>/``: one batch file per cell holding every game of the cell in the
  columns the atlas page reads (:data:`COLUMNS`: game, deal, player, seat order, agent, score,
  tie-break, rank, win share, turns, cap; not the game's own columns nor the luck, which only the
  games' full reports read: they are rendered from the run directories), written and recorded as
  the run's own batches are (its SHA-256 in ``batches.jsonl``), so the copy is an ordinary,
  verified run directory. About a megabyte for the five games.

:func:`verify` replays ``n`` games of every cell (indices drawn from a fixed seed, the first and
last always among them) with the engine and compares every column with the stored rows.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

import rundir
from rundir import batches

from .distribute import batch_spec, read_files

__all__ = ["DATA_DIR", "Mismatch", "export", "verify"]

#: The folder beside the page.
DATA_DIR = "data"
#: The atlas directory's files copied as they are.
STATE_FILES = ("costs.json", "atlas.json")
#: The columns kept: what the atlas page is computed from.
COLUMNS = rundir.columns.COMPACT
#: Seed of the replayed game indices.
VERIFY_SEED = 53


def _cell_table(run: Path, cell_id: str, study_hash: str) -> pa.Table | None:
    """Every verified row of one cell, in (game index, player) order (None: no games)."""
    check = rundir.check_run(run, study_hash, [cell_id])
    parts = [batches.read_table(run, rec.path) for rec in check.good if rec.cell == cell_id]
    if not parts:
        return None
    table = pa.concat_tables(parts, promote_options="default")
    return table.sort_by([(rundir.columns.GAME_INDEX, "ascending"), (rundir.columns.PLAYER, "ascending")])


def _ranges(table: pa.Table) -> list[tuple[int, int]]:
    """The contiguous game-index ranges ``[start, end)`` a cell's rows hold."""
    games = sorted(set(table[rundir.columns.GAME_INDEX].to_pylist()))
    out: list[tuple[int, int]] = []
    for g in games:
        if out and out[-1][1] == g:
            out[-1] = (out[-1][0], g + 1)
        else:
            out.append((g, g + 1))
    return out


def _write_cell(dest: Path, study_hash: str, cell: rundir.Cell, table: pa.Table) -> None:
    """The cell's rows as one batch per contiguous range of games (one for a complete cell)."""
    table = table.select(list(COLUMNS))
    index = table[rundir.columns.GAME_INDEX]
    for start, end in _ranges(table):
        part = table.filter(pc.and_(pc.greater_equal(index, start), pc.less(index, end)))
        rundir.write_batch(dest, study_hash, cell.id, start, end, cell.n_players, part, compact=True)


def export(out: Path, games: Iterable[str], dest: Path, *, allow_partial: bool = False) -> Path:
    """Writes ``dest`` (replaced whole) from the atlas directory ``out`` (module docstring); every
    cell must be complete (``rundir.IncompleteRun`` naming what is missing otherwise) unless
    ``allow_partial``: then the games played so far, as the page over them was. Returns ``dest``."""
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in STATE_FILES:
        if (out / name).exists():
            shutil.copyfile(out / name, tmp / name)
    for game in games:
        run = out / game
        verified = rundir.verify_run(run)
        verified.require_complete(allow_partial)
        study = verified.manifest.study
        (tmp / game).mkdir()
        shutil.copyfile(run / rundir.MANIFEST, tmp / game / rundir.MANIFEST)
        for cell in study.cells:
            table = _cell_table(run, cell.id, study.hash())
            if table is not None:
                _write_cell(tmp / game, study.hash(), cell, table)
    shutil.rmtree(dest, ignore_errors=True)
    tmp.replace(dest)
    return dest


@dataclass(frozen=True)
class Mismatch:
    """A replayed game whose rows differ from the stored ones."""

    game: str
    cell: str
    game_index: int
    why: str


def _indices(games: int, n: int, rng: random.Random) -> list[int]:
    if games <= n:
        return list(range(games))
    inner = rng.sample(range(1, games - 1), max(n - 2, 0)) if n > 2 else []
    return sorted({0, games - 1, *inner})[:n] if n >= 2 else [rng.randrange(games)]


def _compare(stored: pa.Table, replayed: pa.Table) -> str | None:
    if stored.num_rows != replayed.num_rows:
        return f"{stored.num_rows} stored rows, the replay has {replayed.num_rows}"
    for name in replayed.column_names:
        if name in stored.column_names and stored[name].to_pylist() != replayed[name].to_pylist():
            return f"column {name}: stored {stored[name].to_pylist()}, replayed {replayed[name].to_pylist()}"
    return None


def verify(data: Path, games: Iterable[str], n: int) -> tuple[int, list[Mismatch]]:
    """Replays ``n`` games of every cell of every game's run under ``data`` and compares every
    stored column with the engine's: (games replayed, mismatches)."""
    rng = random.Random(VERIFY_SEED)
    played, bad = 0, []
    for game in games:
        run = data / game
        verified = rundir.verify_run(run)
        study = verified.manifest.study
        text = {p: b.decode("utf-8") for p, b in read_files(study).items()}
        for cell in study.cells:
            table = _cell_table(run, cell.id, study.hash())
            if table is None:
                continue
            spec = batch_spec(study, cell)
            spec = replace(spec, files=text) if text else spec
            held = [i for a, b in _ranges(table) for i in range(a, b)]
            for i in (held[k] for k in _indices(len(held), n, rng)):
                replayed = spec.simulate(i, 1)
                stored = table.filter(pc.equal(table[rundir.columns.GAME_INDEX], i))
                why = _compare(stored, replayed)
                played += 1
                if why is not None:
                    bad.append(Mismatch(game, cell.id, i, why))
    return played, bad
