"""The whole analysis of one run: every per-cell table, comparisons, classes and warnings.

:func:`analyse` computes data only (polars tables in a :class:`~analysis.model.StudyAnalysis`);
sentences come from :mod:`analysis.findings`, pages from :mod:`analysis.report`.
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import polars as pl

from rundir import Cell, Manifest, Study
from rundir.cells import PLAY

from .claims import band_words
from .estimator import FITTED, RAW, outcome_column, start_outcome
from .fairest import fairest_rounds, sequence_n_opt
from .games import NO_SECTION, GameSection, section
from .load import Run, open_run
from .luck import luck_rows
from .model import CellInfo, StudyAnalysis, cell_infos
from .skill import skill_ladder
from .stats.compare import METRICS, compare_cells, start_metric
from .stats.intervals import Estimate
from .stats.outcomes import game_length, game_table, margin, score_by_seat, tie_share
from .stats.practical import DEFAULT_THRESHOLD, MIN_VERDICT_DEALS, classify, units_to_settle
from .stats.seats import (
    equal_seats_test,
    n_players_of,
    seat_win_rates,
    start_advantage,
    start_advantage_sequence,
)
from .words import around, pts, pts_span

__all__ = ["StudyAnalysis", "analyse", "capped_games", "practical_threshold"]


def practical_threshold(manifest: Manifest, override: float | None = None) -> tuple[float, str]:
    """The study's practical threshold (a share; 0.01 = 1 point of win rate) and where it came
    from: ``override``, else the study's ``practical_threshold``, else the default."""
    if override is not None:
        value, source = override, "given"
    elif manifest.study.practical_threshold is not None:
        value, source = manifest.study.practical_threshold, "study setting practical_threshold"
    else:
        return DEFAULT_THRESHOLD, "default"
    value = float(value)
    if not 0 < value < 1:
        raise ValueError(f"practical_threshold must lie between 0 and 1 (a share of games), got {value}")
    return value, source


def _advantage_row(
    r: pl.DataFrame,
    meta: dict[str, Any],
    paired: bool,
    threshold: float,
    game: GameSection,
    n_opt: float | None = None,
    outcome: pl.Expr | None = None,
    estimator: str = RAW,
) -> tuple[dict[str, Any], str | None]:
    """The cell's advantage row, and a warning when its interval cannot settle the question. With
    ``n_opt`` (a run whose rounds looked at the data and added games: ``fairest``) the interval is
    anytime-valid (a confidence sequence tuned to ``n_opt`` units). ``outcome``: the start player's
    outcome the study's estimator reads (:func:`analysis.estimator.outcome_column`; None: raw),
    ``estimator`` its name."""
    a = (
        start_advantage(r, paired=paired, outcome=outcome)
        if n_opt is None
        else start_advantage_sequence(r, paired=paired, n_opt=n_opt, outcome=outcome)
    )
    test = equal_seats_test(r, paired=paired)
    cls = classify(a.lo, a.hi, threshold)
    few = a.n_units < MIN_VERDICT_DEALS  # one rule everywhere: no verdict, nor deals to settle, below it
    cls = "unsettled" if few else cls
    rec: dict[str, Any] = {
        **meta,
        "games": int(r["game_index"].n_unique()),
        "units": a.n_units,
        "win_rate": a.estimate + 1 / meta["n_players"],
        "fair": 1 / meta["n_players"],
        "advantage": a.estimate,
        "lo": a.lo,
        "hi": a.hi,
        "halfwidth": a.halfwidth,
        "finding": cls,
        "few_units": few,
        "equal_seats_p": test.p_value,
        "equal_seats_test": test.method,
        "anytime_valid": n_opt is not None,
        "estimator": RAW if outcome is None else estimator,
    }
    if game.advantage is not None:
        rec.update(game.advantage(r, paired))
    return rec, _unsettled_warning(meta["label"], a, cls, few, paired, threshold)


def _unsettled_warning(
    label: str, a: Estimate, cls: str, few: bool, paired: bool, threshold: float
) -> str | None:
    """Why a cell's start-player verdict is not settled, and about how many units would settle it
    (:func:`analysis.stats.practical.units_to_settle`); None when it is settled."""
    unit = "deals" if paired else "games"
    if few:
        return (
            f"{label}: the start-player advantage rests on {a.n_units:,} {unit}, fewer than the "
            f"{MIN_VERDICT_DEALS} every verdict needs; it is not settled."
        )
    if cls != "unsettled" or not math.isfinite(a.halfwidth) or a.halfwidth <= 0:
        return None
    need = units_to_settle(a.estimate, a.halfwidth, a.n_units, threshold)
    band = band_words(threshold)
    return (
        f"{label}: the start-player advantage {pts(a.estimate)} points "
        f"{pts_span(a.lo, a.hi, around(threshold))} "
        f"({a.n_units:,} {unit}) is not settled: its interval holds 0 and reaches beyond {band}. About "
        f"{need:,} {unit} in all would settle it if the estimate holds (the interval narrows as one over "
        f"the square root of the {unit})."
    )


