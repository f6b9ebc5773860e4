"""The study's figures: dot-and-whisker specs built from the analysis, and the length histogram.

Every figure orders cells as the study does, colours them as :mod:`.style` does, names them by
their short names, and carries a one-line takeaway computed from the numbers it shows.
"""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..content import Dot, DotPlot  # noqa: E402
from ..findings import threshold_words  # noqa: E402
from ..games import section  # noqa: E402
from ..model import StudyAnalysis, unhandicapped  # noqa: E402
from ..stats.outcomes import game_table  # noqa: E402
from ..words import pct, pts  # noqa: E402

__all__ = ["advantage_plot", "differences_plot", "length_figure", "parts_plot", "scores_plot", "seat_plots"]


def _band(s: StudyAnalysis, centre: float = 0.0) -> tuple[float, float]:
    return (centre - s.threshold, centre + s.threshold)


def _count(k: int, n: int) -> str:
    if k == n and n > 1:
        return f"all {n} cells"
    if k == n == 1:
        return "the one cell"
    return "no cell" if k == 0 else f"{k} of {n} cells"


def _advantage_takeaway(rows: list[dict[str, object]], threshold: float) -> str:
    n = len(rows)
    ahead = sum(float(r["lo"]) > 0 for r in rows)  # type: ignore[arg-type]
    behind = sum(float(r["hi"]) < 0 for r in rows)  # type: ignore[arg-type]
    beyond = sum(r["finding"] == "matters" for r in rows)
    sides = []
    if ahead:
        sides.append(f"ahead in {_count(ahead, n)}")
    if behind:
        sides.append(f"behind in {_count(behind, n)}")
    if n - ahead - behind:
        sides.append(f"not measurably off fair in {_count(n - ahead - behind, n)}")
    return (
        f"The start player is {', '.join(sides)}; in {_count(beyond, n)} the whole interval lies outside "
        f"the {threshold_words(threshold)} band (a difference that matters)."
    )


def _ci(s: StudyAnalysis) -> str:
    """What the advantage rows' intervals are: a confidence sequence in a raced (``fairest``) run."""
    return "95% confidence sequence" if s.anytime_valid else "95% CI"


def advantage_plot(s: StudyAnalysis) -> DotPlot:
    """Start-player advantage per cell against the threshold band."""
    rows = [s.advantage_row(c.id) for c in s.balance]
    dots = tuple(
        Dot(c.name, c.id, r["advantage"], r["lo"], r["hi"]) for c, r in zip(s.balance, rows, strict=True)
    )
    takeaway = _advantage_takeaway(rows, s.threshold)
    return DotPlot(
        "start_advantage",
        "Start-player advantage: start player's win rate minus the fair share",
        takeaway,
        f"points of win rate ({_ci(s)}); grey band: differences too small to matter",
        dots,
        reference=0.0,
        reference_label="fair",
        band=_band(s),
        percent=True,
    )


def parts_plot(s: StudyAnalysis) -> DotPlot | None:
    """The raw advantage and the parts a game splits it into, per cell."""
    parts = [p for p in section(s.game).advantage_parts if p.estimate in s.advantage.columns]
    if not parts:
        return None
    dots = []
    for label, fields in [("raw: what players experience", ("advantage", "lo", "hi"))] + [
        (p.label, (p.estimate, p.lo, p.hi)) for p in parts
    ]:
        for c in s.balance:
            r = s.advantage_row(c.id)
            dots.append(Dot(label, c.id, r[fields[0]], r[fields[1]], r[fields[2]]))
    cells, over = _averaged(s.balance, "self-play cells shown")
    balance = s.advantage.filter(pl.col("cell").is_in([c.id for c in cells]))
    means = [float(balance[p.estimate].mean()) for p in parts]  # type: ignore[arg-type]
    takeaway = (
        "The parts add up to the raw advantage: "
        + " and ".join(f"{p.label.split(' (')[0]} {pts(m)}" for p, m in zip(parts, means, strict=True))
        + f" points, {over}."
    )
    return DotPlot(
        "advantage_parts",
        "Where the start-player advantage comes from",
        takeaway,
        "points of win rate (95% CI)",
        tuple(dots),
        reference=0.0,
        reference_label="no effect",
        band=_band(s),
        percent=True,
    )


def _averaged(cells: list[Any], noun: str) -> tuple[list[Any], str]:
    """The cells a takeaway averages (:func:`analysis.model.unhandicapped`; of several line-ups, the
    strongest one's, since line-ups may disagree), and its words."""
    used, some = unhandicapped(cells)
    but = " without a handicap" if some else ""
    if len({c.lineup for c in used}) > 1:  # line-ups may disagree: the strongest one speaks
        top = max(used, key=lambda c: c.strength).lineup
        used, but = [c for c in used if c.lineup == top], f"{but} of the strongest line-up ({top})"
    if len(used) == 1:
        return used, f"the one {noun.replace('cells', 'cell', 1)}{but}"
    return used, f"the plain mean over the {len(used)} {noun}{but}" + _over(used)


def _over(cells: list[Any]) -> str:
    """``(each cell counts once, across 2 line-ups and 3 player counts)`` when the cells mix them."""
    lineups, counts = len({c.lineup for c in cells}), len({c.n_players for c in cells})
    mixed = [f"{lineups} line-ups"] * (lineups > 1) + [f"{counts} player counts"] * (counts > 1)
    return f" (each cell counts once, across {' and '.join(mixed)})" if mixed else ""


