"""Brings a report written before figures were stored once up to today's layout, without its run.

Older reports kept each figure three times: base64 inside ``index.html``, ``figures/NAME.png``
and ``figures/NAME.svg``. :func:`migrate_reports` rewrites every embedded image as a link to the
file in ``figures/`` whose bytes it is (an image that matches no file byte for byte stops the
migration before anything is written), deletes the other format of each figure, points the
Markdown pages at the kept file, and compacts the kept PNGs losslessly (same pixels, fewer bytes)::

    python -m analysis.report.migrate reports
"""

from __future__ import annotations

import base64
import html
import pathlib
import re
import sys
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from .plots import lossless_png

__all__ = ["MigrationError", "Plan", "compact_png", "main", "migrate_reports", "plan_report"]

_EMBEDDED = re.compile(r'src="data:image/(?:png|svg\+xml);base64,([A-Za-z0-9+/=\s]+)"')
_MD_LINK = re.compile(r"\(figures/([\w.-]+)\.(png|svg)\)")
_SVG_NOTE = re.compile(r" \(\[SVG\]\(figures/[\w.-]+\.svg\)\)")


class MigrationError(ValueError):
    """A report that cannot be migrated as it stands; nothing has been written."""


@dataclass
class Plan:
    """What migrating one report folder writes and deletes."""

    folder: pathlib.Path
    writes: dict[pathlib.Path, str] = field(default_factory=dict)
    deletes: list[pathlib.Path] = field(default_factory=list)
    linked: int = 0


def _img_size(path: pathlib.Path) -> str:
    if path.suffix != ".png":
        return ""
    with Image.open(path) as image:
        return f' width="{image.width}" height="{image.height}"'


def _link_page(
    page: pathlib.Path, files: dict[bytes, pathlib.Path], kept: set[pathlib.Path]
) -> tuple[str, int]:
    """The page with each embedded image replaced by a link to the figure file of the same bytes."""
    count = 0

    def link(m: re.Match[str]) -> str:
        nonlocal count
        match = files.get(base64.b64decode("".join(m.group(1).split())))
        if match is None:
            raise MigrationError(
                f"{page}: embedded image {count + 1} matches no file in figures/ byte for byte"
            )
        kept.add(match)
        count += 1
        return f'src="figures/{html.escape(match.name)}"{_img_size(match)}'

    return _EMBEDDED.sub(link, page.read_text(encoding="utf-8")), count


def _link_markdown(text: str, keep: dict[str, pathlib.Path]) -> str:
    text = _SVG_NOTE.sub("", text)
    return _MD_LINK.sub(
        lambda m: f"(figures/{keep[m.group(1)].name})" if m.group(1) in keep else m.group(0), text
    )


def plan_report(folder: pathlib.Path) -> Plan:
    """Plans one report folder (``index.html``, ``*.md``, ``figures/``); reads only."""
    figures = sorted(p for p in (folder / "figures").iterdir() if p.suffix in {".png", ".svg"})
    plan = Plan(folder)
    kept: set[pathlib.Path] = set()
    page = folder / "index.html"
    if page.exists():
        text, plan.linked = _link_page(page, {p.read_bytes(): p for p in figures}, kept)
        plan.writes[page] = text
    keep: dict[str, pathlib.Path] = {}
    for path in figures:  # sorted: NAME.png before NAME.svg, so an unlinked figure keeps its PNG
        if path.stem not in keep or (path in kept and keep[path.stem] not in kept):
            keep[path.stem] = path
    plan.deletes = [p for p in figures if keep[p.stem] != p]
    for md in sorted(folder.glob("*.md")):
        plan.writes[md] = _link_markdown(md.read_text(encoding="utf-8"), keep)
    for path, text in plan.writes.items():
        for target in re.findall(r'src="(figures/[^"]+)"', text) + [
            f"figures/{m[0]}.{m[1]}" for m in _MD_LINK.findall(text)
        ]:
            if (folder / target) in plan.deletes or not (folder / target).exists():
                raise MigrationError(f"{path}: links {target}, which would not exist after the migration")
    return plan


def compact_png(path: pathlib.Path) -> int:
    """Re-saves ``path`` in :func:`lossless_png`'s mode when that is smaller and shows exactly the
    same pixels; returns the bytes saved."""
    before = path.stat().st_size
    with Image.open(path) as image:
        image.load()
        smaller = lossless_png(image)
        tmp = path.with_suffix(".tmp.png")
        smaller.save(tmp, format="PNG", optimize=True)
        with Image.open(tmp) as check:
            same = np.array_equal(np.asarray(check.convert("RGBA")), np.asarray(image.convert("RGBA")))
    if not same or tmp.stat().st_size >= before:
        tmp.unlink()
        return 0
    tmp.replace(path)
    return before - path.stat().st_size


def migrate_reports(root: pathlib.Path) -> list[Plan]:
    """Migrates every report folder under ``root`` (each folder holding ``figures/``); plans all of
    them before writing any, so one that cannot be migrated leaves every file as it was."""
    plans = [plan_report(f.parent) for f in sorted(root.rglob("figures")) if f.is_dir()]
    for plan in plans:
        for path, text in plan.writes.items():
            path.write_text(text, encoding="utf-8")
        for path in plan.deletes:
            path.unlink()
        for png in sorted((plan.folder / "figures").glob("*.png")):
            compact_png(png)
    return plans


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not pathlib.Path(args[0]).is_dir():
        print("usage: python -m analysis.report.migrate REPORTS_DIR (an existing folder)", file=sys.stderr)
        return 2
    try:
        plans = migrate_reports(pathlib.Path(args[0]))
    except MigrationError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for plan in plans:
        print(f"{plan.folder}: {plan.linked} images linked, {len(plan.deletes)} duplicate files deleted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
