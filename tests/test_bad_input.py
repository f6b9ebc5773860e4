"""The bad-input battery: study files and command lines a clumsy user or an attacker would give.
Every case must stop with exit status 2 (bad input) or 1 (a failure while running), one line on
stderr (``balancelab: error: ...``), no traceback, and nothing written. Cases are built from the
fields of a valid study crossed with values that field must refuse."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import balancelab_cli as cli

BASE = {
    "name": '"bad-input"',
    "game": '"alhambra"',
    "seed": "1",
    "games_per_cell": "10",
    "pair_seats": "true",
}
GRID = {"players": "[2]", "agents": '["random"]'}

DEEP = "[" * 5000 + "]" * 5000
DEEP_TABLE = "{ a = " * 40 + "1" + " }" * 40
LONG = '"' + "x" * 100_000 + '"'
DATETIME = "1979-05-27T07:32:00Z"
BAD_NUMBERS = ["inf", "nan", "-inf", "1.5", "-1", "10000000000000", '"10"', "true", DATETIME, "[]", "{}"]

#: (field, values it must refuse); "grid." fields go into [grid], "variant." into the variant table.
BAD: dict[str, list[str]] = {
    "name": ['"evil\\n"', '""', '"a b"', '"-x"', '"../x"', '"x/y"', LONG, "1", "true", DATETIME, "[]", DEEP],
    "description": ['"two\\nlines"', LONG, "1", DATETIME, "[]"],
    "game": ['"nope"', '""', "1", "[]", DATETIME, LONG],
    "seed": [*(v for v in BAD_NUMBERS if v != "10000000000000"), "9223372036854775808", "-9"],
    "games_per_cell": [*BAD_NUMBERS, "0", "1000000001"],
    "pair_seats": ["1", '"true"', "0.0", DATETIME, "[]", DEEP],
    "practical_threshold": ["0", "1", "-0.1", "inf", "nan", '"0.01"', "true", DATETIME, "[]"],
    "unknown_field": ["1"],
    "variant": ["1", '"x"', "[]", DATETIME],
    "variant.dirk": [DATETIME, "inf", "nan", "3", '"x"', LONG, DEEP, DEEP_TABLE, "1979-05-27", "07:32:00"],
    "variant.nope": ["1"],
    "grid.players": [
        "[]",
        "[0]",
        "[1000000000000]",
        "[2, 2]",
        "2",
        '["2"]',
        "[true]",
        "[1.5]",
        f"[{DATETIME}]",
        "[-1]",
        "[65]",
        DEEP,
    ],
    "grid.agents": [
        "[]",
        '"random"',
        "[1]",
        '["nope"]',
        "[[]]",
        "[{}]",
        '[{ agents = "random", games = 0 }]',
        '[{ agents = "random", games = 10000000000000 }]',
        '[{ agent = "random" }]',
        '[["random", "random", "random"]]',
        f"[{DATETIME}]",
        DEEP,
        '["mcts:iters=-1"]',
        '["mcts:iters=inf"]',
    ],
    "grid.ladder": [
        '"random"',
        '["random"]',
        '["random", "random"]',
        "[1, 2]",
        '["random", { agent = "greedy", games = 10000000000000 }]',
        '["random", { agent = "greedy", games = 0 }]',
        '["random", { games = 3 }]',
        '["random", { agent = "greedy", x = 1 }]',
        f'[{DATETIME}, "random"]',
        '["random", "nope"]',
        DEEP,
    ],
    "grid.variants": [
        "1",
        "{}",
        '{ "bad name" = {} }',
        '{ "evil\\n" = {} }',
        "{ x = 1 }",
        "{ x = { nope = 1 } }",
        f"{{ x = {{ dirk = {DATETIME} }} }}",
        "{ x = { dirk = nan } }",
        "{ x = { dirk = 3 } }",
        "{ a = {}, b = { dirk = true } }",
    ],
    "grid.options": [
        "1",
        "{ dirk = [] }",
        "{ dirk = true }",
        "{ nope = [1] }",
        f"{{ dirk = [{DATETIME}] }}",
        "{ dirk = [nan] }",
        "{ dirk = [inf] }",
        "{ dirk = [3] }",
        "{ money_copies = [" + ", ".join(str(i) for i in range(200)) + "], dirk = [true, false] }",
    ],
    "grid.unknown": ["1"],
}


def _study(field: str, value: str) -> str:
    top, grid, variant = dict(BASE), dict(GRID), {}
    if field.startswith("grid."):
        grid[field[5:]] = value
    elif field.startswith("variant."):
        variant[field[8:]] = value
    else:
        top[field] = value
    lines = [f"{k} = {v}" for k, v in top.items()]
    if variant:
        lines.append("variant = { " + ", ".join(f"{k} = {v}" for k, v in variant.items()) + " }")
    lines.append("[grid]")
    lines += [f"{k} = {v}" for k, v in grid.items()]
    return "\n".join(lines) + "\n"


STUDY_CASES = [(f, v) for f, values in BAD.items() for v in values]
MALFORMED = [
    "name = ",
    "[grid",
    "name = 'x'\n" * 2,
    "\x00",
    "a = " + DEEP,
    "a = " + "{ b = " * 3000 + "1" + " }" * 3000,
]


def _check(rc: int, err: str, allowed: tuple[int, ...] = (2,)) -> None:
    """Exit status in ``allowed``, one error line (after at most a progress note), no traceback."""
    lines = err.strip().splitlines()
    assert rc in allowed, err[-2000:]
    errors = [line for line in lines if line.startswith("balancelab: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0] and len(lines) <= 2, err[-2000:]
    assert "Traceback" not in err and len(errors[0]) < 2100


def _label(case: tuple[str, str]) -> str:
    return f"{case[0]}={case[1][:30]}"


def test_the_base_study_is_valid(tmp_path):
    from pipeline.study import load_study

    path = tmp_path / "ok.toml"
    path.write_text(_study("description", '"fine"'))
    assert len(load_study(str(path)).cells) == 1


@pytest.mark.parametrize("case", STUDY_CASES, ids=[_label(c) for c in STUDY_CASES])
def test_a_bad_study_field_is_one_line_exit_2_nothing_written(tmp_path, capsys, case):
    path = tmp_path / "study.toml"
    path.write_text(_study(*case))
    out = tmp_path / "out"
    rc = cli.main(["run", str(path), "--out", str(out), "--no-progress"])
    _check(rc, capsys.readouterr().err)
    assert not out.exists()


@pytest.mark.parametrize("text", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_toml_is_one_line(tmp_path, capsys, text):
    path = tmp_path / "study.toml"
    path.write_text(text)
    rc = cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--no-progress"])
    _check(rc, capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def _valid(tmp_path: Path) -> str:
    path = tmp_path / "ok.toml"
    path.write_text(_study("description", '"fine"'))
    return str(path)


RUN_OPTIONS = [
    ["--games", "0"],
    ["--games", "10000000000000"],
    ["--games", "x"],
    ["--games", "1e3"],
    ["--task-seconds", "inf"],
    ["--task-seconds", "nan"],
    ["--task-seconds", "0"],
    ["--task-seconds", "-1"],
    ["--task-seconds", "99999"],
    ["--precision", "1"],
    ["--precision", "nan"],
    ["--precision", "inf"],
    ["--max-games", "10"],
    ["--precision", "0.01", "--max-games", "10000000000000"],
    ["--batch-games", "0"],
    ["--batch-games", "10000000000000"],
    ["--workers", "0"],
    ["--connect-timeout", "nan"],
    ["--variant", "dirk=NaN"],
    ["--variant", "dirk=Infinity"],
    ["--variant", "dirk=1e999"],
    ["--variant", "dirk"],
    ["--variant", "=3"],
    ["--variant", "nope=1"],
    ["--variant", "dirk=" + "[" * 5000 + "]" * 5000],
    ["--out", "x" * 100_000],
    ["--bogus"],
]


@pytest.mark.parametrize("options", RUN_OPTIONS, ids=[" ".join(o)[:30] for o in RUN_OPTIONS])
def test_a_bad_run_option_is_one_line(tmp_path, capsys, options):
    argv = ["run", _valid(tmp_path), "--no-progress", *options]
    if "--out" not in options:
        argv += ["--out", str(tmp_path / "out")]
    try:
        rc = cli.main(argv)
    except SystemExit as exc:  # argparse's refusal
        rc = int(exc.code or 0)
    _check(rc, capsys.readouterr().err, (1, 2))
    assert not (tmp_path / "out").exists()


OTHER_COMMANDS = [
    ["run", "x" * 100_000],
    ["run", "/dev/zero"],
    ["run", "no-such-study"],
    ["replay", "alhambra", "--seed", "1", "--game-index", "18446744073709551616"],
    ["replay", "alhambra", "--seed", "18446744073709551616", "--game-index", "0"],
    ["replay", "alhambra", "--seed", "1", "--game-index", "-1"],
    ["replay", "alhambra", "--seed", "1", "--game-index", "0", "--variant", "dirk=NaN"],
    ["replay", "alhambra", "--seed", "1", "--game-index", "0", "--variant", "dirk=1e999"],
    ["replay", "alhambra", "--seed", "1", "--game-index", "0", "--agents", "nope", "random"],
    ["replay", "nope", "--seed", "1", "--game-index", "0"],
    ["replay", "--run", "no-such-run", "--cell", "x", "--game-index", "0"],
    ["report", "no-such-run"],
    ["report", "x" * 100_000],
    ["strength", "no-such-run"],
    ["studies", "--show", "nope"],
    ["atlas", "--games", "nope", "--plan"],
    ["atlas", "--core-hours", "-1", "--plan"],
    ["atlas", "--core-hours", "nan", "--plan"],
    ["atlas", "--report-only", "--out", "no-such-atlas"],
]


@pytest.mark.parametrize("argv", OTHER_COMMANDS, ids=[" ".join(a)[:40] for a in OTHER_COMMANDS])
def test_a_bad_command_line_is_one_line(capsys, argv):
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = int(exc.code or 0)
    _check(rc, capsys.readouterr().err, (1, 2))


def test_the_battery_is_large():
    total = len(STUDY_CASES) + len(MALFORMED) + len(RUN_OPTIONS) + len(OTHER_COMMANDS)
    assert total >= 127
    assert len(set(itertools.chain(STUDY_CASES))) == len(STUDY_CASES)


@pytest.fixture
def small_run(tmp_path):
    """A finished run of a 2-cell study written without Ray, and the study."""
    from helpers_runs import write_study_run

    from pipeline.study import load_study

    study = load_study(_valid(tmp_path))
    out = tmp_path / "run"
    write_study_run(study, out, batch=5)
    return study, out


def test_replay_of_a_game_beyond_the_cell_is_refused(small_run, capsys):
    study, out = small_run
    cell = study.cells[0]
    argv = ["replay", "--run", str(out), "--cell", cell.id, "--game-index"]
    assert cli.main([*argv, str(cell.games - 1)]) == 0
    capsys.readouterr()
    assert cli.main([*argv, str(cell.games)]) == 2
    err = capsys.readouterr().err
    _check(2, err)
    assert f"has games 0..{cell.games - 1}" in err


def test_allow_partial_without_any_batch_is_one_line(tmp_path, capsys):
    from helpers_runs import write_study_run

    from pipeline.study import load_study

    out = tmp_path / "run"
    write_study_run(load_study(_valid(tmp_path)), out, games=0)
    rc = cli.main(["report", str(out), "--allow-partial"])
    err = capsys.readouterr().err
    _check(rc, err)
    assert "no verified games" in err


@pytest.mark.parametrize("errno_name", ["ENOSPC", "EROFS", "EACCES"])
def test_the_report_onto_a_full_or_read_only_disk_is_one_line(small_run, capsys, monkeypatch, errno_name):
    import errno
    import os

    from rundir import store

    def refuse(dfd, name, data):
        code = getattr(errno, errno_name)
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(store, "write_new", refuse)
    rc = cli.main(["report", str(small_run[1])])
    err = capsys.readouterr().err
    _check(rc, err, (1,))
    assert os.strerror(getattr(errno, errno_name)) in err


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("variant.dirk", "nan", "variant.dirk: must be a finite number, got nan"),
        ("variant.dirk", "inf", "variant.dirk: must be a finite number, got inf"),
        ("variant.dirk", DATETIME, "variant.dirk: must be a boolean, number, string, array or table"),
        ("name", '"evil\\n"', "name: must be 1 to 100 letters"),
        ("grid.ladder", '["random", { agent = "greedy", games = 10000000000000 }]', "grid.ladder[1].games"),
    ],
)
def test_refusals_name_the_field(tmp_path, capsys, field, value, named):
    path = tmp_path / "study.toml"
    path.write_text(_study(field, value))
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    assert named in capsys.readouterr().err


def test_a_non_finite_variant_on_the_command_line_names_the_option(tmp_path, capsys):
    argv = ["replay", "alhambra", "--seed", "1", "--game-index", "0", "--variant", "dirk=NaN"]
    assert cli.main(argv) == 2
    assert "--variant: dirk: must be a finite number, got nan" in capsys.readouterr().err