def _outcome_row(r: pl.DataFrame, meta: dict[str, Any], paired: bool) -> dict[str, Any]:
    games = game_table(r)
    m, t, ties = (
        margin(games, paired=paired),
        game_length(games, paired=paired),
        tie_share(games, paired=paired),
    )
    return {
        **meta,
        "margin": m.estimate,
        "margin_lo": m.lo,
        "margin_hi": m.hi,
        "turns": t.estimate,
        "turns_lo": t.lo,
        "turns_hi": t.hi,
        "turns_median": float(games["turns"].median()),  # type: ignore[arg-type]
        "tie_share": ties.estimate,
        "tie_lo": ties.lo,
        "tie_hi": ties.hi,
        "capped": capped_games(r),
    }


def capped_games(rows: pl.DataFrame) -> int | None:
    """Games among ``rows`` (one row per player per game) that the engine's safety net ended (the
    ``capped`` column: a turn or round cap the rules do not have; scored as they stood, not normal
    games); None for data from before the column."""
    if "capped" not in rows.columns:
        return None
    return int(rows.filter(pl.col("capped") == 1)["game_index"].n_unique())


def _capped_warning(outcomes: list[dict[str, Any]]) -> list[str]:
    """One warning naming every cell with games ended by an engine's safety net."""
    hit = [f"{r['label']}: {r['capped']:,} of {r['games']:,}" for r in outcomes if r.get("capped")]
    if not hit:
        return []
    return [
        "Games ended by the engine's safety net (a turn or round cap, not the rules), scored as they "
        f"stood and included in every figure: {'; '.join(hit)}."
    ]


def analyse(
    run_dir: pathlib.Path | str,
    *,
    threshold: float | None = None,
    allow_partial: bool = False,
    generic: bool = False,
) -> StudyAnalysis:
    """Reads a run (verified: see :func:`analysis.load.open_run`; an incomplete run is refused
    unless ``allow_partial``) and computes every table of the report (``generic``: only those of
    the generic columns, none of the game's own: :attr:`StudyAnalysis.generic`).

    Without ``pair_seats`` the unit is the game; with it, the deal (paired design).
    ``threshold`` overrides the study's practical threshold (:func:`practical_threshold`).
    """
    run = open_run(run_dir, allow_partial=allow_partial)
    manifest = run.manifest
    study = manifest.study
    paired = study.pair_seats
    limit, source = practical_threshold(manifest, threshold)
    cells = list(study.cells)
    steps = {c.id for c in cells if c.role != PLAY}  # they rate or check the rungs: no balance question
    mixed = run.partial_columns
    compact = run.compact
    generic = generic or bool(mixed) or compact  # the game's own tables need their columns in every game
    game = NO_SECTION if generic else section(study.game)
    t = _CellTables(warnings=_partial_warnings(run) + _mixed_warning(mixed, compact))
    t.n_opt = sequence_n_opt(manifest) if fairest_rounds(manifest) else None
    for cell in cells:
        t.add(run, cell, paired, limit, game, steps)
    t.warnings += _capped_warning(t.outcomes)
    balance_rows = {k: v for k, v in t.rows.items() if k not in steps}
    s = StudyAnalysis(
        manifest=manifest,
        paired=paired,
        cells=cells,
        rows=t.rows,
        seats=pl.concat(t.seats) if t.seats else pl.DataFrame(),
        advantage=pl.DataFrame(t.adv) if t.adv else pl.DataFrame(),
        scores=pl.concat(t.scores) if t.scores else pl.DataFrame(),
        outcomes=pl.DataFrame(t.outcomes) if t.outcomes else pl.DataFrame(),
        comparisons=_comparisons(study, balance_rows, limit, game),
        tables={name: pl.concat(parts) for name, parts in t.extra.items()},
        warnings=t.warnings,
        threshold=limit,
        threshold_source=source,
        analysed=run.share,
        generic=generic,
    )
    s.ladder = skill_ladder(s)
    s.luck = luck_rows(s)
    return s


