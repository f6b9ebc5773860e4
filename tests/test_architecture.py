"""The shape of the code: game knowledge lives only in its game's folder.

Shared code (the Rust core outside `src/games/`, `pipeline/`, the generic `analysis/`, the Python
face of `rust_core`, `bench/engine.py`'s per-game cases) names no game: a game is reached through the registry
(`rust_core/src/registry.rs`), the report-section list (`analysis/games.py`) and the Python face's
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
    ROOT / "analysis" / "games.py",
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
    game_modules = {ROOT / "analysis" / f"{g}.py" for g in GAMES} | {
        ROOT / "analysis" / "games" / f"{g}.py" for g in GAMES
    }
    helpers = {ROOT / "rust_core" / "python" / "rust_core" / f"{g}.py" for g in GAMES}
    shared = [
        p
        for folder in ("pipeline", "analysis", "rust_core/python/rust_core")
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
