"""Fits a game's learned evaluation from recorded positions and writes its weights file.

    python -m bench.train_eval GAME [--agent SPEC] [--games 2000] [--workers 2] [--seed 5]
                               [--label SPEC] [--run DIR | --load FILE] [--save FILE]
                               [--variant JSON] [--dry-run]

Data: with ``--run DIR``, the positions table of a run directory (a study with
``record_positions = true``); otherwise ``--games`` 2-player self-play games of ``--agent``
(seats paired) played here with ``rust_core`` (one sampled position per player per game, as a
study records them). With ``--label SPEC`` each position is also searched afresh by that agent
(e.g. ``mcts:iters=2000``: one search per position), and the fit's target is the search's
estimated win share (the ``value`` column) instead of the game's outcome: far less noisy, and
what a stronger player makes of the position rather than how greedy self-play ended it.
``--save`` keeps the positions (with their source) in a Parquet file, ``--load`` fits from one.

Deals are split into a training set and a held-out quarter (every fourth deal). Fit:
scikit-learn's ``LogisticRegression`` (standardised features, folded back into the raw
coefficients) and, for comparison, ``HistGradientBoostingClassifier``; a target share ``t``
counts as a win with weight ``t`` and a loss with weight ``1 - t``. Prints the held-out
log-loss and accuracy against the games' outcomes of both models, of the game's hand-written
``win_estimate`` (where it has one) and of the label search (with ``--label``), the seconds per
10,000 single-position predictions of each model, and the time taken. The logistic model is
written to ``rust_core/src/games/GAME/GAME_eval_weights.txt`` (unless ``--dry-run``): a dot
product per player, the cheapest evaluation the search can call; rebuild ``rust_core`` to
compile it in. Writes train-eval-GAME.json into `--out`.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from bench.common import add_out, write

ROOT = Path(__file__).resolve().parent.parent


def play_chunk(
    game: str, variant: dict, agent: str, seed: int, start: int, count: int, label: str | None
) -> pl.DataFrame:
    """Positions of self-play games ``start .. start + count`` of ``agent`` (searched by ``label``)."""
    import pyarrow as pa

    import rust_core

    spec = rust_core.BatchSpec(game, variant, [agent, agent], seed, pair_seats=True)
    _, positions = spec.simulate_positions(start, count, label)
    return pl.from_arrow(pa.Table.from_batches([positions]))  # type: ignore[return-value]


def self_play(
    game: str, variant: dict, agent: str, games: int, seed: int, workers: int, label: str | None
) -> pl.DataFrame:
    chunk = 20
    with ProcessPoolExecutor(workers) as pool:
        jobs = [
            pool.submit(play_chunk, game, variant, agent, seed, s, min(chunk, games - s), label)
            for s in range(0, games, chunk)
        ]
        return pl.concat([j.result() for j in jobs])


def from_run(out: Path) -> pl.DataFrame:
    """The verified positions table of run directory ``out``."""
    from rundir import positions_paths

    return pl.concat([pl.read_parquet(p) for p in positions_paths(out)])


def save(frame: pl.DataFrame, source: str, path: Path) -> None:
    """Writes the positions to Parquet file ``path`` with their ``source`` in its metadata."""
    import pyarrow.parquet as pq

    pq.write_table(frame.to_arrow().replace_schema_metadata({"source": source}), path)


def load(path: Path) -> tuple[pl.DataFrame, str]:
    """The positions and their source, as :func:`save` wrote them."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    source = (table.schema.metadata or {}).get(b"source", path.name.encode()).decode()
    return pl.from_arrow(table), source  # type: ignore[return-value]


@dataclass
class Split:
    rows: np.ndarray  # one per position
    x: np.ndarray  # each position twice, as a win and as a loss
    y: np.ndarray
    w: np.ndarray
    win: np.ndarray
    estimate: np.ndarray
    value: np.ndarray


def split(frame: pl.DataFrame, names: list[str], holdout: bool, target: str = "win") -> Split:
    """Training rows (``holdout`` False) or held-out rows: every fourth deal is held out. Each row
    appears as a win with weight ``t`` and a loss with weight ``1 - t``, ``t`` its ``target``
    column (``win``, the outcome, or ``value``, a label search's estimate: rows without one are
    left out of the fit)."""
    deal = frame["game_index"].to_numpy() // 2
    part = frame.filter(pl.Series((deal % 4 == 0) == holdout))
    x = part.select([f"f_{n}" for n in names]).to_numpy().astype(np.float64)
    win = part["win"].to_numpy().astype(np.float64)
    est = part["estimate"].to_numpy().astype(np.float64)
    value = part["value"].to_numpy() if "value" in part.columns else np.full(len(x), np.nan)
    t = {"win": win, "value": value}[target]
    labelled = ~np.isnan(t)
    xx = np.vstack([x[labelled], x[labelled]])
    yy = np.concatenate([np.ones(labelled.sum()), np.zeros(labelled.sum())])
    ww = np.concatenate([t[labelled], 1.0 - t[labelled]])
    keep = ww > 0
    return Split(x, xx[keep], yy[keep], ww[keep], win, est, value)


