"""Where one agent's edge over another lies: at dealt position 0 or at position 1, from a run.

    python -m bench.seat_strength RUN AGENT_A AGENT_B [--boot 400] [--seed 1]

Reads three 2-player cells of run directory RUN (verified as the reports verify it): each
agent's self-play and the match between them, all with paired seats. Model: the position-0
player wins with probability sigmoid(s0(its agent) - s1(the other agent)), a strength per agent
per position. With AGENT_A's strengths as the reference (s0_A = 0), A's self-play gives s1_A and
the match's two seatings give B's strength at each position; B's own self-play is left over as
a check of the model (the residual, near 0 where it holds). Prints B's edge over A at position 0
and at position 1 (logits and Elo), their difference, and the residual, each with a percentile
bootstrap interval over deals (each cell's deals resampled), and writes
seat-strength-<RUN>-<A>-<B>.json into `--out`. Position 0 is the start player unless the game's
rules choose another.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import polars as pl

from bench.common import add_out, write
from rundir import Cell

ELO_PER_LOGIT = 400 / math.log(10)


def cell_of(cells: list[Cell], agents: list[str]) -> str:
    """The id of the 2-player cell whose line-up is `agents` (in either order)."""
    for c in cells:
        if c.n_players == 2 and sorted(c.agents) == sorted(agents):
            return c.id
    raise SystemExit(f"the run has no 2-player cell of {' vs '.join(agents)}")


def p0_wins(rows: pl.DataFrame) -> pl.DataFrame:
    """Per game at position 0: deal, agent, win."""
    return rows.filter(pl.col("seat") == 0).select("deal_index", "agent", "win")


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def edges(a_self: pl.DataFrame, b_self: pl.DataFrame, match: pl.DataFrame, b: str) -> np.ndarray:
    """B's edge over A at position 0, at position 1, their difference, and the residual."""
    s1_a = -logit(a_self["win"].mean())  # type: ignore[arg-type]
    b_at_0 = logit(match.filter(pl.col("agent") == b)["win"].mean())  # type: ignore[arg-type]
    a_at_0 = logit(match.filter(pl.col("agent") != b)["win"].mean())  # type: ignore[arg-type]
    s0_b = b_at_0 + s1_a  # B at 0 against A at 1
    s1_b = -a_at_0  # A (s0 = 0) at 0 against B at 1
    residual = logit(b_self["win"].mean()) - (s0_b - s1_b)  # type: ignore[arg-type]
    return np.array([s0_b, s1_b - s1_a, s1_b - s1_a - s0_b, residual])


def resample(df: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    deals = df["deal_index"].unique().to_numpy()
    return pl.DataFrame({"deal_index": rng.choice(deals, len(deals))}).join(df, on="deal_index", how="left")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--boot", type=int, default=400, help="bootstrap resamples (default 400)")
    ap.add_argument("--seed", type=int, default=1)
    add_out(ap, "seat-strength")
    args = ap.parse_args()
    from analysis.load import open_run

    run = open_run(args.run)
    cells = run.manifest.study.cells
    a_self, b_self, match = (
        p0_wins(run.cell_rows(cell_of(cells, line_up)))
        for line_up in ([args.a, args.a], [args.b, args.b], [args.a, args.b])
    )
    point = edges(a_self, b_self, match, args.b)
    rng = np.random.default_rng(args.seed)
    cells_once = (a_self, b_self, match)
    boot = np.array([edges(*(resample(d, rng) for d in cells_once), args.b) for _ in range(args.boot)])
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    names = ["edge_at_position_0", "edge_at_position_1", "position_1_minus_0", "residual"]
    figures = {"run": str(args.run), "a": args.a, "b": args.b, "boot": args.boot, "unit": "logit"}
    print(f"{args.b} against {args.a} ({args.run}), logits [95% bootstrap interval over deals]:")
    for i, name in enumerate(names):
        figures[name] = [round(float(x), 3) for x in (point[i], lo[i], hi[i])]
        elo = "" if name == "residual" else f"  ({point[i] * ELO_PER_LOGIT:+.0f} Elo)"
        print(f"  {name:22s} {point[i]:+.2f} [{lo[i]:+.2f}, {hi[i]:+.2f}]{elo}")
    tag = "-".join(x.replace(":", "_").replace("=", "") for x in (args.run.name, args.a, args.b))
    print(f"wrote {write(f'seat-strength-{tag}', figures, args.out)}")


if __name__ == "__main__":
    main()
