"""Luck-corrected outcomes (issue 52): variance saved, unbiasedness and cost, per game and agent.

Per game, ``--deals`` deals of 2-player self-play of ``--agent`` (paired seats) are played twice,
without and with the luck measurement (``rust_core.simulate(..., luck=True)``; the games are the
same, which the script checks). Per deal, the start player's win share raw and corrected
(``win - luck``). Printed and recorded per game: the start-player advantage raw and corrected with
95% intervals (Student-t over deals), their paired difference with its interval (it should hold
0: the correction is unbiased), the per-deal variances and their ratio (the factor of deals saved
for the same interval width), the share of the outcome's variance the measured luck explains, and
the process-CPU cost of the measurement (with / without). The factor of deals saved has a 95%
bootstrap interval (deals resampled). Beside ``win - luck`` the script reads ``win - beta * luck``
two ways, each unbiased since no deal's ``beta`` reads that deal: ``fitted``, the study estimator
of that name (each deal's ``beta`` the least-squares slope of outcome on luck over the deals
before it: :func:`analysis.estimator.predictable_slopes`), and ``crossfit`` (the slope over the
deals of the other nine folds, fold = deal index mod 10: :func:`crossfit`). The per-deal table
(start player's win share and luck per deal) is written beside the results file, and
``--tables DIR`` re-derives every figure but the CPU from the tables in ``DIR``.

    python -m bench.luck [GAME ...] [--agent greedy] [--deals 2000] [--luck-value learned] [--seed 2026]
    python -m bench.luck --tables DIR

``--luck-value`` is the value ``V`` the measurement uses: ``learned`` (the game's learned
evaluation, the default) or ``rollout:k=K[,h=H][,at=all|deal|all+ties|deal+ties]`` (the mean
of ``K`` greedy playouts on fixed streams, cut after ``H`` decisions and then valued by the
learned evaluation, 0 = to the end; ``at=deal`` measures the deal's luck only; ``+ties`` adds the
luck of greedy's tie-breaks).

Writes luck-<agent>.json (luck-<agent>-<value>.json for another value) and, per game,
luck-<...>-<game>-deals.csv into ``--out``; ``--tables`` writes luck-tables.json (one entry per
table).
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import numpy as np
import polars as pl

import rust_core
from analysis.estimator import luck_units, predictable_slopes, slope
from analysis.luck import saved_interval as deals_saved
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


FOLDS = 10


def crossfit(deal: np.ndarray, raw: np.ndarray, luck: np.ndarray) -> np.ndarray:
    """Each deal's ``beta``: the least-squares slope of ``raw`` on ``luck`` over the deals of the
    other folds (fold = deal index mod :data:`FOLDS`); 1 where they hold no spread of luck."""
    beta = np.ones_like(luck)
    for f in range(FOLDS):
        out = deal % FOLDS != f
        beta[~out] = slope(raw[out], luck[out])
    return beta


def saved_interval(raw: np.ndarray, corrected: np.ndarray) -> list[float]:
    """The deals-saved factor and its 95% bootstrap interval (:func:`analysis.luck.saved_interval`)."""
    e = deals_saved(raw, corrected)
    return [e.estimate, e.lo, e.hi]


def _fitted_slopes(deals: pl.DataFrame) -> np.ndarray:
    """Each deal's fitted slope, over the deals before it in its own run (a pooled table's
    ``seed`` column tells the runs apart)."""
    beta = np.ones(deals.height)
    runs = deals["seed"].to_numpy() if "seed" in deals.columns else np.zeros(deals.height)
    for run in np.unique(runs):
        at = runs == run
        beta[at] = predictable_slopes(deals["win"].to_numpy()[at], deals["luck"].to_numpy()[at])
    return beta


def figures(deals: pl.DataFrame) -> dict[str, object]:
    """The figures of a per-deal table (:func:`analysis.estimator.luck_units`; see the module docstring)."""
    raw, luck = deals["win"].to_numpy() - 0.5, deals["luck"].to_numpy()
    corrected = raw - luck
    fitted = raw - _fitted_slopes(deals) * luck
    crossed = raw - crossfit(deals["deal_index"].to_numpy(), raw, luck) * luck
    var_raw, var_corrected = float(raw.var(ddof=1)), float(corrected.var(ddof=1))
    saved = saved_interval(raw, corrected)
    return {
        "raw": t_interval(raw),
        "corrected": t_interval(corrected),
        "difference": t_interval(raw - corrected),
        "variance_raw": var_raw,
        "variance_corrected": var_corrected,
        "deals_saved_factor": saved[0],
        "deals_saved_interval": saved,
        "variance_explained_by_luck": 1 - var_corrected / var_raw,
        "slope": slope(raw, luck),
        "fitted_corrected": t_interval(fitted),
        "fitted_difference": t_interval(raw - fitted),
        "fitted_deals_saved_interval": saved_interval(raw, fitted),
        "crossfit_corrected": t_interval(crossed),
        "crossfit_difference": t_interval(raw - crossed),
        "crossfit_deals_saved_interval": saved_interval(raw, crossed),
    }


def measure(
    game: str, agent: str, deals: int, value: str = "learned", seed: int = 2026
) -> tuple[dict[str, object], pl.DataFrame]:
    """One game's figures (see the module docstring) and its per-deal table."""
    agents = [agent, agent]
    plain, cpu_plain = _timed(game, agents, deals, False, value, seed)
    rows, cpu_luck = _timed(game, agents, deals, True, value, seed)
    assert plain.equals(rows.drop("luck")), f"{game}: measuring luck changed the games"
    table = luck_units(rows, paired=True)
    head = {"deals": deals, "luck_value": value, "seed": seed}
    return {**head, **figures(table), "cpu_ratio": cpu_luck / cpu_plain}, table


