"""Precision of a run so far: the 95% half-width of each cell's start-player advantage.

``balancelab run STUDY --precision 0.005`` keeps adding batches until every value of
:func:`max_halfwidths` is at most the target.
"""

from __future__ import annotations

import math
import pathlib

from .load import open_run
from .stats.seats import start_advantage

__all__ = ["max_halfwidths"]


def max_halfwidths(run_dir: pathlib.Path | str) -> dict[str, float]:
    """Per cell id: the 95% interval half-width of the start-player advantage (``inf``
    for a cell without games yet). Uses the deal as the unit when the study pairs seats."""
    run = open_run(run_dir, allow_partial=True)
    study = run.manifest["study"]
    paired = bool(study.get("pair_seats", False))
    ids = [str(c["id"]) for c in study["cells"]]
    out = {cid: math.inf for cid in ids}
    try:
        lf = run.scan()
    except FileNotFoundError:
        return out
    rows = lf.select("cell", "game_index", "deal_index", "seat", "win").collect()
    for (cid,), part in rows.partition_by("cell", as_dict=True).items():
        if cid in out and part.height:
            hw = start_advantage(part, paired=paired).halfwidth
            out[cid] = hw if math.isfinite(hw) else math.inf
    return out
