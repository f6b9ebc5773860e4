"""Today's `mcts` against a yardstick search at equal CPU time per decision.

    python bench/equal_time.py GAME [--old-iters 300] [--old SPEC] [--params K=V,...]
                               [--games 400] [--workers 2] [--seed 23]

The yardstick is `mcts1:iters=N` (`--old-iters`, the version-1 search) unless `--old` names
another spec; today's agent is `mcts` with the game's defaults plus `--params` (e.g.
`rollout=random`), its iterations set to cost what the yardstick costs:

1. Calibration (one process, nothing else running): seconds per searched decision of the
   yardstick and of today's agent against greedy on the same `--calibration` games; today's
   budget M = its iterations x (old time / new time), measured again at M (one correction).
2. The match: `--games` paired 2-player games of today's agent at M iterations against the
   yardstick on `--workers` processes; prints today's win share with a 95% interval over deals.

Writes bench/results/equal-time-<GAME>.json (with `--old` or `--params`:
equal-time-<GAME>-<their values>.json).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write  # noqa: E402
from mcts_strength import interval, match, play  # noqa: E402


def per_decision(game: str, spec: str, games: int, seed: int) -> float:
    """Seconds per searched decision of `spec` against greedy (the greedy moves included)."""
    _, seconds, decisions = play(game, {}, [spec, "greedy"], seed, 0, games)
    return seconds / max(decisions, 1)


def mcts_spec(iters: int, params: str) -> str:
    """`mcts:iters=N` followed by `params` (other settings), if any."""
    return f"mcts:iters={iters}" + (f",{params}" if params else "")


def calibrate(game: str, old: str, params: str, games: int, seed: int) -> tuple[int, float, float]:
    """Iterations of `mcts` with `params` costing what `old` costs: (M, old s, new s at M)."""
    old_s = per_decision(game, old, games, seed)
    given = re.search(r"iters=(\d+)", old)
    iters = int(given.group(1)) if given else 1000  # the yardstick's iterations: a first guess
    for _ in range(2):
        new_s = per_decision(game, mcts_spec(iters, params), games, seed)
        msg = f"  calibration: {old} {old_s * 1e3:.1f} ms, {mcts_spec(iters, params)} {new_s * 1e3:.1f} ms"
        print(msg, file=sys.stderr, flush=True)
        iters = max(1, round(iters * old_s / new_s))
    return iters, old_s, per_decision(game, mcts_spec(iters, params), games, seed)


def result_name(game: str, old: str | None, params: str) -> str:
    """The results file's name: equal-time-GAME, plus the non-default settings."""
    extra = "-".join(re.sub(r"[^A-Za-z0-9.]+", "_", x) for x in (old, params) if x)
    return f"equal-time-{game}" + (f"-{extra}" if extra else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--old-iters", type=int, default=300, help="the yardstick mcts1:iters=N (default 300)")
    ap.add_argument("--old", default=None, help="another yardstick spec (replaces --old-iters)")
    ap.add_argument("--params", default="", help="today's mcts settings besides iters, e.g. rollout=random")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--calibration", type=int, default=6, help="games per calibration run (default 6)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args()
    import rust_core

    t0 = time.perf_counter()
    old = args.old or f"mcts1:iters={args.old_iters}"
    iters, old_s, new_s = calibrate(args.game, old, args.params, args.calibration, args.seed + 1)
    new = mcts_spec(iters, args.params)
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
        "mcts_version": rust_core.agent_version("mcts"),
        "new_ms_per_decision": round(new_s * 1000, 2),
        "old_ms_per_decision": round(old_s * 1000, 2),
        "games": len(wins),
        "win_share": round(share, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
    }
    print(f"wrote {write(result_name(args.game, args.old, args.params), figures)}")


if __name__ == "__main__":
    main()
