"""Which rule switches move the start-player advantage? A greedy self-play screen.

For a game and each player count, plays the defaults and every listed value of each switch
alone (the values a schema entry lists as ``"a" | "b"`` or ``true | false``, plus the extra
variants below) in greedy self-play with paired seats. Every variant plays the **same deals**
(a deal depends only on the seed and its index), so the change against the defaults is a
paired comparison over deals.

Per variant: the start-player advantage (seat-0 win share minus 1/n) with its 95% interval
(:func:`analysis.stats.seats.start_advantage`, the deal as the unit), and its change against
the defaults with a 95% Student-t interval over the per-deal differences.

    python -m bench.switch_screen taluva --deals 1000
    python -m bench.switch_screen titania --deals 1000 --players 2 3

Writes ``switch-screen-<game>.json`` into ``--out`` and prints a table.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import polars as pl

import rust_core
from analysis.stats.intervals import mean_ci
from analysis.stats.seats import start_advantage
from bench.common import add_out, write

#: Variants worth screening that the schema does not list as choices (numbers).
EXTRA: dict[str, list[dict[str, Any]]] = {"taluva": [{"tiles": 12}]}
SEED = 20261125


def switch_variants(game: str) -> list[dict[str, Any]]:
    """The defaults, then each listed value of every switch alone (and :data:`EXTRA`)."""
    out: list[dict[str, Any]] = [{}]
    for spec in rust_core.variant_schema(game):
        for text in spec["allowed"].split(" | "):
            try:
                value = json.loads(text.strip())
            except json.JSONDecodeError:
                continue
            if isinstance(value, (str, bool)) and value != spec["default"]:
                out.append({spec["name"]: value})
    return out + EXTRA.get(game, [])


def seat0_per_deal(rows: pl.DataFrame) -> np.ndarray:
    """Seat 0's mean win share per deal, in deal order."""
    per = rows.filter(pl.col("seat") == 0).group_by("deal_index").agg(pl.col("win").mean()).sort("deal_index")
    return per["win"].to_numpy().astype(float)


def screen(game: str, n: int, deals: int) -> list[dict[str, Any]]:
    """One record per variant: advantage and change against the defaults, with intervals."""
    agents = ["greedy"] * n
    base: np.ndarray | None = None
    out = []
    for variant in switch_variants(game):
        try:
            rust_core.validate(game, variant, agents)
        except ValueError:
            continue  # e.g. more tiles than the box holds at this player count
        t0 = time.process_time()
        batch = rust_core.simulate(
            game, variant, agents, seed=SEED, start=0, count=deals * n, pair_seats=True
        )
        rows = pl.from_arrow(batch)
        assert isinstance(rows, pl.DataFrame)
        adv = start_advantage(rows, paired=True)
        per_deal = seat0_per_deal(rows)
        base = per_deal if base is None else base
        diff = mean_ci(per_deal - base)
        capped = rows.filter(pl.col("capped") == 1)["game_index"].n_unique()
        out.append(
            {
                "players": n,
                "variant": variant,
                "normal_form_same_as_default": rust_core.normalize_variant(game, variant, n)
                == rust_core.normalize_variant(game, {}, n),
                "advantage": [adv.estimate, adv.lo, adv.hi],
                "change": [diff.estimate, diff.lo, diff.hi],
                "deals": deals,
                "capped_games": capped,
                "cpu_s": round(time.process_time() - t0, 2),
            }
        )
    return out


def _fmt(triple: list[float]) -> str:
    e, lo, hi = (100 * x for x in triple)
    return f"{e:+6.1f} [{lo:+6.1f}, {hi:+6.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=rust_core.games())
    ap.add_argument(
        "--deals", type=int, default=1000, help="deals per cell (each played once per seat rotation)"
    )
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    add_out(ap, "switch-screen")
    args = ap.parse_args()
    records = [r for n in args.players for r in screen(args.game, n, args.deals)]
    print(f"{args.game}: greedy self-play, {args.deals} deals per cell, paired seats; points, 95% intervals")
    print(f"{'players':>7}  {'variant':<36} {'advantage':>24} {'change vs defaults':>24}")
    for r in records:
        name = json.dumps(r["variant"]) if r["variant"] else "(defaults)"
        change = "" if not r["variant"] else _fmt(r["change"])
        print(f"{r['players']:>7}  {name:<36} {_fmt(r['advantage']):>24} {change:>24}")
    figures = {"seed": SEED, "agents": "greedy", "records": records}
    path = write(f"switch-screen-{args.game}", figures, args.out)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
