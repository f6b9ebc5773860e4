"""Every bench command the README shows runs: a smoke run of each with tiny sizes.

The commands are read from the README's Benchmarks block, so a command added there without a
tiny size here fails this test. Results go to a temporary folder (BALANCELAB_BENCH_RESULTS), never
over the committed figures in bench/results/.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: script -> (values of its placeholders, tiny-size options)
TINY: dict[str, tuple[dict[str, str], list[str]]] = {
    "engine.py": ({}, ["--seconds", "0.01", "--repeats", "1"]),
    "agents.py": (
        {},
        [
            "--games",
            "5",
            "--mcts-games",
            "1",
            "--iters",
            "5",
            "--per-game-iters",
            "5",
            "--per-game-games",
            "1",
        ],
    ),
    "mcts_strength.py": ({"GAME": "coin", "SPEC": "mcts:iters=5"}, ["--games", "4", "--workers", "1"]),
    "equal_time.py": ({"GAME": "coin"}, ["--games", "4", "--calibration", "1", "--workers", "1"]),
    "elo_per_cpu.py": (
        {"GAME": "coin"},
        ["--ms", "0.05", "0.1", "--games", "4", "--calibration", "1", "--workers", "1"],
    ),
    "train_eval.py": (
        {"GAME": "coin"},
        ["--games", "40", "--workers", "1", "--agent", "greedy", "--dry-run"],
    ),
    "tune_mcts.py": (
        {},
        ["--games", "2", "--iters", "5", "--workers", "1", "--only", "hiroba", "--confirm-games", "2"],
    ),
    "tune_rollout.py": ({}, ["--games", "2", "--iters", "5", "--workers", "1", "--only", "hiroba"]),
    "pipeline_scaling.py": ({}, ["--games", "400", "--calibrate-games", "50"]),
    "calibrate_trend.py": ({}, ["--reps", "2"]),
    "switch_screen.py": ({"GAME": "taluva"}, ["--deals", "2", "--players", "2"]),
    "fairest_coin.py": ({}, ["--reps", "1", "--games", "20", "--max-games", "40", "--optuna-reps", "1"]),
    "seat_strength.py": ({"A": "random", "B": "greedy"}, ["--boot", "5"]),
    "pool_seeds.py": ({"FILE": "bench/results/equal-time-titania-mcts-xmcts_5ms-owed-seed202.json"}, []),
}


def tiny_run(run_dir: Path) -> Path:
    """A paired 2-player coin run with each agent's self-play and their match (for RUN)."""
    from helpers_runs import write_run

    line_ups = {"r": ["random", "random"], "g": ["greedy", "greedy"], "rg": ["random", "greedy"]}
    cells = [{"id": k, "agents": v, "games": 20} for k, v in line_ups.items()]
    return write_run(run_dir, name="tiny", game="coin", cells=cells, pair_seats=True)


