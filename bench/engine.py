"""Single-core speed of `rust_core.simulate`, per game.

    python -m bench.engine [--seconds S] [--repeats R] [--only GAME ...]

Each game's cases live in its own folder (`rust_core/src/games/<game>/bench.toml`: players,
the agent in every seat, the target games/s an issue asked for); a game without that file gets
random play at its fewest and most players. Each timed run plays about `--seconds` of games
(sized from a short first run). Prints games/s per case and each target, and writes
engine.json into `--out`. `simulate` runs on the calling thread, so this is one core.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


import rust_core
from bench.common import add_out, best_rate, write

GAMES_DIR = Path(__file__).resolve().parent.parent / "rust_core" / "src" / "games"


def cases(game: str) -> list[dict]:
    """The game's bench cases: its `bench.toml`, else random play at its fewest and most players."""
    path = GAMES_DIR / game / "bench.toml"
    if path.is_file():
        return tomllib.loads(path.read_text(encoding="utf-8"))["case"]
    lo, hi = rust_core.player_range(game)
    return [{"players": n, "agent": "random"} for n in sorted({lo, hi})]


def games_for(game: str, agents: list[str], seconds: float) -> int:
    """Games that take about `seconds`, from a first run of a few games."""
    probe = 4
    t0 = time.perf_counter()
    rust_core.simulate(game, {}, agents, seed=1, start=0, count=probe)
    per_game = max((time.perf_counter() - t0) / probe, 1e-7)
    return max(1, int(seconds / per_game))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed run (default 1 s)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per case; the best counts (default 3)")
    ap.add_argument("--only", nargs="*", default=rust_core.games(), choices=rust_core.games())
    add_out(ap, "engine")
    args = ap.parse_args()
    figures: dict[str, float] = {}
    verdicts: list[str] = []
    for game in args.only:
        for case in cases(game):
            name = f"{game}_{case['players']}p_{case['agent']}"
            agents = [case["agent"]] * case["players"]
            games = games_for(game, agents, args.seconds)

            def work(game: str = game, agents: list = agents, games: int = games) -> int:
                rust_core.simulate(game, {}, agents, seed=1, start=0, count=games)
                return games

            rate = best_rate(work, args.repeats)
            figures[f"{name}_games_per_s"] = round(rate)
            print(f"{name:28s} {rate:10,.0f} games/s (single core)")
            if "target" in case:
                met = "met" if rate >= case["target"] else "NOT met"
                verdicts.append(f"target {name} >= {case['target']:,} games/s: {met}")
    print("\n".join(verdicts))
    print(f"wrote {write('engine', figures, args.out)}")


if __name__ == "__main__":
    main()
