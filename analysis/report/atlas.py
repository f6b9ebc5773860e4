"""The atlas page: ``index.html`` (self-contained) and ``report.md`` over every game's atlas run.

First screen: what the page answers and the rung (agent) read per game, then one figure to look at
first (:func:`verdict_grid`: games × player counts, each cell coloured by its verdict with its
number), one sentence per game (:func:`game_sentence`), then one table row per game × player
count (the verdict in words at the strongest measurably stronger rung, the number with its
interval, the rung and its Elo, the trend along the ladder, what would settle it, the game's full
report). Then a figure per game (the start-player advantage against the rungs' Elo, one line per
player count), what more budget would settle, the limits (each game's board or map, rule readings,
agents), and the budget spent with the provenance.
"""

from __future__ import annotations

import html
import math
import os
import pathlib
import re
import textwrap
from collections.abc import Mapping
from string import Template
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from rundir.source import written_at

from ..agents import describe
from ..atlas import AtlasRow, GameAtlas, SeatShare, cell_words, game_atlas, points_words, share_digits
from ..stats.practical import MIN_VERDICT_DEALS
from ..words import around, pts, pts_span, signed
from .doc import Doc
from .methods import glossary_table, terms_used
from .style import OKABE_ITO

__all__ = [
    "KIND_COLOURS",
    "atlas_figure",
    "farthest_seat",
    "game_sentence",
    "mark_game_pages",
    "row_phrase",
    "verdict_grid",
    "write_atlas",
]

TEMPLATE = pathlib.Path(__file__).with_name("templates") / "index.html"
ROOT = pathlib.Path(__file__).resolve().parents[2]
STYLE = """<style>
.atlas td.fair { background: #e3f4e8; } .atlas td.favours { background: #fde9d2; }
.atlas td.unsettled { background: #eeeeee; color: #444; } .atlas td { vertical-align: top; }
.atlas td.game { font-weight: 600; } .lead { font-size: 1.05em; line-height: 1.45; }
</style>"""


def atlas_figure(g: GameAtlas) -> Figure | None:
    """The start-player advantage (points) against each rung's Elo, one line per player count,
    with 95% intervals and the threshold band."""
    if not g.metrics:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    t = 100 * g.threshold
    ax.axhspan(-t, t, color="#dddddd", alpha=0.6, lw=0, label=f"fair within ±{points_words(g.threshold)}")
    ax.axhline(0, color="#888888", lw=0.8)
    for i, m in enumerate(sorted(g.metrics, key=lambda m: m.n_players)):
        pts_ = [p for p in m.points if math.isfinite(p.elo)]
        if not pts_:
            continue
        x = [p.elo + 6 * (i - len(g.metrics) / 2) for p in pts_]  # small offsets: whiskers apart
        y = [100 * p.estimate for p in pts_]
        err = [[100 * (p.estimate - p.lo) for p in pts_], [100 * (p.hi - p.estimate) for p in pts_]]
        colour = OKABE_ITO[i % len(OKABE_ITO)]
        ax.errorbar(x, y, yerr=err, fmt="o-", color=colour, capsize=3, label=f"{m.n_players} players")
    ax.set_xlabel(f"rung strength, Elo ({g.rungs[0]} at 0)")
    ax.set_ylabel("start player's advantage, points")
    ax.set_title(f"{g.game}: start player's advantage by skill", fontsize=10)
    ax.legend(fontsize=8, frameon=False, loc="best")
    ax.grid(alpha=0.3)
    return fig


#: Cell colour per verdict kind: tints of Okabe–Ito bluish green and vermillion (told apart by
#: lightness and hue with colour-vision deficiencies; every cell also says its verdict in words).
KIND_COLOURS = {"fair": "#b3e2d5", "favours": "#f0c7a6", "unsettled": "#e4e4e4"}
PLAYER_COUNTS = range(2, 7)  # the grid's columns, widened if a game has more players


