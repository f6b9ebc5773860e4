"""SIGTERM and SIGINT at several moments of `balancelab run` (before Ray, while it starts, once it
is up and playing), through the real command line in a subprocess: every stop ends with exit
status 130 and one line on stderr (never an abort by Ray's own handlers, exit 134, nor a death by
the signal), leaves no half-written file, and leaves no process of its Ray behind (every process
the run started carries a tag in its environment; none may remain)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

import rundir

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
STOPPED = "interrupted; run the same command again to continue"
#: What the run says on stderr before a stop (besides that one line, nothing else may appear).
NOTES = ("starting a local Ray", "Ray ready")
TAG = "BALANCELAB_SIGNAL_TEST"
#: Large enough that no machine finishes it before the stop (the test fails if it does).
STUDY = """\
name = "coin-signals"
game = "coin"
seed = 17
games_per_cell = 2000000
[grid]
players = [2, 3]
agents = ["random"]
"""


class Run:
    """``balancelab run`` of the study in a subprocess, its stderr collected line by line."""

    def __init__(self, tmp_path: Path) -> None:
        study = tmp_path / "coin.toml"
        study.write_text(STUDY)
        self.out = tmp_path / "run"
        self.tag = uuid.uuid4().hex
        cmd = [sys.executable, "-m", "balancelab_cli", "run", str(study), "--out", str(self.out)]
        cmd += ["--workers", "2", "--batch-games", "5000", "--no-progress", "--no-report"]
        env = dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", **{TAG: self.tag})
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, words: str, limit_s: float = 180) -> None:
        deadline = time.monotonic() + limit_s
        while not any(words in line for line in self.lines):
            assert self.proc.poll() is None, f"the run ended before {words!r}: {self.lines}"
            assert time.monotonic() < deadline, f"no {words!r} within {limit_s} s: {self.lines}"
            time.sleep(0.02)

    def finish(self) -> int:
        try:
            return self.proc.wait(timeout=180)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.reader.join(timeout=10)


def tagged(tag: str) -> list[str]:
    """Command lines of the live processes whose environment holds ``tag``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if f"{TAG}={tag}".encode() in Path(f"/proc/{pid}/environ").read_bytes():
                found.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120])
        except OSError:
            continue
    return found


def assert_no_ray_left(tag: str) -> None:
    """Nothing the run started outlives it for long (its watchdog needs about a second; Ray's
    agents alone would live on for 30 s and more)."""
    deadline = time.monotonic() + 20
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == [], left


def assert_nothing_half_written(out: Path) -> None:
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    if (out / rundir.MANIFEST).exists():
        verified = rundir.verify_run(out)  # reads: the manifest is whole, every record checks
        assert verified.check.bad == [] and verified.check.unreadable == [], verified.problems()


def _before_ray(run: Run) -> None:
    time.sleep(0.5)  # `balancelab` handles signals from the first line of main (imports are lazy)


def _while_ray_starts(run: Run) -> None:
    run.wait_for("starting a local Ray")
    time.sleep(1.5)


def _once_ray_is_up(run: Run) -> None:
    run.wait_for("Ray ready")
    time.sleep(0.5)


MOMENTS = {"before-ray": _before_ray, "ray-starting": _while_ray_starts, "ray-up": _once_ray_is_up}


@pytest.mark.parametrize(
    ("moment", "sig", "group"),
    [
        pytest.param("before-ray", signal.SIGTERM, False, id="sigterm-before-ray"),
        pytest.param("ray-starting", signal.SIGTERM, False, id="sigterm-while-ray-starts"),
        pytest.param("ray-up", signal.SIGTERM, False, id="sigterm-once-ray-is-up"),
        # Ctrl-C: the whole process group, Ray's own processes too
        pytest.param("ray-starting", signal.SIGINT, True, id="ctrl-c-while-ray-starts"),
    ],
)
def test_a_stop_at_any_moment_is_exit_130_and_one_line(tmp_path, moment, sig, group):
    run = Run(tmp_path)
    try:
        MOMENTS[moment](run)
        assert run.proc.poll() is None, f"the run ended before the signal: {run.lines}"
        (os.killpg if group else os.kill)(run.proc.pid, sig)
    finally:
        rc = run.finish()
    said = [line for line in run.lines if not line.startswith(NOTES)]
    assert rc == 130 and said == [STOPPED], (rc, run.lines)
    assert_no_ray_left(run.tag)
    assert_nothing_half_written(run.out)


def test_a_stop_between_the_record_and_the_rename_waits_for_the_rename(tmp_path, monkeypatch):
    """A SIGTERM that lands after a batch's record is written and before its file is renamed into
    place (seen twice in CI: the record's file 'missing') is held until the rename is done: the stop
    still happens, and the record and its file agree. With another thread in the process the kernel
    may hand it the signal, so blocking it on the main thread alone is not enough (this test
    failed so, every time)."""
    import pyarrow as pa

    import rust_core
    from rundir import batches

    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop

    real = batches.append_line

    def record_then_stop(*args, **kwargs):
        real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # time for another thread to take the signal
        for _ in range(100):  # bytecode where Python runs pending handlers
            pass

    table = pa.Table.from_batches([rust_core.simulate("coin", {}, ["random", "random"], 1, 0, 2)])
    monkeypatch.setattr(batches, "append_line", record_then_stop)
    previous = signal.signal(signal.SIGTERM, stop)
    # another thread, as a run's process has (Ray's, Arrow's): the kernel may hand it the signal
    done = threading.Event()
    other = threading.Thread(target=done.wait)
    other.start()
    try:
        with pytest.raises(Stop):
            batches.write_batch(tmp_path, "h" * 64, "c", 0, 2, 2, table)
    finally:
        signal.signal(signal.SIGTERM, previous)
        done.set()
        other.join()
    assert batches.part_path(tmp_path, "c", 0, 2, batches.DATA).exists()
    ledger = batches.ledger_path(tmp_path, batches.DATA).read_text().splitlines()
    assert len(ledger) == 1 and '"cell": "c"' in ledger[0]
