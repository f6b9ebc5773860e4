"""How much of a greedy game's outcome the deal decides (issue 52, luck with rollouts).

With paired seats the two games of a deal share the deal and its chance stream (bag, deck and
stack orders); only the agents' streams (greedy's tie-breaks) differ. Per game: the variance of
the start seat's win, its covariance between the two games of a deal (rho = the correlation), and
the most deals any value of the deal and its chance stream can save on the per-deal mean,
(1 + rho) / (1 - rho) (the corrected per-deal variance cannot fall below (Var - Cov) / 2).

    python bench/experiments/2026-11-29-luck-rollouts/paired_games.py [AGENT [DEALS [GAME ...]]]

(defaults: greedy, 2000 deals, the five games).
"""

from __future__ import annotations

import sys

import numpy as np
import polars as pl

import rust_core

GAMES = ("alhambra", "hiroba", "maharaja", "taluva", "titania")


def main(agent: str = "greedy", deals: int = 2000, games: tuple[str, ...] = GAMES) -> None:
    """Prints one line per game."""
    for game in games:
        batch = rust_core.simulate(game, {}, [agent, agent], 2026, 0, 2 * deals, pair_seats=True)
        rows = pl.from_arrow(batch)
        assert isinstance(rows, pl.DataFrame)
        start = rows.filter(pl.col("seat") == 0).sort("game_index")
        pairs = start.group_by("deal_index", maintain_order=True).agg(pl.col("win"))
        w = np.array([x for x in pairs["win"].to_list() if len(x) == 2])
        var, cov = float(w[:, 0].var(ddof=1)), float(np.cov(w[:, 0], w[:, 1])[0, 1])
        rho = cov / var
        print(
            f"{game:9s} deals {len(w)}  Var(win) {var:.3f}  Cov(paired games) {cov:+.3f}  rho {rho:+.2f}  "
            f"same winner {np.mean(w[:, 0] == w[:, 1]):.2f}  most deals saved x{(1 + rho) / (1 - rho):.2f}"
        )


if __name__ == "__main__":
    argv = sys.argv[1:]
    main(argv[0] if argv else "greedy", int(argv[1]) if len(argv) > 1 else 2000, tuple(argv[2:]) or GAMES)
