"""A search against a yardstick search at equal CPU time per decision.

    python -m bench.equal_time GAME [--old-iters 300] [--old SPEC] [--new NAME] [--params K=V,...]
                               [--ms MS] [--games 400] [--calibration 6] [--workers 2] [--seed 23]
                               [--variant JSON]

The yardstick is `mcts1:iters=N` (`--old-iters`, the version-1 search) unless `--old` names
another spec; the new agent is `--new` (default `mcts`, or e.g. `xmcts`) with the game's defaults
plus `--params` (e.g. `rollout=random`), its iterations set to cost what the yardstick costs.
Costs are **CPU seconds** of each agent's own choices (the engine reads its thread's CPU clock
around every choice: `BatchSpec.simulate_timed`), not wall time, so other load on the machine
does not move them:

1. Calibration: CPU seconds per searched decision (thread CPU time inside the
   agent's own choices, over its decisions with more than one legal action, both measured by
   the engine). With `--ms`, the yardstick's iterations are first scaled to cost about MS
   milliseconds per decision against greedy (paired games, a deal per task on the workers).
   Then the two agents play `--calibration` paired games against each other (the positions
   the match will meet: a search's cost per decision depends on them) and the new agent's
   iterations are scaled by the ratio of their costs, twice, and measured once more.
2. The match: `--games` paired 2-player games of the new agent at M iterations against the
   yardstick on `--workers` processes (a deal per task); prints the new agent's win share with
   a 95% interval over deals.

Calibration and match play `--variant` (JSON options; default the game's defaults), e.g. to see
whether a learned evaluation fitted on the official rules holds its strength in a variant.

The JSON's `new_ms_per_decision` and `old_ms_per_decision` are the calibration's figures,
`match_ms_per_decision` those measured in the match.

Writes equal-time-<GAME>.json into `--out` (with `--old`, `--new`, `--params`, `--ms` or
`--variant`: equal-time-<GAME>-<their values>.json), with both agents' versions, the variant and
the game's learned evaluation hash.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bench.common import add_out, write
from bench.mcts_strength import by_position, interval, timed_match

DEAL = 2  # games per task: one deal, in both seatings


def head_to_head(
    pool: ProcessPoolExecutor, game: str, new: str, old: str, games: int, seed: int, variant: dict | None
) -> tuple[float, float]:
    """CPU seconds per searched decision of `new` and of `old` in `games` (rounded up to even)
    paired games against each other, a deal per task on `pool`: the positions the match itself
    will search."""
    _, clocks = timed_match(pool, game, [new, old], games + games % 2, seed, variant=variant, chunk=DEAL)
    return clocks[0].ms_per_searched / 1000, clocks[1].ms_per_searched / 1000


def per_decision(
    pool: ProcessPoolExecutor, game: str, spec: str, games: int, seed: int, variant: dict | None = None
) -> float:
    """CPU seconds per searched decision of `spec` against greedy (:func:`head_to_head`): thread
    CPU time inside its own choices over its decisions with more than one legal action (measured
    by the engine)."""
    return head_to_head(pool, game, spec, "greedy", games, seed, variant)[0]


def mcts_spec(iters: int, params: str, name: str = "mcts") -> str:
    """`NAME:iters=N` followed by `params` (other settings), if any."""
    return f"{name}:iters={iters}" + (f",{params}" if params else "")


def with_iters(spec: str, iters: int) -> str:
    """`spec` with its `iters` set to `iters`."""
    name, _, rest = spec.partition(":")
    params = [kv for kv in rest.split(",") if kv and not kv.startswith("iters=")]
    return mcts_spec(iters, ",".join(params), name)


def iters_of(spec: str) -> int:
    given = re.search(r"iters=(\d+)", spec)
    return int(given.group(1)) if given else 1000


def scale_to(
    pool: ProcessPoolExecutor,
    game: str,
    spec: str,
    seconds: float,
    games: int,
    seed: int,
    variant: dict | None = None,
) -> tuple[str, float]:
    """`spec` with its iterations scaled (twice) to cost `seconds` per decision: (spec, cost)."""
    cost = per_decision(pool, game, spec, games, seed, variant)
    for _ in range(2):
        spec = with_iters(spec, max(1, round(iters_of(spec) * seconds / cost)))
        cost = per_decision(pool, game, spec, games, seed, variant)
        print(
            f"  calibration: {spec} {cost * 1e3:.2f} ms (target {seconds * 1e3:.2f})",
            file=sys.stderr,
            flush=True,
        )
    return spec, cost


def calibrate(
    pool: ProcessPoolExecutor,
    game: str,
    old: str,
    params: str,
    games: int,
    seed: int,
    name: str = "mcts",
    variant: dict | None = None,
) -> tuple[int, float, float]:
    """Iterations M of agent `name` with `params` costing what `old` costs when the two play each
    other (a search's cost per decision depends on the positions it meets): from `old`'s
    iterations, scaled twice by the measured ratio; (M, old s, new s) of the last measurement."""
    iters = iters_of(old)
    for step in range(3):
        new = mcts_spec(iters, params, name)
        new_s, old_s = head_to_head(pool, game, new, old, games, seed, variant)
        print(
            f"  calibration: {new} {new_s * 1e3:.2f} ms against {old} {old_s * 1e3:.2f} ms",
            file=sys.stderr,
            flush=True,
        )
        if step < 2:
            iters = max(1, round(iters * old_s / new_s))
    return iters, old_s, new_s


def result_name(game: str, old: str | None, params: str) -> str:
    """The results file's name: equal-time-GAME, plus the non-default settings."""
    extra = "-".join(re.sub(r"[^A-Za-z0-9.]+", "_", x) for x in (old, params) if x)
    return f"equal-time-{game}" + (f"-{extra}" if extra else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--old-iters", type=int, default=300, help="the yardstick mcts1:iters=N (default 300)")
    ap.add_argument("--old", default=None, help="another yardstick spec (replaces --old-iters)")
    ap.add_argument("--new", default="mcts", help="the calibrated agent's name (default mcts; e.g. xmcts)")
    ap.add_argument("--params", default="", help="its settings besides iters, e.g. rollout=random")
    ap.add_argument("--ms", type=float, default=None, help="first scale the yardstick to MS ms per decision")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--calibration", type=int, default=6, help="games per calibration run (default 6)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--variant", default="{}", help="variant options as JSON (default: the game's defaults)")
    add_out(ap, "equal-time")
    args = ap.parse_args()
    variant = json.loads(args.variant)
    import rust_core

    t0 = time.perf_counter()
    old = args.old or f"mcts1:iters={args.old_iters}"
    with ProcessPoolExecutor(args.workers) as pool:
        if args.ms is not None:
            old, _ = scale_to(pool, args.game, old, args.ms / 1000, args.calibration, args.seed + 1, variant)
        iters, old_s, new_s = calibrate(
            pool, args.game, old, args.params, args.calibration, args.seed + 1, args.new, variant
        )
        new = mcts_spec(iters, args.params, args.new)
        wins, clocks = timed_match(
            pool, args.game, [new, old], args.games, args.seed, variant=variant, chunk=DEAL
        )
    share, lo, hi = interval(wins)
    in_match = [round(c.ms_per_searched, 2) for c in clocks]
    positions = [[round(x, 4) for x in p] for p in by_position(wins)]
    print(
        f"{args.game}: {new} ({in_match[0]:.1f} ms/decision in the match) vs {old} ({in_match[1]:.1f}): "
        f"win share {share:.3f} [{lo:.3f}, {hi:.3f}] in {len(wins)} games "
        f"(at position 0: {positions[0][0]:.3f}, at 1: {positions[1][0]:.3f}); "
        f"{time.perf_counter() - t0:.0f} s wall"
    )
    figures = {
        "game": args.game,
        "new": new,
        "old": old,
        "mcts_version": rust_core.agent_version("mcts", args.game),
        "agent_versions": {spec: rust_core.agent_version(spec, args.game) for spec in (new, old)},
        "variant": variant,
        "seed": args.seed,
        "calibration_games": args.calibration,
        "eval_hash": rust_core.eval_hash(args.game),
        "cost": "thread CPU seconds inside the agent's choices per searched decision",
        "new_ms_per_decision": round(new_s * 1000, 2),
        "old_ms_per_decision": round(old_s * 1000, 2),
        "match_ms_per_decision": {"new": in_match[0], "old": in_match[1]},
        "win_share_by_position": positions,
        "games": len(wins),
        "win_share": round(share, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
    }
    extra = args.params if args.new == "mcts" else f"{args.new},{args.params}".rstrip(",")
    if args.ms is not None:
        extra = f"{extra},{args.ms:g}ms".lstrip(",")
    if variant:
        extra = f"{extra},{','.join(f'{k}={v}' for k, v in variant.items())}".lstrip(",")
    print(f"wrote {write(result_name(args.game, args.old, extra), figures, args.out)}")


if __name__ == "__main__":
    main()
