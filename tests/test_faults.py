"""Faults: a worker node dies mid-study; the driver is killed mid-study (once on Ray, twenty times
in a row at random moments of its write path) and the command is run again."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rundir
from pipeline.distribute import Progress
from pipeline.runner import run_study
from pipeline.study import load_study

# plays studies through Ray, killing drivers and workers: `pytest -m "not slow"` leaves it out
pytestmark = pytest.mark.slow


def same(a, b) -> bool:
    return a.column_names == b.column_names and all(a[c].equals(b[c]) for c in a.column_names)


def keys(table) -> list[tuple[str, int, int]]:
    return list(
        zip(
            table["cell"].to_pylist(),
            table["game_index"].to_pylist(),
            table["player"].to_pylist(),
            strict=True,
        )
    )


def test_study_completes_exactly_when_a_worker_node_is_removed(write_study, tmp_path, read_run, expected_run):
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    try:
        nodes = [cluster.add_node(num_cpus=1), cluster.add_node(num_cpus=1)]
        cluster.wait_for_nodes()
        removed: list[int] = []

        def on_written(p: Progress) -> None:
            if p.batches_written == 3 and not removed:
                cluster.remove_node(nodes[1], allow_graceful=False)
                removed.append(p.batches_written)

        path = write_study(games=1600)
        out = tmp_path / "run"
        # joins the cluster by address, the way `balancelab run --address` does
        man = run_study(
            load_study(str(path)),
            out,
            address=cluster.address,
            batch_games=100,
            progress=False,
            quiet=True,
            on_written=on_written,
        )
        assert removed, "the node was never removed"
        assert not ray.is_initialized()
        assert man.workers == 2  # the cluster's CPUs when the study started
    finally:
        ray.shutdown()
        cluster.shutdown()
    got = read_run(out)
    want = expected_run(path)
    assert len(set(keys(got))) == got.num_rows  # none twice
    assert keys(got) == keys(want)  # none missing
    assert same(got, want)
    assert man.games_done == 3200


def _session_pids(sid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid:
                pids.append(int(entry))
    return pids


def _kill_session(sid: int) -> None:
    for pid in _session_pids(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_killed_driver_then_same_command_gives_the_uninterrupted_data(
    write_study, tmp_path, read_run, expected_run
):
    path = write_study(games=20000)
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "balancelab_cli",
        "run",
        str(path),
        "--out",
        str(out),
        "--workers",
        "2",
        "--batch-games",
        "500",
        "--no-progress",
        "--no-report",
        "--quiet",
    ]
    env = dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0")
    # From the checkout (`python -m` puts it first on sys.path): the crate folder `rust_core/` is
    # no package, so the installed rust_core is found; pipeline comes from the checkout.
    cwd = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(out.glob("data/cell=*/part-*.parquet"))) < 6:
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        _kill_session(proc.pid)
    written = len(list(out.glob("data/cell=*/part-*.parquet")))
    assert written < 80, "the run finished before the kill"
    assert '"finished": null' in (out / "manifest.json").read_text()
    again = subprocess.run(cmd, env=env, cwd=cwd, start_new_session=True, timeout=300, check=False)
    assert again.returncode == 0
    got = read_run(out)
    assert same(got, expected_run(path))
    assert len(list(out.glob("data/cell=*/part-*.parquet"))) == 80
    assert not list(out.rglob("*.tmp"))


COIN_STUDY = """\
name = "coin-kill"
game = "coin"
seed = 17
games_per_cell = 6000
[grid]
players = [2, 3, 4]
agents = ["random"]
"""
INLINE = (
    "import sys; sys.path.insert(0, {tests!r}); import inline_ray; inline_ray.install(); "
    "from balancelab_cli import main; sys.exit(main(sys.argv[1:]))"
)


def _records(out) -> int:
    try:
        return (out / rundir.LEDGER).read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _kill_at_random(cmd, env, cwd, out, rng) -> int:
    """Starts the run and SIGKILLs it: after 1-8 new batch records plus 0-20 ms, or (one time in
    five) at a random time 0.1-0.8 s after the start (imports, resume scan, manifest; the study is
    large enough that an idle machine cannot finish it in 20 rounds). Returns the records
    written in this round."""
    before = _records(out)
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, start_new_session=True)
    try:
        if rng.random() < 0.2:
            time.sleep(rng.uniform(0.1, 0.8))
        else:
            want, deadline = before + rng.randint(1, 8), time.monotonic() + 60
            while _records(out) < want:
                assert proc.poll() is None, f"the run ended before it could be killed (rc {proc.returncode})"
                assert time.monotonic() < deadline
                time.sleep(0.001)
            time.sleep(rng.uniform(0, 0.02))
        os.killpg(proc.pid, signal.SIGKILL)
        assert proc.wait() == -signal.SIGKILL, "the run finished before the kill"
    finally:
        _kill_session(proc.pid)
    return _records(out) - before


def test_sigkills_in_a_row_end_with_exactly_the_uninterrupted_rows(
    write_study, tmp_path, read_run, expected_run
):
    """The driver's whole write path (resume scan, batch files, records, manifest) killed at random
    moments, ten times in a row (``BALANCELAB_KILLS`` for more, ``BALANCELAB_KILL_SEED`` for other
    moments); tasks run in the driver (tests/inline_ray.py) so that a round costs no Ray start."""
    seed = int(os.environ.get("BALANCELAB_KILL_SEED", "16"))
    kills = int(os.environ.get("BALANCELAB_KILLS", "10"))
    rng = random.Random(seed)
    path = write_study(text=COIN_STUDY, filename="coin.toml")
    out = tmp_path / "run"
    code = INLINE.format(tests=str(Path(__file__).parent))
    args = [
        "run",
        str(path),
        "--out",
        str(out),
        "--batch-games",
        "20",
        "--no-progress",
        "--no-report",
        "--quiet",
    ]
    cmd = [sys.executable, "-c", code, *args]
    env = dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0")
    spec_hash, cells = None, ["p2", "p3", "p4"]
    for kill in range(kills):
        _kill_at_random(cmd, env, tmp_path, out, rng)
        man = rundir.read_manifest(out)
        if man is not None:
            spec_hash = man.study.hash()
        if spec_hash is not None:
            check = rundir.check_run(out, spec_hash, cells)
            # a kill between recording a batch and renaming its file leaves it "missing"; nothing else
            damaged = [bad for bad in check.bad if bad[1] != "missing"] + check.unreadable
            assert damaged == [], f"kill {kill + 1} (seed {seed}): {damaged}"
    done = subprocess.run(
        cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    replayed = [line for line in done.stderr.splitlines() if line.startswith("playing again")]
    assert all(line.endswith(": missing") for line in replayed), replayed
    got = read_run(out)
    assert len(set(keys(got))) == got.num_rows
    assert same(got, expected_run(path))
    assert not list(out.rglob("*.tmp"))
    assert rundir.read_manifest(out).finished is not None


@pytest.fixture(autouse=True)
def _no_ray_left() -> None:
    import ray

    if ray.is_initialized():
        ray.shutdown()
