"""Starting or joining Ray: only when there is work, saying so, and failing fast on a bad address.

Without an address (``--address`` or ``RAY_ADDRESS``) a quiet local Ray is started with the
given number of CPUs. With one, the address is checked before anything is written: a TCP
connection within :data:`TCP_TIMEOUT_S`, then a throw-away driver (a subprocess, so Ray's own
retry loop and its warnings stay out of this process) that must connect within the connect
timeout (:data:`CONNECT_TIMEOUT_S` by default). A cluster that refuses the driver's
authentication token is named as such with the settings that fix it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .words import plural

# For the embedded local Ray only: traffic on loopback, no usage stats, and workers at the driver's
# priority (Ray's default niceness 15 lets any other process on the machine starve the study).
LOCAL_ENV = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_worker_niceness": "0",
    # no dashboard runs locally, so nobody reads Ray's metrics: don't spend worker CPU on them
    "RAY_enable_metrics_collection": "0",
}
TCP_TIMEOUT_S = 5.0
CONNECT_TIMEOUT_S = 30.0
AUTH_MARKERS = ("Unauthenticated", "InvalidAuthToken", "AuthenticationError")
PROBE_OK = "balancelab-probe-ok"
PROBE = f"""
import logging, sys
import ray
ray.init(address=sys.argv[1], log_to_driver=False, logging_level=logging.ERROR)
print("{PROBE_OK}", flush=True)
ray.shutdown()
"""


#: The token file a local Ray writes when token authentication is on and no token exists yet.
TOKEN_FILE = Path.home() / ".ray" / "auth_token"


class Stopped(KeyboardInterrupt):
    """A stop by signal (SIGTERM, or Ctrl-C while :func:`signals_stop` holds): handled wherever
    :class:`KeyboardInterrupt` is. A subclass, because CPython exits by SIGINT (not with the
    status the program returns) once a plain :class:`KeyboardInterrupt` has passed through code
    that an extension module runs while it is imported, even if the program caught it."""


def _interrupt(signum: int, frame: object) -> None:
    raise Stopped


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Holds Ctrl-C and SIGTERM while Ray starts (a signal in the middle of ``ray.init`` can crash
    the process), then raises :class:`Stopped` if one came."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {
        sig: signal.signal(sig, lambda s, f: caught.append(s)) for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield
    except Exception:
        if caught:  # a failure a stop caused (Ctrl-C reached Ray's processes too): the stop it is
            raise Stopped from None
        raise
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        raise Stopped


@contextlib.contextmanager
def signals_stop(exiting: bool = False) -> Iterator[None]:
    """SIGTERM (``kill``, ``ray job stop``, a scheduler) and SIGINT (Ctrl-C) stop what runs
    meanwhile (:class:`Stopped`, a :class:`KeyboardInterrupt`), from before Ray starts to after it
    is shut down; the previous handlers are set again after, or, if the process is ``exiting``
    then (the command line), both are ignored: its status is decided, and a stop in its last
    second (interpreter teardown) must not turn it into a death by signal."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_IGN if exiting else handler)


@contextlib.contextmanager
def ray_keeps_our_handlers() -> Iterator[None]:
    """While Ray starts in this driver: none of Ray's signal handlers is installed, neither its
    C++ failure handler (which turns SIGTERM into a stack dump and an abort, exit 134) nor its
    Python SIGTERM handlers (``sys.exit(15)`` in the middle of ``ray.init``, no line). Its
    workers keep theirs. Python's handlers are set again after ``ray.init`` in any case
    (:func:`interrupts_deferred`)."""
    try:
        from ray._private import ray_constants
        from ray._private import utils as ray_utils
    except ImportError:  # another Ray: interrupts_deferred still sets the handlers again after
        yield
        return
    ray_constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = True
    installer = getattr(ray_utils, "set_sigterm_handler", None)
    ray_utils.set_sigterm_handler = lambda handler: None
    try:
        yield
    finally:
        if installer is not None:
            ray_utils.set_sigterm_handler = installer


