"""Coverage under repeated looks on coin: the fixed-sample interval against the confidence sequence.

A loop that adds games and looks after every round (``--precision``, ``fairest``) needs intervals
that hold the true value at every look at once. Each replication plays coin (2 players, random
agents, paired seats, its own seed) with the start player's win probability ``first`` set, so the
true start-player advantage is known (``first`` − 1/2), and looks after every ``--every`` deals up to
``--deals``. A replication is covered when the interval held the truth at every look. Printed and
recorded: the coverage of the fixed-sample 95% interval (clustered Wilson, what a report prints for
a fixed design) and of the 95% confidence sequence (:mod:`analysis.stats.sequential`, what the
adaptive loops read), each with its Wilson 95% interval over the replications, and the width ratio
at the last look.

    python -m bench.anytime_coverage [--reps 400] [--deals 2000] [--every 50] [--first 0.55]

Writes anytime-coverage.json into ``--out``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl
from statsmodels.stats.proportion import proportion_confint

import rust_core
from analysis.stats.seats import start_advantage, start_advantage_sequence
from bench.common import add_out, write


def _covered(rows: pl.DataFrame, truth: float, every: int, deals: int) -> tuple[bool, bool, float]:
    """(fixed covered at every look, sequence covered at every look, width ratio at the last look)."""
    fixed = seq = True
    ratio = float("nan")
    for k in range(every, deals + 1, every):
        part = rows.filter(pl.col("deal_index") < k)
        a, b = start_advantage(part, paired=True), start_advantage_sequence(part, paired=True)
        fixed &= a.lo <= truth <= a.hi
        seq &= b.lo <= truth <= b.hi
        ratio = b.halfwidth / a.halfwidth
    return fixed, seq, ratio


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--every", type=int, default=50, help="deals between looks")
    ap.add_argument("--first", type=float, default=0.55, help="the start player's win probability")
    add_out(ap, "anytime-coverage")
    args = ap.parse_args()
    t0 = time.process_time()
    truth = args.first - 0.5
    hits = np.zeros((args.reps, 2), dtype=bool)
    ratios = []
    for rep in range(args.reps):
        coin = {"first": args.first}
        batch = rust_core.simulate(
            "coin", coin, ["random", "random"], rep, 0, 2 * args.deals, pair_seats=True
        )
        rows = pl.from_arrow(batch)
        assert isinstance(rows, pl.DataFrame)
        fixed, seq, ratio = _covered(rows, truth, args.every, args.deals)
        hits[rep] = (fixed, seq)
        ratios.append(ratio)
    figures = {
        "reps": args.reps,
        "deals": args.deals,
        "every": args.every,
        "first": args.first,
        "looks": args.deals // args.every,
    }
    for i, name in enumerate(("fixed_sample", "confidence_sequence")):
        k = int(hits[:, i].sum())
        lo, hi = proportion_confint(k, args.reps, method="wilson")
        figures[name] = {"coverage": k / args.reps, "lo": float(lo), "hi": float(hi)}
        print(f"{name}: covered at every look in {k}/{args.reps} = {k / args.reps:.3f} [{lo:.3f}, {hi:.3f}]")
    figures["width_ratio_last_look"] = float(np.nanmean(ratios))
    figures["cpu_seconds"] = time.process_time() - t0
    print(f"confidence sequence / fixed width at {args.deals} deals: {np.nanmean(ratios):.2f}")
    print(write("anytime-coverage", figures, args.out))


if __name__ == "__main__":
    main()
