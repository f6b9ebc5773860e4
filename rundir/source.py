"""Where the running code came from: the git commit of the checkout the packages run from.

Shared by the pipeline (a run's manifest records the commit that played it) and the analysis (a
page's Provenance names the commit that wrote it); ``None`` for an installed package.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["code_commit", "source_commit", "written_at"]


def _git(*args: str) -> str | None:
    """The output of ``git ARGS`` in the checkout this package runs from (``rundir/`` beside
    ``pyproject.toml``), stripped; ``None`` for an installed package or when git fails."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file() or not (root / ".git").exists():
        return None
    try:
        res = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() if res.returncode == 0 else None


def source_commit() -> str | None:
    """The git commit of the checkout this package runs from, with ``-dirty`` if files differ;
    ``None`` for an installed package."""
    return _git("describe", "--always", "--dirty", "--abbrev=40") or None


def code_commit() -> str | None:
    """The commit of the code a page is written by: as :func:`source_commit`, but ``-dirty`` only
    when code differs from it, not the committed pages under ``reports/`` that regenerating them
    rewrites; ``None`` for an installed package."""
    head = _git("rev-parse", "HEAD")
    changed = _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)reports")
    if not head or changed is None:
        return None
    return head + ("-dirty" if changed else "")


def written_at() -> str:
    """The commit of the code that writes a page (:func:`code_commit`) for its Provenance, or that
    it is an installed package."""
    return code_commit() or "an installed package (no git checkout)"
