"""Today's `mcts` against the version-1 search (`mcts1`) at equal CPU time per decision.

    python bench/equal_time.py GAME [--old-iters 300] [--games 400] [--workers 2] [--seed 23]

1. Calibration (one process, nothing else running): seconds per searched decision of
   `mcts1:iters=N` and of `mcts:iters=N` against greedy on the same `--calibration` games;
   today's budget M = N x (old time / new time), then measured again at M (one correction).
2. The match: `--games` paired 2-player games of `mcts:iters=M` against `mcts1:iters=N` on
   `--workers` processes; prints today's win share with a 95% interval over deals.

Writes bench/results/equal-time-<GAME>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write  # noqa: E402
from mcts_strength import interval, play  # noqa: E402
from tune_mcts import match  # noqa: E402


def per_decision(game: str, spec: str, games: int, seed: int) -> float:
    """Seconds per searched decision of `spec` against greedy (the greedy moves included)."""
    _, seconds, decisions = play(game, {}, [spec, "greedy"], seed, 0, games)
    return seconds / max(decisions, 1)


def calibrate(game: str, old_iters: int, games: int, seed: int) -> tuple[int, float, float]:
    """Today's iterations costing what `mcts1:iters=old_iters` costs: (M, old s, new s at M)."""
    old = per_decision(game, f"mcts1:iters={old_iters}", games, seed)
    iters = old_iters
    for _ in range(2):
        new = per_decision(game, f"mcts:iters={iters}", games, seed)
        msg = f"  calibration: mcts1 {old * 1e3:.1f} ms, mcts:iters={iters} {new * 1e3:.1f} ms"
        print(msg, file=sys.stderr, flush=True)
        iters = max(1, round(iters * old / new))
    return iters, old, per_decision(game, f"mcts:iters={iters}", games, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--old-iters", type=int, default=300)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--calibration", type=int, default=6, help="games per calibration run (default 6)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args()
    t0 = time.perf_counter()
    iters, old_s, new_s = calibrate(args.game, args.old_iters, args.calibration, args.seed + 1)
    new, old = f"mcts:iters={iters}", f"mcts1:iters={args.old_iters}"
    with ProcessPoolExecutor(args.workers) as pool:
        wins = match(pool, args.game, [new, old], args.games, args.seed)
    share, lo, hi = interval(wins)
    print(
        f"{args.game}: {new} ({new_s * 1000:.1f} ms/decision) vs {old} ({old_s * 1000:.1f} ms/decision): "
        f"win share {share:.3f} [{lo:.3f}, {hi:.3f}] in {len(wins)} games; "
        f"{time.perf_counter() - t0:.0f} s wall"
    )
    figures = {
        "game": args.game,
        "new": new,
        "old": old,
        "new_ms_per_decision": round(new_s * 1000, 2),
        "old_ms_per_decision": round(old_s * 1000, 2),
        "games": len(wins),
        "win_share": round(share, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
    }
    print(f"wrote {write(f'equal-time-{args.game}', figures)}")


if __name__ == "__main__":
    main()
