"""Helpers shared by the benchmarks: timing a callable, where results go, what they record.

Every results file is written by `write`, into an experiment's folder under bench/experiments/
(`--out`), and carries `provenance()`: the git commit, whether the tree was modified, the machine
and the versions it was measured with.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: One folder per line of inquiry: its README page and its results files (bench/experiments/README.md).
EXPERIMENTS = ROOT / "bench" / "experiments"
#: The packages whose versions each results file records.
VERSIONED = ("rust_core", "numpy", "polars", "ray")


def best_rate(work: Callable[[], int], repeats: int) -> float:
    """Units per second of the fastest of `repeats` runs of `work` (which returns its units)."""
    best = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        units = work()
        best = max(best, units / (time.perf_counter() - t0))
    return best


def t_interval(values: Any) -> list[float]:
    """``[mean, low, high]``: the mean of ``values`` (a 1-d numpy array) and its 95% Student-t
    interval."""
    from scipy import stats

    m, se = float(values.mean()), float(values.std(ddof=1) / values.size**0.5)
    q = float(stats.t.ppf(0.975, values.size - 1))
    return [m, m - q * se, m + q * se]


def points(v: list[float], digits: int = 1) -> str:
    """A ``[mean, low, high]`` share as signed points: ``+2.5 [+0.7, +4.4]``."""
    return f"{100 * v[0]:+.{digits}f} [{100 * v[1]:+.{digits}f}, {100 * v[2]:+.{digits}f}]"


def default_out(benchmark: str) -> Path:
    """A new dated experiment folder for a run that names none: bench/experiments/<UTC date>-<benchmark>."""
    return EXPERIMENTS / f"{time.strftime('%Y-%m-%d', time.gmtime())}-{benchmark}"


def add_out(ap: argparse.ArgumentParser, benchmark: str) -> None:
    """Adds `--out DIR`, the experiment folder the results file goes to."""
    ap.add_argument(
        "--out",
        type=Path,
        default=default_out(benchmark),
        help="experiment folder for the results file (default: a new dated one, "
        f"bench/experiments/<today>-{benchmark}/; name an experiment's folder to add to its record)",
    )


def _git(*args: str) -> str | None:
    """The output of a git command in the repository, or None where git or the repository is missing."""
    try:
        proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), else what `platform` knows."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _version(package: str) -> str | None:
    """The installed version of `package`, or None where it is not installed (rust_core's own:
    it ships inside the balancelab distribution)."""
    if package == "rust_core":
        import rust_core

        return str(rust_core.__version__)
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def provenance() -> dict[str, Any]:
    """What a result was measured with: commit, modified tree, machine, versions and the command."""
    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain")
    return {
        "commit": commit.strip() if commit else None,
        "modified": None if status is None else bool(status.strip()),
        "command": shlex.join([Path(sys.executable).name, *_invocation()]),
        "machine": {
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            "cpu_model": _cpu_model(),
            "host": platform.node(),
        },
        "versions": {"python": platform.python_version(), **{p: _version(p) for p in VERSIONED}},
    }


def _invocation() -> list[str]:
    """The command line as typed: `-m bench.<script>` where run as a module."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:
        return ["-m", spec.name, *sys.argv[1:]]
    return sys.argv


def write(name: str, figures: dict[str, Any], out: Path) -> Path:
    """Writes `figures` with their provenance to OUT/<name>.json (whole or not at all)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.json"
    payload = {
        "benchmark": name,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "provenance": provenance(),
        **figures,
    }
    with tempfile.NamedTemporaryFile("w", dir=out, suffix=".tmp", delete=False, encoding="utf-8") as tmp:
        tmp.write(json.dumps(payload, indent=2) + "\n")
    os.replace(tmp.name, path)
    return path
