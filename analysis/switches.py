"""Rule switches ranked by their effect on the start-player advantage (any game).

A *switch study* has, per player count and line-up, a defaults cell (a variant without options)
and cells that each change one variant option against it (the built-in ``<game>-switches``
studies). Each such cell is compared with its defaults cell, and only with it: every cell plays
the same deals (a deal depends only on the study's seed and its index), so the change of the
start-player win rate is a *paired* difference over the deals both cells played, with its
Student-t interval at the simultaneous level 1 − 0.05/m (Bonferroni over the m switched cells
of the study) and its class against the study's practical threshold. (The generic comparisons
of the report, :func:`analysis.stats.compare.compare_cells`, compare every pair of cells with equal
player counts as independent samples: wider intervals, a larger family.)

API (what the report and other readers, e.g. an atlas, call; all take a
:class:`~analysis.model.StudyAnalysis` from :func:`analysis.analyse`):

- :func:`switch_changes` — the table, one row per switched cell, ranked by the size of the change;
- :func:`switch_findings` — the verdict sentences: per player count and line-up, which switches
  move the advantage beyond the threshold, which stay within it, which are undetermined;
- :func:`switch_sections` — the report section (a ranked table).

The report adds the findings and the section for every study that has switch cells; game
modules add nothing.
"""

from __future__ import annotations

from typing import Any

import polars as pl
from statsmodels.stats.weightstats import DescrStatsW

from rundir.labels import value_words

from .claims import band_words, handicap_words
from .content import Block, Finding, Interval, Section, Table, Text
from .estimator import start_outcome
from .model import CellInfo, StudyAnalysis
from .stats.intervals import ALPHA, Estimate, mean_ci, unit_means
from .stats.practical import MIN_VERDICT_DEALS, classify
from .words import around, pts, pts_ci

__all__ = ["MOVES", "switch_changes", "switch_findings", "switch_sections"]


def _value_words(option: str, value: Any) -> str:
    """An option's value for a reader: a handicap in words (``the start player +4 points``), else
    the value in words (``4, 4, third``; ``none``; ``on``/``off``)."""
    if option == "handicap" and isinstance(value, list):
        return handicap_words([int(v) for v in value])
    return value_words(value)


#: The change's practical class read as whether the switch moves the advantage.
MOVES = {
    "matters": "beyond",
    "fair": "within",
    "negligible": "within",
    "measurable": "undetermined",
    "unsettled": "undetermined",
}


def _switch(base: CellInfo, cell: CellInfo) -> tuple[str, Any] | None:
    """The one option ``cell`` sets differently from ``base`` (None if not exactly one, or if the
    two differ in players or line-up)."""
    if cell.n_players != base.n_players or cell.agents != base.agents:
        return None
    keys = set(base.variant) | set(cell.variant)
    diff = [k for k in sorted(keys) if base.variant.get(k) != cell.variant.get(k)]
    if len(diff) != 1:
        return None
    return diff[0], cell.variant.get(diff[0])


def _neighbours(cells: list[CellInfo]) -> list[tuple[CellInfo, CellInfo, tuple[str, Any]]]:
    """(defaults cell, switched cell, (option, value)) for every one-switch neighbour of a
    defaults cell."""
    out = []
    for base in (c for c in cells if not c.variant):
        for cell in cells:
            sw = _switch(base, cell)
            if sw is not None:
                out.append((base, cell, sw))
    return out


def _seat0_by_unit(s: StudyAnalysis, cell: str) -> pl.DataFrame:
    """Seat 0's mean outcome per unit (deal with ``pair_seats``, else game), as the study's
    estimator reads it (:func:`analysis.estimator.start_outcome`): ``unit``, ``value``."""
    rows = s.rows[cell]
    seat0 = rows.filter(pl.col("seat") == 0)
    return unit_means(seat0, start_outcome(s.manifest.study, rows), paired=s.paired)


def _paired_change(s: StudyAnalysis, base: str, cell: str, alpha: float) -> tuple[Estimate, float]:
    """The change of the start-player win rate from ``base`` to ``cell`` over the units both
    played (the same deals: a deal depends only on the seed and its index), with its ``1 - alpha``
    Student-t interval over the per-unit differences and its two-sided p-value."""
    a, b = (_seat0_by_unit(s, c) for c in (base, cell))
    d = b.join(a, on="unit", suffix="_base").select(pl.col("value") - pl.col("value_base"))
    values = d.to_series().to_numpy().astype(float)
    est = mean_ci(values, alpha)
    if values.size < 2 or values.var() == 0:
        return est, float("nan")
    return est, float(DescrStatsW(values).ttest_mean(0.0)[1])


