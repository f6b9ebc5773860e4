"""The resume scan: which batch files count, and what is removed."""

from __future__ import annotations

import pyarrow as pa

import rust_core
from pipeline import sink
from pipeline.distribute import play_batch
from pipeline.plan import Batch
from pipeline.study import load_study


def _write(out, study, cell_id, start, end):
    cell = study.cell(cell_id)
    table, _, _ = play_batch(
        study.game, cell.variant, cell.agents, study.seed, start, end - start, study.pair_seats
    )
    return sink.write_batch(out, Batch(cell_id, start, end), table)


def test_scan_keeps_good_files_and_removes_broken_overlapping_and_temporary_ones(write_study, tmp_path):
    study = load_study(str(write_study(games=40)))
    out = tmp_path / "run"
    good = _write(out, study, "p2-official", 0, 10)
    _write(out, study, "p2-official", 10, 20)
    overlap = _write(out, study, "p2-official", 14, 24)  # sorts after 10-20 and overlaps it
    shifted = _write(out, study, "p2-no_dirk", 0, 10)
    wrong_range = shifted.with_name(sink.part_name(2, 12))  # right row count, wrong games
    shifted.rename(wrong_range)
    foreign = out / "data" / "cell=p9-other" / sink.part_name(0, 5)
    foreign.parent.mkdir(parents=True)
    foreign.write_bytes(b"not ours")
    tmp = good.parent / ".part-000000000020-000000000030.parquet.99.tmp"
    tmp.write_bytes(b"partial")
    result = sink.scan(out, study)
    assert result.covered == {"p2-official": [(0, 10), (10, 20)], "p2-no_dirk": []}
    reasons = {p.name: why for p, why in result.removed}
    assert reasons[overlap.name] == "overlaps another batch file"
    assert reasons[wrong_range.name].startswith("game_index 0..9")
    assert reasons[tmp.name] == "unfinished temporary file"
    assert foreign.exists() and good.exists() and not overlap.exists() and not tmp.exists()
    assert result.games("p2-official") == 20


def test_written_file_has_simulate_columns_plus_int32_n_players(write_study, tmp_path):
    study = load_study(str(write_study(games=4, players="[3]")))
    cell = study.cells[0]
    path = _write(tmp_path, study, cell.id, 0, 3)
    assert path.name == "part-000000000000-000000000003.parquet"
    assert sink.check_file(path, 0, 3, 3) is None
    assert sink.check_file(path, 0, 3, 2) == "9 rows, expected 6"
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    batch = rust_core.simulate(study.game, cell.variant, cell.agents, study.seed, 0, 3, pair_seats=True)
    assert table.column_names == batch.schema.names + ["n_players"]
    assert table["n_players"].type == pa.int32() and set(table["n_players"].to_pylist()) == {3}