def _line(f: dict[str, object]) -> str:
    raw, corrected, fitted = (f[k] for k in ("raw", "corrected", "fitted_corrected"))
    assert isinstance(raw, list) and isinstance(corrected, list) and isinstance(fitted, list)
    cpu = f"  CPU x{f['cpu_ratio']:.2f}" if "cpu_ratio" in f else ""
    return (
        f"raw {points(raw)}  corrected {points(corrected)}  fitted {points(fitted)}  deals saved "
        f"{_factor(f['deals_saved_interval'])}, fitted {_factor(f['fitted_deals_saved_interval'])}, "
        f"cross-fitted {_factor(f['crossfit_deals_saved_interval'])}{cpu}"
    )


def _factor(v: object) -> str:
    assert isinstance(v, list)
    return f"x{v[0]:.2f} [x{v[1]:.2f}, x{v[2]:.2f}]"


def reread(folder: Path, out: Path) -> None:
    """Every figure but the CPU, from each per-deal table in ``folder`` (``--tables``), and from
    the tables of one game and value on several seeds pooled (each seed's slopes its own)."""
    found: dict[str, object] = {}
    seeds: dict[str, list[pl.DataFrame]] = {}
    for table in sorted(folder.glob("luck-*-deals.csv")):
        deals = pl.read_csv(table)
        found[table.stem] = f = figures(deals)
        print(f"{table.stem}\n  {_line(f)}", flush=True)
        seed = re.search(r"-seed(\d+)-", table.stem)
        name = re.sub(r"-seed\d+-", "-", table.stem)
        seeds.setdefault(name, []).append(
            deals.with_columns(seed=pl.lit(int(seed.group(1)) if seed else 2026))
        )
    for name, tables in seeds.items():
        if len(tables) > 1:
            found[f"{name}-pooled"] = f = figures(pl.concat(tables))
            print(f"{name}, {len(tables)} seeds pooled\n  {_line(f)}", flush=True)
    print(write("luck-tables", found, out))


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
    ap.add_argument("--tables", type=Path, help="re-derive the figures from the per-deal tables in a folder")
    add_out(ap, "luck")
    args = ap.parse_args()
    if args.tables is not None:
        reread(args.tables, args.out)
        return
    safe = args.agent.replace(":", "_").replace("=", "")
    if args.seed != 2026:
        safe += f"-seed{args.seed}"
    if args.luck_value != "learned":
        safe += "-" + args.luck_value.replace(":", "_").replace("=", "").replace(",", "_")
    found: dict[str, object] = {"agent": args.agent, "luck_value": args.luck_value}
    for game in args.games:
        f, table = measure(game, args.agent, args.deals, args.luck_value, args.seed)
        found[game] = f
        print(f"{game:9s} {_line(f)}", flush=True)
        args.out.mkdir(parents=True, exist_ok=True)
        table.write_csv(args.out / f"luck-{safe}-{game}-deals.csv")
    print(write(f"luck-{safe}", found, args.out))


if __name__ == "__main__":
    main()
