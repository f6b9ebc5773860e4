"""Agent strength on the page: the Elo figure, ``balancelab strength``'s files, the report section."""

from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..content import Interval  # noqa: E402
from ..model import StudyAnalysis  # noqa: E402
from ..strength import StrengthAnalysis, format_strength, strength_from_rows  # noqa: E402
from ..words import signed  # noqa: E402
from .doc import Doc  # noqa: E402
from .plots import save_figure  # noqa: E402

__all__ = ["elo_figure", "strength_section", "write_strength"]

#: Agents further than this below the top of the ladder are left out of the zoomed panel.
ZOOM_ELO = 600.0


def _short(spec: str) -> str:
    return spec.replace("mcts:iters=", "mcts ")


def _ladder(ax: Axes, r: pl.DataFrame, anchor: str, title: str) -> None:
    x = np.arange(r.height)
    elo = r["elo"].to_numpy()
    err = np.clip(np.vstack([elo - r["elo_lo"].to_numpy(), r["elo_hi"].to_numpy() - elo]), 0, None)
    ax.errorbar(x, elo, yerr=err, fmt="o-", capsize=5, color="#0072B2")
    for xi, e in zip(x, elo, strict=True):
        ax.annotate(f"{e:+.0f}", (xi, e), textcoords="offset points", xytext=(8, -4), fontsize=8)
    ax.axhline(0, color="k", lw=0.8, ls=":")
    ax.set_xticks(x)
    ax.set_xticklabels([_short(a) for a in r["agent"].to_list()], rotation=30, ha="right")
    ax.set_ylabel(f"Elo (Bradley–Terry; {anchor} = 0)")
    ax.set_title(title, fontsize=10)


def elo_figure(st: StrengthAnalysis) -> Figure:
    """Left: Bradley–Terry Elo per agent (ladder order, anchor = 0) with 95% intervals, plus a
    zoomed panel without agents far below the top when the ladder spans more than ``ZOOM_ELO``.
    Right: win share of the higher-ladder agent per pairing with 95% intervals (dashed: 1/2)."""
    r = st.ratings
    zoom = r.filter(pl.col("elo_hi") >= float(r["elo"].max()) - ZOOM_ELO)  # type: ignore[arg-type]
    panels = 3 if 2 <= zoom.height < r.height else 2
    fig, axes = plt.subplots(
        1,
        panels,
        figsize=(5.5 * panels, max(3.5, 0.45 * max(r.height, st.pairs.height) + 1.5)),
        width_ratios=[1.0] * (panels - 1) + [1.1],
    )
    _ladder(axes[0], r, st.anchor, "Elo ladder (95% CI)")
    if panels == 3:
        _ladder(axes[1], zoom, st.anchor, f"zoom: within {ZOOM_ELO:.0f} Elo of the top")
    bx = axes[-1]
    p = st.pairs
    y = np.arange(p.height)[::-1]
    share = p["share_a"].to_numpy()
    perr = np.clip(np.vstack([share - p["lo"].to_numpy(), p["hi"].to_numpy() - share]), 0, None)
    bx.errorbar(share, y, xerr=perr, fmt="s", capsize=4, color="#009E73")
    bx.axvline(0.5, color="k", lw=0.8, ls="--")
    bx.set_yticks(y)
    bx.set_yticklabels(
        [
            f"{_short(a)} vs {_short(b)} (n={n})"
            for a, b, n in p.select("agent_a", "agent_b", "games").iter_rows()
        ],
        fontsize=8,
    )
    bx.set_xlim(0, 1.02)
    bx.set_xlabel("win share of the first agent (ties = ½)")
    bx.set_title("Head-to-head (paired deals, 95% CI)", fontsize=10)
    fig.tight_layout()
    return fig


def write_strength(st: StrengthAnalysis, out_dir: pathlib.Path | str) -> dict[str, pathlib.Path]:
    """Writes ``out_dir/strength.md``, ``strength_ratings.csv``, ``strength_pairs.csv`` and
    ``figures/strength_elo_ladder.png`` (the report's own section, one run only, uses
    ``elo_ladder``); returns their paths."""
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "markdown": out / "strength.md",
        "ratings": out / "strength_ratings.csv",
        "pairs": out / "strength_pairs.csv",
    }
    paths["markdown"].write_text(format_strength(st), encoding="utf-8")
    st.ratings.write_csv(paths["ratings"])
    st.pairs.write_csv(paths["pairs"])
    paths["figure"] = save_figure(elo_figure(st), out / "figures", "strength_elo_ladder")
    return paths


def rates_strength(s: StudyAnalysis) -> bool:
    """Whether the report rates the agents (Elo): the study played several head-to-head line-ups."""
    return len({tuple(c.agents) for c in s.played if len(c.agents) == 2 and c.agents[0] != c.agents[1]}) >= 2


def strength_section(doc: Doc, s: StudyAnalysis) -> None:
    """Agent strength (win shares, Elo ladder) when the study has several head-to-head line-ups."""
    if not rates_strength(s):
        return
    doc.heading("Agent strength")
    try:
        st = strength_from_rows(s.name, [(s.name, s.cells, s.rows, s.paired)])
    except ValueError as exc:
        doc.para(f"No Elo ladder: {exc}.")
        return
    if s.rungs:
        doc.para(
            "The Elo here is fitted to every head-to-head game of the study, the checks between rungs "
            "that are not neighbours included; the skill ladder's Elo fits the games between "
            "neighbouring rungs only, so the two differ by a few Elo."
        )
    doc.table(
        ["agent a", "agent b", "games", "win share of a, % [95% CI]"],
        [
            [
                r["agent_a"],
                r["agent_b"],
                f"{r['games']:,}",
                Interval(r["share_a"], r["lo"], r["hi"], 1, "percent"),
            ]
            for r in st.pairs.iter_rows(named=True)
        ],
    )
    doc.table(
        [f"agent (Bradley–Terry, {st.anchor} at 0)", "games", "Elo [95% CI]"],
        [
            [r["agent"], f"{r['games']:,}", Interval(r["elo"], r["elo_lo"], r["elo_hi"], 0)]
            for r in st.ratings.iter_rows(named=True)
        ],
    )
    doc.para(st.saturation)
    for note in st.notes:
        doc.para(note, "warning")
    top = st.ratings.sort("elo", descending=True).row(0, named=True)
    doc.figure(
        elo_figure(st),
        "elo_ladder",
        f"{top['agent']} is the strongest agent here ({signed(top['elo'], 0)} Elo against {st.anchor}).",
    )
