"""The Rust crate's top-level modules depend on each other without cycles.

A top-level module is a file ``rust_core/src/<m>.rs`` or a folder ``rust_core/src/<m>/`` (``games``
with every game's folder is one). Module ``a`` depends on ``b`` where code in ``a`` names a path
``crate::b::...``, in a ``use`` line (``use crate::{b::X, c}`` too) or inline (``$crate::`` in a
macro too); comments and string literals do not count. Test code (``tests.rs`` files and
``#[cfg(test)]`` items) does not count either: a unit test may reach up, e.g. the handicap's tests
play coin through the batch runner. Paths that leave a module by ``super::`` are refused, so every
dependency between top-level modules is spelled ``crate::`` and seen here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "rust_core" / "src"
PATH = re.compile(r"\$?\bcrate::")
SUPERS = re.compile(r"\b((?:super::)+)")


def strip_comments(text: str) -> str:
    """The Rust source without comments and with every string and character literal emptied."""
    token = re.compile(r"""\br(#*)".*?"\1|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])'|/\*.*?\*/|//[^\n]*""", re.DOTALL)
    return token.sub(lambda m: '""' if m.group(0)[0] in 'r"' else " ", text)


def without_tests(code: str) -> str:
    """The code without its ``#[cfg(test)]`` items (a test module's body, a test helper)."""
    while (at := code.find("#[cfg(test)]")) >= 0:
        semi, brace = code.find(";", at), code.find("{", at)
        if brace < 0 or 0 <= semi < brace:
            code = code[:at] + code[semi + 1 :]
            continue
        depth, end = 0, brace
        for end in range(brace, len(code)):
            depth += (code[end] == "{") - (code[end] == "}")
            if depth == 0:
                break
        code = code[:at] + code[end + 1 :]
    return code


def heads(text: str, start: int) -> list[str]:
    """The first segment of each path that starts at ``text[start]`` after ``crate::``: one name,
    or each item's first name of a ``{a::X, b, c::{Y, Z}}`` group."""
    if text[start] != "{":
        name = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[start:])
        return [name.group(0)] if name else []
    depth, item, found = 0, "", []
    for ch in text[start:]:
        depth += (ch == "{") - (ch == "}")
        if depth == 0 or (depth == 1 and ch == ","):
            first = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", item)
            found += [first.group(1)] if first else []
            item = ""
            if depth == 0:
                return found
        elif not (depth == 1 and ch == "{"):
            item += ch
    return found


def top_module(path: Path, src: Path = SRC) -> str:
    return path.relative_to(src).parts[0].removesuffix(".rs")


def module_depth(path: Path, src: Path = SRC) -> int:
    """How many modules deep the file's own module is (``game.rs``: 1, ``agents/mcts.rs``: 2)."""
    parts = path.relative_to(src).parts
    return len(parts) - (parts[-1] == "mod.rs")


def dependencies(src: Path = SRC) -> dict[str, set[str]]:
    """Each top-level module's set of other top-level modules it names."""
    modules = {
        top_module(p, src) for p in src.iterdir() if p.name != "lib.rs" and (p.is_dir() or p.suffix == ".rs")
    }
    deps: dict[str, set[str]] = {m: set() for m in modules}
    for path in sorted(src.rglob("*.rs")):
        if path.name == "tests.rs" or (path.name == "lib.rs" and path.parent == src):
            continue
        code = without_tests(strip_comments(path.read_text(encoding="utf-8")))
        here = top_module(path, src)
        for m in PATH.finditer(code):
            deps[here].update(h for h in heads(code, m.end()) if h in modules and h != here)
        for m in SUPERS.finditer(code):
            if m.group(1).count("super") >= module_depth(path, src) > 1:
                raise AssertionError(
                    f"{path.relative_to(src)}: `{m.group(0)}` leaves module {here}; use crate::"
                )
    return deps


def cycles(deps: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary cycle, each once (starting at its smallest module), e.g. ``[a, b, a]``."""
    found: list[list[str]] = []

    def walk(start: str, path: list[str]) -> None:
        for nxt in sorted(deps[path[-1]]):
            if nxt == start:
                found.append([*path, start])
            elif nxt > start and nxt not in path:
                walk(start, [*path, nxt])

    for start in sorted(deps):
        walk(start, [start])
    return found


def test_the_crates_top_level_modules_have_no_cycle():
    deps = dependencies()
    assert {"agents", "batch", "game", "games", "registry", "rng"} <= deps.keys()
    assert "game" in deps["agents"], "the parser should see agents naming crate::game"
    found = cycles(deps)
    assert not found, "module cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_cycles_that_were_removed_are_seen_in_their_old_form(tmp_path):
    """The three cycles the crate had (issue 55), rebuilt in miniature: the test sees each, and
    none closed by test code (handicap's tests use batch, coin's tests the registry)."""
    for name, text in {
        "agents.rs": "pub fn v() -> u32 { crate::registry::eval_weights_hash() }\n",
        "registry.rs": "use crate::agents::AgentSpec;\nuse crate::batch::{self, BatchSpec};\n"
        "use crate::games::coin;\n",
        "batch/mod.rs": "use crate::agents::Agent;\nuse crate::game::View;\nuse crate::handicap;\n",
        "game.rs": "use crate::handicap::{self, Handicap};\n",
        "handicap.rs": "use crate::game::{ranks_and_wins, Game, MAX_SEATS};\n"
        "#[cfg(test)]\nmod tests {\n    fn f() { crate::batch::simulate() }\n}\n",
        "games/coin/tests.rs": "use crate::registry::GAMES;\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert cycles(dependencies(tmp_path)) == [
        ["agents", "registry", "agents"],
        ["agents", "registry", "batch", "agents"],
        ["game", "handicap", "game"],
    ]


def test_the_parser_finds_use_groups_inline_paths_and_cycles(tmp_path):
    (tmp_path / "lib.rs").write_text("pub mod a; pub mod b; pub mod c;\n")
    (tmp_path / "a.rs").write_text("use crate::{b::X, c::{Y, Z}};\n// crate::zzz in a comment\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "mod.rs").write_text('fn f() { let s = "crate::c"; crate::a::g() }\n')
    (tmp_path / "c.rs").write_text("pub struct Y;\n")
    deps = dependencies(tmp_path)
    assert deps == {"a": {"b", "c"}, "b": {"a"}, "c": set()}
    assert cycles(deps) == [["a", "b", "a"]]
    (tmp_path / "c.rs").write_text("macro_rules! m { () => { $crate::b::f() } }\n")
    assert cycles(dependencies(tmp_path)) == [["a", "b", "a"], ["a", "c", "b", "a"]]


def test_a_path_leaving_a_module_by_super_is_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.rs").write_text("use super::super::b::Y;\n")
    (tmp_path / "b.rs").write_text("")
    with pytest.raises(AssertionError, match="leaves module a"):
        dependencies(tmp_path)
