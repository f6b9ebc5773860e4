"""Elo against CPU time per decision: greedy, `mcts` and `xmcts` (or another search) at several budgets.

    python -m bench.elo_per_cpu GAME [--ms 2 5 15] [--new xmcts] [--games 100] [--calibration 6]
                                [--workers 2] [--seed 31]

1. Calibration (CPU time of each agent's own choices, as `equal_time.py`): each search's
   iterations are scaled to cost each budget of `--ms` milliseconds per searched decision
   against greedy; greedy's own cost is measured the same way.
2. Matches, `--games` paired 2-player games each (a chain that connects every agent): greedy
   against `mcts` at the smallest budget, `mcts` at each budget against the next, the new agent
   against `mcts` at each budget (the equal-time comparisons) and against itself at the next.
3. A Bradley–Terry fit over the deals of every match (`analysis.strength.fit_bradley_terry`, the
   one the reports use; deal-clustered intervals), Elo relative to greedy with 95% intervals.

Writes elo-per-cpu-<GAME>.json into `--out` (agents, versions, the learned evaluation's hash,
CPU ms per searched decision as measured in the matches (`ms_per_decision`, over all of an
agent's matches) and by the calibration (`calibrated_ms`), Elo with interval, every match's win
share) and elo-per-cpu-<GAME>.png (Elo
against CPU ms per decision, log scale, a line per search).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.common import add_out, write
from bench.equal_time import per_decision, scale_to
from bench.mcts_strength import interval, summed, timed_match


def calibrated(
    pool: ProcessPoolExecutor, game: str, name: str, budgets: list[float], games: int, seed: int
) -> list[tuple[str, float]]:
    """`name`'s spec at each budget (ms per decision) with its measured cost (s), cheapest first."""
    out = []
    spec = f"{name}:iters=100"
    for ms in sorted(budgets):
        spec, cost = scale_to(pool, game, spec, ms / 1000, games, seed)
        out.append((spec, cost))
    return out


def pairings(greedy: str, old: list[str], new: list[str]) -> list[tuple[str, str]]:
    """The matches: a chain through every agent, plus each budget's equal-time comparison."""
    chain = [(greedy, old[0])] + list(zip(old, old[1:], strict=False))
    chain += list(zip(new, old, strict=True)) + list(zip(new, new[1:], strict=False))
    return chain


def deal_units(a: str, b: str, wins: list[float]) -> list[dict[str, Any]]:
    """One row per deal (the two games of a seat-paired deal) of `a` against `b`."""
    return [
        {"agent_a": a, "agent_b": b, "games": 2, "score_a": wins[i] + wins[i + 1]}
        for i in range(0, len(wins) - 1, 2)
    ]


def ratings(units: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Elo of every agent relative to greedy with its 95% interval (Bradley–Terry over deals)."""
    import polars as pl

    from analysis.strength import fit_bradley_terry

    table, _, _, notes = fit_bradley_terry(pl.DataFrame(units), anchor="greedy")
    for note in notes:
        print(f"  note: {note}", file=sys.stderr)
    return {
        r["agent"]: {"elo": round(r["elo"], 1), "lo": round(r["elo_lo"], 1), "hi": round(r["elo_hi"], 1)}
        for r in table.iter_rows(named=True)
    }


def figure(path: Path, game: str, agents: list[dict[str, Any]], new: str, evaluation: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for family, colour in (("greedy", "0.4"), ("mcts", "tab:blue"), (new, "tab:orange")):
        pts = [a for a in agents if a["family"] == family]
        xs, ys = [a["ms_per_decision"] for a in pts], [a["elo"] for a in pts]
        err = [[a["elo"] - a["lo"] for a in pts], [a["hi"] - a["elo"] for a in pts]]
        label = "greedy" if family == "greedy" else f"{family} (version {pts[0]['version']})"
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, color=colour, label=label)
    ax.set_xscale("log")
    ax.set_xlabel("CPU ms per searched decision (log scale)")
    ax.set_ylabel("Elo relative to greedy (95% CI)")
    ax.set_title(f"{game}: strength per CPU time ({new}: evaluation {evaluation})")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--ms", type=float, nargs="+", default=[2.0, 5.0, 15.0], help="budgets, ms per decision")
    ap.add_argument("--new", default="xmcts", help="the search set beside mcts (default xmcts)")
    ap.add_argument("--games", type=int, default=100, help="paired games per match (default 100)")
    ap.add_argument("--calibration", type=int, default=6, help="games per calibration run (default 6)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=31)
    add_out(ap, "elo-per-cpu")
    args = ap.parse_args()
    import rust_core

    t0, cpu0 = time.perf_counter(), time.process_time()
    with ProcessPoolExecutor(args.workers) as pool:
        greedy_s = per_decision(pool, args.game, "greedy", args.calibration, args.seed + 1)
        old = calibrated(pool, args.game, "mcts", args.ms, args.calibration, args.seed + 1)
        new = calibrated(pool, args.game, args.new, args.ms, args.calibration, args.seed + 1)
        cost = {"greedy": greedy_s, **dict(old), **dict(new)}
        family = {"greedy": "greedy", **{s: "mcts" for s, _ in old}, **{s: args.new for s, _ in new}}
        units: list[dict[str, Any]] = []
        matches = []
        spent: dict[str, list[Any]] = {s: [] for s in cost}  # each agent's clock in each of its matches
        for a, b in pairings("greedy", [s for s, _ in old], [s for s, _ in new]):
            wins, clocks = timed_match(pool, args.game, [a, b], args.games, args.seed)
            share, lo, hi = interval(wins)
            print(f"{args.game}: {a} vs {b}: {share:.3f} [{lo:.3f}, {hi:.3f}]", file=sys.stderr, flush=True)
            matches.append({"a": a, "b": b, "games": len(wins), "share_a": round(share, 4), "ci95": [lo, hi]})
            units += deal_units(a, b, wins)
            spent[a].append([clocks[0]])
            spent[b].append([clocks[1]])
    elo = ratings(units)
    agents = [
        {"spec": s, "family": family[s], "version": rust_core.agent_version(s, args.game),
         "ms_per_decision": round(summed(spent[s])[0].ms_per_searched, 3),
         "calibrated_ms": round(cost[s] * 1000, 3), **elo[s]}
        for s in cost
    ]  # fmt: skip
    figures = {
        "game": args.game,
        "eval_hash": rust_core.eval_hash(args.game),
        "cost": "thread CPU seconds inside the agent's choices per searched decision",
        "budgets_ms": args.ms,
        "agents": agents,
        "matches": matches,
        "cpu_seconds_driver": round(time.process_time() - cpu0, 1),
        "wall_seconds": round(time.perf_counter() - t0, 1),
    }
    for a in agents:
        elo = f"Elo {a['elo']:+7.1f} [{a['lo']:+.1f}, {a['hi']:+.1f}]"
        print(f"  {a['spec']:<28} {a['ms_per_decision']:8.2f} ms  {elo}")
    path = write(f"elo-per-cpu-{args.game}", figures, args.out)
    figure(args.out / f"elo-per-cpu-{args.game}.png", args.game, agents, args.new, figures["eval_hash"])
    print(f"wrote {path} and {path.with_suffix('.png')}")


if __name__ == "__main__":
    main()
