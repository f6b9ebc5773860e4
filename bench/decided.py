"""Searches that end early in decided positions (`xmcts`'s `decided`, issue 57): CPU saved, play kept.

    python -m bench.decided [GAME ...] [--spec xmcts:iters=100] [--decided 0.95] [--deals 200] [--seed 5]

Per game, 2 players, paired seats (every deal once in each seat order), the same deals throughout:

* self-play of SPEC and of SPEC with ``decided=P``: each one's CPU per game inside its choices
  (the engine's clocks; process CPU of the agents, not of the engine) and the ratio; the
  start-player advantage of each, in points with a 95% Student-t interval over deals, and their
  difference paired by deal (it should hold 0: the rule should not change who wins);
* SPEC with ``decided=P`` against SPEC: its win share (ties half), 95% interval over deals (0.5
  if ending early costs no strength).

Writes decided-<SPEC>-<P>.json into ``--out``.
"""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl

import rust_core
from bench.common import add_out, points, t_interval, write

GAMES = ("alhambra", "hiroba", "maharaja", "taluva", "titania")


def _play(game: str, agents: list[str], deals: int, seed: int) -> tuple[pl.DataFrame, list[float]]:
    """The games' rows and each agent's CPU seconds per game inside its choices."""
    batch, clocks = rust_core.BatchSpec(game, {}, agents, seed, pair_seats=True).simulate_timed(0, 2 * deals)
    rows = pl.from_arrow(batch)
    assert isinstance(rows, pl.DataFrame)
    return rows, [c.cpu_seconds / (2 * deals) for c in clocks]


def _per_deal(rows: pl.DataFrame, column: str, value: int) -> np.ndarray:
    """Per deal, the mean win share of the rows where ``column == value``."""
    per = (
        rows.filter(pl.col(column) == value)
        .group_by("deal_index")
        .agg(pl.col("win").mean())
        .sort("deal_index")
    )
    return per["win"].to_numpy()


def measure(game: str, spec: str, decided: float, deals: int, seed: int) -> dict[str, object]:
    """One game's figures (see the module docstring)."""
    early = f"{spec},decided={decided}"
    plain, cpu_plain = _play(game, [spec, spec], deals, seed)
    ended, cpu_ended = _play(game, [early, early], deals, seed)
    duel, _ = _play(game, [early, spec], deals, seed)
    start_plain, start_ended = _per_deal(plain, "seat", 0) - 0.5, _per_deal(ended, "seat", 0) - 0.5
    return {
        "deals": deals,
        "seed": seed,
        "cpu_per_game_plain": sum(cpu_plain),
        "cpu_per_game_decided": sum(cpu_ended),
        "cpu_ratio": sum(cpu_ended) / sum(cpu_plain),
        "advantage_plain": t_interval(start_plain),
        "advantage_decided": t_interval(start_ended),
        "advantage_difference": t_interval(start_ended - start_plain),
        "win_share_against_plain": t_interval(_per_deal(duel, "player", 0)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--spec", default="xmcts:iters=100")
    ap.add_argument("--decided", type=float, default=0.95)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    add_out(ap, "decided")
    args = ap.parse_args()
    figures: dict[str, object] = {"spec": args.spec, "decided": args.decided}
    for game in args.games:
        f = measure(game, args.spec, args.decided, args.deals, args.seed)
        figures[game] = f
        share = f["win_share_against_plain"]
        assert isinstance(share, list)
        print(
            f"{game:9s} CPU x{f['cpu_ratio']:.2f}  advantage {points(f['advantage_plain'])} -> "  # type: ignore[arg-type]
            f"{points(f['advantage_decided'])} (difference {points(f['advantage_difference'])})  "  # type: ignore[arg-type]
            f"against plain {share[0]:.3f} [{share[1]:.3f}, {share[2]:.3f}]",
            flush=True,
        )
    safe = f"{args.spec}-{args.decided}".replace(":", "_").replace("=", "").replace(",", "_")
    print(write(f"decided-{safe}", figures, args.out))


if __name__ == "__main__":
    main()
