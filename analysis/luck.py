"""Luck against skill, from the ``luck`` column a study records with ``luck = true``.

Each row's ``luck`` is the sum, over the set-up and every action of the game, of ``V(after) −
E[V(after)]`` for that player under the game's frozen evaluation ``V`` (``rust_core``'s luck
measurement): the part of the outcome the chance events dealt, as far as ``V`` can see it. Every
term has mean zero given the seat, so ``win − luck`` estimates the same expected win share as
``win`` (a control variate). Per cell, for the start player, with deals as units (games without
paired seats):

* the start-player advantage raw and corrected (``win − luck``, or ``win − β·luck`` for a study
  whose estimator is ``fitted``: :func:`analysis.estimator.predictable_slopes`), each with a 95%
  Student-t interval, and their paired difference (its interval should hold 0: the correction is
  unbiased);
* **deals saved**: the per-unit variance raw over corrected (how many times fewer deals the
  corrected estimate needs for the same interval width; below 1 the correction costs deals), with
  a 95% bootstrap interval (units resampled: :func:`saved_interval`);
* **luck's share**: the squared correlation of the outcome with the measured luck, the share of
  the outcome's variance that the chance events explain as ``V`` sees them (a lower bound on
  how much of the game is luck: a weak ``V`` sees less);
* beside it, for a skill ladder's rung, **how often it beats the rung below** (its win share in
  their 2-player head-to-head games, deals as units): the two numbers a designer asks for, how
  much the game is luck and how much skill decides.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import bootstrap

from .estimator import FITTED, luck_units, predictable_slopes, slope
from .model import StudyAnalysis
from .stats.intervals import Estimate, mean_ci, unit_means

__all__ = ["LuckRow", "luck_rows", "saved_interval"]


@dataclass(frozen=True)
class LuckRow:
    """One cell's start-player advantage raw and luck-corrected (module docstring)."""

    cell: str
    units: int
    raw: Estimate
    corrected: Estimate
    difference: Estimate
    deals_saved: Estimate
    luck_share: float
    #: ``fitted``: the slope of outcome on luck over every unit of the cell; else None.
    slope: float | None = None
    #: The cell's rung against the rung below (2-player head-to-head win share), if a ladder.
    beats: Estimate | None = None
    below: str | None = None


def _row(cell: str, rows: pl.DataFrame, paired: bool, fitted: bool = False) -> LuckRow | None:
    """The cell's row over the units (deals or games) whose every game recorded its luck (a run
    continued from an atlas data folder holds games without it), in unit order."""
    n = int(rows["seat"].max()) + 1  # type: ignore[arg-type]
    per = luck_units(rows, paired)
    raw, luck = per["win"].to_numpy() - 1 / n, per["luck"].to_numpy()
    beta = predictable_slopes(raw, luck) if fitted else np.ones_like(luck)
    corrected = raw - beta * luck
    if raw.size < 3 or corrected.var() == 0 or raw.var() == 0:
        return None
    share = float(np.corrcoef(raw, luck)[0, 1] ** 2) if luck.var() > 0 else 0.0
    beta_all = slope(raw, luck) if fitted and luck.var() > 0 else None
    return LuckRow(
        cell,
        int(raw.size),
        mean_ci(raw),
        mean_ci(corrected),
        mean_ci(raw - corrected),
        saved_interval(raw, corrected),
        share,
        beta_all,
    )


def _ratio(raw: np.ndarray, corrected: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.asarray(raw.var(axis=axis, ddof=1) / corrected.var(axis=axis, ddof=1))


#: Bootstrap resamples held in memory at once (each as large as the data: bounds memory on big runs).
BOOTSTRAP_BATCH = 100


def saved_interval(raw: np.ndarray, corrected: np.ndarray, resamples: int = 2000) -> Estimate:
    """Units saved, the per-unit variance of ``raw`` over that of ``corrected``, with its 95%
    percentile bootstrap interval (the units resampled in pairs; seeded, so a page re-derives)."""
    res = bootstrap(
        (raw, corrected), _ratio, paired=True, vectorized=True, n_resamples=resamples,
        batch=BOOTSTRAP_BATCH, method="percentile", random_state=np.random.default_rng(0),
    )  # fmt: skip
    ci = res.confidence_interval
    return Estimate(
        float(_ratio(raw, corrected)), float(ci.low), float(ci.high), raw.size, "bootstrap, percentile"
    )


def luck_rows(s: StudyAnalysis) -> list[LuckRow]:
    """The rows of every balance cell whose games carry the ``luck`` column (empty otherwise)."""
    out = []
    fitted = s.manifest.study.estimator == FITTED
    for c in s.balance:
        rows = s.rows.get(c.id)
        if rows is not None and "luck" in rows.columns:
            row = _row(c.id, rows, s.paired, fitted)
            if row is not None:
                out.append(replace(row, **_beats(s, c.agents)))
    return out


def _beats(s: StudyAnalysis, agents: tuple[str, ...]) -> dict[str, Any]:
    """A self-play rung's win share against the rung below in their head-to-head step."""
    rung = agents[0]
    if len(set(agents)) != 1 or rung not in s.rungs or s.rungs.index(rung) == 0:
        return {}
    below = s.rungs[s.rungs.index(rung) - 1]
    step = next((c for c in s.info if c.id in s.steps and set(c.agents) == {below, rung}), None)
    rows = s.rows.get(step.id) if step is not None else None
    if rows is None or not rows.height:
        return {}
    mine = unit_means(rows.filter(pl.col("agent") == rung), "win", paired=s.paired)["value"].to_numpy()
    return {"beats": mean_ci(mine), "below": below}
