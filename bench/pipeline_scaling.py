"""Pipeline throughput: a study of Alhambra random play through ``balancelab run`` with 2 workers.

Prints games/s and the efficiency: that rate divided by 2 x the single-core ``rust_core.simulate``
rate measured in the same run (target >= 0.85). Writes pipeline.json (pipeline-million.json with
``--million``) into ``--out DIR`` (default: a new dated folder under ``bench/experiments/``).

    python -m bench.pipeline_scaling            # 1,000,000 games (about 40 s on 2 cores; start-up and
                                                # the last batches are amortised as in a real study)
    python -m bench.pipeline_scaling --games 100000
    python -m bench.pipeline_scaling --million  # 1,000,000 games: time and peak memory
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import rundir
import rust_core
from bench.common import add_out, write

STUDY = """\
name = "bench-pipeline"
description = "Alhambra, 2 players, random play, official rules"
game = "alhambra"
seed = 7
games_per_cell = {games}
pair_seats = true

[grid]
players = [2]
agents = ["random"]
"""


def single_core_rate(games: int, repeats: int = 3) -> float:
    """Best of ``repeats`` timings of ``rust_core.simulate`` in this process (one core)."""
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        rust_core.simulate("alhambra", {}, ["random", "random"], 99, r * games, games, pair_seats=True)
        best = max(best, games / (time.perf_counter() - t0))
    return best


def tree_rss(root: int) -> tuple[int, int]:
    """(RSS of ``root``, RSS of ``root`` and all its descendants) in bytes, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            ppid = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return rss.get(root, 0), total


def run_pipeline(games: int, workers: int, out: Path, study_path: Path) -> dict:
    cmd = [sys.executable, "-m", "balancelab_cli", "run", str(study_path), "--out", str(out)]
    cmd += ["--workers", str(workers), "--no-report", "--quiet"]
    peak = {"driver": 0, "tree": 0}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd)
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            driver, tree = tree_rss(proc.pid)
            peak["driver"] = max(peak["driver"], driver)
            peak["tree"] = max(peak["tree"], tree)
            stop.wait(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    rc = proc.wait()
    stop.set()
    sampler.join()
    wall = time.perf_counter() - t0
    if rc != 0:
        raise SystemExit(f"balancelab run failed with status {rc}")
    manifest = rundir.read_manifest(out).to_dict()
    return {
        "wall_s": wall,
        "manifest": manifest,
        "peak_rss_driver": peak["driver"],
        "peak_rss_tree": peak["tree"],
    }


def figures(
    res: dict[str, Any],
    workers: int,
    single: float,
    single_before_after: list[float],
    load_before: list[float],
    files: int,
    data_bytes: int,
) -> dict[str, Any]:
    """The result record of one pipeline run `res` against the single-core rate `single`."""
    man = res["manifest"]
    rate_playing = man["games_done"] / man["compute_seconds"]
    rate_e2e = man["games_done"] / res["wall_s"]
    result = {
        "bench": "pipeline",
        "games": man["games_done"],
        "workers": workers,
        "single_core_games_per_s": round(single, 1),
        "single_core_before_after": [round(x, 1) for x in single_before_after],
        "pipeline_games_per_s": round(rate_playing, 1),
        "efficiency": round(rate_playing / (workers * single), 3),
        "end_to_end_games_per_s": round(rate_e2e, 1),
        "end_to_end_efficiency": round(rate_e2e / (workers * single), 3),
        # decomposition: efficiency ~= worker_speed_ratio * busy_fraction
        "worker_games_per_s": round(man["games_done"] / man["task_seconds"], 1),
        "worker_speed_ratio": round(man["games_done"] / man["task_seconds"] / single, 3),
        "busy_fraction": round(man["task_seconds"] / (man["compute_seconds"] * workers), 3),
        # CPU the workers got while playing: below 1 when other processes shared the cores
        "worker_cpu_share": round(man["task_cpu_seconds"] / man["task_seconds"], 3),
        "worker_games_per_cpu_s": round(man["games_done"] / man["task_cpu_seconds"], 1),
        # what the efficiency would be had the workers had their cores to themselves (an estimate:
        # busy fraction x per-CPU-second speed of a worker relative to the single-core rate)
        "efficiency_estimate_cores_free": round(
            man["task_seconds"]
            / (man["compute_seconds"] * workers)
            * man["games_done"]
            / man["task_cpu_seconds"]
            / single,
            3,
        ),
        "driver_write_s": man["write_seconds"],
        "batches": man["batches"],
        "load_average_before_after": [load_before, list(os.getloadavg())],
        "wall_s": round(res["wall_s"], 2),
        "compute_s": man["compute_seconds"],
        "peak_rss_driver_mb": round(res["peak_rss_driver"] / 2**20, 1),
        "peak_rss_all_processes_mb": round(res["peak_rss_tree"] / 2**20, 1),
        "parquet_files": files,
        "parquet_mb": round(data_bytes / 2**20, 2),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "versions": man["versions"],
        "when": man["finished"],
    }
    return result


def show(result: dict[str, Any]) -> None:
    """Prints the result's two summary lines."""
    print(
        f"pipeline: {result['games']:,} games, {result['pipeline_games_per_s']:,.0f} games/s while playing "
        f"({result['end_to_end_games_per_s']:,.0f} end to end incl. Ray start, {result['wall_s']} s); "
        f"single core {result['single_core_games_per_s']:,.0f} games/s; "
        f"efficiency {result['efficiency']:.3f} "
        f"(end to end {result['end_to_end_efficiency']:.3f}); peak RSS driver "
        f"{result['peak_rss_driver_mb']} MB, all processes {result['peak_rss_all_processes_mb']} MB"
    )
    print(
        f"  one worker plays at {result['worker_speed_ratio']:.3f} x the single-core rate; workers busy "
        f"{result['busy_fraction']:.3f} of the time and got {result['worker_cpu_share']:.3f} of a core "
        f"({result['worker_games_per_cpu_s']:,.0f} games per CPU second; efficiency had the cores been free "
        f"~{result['efficiency_estimate_cores_free']:.3f}); load average before/after "
        f"{result['load_average_before_after']} (other processes on the machine lower the figures)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1_000_000, help="games in the study (default 1,000,000)")
    parser.add_argument(
        "--million", action="store_true", help="a 1,000,000-game study; reports time and memory"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--calibrate-games", type=int, default=20_000, help="games per single-core timing")
    add_out(parser, "pipeline")
    args = parser.parse_args()
    games = 1_000_000 if args.million else args.games

    load_before = list(os.getloadavg())
    single_before = single_core_rate(args.calibrate_games)
    with tempfile.TemporaryDirectory(prefix="bench-pipeline-") as tmp:
        study_path = Path(tmp) / "bench.toml"
        study_path.write_text(STUDY.format(games=games))
        res = run_pipeline(games, args.workers, Path(tmp) / "run", study_path)
        batch_files = rundir.verify_run(Path(tmp) / "run").paths()
        data_bytes = sum(p.stat().st_size for p in batch_files)
        files = len(batch_files)
    single_after = single_core_rate(args.calibrate_games)
    single = max(single_before, single_after)
    result = figures(res, args.workers, single, [single_before, single_after], load_before, files, data_bytes)
    show(result)
    print(f"wrote {write('pipeline-million' if args.million else 'pipeline', result, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
