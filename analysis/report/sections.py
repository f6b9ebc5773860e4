"""The generic sections of the report, in page order after the verdict block."""

from __future__ import annotations

import polars as pl

from ..content import Interval
from ..findings import verdict
from ..games import section
from ..model import StudyAnalysis
from ..stats.practical import SHORT
from ..words import around, p_value
from . import figures
from .doc import Doc

__all__ = ["advantage", "comparisons", "outcomes", "seats", "skill"]


def _pct(r: dict[str, object], est: str, lo: str, hi: str, shift: float = 0.0, t: float = 0.0) -> Interval:
    """A share with its interval; with a threshold ``t``, its ends on their side of the fair share
    ``shift`` and of that ± t."""
    marks = (shift, shift + t, shift - t) if t else (0.0,)
    return Interval(float(r[est]) + shift, float(r[lo]) + shift, float(r[hi]) + shift, 1, "percent", marks)  # type: ignore[arg-type]


def _pts(r: dict[str, object], est: str, lo: str, hi: str, t: float = 0.0) -> Interval:
    """Points with their interval, its ends on their side of 0 and of ±``t``."""
    return Interval(float(r[est]), float(r[lo]), float(r[hi]), 1, "points", around(t))  # type: ignore[arg-type]


def advantage(doc: Doc, s: StudyAnalysis) -> None:
    """Start-player advantage: the figure against the band, the table, and a game's parts."""
    doc.heading("Start-player advantage")
    doc.dotplot(figures.advantage_plot(s))
    unit = "deals" if s.paired else "games"
    rows = []
    for c in s.balance:
        r = s.advantage_row(c.id)
        rows.append(
            [
                c.name,
                f"{r['games']:,}",
                f"{r['units']:,}",
                _pct(r, "advantage", "lo", "hi", r["fair"], s.threshold),
                f"{100 * r['fair']:.1f}",
                _pts(r, "advantage", "lo", "hi", s.threshold),
                p_value(r["equal_seats_p"]),
                SHORT[r["finding"]],
            ]
        )
    ci = "95% confidence sequence" if s.anytime_valid else "95% CI"
    doc.table(
        [
            "cell",
            "games",
            unit,
            f"start player wins, % [{ci}]",
            "fair, %",
            f"advantage, points [{ci}]",
            "all seats equal: p",
            "reading",
        ],
        rows,
    )
    game = section(s.game)
    parts = [p for p in game.advantage_parts if p.estimate in s.advantage.columns]
    if not parts:
        return
    doc.para(game.advantage_note)
    doc.table(
        [
            "cell",
            "raw advantage: what players experience",
            *[f"= {p.label}" if i == 0 else f"+ {p.label}" for i, p in enumerate(parts)],
        ],
        [
            [
                c.name,
                _pts(s.advantage_row(c.id), "advantage", "lo", "hi", s.threshold),
                *[_pts(s.advantage_row(c.id), p.estimate, p.lo, p.hi, s.threshold) for p in parts],
            ]
            for c in s.balance
        ],
    )
    doc.dotplot(figures.parts_plot(s))


def skill(doc: Doc, s: StudyAnalysis) -> None:
    """The start-player question per line-up, side by side, when a study has several (a skill
    ladder's rungs have their own section)."""
    rungs = {p.cell for m in s.ladder.metrics for p in m.points} if s.ladder is not None else set()
    cells = [c for c in s.balance if c.id not in rungs]
    lineups = sorted(
        {c.lineup for c in cells}, key=lambda x: next(c.strength for c in cells if c.lineup == x)
    )
    if len(lineups) < 2:
        return
    doc.heading("Skill dependence")
    doc.para(
        "The same question answered by line-ups of different strength (weakest first). Self-play by an agent "
        "measures the game as that agent plays it; where the answer changes with skill, trust the stronger "
        "line-ups more as a model of skilled human play."
    )
    questions = list(dict.fromkeys(c.question for c in cells))
    rows = []
    for q in questions:
        row: list[object] = [f"{q[0]} players" + (f", {q[1]}" if q[1] else "")]
        for lineup in lineups:
            c = next((c for c in cells if c.question == q and c.lineup == lineup), None)
            row.append(_pts(s.advantage_row(c.id), "advantage", "lo", "hi") if c else "")
        rows.append(row)
    doc.table(["question", *[f"{x}: advantage, points [95% CI]" for x in lineups]], rows)
    for f in verdict(s):
        if f.title.startswith("Skill"):
            doc.para(f"{f.title}: {f.sentence}")


