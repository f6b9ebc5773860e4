"""The committed example reports: every page reports/README.md regenerates is in the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _named() -> set[str]:
    """The report folders reports/README.md writes (``--report-dir reports/NAME``, and the names
    of its ``for s in ...`` loop)."""
    text = (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
    looped = {n for names in re.findall(r"for s in ([a-z0-9 -]+); do", text) for n in names.split()}
    return set(re.findall(r"--report-dir reports/([a-z0-9-]+)", text)) | looped


def _tracked() -> set[str] | None:
    """The report folders git tracks a file in (None outside a git checkout)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "reports"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {p.split("/")[1] for p in out.splitlines() if p.count("/") >= 2}


def test_every_page_the_reports_readme_names_is_committed() -> None:
    named = _named()
    assert len(named) >= 15 and "taluva-switches" in named, named
    present = {n for n in named if list((ROOT / "reports" / n).glob("*.md"))}
    assert present == named, f"named in reports/README.md, missing: {sorted(named - present)}"
    tracked = _tracked()
    if tracked is not None:  # a folder .gitignore leaves out exists only in the checkout that wrote it
        assert named <= tracked, f"not tracked by git (see .gitignore): {sorted(named - tracked)}"
