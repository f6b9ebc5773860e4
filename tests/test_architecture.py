"""The shape of the code: game knowledge lives only in its game's folder.

Shared code (the Rust core outside `src/games/`, `pipeline/`, the generic `analysis/`, the Python
face of `rust_core`, `bench/engine.py`'s per-game cases) names no game: a game is reached through the registry
(`rust_core/src/registry.rs`), the report-section list (`analysis/games/__init__.py`) and the Python face's
helper imports, each a line per game. Comments, docstrings and help texts may name games as
examples; code may not. (Other bench scripts measure one chosen workload, e.g. Alhambra random
play for the pipeline's throughput: naming it is their subject, not game knowledge.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_FOLDERS = ROOT / "rust_core" / "src" / "games"
GAMES = sorted(p.name for p in GAME_FOLDERS.iterdir() if p.is_dir() and p.name != "coin")
#: Words only one game's rules use (its own terms), besides the games' names.
GAME_TERMS = ["dirk"]
WORD = re.compile(r"\b(" + "|".join(GAMES + GAME_TERMS) + r")\b", re.IGNORECASE)
#: The one place per layer that lists the games.
REGISTRIES = {
    ROOT / "rust_core" / "src" / "registry.rs",
    ROOT / "analysis" / "games" / "__init__.py",
    ROOT / "rust_core" / "python" / "rust_core" / "__init__.py",
}


def _rust_code(path: Path) -> str:
    """The file without comments and without its test modules' bodies (tests may name games)."""
    text = path.read_text(encoding="utf-8")
    text = text.split("#[cfg(test)]\nmod ", 1)[0] if path.name != "tests.rs" else ""
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def test_shared_rust_code_names_no_game():
    shared = [p for p in (ROOT / "rust_core" / "src").rglob("*.rs") if GAME_FOLDERS not in p.parents]
    assert len(shared) > 5
    found = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in shared
        if p not in REGISTRIES and p.name not in ("tests.rs", "conformance.rs")
        for m in WORD.finditer(_rust_code(p))
    ]
    assert not found, found


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _python_names(path: Path) -> list[str]:
    """Game names in a module's code: a string that is a game's name, or an identifier naming one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value.lower() in GAMES + GAME_TERMS:
                found.append(repr(node.value))
        names = [getattr(node, a, None) for a in ("id", "attr", "name", "arg")]
        if isinstance(node, ast.alias):
            names.append(node.asname)
        found += [n for n in names if isinstance(n, str) and WORD.search(n.replace("_", " "))]
    return found


def test_shared_python_code_names_no_game():
    game_modules = {ROOT / "analysis" / "games" / f"{g}.py" for g in GAMES}
    helpers = {ROOT / "rust_core" / "python" / "rust_core" / f"{g}.py" for g in GAMES}
    shared = [
        p
        for folder in ("pipeline", "analysis", "balancelab_cli", "rust_core/python/rust_core")
        for p in (ROOT / folder).rglob("*.py")
        if p not in REGISTRIES | game_modules | helpers
    ] + [ROOT / "bench" / "engine.py", ROOT / "bench" / "tune_mcts.py"]
    assert len(shared) > 20
    found = [f"{p.relative_to(ROOT)}: {n}" for p in shared for n in _python_names(p)]
    assert not found, found


def test_the_checks_above_can_fail():
    assert WORD.search("let x = alhambra::Alhambra;")
    sample = ROOT / "tests" / "test_architecture.py"
    assert "'dirk'" in _python_names(sample)  # GAME_TERMS holds the string "dirk"


#: Each top-level package and the packages it may import: data flows one way, study → pipeline →
#: rust_core → Parquet (the run-directory contract, `rundir`) → analysis → report. `pipeline` and
#: `analysis` are siblings; the command line (`balancelab_cli`) is the top layer that wires them
#: together (run, then report). No exceptions.
LAYERS = {
    "rust_core": set(),
    "rundir": set(),
    "analysis": {"rundir", "rust_core"},
    "pipeline": {"rundir", "rust_core"},
    "balancelab_cli": {"pipeline", "analysis", "rundir", "rust_core"},
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT / "rust_core" / "python" if "rust_core" in path.parts[-4:-1] else ROOT)
    parts = list(rel.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, me: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
                base = package[: len(package) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            else:
                found.add(node.module or "")
    return {f for f in found if f.split(".")[0] in LAYERS}


def _python_files() -> list[Path]:
    packages = ("rundir", "pipeline", "analysis", "balancelab_cli")
    files = [p for pkg in packages for p in (ROOT / pkg).rglob("*.py")]
    return files + list((ROOT / "rust_core" / "python" / "rust_core").rglob("*.py"))


def _backward(edges: set[tuple[str, str]]) -> list[str]:
    """The imports in ``edges`` (module, imported module) that go up or sideways between packages."""
    return sorted(
        f"{me} imports {target}"
        for me, target in edges
        if target.split(".")[0] != me.split(".")[0] and target.split(".")[0] not in LAYERS[me.split(".")[0]]
    )


def _edges() -> set[tuple[str, str]]:
    return {(_module_name(p), m) for p in _python_files() for m in _imported(p, _module_name(p))}


def test_every_import_between_packages_goes_down_the_layers():
    edges = _edges()
    assert len(edges) > 50
    backward = _backward(edges)
    assert not backward, backward


def test_the_layer_check_sees_a_backward_edge():
    # the command line wires the analysis into the runner: its edges are among those checked
    edges = _edges()
    assert any(me.startswith("balancelab_cli.") and t.startswith("analysis") for me, t in edges)
    assert any(me.startswith("balancelab_cli.") and t.startswith("pipeline") for me, t in edges)
    assert "rundir" in {
        e.split(".")[0] for p in (ROOT / "analysis").rglob("*.py") for e in _imported(p, "analysis.x")
    }
    # siblings: neither of pipeline and analysis may import the other, nor the command line
    assert _backward({("pipeline.runner", "analysis.precision")}) == [
        "pipeline.runner imports analysis.precision"
    ]
    assert _backward({("analysis.report", "pipeline.study")})
    assert _backward({("pipeline.runner", "balancelab_cli.report")})
    assert not _backward({("balancelab_cli.run", "analysis.precision")})
