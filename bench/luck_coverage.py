"""Coverage of the luck-corrected start-player advantage on coin, where the truth is known.

Each replication plays coin (2 players, random agents, paired seats, its own seed) with the start
player's win probability ``first`` set, so the true start-player advantage is ``first`` − 1/2, and
records each player's luck (``simulate(..., luck=True)``). Per deal, the start player's mean win
share raw and corrected (win − luck). Printed and recorded, each with its Wilson 95% interval over
the replications:

* the coverage of the corrected fixed-sample 95% interval (Student t over the deals) at ``--deals``;
* the coverage of the corrected 95% confidence sequence at every look (every ``--every`` deals);
* how often the raw − corrected interval holds 0 (the correction is unbiased), and the mean
  variance ratio raw / corrected (how many times fewer deals the corrected estimate needs).

``--estimator fitted`` reads ``win − β·luck`` instead, each deal's ``β`` fitted on the deals
before it (:func:`analysis.estimator.predictable_slopes`: a look at deal k reads exactly what a
study stopped there would). ``--noise σ`` adds to each deal's measured luck an independent normal
term of standard deviation ``σ`` (own seeded stream; mean zero, so every estimate stays unbiased):
a stand-in for an evaluation that sees chance through noise, where ``corrected`` costs deals.

    python -m bench.luck_coverage [--reps 400] [--deals 500] [--every 50] [--first 0.6]
        [--estimator corrected|fitted] [--noise 0]

Writes luck-coverage.json (luck-coverage-<estimator>-noise<σ>.json with either set) into ``--out``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl
from statsmodels.stats.proportion import proportion_confint

import rust_core
from analysis.estimator import luck_units, predictable_slopes
from analysis.stats.intervals import mean_ci
from analysis.stats.sequential import confidence_sequence
from bench.common import add_out, write


def _per_deal(first: float, seed: int, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """The start player's win share per deal minus the fair share, and their luck per deal."""
    batch = rust_core.simulate(
        "coin", {"first": first}, ["random", "random"], seed, 0, 2 * deals, pair_seats=True, luck=True
    )
    rows = pl.from_arrow(batch)
    assert isinstance(rows, pl.DataFrame)
    per = luck_units(rows, paired=True)
    return per["win"].to_numpy() - 0.5, per["luck"].to_numpy()


def _replication(
    first: float, seed: int, deals: int, every: int, estimator: str = "corrected", noise: float = 0.0
) -> dict[str, float]:
    raw, luck = _per_deal(first, seed, deals)
    luck = luck + np.random.default_rng([seed, 52]).normal(0.0, noise, luck.size) if noise else luck
    beta = predictable_slopes(raw, luck) if estimator == "fitted" else 1.0
    corrected = raw - beta * luck
    truth = first - 0.5
    fixed = mean_ci(corrected)
    seq = all(
        (e := confidence_sequence(corrected[:k])).lo <= truth <= e.hi for k in range(every, deals + 1, every)
    )
    diff = mean_ci(raw - corrected)
    return {
        "fixed": float(fixed.lo <= truth <= fixed.hi),
        "sequence": float(seq),
        "unbiased": float(diff.lo <= 0 <= diff.hi),
        "ratio": float(raw.var(ddof=1) / corrected.var(ddof=1)),
    }


def _rate(hits: list[float], name: str, reps: int) -> dict[str, float]:
    k = int(sum(hits))
    lo, hi = proportion_confint(k, reps, method="wilson")
    print(f"{name}: {k}/{reps} = {k / reps:.3f} [{lo:.3f}, {hi:.3f}]")
    return {"rate": k / reps, "lo": float(lo), "hi": float(hi)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--every", type=int, default=50, help="deals between looks")
    ap.add_argument("--first", type=float, default=0.6, help="the start player's win probability")
    ap.add_argument("--estimator", choices=("corrected", "fitted"), default="corrected")
    ap.add_argument("--noise", type=float, default=0.0, help="sd of noise added to each deal's luck")
    add_out(ap, "luck-coverage")
    args = ap.parse_args()
    t0 = time.process_time()
    runs = [
        _replication(args.first, rep, args.deals, args.every, args.estimator, args.noise)
        for rep in range(args.reps)
    ]
    keys = ("reps", "deals", "every", "first", "estimator", "noise")
    figures: dict[str, object] = {k: getattr(args, k) for k in keys}
    for key, name in (
        ("fixed", "corrected fixed-sample interval covers the truth"),
        ("sequence", "corrected confidence sequence covers the truth at every look"),
        ("unbiased", "raw - corrected interval holds 0"),
    ):
        figures[key] = _rate([r[key] for r in runs], name, args.reps)
    figures["deals_saved_mean"] = float(np.mean([r["ratio"] for r in runs]))
    figures["cpu_seconds"] = time.process_time() - t0
    saved = figures["deals_saved_mean"]
    print(f"deals saved (variance raw / corrected), mean over replications: {saved:.2f}")
    plain = args.estimator == "corrected" and not args.noise
    print(
        write(
            "luck-coverage" if plain else f"luck-coverage-{args.estimator}-noise{args.noise:g}",
            figures,
            args.out,
        )
    )


if __name__ == "__main__":
    main()
