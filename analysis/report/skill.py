"""The skill ladder on the page: every balance number against the rungs' Elo, and the verdicts."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ..content import Interval  # noqa: E402
from ..ladder_findings import ci_label, convergence_sentence, per_100_elo, status_words, takeaway  # noqa: E402
from ..model import StudyAnalysis  # noqa: E402
from ..skill import LadderMetric, fitted  # noqa: E402
from .doc import Doc  # noqa: E402
from .style import OKABE_ITO  # noqa: E402

__all__ = ["ladder_figure", "ladder_section"]

_STATUS_COLOUR = {"converged": OKABE_ITO[2], "moving": OKABE_ITO[5], "unsettled": OKABE_ITO[1]}


def _interval(m: LadderMetric, est: float, lo: float, hi: float) -> Interval:
    if not m.percent:
        return Interval(est, lo, hi, 2)
    return Interval(est, lo, hi, 1, "points" if m.reference is not None else "percent")


def ladder_figure(m: LadderMetric, anchor: str) -> Figure | None:
    """x: each rung's Elo with its 95% interval; y: the metric with its 95% interval; grey band:
    the practical threshold around the fair value (advantages); hatched band: within the threshold
    of the top rung (where the rung below must lie for the ladder to have converged); dotted: the
    fitted trend."""
    pts = [p for p in m.points if math.isfinite(p.elo)]
    if len(pts) < 2:
        return None
    scale = 100.0 if m.percent else 1.0
    fig, ax = plt.subplots(figsize=(7.8, 3.6))
    handles: list[Patch | Line2D] = []
    if m.reference is not None:
        ref = m.reference * scale
        ax.axhspan(ref - m.threshold * scale, ref + m.threshold * scale, color="#d9d9d9", alpha=0.7, lw=0)
        ax.axhline(ref, color="black", lw=1, ls="--")
        handles.append(Patch(color="#d9d9d9", label=f"fair within ±{m.threshold * scale:g}"))
    top = m.points[-1].estimate * scale
    ax.axhspan(
        top - m.threshold * scale, top + m.threshold * scale, fill=False, hatch="///", ec="#999999", lw=0
    )
    handles.append(Patch(fill=False, hatch="///", ec="#999999", label="within the threshold of the top rung"))
    colour = _STATUS_COLOUR[m.verdict.status] if m.verdict else OKABE_ITO[0]
    xs = [p.elo for p in pts]
    ys = [p.estimate * scale for p in pts]
    ax.plot(xs, ys, color=colour, lw=0.8, alpha=0.6)
    for p, x, y in zip(pts, xs, ys, strict=True):
        ax.errorbar(
            x,
            y,
            xerr=[[max(x - p.elo_lo, 0)], [max(p.elo_hi - x, 0)]],
            yerr=[[max(y - p.lo * scale, 0)], [max(p.hi * scale - y, 0)]],
            fmt="o",
            color=colour,
            ms=5,
            capsize=3,
        )
    c = m.verdict
    if c is not None and c.slope is not None and math.isfinite(c.slope.intercept):
        fit = [m.points[i].elo for i in fitted(m.points)]
        line = [(c.slope.intercept + c.slope.slope * x) * scale for x in (min(fit), max(fit))]
        ax.plot([min(fit), max(fit)], line, color="black", lw=1, ls=":")
        handles.append(Line2D([], [], color="black", lw=1, ls=":", label="trend over the fitted rungs"))
    # Each rung's name on a top axis above its point, slanted so that close rungs never overlap.
    names = ax.secondary_xaxis("top")
    names.set_xticks(xs, [p.agent for p in pts], fontsize=7)
    plt.setp(names.get_xticklabels(), rotation=60, ha="left", rotation_mode="anchor")
    ax.margins(x=0.08)
    unit = "points of win rate" if m.percent and m.reference is not None else ("%" if m.percent else "")
    ax.set_ylabel(f"{m.label}" + (f", {unit}" if unit else ""), fontsize=8)
    ax.set_xlabel(f"rung strength: Elo against {anchor} (95% CI)", fontsize=9)
    ax.set_title(
        f"{m.label[0].upper()}{m.label[1:]} by skill ({m.question}): {status_words(m.verdict)}",
        fontsize=10,
        loc="left",
    )
    ax.grid(color="#eeeeee")
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    fig.tight_layout()
    return fig


def _rung_table(doc: Doc, s: StudyAnalysis, metrics: list[LadderMetric]) -> None:
    first = metrics[0]
    header = ["rung", "Elo [95% CI]", "games", *[f"{m.label} [95% CI]" for m in metrics]]
    rows: list[list[object]] = []
    for i, p in enumerate(first.points):
        games = int(s.advantage_row(p.cell)["games"])
        vals = [
            _interval(m, m.points[i].estimate, m.points[i].lo, m.points[i].hi) if i < len(m.points) else ""
            for m in metrics
        ]
        elo = "0 (anchor)" if p.agent == s.rungs[0] else Interval(p.elo, p.elo_lo, p.elo_hi, 0)
        rows.append([p.agent, elo, f"{games:,}", *vals])
    doc.table(header, rows)


def _limit(m: LadderMetric) -> str:
    c = m.verdict
    if c is None or c.limit is None or not c.limit.supported:
        return "none (no extrapolation)"
    k = 100 if m.percent else 1
    lim = c.limit
    return f"{lim.estimate * k:+.1f} [{lim.lo * k:+.1f}, {lim.hi * k:+.1f}]".replace("-", "−")


def _verdict_table(doc: Doc, metrics: list[LadderMetric]) -> None:
    rows = []
    for m in metrics:
        c = m.verdict
        if c is None:
            continue
        rows.append(
            [
                m.question,
                m.label,
                f"{m.points[-1].agent} − {m.points[-2].agent}",
                Interval(c.diff, c.lo, c.hi, 1, "points") if m.percent else Interval(c.diff, c.lo, c.hi, 2),
                per_100_elo(m, c) if c.slope is not None else "not rated",
                f"±{m.threshold * (100 if m.percent else 1):g}",
                status_words(c),
                _limit(m),
            ]
        )
    label = ci_label(metrics[0].verdict) if metrics and metrics[0].verdict else "95% CI"
    doc.table(
        [
            "question",
            "number",
            "top two rungs",
            f"difference [{label}]",
            "trend",
            "threshold",
            "verdict",
            "expert limit",
        ],
        rows,
    )


def ladder_section(doc: Doc, s: StudyAnalysis) -> None:
    """Per question: the rungs' table, one figure per number against Elo, the verdicts."""
    ladder = s.ladder
    if ladder is None or not ladder.metrics:
        return
    doc.heading("Skill ladder: does the answer hold for stronger players?")
    doc.para(
        f"Rungs, weakest first: {', '.join(ladder.rungs)}. Each rung plays the balance question in "
        "self-play; neighbouring rungs play each other (2 players, paired seats) to rate them in Elo "
        "(Bradley–Terry, "
        f"{ladder.rungs[0]} at 0); matches between rungs that are not neighbours, where played, check that "
        "chained Elo. Each number gets a trend: a straight line against Elo over the search rungs (every "
        "rung only when fewer than two rungs search, so greedy enters the trend only where it is part of "
        "the only step), its slope with an interval clustered by deal (the rungs play the same deals). A "
        "number has converged when the top two rungs agree within its threshold and the slope times the "
        "top Elo step stays within it too; it is still moving when the slope's interval excludes 0 or the "
        "top two rungs measurably differ; otherwise it is not settled. All intervals of the ladder are "
        "simultaneous over its numbers (Bonferroni). An expert limit is given only where a saturating "
        "curve (exponential approach in Elo) fits the rungs, and better than the line. Until a number "
        "converges, no rung's value is the game's property."
    )
    for note in ladder.notes:
        doc.para(note, "warning")
    questions = list(dict.fromkeys((m.n_players, m.variant) for m in ladder.metrics))
    for q in questions:
        metrics = [m for m in ladder.metrics if (m.n_players, m.variant) == q]
        doc.heading(metrics[0].question, 3)
        _rung_table(doc, s, metrics)
        for m in metrics:
            name = f"ladder_{m.key}_p{m.n_players}" + (f"_{m.variant}" if m.variant else "")
            safe = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in name)
            doc.figure(ladder_figure(m, ladder.rungs[0]), safe, takeaway(m))
        _verdict_table(doc, metrics)
        for m in metrics:
            doc.para(f"{m.label[0].upper()}{m.label[1:]}: {convergence_sentence(m, s.paired)}")