def farthest_seat(r: AtlasRow) -> SeatShare | None:
    """The seat whose win share lies farthest from its fair share 1/n (the first on a tie)."""
    if not r.seats:
        return None
    return max(r.seats, key=lambda x: abs(x.share - 1 / r.n_players))


def _number(r: AtlasRow, words: bool = False) -> str:
    """The row's number in points: the start player's advantage (2 players) or the farthest seat's
    distance from its fair share (3+), with its 95% interval; ``words``: with its unit."""
    unit = " points" if words else ""
    if r.n_players == 2:
        return f"{pts(r.advantage)}{unit} {pts_span(r.lo, r.hi, around(r.threshold))}"
    x = farthest_seat(r)
    if x is None:
        return "no seat shares"
    f = 1 / r.n_players
    digits = share_digits(x.lo, x.hi, f, r.threshold, from_fair=True)
    lo, hi = (signed(100 * (v - f), digits) if math.isfinite(v) else "n/a" for v in (x.lo, x.hi))
    if words:
        return f"seat {x.seat} {pts(x.share - f)} points [{lo}, {hi}] from 1/{r.n_players}"
    return f"seat {x.seat}: {pts(x.share - f)} [{lo}, {hi}]"


def _headline(r: AtlasRow) -> str:
    """The verdict in a few words: its first clause, without what the number already says."""
    if r.kind != "favours":
        return "fair" if r.kind == "fair" else "not settled"
    first = r.verdict.split(";")[0].replace(" (the start player)", "")
    return re.sub(r", by more than .*$", "", first)


def _label(g: GameAtlas) -> str:
    rung = g.rows[0].rung if g.rows else "no rows"
    return f"{g.game.capitalize()}\n{rung}"


def _cell(ax: Any, x: int, y: int, r: AtlasRow | None) -> None:
    if r is None:
        ax.add_patch(
            Rectangle((x, y), 1, 1, facecolor="white", edgecolor="#bbbbbb", hatch="///", gid="absent")
        )
        return
    colour = KIND_COLOURS.get(r.kind, KIND_COLOURS["unsettled"])
    ax.add_patch(
        Rectangle((x, y), 1, 1, facecolor=colour, edgecolor="white", lw=2, gid=f"{r.game}:{r.n_players}")
    )
    head, number = textwrap.fill(_headline(r), 28), _number(r)
    size = 7.5 if max(len(line) for line in (*head.splitlines(), number)) <= 28 else 6.5  # stays inside
    ax.text(x + 0.5, y + 0.5, f"{head}\n{number}\n{r.deals:,} deals", ha="center", va="center", fontsize=size)


def verdict_grid(games: list[GameAtlas]) -> Figure | None:
    """The first figure: games (rows, each labelled with its rung read) × player counts 2–6, each
    cell coloured by its verdict and giving it in words with its number and deals; hatched where
    the game has no such player count."""
    if not games:
        return None
    counts = range(
        PLAYER_COUNTS[0], max(PLAYER_COUNTS[-1], *(r.n_players for g in games for r in g.rows)) + 1
    )
    height = 1.5 + 0.66 * len(games)
    fig, ax = plt.subplots(figsize=(9, height))
    for y, g in enumerate(games):
        by_n = {r.n_players: r for r in g.rows}
        for x, n in enumerate(counts):
            _cell(ax, x, y, by_n.get(n))
    ax.set_xlim(0, len(counts))
    ax.set_ylim(len(games), 0)
    ax.set_xticks([x + 0.5 for x in range(len(counts))], [f"{n} players" for n in counts])
    ax.set_yticks([y + 0.5 for y in range(len(games))], [_label(g) for g in games], fontsize=9)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    t = points_words(games[0].threshold)
    handles = [
        Patch(facecolor=KIND_COLOURS["fair"], label=f"fair within ±{t}"),
        Patch(facecolor=KIND_COLOURS["favours"], label="favours a seat (or a seat below its share)"),
        Patch(facecolor=KIND_COLOURS["unsettled"], label="not settled"),
        Patch(facecolor="white", edgecolor="#bbbbbb", hatch="///", label="no such player count"),
    ]
    fig.legend(
        handles=handles, loc="lower center", bbox_to_anchor=(0.57, 0.0), ncol=4, fontsize=8, frameon=False
    )
    ax.set_xlabel(
        "points of win rate, 95% anytime-valid interval — 2 players: the start player's advantage; "
        "3+: the seat farthest from its fair share",
        fontsize=8,
    )
    # margins in inches, whatever the number of games: tick labels above; label and legend below
    fig.subplots_adjust(left=0.15, right=0.99, top=1 - 0.35 / height, bottom=0.75 / height)
    return fig


