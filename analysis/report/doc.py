"""One document, written twice: HTML and Markdown, both linking each figure's one PNG file."""

from __future__ import annotations

import html
import pathlib
import re

from matplotlib.figure import Figure
from PIL import Image

from ..content import Block, Code, DotPlot, Finding, Section, Table, Text
from .plots import draw_dotplot, save_figure
from .text import cell_text

__all__ = ["Doc"]

_NUMBER = re.compile(r"^([-+\u2212]?[\d.,]+( \[[-+\u2212\d., ]+\])?|n/a|< 0\.001)$")


class Doc:
    """Collects the report once and renders it as HTML and Markdown. Each figure is stored once,
    as ``out/figures/NAME.png``, and both pages link it by its relative path (the page opens from
    disk and on GitHub alike); DotPlots are drawn in the cells' colours."""

    def __init__(self, out: pathlib.Path, colours: dict[str, str], names: dict[str, str]) -> None:
        self.out = out
        self.colours = colours
        self.names = names
        self.html: list[str] = []
        self.md: list[str] = []

    def heading(self, text: str, level: int = 2) -> None:
        self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")
        self.md.append(f"\n{'#' * level} {text}\n")

    def para(self, text: str, cls: str | None = None) -> None:
        attr = f' class="{cls}"' if cls else ""
        self.html.append(f"<p{attr}>{html.escape(text)}</p>")
        prefix = {"warning": "> **Warning:** ", "dirty": "> **Modified working tree:** "}.get(cls or "", "")
        self.md.append(f"{prefix}{text}\n")

    def verdict(self, findings: list[Finding], scope: list[str]) -> None:
        """The verdict block: what was played, then one line per finding."""
        items = "".join(
            f"<li><b>{html.escape(f.title)}.</b> {html.escape(f.sentence)}</li>" for f in findings
        )
        lead = "".join(f'<p class="scope">{html.escape(x)}</p>' for x in scope)
        self.html.append(
            f'<section id="verdict" class="verdict"><h2>Verdict</h2>{lead}<ul>{items}</ul></section>'
        )
        self.md.append("\n## Verdict\n")
        self.md.extend(f"{x}\n" for x in scope)
        self.md.extend(f"- **{f.title}.** {f.sentence}" for f in findings)
        self.md.append("")

    def table(
        self, header: list[str] | tuple[str, ...], rows: list[list[object]] | tuple[tuple[object, ...], ...]
    ) -> None:
        def cell(v: object, tag: str) -> str:
            text = cell_text(v)  # type: ignore[arg-type]
            if isinstance(v, Code):
                return f'<{tag} class="text"><code>{html.escape(text)}</code></{tag}>'
            cls = "" if _NUMBER.match(text) else ' class="text"'
            return f"<{tag}{cls}>{html.escape(text)}</{tag}>"

        def md(v: object) -> str:
            text = cell_text(v)  # type: ignore[arg-type]
            return f"`{text}`" if isinstance(v, Code) else text

        body = "".join("<tr>" + "".join(cell(v, "td") for v in r) + "</tr>" for r in rows)
        self.html.append("<table><tr>" + "".join(cell(h, "th") for h in header) + "</tr>" + body + "</table>")
        self.md.append("| " + " | ".join(header) + " |")
        self.md.append("|" + "---|" * len(header))
        self.md.extend("| " + " | ".join(md(v) for v in r) + " |" for r in rows)
        self.md.append("")

    def figure(self, fig: Figure | None, name: str, takeaway: str) -> None:
        """Saves ``fig`` as ``figures/NAME.png`` and links it with its one-line takeaway as caption."""
        if fig is None:
            return
        png = save_figure(fig, self.out / "figures", name)
        src = f"figures/{png.name}"
        with Image.open(png) as image:
            width, height = image.size
        self.html.append(
            f'<figure><img src="{html.escape(src)}" width="{width}" height="{height}" '
            f'alt="{html.escape(takeaway)}"><figcaption>{html.escape(takeaway)}</figcaption></figure>'
        )
        self.md.append(f"![{takeaway}]({src})\n\n*{takeaway}*\n")

    def dotplot(self, plot: DotPlot | None) -> None:
        if plot is not None and plot.dots:
            self.figure(draw_dotplot(plot, self.colours, self.names), plot.name, plot.takeaway)

    def block(self, b: Block) -> None:
        if isinstance(b, Text):
            self.para(b.text, "warning" if b.warning else None)
        elif isinstance(b, Table):
            self.table(b.header, b.rows)
        else:
            self.dotplot(b)

    def section(self, s: Section) -> None:
        self.heading(s.heading)
        for b in s.blocks:
            self.block(b)
