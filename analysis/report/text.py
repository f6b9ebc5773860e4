"""Plain-words text of the report: the summary paragraph and the tables' cell formatting."""

from __future__ import annotations

import math

import polars as pl

from ..study import StudyAnalysis

__all__ = ["ci", "summary_paragraph"]


def ci(est: float, lo: float, hi: float, digits: int = 3) -> str:
    """``est [lo, hi]`` with ``digits`` decimals (``n/a`` for missing values)."""
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in (est, lo, hi)):
        return "n/a"
    return f"{est:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def summary_paragraph(s: StudyAnalysis) -> str:
    """One paragraph of findings in plain words."""
    parts: list[str] = []
    unit = "deals (paired seats)" if s.paired else "games"
    total = int(s.advantage["games"].sum()) if s.advantage.height else 0
    parts.append(f"This study played {total} games in {len(s.rows)} cells; the unit of analysis is {unit}.")
    for r in s.advantage.iter_rows(named=True):
        txt = f"In {r['label']} ({r['n_players']} players), {r['verdict']}"
        txt += f": seat-0 win rate minus 1/n = {ci(r['advantage'], r['lo'], r['hi'])}"
        if r.get("adjusted") is not None and not math.isnan(r["adjusted"]):
            txt += f", or {ci(r['adjusted'], r['adj_lo'], r['adj_hi'])} after adjusting for the starting hand"
        parts.append(txt + ".")
    if s.dirk.height:
        for cid in s.dirk["cell"].unique(maintain_order=True):
            t = s.dirk.filter((pl.col("cell") == cid) & pl.col("stat").str.starts_with("Dirk outscored"))
            parts.append(
                f"With Dirk ({s.label(cid)}), Dirk would have outscored the winner in "
                f"{t['estimate'][0]:.1%} of games (95% CI {t['lo'][0]:.1%} to {t['hi'][0]:.1%})."
            )
    if s.comparisons.height:
        sig = s.comparisons.filter(pl.col("reject"))
        n = s.comparisons.height
        if sig.height:
            parts.append(
                f"Of {n} variant comparisons, {sig.height} show a difference after Holm correction: "
                + "; ".join(sig["verdict"].to_list())
                + "."
            )
        else:
            parts.append(
                f"None of the {n} variant comparisons shows a detectable difference after Holm correction."
            )
    if s.warnings:
        parts.append(
            f"{len(s.warnings)} cell(s) have intervals too wide for a firm verdict (see the warnings)."
        )
    return " ".join(parts)