def comparisons(doc: Doc, s: StudyAnalysis) -> None:
    """Differences between cells of equal player count, Bonferroni-corrected, simultaneous intervals."""
    doc.heading("Comparisons between cells")
    c = s.comparisons
    family = int(c["in_family"].sum()) if c.height else 0
    if not c.height:
        doc.para(
            "The rungs of the skill ladder are compared by their trend against Elo (Skill ladder), not "
            "pairwise; no other two cells share a player count."
            if s.rungs
            else "No two cells with the same player count: nothing to compare."
        )
        return
    doc.para(
        f"Differences are b − a, with simultaneous 95% intervals over the {family} comparisons of the "
        f"study (Bonferroni: each at {100 * (1 - 0.05 / max(family, 1)):.2f}%), read with "
        "Bonferroni-adjusted p-values, so a difference is shown exactly when its interval excludes 0"
        + (
            f"; {c.height - family} comparisons with no variation in either cell (e.g. every game the "
            "same length) are exact and left out of the family"
            if family < c.height
            else ""
        )
        + ". Win rates and tie shares in points, "
        + ("margins in game points, " if section(s.game).score_in_points else "")
        + "length in turns. 'Reading' compares the interval with the metric's threshold (see Methods)."
    )
    doc.dotplot(figures.differences_plot(s))
    rows = []
    for r in c.iter_rows(named=True):
        share = r["metric"] in ("start_advantage", "tie_share")
        diff = _pts(r, "diff", "lo", "hi") if share else Interval(r["diff"], r["lo"], r["hi"], 2)
        rows.append(
            [
                r["label"],
                r["label_a"],
                r["label_b"],
                diff,
                p_value(r["p_adj"]) if r["in_family"] else "exact",
                SHORT[r["finding"]],
            ]
        )
    doc.table(
        ["metric", "a", "b", "difference b − a [simultaneous 95% CI]", "p (Bonferroni)", "reading"], rows
    )


def seats(doc: Doc, s: StudyAnalysis) -> None:
    """Win rate by seat: figures around the fair share and one table."""
    doc.heading("Win rate by seat")
    for plot in figures.seat_plots(s):
        doc.dotplot(plot)
    n_max = max(c.n_players for c in s.balance)
    rows = []
    for c in s.balance:
        t = s.seats.filter(pl.col("cell") == c.id).sort("seat")
        cells: list[object] = [_pct(r, "win_rate", "lo", "hi") for r in t.iter_rows(named=True)]
        rows.append([c.name, f"{100 / c.n_players:.1f}", *cells, *[""] * (n_max - len(cells))])
    header = [
        "cell",
        "fair, %",
        *[f"seat {k + 1}{' (start)' if k == 0 else ''}, % [95% CI]" for k in range(n_max)],
    ]
    doc.table(header, rows)


def outcomes(doc: Doc, s: StudyAnalysis) -> None:
    """Margins, length, ties and scores by seat; a game whose score is not in points (a ranking key)
    shows no margin and no mean score, and says why instead."""
    game = section(s.game)
    points = game.score_in_points
    doc.heading("Scores, margins, length and ties" if points else "Length and ties")
    if not points:
        doc.para(
            f"No winning margin or mean score is shown: {game.score_note or 'the score is not in points'}, "
            "so its differences and means are not amounts a designer could read or hand out."
        )
    margin = ["winning margin, points [95% CI]"] if points else []
    doc.table(
        [
            "cell",
            *margin,
            "turns [95% CI]",
            "median turns",
            "tied games, % [95% CI]",
            "ended by the safety net",
        ],
        [
            [
                s.short(r["cell"]),
                *([Interval(r["margin"], r["margin_lo"], r["margin_hi"], 2)] if points else []),
                Interval(r["turns"], r["turns_lo"], r["turns_hi"], 1),
                f"{r['turns_median']:g}",
                _pct(r, "tie_share", "tie_lo", "tie_hi"),
                "not recorded" if r.get("capped") is None else f"{r['capped']:,} of {r['games']:,}",
            ]
            for r in s.outcomes.iter_rows(named=True)
        ],
    )
    if points:
        doc.dotplot(figures.scores_plot(s))
    fig, takeaway = figures.length_figure(s, doc.colours)
    doc.figure(fig, "game_length", takeaway)