def row_phrase(r: AtlasRow) -> str:
    """One row in a few words: the verdict (only ``not settled`` when unsettled) with its number."""
    if r.kind == "unsettled":
        return f"{r.n_players} players not settled ({_number(r, True)}, {r.deals:,} deals)"
    return f"{r.n_players} players {r.verdict.replace('; ', ', ')} ({_number(r, True)}, {r.deals:,} deals)"


def game_sentence(g: GameAtlas) -> str:
    """One sentence per game from its rows' typed data: the rung read, then each player count's
    verdict (2 players and the settled ones in full, the unsettled 3+ counts together)."""
    if not g.rows:
        return f"{g.game.capitalize()}: no rows."
    parts = [row_phrase(r) for r in g.rows if r.n_players == 2 or r.kind != "unsettled"]
    open_ = [r for r in g.rows if r.n_players > 2 and r.kind == "unsettled"]
    if open_:
        ns = [str(r.n_players) for r in open_]
        counts = ", ".join(ns[:-1]) + (" and " if len(ns) > 1 else "") + ns[-1]
        deals = sorted({r.deals for r in open_})
        few = f"{deals[0]:,}" if len(deals) == 1 else f"{deals[0]:,}–{deals[-1]:,}"
        parts.append(f"{counts} players not settled ({few} deals)")
    return f"{g.game.capitalize()} ({g.rows[0].rung}): " + "; ".join(parts) + "."


def _rel(target: pathlib.Path, out: pathlib.Path) -> str:
    return os.path.relpath(target, out).replace(os.sep, "/")


def _elo(r: AtlasRow) -> str:
    if not math.isfinite(r.elo):
        return f"{r.rung} (not rated)"
    return f"{r.rung}, {signed(r.elo, 0)} Elo [{signed(r.elo_lo, 0)}, {signed(r.elo_hi, 0)}]"


def hours(x: float | None) -> str:
    """Core-hours in words: ``0.42``, ``< 0.01``, ``n/a``."""
    if x is None or not math.isfinite(x):
        return "n/a"
    return "< 0.01" if x < 0.01 else f"{x:,.2f}"


def _settle(r: AtlasRow) -> str:
    if r.kind != "unsettled":
        return "settled at this rung"
    if r.settle_deals is None:
        return "no interval yet"
    more = f", {hours(r.settle_core_hours)} core-h more" if r.settle_core_hours is not None else ""
    return f"~{r.settle_deals:,} deals{more}"


def _row_cells(r: AtlasRow, report: str, first: int) -> list[tuple[str, str]]:
    """(html, attributes) per column of one row; ``first``: rows of its game when it is the game's
    first row (the game, its rung and its report span them), else 0."""
    link = f'<a href="{html.escape(report)}">full report</a>'
    span = f' rowspan="{first}"' if first > 1 else ""
    head = [(html.escape(r.game), f'class="game text"{span}')] if first else []
    rung = [(html.escape(_elo(r)), f'class="text"{span}')] if first else []
    tail = [(link, f'class="text"{span}')] if first else []
    return [
        *head,
        (str(r.n_players), ""),
        (f"<b>{html.escape(r.verdict)}</b>", f'class="{r.kind} text"'),
        (html.escape(cell_words(r)), 'class="text"'),
        *rung,
        (f"{r.deals:,}", ""),
        (html.escape(r.trend), 'class="text"'),
        (html.escape(_settle(r)), 'class="text"'),
        *tail,
    ]


