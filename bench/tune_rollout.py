"""The rollout policy of `mcts` per game, chosen at equal CPU time per decision.

    python -m bench.tune_rollout [--iters 200] [--games 160] [--workers 2] [--only GAME ...]

`bench.tune_mcts` compares settings at equal *iterations*; a rollout policy also changes
what an iteration costs (a random rollout move skips the greedy evaluation of every legal
action), so it is compared at equal *time*. For every game (2 players, default rules), the
baseline is `mcts:iters=N` with the version-4 settings written out (the version-2 settings of
`tune_mcts.py` plus the game's version-4 `MCTS_DEFAULTS`, so the comparison does not
move when the defaults do). Each other rollout policy (`greedy`, `egreedy`, `random`) gets the
iterations that cost what the baseline costs (`equal_time.calibrate`) and plays `--games`
paired games against it; a policy is adopted where its 95% interval over deals lies wholly
above 0.5 (the best such one). Writes tune-rollout.json into `--out`; the chosen policies are
in each game's `MCTS_DEFAULTS` (rust_core/src/games/<game>/eval.rs).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

from bench.common import add_out, write
from bench.equal_time import calibrate, mcts_spec
from bench.mcts_strength import interval, match
from bench.tune_mcts import BASE, tuning_args

# Each game's MCTS_DEFAULTS at mcts version 4 (the baseline of this study).
VERSION_4 = {
    "alhambra": "reuse=0",
    "hiroba": "rollout=egreedy",
    "taluva": "bias=3",
    "titania": "bias=3",
    "maharaja": "widen=0.3",
}
ROLLOUTS = ["greedy", "egreedy", "random"]


def settings(game: str, rollout: str | None = None) -> str:
    """The version-4 settings of `game` written out, with `rollout` if given."""
    values = dict(kv.split("=") for kv in f"{BASE},eps=0.1,reuse=1,{VERSION_4[game]}".split(","))
    if rollout:
        values["rollout"] = rollout
    return ",".join(f"{k}={v}" for k, v in values.items())


def tune(pool: ProcessPoolExecutor, game: str, args: argparse.Namespace) -> dict:
    """Every other rollout policy of `game` against its baseline at equal time."""
    base = mcts_spec(args.iters, settings(game))
    rows = {}
    for rollout in [r for r in ROLLOUTS if f"rollout={r}" not in base]:
        iters, base_s, new_s = calibrate(pool, game, base, settings(game, rollout), 6, args.seed + 1)
        wins = match(pool, game, [mcts_spec(iters, settings(game, rollout)), base], args.games, args.seed)
        share, lo, hi = interval(wins)
        rows[rollout] = {
            "iters": iters,
            "ms_per_decision": round(new_s * 1000, 2),
            "baseline_ms_per_decision": round(base_s * 1000, 2),
            "win_share": round(share, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }
        print(f"{game:9} rollout={rollout:8} iters={iters:5} {share:.3f} [{lo:.3f}, {hi:.3f}]", flush=True)
    better = {r: row for r, row in rows.items() if row["ci95"][0] > 0.5}
    chosen = max(better, key=lambda r: better[r]["win_share"]) if better else None
    print(f"{game:9} chosen: {f'rollout={chosen}' if chosen else 'the version-4 rollout stays'}", flush=True)
    return {"baseline": base, "candidates": rows, "chosen": chosen}


def main() -> None:
    ap = tuning_args(__doc__, games=160, seed=37)
    add_out(ap, "tune-rollout")
    args = ap.parse_args()
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = {game: tune(pool, game, args) for game in args.only}
    figures = {"iters": args.iters, "games": args.games, "seed": args.seed, "games_tuned": results}
    print(f"wrote {write('tune-rollout', figures, args.out)} ({time.perf_counter() - t0:.0f} s)")
    print(json.dumps({g: r["chosen"] for g, r in results.items()}))


if __name__ == "__main__":
    main()
