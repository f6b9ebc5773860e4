"""Every documented bench command runs: a smoke run of each with tiny sizes; the experiment records
keep their provenance.

The commands are read from the Commands block of bench/experiments/README.md, so a command added
there without a tiny size here fails this test. Each run writes into a temporary `--out` folder,
never over the committed records in bench/experiments/.
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
EXPERIMENTS = ROOT / "bench" / "experiments"
#: A committed run of equal_time (pooled by the pool_seeds tests) and its neighbours on other seeds.
TITANIA_SEEDS = {
    101: "2026-11-27-turn-owed-features",
    202: "2026-11-27-titania-bias-and-seeds",
    303: "2026-11-27-titania-bias-and-seeds",
}


def titania_run(seed: int) -> str:
    """The committed equal_time file of Titania at 5 ms (mended features) on `seed`."""
    return f"bench/experiments/{TITANIA_SEEDS[seed]}/equal-time-titania-mcts-xmcts_5ms-owed-seed{seed}.json"


#: module -> (values of its placeholders, tiny-size options)
TINY: dict[str, tuple[dict[str, str], list[str]]] = {
    "bench.engine": ({}, ["--seconds", "0.01", "--repeats", "1"]),
    "bench.limit": ({}, ["--seconds", "0.01", "--repeats", "1", "--only", "coin", "--profile", "fast"]),
    "bench.agents": (
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
    "bench.mcts_strength": ({"GAME": "coin", "SPEC": "mcts:iters=5"}, ["--games", "4", "--workers", "1"]),
    "bench.equal_time": ({"GAME": "coin"}, ["--games", "4", "--calibration", "1", "--workers", "1"]),
    "bench.elo_per_cpu": (
        {"GAME": "coin"},
        ["--ms", "0.05", "0.1", "--games", "4", "--calibration", "1", "--workers", "1"],
    ),
    "bench.train_eval": (
        {"GAME": "coin"},
        ["--games", "40", "--workers", "1", "--agent", "greedy", "--dry-run"],
    ),
    "bench.tune_mcts": (
        {},
        ["--games", "2", "--iters", "5", "--workers", "1", "--only", "hiroba", "--confirm-games", "2"],
    ),
    "bench.tune_rollout": ({}, ["--games", "2", "--iters", "5", "--workers", "1", "--only", "hiroba"]),
    "bench.pipeline_scaling": ({}, ["--games", "400", "--calibrate-games", "50"]),
    "bench.calibrate_trend": ({}, ["--reps", "2"]),
    "bench.anytime_coverage": ({}, ["--reps", "2", "--deals", "40", "--every", "20"]),
    "bench.luck": ({}, ["hiroba", "--deals", "5"]),
    "bench.decided": ({}, ["hiroba", "--deals", "3", "--spec", "xmcts:iters=20"]),
    "bench.luck_coverage": ({}, ["--reps", "2", "--deals", "40", "--every", "20"]),
    "bench.switch_screen": ({"GAME": "taluva"}, ["--deals", "2", "--players", "2"]),
    "bench.fairest_coin": ({}, ["--reps", "1", "--games", "20", "--max-games", "40", "--optuna-reps", "1"]),
    "bench.seat_strength": ({"A": "random", "B": "greedy"}, ["--boot", "5"]),
    "bench.pool_seeds": ({"FILE": titania_run(202)}, []),
}


def tiny_run(run_dir: Path) -> Path:
    """A paired 2-player coin run with each agent's self-play and their match (for RUN)."""
    from helpers_runs import write_run

    line_ups = {"r": ["random", "random"], "g": ["greedy", "greedy"], "rg": ["random", "greedy"]}
    cells = [{"id": k, "agents": v, "games": 20} for k, v in line_ups.items()]
    return write_run(run_dir, name="tiny", game="coin", cells=cells, pair_seats=True)