HEADER = [
    "game",
    "players",
    "verdict at that rung",
    "2 players: start player's advantage; 3+: each seat's win share (95% anytime-valid interval)",
    "rung read (Elo)",
    "deals",
    "trend with skill",
    "to settle",
    "full report",
]


def _table(doc: Doc, games: list[GameAtlas], out: pathlib.Path) -> None:
    body = []
    md = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for g in games:
        for r in g.rows:
            first = len(g.rows) if r is g.rows[0] else 0
            cells = _row_cells(r, f"{g.game}/index.html", first)
            body.append(
                "<tr>" + "".join(f"<td {a}>{h}</td>" if a else f"<td>{h}</td>" for h, a in cells) + "</tr>"
            )
            md.append(
                f"| {r.game} | {r.n_players} | **{r.verdict}** | {cell_words(r)} | {_elo(r)} | {r.deals:,} | "
                f"{r.trend} | {_settle(r)} | [{r.game} report]({g.game}/index.html) |"
            )
    head = "".join(f'<th class="text">{html.escape(h)}</th>' for h in HEADER)
    doc.html.append(f'<table class="atlas"><tr>{head}</tr>{"".join(body)}</table>')
    doc.md.extend([*md, ""])


def _short_elo(r: AtlasRow) -> str:
    return f"{r.rung} ({signed(r.elo, 0)} Elo)" if math.isfinite(r.elo) else f"{r.rung} (not rated)"


def _rungs_read(games: list[GameAtlas]) -> str:
    """``alhambra mcts:iters=100 (+252 Elo); ...``: the agent each game's rows are read at."""
    said = [f"{g.game} {_short_elo(g.rows[0])}" for g in games if g.rows]
    return "; ".join(said) if said else "none"


def _lead(doc: Doc, games: list[GameAtlas]) -> None:
    t = points_words(games[0].threshold if games else 0.01)
    doc.heading("Balance atlas: does the turn order favour a seat?", 1)
    doc.para(
        f"{len(games)} game{'s' if len(games) != 1 else ''}, every player count. Each row: self-play at the "
        "strongest rung of the skill ladder that is measurably stronger than the one below it. Seat 1 "
        f"starts. Fair: within ±{t} of win rate of the fair share. Agents read (rung, Elo over "
        f"{games[0].rungs[0] if games and games[0].rungs else 'the lowest rung'}): {_rungs_read(games)}.",
        "lead",
    )
    doc.figure(
        verdict_grid(games),
        "atlas_verdicts",
        f"The verdict per game and player count at each game's rung read: green fair within ±{t}, "
        "orange favours a seat, grey not settled",
    )
    sentences = [game_sentence(g) for g in games]
    if sentences:
        items = "".join(f"<li>{html.escape(x)}</li>" for x in sentences)
        doc.html.append(f'<ul class="lead">{items}</ul>')
        doc.md.extend([*(f"- {x}" for x in sentences), ""])


def _how_to_read(doc: Doc, games: list[GameAtlas]) -> None:
    t = points_words(games[0].threshold if games else 0.01)
    doc.para(
        "How to read: the rung read is the strongest whose Elo step over the rung below has a 95% interval "
        "above 0 (Elo from 2-player games between neighbouring rungs, greedy at 0; the same rating serves "
        f"every player count). 'Fair' means every interval lies within ±{t} of the fair share; 'favours "
        "seat k' means seat k's interval lies above its fair share (2 players: the start player's advantage "
        "excludes 0); anything else is 'not settled'. 3+ players: each seat's win share, with intervals "
        "simultaneous over the seats (Bonferroni). Every interval of a row is anytime-valid (a confidence "
        "sequence): the precision rounds looked at the rows after every round and grew the unsettled ones, "
        "and these intervals keep their 95% however often one looks (about 1.5 times as wide as a "
        "fixed-sample interval with many deals, wider with few: about twice at 100 deals, 3 to 5 times on "
        "a handful). Deals: each deal is played once per seat rotation. Trend with skill: whether the "
        "start player's advantage has converged along the ladder, is still moving "
        "(per 100 Elo) or is not settled (the rule is under the figures below). To settle: deals in all at "
        "which the row's one question (is the turn order fair?) would settle if the estimates hold (one "
        "seat's interval excluding its fair share, or every interval inside the band, whichever comes "
        f"first; at least {MIN_VERDICT_DEALS} deals), and the core-hours more at the cell's measured cost."
    )


