"""Builds ``reports/<study>/``: ``index.html`` (self-contained), ``report.md`` and figures."""

from __future__ import annotations

import base64
import html
import math
import pathlib
import re
from string import Template
from typing import Any

import polars as pl
from matplotlib.figure import Figure

from .. import figures
from ..study import StudyAnalysis, analyse
from .text import ci, summary_paragraph

__all__ = ["Doc", "write_report"]

_NUMBER = re.compile(r"^([-+]?[\d.]+( \[[-+\d., ]+\])?|n/a)$")
TEMPLATE = pathlib.Path(__file__).with_name("templates") / "index.html"


class Doc:
    """Collects the report once and renders it both as HTML and as Markdown."""

    def __init__(self) -> None:
        self.html: list[str] = []
        self.md: list[str] = []

    def heading(self, text: str, level: int = 2) -> None:
        self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")
        self.md.append(f"\n{'#' * level} {text}\n")

    def para(self, text: str, cls: str | None = None) -> None:
        attr = f' class="{cls}"' if cls else ""
        self.html.append(f"<p{attr}>{html.escape(text)}</p>")
        self.md.append(f"> **Warning:** {text}\n" if cls == "warning" else f"{text}\n")

    def table(self, header: list[str], rows: list[list[Any]]) -> None:
        def cell(v: Any, tag: str) -> str:
            numeric = not isinstance(v, str) or _NUMBER.match(v)
            cls = "" if numeric else ' class="text"'
            return f"<{tag}{cls}>{html.escape(str(v))}</{tag}>"

        body = "".join("<tr>" + "".join(cell(v, "td") for v in r) + "</tr>" for r in rows)
        self.html.append("<table><tr>" + "".join(cell(h, "th") for h in header) + "</tr>" + body + "</table>")
        self.md.append("| " + " | ".join(header) + " |")
        self.md.append("|" + "---|" * len(header))
        self.md.extend("| " + " | ".join(str(v) for v in r) + " |" for r in rows)
        self.md.append("")

    def figure(self, fig: Figure | None, out: pathlib.Path, name: str, caption: str) -> None:
        if fig is None:
            return
        png = figures.save_figure(fig, out / "figures", name)
        data = base64.b64encode(png.read_bytes()).decode("ascii")
        self.html.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(caption)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
        self.md.append(f"![{caption}](figures/{name}.png)\n\n*{caption}* ([SVG](figures/{name}.svg))\n")


def _fmt(v: Any, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v:.{digits}g}" if isinstance(v, float) else str(v)


def _provenance(doc: Doc, s: StudyAnalysis) -> None:
    m, st = s.manifest, s.manifest["study"]
    versions = ", ".join(f"{k} {v}" for k, v in m.get("versions", {}).items())
    rows = [
        ["study", st["name"]],
        ["game", st["game"]],
        ["seed", st["seed"]],
        ["pair_seats (deal as unit)", st.get("pair_seats", False)],
        ["games played", m.get("games_done", "n/a")],
        ["wall time (s)", _fmt(m.get("wall_seconds"), 4)],
        ["started", m.get("started", "n/a")],
        ["finished", m.get("finished", "n/a")],
        ["git commit", m.get("git_commit", "n/a")],
        ["versions", versions],
    ]
    if s.section.provenance is not None:
        rows += s.section.provenance(s)
    doc.heading("Provenance")
    doc.table(["", "value"], [[k, str(v)] for k, v in rows])
    doc.table(
        ["cell", "label", "players", "agents", "variant", "games"],
        [
            [
                str(c["id"]),
                str(c.get("label", c["id"])),
                c.get("n_players", len(c["agents"])),
                ", ".join(c["agents"]),
                str(c.get("variant", {})) or "{}",
                c.get("games", ""),
            ]
            for c in s.cells
        ],
    )