def documented_commands() -> list[list[str]]:
    """The `python -m bench.<script>` commands of bench/experiments/README.md, optional parts dropped."""
    text = (EXPERIMENTS / "README.md").read_text(encoding="utf-8")
    block = text.split("## Commands", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        for part in line.split("#", 1)[0].split(";"):
            part = re.sub(r"\[[^\]]*\]", "", part).strip()
            if part.startswith("python -m bench."):
                commands.append(shlex.split(part))
    return commands


def test_the_experiments_page_shows_the_bench_commands() -> None:
    modules = {c[2] for c in documented_commands()}
    assert {"bench.engine", "bench.pipeline_scaling", "bench.equal_time"} <= modules
    scripts = {f"bench.{p.stem}" for p in (ROOT / "bench").glob("*.py")} - {"bench.__init__", "bench.common"}
    assert modules == scripts, f"documented and present differ: {sorted(modules ^ scripts)}"


def test_no_bench_script_edits_sys_path() -> None:
    editing = [p.name for p in (ROOT / "bench").glob("*.py") if "sys.path" in p.read_text(encoding="utf-8")]
    assert not editing, f"{editing}: import through the bench package (python -m bench.<script>)"


@pytest.mark.slow
@pytest.mark.parametrize("command", documented_commands(), ids=lambda c: " ".join(c[2:]))
def test_bench_command_runs(command: list[str], tmp_path: Path) -> None:
    module = command[2]
    assert module in TINY, f"{module}: give it tiny sizes in TINY"
    values, tiny = TINY[module]
    if "RUN" in command:
        values = {**values, "RUN": str(tiny_run(tmp_path / "run"))}
    out = tmp_path / "out"
    args = [values.get(a, a) for a in command[3:]]
    base = [sys.executable, "-m", module]
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    if "--confirm" in args:  # confirmation reads the screening's file
        first = [*base, *[a for a in args if a != "--confirm"], *tiny, "--out", str(out)]
        subprocess.run(first, cwd=ROOT, env=env, capture_output=True, timeout=300, check=True)
    proc = subprocess.run(
        [*base, *args, *tiny, "--out", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    written = list(out.glob("*.json"))
    assert written, f"{module} wrote no result"
    assert "Traceback" not in proc.stderr
    for path in written:
        assert_provenance(json.loads(path.read_text(encoding="utf-8")), path)


def assert_provenance(result: dict[str, object], path: Path) -> None:
    """A fresh result records its commit, modified tree, machine and versions."""
    prov = result.get("provenance")
    assert isinstance(prov, dict), f"{path.name}: no provenance"
    assert re.fullmatch(r"[0-9a-f]{40}", str(prov["commit"])), f"{path.name}: commit {prov['commit']!r}"
    assert isinstance(prov["modified"], bool)
    assert re.match(r"\S+ -m bench\.\w+( |$)", str(prov["command"])), prov["command"]
    machine = prov["machine"]
    assert {"platform", "cpu_count", "cpu_model"} <= set(machine) and machine["cpu_count"] >= 1
    versions = prov["versions"]
    assert {"python", "rust_core", "numpy", "polars", "ray"} <= set(versions)
    assert versions["rust_core"] and versions["python"] and versions["numpy"] and versions["polars"]


def test_a_fresh_result_records_its_provenance(tmp_path: Path) -> None:
    out = tmp_path / "out"
    git = ["git", "rev-parse", "HEAD"]
    head = subprocess.run(git, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    proc = subprocess.run(
        [sys.executable, "-m", "bench.pool_seeds", titania_run(202), titania_run(303), "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (path,) = out.glob("*.json")
    result = json.loads(path.read_text(encoding="utf-8"))
    assert_provenance(result, path)
    assert result["provenance"]["commit"] == head
    assert result["provenance"]["command"].startswith(f"{Path(sys.executable).name} -m bench.pool_seeds ")


def test_every_record_has_its_page_and_its_provenance() -> None:
    folders = [p for p in EXPERIMENTS.iterdir() if p.is_dir()]
    index = (EXPERIMENTS / "README.md").read_text(encoding="utf-8")
    assert folders
    for folder in folders:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+", folder.name), folder.name
        assert (folder / "README.md").is_file(), f"{folder.name}: no page"
        assert f"]({folder.name}/README.md)" in index, f"{folder.name}: not listed in the index"
        page = (folder / "README.md").read_text(encoding="utf-8")
        for result in folder.glob("*.json"):
            assert f"]({result.name})" in page, f"{folder.name}/{result.name}: not on its page"
            prov = json.loads(result.read_text(encoding="utf-8")).get("provenance")
            assert isinstance(prov, dict) and "commit" in prov and "modified" in prov, result.name
            if prov.get("recorded") == "retrofitted from git history":
                assert prov["commit"] is None and re.fullmatch(r"[0-9a-f]{40}", prov["committed_in"])
            else:
                assert re.fullmatch(r"[0-9a-f]{40}", str(prov["commit"])), result.name
        for command in re.findall(r"^python -m (bench\.\w+)", page, flags=re.M):
            assert (ROOT / (command.replace(".", "/") + ".py")).is_file(), f"{folder.name}: {command}"
        for out in re.findall(r"--out (\S+)", page):
            assert out == f"bench/experiments/{folder.name}", f"{folder.name}: --out {out}"


def test_seat_strength_recovers_the_strengths_of_each_position() -> None:
    import polars as pl

    from bench.seat_strength import edges

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
    from bench.pool_seeds import Z, agents, pooled

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
    runs = [titania_run(s) for s in (101, 202, 303)]

    def pool(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "bench.pool_seeds", *args, "--out", str(tmp_path)]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)

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
    saved = tmp_path / "positions.parquet"
    base = [sys.executable, "-m", "bench.train_eval", "taluva", "--dry-run", "--workers", "1"]
    base += ["--out", str(tmp_path)]
    first = [*base, "--games", "12", "--agent", "greedy", "--label", "mcts:iters=10", "--save", str(saved)]
    again = [*base, "--load", str(saved)]
    outputs = [
        subprocess.run(c, cwd=ROOT, capture_output=True, text=True, timeout=300) for c in (first, again)
    ]
    for proc in outputs:
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "each searched by mcts:iters=10 (target: its estimate)" in proc.stdout
        assert "label_search" in proc.stdout
    # The refit from the file is the same fit (the held-out figures, not the timings).
    figures = [re.findall(r"(log_loss|accuracy) ([0-9.]+)", p.stdout) for p in outputs]
    assert len(figures[0]) == 8 and figures[0] == figures[1]


def test_train_eval_refuses_a_label_agent_that_estimates_nothing(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "bench.train_eval", "coin", "--dry-run", "--workers", "1"]
    proc = subprocess.run(
        [*command, "--games", "8", "--agent", "greedy", "--label", "greedy", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "--label greedy: that agent estimated no position" in proc.stderr
    assert not list(tmp_path.glob("*.json"))