#: The trend column's rule in words, as :func:`analysis.skill.convergence` decides it.
TREND_RULE = (
    "The trend with skill is judged at the top of the ladder: a straight line against Elo over the "
    "search rungs (every rung but greedy and random; all rungs only when fewer than two search), and "
    "the difference between the top two rungs. Converged: that difference's interval lies within the "
    "threshold, and so does the line's slope times the Elo step between the top two rungs. Otherwise "
    "still moving: the slope's interval excludes 0, or the difference's interval does. Anything else is "
    "not settled, so a line can look sloped and still be not settled. Without Elo ratings the top two "
    "rungs decide alone. These intervals are simultaneous over the ladder's numbers (Bonferroni)."
)


def _figures(doc: Doc, games: list[GameAtlas]) -> None:
    doc.heading("Advantage against strength, per game")
    doc.para(
        "Each line is a player count; each point a rung of the ladder at its Elo (from the 2-player "
        "head-to-head games between neighbouring rungs, greedy at 0), with its 95% interval; the grey "
        f"band is the threshold. {TREND_RULE}"
    )
    for g in games:
        doc.figure(
            atlas_figure(g), f"atlas_{g.game}", f"{g.game}: the start player's advantage against rung Elo"
        )


def _budget_section(doc: Doc, games: list[GameAtlas]) -> None:
    doc.heading("What more budget would settle")
    rows: list[list[object]] = []
    for g in games:
        for r in g.rows:
            if r.kind == "unsettled" or r.trend.startswith("not settled"):
                rung = hours(r.settle_core_hours) if r.kind == "unsettled" else "settled"
                trend = hours(r.trend_core_hours) if r.trend.startswith("not settled") else "settled"
                rows.append([r.game, r.n_players, r.verdict, rung, r.trend, trend])
    if not rows:
        doc.para("Every verdict on this page is settled.")
        return
    doc.para(
        "Core-hours at each cell's measured cost that would settle the verdict at the rung read (its "
        "interval excluding the fair share or fitting the band, if the estimate holds), and the trend "
        "along the ladder (every rung's deals grown until the top two rungs' difference and the slope "
        "settle). 'n/a': no estimate (e.g. unrated rungs). Run them with "
        "balancelab atlas --core-hours H (resumes the same directories), on a cluster with --address."
    )
    doc.table(
        ["game", "players", "verdict", "core-hours to settle it", "trend", "core-hours to settle the trend"],
        rows,
    )


def _limits(doc: Doc, games: list[GameAtlas], out: pathlib.Path) -> None:
    doc.heading("Limits")
    doc.para(
        "Engines, not the printed games: each engine implements its game's rules as documented in its "
        "RULES.md, with the readings chosen where the sources differ; boards and maps that are not public "
        "are the engine's own designs (said per game below). The agents are computer players, not humans: "
        "the verdicts hold for play of their strength, and a trend still moving with skill means stronger "
        "play may change them."
    )
    for g in games:
        doc.heading(g.game, 3)
        rules = ROOT / "rust_core" / "src" / "games" / g.game / "RULES.md"
        inside = ROOT in out.resolve().parents
        where = _rel(rules, out.resolve()) if inside else str(rules.relative_to(ROOT))
        lines = [*g.scope, f"Study: {g.description}.", *(describe(a) for a in g.rungs), *g.notes]
        for line in lines:
            doc.para(line)
        pages = sorted(out.parent.glob(f"{g.game}-*/index.html"))
        related = [_rel(p, out) for p in pages]
        _links(doc, "Rule readings (where the sources differ, the engine's choice): ", [where])
        _links(doc, "Variants and rule-reading switches: this game's other reports, ", related)


