"""Helpers shared by the benchmarks: timing a callable and writing results as JSON."""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Where results go: bench/results/, or the folder named by BALANCELAB_BENCH_RESULTS (the smoke
#: test of every README bench command writes there, leaving the committed figures alone).
RESULTS = Path(os.environ.get("BALANCELAB_BENCH_RESULTS") or Path(__file__).resolve().parent / "results")


def best_rate(work: Callable[[], int], repeats: int) -> float:
    """Units per second of the fastest of `repeats` runs of `work` (which returns its units)."""
    best = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        units = work()
        best = max(best, units / (time.perf_counter() - t0))
    return best


def write(name: str, figures: dict[str, Any]) -> Path:
    """Writes `figures` with machine details to RESULTS/<name>.json."""
    import rust_core

    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{name}.json"
    payload = {
        "benchmark": name,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor(),
            "system": platform.platform(),
        },
        "rust_core": rust_core.__version__,
        **figures,
    }
    out.write_text(json.dumps(payload, indent=2) + "\n")
    return out
