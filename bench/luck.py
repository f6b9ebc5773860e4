"""Luck-corrected outcomes (issue 52): variance saved, unbiasedness and cost, per game and agent.

Per game, ``--deals`` deals of 2-player self-play of ``--agent`` (paired seats) are played twice,
without and with the luck measurement (``rust_core.simulate(..., luck=True)``; the games are the
same, which the script checks). Per deal, the start player's win share raw and corrected
(``win - luck``). Printed and recorded per game: the start-player advantage raw and corrected with
95% intervals (Student-t over deals), their paired difference with its interval (it should hold
0: the correction is unbiased), the per-deal variances and their ratio (the factor of deals saved
for the same interval width), the share of the outcome's variance the measured luck explains, and
the process-CPU cost of the measurement (with / without).

    python -m bench.luck [GAME ...] [--agent greedy] [--deals 2000]

Writes luck-<agent>.json into ``--out``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl
from scipy import stats

import rust_core
from bench.common import add_out, write

GAMES = ("alhambra", "hiroba", "maharaja", "taluva", "titania")


def _ci(values: np.ndarray) -> list[float]:
    m, se = float(values.mean()), float(values.std(ddof=1) / np.sqrt(values.size))
    q = float(stats.t.ppf(0.975, values.size - 1))
    return [m, m - q * se, m + q * se]


def _timed(game: str, agents: list[str], deals: int, luck: bool) -> tuple[pl.DataFrame, float]:
    t0 = time.process_time()
    batch = rust_core.simulate(game, {}, agents, 2026, 0, 2 * deals, pair_seats=True, luck=luck)
    rows = pl.from_arrow(batch)
    assert isinstance(rows, pl.DataFrame)
    return rows, time.process_time() - t0


def measure(game: str, agent: str, deals: int) -> dict[str, object]:
    """One game's figures (see the module docstring)."""
    agents = [agent, agent]
    plain, cpu_plain = _timed(game, agents, deals, False)
    rows, cpu_luck = _timed(game, agents, deals, True)
    assert plain.equals(rows.drop("luck")), f"{game}: measuring luck changed the games"
    start = (
        rows.filter(pl.col("seat") == 0)
        .group_by("deal_index")
        .agg(pl.col("win").mean().alias("raw"), (pl.col("win") - pl.col("luck")).mean().alias("corrected"))
    )
    raw, corrected = start["raw"].to_numpy() - 0.5, start["corrected"].to_numpy() - 0.5
    explained = 1 - corrected.var(ddof=1) / raw.var(ddof=1)
    return {
        "deals": deals,
        "raw": _ci(raw),
        "corrected": _ci(corrected),
        "difference": _ci(raw - corrected),
        "variance_raw": float(raw.var(ddof=1)),
        "variance_corrected": float(corrected.var(ddof=1)),
        "deals_saved_factor": float(raw.var(ddof=1) / corrected.var(ddof=1)),
        "variance_explained_by_luck": float(explained),
        "cpu_ratio": cpu_luck / cpu_plain,
    }


def _pts(v: list[float], digits: int = 1) -> str:
    return f"{100 * v[0]:+.{digits}f} [{100 * v[1]:+.{digits}f}, {100 * v[2]:+.{digits}f}]"


def _line(f: dict[str, object]) -> str:
    raw, corrected, diff = (f[k] for k in ("raw", "corrected", "difference"))
    assert isinstance(raw, list) and isinstance(corrected, list) and isinstance(diff, list)
    return (
        f"raw {_pts(raw)}  corrected {_pts(corrected)}  difference {_pts(diff, 2)}  "
        f"deals saved x{f['deals_saved_factor']:.2f}  CPU x{f['cpu_ratio']:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--deals", type=int, default=2000)
    add_out(ap, "luck")
    args = ap.parse_args()
    figures: dict[str, object] = {"agent": args.agent}
    for game in args.games:
        f = measure(game, args.agent, args.deals)
        figures[game] = f
        print(f"{game:9s} {_line(f)}", flush=True)
    safe = args.agent.replace(":", "_").replace("=", "")
    print(write(f"luck-{safe}", figures, args.out))


if __name__ == "__main__":
    main()
