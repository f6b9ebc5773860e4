"""`balancelab fairest` on coin, whose fair setting is known: coverage over replications.

The target: the fair value lies within the interval fairest reports (the range of the settings left
in the race) in at least 95% of the replications. Each replication writes a coin study (2 players,
random agents, paired seats, its own seed) whose candidates are `first` = 0.30, 0.35, ..., 0.70 (the
start player's win probability; fair at exactly 0.5) and runs the real `balancelab fairest` on it
(run directory, rounds, manifest) with a local Ray started once. Per replication: whether the fitted
crossing's 95% interval holds 0.5, whether 0.5 is among the settings left in the race, whether the
fairest one named is 0.5, and the games spent. With `--optuna-reps N` it also runs Optuna's TPE
sampler on the same space (each trial a fixed batch of games at one value, played directly with
rust_core; settled when the best value has not changed for `--patience` trials) to compare the games
each needs.

    python -m bench.fairest_coin [--reps 100] [--games 200] [--optuna-reps 20]

Writes fairest-coin.json into `--out`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import binomtest

from bench.common import add_out, write

FAIR = 0.5
STUDY = """\
name = "coin-fairest-{rep}"
game = "coin"
seed = {rep}
games_per_cell = {games}
pair_seats = true
practical_threshold = {threshold}
[grid]
players = [2]
agents = ["random"]
[grid.options]
first = {{ from = 0.3, to = 0.7, step = 0.05 }}
"""


def one_race(rep: int, games: int, max_games: int, threshold: float, folder: Path) -> dict[str, Any]:
    from balancelab_cli import main

    path = folder / f"coin-{rep}.toml"
    path.write_text(STUDY.format(rep=rep, games=games, threshold=threshold))
    out = folder / f"run-{rep}"
    args = ["fairest", str(path), "--out", str(out), "--quiet", "--no-report", "--max-games", str(max_games)]
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(args)
    if code != 0:
        raise SystemExit(f"fairest failed on replication {rep} (exit {code})")
    manifest = json.loads((out / "manifest.json").read_text())
    rounds = [r["fairest"] for r in manifest["precision_rounds"] if "fairest" in r]
    last = rounds[-1]
    cands = last["candidates"]
    left = [c for c in cands if c["status"] == "in"]
    best = min(left, key=lambda c: max(abs(c["lo"]), abs(c["hi"])))
    cross = last["crossing"] or {}
    lo, hi = cross.get("lo"), cross.get("hi")
    return {
        "covered": lo is not None and hi is not None and lo <= FAIR <= hi,
        "fair_left": any(abs(_first(c["label"]) - FAIR) < 1e-9 for c in left),
        "fairest_is_fair": abs(_first(best["label"]) - FAIR) < 1e-9,
        "games": last["games_spent"],
        "rounds": len(rounds),
        "settled": last["settled"],
        "width": (hi - lo) if lo is not None and hi is not None else math.inf,
    }


def _first(label: str) -> float:
    """The `first` value of a candidate's short name (e.g. ``first=0.45``)."""
    for part in label.replace(",", " ").split():
        if part.startswith("first="):
            return float(part.split("=", 1)[1])
    raise ValueError(f"no first= in {label!r}")


def optuna_search(rep: int, games: int, patience: int, max_trials: int) -> dict[str, Any]:
    """TPE over the same 9 values; each trial plays `games` paired games at one value."""
    import optuna

    import rust_core

    optuna.logging.set_verbosity(logging.WARNING)
    values = [round(0.3 + 0.05 * i, 2) for i in range(9)]

    def objective(trial: Any) -> float:
        first = trial.suggest_categorical("first", values)
        t = rust_core.simulate(
            "coin",
            {"first": first},
            ["random", "random"],
            10_000 * rep + trial.number,
            0,
            games,
            pair_seats=True,
        ).to_pydict()
        wins = [w for w, s in zip(t["win"], t["seat"], strict=True) if s == 0]
        return abs(float(np.mean(wins)) - FAIR)

    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=rep))
    best, stable, trials = None, 0, 0
    while trials < max_trials and stable < patience:
        study.optimize(objective, n_trials=1)
        trials += 1
        now = study.best_params["first"]
        stable = stable + 1 if now == best else 0
        best = now
    return {"games": trials * games, "trials": trials, "fairest_is_fair": abs(float(best) - FAIR) < 1e-9}


def summary(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    k = sum(bool(r[key]) for r in rows)
    ci = binomtest(k, len(rows)).proportion_ci(0.95, method="wilson") if rows else None
    return {"share": k / len(rows) if rows else None, "count": k, "of": len(rows),
            "ci95": [ci.low, ci.high] if ci else None}  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=100, help="replications of fairest (default 100)")
    p.add_argument("--games", type=int, default=200, help="first-round games per candidate (default 200)")
    p.add_argument("--max-games", type=int, default=12_800, help="game cap per candidate (default 12,800)")
    p.add_argument("--threshold", type=float, default=0.02, help="practical threshold (default 0.02)")
    p.add_argument("--optuna-reps", type=int, default=0, help="replications of the Optuna comparison")
    p.add_argument("--patience", type=int, default=10, help="Optuna: trials without a new best to stop")
    add_out(p, "fairest-coin")
    args = p.parse_args()

    import ray

    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray.init(
        address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
    )
    t0 = time.perf_counter()
    races = []
    with tempfile.TemporaryDirectory(prefix="fairest-coin-") as tmp:
        for rep in range(args.reps):
            races.append(one_race(rep + 1, args.games, args.max_games, args.threshold, Path(tmp)))
    ray.shutdown()
    race_s = time.perf_counter() - t0
    tpe = [optuna_search(rep + 1, args.games, args.patience, 400) for rep in range(args.optuna_reps)]
    figures = {
        "case": "coin, 2 players, first = 0.30..0.70 step 0.05 (fair at 0.5), random agents, paired seats",
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "racing": {
            "crossing_interval_holds_fair": summary(races, "covered"),
            "fair_setting_left_in_race": summary(races, "fair_left"),
            "fairest_named_is_fair": summary(races, "fairest_is_fair"),
            "settled": summary(races, "settled"),
            "games_median": float(np.median([r["games"] for r in races])) if races else None,
            "games_mean": float(np.mean([r["games"] for r in races])) if races else None,
            "rounds_mean": float(np.mean([r["rounds"] for r in races])) if races else None,
            "crossing_width_median": float(np.median([r["width"] for r in races])) if races else None,
            "wall_seconds": round(race_s, 1),
        },
        "optuna_tpe": {
            "fairest_named_is_fair": summary(tpe, "fairest_is_fair"),
            "games_median": float(np.median([r["games"] for r in tpe])) if tpe else None,
            "games_mean": float(np.mean([r["games"] for r in tpe])) if tpe else None,
        },
    }
    out = write("fairest-coin", figures, args.out)
    r = figures["racing"]
    print(
        f"fairest on coin, {args.reps} replications: crossing interval holds the fair value in "
        f"{r['crossing_interval_holds_fair']['count']}/{args.reps}; fair setting left in the race in "
        f"{r['fair_setting_left_in_race']['count']}/{args.reps}; fairest named = fair in "
        f"{r['fairest_named_is_fair']['count']}/{args.reps}; median {r['games_median']} games"
    )
    if tpe:
        o = figures["optuna_tpe"]
        print(
            f"optuna TPE, {len(tpe)} replications: "
            f"best = fair in {o['fairest_named_is_fair']['count']}/{len(tpe)}; "
            f"median {o['games_median']} games"
        )
    print(f"-> {out}")


if __name__ == "__main__":
    main()
