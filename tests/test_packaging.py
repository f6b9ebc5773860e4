"""Packaging: rust_core imports from the repository root, the wheel ships every data file, the
stub of the compiled module matches it, and .ci/run enforces what the README promises."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_rust_core_imports_from_the_repository_root():
    # `python -c` puts the working directory first on sys.path: the crate folder rust_core/ must not
    # be a package there, or it shadows the installed one ("cannot import name '_native'")
    assert not (ROOT / "rust_core" / "__init__.py").exists()
    code = "import rust_core; print(rust_core.__file__); print(len(rust_core.games()))"
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    path, n_games = res.stdout.split()
    assert Path(path).resolve() != (ROOT / "rust_core" / "__init__.py").resolve()
    assert int(n_games) >= 2


def test_python_source_holds_the_typed_face_of_rust_core():
    maturin = PYPROJECT["tool"]["maturin"]
    package = ROOT / maturin["python-source"] / "rust_core"
    assert maturin["module-name"] == "rust_core._native"
    for name in ("__init__.py", "_native.pyi", "py.typed", "hiroba.py", "alhambra.py"):
        assert (package / name).is_file(), name
    # an editable install puts only python-source on sys.path: links make the top-level packages
    # visible there too (the wheel ships the real folders through `include`)
    for link in ("rundir", "pipeline", "analysis", "balancelab_cli"):
        path = package.parent / link
        assert path.is_symlink() and path.resolve() == (ROOT / link).resolve(), link


def test_each_game_data_file_lives_in_its_game_folder_and_is_linked_into_the_package():
    # the engine compiles each data file in from its game's folder (include_str!); the package's
    # data/ holds a link to each (the wheel ships the file's content), for default_*_path()
    package_data = ROOT / PYPROJECT["tool"]["maturin"]["python-source"] / "rust_core" / "data"
    game_data = sorted((ROOT / "rust_core" / "src" / "games").glob("*/*.txt"))
    assert len(game_data) >= 3
    for path in game_data:
        link = package_data / path.name
        assert link.is_symlink() and link.resolve() == path.resolve(), path.name
        assert f'include_str!("{path.name}")' in "".join(p.read_text() for p in path.parent.glob("*.rs"))
    assert sorted(p.resolve() for p in package_data.iterdir()) == [p.resolve() for p in game_data]
    assert not (ROOT / "rust_core" / "data").exists()


def _wheel_patterns() -> list[str]:
    patterns = []
    for entry in PYPROJECT["tool"]["maturin"]["include"]:
        formats = entry["format"] if isinstance(entry["format"], list) else [entry["format"]]
        if "wheel" in formats:
            patterns.append(entry["path"])
    return patterns


def _tracked(folder: str) -> list[Path]:
    res = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        pytest.skip("not a git checkout")
    return [ROOT / line for line in res.stdout.splitlines()]


@pytest.mark.parametrize("folder", ["rundir", "pipeline", "analysis", "balancelab_cli"])
def test_the_wheel_includes_every_file_of_the_packages(folder):
    shipped = {p for pattern in _wheel_patterns() for p in ROOT.glob(pattern)}
    files = _tracked(folder)
    assert files
    missing = [str(p.relative_to(ROOT)) for p in files if p not in shipped]
    assert not missing, f"not matched by [tool.maturin] include: {missing}"


def _stub() -> list[ast.stmt]:
    stub = ROOT / PYPROJECT["tool"]["maturin"]["python-source"] / "rust_core" / "_native.pyi"
    return ast.parse(stub.read_text()).body


def test_the_stub_matches_the_compiled_module():
    from rust_core import _native

    stub_functions = {
        node.name: [a.arg for a in node.args.args + node.args.kwonlyargs]
        for node in _stub()
        if isinstance(node, ast.FunctionDef)
    }
    built = {
        name: list(inspect.signature(fn).parameters)
        for name, fn in vars(_native).items()
        if callable(fn) and not name.startswith("_") and not isinstance(fn, type)
    }
    assert stub_functions == built
    stub_classes = {
        node.name: [ast.unparse(b) for b in node.bases] for node in _stub() if isinstance(node, ast.ClassDef)
    }
    built_classes = {
        name: [base.__name__ for base in cls.__bases__]
        for name, cls in vars(_native).items()
        if isinstance(cls, type) and not name.startswith("_")
    }
    assert stub_classes == built_classes


def test_the_command_is_the_command_line_package():
    # `balancelab` is the top layer's main, and mypy checks that package with the others
    assert PYPROJECT["project"]["scripts"] == {"balancelab": "balancelab_cli:main"}
    import balancelab_cli

    assert callable(balancelab_cli.main)
    assert "balancelab_cli" in PYPROJECT["tool"]["mypy"]["files"]


def test_ci_runs_the_checks_and_then_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    for check in (
        "ruff check",
        "ruff format --check",
        "cargo fmt --check",
        "cargo clippy --all-targets -- -D warnings",
        "mypy",
        "mkdocs build --strict",
    ):
        assert check in ci, check
    readme = (ROOT / "README.md").read_text()
    test_command = "pip install '.[test]' && cargo test --profile fast && pytest"
    assert f"```sh\n{test_command}\n```" in readme
    assert ci.rstrip().splitlines()[-1] == test_command
