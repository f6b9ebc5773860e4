"""Where the running code came from: the git commit of the checkout the packages run from.

Shared by the pipeline (a run's manifest records the commit that played it) and the analysis (a
page's Provenance names the commit that wrote it); ``None`` for an installed package.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["code_commit", "source_commit"]


def source_commit() -> str | None:
    """The git commit of the checkout this package runs from (``rundir/`` beside ``pyproject.toml``),
    with ``-dirty`` if files differ; ``None`` for an installed package."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file() or not (root / ".git").exists():
        return None
    try:
        res = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=40"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = res.stdout.strip()
    return commit if res.returncode == 0 and commit else None


def code_commit() -> str | None:
    """The commit of the code a page is written by: as :func:`source_commit`, but ``-dirty`` only
    when code differs from it, not the committed pages under ``reports/`` that regenerating them
    rewrites; ``None`` for an installed package."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file() or not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5
        )
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)reports"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0 or changed.returncode != 0 or not head.stdout.strip():
        return None
    return head.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")
