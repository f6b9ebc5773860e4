"""Single-core speed of the agents.

    python -m bench.agents [--games N] [--mcts-games N] [--iters N]

Prints, on 2-player Alhambra with Dirk, greedy self-play games/s (target >= 2,000) and MCTS
iterations per second with random rollouts played to the end (`depth=0`; target >= 20,000)
and with the default settings; MCTS iterations per second of 2-player Hiroba (default
settings); and the large-move-list figure of the game contract: MCTS iterations per second at
a decision with 2,000 legal actions against one with 20 (the synthetic game `coin` with
`moves` = 2000 or 20, random rollouts, same run; target: the large one at >= 0.5x the small
one). Then, per game (2 players, default rules, `--per-game-iters` iterations, default
settings), MCTS iterations per second of the version-1 search (`mcts1`, before issue 12)
and of today's `mcts`, side by side. Writes agents.json into `--out`. MCTS iterations
per second = iterations run / seconds of the whole games, counting the MCTS player's
searched decisions (one with a single legal action is played without search); the time also
includes the greedy opponent, so the figure is a slight underestimate.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import rust_core
from bench.common import add_out, best_rate, write


def _who(event: dict) -> int:
    """The agent (player index) of one of the batch runner's action events."""
    return int(event["player"])


def searched_decisions(game: str, agents: list[str], seed: int, games: int, who: int) -> int:
    """Decisions of player `who` that had more than one legal action (the searched ones),
    read from the replay logs of the same games."""
    total = 0
    for g in range(games):
        log = rust_core.replay(game, {}, agents, seed, g)
        actions = [e for e in log["events"] if e["event"] == "action" and _who(e) == who]
        total += sum(1 for e in actions if e.get("options", 0) > 1)
    return total


def large_move_lists(iters: int, games: int = 40) -> tuple[float, float]:
    """MCTS iterations/s at the first decision of `coin` with 2,000 and with 20 legal actions
    (best of 3 each, interleaved). In each game the MCTS player searches exactly once."""
    spec = f"mcts:iters={iters},rollout=random"
    rates: dict[int, float] = {2000: 0.0, 20: 0.0}
    for _ in range(3):
        for moves in rates:
            t0 = time.perf_counter()
            rust_core.simulate("coin", {"moves": moves}, [spec, "random"], seed=4, start=0, count=games)
            rates[moves] = max(rates[moves], games * iters / (time.perf_counter() - t0))
    return rates[2000], rates[20]


def per_game(iters: int, games: int) -> dict[str, dict[str, float]]:
    """Iterations/s of `mcts1` (before) and `mcts` (after) against greedy, per game."""
    rates: dict[str, dict[str, float]] = {}
    for game in [g for g in rust_core.games() if g != "coin"]:
        row = {}
        for name in ("mcts1", "mcts"):
            agents = [f"{name}:iters={iters}", "greedy"]
            t0 = time.perf_counter()
            rust_core.simulate(game, {}, agents, seed=5, start=0, count=games)
            seconds = time.perf_counter() - t0
            row[name] = searched_decisions(game, agents, 5, games, 0) * iters / seconds
        rates[game] = row
        print(
            f"  {game:10} mcts1 {row['mcts1']:9,.0f}  mcts {row['mcts']:9,.0f} iterations/s "
            f"(x{row['mcts'] / row['mcts1']:.2f})"
        )
    return rates


def mcts_rate(spec: str, games: int, iters: int, game: str = "alhambra") -> tuple[float, int, float]:
    """Iterations per second of ``spec`` (``iters`` per searched decision) against greedy."""
    agents = [spec, "greedy"]
    t0 = time.perf_counter()
    rust_core.simulate(game, {}, agents, seed=2, start=0, count=games)
    seconds = time.perf_counter() - t0
    decisions = searched_decisions(game, agents, 2, games, 0)
    return decisions * iters / seconds, decisions, seconds


def search_rates(games: int, iters: int) -> dict[str, Any]:
    """The search's speed: random rollouts (the issue's figure), default settings, Hiroba, and
    large move lists; printed and returned as figures."""
    # The figure: random rollouts played to the end of the game (depth=0).
    spec = f"mcts:iters={iters},rollout=random,depth=0"
    iters_per_s, decisions, seconds = mcts_rate(spec, games, iters)
    print(
        f"mcts (random rollouts)     {iters_per_s:10,.0f} iterations/s (target >= 20,000; "
        f"{decisions} decisions, {seconds:.1f} s)"
    )
    # For information: the default settings (greedy rollouts cut after 10 moves).
    default_spec = f"mcts:iters={iters}"
    default_rate, decisions, seconds = mcts_rate(default_spec, games, iters)
    print(
        f"mcts (default settings)    {default_rate:10,.0f} iterations/s "
        f"({decisions} decisions, {seconds:.1f} s)"
    )
    hiroba_rate, decisions, seconds = mcts_rate(default_spec, games, iters, "hiroba")
    print(
        f"mcts hiroba (default)      {hiroba_rate:10,.0f} iterations/s "
        f"({decisions} decisions, {seconds:.1f} s)"
    )
    wide, narrow = large_move_lists(iters)
    print(
        f"mcts at 2,000 legal moves  {wide:10,.0f} iterations/s; at 20: {narrow:,.0f}; "
        f"ratio {wide / narrow:.2f} (target >= 0.5)"
    )
    return {
        "mcts_iters_per_s": round(iters_per_s),
        "mcts_spec": spec,
        "mcts_default_iters_per_s": round(default_rate),
        "mcts_default_spec": default_spec,
        "mcts_hiroba_default_iters_per_s": round(hiroba_rate),
        "mcts_2000_moves_iters_per_s": round(wide),
        "mcts_20_moves_iters_per_s": round(narrow),
        "large_move_ratio": round(wide / narrow, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4_000, help="greedy self-play games per run (default 4000)")
    ap.add_argument("--mcts-games", type=int, default=4, help="games of mcts vs greedy (default 4)")
    ap.add_argument("--iters", type=int, default=1000, help="MCTS iterations per decision (default 1000)")
    ap.add_argument("--per-game-iters", type=int, default=300, help="per-game table iterations")
    ap.add_argument("--per-game-games", type=int, default=2, help="games per cell of that table (default 2)")
    add_out(ap, "agents")
    args = ap.parse_args()

    def greedy() -> int:
        rust_core.simulate("alhambra", {}, ["greedy", "greedy"], seed=1, start=0, count=args.games)
        return args.games

    greedy_rate = best_rate(greedy, 3)
    print(f"greedy self-play           {greedy_rate:10,.0f} games/s (target >= 2,000)")
    searches = search_rates(args.mcts_games, args.iters)
    print(f"per game, {args.per_game_iters} iterations, default settings (before: mcts1; after: mcts):")
    by_game = per_game(args.per_game_iters, args.per_game_games)
    figures = {
        "per_game_iters_per_s": {g: {k: round(v) for k, v in r.items()} for g, r in by_game.items()},
        "greedy_games_per_s": round(greedy_rate),
        **searches,
    }
    print(f"wrote {write('agents', figures, args.out)}")


if __name__ == "__main__":
    main()