@contextlib.contextmanager
def private_files() -> Iterator[None]:
    """Files created meanwhile (Ray's token file, its session folder) are readable by their owner
    only; a token file left world-readable by an earlier Ray is made private too."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)
        with contextlib.suppress(OSError):
            if (
                TOKEN_FILE.is_file()
                and not TOKEN_FILE.is_symlink()
                and TOKEN_FILE.stat().st_uid == os.getuid()
            ):
                os.chmod(TOKEN_FILE, 0o600)


#: Runs beside a driver that started a local Ray: reads the Ray session's folder from stdin, waits
#: for end of input (the driver closed it, or died: even SIGKILL closes it) and then kills what is
#: left of that session (Ray's agents otherwise outlive a killed driver by 30-60 s).
WATCHDOG = r"""
import os, signal, sys, time
driver = os.getppid()  # never killed: after a clean shutdown it still holds its own Ray log open
session = sys.stdin.readline().strip().encode()
sys.stdin.read()
if not session:
    sys.exit(0)
for _ in range(3):
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in (os.getpid(), driver):
            continue
        try:
            if os.stat(f"/proc/{pid}").st_uid != os.getuid():
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                found = session in fh.read()
            if not found:  # agents rename themselves (ray::DashboardAgent) but keep its logs open
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    try:
                        if session in os.readlink(f"/proc/{pid}/fd/{fd}").encode():
                            found = True
                            break
                    except OSError:
                        continue
            if found:
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass
    time.sleep(0.3)
"""


class Watchdog:
    """Kills the leftovers of a local Ray session once its driver is gone (Linux only)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        if os.path.isdir("/proc"):
            self.proc = subprocess.Popen(
                [sys.executable, "-c", WATCHDOG],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C to the driver's group must not stop it first
            )

    def watch(self, session_dir: str) -> None:
        if self.proc is not None and self.proc.stdin is not None and session_dir:
            self.proc.stdin.write(session_dir.encode() + b"\n")
            self.proc.stdin.flush()

    def release(self) -> None:
        """After a clean shutdown: stragglers of the session are killed, then it ends."""
        if self.proc is not None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
            self.proc = None


def _session_dir() -> str:
    """The folder of the local Ray session this process started ('' if it cannot be told)."""
    try:
        import ray

        node = getattr(ray._private.worker, "_global_node", None)
        return str(node.get_session_dir_path()) if node is not None else ""
    except Exception:  # noqa: BLE001 - an internal of Ray's: without it there is no watchdog
        return ""


class RayUnavailable(RuntimeError):
    """Ray could not be started, or the cluster at an address cannot be used."""


def auth_help(address: str) -> str:
    return (
        f"the Ray cluster at {address} refused this driver's authentication token. Ray >= 2.60 "
        "starts clusters with token authentication: give the driver the token its nodes were "
        "started with (RAY_AUTH_MODE=token and RAY_AUTH_TOKEN=<token>, or RAY_AUTH_TOKEN_PATH=<file>), "
        "or start every node with RAY_AUTH_MODE=disabled for a private test cluster "
        "(README, 'On a cluster')"
    )


def host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``host:port`` address; ``None`` for ``auto``, ``ray://...`` and the like."""
    if "://" in address:
        return None
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def check_reachable(address: str, timeout_s: float = TCP_TIMEOUT_S) -> None:
    """Raises :class:`RayUnavailable` unless a TCP connection to ``address`` opens in ``timeout_s``."""
    hp = host_port(address)
    if hp is None:
        return
    try:
        with socket.create_connection(hp, timeout=timeout_s):
            pass
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or type(exc).__name__)
        raise RayUnavailable(
            f"cannot reach a Ray cluster at {address} ({why} within {timeout_s:g} s); check the address "
            "(the head's GCS port, 6379 unless `ray start --head --port` says otherwise) and that "
            "`ray start --head` runs there"
        ) from None


