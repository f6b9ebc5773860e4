"""Batch sizing: whole seat rotations, speed-based sizes, smaller batches at the end."""

from __future__ import annotations

from pipeline.plan import BatchSizer, cut
from pipeline.study import load_study


def test_batch_sizes(write_study):
    study = load_study(str(write_study(games=10_000, players="[3]")))
    cell = study.cells[0]
    sizer = BatchSizer(study, target_seconds=2.0)
    assert sizer.size(cell) == 3  # one seat rotation until the speed is known (agents may be slow)
    sizer.observe(cell.id, 300, 0.1)  # 3000 games/s
    assert sizer.size(cell) == 6000
    sizer.observe(cell.id, 100, 0.1)  # running estimate: (3000 + 1000) / 2
    assert sizer.size(cell) == 4002
    # near the end: a quarter of the work left per worker pair, but never under a quarter of the target
    assert sizer.size(cell, remaining_total=12_000, concurrency=2) == 3000
    assert sizer.size(cell, remaining_total=100, concurrency=2) == 1002
    assert BatchSizer(study, fixed_games=10).size(cell) == 12
    unpaired = load_study(str(write_study(games=100, pair_seats=False, filename="u.toml")))
    assert BatchSizer(unpaired, fixed_games=10).size(unpaired.cells[0]) == 10
    batch = cut(cell, (30, 40), 18)
    assert (batch.start, batch.end, batch.games) == (30, 40, 10)
