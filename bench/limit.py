"""`rust_core.simulate` against the bare reference loop, side by side in one run, on one core.

    python -m bench.limit [--seconds S] [--repeats R] [--only GAME ...] [--agents random greedy]
                          [--profile release] [--binary PATH] [--name limit]

The bare loop (`rust_core/examples/limit.rs`, `rust_core::batch::bare`) plays the games
`simulate` plays (same seeds, same agent in every seat, default rules) straight through the
engine's `Game` trait: no Python, no Arrow, no boxed agents, no recording. It is built here with
cargo (`--profile`, release by default: the wheel's profile) unless `--binary` names one; build
the wheel from the same source, or the two measure different engines (the totals check below
catches different games, not a different build).

Per game, at its fewest and most players and per agent, the two alternate `--repeats` times on
the same games (about `--seconds` each); the best rate of each counts. Simulate is timed in
process CPU seconds (`time.process_time`, Arrow conversion included), the bare loop by its own
process CPU clock. Prints games/s of each and the ratio simulate / bare, checks that both played
the same games (sums of scores and turns), and writes NAME.json (limit.json) into `--out`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import rust_core
from bench.common import ROOT, add_out, write

#: The issue-57 target: Alhambra random play via simulate at this share of the bare loop or more.
TARGET = 0.85


def build(profile: str) -> Path:
    """Builds the `limit` example with cargo and returns the executable's path."""
    proc = subprocess.run(
        ["cargo", "build", "--profile", profile, "--example", "limit", "--message-format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    for line in proc.stdout.splitlines():
        msg = json.loads(line)
        built = msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "limit"
        if built and msg.get("executable"):
            return Path(msg["executable"])
    raise RuntimeError("cargo built no limit executable")


def bare(binary: Path, game: str, players: int, agent: str, count: int) -> dict[str, Any]:
    """One run of the bare loop: its JSON line (cpu_s and the totals)."""
    args = [str(binary), game, str(players), agent, "1", "0", str(count)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def simulate(game: str, players: int, agent: str, count: int) -> tuple[float, dict[str, int]]:
    """One run of simulate: process CPU seconds and the totals of its rows."""
    t0 = time.process_time()
    batch = rust_core.simulate(game, {}, [agent] * players, seed=1, start=0, count=count)
    cpu_s = time.process_time() - t0
    score = sum(batch.column("score").to_pylist())
    turns = sum(batch.column("turns").to_pylist()) // players
    return cpu_s, {"games": batch.num_rows // players, "turns": turns, "score": score}


def games_for(binary: Path, game: str, players: int, agent: str, seconds: float) -> int:
    """Games that take the bare loop about `seconds`, from a first run of a few."""
    probe = 20
    per_game = max(bare(binary, game, players, agent, probe)["cpu_s"] / probe, 1e-7)
    return max(1, int(seconds / per_game))


def measure(binary: Path, game: str, players: int, agent: str, args: argparse.Namespace) -> dict[str, Any]:
    """Both loops on the same games, alternating; the best rate of each, their ratio."""
    count = games_for(binary, game, players, agent, args.seconds)
    best_sim, best_bare = 0.0, 0.0
    for _ in range(args.repeats):
        cpu_s, totals = simulate(game, players, agent, count)
        best_sim = max(best_sim, count / max(cpu_s, 1e-9))
        line = bare(binary, game, players, agent, count)
        best_bare = max(best_bare, count / max(line["cpu_s"], 1e-9))
        theirs = {k: line[k] for k in totals}
        if theirs != totals:
            case = f"{game} {players}p {agent}"
            raise SystemExit(f"{case}: the bare loop played other games: {theirs} != {totals}")
    return {
        "games": count,
        "simulate_games_per_s": round(best_sim),
        "bare_games_per_s": round(best_bare),
        "ratio": round(best_sim / best_bare, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed run (default 1 s)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of each loop per case (default 5)")
    ap.add_argument("--only", nargs="*", default=rust_core.games(), choices=rust_core.games())
    ap.add_argument("--agents", nargs="*", default=["random"], choices=["random", "greedy"])
    ap.add_argument("--profile", default="release", help="cargo profile of the bare loop (default release)")
    ap.add_argument("--binary", type=Path, help="a built `limit` example (default: build it with cargo)")
    ap.add_argument("--name", default="limit", help="results file name, NAME.json (default limit)")
    add_out(ap, "limit")
    args = ap.parse_args()
    binary = args.binary or build(args.profile)
    cases: dict[str, dict[str, Any]] = {}
    print(f"{'case':28s} {'simulate':>12s} {'bare loop':>12s} {'ratio':>6s}  (games/s, one core)")
    for game in args.only:
        lo, hi = rust_core.player_range(game)
        for players in sorted({lo, hi}):
            for agent in args.agents:
                name = f"{game}_{players}p_{agent}"
                row = cases[name] = measure(binary, game, players, agent, args)
                sim, ref = row["simulate_games_per_s"], row["bare_games_per_s"]
                print(f"{name:28s} {sim:12,d} {ref:12,d} {row['ratio']:6.3f}", flush=True)
    figures: dict[str, Any] = {"cases": cases, "target_ratio": TARGET}
    alhambra = [r["ratio"] for k, r in cases.items() if k.startswith("alhambra_") and k.endswith("_random")]
    if alhambra:
        met = min(alhambra) >= TARGET
        figures["alhambra_random_target_met"] = met
        verdict = "met" if met else "NOT met"
        print(f"target: Alhambra random play via simulate >= {TARGET} of the bare loop: {verdict}")
    print(f"wrote {write(args.name, figures, args.out)}")


if __name__ == "__main__":
    main()
