"""Strength and speed of one agent against another, in paired games.

    python -m bench.mcts_strength GAME SPEC [--against greedy] [--games 400] [--workers 2]
                                  [--seed 11] [--variant JSON]

Plays `--games` 2-player games of GAME with seats paired (every deal once in each seat order)
on `--workers` processes, and prints SPEC's win share (ties = half) with a 95% interval over
deals (the deal is the unit), the CPU seconds SPEC spent per searched decision (thread CPU time
inside its own choices over its decisions with more than one legal action, measured in these
games by the engine), and writes strength-<GAME>-<SPEC>.json into `--out`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.common import add_out, write


def play(game: str, variant: dict, agents: list[str], seed: int, start: int, count: int) -> tuple:
    """One chunk: (win of agents[0] per game, what each agent spent: a list of ``AgentClock``)."""
    import rust_core

    spec = rust_core.BatchSpec(game, variant, agents, seed, pair_seats=True)
    batch, clocks = spec.simulate_timed(start, count)
    rows = batch.to_pydict()
    wins = [w for w, p in zip(rows["win"], rows["player"], strict=True) if p == 0]
    return wins, clocks


def summed(chunks: list[list[Any]]) -> list[Any]:
    """Per agent, the ``AgentClock`` of all chunks together."""
    import rust_core

    total = rust_core.AgentClock
    return [
        total(sum(c.cpu_seconds for c in cs), sum(c.decisions for c in cs), sum(c.searched for c in cs))
        for cs in zip(*chunks, strict=True)
    ]


def match(
    pool: ProcessPoolExecutor,
    game: str,
    agents: list[str],
    games: int,
    seed: int,
    start: int = 0,
    variant: dict | None = None,
) -> list[float]:
    """Win shares of agents[0] in paired games `start .. start + games` of `variant` (default: the
    game's defaults), in chunks on `pool`."""
    return timed_match(pool, game, agents, games, seed, start, variant)[0]


def timed_match(
    pool: ProcessPoolExecutor,
    game: str,
    agents: list[str],
    games: int,
    seed: int,
    start: int = 0,
    variant: dict | None = None,
    chunk: int = 10,
) -> tuple[list[float], list[Any]]:
    """:func:`match`'s win shares and what each agent spent in those games (``AgentClock``s), in
    chunks of `chunk` games."""
    sizes = [(start + s, min(chunk, games - s)) for s in range(0, games, chunk)]
    jobs = [pool.submit(play, game, variant or {}, agents, seed, s, n) for s, n in sizes]
    wins: list[float] = []
    clocks = []
    for job in jobs:
        w, c = job.result()
        wins += w
        clocks.append(c)
    return wins, summed(clocks)


#: The normal quantile of every 95% interval here (and of `pool_seeds.py`'s pooled one).
Z95 = 1.96


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean of `values` with a 95% normal interval (clipped to [0, 1])."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def interval(wins: list[float]) -> tuple[float, float, float]:
    """Mean win share with a 95% normal interval over deals (pairs of consecutive games)."""
    return mean_ci([(wins[i] + wins[i + 1]) / 2 for i in range(0, len(wins) - 1, 2)])


def by_position(wins: list[float]) -> list[tuple[float, float, float]]:
    """Win share of agents[0] at dealt position 0 and at position 1 (paired games alternate
    them), each with a 95% normal interval over its games."""
    return [mean_ci(wins[0::2]), mean_ci(wins[1::2])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("spec")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--variant", default="{}", help="variant options as JSON (default: the game's defaults)")
    add_out(ap, "mcts-strength")
    args = ap.parse_args()
    import rust_core

    variant = json.loads(args.variant)
    agents = [args.spec, args.against]
    chunk = 20
    starts = range(0, args.games, chunk)
    t0 = time.perf_counter()
    wins: list[float] = []
    clocks = []
    with ProcessPoolExecutor(args.workers) as pool:
        jobs = [
            pool.submit(play, args.game, variant, agents, args.seed, s, min(chunk, args.games - s))
            for s in starts
        ]
        try:
            for job in jobs:
                w, c = job.result()
                wins += w
                clocks.append(c)
                if len(wins) >= 4:
                    share, lo, hi = interval(wins)
                    line = f"  {len(wins)} games: {share:.3f} [{lo:.3f}, {hi:.3f}]"
                    print(line, file=sys.stderr, flush=True)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # fail now, not after every queued chunk
            raise
    share, lo, hi = interval(wins)
    per_move = summed(clocks)[0].ms_per_searched / 1000
    print(
        f"{args.game}: {args.spec} vs {args.against}: win share {share:.3f} [{lo:.3f}, {hi:.3f}] "
        f"in {len(wins)} games ({len(wins) // 2} deals); {per_move * 1000:.1f} CPU ms per searched decision; "
        f"{time.perf_counter() - t0:.0f} s wall"
    )
    name = f"strength-{args.game}-{args.spec.replace(':', '_').replace('=', '').replace(',', '_')}"
    figures = {
        "game": args.game,
        "spec": args.spec,
        "against": args.against,
        "games": len(wins),
        "win_share": round(share, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "seconds_per_decision": round(per_move, 5),
        "variant": variant,
        "mcts_version": rust_core.agent_version("mcts", args.game),
    }
    print(f"wrote {write(name, figures, args.out)}")


if __name__ == "__main__":
    main()
