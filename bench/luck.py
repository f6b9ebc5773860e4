"""Luck-corrected outcomes (issue 52): variance saved, unbiasedness and cost, per game and agent.

Per game, ``--deals`` deals of 2-player self-play of ``--agent`` (paired seats) are played twice,
without and with the luck measurement (``rust_core.simulate(..., luck=True)``; the games are the
same, which the script checks). Per deal, the start player's win share raw and corrected
(``win - luck``). Printed and recorded per game: the start-player advantage raw and corrected with
95% intervals (Student-t over deals), their paired difference with its interval (it should hold
0: the correction is unbiased), the per-deal variances and their ratio (the factor of deals saved
for the same interval width), the share of the outcome's variance the measured luck explains, and
the process-CPU cost of the measurement (with / without).

    python -m bench.luck [GAME ...] [--agent greedy] [--deals 2000] [--luck-value learned] [--seed 2026]

``--luck-value`` is the value ``V`` the measurement uses: ``learned`` (the game's learned
evaluation, the default) or ``rollout:k=K[,h=H][,at=all|deal|all+ties|deal+ties]`` (the mean
of ``K`` greedy playouts on fixed streams, cut after ``H`` decisions and then valued by the
learned evaluation, 0 = to the end; ``at=deal`` measures the deal's luck only; ``+ties`` adds the
luck of greedy's tie-breaks).

Writes luck-<agent>.json (luck-<agent>-<value>.json for another value) into ``--out``.
"""

from __future__ import annotations

import argparse
import time

import polars as pl

import rust_core
from bench.common import add_out, points, t_interval, write

GAMES = ("alhambra", "hiroba", "maharaja", "taluva", "titania")


def _timed(
    game: str, agents: list[str], deals: int, luck: bool, value: str, seed: int
) -> tuple[pl.DataFrame, float]:
    t0 = time.process_time()
    batch = rust_core.simulate(
        game, {}, agents, seed, 0, 2 * deals, pair_seats=True, luck=luck, luck_value=value
    )
    rows = pl.from_arrow(batch)
    assert isinstance(rows, pl.DataFrame)
    return rows, time.process_time() - t0


def measure(game: str, agent: str, deals: int, value: str = "learned", seed: int = 2026) -> dict[str, object]:
    """One game's figures (see the module docstring)."""
    agents = [agent, agent]
    plain, cpu_plain = _timed(game, agents, deals, False, value, seed)
    rows, cpu_luck = _timed(game, agents, deals, True, value, seed)
    assert plain.equals(rows.drop("luck")), f"{game}: measuring luck changed the games"
    start = (
        rows.filter(pl.col("seat") == 0)
        .group_by("deal_index")
        .agg(pl.col("win").mean().alias("raw"), (pl.col("win") - pl.col("luck")).mean().alias("corrected"))
    )
    raw, corrected = start["raw"].to_numpy() - 0.5, start["corrected"].to_numpy() - 0.5
    explained = 1 - corrected.var(ddof=1) / raw.var(ddof=1)
    return {
        "deals": deals,
        "luck_value": value,
        "seed": seed,
        "raw": t_interval(raw),
        "corrected": t_interval(corrected),
        "difference": t_interval(raw - corrected),
        "variance_raw": float(raw.var(ddof=1)),
        "variance_corrected": float(corrected.var(ddof=1)),
        "deals_saved_factor": float(raw.var(ddof=1) / corrected.var(ddof=1)),
        "variance_explained_by_luck": float(explained),
        "cpu_ratio": cpu_luck / cpu_plain,
    }


def _line(f: dict[str, object]) -> str:
    raw, corrected, diff = (f[k] for k in ("raw", "corrected", "difference"))
    assert isinstance(raw, list) and isinstance(corrected, list) and isinstance(diff, list)
    return (
        f"raw {points(raw)}  corrected {points(corrected)}  difference {points(diff, 2)}  "
        f"deals saved x{f['deals_saved_factor']:.2f}  CPU x{f['cpu_ratio']:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument(
        "--luck-value",
        default="learned",
        help="learned, or rollout:k=K[,h=H][,at=all|deal|all+ties|deal+ties] (docstring)",
    )
    ap.add_argument("--seed", type=int, default=2026)
    add_out(ap, "luck")
    args = ap.parse_args()
    figures: dict[str, object] = {"agent": args.agent, "luck_value": args.luck_value}
    for game in args.games:
        f = measure(game, args.agent, args.deals, args.luck_value, args.seed)
        figures[game] = f
        print(f"{game:9s} {_line(f)}", flush=True)
    safe = args.agent.replace(":", "_").replace("=", "")
    if args.seed != 2026:
        safe += f"-seed{args.seed}"
    if args.luck_value != "learned":
        safe += "-" + args.luck_value.replace(":", "_").replace("=", "").replace(",", "_")
    print(write(f"luck-{safe}", figures, args.out))


if __name__ == "__main__":
    main()
