"""One equal-time comparison measured on several seeds: each run and their pooled win share.

    python -m bench.pool_seeds FILE [FILE ...] [--name NAME] [--out DIR]

Each FILE is a JSON of `bench.equal_time` (the same game and the same two agents, played on
different seeds). Prints each run's win share with its 95% interval and the pooled share over
all their deals: the mean weighted by games, with a 95% normal interval whose standard error
combines each run's (taken from its interval over deals: runs on different seeds share no deal).
Writes pool-<first FILE's name without its seed>.json, or pool-NAME.json with `--name NAME`,
beside the first FILE (its experiment's folder) or into `--out DIR`; refuses (exit 2, nothing
written) to replace a pool of other files there. Refuses
files of different games or agents, or a seed twice; prints each run's agent versions and
evaluation hash, since a version also moves when another game's weights change (read them before pooling).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any

from bench.common import write
from bench.mcts_strength import Z95 as Z  # the quantile of equal_time.py's intervals


def agents(run: dict[str, Any]) -> tuple[str, str, str]:
    """The game and the two agents' specs without their iteration counts (set per run by the
    calibration)."""
    return (run["game"], *(re.sub(r"iters=\d+,?", "", run[k]).rstrip(":,") for k in ("new", "old")))


def pooled(runs: list[dict[str, Any]]) -> tuple[float, float, float]:
    """Win share over all the runs' games with a 95% normal interval."""
    total = sum(r["games"] for r in runs)
    share = sum(r["win_share"] * r["games"] for r in runs) / total
    se = math.sqrt(sum((r["games"] * (r["ci95"][1] - r["ci95"][0]) / (2 * Z)) ** 2 for r in runs)) / total
    return share, share - Z * se, share + Z * se


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--name", help="write pool-NAME.json (default: the first FILE's name without its seed)")
    ap.add_argument("--out", type=Path, help="folder for the pool (default: the first FILE's folder)")
    args = ap.parse_args()
    out = args.out or args.files[0].parent
    runs = [json.loads(f.read_text(encoding="utf-8")) for f in args.files]
    kinds = {agents(r) for r in runs}
    if len(kinds) > 1:
        ap.error(f"the files compare different games or agents: {sorted(kinds)}")
    seeds = [r["seed"] for r in runs]
    if len(set(seeds)) < len(seeds):
        ap.error(f"seeds {seeds}: a seed twice would count its deals twice")
    name = "pool-" + (args.name or re.sub(r"-seed\d+$", "", args.files[0].stem))
    files = [f.name for f in args.files]
    earlier = out / f"{name}.json"
    if earlier.is_file() and json.loads(earlier.read_text(encoding="utf-8")).get("files") != files:
        ap.error(f"{earlier} pools other files; give --name to write another pool")
    for f, r in zip(args.files, runs, strict=True):
        lo, hi = r["ci95"]
        versions = ", ".join(f"{k} v{v}" for k, v in r.get("agent_versions", {}).items())
        print(f"seed {r['seed']}: {r['win_share']:.3f} [{lo:.3f}, {hi:.3f}] in {r['games']} games "
              f"({versions}; evaluation {r.get('eval_hash', '?')}; {f.name})")  # fmt: skip
    share, lo, hi = pooled(runs)
    game, new, old = kinds.pop()
    games = sum(r["games"] for r in runs)
    print(f"{game} {new} vs {old}: pooled {share:.3f} [{lo:.3f}, {hi:.3f}], {games} games on seeds {seeds}")
    figures = {"game": game, "new": new, "old": old, "files": files, "games": games,
               "win_share": round(share, 4), "ci95": [round(lo, 4), round(hi, 4)]}  # fmt: skip
    print(f"wrote {write(name, figures, out)}")


if __name__ == "__main__":
    main()
