"""Calibration of the skill-ladder verdicts on synthetic ladders with a known truth (``coin``).

Each replication is one ladder of five rungs at fixed Elo (0, 200, 350, 500, 650; the top step
150 Elo). Rung r plays ``deals`` paired deals of ``coin`` with seat win chances
``[p_r, 1 − p_r]``, ``p_r = 0.45 + slope · (elo_r − 650)``: one ``rust_core.simulate`` call per
rung, all rungs of a replication with the same seed, so they play the same deals (common random
numbers, as the rungs of a real ladder share their deal indices), or, in the scenarios marked
independent, each rung with its own seed (coin rungs with equal chances and shared deals would play
identical games, which no real ladder does). The rows go through the same
functions the reports use (``start_advantage`` per rung, :func:`analysis.skill.convergence` with
the per-deal values, the rungs' Elo taken as known). Figures:

* ``coverage``: share of replications whose slope interval holds the true slope (target 93–97%);
* ``converged``: share declared *converged* (target ≤ 5% where the true slope times the top
  step equals the threshold; the flat scenario shows the power to declare it where it holds);
* ``moving``: share declared *still moving*.

Usage: ``python -m bench.calibrate_trend [--reps 1000]`` writes
``calibrate-trend.json`` into ``--out``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import polars as pl

import rust_core
from analysis.skill import LadderPoint, Units, convergence
from analysis.stats.intervals import unit_means
from analysis.stats.seats import start_advantage
from bench.common import add_out, write

ELO = (0.0, 200.0, 350.0, 500.0, 650.0)
TOP_P = 0.45


@dataclass(frozen=True)
class Scenario:
    name: str
    slope: float  # per Elo point, in win-rate share
    deals: int
    threshold: float
    #: All rungs play the same deals (same seed); False: each rung its own (independent rungs).
    shared: bool = True


def _rung(p: float, deals: int, seed: int, elo: float) -> tuple[LadderPoint, Units]:
    batch = rust_core.simulate("coin", {"p": [p, 1 - p]}, ["random"] * 2, seed, 0, 2 * deals, pair_seats=True)
    rows = pl.from_arrow(batch)
    assert isinstance(rows, pl.DataFrame)
    a = start_advantage(rows, paired=True)
    u = unit_means(rows.filter(pl.col("seat") == 0), "win", paired=True)
    point = LadderPoint("r", "r", elo, elo, elo, a.estimate, a.lo, a.hi, a.n_units)
    return point, (u["value"].to_numpy().astype(float), u["unit"].to_numpy())


def replicate(sc: Scenario, reps: int, seed: int = 1) -> dict[str, float]:
    """Runs ``reps`` ladders of scenario ``sc``; returns its shares (module docstring)."""
    covered = converged = moving = 0
    for rep in range(reps):
        base = seed * 100_003 + rep * 17
        data = [
            _rung(TOP_P + sc.slope * (e - ELO[-1]), sc.deals, base + (0 if sc.shared else i + 1), e)
            for i, e in enumerate(ELO)
        ]
        c = convergence([d[0] for d in data], sc.threshold, [d[1] for d in data])
        assert c is not None and c.slope is not None
        covered += c.slope.lo <= sc.slope <= c.slope.hi
        converged += c.status == "converged"
        moving += c.status == "moving"
    return {
        "reps": reps,
        "coverage": covered / reps,
        "converged": converged / reps,
        "moving": moving / reps,
    }


SCENARIOS = (
    Scenario("moving: +1 point per 100 Elo, 1,000 deals per rung, threshold 1 point", 1e-4, 1000, 0.01),
    Scenario(
        "at the threshold: slope x top step = 2 points, 10,000 deals, threshold 2", 0.02 / 150, 10000, 0.02
    ),
    Scenario(
        "at the threshold, independent rungs: slope x top step = 2 points, 10,000 deals, threshold 2",
        0.02 / 150,
        10000,
        0.02,
        shared=False,
    ),
    Scenario(
        "flat, independent rungs: slope 0, 10,000 deals per rung, threshold 2 points", 0.0, 10000, 0.02, False
    ),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    add_out(ap, "calibrate-trend")
    args = ap.parse_args()
    out = {}
    for i, sc in enumerate(SCENARIOS):
        t0 = time.perf_counter()
        res = replicate(sc, args.reps, seed=i + 1)
        res["seconds"] = round(time.perf_counter() - t0, 1)
        out[sc.name] = res
        lo, hi = binomial_band(res["coverage"], args.reps)
        print(f"{sc.name}: {res} (coverage 95% band {lo:.3f}-{hi:.3f})", flush=True)
    write("calibrate-trend", {"elo": list(ELO), "top_p": TOP_P, "scenarios": out}, args.out)


def binomial_band(share: float, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a share of ``n`` replications (how exact a calibration figure is)."""
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(share * n, n, method="wilson")
    return float(lo), float(hi)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