def _links(doc: Doc, lead: str, targets: list[str]) -> None:
    """A paragraph of links (HTML) / paths (Markdown)."""
    if not targets:
        doc.para(lead + "none committed.")
        return
    anchors = ", ".join(f'<a href="{html.escape(x)}">{html.escape(x)}</a>' for x in targets)
    doc.html.append(f"<p>{html.escape(lead)}{anchors}.</p>")
    doc.md.append(lead + ", ".join(f"[{x}]({x})" for x in targets) + ".\n")


def _spent(state: Mapping[str, Any]) -> tuple[float, float, float]:
    spent = state.get("spent", [])
    cpu = sum(float(x.get("task_cpu_seconds", 0.0)) for x in spent)
    wall = sum(float(x.get("task_seconds", 0.0)) for x in spent)
    calib = float(state.get("plan", {}).get("calibration_s", 0.0))
    return cpu, wall, calib


def _held(games: list[GameAtlas], cost: Mapping[str, Mapping[str, float]]) -> float:
    """Core-seconds of every game on disk at its cell's measured cost (whatever invocations, even
    interrupted ones, played them)."""
    return sum(n * cost.get(g.game, {}).get(cell, 0.0) for g in games for cell, n in g.cell_games.items())


def _rounds_words(state: Mapping[str, Any]) -> str:
    """What the precision rounds did (``atlas.json``'s ``rounds``)."""
    rounds = [r for r in state.get("rounds", []) if r.get("games")]
    if not rounds:
        return "no precision round was played."
    grown = sorted({f"{g} {cell}" for r in rounds for g, cells in r["games"].items() for cell in cells})
    return (
        f"then {len(rounds)} precision round{'s' if len(rounds) != 1 else ''} grew the unsettled rows "
        f"cheapest to settle first (cells grown: {', '.join(grown)})."
    )


def _budget_hours(plan: Mapping[str, Any]) -> str:
    """The planned budget, with what ``--more-core-hours`` added to the precision rounds."""
    base, more = float(plan.get("budget_s", 0.0)) / 3600, float(plan.get("more_s", 0.0)) / 3600
    return (
        f"{base + more:.2f} ({base:.2f} planned, {more:.2f} more for the precision rounds)"
        if more
        else f"{base:.2f}"
    )


def _provenance(
    doc: Doc, games: list[GameAtlas], state: Mapping[str, Any], cost: Mapping[str, Mapping[str, float]]
) -> None:
    doc.heading("Budget and provenance")
    cpu, wall, calib = _spent(state)
    plan = state.get("plan", {})
    held = _held(games, cost)
    doc.para(
        f"Budget {_budget_hours(plan)} core-hours. The games on disk cost "
        f"{(held + calib) / 3600:.2f} core-hours at their measured cost per game ({calib / 3600:.3f} of them "
        f"calibrating: a short batch per cell, CPU time through the engine); the invocations recorded in "
        f"atlas.json measured {cpu / 3600:.2f} core-hours of CPU and {wall / 3600:.2f} of task time (wall "
        "seconds per task summed: more than the CPU on a loaded machine; an interrupted invocation records "
        "nothing). Every cell was sized from its measured cost by the "
        f"planner (balancelab atlas --plan prints it); {_rounds_words(state)} The data of every number on "
        "this page is in data/ beside it: balancelab atlas --report-only --from data re-renders the page "
        "from it alone, and balancelab atlas --verify N --from data replays N games of every cell and "
        "checks them against the stored rows."
    )
    rows: list[list[object]] = [
        [g.game, g.study, f"{g.games:,}", g.git_commit or "n/a", f"{g.game}/index.html"] for g in games
    ]
    doc.table(["game", "study", "games", "git commit of the run", "full report"], rows)
    doc.para(f"Page written at {written_at()} (the commit of the code that wrote it).")


