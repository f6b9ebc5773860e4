"""Per-game defaults of `mcts`: one step of coordinate search from the version-2 settings.

    python -m bench.tune_mcts [--games 80] [--iters 200] [--workers 2] [--only GAME ...]
    python -m bench.tune_mcts --confirm [--confirm-games 240]

Screening: for every game (2 players, default rules) and every candidate change of one
setting (`c`, `bias`, `widen`, `rollout`), plays `--games` paired games of
`mcts:iters=N,<change>` against `mcts:iters=N` with the version-2 settings
(`c=0.2,bias=10,widen=0.5,widen_c=2,rollout=greedy`, written out so that the comparison does
not move when the defaults do) and prints the candidate's win share with a 95% interval over
deals; writes tune-mcts.json into `--out`.

Confirmation (`--confirm`, reading that file): per game, the screened candidate with the
highest win share, if above 0.5, plays `--confirm-games` further games (new deals); a game's
default changes only where the pooled interval of screening and confirmation lies wholly
above 0.5. Otherwise the version-2 setting stays. The chosen changes are each game's
`MCTS_DEFAULTS` (rust_core/src/games/<game>/eval.rs); the file records both stages.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import rust_core
from bench.common import add_out, write
from bench.mcts_strength import interval, match

#: every game but the synthetic one
GAMES = [g for g in rust_core.games() if g != "coin"]
BASE = "c=0.2,bias=10,widen=0.5,widen_c=2,rollout=greedy"
CANDIDATES = ["c=0.1", "c=0.5", "bias=3", "bias=30", "widen=0.3", "widen=0.7", "rollout=egreedy"]


def spec(iters: int, change: str | None) -> str:
    """The baseline spec with one setting replaced by `change`."""
    settings = dict(kv.split("=") for kv in BASE.split(","))
    if change:
        key, value = change.split("=")
        settings[key] = value
    return f"mcts:iters={iters}," + ",".join(f"{k}={v}" for k, v in settings.items())


def confirm(pool: ProcessPoolExecutor, extra: int, out: Path) -> None:
    """The confirmation stage: see the module docs."""
    path = out / "tune-mcts.json"
    figures = json.loads(path.read_text())
    iters, games, seed = figures["iters"], figures["games"], figures["seed"]
    for game, result in figures["games_tuned"].items():
        rows = result["candidates"]
        best = max(rows, key=lambda c: rows[c]["win_share"])
        result["chosen"] = None
        if rows[best]["win_share"] <= 0.5:
            print(f"{game:9} no candidate above 0.5 in screening: the version-2 settings stay", flush=True)
            continue
        agents = [spec(iters, best), spec(iters, None)]
        first = match(pool, game, agents, games, seed)
        more = match(pool, game, agents, extra, seed, start=games)
        share, lo, hi = interval(first + more)
        result["confirmation"] = {
            "candidate": best,
            "games": len(first) + len(more),
            "win_share": round(share, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }
        result["chosen"] = best if lo > 0.5 else None
        verdict = f"chosen: {best}" if lo > 0.5 else "the version-2 settings stay"
        n = len(first) + len(more)
        print(f"{game:9} {best:16} {share:.3f} [{lo:.3f}, {hi:.3f}] in {n} games: {verdict}", flush=True)
    figures["confirm_games"] = extra
    print(f"wrote {write('tune-mcts', figures, out)}")
    print(json.dumps({g: r["chosen"] for g, r in figures["games_tuned"].items()}))


def earlier(settings: dict, out: Path) -> dict:
    """Screened games of an earlier run with the same settings (an `--only` run adds to it)."""
    path = out / "tune-mcts.json"
    if not path.exists():
        return {}
    old = json.loads(path.read_text())
    same = all(old.get(k) == v for k, v in settings.items())
    return old.get("games_tuned", {}) if same else {}


def tuning_args(doc: str | None, games: int, seed: int) -> argparse.ArgumentParser:
    """The options every tuning script takes: paired games per candidate, baseline iterations,
    workers, seed and the games to tune."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=games, help=f"paired games per candidate (default {games})")
    ap.add_argument(
        "--iters", type=int, default=200, help="baseline MCTS iterations per decision (default 200)"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--only", nargs="*", default=GAMES, choices=GAMES, help="games to tune (default all)")
    return ap


def main() -> None:
    ap = tuning_args(__doc__, games=80, seed=31)
    ap.add_argument("--confirm", action="store_true", help="confirm the screened candidates (see above)")
    ap.add_argument("--confirm-games", type=int, default=240, help="confirmation games (default 240)")
    add_out(ap, "tune-mcts")
    args = ap.parse_args()
    if args.confirm:
        with ProcessPoolExecutor(args.workers) as pool:
            confirm(pool, args.confirm_games, args.out)
        return
    results: dict[str, dict] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for game in args.only:
            rows = {}
            for change in CANDIDATES:
                agents = [spec(args.iters, change), spec(args.iters, None)]
                wins = match(pool, game, agents, args.games, args.seed)
                share, lo, hi = interval(wins)
                rows[change] = {"win_share": round(share, 4), "ci95": [round(lo, 4), round(hi, 4)]}
                took = time.perf_counter() - t0
                print(f"{game:9} {change:16} {share:.3f} [{lo:.3f}, {hi:.3f}]  ({took:.0f} s)", flush=True)
            better = {c: r for c, r in rows.items() if r["ci95"][0] > 0.5}
            chosen = max(better, key=lambda c: better[c]["win_share"]) if better else None
            print(f"{game:9} chosen: {chosen or 'the version-2 settings'}", flush=True)
            results[game] = {"candidates": rows, "chosen": chosen}
    figures = {"iters": args.iters, "games": args.games, "baseline": BASE, "seed": args.seed}
    figures["games_tuned"] = {**earlier(figures, args.out), **results}
    print(f"wrote {write('tune-mcts', figures, args.out)}")
    print(json.dumps({g: r["chosen"] for g, r in results.items()}))


if __name__ == "__main__":
    main()
