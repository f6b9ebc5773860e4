"""The documentation stays true: every `balancelab` command and option that README.md and docs/
show exists in the parser, every `python -m bench.<script>` exists, the generated reference covers
every command and every game option, and every game has its page in the site's navigation."""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import re
import sys

import pytest

import rust_core
from balancelab_cli import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
CODE = re.compile(r"```(?:sh|bash|console)?\n(.*?)```|`([^`\n]+)`", re.S)


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_hooks"] = module
    spec.loader.exec_module(module)
    return module


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {"": parser, **subs.choices}


def _snippets(text: str) -> list[str]:
    """Every command line shown in code: lines of code blocks and inline code spans."""
    out: list[str] = []
    for block, span in CODE.findall(text):
        out += block.splitlines() if block else [span]
    return out


def _balancelab_lines() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for line in _snippets(page.read_text()):
            for m in re.finditer(r"(?:^|[\s;&(])balancelab (.*)", line):
                found.append((page.relative_to(ROOT).as_posix(), m.group(1).split("#")[0]))
    return found


def test_every_documented_balancelab_command_and_option_exists():
    commands = _commands()
    lines = _balancelab_lines()
    assert len(lines) > 50  # the pages do show commands
    wrong = []
    for page, rest in lines:
        words = rest.split()
        name = words[0] if words and not words[0].startswith("-") else ""
        if name not in commands:
            if re.fullmatch(r"[a-z]+", name):
                wrong.append(f"{page}: balancelab {name}")
            continue
        known = {s for a in commands[name]._actions for s in a.option_strings}
        known |= {s for a in commands[""]._actions for s in a.option_strings} if not name else set()
        for word in words:
            flag = word.strip("[]().,;").split("=")[0]
            if flag.startswith("--") and re.fullmatch(r"--[a-z-]+", flag) and flag not in known:
                wrong.append(f"{page}: balancelab {name} {flag}")
    assert wrong == []


def test_every_documented_bench_module_exists():
    shown = {
        m.group(1) for page in PAGES for m in re.finditer(r"python -m bench\.([a-z_]+)", page.read_text())
    }
    assert shown, "the pages show bench commands"
    assert sorted(m for m in shown if not (ROOT / "bench" / f"{m}.py").exists()) == []


def test_the_generated_reference_covers_every_command_and_game_option():
    hooks = _hooks()
    cli = hooks.cli_reference()
    for name in _commands():
        assert f"## balancelab {name}".rstrip() in cli, name
    for game in rust_core.games():
        table = hooks.options_table(rust_core.variant_schema(game))
        for option in rust_core.variant_schema(game):
            assert f"| `{option['name']}` |" in table, (game, option["name"])
    studies = hooks.studies_table()
    for name in ("alhambra-dirk", "hiroba-skill", "atlas-titania"):
        assert f"| `{name}` |" in studies, name
    schema = hooks.study_schema_reference()
    for field in ("games_per_cell", "pair_seats", "grid", "ladder", "players"):
        assert f"| `{field}` |" in schema, field


def test_an_unknown_marker_fails_the_build():
    with pytest.raises(ValueError, match="unknown marker"):
        _hooks().on_page_markdown("<!-- balancelab:nonsense -->\n")


def test_every_page_is_in_the_navigation():
    # mkdocs build --strict fails on a page left out of the nav; this says so before CI does
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = [p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")]
    assert sorted(p for p in pages if f": {p}\n" not in nav) == []


def test_every_game_has_its_page_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text()
    for game in rust_core.games():
        assert (ROOT / "docs" / "games" / f"{game}.md").exists(), game
        assert f"games/{game}.md" in nav, game