@dataclass
class _CellTables:
    """The per-cell tables of :func:`analyse`, gathered cell by cell."""

    warnings: list[str]
    rows: dict[str, pl.DataFrame] = field(default_factory=dict)
    seats: list[pl.DataFrame] = field(default_factory=list)
    adv: list[dict[str, Any]] = field(default_factory=list)
    scores: list[pl.DataFrame] = field(default_factory=list)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, list[pl.DataFrame]] = field(default_factory=dict)
    #: Set for a ``fairest`` run: advantages get anytime-valid intervals (see :func:`_advantage_row`).
    n_opt: float | None = None

    def add(
        self, run: Run, cell: Cell, paired: bool, limit: float, game: GameSection, steps: set[str]
    ) -> None:
        """Adds `cell`'s tables (a warning instead where it recorded no game)."""
        cid, label = cell.id, cell.label
        try:
            r = run.cell_rows(cid)
        except FileNotFoundError:
            r = pl.DataFrame()
        if r.height == 0:
            self.warnings.append(f"{label}: no games recorded.")
            return
        self.rows[cid] = r
        meta = {"cell": cid, "label": label, "n_players": n_players_of(r)}
        lit = {k: pl.lit(v) for k, v in meta.items()}
        self.seats.append(seat_win_rates(r, paired=paired).with_columns(**lit))
        outcome = outcome_column(run.manifest.study, r)
        estimator = run.manifest.study.estimator
        rec, warning = _advantage_row(r, meta, paired, limit, game, self.n_opt, outcome, estimator)
        self.adv.append(rec)
        self.warnings += [warning] if warning and cid not in steps else []
        self.scores.append(score_by_seat(r, paired=paired).with_columns(**lit))
        self.outcomes.append({**_outcome_row(r, meta, paired), "games": rec["games"]})
        if game.tables is not None:
            for name, table in game.tables(r, paired).items():
                self.extra.setdefault(name, []).append(table.with_columns(**lit))


def _comparisons(
    study: Study, rows: dict[str, pl.DataFrame], limit: float, game: GameSection
) -> pl.DataFrame:
    """Comparisons between the balance cells (ladder steps left out), with both labels; the winning
    margin only where the game's score is in points (a ranking key's differences mean nothing); the
    start-player win rate as the study's estimator reads it."""
    cells = list(study.cells)
    names = {c.id: c.name for c in cell_infos(cells)}
    metrics = METRICS
    if study.estimator != RAW:
        fitted = ", fitted slope" if study.estimator == FITTED else ""
        start = start_metric(partial(start_outcome, study), f"start-player win rate, luck-corrected{fitted}")
        metrics = tuple(start if m.name == "start_advantage" else m for m in metrics)
    metrics = tuple(m for m in metrics if game.score_in_points or m.name != "margin")
    comparisons = compare_cells(
        rows,
        paired=study.pair_seats,
        pairs=_pairs(cells, rows, list(study.ladder)),
        metrics=metrics,
        labels=names,
        negligible={"start_advantage": limit},
    )
    if comparisons.height:
        comparisons = comparisons.with_columns(
            pl.col("cell_a").replace_strict(names, default=pl.col("cell_a")).alias("label_a"),
            pl.col("cell_b").replace_strict(names, default=pl.col("cell_b")).alias("label_b"),
        )
    return comparisons


def _pairs(cells: list[Cell], rows: dict[str, pl.DataFrame], ladder: list[str]) -> list[tuple[str, str]]:
    """Pairs of cells to compare: equal player counts, except two self-play rungs of one skill
    ladder answering the same question (the ladder tests those by its trend against Elo)."""
    info = {c.id: c for c in cell_infos(cells) if c.id in rows}
    ids = list(rows)

    def rung(c: CellInfo) -> bool:
        return len(set(c.agents)) == 1 and c.agents[0] in ladder

    out = []
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            ca, cb = info[a], info[b]
            if ca.n_players != cb.n_players or (rung(ca) and rung(cb) and ca.question == cb.question):
                continue
            out.append((a, b))
    return out


def _mixed_warning(mixed: list[str], compact: bool) -> list[str]:
    """For a run whose batch files differ in their columns (continued from an atlas data folder),
    or that holds only the compact form's (an atlas data folder)."""
    if compact:
        return [
            "This run's games are kept in compact form (an atlas data folder: the columns the atlas page "
            "reads); the game's own tables and the luck are left out."
        ]
    if not mixed:
        return []
    return [
        f"Some games were kept in compact form (an atlas data folder, continued): {', '.join(mixed)} "
        "recorded only in the games played since; the game's own tables are left out, and the luck (if "
        "recorded) is read over the deals that recorded it."
    ]


def _partial_warnings(run: Run) -> list[str]:
    """For a run read with ``allow_partial``: the share analysed and what was left out."""
    done, planned = run.share
    out = []
    if run.notes:
        share = done / planned if planned else 0.0
        out.append(
            f"Partial run: {done:,} of {planned:,} planned games analysed ({share:.1%}); left out: "
            + "; ".join(run.notes)
            + "."
        )
    if run.ignored:
        out.append(f"Ignored (not batch files of this run): {', '.join(run.ignored)}.")
    return out