def _most_often(seats: list[int], rates: list[float]) -> list[tuple[int, float]]:
    """The seats with the highest mean win rate as printed (to 0.1%): ties are named together,
    never broken by the order of a floating-point sum."""
    best = max(round(r, 3) for r in rates)
    return [(k, r) for k, r in zip(seats, rates, strict=True) if round(r, 3) == best]


def _and(items: list[int]) -> str:
    return ", ".join(map(str, items[:-1])) + " and " + str(items[-1])


def seat_plots(s: StudyAnalysis) -> list[DotPlot]:
    """Win rate by seat, one plot per player count, around the fair share."""
    out = []
    counts = sorted({c.n_players for c in s.balance})
    for n in counts:
        cells = [c for c in s.balance if c.n_players == n]
        t = s.seats.filter(pl.col("cell").is_in([c.id for c in cells]))
        averaged, over = _averaged(cells, "cells")
        dots = tuple(
            Dot(f"seat {k + 1}" + (" (start)" if k == 0 else ""), c.id, r["win_rate"], r["lo"], r["hi"])
            for k in range(n)
            for c in cells
            for r in t.filter((pl.col("cell") == c.id) & (pl.col("seat") == k)).iter_rows(named=True)
        )
        means = (
            t.filter(pl.col("cell").is_in([c.id for c in averaged]))
            .group_by("seat")
            .agg(pl.col("win_rate").mean())
            .sort("seat")
        )
        top = _most_often(means["seat"].to_list(), means["win_rate"].to_list())
        who = f"seat {top[0][0] + 1} wins" if len(top) == 1 else f"seats {_and([k + 1 for k, _ in top])} win"
        each = "" if len(top) == 1 else " each"
        takeaway = (
            f"With {n} players {who} most often ({pct(top[0][1])}{each}, {over}); fair is {pct(1 / n)}."
        )
        name = "seat_win_rates" if len(counts) == 1 else f"seat_win_rates_p{n}"
        out.append(
            DotPlot(
                name,
                f"Win rate by seat, {n} players (ties counted as shares)",
                takeaway,
                "win rate, % (95% CI); grey band: within the practical threshold of fair",
                dots,
                reference=1 / n,
                reference_label=f"fair share {pct(1 / n)}",
                band=_band(s, 1 / n),
                percent=True,
            )
        )
    return out


def scores_plot(s: StudyAnalysis) -> DotPlot:
    """Mean final score by seat and cell."""
    seats = sorted(s.scores["seat"].unique().to_list())
    dots = tuple(
        Dot(f"seat {k + 1}" + (" (start)" if k == 0 else ""), c.id, r["mean_score"], r["lo"], r["hi"])
        for k in seats
        for c in s.balance
        for r in s.scores.filter((pl.col("cell") == c.id) & (pl.col("seat") == k)).iter_rows(named=True)
    )
    averaged, over = _averaged(s.balance, "cells shown")
    shown = s.scores.filter(pl.col("cell").is_in([c.id for c in averaged]))
    means = shown.group_by("seat").agg(pl.col("mean_score").mean()).sort("seat")
    top = means.sort("mean_score", descending=True).row(0)
    takeaway = f"Seat {top[0] + 1} has the highest mean score ({top[1]:.1f} points, {over})."
    if len({c.n_players for c in averaged}) > 1:  # a seat that only larger games have is not comparable
        takeaway = (
            "Mean final score by seat in each cell; seats are compared within a cell (the player counts "
            "differ)."
        )
    return DotPlot(
        "scores_by_seat",
        "Mean final score by seat",
        takeaway,
        "final score, game points (95% CI)",
        dots,
    )


def differences_plot(s: StudyAnalysis) -> DotPlot | None:
    """Differences of the start player's win rate between cells (b − a), Bonferroni-confirmed filled."""
    c = s.comparisons.filter(pl.col("metric") == "start_advantage") if s.comparisons.height else s.comparisons
    if not c.height:
        return None
    dots = tuple(
        Dot(f"{r['label_b']} − {r['label_a']}", "", r["diff"], r["lo"], r["hi"], hollow=not r["reject"])
        for r in c.iter_rows(named=True)
    )
    confirmed = int(c["reject"].sum())
    matters = int((c["finding"] == "matters").sum())
    return DotPlot(
        "differences",
        "Differences in the start player's win rate between cells",
        f"{confirmed} of {c.height} differences are shown (their interval excludes 0) after Bonferroni "
        f"correction; {matters} of them "
        "lie "
        f"wholly outside the {threshold_words(s.threshold)} band.",
        "difference b − a, points of win rate (simultaneous 95% CI)",
        dots,
        reference=0.0,
        reference_label="no difference",
        band=_band(s),
        percent=True,
        hollow_label="not shown after Bonferroni correction (the interval holds 0)",
    )


def length_figure(s: StudyAnalysis, colours: dict[str, str]) -> tuple[Figure, str]:
    """Histogram of turns per game, one outline per cell; and its takeaway."""
    fig, ax = plt.subplots(figsize=(7.0, 3.2))
    medians = []
    for c in s.balance:
        turns = game_table(s.rows[c.id])["turns"].to_numpy()
        medians.append(float(game_table(s.rows[c.id])["turns"].median()))  # type: ignore[arg-type]
        ax.hist(turns, bins=30, histtype="step", lw=1.5, color=colours[c.id], label=c.name)
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    ax.set_title("Game length", fontsize=10, loc="left")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    fig.tight_layout()
    lo, hi = min(medians), max(medians)
    span = f"{lo:g} turns" if lo == hi else f"{lo:g} to {hi:g} turns across cells"
    return fig, f"A game lasts a median of {span}."