def _build(s: StudyAnalysis, out: pathlib.Path) -> Doc:
    doc = Doc()
    doc.heading(f"balancelab report: {s.name}", 1)
    doc.heading("Summary")
    doc.para(summary_paragraph(s), "summary")
    for w in s.warnings:
        doc.para(w, "warning")
    _provenance(doc, s)

    doc.heading("Start-player advantage")
    header = ["cell", "players", "games", "advantage [95% CI]", "equal seats p", "verdict"]
    extra = [c for c in s.section.advantage_columns if c.estimate in s.advantage.columns]
    for i, c in enumerate(extra):
        header.insert(4 + i, f"{c.label} [95% CI]")
    rows = []
    for r in s.advantage.iter_rows(named=True):
        row = [
            r["label"],
            r["n_players"],
            r["games"],
            ci(r["advantage"], r["lo"], r["hi"]),
            _fmt(r["equal_seats_p"]),
            r["verdict"],
        ]
        for i, c in enumerate(extra):
            row.insert(4 + i, ci(r[c.estimate], r[c.lo], r[c.hi]))
        rows.append(row)
    doc.table(header, rows)
    if extra and s.section.advantage_note:
        doc.para(s.section.advantage_note)
    doc.figure(figures.advantage_figure(s), out, "start_advantage", "Start-player advantage by cell (95% CI)")

    doc.heading("Win rate by seat")
    for cid in s.rows:
        t = s.seats.filter(pl.col("cell") == cid).sort("seat")
        doc.para(f"{s.label(cid)} (ties counted as shares; fair = {t['fair'][0]:.3f}):")
        doc.table(
            ["seat", "win rate [95% CI]", "units"],
            [[r["seat"], ci(r["win_rate"], r["lo"], r["hi"]), r["n_units"]] for r in t.iter_rows(named=True)],
        )
    doc.figure(figures.seats_figure(s), out, "seat_win_rates", "Win rate by seat (dashed: fair share 1/n)")

    doc.heading("Scores, margins, length and ties")
    doc.table(
        ["cell", "winning margin [95% CI]", "turns [95% CI]", "median turns", "tied games [95% CI]"],
        [
            [
                r["label"],
                ci(r["margin"], r["margin_lo"], r["margin_hi"], 2),
                ci(r["turns"], r["turns_lo"], r["turns_hi"], 1),
                _fmt(r["turns_median"]),
                ci(r["tie_share"], r["tie_lo"], r["tie_hi"]),
            ]
            for r in s.outcomes.iter_rows(named=True)
        ],
    )
    doc.table(
        ["cell", "seat", "mean score [95% CI]"],
        [
            [s.label(r["cell"]), r["seat"], ci(r["mean_score"], r["lo"], r["hi"], 2)]
            for r in s.scores.iter_rows(named=True)
        ],
    )
    doc.figure(figures.scores_figure(s), out, "scores_by_seat", "Final score by seat (box: quartiles)")
    doc.figure(figures.length_figure(s), out, "game_length", "Distribution of game length (turns)")

    if s.section.report is not None:
        s.section.report(doc, s, out)

    doc.heading("Variant comparisons")
    if s.comparisons.height:
        doc.para("Differences are b − a; p-values are Holm-corrected over all comparisons of the study.")
        doc.table(
            ["metric", "a", "b", "difference [95% CI]", "p (Holm)", "verdict"],
            [
                [
                    r["label"],
                    r["label_a"],
                    r["label_b"],
                    ci(r["diff"], r["lo"], r["hi"]),
                    _fmt(r["p_holm"]),
                    r["verdict"],
                ]
                for r in s.comparisons.iter_rows(named=True)
            ],
        )
        doc.figure(figures.forest_figure(s), out, "differences", "Forest plot of variant differences")
    else:
        doc.para("No two cells with the same player count: nothing to compare.")
    _strength_section(doc, s, out)
    return doc


def _strength_section(doc: Doc, s: StudyAnalysis, out: pathlib.Path) -> None:
    """Agent strength (win shares, Elo ladder) when the study has several head-to-head line-ups."""
    from ..figures.strength import elo_figure
    from ..strength import strength_from_rows

    lineups = {
        tuple(c["agents"]) for c in s.cells if len(c["agents"]) == 2 and c["agents"][0] != c["agents"][1]
    }
    if len(lineups) < 2:
        return
    doc.heading("Agent strength")
    try:
        st = strength_from_rows(s.name, [(s.name, s.cells, s.rows, s.paired)])
    except ValueError as exc:
        doc.para(f"No Elo ladder: {exc}.")
        return
    doc.table(
        ["agent a", "agent b", "games", "win share of a [95% CI]"],
        [
            [r["agent_a"], r["agent_b"], r["games"], ci(r["share_a"], r["lo"], r["hi"])]
            for r in st.pairs.iter_rows(named=True)
        ],
    )
    doc.table(
        [f"agent (Bradley–Terry, {st.anchor} = 0)", "games", "Elo [95% CI]"],
        [
            [r["agent"], r["games"], ci(r["elo"], r["elo_lo"], r["elo_hi"], 0)]
            for r in st.ratings.iter_rows(named=True)
        ],
    )
    doc.para(st.saturation)
    for note in st.notes:
        doc.para(note, "warning")
    doc.figure(elo_figure(st), out, "elo_ladder", "Elo ladder and head-to-head win shares (95% CI)")


def write_report(run_dir: pathlib.Path, out_dir: pathlib.Path | None = None) -> pathlib.Path:
    """Analyses ``run_dir`` and writes ``out_dir/index.html`` (self-contained: figures embedded as
    base64 PNG), ``report.md`` and ``figures/*.png|svg``; ``out_dir`` defaults to
    ``run_dir/report``. Returns the ``index.html`` path."""
    s = analyse(run_dir)
    out = pathlib.Path(run_dir) / "report" if out_dir is None else pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    doc = _build(s, out)
    page = Template(TEMPLATE.read_text()).substitute(title=html.escape(s.name), body="\n".join(doc.html))
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    (out / "report.md").write_text("\n".join(doc.md).lstrip() + "\n", encoding="utf-8")
    return index
