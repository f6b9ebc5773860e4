"""A two-node Ray cluster with token authentication set up the README's way (RAY_AUTH_MODE=token and
RAY_AUTH_TOKEN on every node and the driver; loopback only): a driver without the token gets one
clear balancelab message and writes nothing; with the token the study runs on both nodes."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# starts a two-node Ray cluster and plays studies on it: `pytest -m "not slow"` leaves it out
pytestmark = pytest.mark.slow

# Two nodes on loopback, each with 1 CPU, started with ray.cluster_utils.Cluster in a process of its
# own (`ray start` cannot add a second node on one machine while keeping to loopback); the token
# settings are the README's: RAY_AUTH_MODE=token and RAY_AUTH_TOKEN on every node and the driver.
CLUSTER = """
import sys
from ray.cluster_utils import Cluster
cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
cluster.add_node(num_cpus=1)
cluster.wait_for_nodes()
print("ADDRESS", cluster.address, flush=True)
sys.stdin.read()  # until the test closes stdin
cluster.shutdown()
"""


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_USAGE_STATS_ENABLED="0", PYTHONPATH=str(ROOT))
    return env


def _stop(proc: subprocess.Popen[str]) -> None:
    """Ends the cluster process we started and everything in its session (never `ray stop`,
    which would end every Ray on the machine)."""
    if proc.stdin is not None:
        proc.stdin.close()  # the cluster shuts itself down
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # whatever is left of its nodes
    except ProcessLookupError:
        pass
    proc.wait()


@pytest.fixture(scope="module")
def token_cluster() -> Iterator[tuple[str, dict[str, str]]]:
    env = dict(_base_env(), RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32))
    proc = subprocess.Popen(
        [sys.executable, "-c", CLUSTER],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the cluster is up when it prints its address
        if not line.startswith("ADDRESS "):
            pytest.fail(f"the test cluster did not start: {line!r}")
        yield line.split()[1], env
    finally:
        _stop(proc)


def _run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str, float]:
    t0 = time.monotonic()
    res = subprocess.run(
        [sys.executable, "-m", "balancelab_cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
    )
    return res.returncode, res.stdout + res.stderr, time.monotonic() - t0


def test_a_driver_without_the_token_gets_one_clear_message(token_cluster, write_study, tmp_path):
    address, _ = token_cluster
    out = tmp_path / "run"
    args = ["run", str(write_study(games=10)), "--out", str(out), "--address", address, "--no-report"]
    rc, text, _ = _run(args, _base_env(), tmp_path)
    assert rc == 1, text
    assert (
        f"balancelab: error: the Ray cluster at {address} refused this driver's authentication token" in text
    )
    assert "RAY_AUTH_TOKEN" in text and "RAY_AUTH_MODE=disabled" in text
    assert "Traceback" not in text and text.count("Unauthenticated") == 0
    # refused as soon as Ray reported the authentication error, not after the connect timeout
    assert "(--connect-timeout)" not in text and "no Ray cluster answered" not in text
    assert not out.exists()


def test_with_the_token_the_study_runs_on_both_nodes(
    token_cluster, write_study, tmp_path, read_run, expected_run
):
    address, env = token_cluster
    path = write_study(games=40)
    out = tmp_path / "run"
    args = ["run", str(path), "--out", str(out), "--address", address, "--no-report", "--batch-games", "8"]
    rc, text, _ = _run(args, env, tmp_path)
    assert rc == 0, text
    assert f"joining the Ray cluster at {address}" in text and "Ray ready: 2 CPUs on 2 nodes" in text
    man = json.loads((out / "manifest.json").read_text())
    assert man["workers"] == 2 and man["games_done"] == 80
    got, want = read_run(out), expected_run(path)
    assert got.column_names == want.column_names
    assert all(got[c].equals(want[c]) for c in got.column_names)


def test_ray_is_started_with_interrupts_held_and_its_token_file_private(tmp_path, monkeypatch):
    import stat

    from pipeline import cluster

    token = tmp_path / ".ray" / "auth_token"
    token.parent.mkdir()
    token.write_text("secret")
    token.chmod(0o644)
    monkeypatch.setattr(cluster, "TOKEN_FILE", token)
    with cluster.private_files():
        created = tmp_path / "created-meanwhile"
        created.write_text("x")
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert stat.S_IMODE(created.stat().st_mode) & 0o077 == 0
    reached = []
    with pytest.raises(KeyboardInterrupt), cluster.interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("after the signal")  # Ray's start is never cut in the middle
    assert reached == ["after the signal"]


def test_the_watchdog_kills_what_is_left_of_a_ray_session_once_its_driver_is_gone(tmp_path):
    from pipeline.cluster import Watchdog

    session = tmp_path / "session_2099-01-01_00-00-00_000000_1"
    session.mkdir()
    left = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", str(session)])
    own = open(session / "driver.log", "w")  # noqa: SIM115 - the driver (this process) holds one too
    log = open(session / "agent.log", "w")  # noqa: SIM115 - held open by the renamed process below
    renamed = subprocess.Popen(["sleep", "120"], stdout=log)  # its cmdline names no session: its log does
    log.close()
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", str(tmp_path)])
    try:
        dog = Watchdog()
        dog.watch(str(session))
        time.sleep(0.5)
        assert left.poll() is None and renamed.poll() is None  # nothing is killed while the driver lives
        dog.release()  # what the driver's death does too: its end of the pipe closes
        assert left.wait(timeout=10) == -signal.SIGKILL and renamed.wait(timeout=10) == -signal.SIGKILL
        assert bystander.poll() is None  # and this process, holding a log of the session, is alive
    finally:
        own.close()
        for proc in (left, renamed, bystander):
            proc.kill()
            proc.wait()
