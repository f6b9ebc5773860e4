"""The version moves when rules or agents change: CHANGELOG.md's latest release lists the rules and
agent versions it plays, and they must be the engine's; the package version is that release's."""

from __future__ import annotations

import inspect
import pathlib
import re

import rust_core

ROOT = pathlib.Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", re.M)


def _latest_release() -> tuple[str, str]:
    text = (ROOT / "CHANGELOG.md").read_text()
    first, *rest = list(RELEASE.finditer(text))
    end = rest[0].start() if rest else len(text)
    return first.group(1), text[first.end() : end]


def _versions_table(section: str) -> dict[str, int]:
    """``{"rules alhambra": 1, "agent mcts": 6, ...}`` from the release's versions table; rows whose
    version is not a plain number (``xmcts``'s base, mixed with a hash) are left out."""
    table: dict[str, int] = {}
    for what, version in re.findall(r"^\| ([^|]+?) \| (\d+)\b[^|]*\|$", section, re.M):
        if what.endswith(" rules"):
            table[f"rules {what.removesuffix(' rules').lower()}"] = int(version)
        else:
            for agent in re.findall(r"`([a-z0-9]+)`", what):
                table[f"agent {agent}"] = int(version)
    return table


def _agent_version(spec: str) -> int:
    # the version of a plain agent is the same in every game
    takes_game = len(inspect.signature(rust_core.agent_version).parameters) > 1
    return rust_core.agent_version(spec, "alhambra") if takes_game else rust_core.agent_version(spec)  # type: ignore[call-arg]


def test_the_latest_release_lists_the_engines_rules_and_agent_versions():
    version, section = _latest_release()
    table = _versions_table(section)
    engine = {f"rules {g}": rust_core.rules_version(g) for g in rust_core.games()}
    engine |= {f"agent {a}": _agent_version(a) for a in rust_core.agents() if a != "xmcts"}
    assert table == engine, (
        f"CHANGELOG.md's release {version} lists other rules or agent versions than the engine plays: "
        "a change of rules or agents is a new release with a new version (pyproject.toml, Cargo.toml)"
    )


def test_the_package_version_is_the_latest_release():
    version, _ = _latest_release()
    pyproject = (ROOT / "pyproject.toml").read_text()
    cargo = (ROOT / "rust_core" / "Cargo.toml").read_text()
    lock = (ROOT / "Cargo.lock").read_text()
    assert re.search(rf'^version = "{re.escape(version)}"$', pyproject, re.M), "pyproject.toml"
    assert re.search(rf'^version = "{re.escape(version)}"$', cargo, re.M), "rust_core/Cargo.toml"
    assert f'name = "rust_core"\nversion = "{version}"\n' in lock, "Cargo.lock"