def switch_changes(s: StudyAnalysis) -> pl.DataFrame:
    """One row per switched cell: ``n_players``, ``agents`` (line-up), ``option``, ``value``,
    ``cell``, ``base`` (its defaults cell), ``base_advantage`` and ``advantage`` (start-player
    advantage of each, a share), ``diff``, ``lo``, ``hi`` (change of the start-player win rate,
    paired by deal, simultaneous 95% interval: Bonferroni over the ``family`` of switched cells),
    ``units`` (deals, or games, both cells played), ``p_adj``, ``finding`` (the interval's
    practical class, :func:`analysis.stats.practical.classify`) and ``moves`` (``beyond`` /
    ``within`` / ``undetermined`` the threshold, :data:`MOVES`); ranked per player count and
    line-up by ``|diff|``. Empty when the study has no switch cells."""
    found = [(b, c, sw) for b, c, sw in _neighbours(list(s.balance)) if b.id in s.rows and c.id in s.rows]
    if not found:
        return pl.DataFrame()
    family = len(found)
    recs: list[dict[str, Any]] = []
    for base, cell, (option, value) in found:
        est, p = _paired_change(s, base.id, cell.id, ALPHA / family)
        # fewer deals than every verdict needs: not settled, however narrow (one minimum everywhere)
        few = est.n_units < MIN_VERDICT_DEALS
        finding = "unsettled" if few else classify(est.lo, est.hi, s.threshold)
        recs.append(
            {
                "n_players": base.n_players,
                "agents": base.lineup,
                "option": option,
                "value": _value_words(option, value),
                "cell": cell.id,
                "base": base.id,
                "base_advantage": float(s.advantage_row(base.id)["advantage"]),
                "advantage": float(s.advantage_row(cell.id)["advantage"]),
                "diff": est.estimate,
                "lo": est.lo,
                "hi": est.hi,
                "units": est.n_units,
                "family": family,
                "p_adj": min(1.0, p * family),
                "finding": finding,
                "moves": MOVES[finding],
            }
        )
    frame = pl.DataFrame(recs).with_columns(pl.col("diff").abs().alias("_size"))
    return frame.sort(["n_players", "agents", "_size"], descending=[False, False, True]).drop("_size")


def _change(r: dict[str, Any], unit: str, t: float) -> str:
    """A change in words; with no variation at all, no unit's start-player result changed (how
    far that goes depends on how many units were played: it says how many)."""
    if r["diff"] == r["lo"] == r["hi"] == 0:
        return f"0.0 points: the start-player result changed in none of {r['units']:,} {unit}"
    return str(pts_ci(r["diff"], r["lo"], r["hi"], marks=around(t)))


def switch_findings(s: StudyAnalysis) -> list[Finding]:
    """Per player count and line-up: the switches that move the start-player advantage beyond the
    practical threshold, those shown to stay within it, and those not settled."""
    t = switch_changes(s)
    if not t.height:
        return []
    band, unit = band_words(s.threshold), "deals" if s.paired else "games"
    words = {
        "beyond": f"Beyond {band} (the change's interval wholly outside the band: the switch moves the "
        f"advantage by more than {band[1:]})",
        "within": f"Within {band} (interval inside the band)",
        "undetermined": f"Undetermined (the interval reaches across ±{band[1:]})",
    }
    out = []
    for (n, agents), g in t.group_by(["n_players", "agents"], maintain_order=True):
        parts = []
        for kind, label in words.items():
            hit = g.filter(pl.col("moves") == kind)
            items = [
                f"{r['option']} = {r['value']} ({_change(r, unit, s.threshold)})"
                for r in hit.iter_rows(named=True)
            ]
            if items:
                parts.append(f"{label}: {'; '.join(items)}.")
        base = g.row(0, named=True)
        sentence = (
            "Change of the start-player advantage against the defaults (advantage "
            f"{pts(base['base_advantage'])} points) when one rule switch is changed, largest first, 95% "
            f"intervals simultaneous over the {base['family']} switched cells (Bonferroni). "
            + " ".join(parts)
        )
        out.append(Finding(f"Rule switches ({n} players, {agents})", sentence, tuple(g["cell"].to_list())))
    return out


def switch_sections(s: StudyAnalysis) -> list[Section]:
    """The section ranking the study's switched cells by their change of the advantage (none if
    the study has no switch cells)."""
    t = switch_changes(s)
    if not t.height:
        return []
    blocks: list[Block] = [
        Text(
            "Each cell that changes one rule switch against the defaults cell of the same player count "
            "and line-up: the start-player advantage without and with the switch, and its change "
            "(points; paired over the deals both cells played, since every cell plays the same deals; "
            f"simultaneous 95% interval, Bonferroni over the {t['family'][0]} switched cells) read "
            f"against the practical threshold of {band_words(s.threshold)}: beyond it (interval wholly "
            "outside), within it (interval inside) or undetermined; largest change first."
        )
    ]
    rows = tuple(
        (
            r["n_players"],
            r["agents"],
            f"{r['option']} = {r['value']}",
            f"{pts(r['base_advantage'])} → {pts(r['advantage'])}",
            Interval(r["diff"], r["lo"], r["hi"], 1, "points", around(s.threshold)),
            f"{r['units']:,}",
            r["moves"],
        )
        for r in t.iter_rows(named=True)
    )
    unit = "deals" if s.paired else "games"
    header = ("players", "line-up", "switch", "advantage, points", "change, points [95% CI]", unit, "verdict")
    blocks.append(Table(header, rows))
    return [Section("Rule switches ranked by their effect on the start-player advantage", tuple(blocks))]