#: The sentence at the top of every game's full report beside the atlas page (:func:`mark_game_pages`);
#: ``{atlas}``: the link to the atlas page.
GAME_PAGE_NOTE = (
    "This is one game of the balance atlas ({atlas}). This page's intervals are fixed-sample and only "
    "describe: the atlas' precision rounds looked at the rows after every round and grew the unsettled "
    "ones, which a fixed-sample interval does not allow for. The verdicts are the atlas page's, read "
    "from anytime-valid intervals."
)
_NOTE_HTML = '<p class="warning" id="atlas-note">{}</p>'.format(
    html.escape(GAME_PAGE_NOTE).format(atlas='<a href="../index.html">the atlas page</a>')
)
_NOTE_MD = GAME_PAGE_NOTE.format(atlas="[the atlas page](../index.html)")


def _put_note(text: str, old: str, before: str, after: str, note: str, sep: str) -> str:
    """``text`` with its note (the line matching ``old``) replaced, or put before its verdict
    (``before``), else after its title (``after``), with ``sep`` after it."""
    if (hit := re.search(old, text, re.M)) is not None:
        return text[: hit.start()] + note + text[hit.end() :]
    at = text.find(before)
    if at < 0:
        at = text.find(after) + len(after) if after in text else 0
    return text[:at] + note + sep + text[at:]


def mark_game_pages(out: pathlib.Path, games: list[GameAtlas]) -> None:
    """Puts :data:`GAME_PAGE_NOTE` at the top of each game's full report under ``out/<game>/`` (where
    written): those pages read the atlas runs as fixed-sample studies (their intervals ignore the
    precision rounds' looks), and a reader arriving there must know the verdicts are the atlas
    page's. Idempotent: a note already there is replaced."""
    for g in games:
        for name, how in _NOTE_PLACES.items():
            path = out / g.game / name
            if path.exists():
                path.write_text(_put_note(path.read_text(encoding="utf-8"), *how), encoding="utf-8")


#: Where the note goes in each file of a game's report: (the note's own line, the line it goes
#: before, else the line it goes after, the note, what follows it).
_NOTE_PLACES = {
    "index.html": (
        r'^<p class="warning" id="atlas-note">.*$',
        '<section id="verdict"',
        "</h1>\n",
        _NOTE_HTML,
        "\n",
    ),
    "report.md": (r"^This is one game of the balance atlas.*$", "## Verdict", "\n\n", _NOTE_MD, "\n\n"),
}


def write_atlas(
    run_dirs: Mapping[str, pathlib.Path],
    out: pathlib.Path,
    state: Mapping[str, Any] | None = None,
    cost: Mapping[str, Mapping[str, float]] | None = None,
) -> pathlib.Path:
    """Writes ``out/index.html``, ``out/report.md`` and ``out/figures/`` over the runs
    (game → run directory; each game's full report is expected at ``out/<game>/index.html``);
    ``cost``: CPU seconds per game by game and cell id. Returns the ``index.html`` path."""
    out.mkdir(parents=True, exist_ok=True)
    games = [game_atlas(d, (cost or {}).get(game)) for game, d in run_dirs.items()]
    mark_game_pages(out, games)
    doc = Doc(out, {}, {})
    _lead(doc, games)
    _table(doc, games, out)
    _how_to_read(doc, games)
    _figures(doc, games)
    _budget_section(doc, games)
    _limits(doc, games, out)
    tail = Doc(out, {}, {})  # the provenance, after the glossary of every term the page uses
    _provenance(tail, games, state or {}, cost or {})
    glossary_table(doc, terms_used("\n".join([*doc.md, *tail.md])))
    doc.html.extend(tail.html)
    doc.md.extend(tail.md)
    page = Template(TEMPLATE.read_text()).substitute(title="balance atlas", body=STYLE + "\n".join(doc.html))
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    (out / "report.md").write_text("\n".join(doc.md).lstrip() + "\n", encoding="utf-8")
    return index