def _read_lines(stream: Any, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def check_cluster(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Connects a throw-away driver to ``address``; raises :class:`RayUnavailable` on failure,
    on an authentication error (as soon as Ray reports one) or after ``timeout_s``."""
    proc = subprocess.Popen(
        [sys.executable, "-c", PROBE, address],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True).start()
    deadline = time.monotonic() + timeout_s
    seen: list[str] = []
    try:
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RayUnavailable(
                    f"no Ray cluster answered at {address} within {timeout_s:g} s "
                    "(--connect-timeout); check the address and the cluster"
                ) from None
            if line is None:
                last = seen[-1].strip() if seen else "no output"
                raise RayUnavailable(f"cannot join the Ray cluster at {address}: {last[-300:]}")
            if PROBE_OK in line:
                return
            if any(marker in line for marker in AUTH_MARKERS):
                raise RayUnavailable(auth_help(address))
            seen.append(line)
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


class RaySession:
    """Ray for one run, started by :meth:`start` (only once there is work) and shut down by :meth:`close`.

    If Ray is already initialised (tests, notebooks) it is used as it is and left running.
    """

    def __init__(
        self,
        workers: int | None = None,
        address: str | None = None,
        say: Callable[[str], None] | None = None,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        self.workers = workers
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.say = say or (lambda message: None)
        self.connect_timeout_s = connect_timeout_s
        self.concurrency: int | None = None
        self._owned = False
        self._watchdog: Watchdog | None = None
        self._previous_sigterm: Any = None

    def start(self) -> int:
        """Starts or joins Ray (once) and returns the number of tasks to run at a time."""
        if self.concurrency is not None:
            return self.concurrency
        import ray

        t0 = time.perf_counter()
        if not ray.is_initialized():
            with interrupts_deferred(), ray_keeps_our_handlers():
                if self.address:
                    self._join(self.address)
                else:
                    self._start_local()
                self._owned = True  # set before a held Ctrl-C is raised: Ray is shut down then
            self._catch_sigterm()
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.concurrency = self.workers or cpus
        if self._owned:
            nodes = len([n for n in ray.nodes() if n.get("Alive")])
            took = time.perf_counter() - t0
            self.say(f"Ray ready: {plural(cpus, 'CPU')} on {plural(nodes, 'node')} ({took:.1f} s)")
        return self.concurrency

    def _join(self, address: str) -> None:
        import ray

        self.say(f"checking the Ray cluster at {address} ...")
        check_reachable(address)
        check_cluster(address, self.connect_timeout_s)
        self.say(f"joining the Ray cluster at {address} ...")
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except ConnectionError as exc:
            raise RayUnavailable(f"cannot join the Ray cluster at {address}: {exc}") from None

    def _start_local(self) -> None:
        import ray

        for key, value in LOCAL_ENV.items():
            os.environ.setdefault(key, value)
        cpus = self.workers or os.cpu_count() or 1
        self.say(f"starting a local Ray with {plural(cpus, 'CPU')} (takes a few seconds) ...")
        # "local": always a private instance, even if a `ray start` cluster runs on this machine
        self._watchdog = Watchdog()
        try:
            with private_files():
                ray.init(
                    address="local",
                    num_cpus=cpus,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    configure_logging=True,
                )
        except BaseException:
            self._watchdog.release()
            self._watchdog = None
            raise
        self._watchdog.watch(_session_dir())

    def _catch_sigterm(self) -> None:
        if threading.current_thread() is threading.main_thread():
            # SIGTERM (`kill`, `ray job stop`) stops the run like Ctrl-C: Ray is shut down cleanly
            self._previous_sigterm = signal.signal(signal.SIGTERM, _interrupt)

    def close(self) -> None:
        if not self._owned:
            return
        import ray

        try:
            with interrupts_deferred():  # never cut in the middle: a stop during it is raised after
                ray.shutdown()
                self._owned = False
        finally:
            if self._watchdog is not None:
                self._watchdog.release()
                self._watchdog = None
            if self._previous_sigterm is not None:
                signal.signal(signal.SIGTERM, self._previous_sigterm)
                self._previous_sigterm = None

    def __enter__(self) -> RaySession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
