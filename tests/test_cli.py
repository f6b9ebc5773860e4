"""The command line as a newcomer meets it: help, version, messages, where the report goes, no Ray
started without work, and an unreachable --address failing fast with nothing written."""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import balancelab_cli as cli
from balancelab_cli.run import closing_line
from pipeline.cluster import TCP_TIMEOUT_S
from pipeline.runner import precision_reached

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_bare_balancelab_prints_the_help(capsys):
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: balancelab") and "COMMAND" in out and "examples:" in out


def test_version_names_the_package_and_the_engine_build(capsys):
    import rust_core

    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("balancelab ") and f"rust_core {rust_core.__version__}" in out
    assert "build sha256:" in out


def test_help_texts_read_as_meant(capsys):
    with pytest.raises(SystemExit):
        cli.main(["replay", "--help"])
    replay = capsys.readouterr().out
    assert "GAME --seed SEED" in replay.splitlines()[0]  # --seed shown as required with GAME
    with pytest.raises(SystemExit):
        cli.main(["strength", "--help"])
    strength = capsys.readouterr().out
    assert "95% intervals" in strength and "%%" not in strength


def test_studies_count_cells_in_words(capsys):
    assert cli.main(["studies"]) == 0
    lines = capsys.readouterr().out.splitlines()
    one = next(line for line in lines if line.startswith("alhambra-strength-1000 "))
    assert " 1 cell," in one and "1 cells" not in one
    assert not any(re.search(r"(?<!\d)1 cells", line) for line in lines)  # 11 cells is fine


def test_closing_line_counts_only_this_runs_games():
    line = closing_line("small", Path("runs/small"), played=40, total=160, wall=3.2, rate=100.0)
    assert line.startswith("small: 40 games played into runs/small in 3.2 s") and "160 games in all" in line
    assert "1 game played" in closing_line("s", Path("o"), played=1, total=1, wall=1.0, rate=2.0)
    done = closing_line("small", Path("o"), played=0, total=160, wall=0.4, rate=None)
    assert done.startswith("small: nothing left to play; 160 games")


#: Options several commands take: each is declared by one helper of ``balancelab_cli.options``.
SHARED_OPTIONS = {
    "--report-dir",
    "--workers",
    "--address",
    "--no-progress",
    "--quiet",
    "--allow-partial",
    "--no-report",
}


def _declared_options(path: Path) -> list[str]:
    """The option names of every ``add_argument`` call in a module."""
    calls = [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument"
    ]
    return [a.value for c in calls for a in c.args if isinstance(a, ast.Constant)]


def test_shared_options_are_declared_once():
    package = ROOT / "balancelab_cli"
    declared = {p.name: _declared_options(p) for p in sorted(package.glob("*.py"))}
    assert len(declared) >= 8 and "--games" in declared["atlas.py"]  # the scan sees each command's own
    for option in SHARED_OPTIONS:
        where = [name for name, options in declared.items() for o in options if o == option]
        assert where == ["options.py"], (option, where)
    help_text = {n: sub.format_help() for n, sub in _commands().items()}
    assert all("--report-dir DIR" in help_text[n] for n in ("run", "report", "strength", "fairest", "atlas"))
    assert all("--workers" in help_text[n] for n in ("run", "fairest", "atlas"))


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(subs[0].choices)


def test_precision_line_says_what_was_reached():
    line = precision_reached({"a": 0.004, "b": 0.0049}, 0.005)
    assert "0.0049 (cell b) <= 0.005: target reached" in line
    assert "0.0090 (cell a) > 0.005: not reached" in precision_reached({"a": 0.009}, 0.005)


def _run_cli(args: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int, str, float]:
    t0 = time.monotonic()
    res = subprocess.run(
        [sys.executable, "-m", "balancelab_cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return res.returncode, res.stdout + res.stderr, time.monotonic() - t0


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_ADDRESS")}
    env.update(RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", PYTHONPATH=str(ROOT), **extra)
    return env


@pytest.mark.slow  # the command line end to end, in a subprocess
def test_an_unreachable_address_fails_fast_naming_it_and_writes_nothing(write_study, tmp_path):
    path = write_study(games=10)
    out = tmp_path / "run"
    address = f"127.0.0.1:{_free_port()}"  # nothing listens there
    rc, text, _ = _run_cli(["run", str(path), "--out", str(out), "--address", address], tmp_path, _env(), 60)
    assert rc == 1, text
    assert f"balancelab: error: cannot reach a Ray cluster at {address}" in text
    # the bounded TCP check answered (it gives up after TCP_TIMEOUT_S), not Ray's own connect, which
    # would retry for minutes, nor the probe driver's --connect-timeout
    assert f"(Connection refused within {TCP_TIMEOUT_S:g} s)" in text
    assert "--connect-timeout" not in text
    assert not out.exists()
    assert "Traceback" not in text


def test_starting_ray_says_so(monkeypatch):
    import ray

    from pipeline.cluster import RaySession

    calls, said = [], []

    def init(**kwargs):
        calls.append(kwargs)
        raise RuntimeError("not really")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    with pytest.raises(RuntimeError, match="not really"):
        RaySession(workers=2, say=said.append).start()
    assert said == ["starting a local Ray with 2 CPUs (takes a few seconds) ..."]
    assert calls[0]["address"] == "local" and calls[0]["num_cpus"] == 2


@pytest.mark.usefixtures("ray_local")
def test_report_lands_in_the_run_and_a_rerun_with_nothing_left_starts_no_ray(
    write_study, tmp_path, monkeypatch, capsys
):
    path = write_study(games=12)
    out = tmp_path / "run"
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", str(path), "--out", str(out), "--workers", "2", "--no-progress"]) == 0
    assert (out / "report" / "index.html").is_file()
    assert not (tmp_path / "reports").exists()  # nothing under the working directory
    said = capsys.readouterr()
    assert f"writing the report into {out / 'report'} ..." in said.err
    assert f"report: {out / 'report' / 'index.html'}" in said.out
    # Again, with every game on disk: no Ray (an unreachable RAY_ADDRESS would fail if it were started)
    address = f"127.0.0.1:{_free_port()}"
    rc, text, took = _run_cli(
        ["run", str(path), "--out", str(out), "--no-report"], tmp_path, _env(RAY_ADDRESS=address), 60
    )
    assert rc == 0, text
    assert "nothing left to play; 24 games in" in text
    assert "Ray" not in text
    assert json.loads((out / "manifest.json").read_text())["games_done"] == 24
    # ... and the report on purpose elsewhere
    assert cli.main(["report", str(out), "--report-dir", str(tmp_path / "elsewhere")]) == 0
    assert (tmp_path / "elsewhere" / "index.html").is_file()
