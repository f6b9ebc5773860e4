"""Per-game defaults of `mcts`: one step of coordinate search from the version-2 settings.

    python bench/tune_mcts.py [--games 80] [--iters 200] [--workers 2] [--only GAME ...]

For every game (2 players, default rules) and every candidate change of one setting (`c`,
`bias`, `widen`, `rollout`), plays `--games` paired games of `mcts:iters=N,<change>` against
`mcts:iters=N` with the version-2 settings (`c=0.2,bias=10,widen=0.5,widen_c=2,rollout=greedy`,
written out so that the comparison does not move when the defaults do) and prints the
candidate's win share with a 95% interval over deals. A game's default changes only where a
candidate's whole interval lies above 0.5 (the best such candidate); otherwise the version-2
setting stays. Writes bench/results/tune-mcts.json; the chosen defaults are the `MctsDefaults`
of each game's `Evaluate` implementation (rust_core/src/games/<game>/).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write  # noqa: E402
from mcts_strength import interval, play  # noqa: E402

GAMES = ["alhambra", "hiroba", "taluva", "titania", "maharaja"]
BASE = "c=0.2,bias=10,widen=0.5,widen_c=2,rollout=greedy"
CANDIDATES = ["c=0.1", "c=0.5", "bias=3", "bias=30", "widen=0.3", "widen=0.7", "rollout=egreedy"]


def spec(iters: int, change: str | None) -> str:
    """The baseline spec with one setting replaced by `change`."""
    settings = dict(kv.split("=") for kv in BASE.split(","))
    if change:
        key, value = change.split("=")
        settings[key] = value
    return f"mcts:iters={iters}," + ",".join(f"{k}={v}" for k, v in settings.items())


def match(pool: ProcessPoolExecutor, game: str, agents: list[str], games: int, seed: int) -> list[float]:
    """Win shares of agents[0] in `games` paired games, played in chunks on `pool`."""
    chunk = 10
    jobs = [pool.submit(play, game, {}, agents, seed, s, min(chunk, games - s)) for s in range(0, games, chunk)]
    wins: list[float] = []
    for job in jobs:
        wins += job.result()[0]
    return wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=80, help="paired games per candidate (default 80)")
    ap.add_argument("--iters", type=int, default=200, help="MCTS iterations per decision (default 200)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--only", nargs="*", default=GAMES, choices=GAMES, help="games to tune (default all)")
    args = ap.parse_args()
    results: dict[str, dict] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for game in args.only:
            rows = {}
            for change in CANDIDATES:
                wins = match(pool, game, [spec(args.iters, change), spec(args.iters, None)], args.games, args.seed)
                share, lo, hi = interval(wins)
                rows[change] = {"win_share": round(share, 4), "ci95": [round(lo, 4), round(hi, 4)]}
                print(
                    f"{game:9} {change:16} {share:.3f} [{lo:.3f}, {hi:.3f}]  ({time.perf_counter() - t0:.0f} s)",
                    flush=True,
                )
            better = {c: r for c, r in rows.items() if r["ci95"][0] > 0.5}
            chosen = max(better, key=lambda c: better[c]["win_share"]) if better else None
            print(f"{game:9} chosen: {chosen or 'the version-2 settings'}", flush=True)
            results[game] = {"candidates": rows, "chosen": chosen}
    figures = {"iters": args.iters, "games": args.games, "baseline": BASE, "seed": args.seed, "games_tuned": results}
    print(f"wrote {write('tune-mcts', figures)}")
    print(json.dumps({g: r["chosen"] for g, r in results.items()}))


if __name__ == "__main__":
    main()
