"""Single-core speed of `rust_core.simulate` for random play (and Taluva greedy self-play).

    python bench/engine.py [--games N] [--repeats R]

Prints games/s for Alhambra with 2 players with Dirk (target: >= 30,000) and 4 players, for
Hiroba (built-in tiles) with 2 and 4 players, for Maharaja (built-in map) with 3 (target:
>= 5,000) and 5 players, for Taluva with 2 players (all 48 tiles): random (target >= 5,000)
and greedy self-play (target >= 500), and for Titania (built-in board) with 2 (target:
>= 10,000) and 4 players, and writes bench/results/engine.json. `simulate`
runs on the calling thread, so this is one core.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_rate, write  # noqa: E402

import rust_core  # noqa: E402

#: name -> (game, variant, agents, share of --games per timed run)
CASES = {
    "alhambra_2p_dirk_random": ("alhambra", {}, ["random"] * 2, 1.0),
    "alhambra_4p_random": ("alhambra", {}, ["random"] * 4, 0.5),
    "hiroba_2p_random": ("hiroba", {}, ["random"] * 2, 1.0),
    "hiroba_4p_random": ("hiroba", {}, ["random"] * 4, 0.5),
    "maharaja_3p_random": ("maharaja", {}, ["random"] * 3, 0.1),
    "maharaja_5p_random": ("maharaja", {}, ["random"] * 5, 0.05),
    "taluva_2p_random": ("taluva", {}, ["random"] * 2, 0.2),
    "taluva_2p_greedy": ("taluva", {}, ["greedy"] * 2, 0.04),
    "titania_2p_random": ("titania", {}, ["random"] * 2, 1.0),
    "titania_4p_random": ("titania", {}, ["random"] * 4, 0.5),
}
#: name -> minimum games/s the issues ask for
TARGETS = {
    "alhambra_2p_dirk_random": 30_000,
    "maharaja_3p_random": 5_000,
    "taluva_2p_random": 5_000,
    "taluva_2p_greedy": 500,
    "titania_2p_random": 10_000,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=50_000, help="games per timed run (default 50000)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per case; the best counts (default 3)")
    args = ap.parse_args()
    figures: dict[str, float] = {}
    for name, (game, variant, agents, share) in CASES.items():
        games = max(1, int(args.games * share))

        def work(game: str = game, variant: dict = variant, agents: list = agents, games: int = games) -> int:
            rust_core.simulate(game, variant, agents, seed=1, start=0, count=games)
            return games

        rate = best_rate(work, args.repeats)
        figures[f"{name}_games_per_s"] = round(rate)
        print(f"{name:28s} {rate:10,.0f} games/s (single core)")
    for name, target in TARGETS.items():
        ok = figures[f"{name}_games_per_s"] >= target
        print(f"target {name} >= {target:,} games/s: {'met' if ok else 'NOT met'}")
    print(f"wrote {write('engine', figures)}")


if __name__ == "__main__":
    main()