def scores(p: np.ndarray, win: np.ndarray) -> dict[str, float]:
    """Held-out log-loss (win share as the target) and accuracy (on decided rows)."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    loss = float(-np.mean(win * np.log(p) + (1 - win) * np.log(1 - p)))
    decided = win != 0.5
    acc = float(np.mean((p[decided] > 0.5) == (win[decided] > 0.5)))
    return {"log_loss": round(loss, 4), "accuracy": round(acc, 4)}


def per_position_seconds(predict, x: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    """Seconds for 10,000 single-position predictions (what a search does, one leaf at a time)."""
    rows = x[:50]
    t0 = time.process_time()
    for r in rows:
        predict(r.reshape(1, -1))
    return (time.process_time() - t0) / len(rows) * 10_000


def fit(train: Split, test: Split) -> tuple[dict[str, dict[str, float]], tuple[float, np.ndarray]]:
    """Both models' held-out figures and the logistic model's raw (intercept, coefficients)."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(train.x)
    logit = LogisticRegression(C=1.0, max_iter=2000).fit(
        scaler.transform(train.x), train.y, sample_weight=train.w
    )
    coef = logit.coef_[0] / scaler.scale_
    intercept = float(logit.intercept_[0] - np.sum(logit.coef_[0] * scaler.mean_ / scaler.scale_))
    hgb = HistGradientBoostingClassifier(max_iter=100, learning_rate=0.1, random_state=0).fit(
        train.x, train.y, sample_weight=train.w
    )
    xt = test.rows
    results = {
        "logistic": scores(1 / (1 + np.exp(-(intercept + xt @ coef))), test.win),
        "hist_gradient_boosting": scores(hgb.predict_proba(xt)[:, 1], test.win),
    }
    results["logistic"]["s_per_10k"] = round(
        per_position_seconds(lambda r: 1 / (1 + np.exp(-(intercept + r @ coef))), xt), 4
    )
    results["hist_gradient_boosting"]["s_per_10k"] = round(
        per_position_seconds(lambda r: hgb.predict_proba(r), xt), 4
    )
    for name, column in (("win_estimate", test.estimate), ("label_search", test.value)):
        known = ~np.isnan(column)
        if known.any():
            results[name] = scores(column[known], test.win[known])
    return results, (intercept, coef)


def weights_text(game: str, names: list[str], intercept: float, coef: np.ndarray, fitted: str) -> str:
    lines = ["format 1", f"game {game}", "model logistic", f"fitted {fitted}", f"intercept {intercept:.6g}"]
    lines += [f"{n} {c:.6g}" for n, c in zip(names, coef, strict=True)]
    return (
        "# Written by bench/train_eval.py; compiled into rust_core (include_str!).\n"
        + "\n".join(lines)
        + "\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--agent", default="mcts:iters=30", help="self-play agent (default mcts:iters=30)")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--variant", default="{}", help="variant options as JSON (default: the official rules)")
    ap.add_argument("--run", type=Path, default=None, help="read the positions of this run directory instead")
    ap.add_argument(
        "--label",
        default=None,
        help="search each position afresh with this agent (e.g. mcts:iters=2000) and fit its estimated "
        "win share instead of the game's outcome",
    )
    ap.add_argument("--save", type=Path, default=None, help="also write the positions to this Parquet file")
    ap.add_argument("--load", type=Path, default=None, help="read the positions of this Parquet file instead")
    ap.add_argument("--dry-run", action="store_true", help="print the figures, write no weights file")
    add_out(ap, "train-eval")
    args = ap.parse_args()
    import rust_core

    t0 = time.perf_counter()
    names = rust_core.feature_names(args.game)
    variant = json.loads(args.variant)
    if args.run is not None:
        frame, source = from_run(args.run), f"run {args.run}"
    elif args.load is not None:
        frame, source = load(args.load)
    else:
        frame = self_play(args.game, variant, args.agent, args.games, args.seed, args.workers, args.label)
        source = f"{args.games} self-play games of {args.agent}, seed {args.seed}"
        if args.label is not None:
            source += f", each searched by {args.label} (target: its estimate)"
    labelled = "value" in frame.columns and bool(frame["value"].is_not_nan().any())
    if args.label is not None and not labelled:
        ap.error(f"--label {args.label}: that agent estimated no position; label with a search (mcts, xmcts)")
    if args.save is not None:
        save(frame, source, args.save)
    target = "value" if labelled else "win"
    t_data = time.perf_counter() - t0
    results, (intercept, coef) = fit(split(frame, names, False, target), split(frame, names, True))
    t_fit = time.perf_counter() - t0 - t_data
    rules = rust_core.rules_version(args.game)
    fitted = f"rules v{rules}, variant {json.dumps(variant)}, {frame.height} positions from {source}"
    print(f"{args.game}: {frame.height} positions ({source}); data {t_data:.0f} s, fit {t_fit:.0f} s")
    for model, figures in results.items():
        print(f"  {model:24s} " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    target = ROOT / "rust_core" / "src" / "games" / args.game / f"{args.game}_eval_weights.txt"
    if not args.dry_run:
        target.write_text(weights_text(args.game, names, intercept, coef, fitted))
        print(f"wrote {target} (rebuild rust_core to use it)")
    figures = {"game": args.game, "positions": frame.height, "source": fitted, "held_out": results,
               "data_seconds": round(t_data, 1), "fit_seconds": round(t_fit, 1)}  # fmt: skip
    print(f"wrote {write(f'train-eval-{args.game}', figures, args.out)}")


if __name__ == "__main__":
    main()