def readme_commands() -> list[list[str]]:
    """The `python bench/...` commands of the README's Benchmarks block, optional parts dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Benchmarks", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        for part in line.split("#", 1)[0].split(";"):
            part = re.sub(r"\[[^\]]*\]", "", part).strip()
            if part.startswith("python bench/"):
                commands.append(shlex.split(part))
    return commands


def test_the_readme_shows_the_bench_commands():
    scripts = {Path(c[1]).name for c in readme_commands()}
    assert {"engine.py", "pipeline_scaling.py", "equal_time.py"} <= scripts
    # No bench script may shadow a package of the repository (the script's folder comes first).
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()} | {"rust_core"}
    assert not {Path(s).stem for s in (ROOT / "bench").glob("*.py")} & packages


@pytest.mark.parametrize("command", readme_commands(), ids=lambda c: " ".join(c[1:]))
def test_bench_command_runs(command: list[str], tmp_path: Path):
    script = Path(command[1]).name
    assert script in TINY, f"{script}: give it tiny sizes in TINY"
    values, tiny = TINY[script]
    if "RUN" in command:
        values = {**values, "RUN": str(tiny_run(tmp_path / "run"))}
    args = [values.get(a, a) for a in command[2:]]
    env = {**os.environ, "BALANCELAB_BENCH_RESULTS": str(tmp_path), "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    if "--confirm" in args:  # confirmation reads the screening's file
        first = [sys.executable, command[1], *[a for a in args if a != "--confirm"], *tiny]
        subprocess.run(first, cwd=ROOT, env=env, capture_output=True, timeout=300, check=True)
    proc = subprocess.run(
        [sys.executable, command[1], *args, *tiny],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert list(tmp_path.glob("*.json")), f"{script} wrote no result"
    assert "Traceback" not in proc.stderr


def test_seat_strength_recovers_the_strengths_of_each_position() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import polars as pl
    from seat_strength import edges

    def sig(x: float) -> float:
        return 1 / (1 + 2.718281828459045 ** (-x))

    s1_a, s0_b, s1_b = 0.3, 0.5, 1.2  # A's strength at position 0 is the reference, 0

    def games(*rows: tuple[str, float]) -> pl.DataFrame:
        return pl.DataFrame({"deal_index": list(range(len(rows))), "agent": [a for a, _ in rows],
                             "win": [w for _, w in rows]})  # fmt: skip

    a_self = games(("a", sig(-s1_a)))
    b_self = games(("b", sig(s0_b - s1_b)))
    match = games(("b", sig(s0_b - s1_a)), ("a", sig(-s1_b)))
    got = edges(a_self, b_self, match, "b")
    assert got == pytest.approx([s0_b, s1_b - s1_a, s1_b - s1_a - s0_b, 0.0], abs=1e-9)
    b_self = games(("b", sig(s0_b - s1_b + 0.25)))  # B's self-play off the model by 0.25
    assert edges(a_self, b_self, match, "b")[3] == pytest.approx(0.25, abs=1e-9)


def test_pooled_seeds_weigh_runs_by_games_and_combine_their_errors() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from pool_seeds import Z, agents, pooled

    def run(share: float, games: int, se: float) -> dict[str, object]:
        return {"win_share": share, "games": games, "ci95": [share - Z * se, share + Z * se]}

    # 400 games at 0.60 (se 0.02) and 200 at 0.75 (se 0.03): mean by games, se by hand
    share, lo, hi = pooled([run(0.60, 400, 0.02), run(0.75, 200, 0.03)])
    assert share == pytest.approx((0.60 * 400 + 0.75 * 200) / 600)
    se = (400**2 * 0.02**2 + 200**2 * 0.03**2) ** 0.5 / 600
    assert (lo, hi) == pytest.approx((share - Z * se, share + Z * se))
    # the same agents whatever iterations the calibration gave them
    one = {"game": "titania", "new": "xmcts:iters=875", "old": "mcts:iters=861"}
    two = {"game": "titania", "new": "xmcts:iters=9,bias=2", "old": "mcts:iters=7"}
    assert agents(one) == ("titania", "xmcts", "mcts")
    assert agents(two) == ("titania", "xmcts:bias=2", "mcts")


def test_pool_seeds_never_replaces_a_pool_of_other_files(tmp_path: Path) -> None:
    env = {**os.environ, "BALANCELAB_BENCH_RESULTS": str(tmp_path)}
    runs = [f"bench/results/equal-time-titania-mcts-xmcts_5ms-owed-seed{s}.json" for s in (101, 202, 303)]

    def pool(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "bench/pool_seeds.py", *args]
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)

    pooled = tmp_path / "pool-equal-time-titania-mcts-xmcts_5ms-owed.json"
    assert pool(*runs[:2]).returncode == 0 and pooled.is_file()
    before = pooled.read_text(encoding="utf-8")
    refused = pool(*runs)
    assert refused.returncode == 2 and "--name" in refused.stderr
    assert pooled.read_text(encoding="utf-8") == before, "the earlier pool was replaced"
    assert pool(*runs[:2]).returncode == 0, "the same files again may refresh their pool"
    assert pool(*runs, "--name", "three").returncode == 0
    assert json.loads((tmp_path / "pool-three.json").read_text(encoding="utf-8"))["games"] == sum(
        json.loads((ROOT / r).read_text(encoding="utf-8"))["games"] for r in runs
    )


def test_train_eval_fits_a_label_search_and_refits_from_the_saved_positions(tmp_path: Path) -> None:
    env = {**os.environ, "BALANCELAB_BENCH_RESULTS": str(tmp_path)}
    saved = tmp_path / "positions.parquet"
    base = [sys.executable, "bench/train_eval.py", "taluva", "--dry-run", "--workers", "1"]
    first = [*base, "--games", "12", "--agent", "greedy", "--label", "mcts:iters=10", "--save", str(saved)]
    again = [*base, "--load", str(saved)]
    outputs = [
        subprocess.run(c, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        for c in (first, again)
    ]
    for proc in outputs:
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "each searched by mcts:iters=10 (target: its estimate)" in proc.stdout
        assert "label_search" in proc.stdout
    # The refit from the file is the same fit (the held-out figures, not the timings).
    figures = [re.findall(r"(log_loss|accuracy) ([0-9.]+)", p.stdout) for p in outputs]
    assert len(figures[0]) == 8 and figures[0] == figures[1]


def test_train_eval_refuses_a_label_agent_that_estimates_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "BALANCELAB_BENCH_RESULTS": str(tmp_path)}
    command = [sys.executable, "bench/train_eval.py", "coin", "--dry-run", "--workers", "1", "--games", "8"]
    proc = subprocess.run(
        [*command, "--agent", "greedy", "--label", "greedy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "--label greedy: that agent estimated no position" in proc.stderr
    assert not list(tmp_path.glob("*.json"))
