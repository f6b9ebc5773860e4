"""The whole analysis of one run: every per-cell table, comparisons, verdicts and warnings."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from .games import GameSection, section
from .load import cell_rows, read_manifest
from .stats.compare import compare_cells
from .stats.outcomes import game_length, game_table, margin, score_by_seat, tie_share
from .stats.seats import equal_seats_test, seat_win_rates, start_advantage

__all__ = ["PRECISION_TARGET", "StudyAnalysis", "analyse"]

#: A start-player advantage interval wider than ± this cannot rule out a relevant advantage.
PRECISION_TARGET = 0.02


@dataclass
class StudyAnalysis:
    """Tables (polars) of one run; see :func:`analyse`."""

    manifest: dict[str, Any]
    paired: bool
    cells: list[dict[str, Any]]
    rows: dict[str, pl.DataFrame]
    seats: pl.DataFrame
    advantage: pl.DataFrame
    scores: pl.DataFrame
    outcomes: pl.DataFrame
    comparisons: pl.DataFrame
    #: Game-specific tables by name (see :mod:`analysis.games`), e.g. ``dirk`` (Alhambra),
    #: ``hiroba`` (Hiroba); each has ``cell``, ``label`` and ``n_players`` columns.
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.manifest["study"]["name"])

    @property
    def game(self) -> str:
        return str(self.manifest["study"].get("game", ""))

    @property
    def section(self) -> GameSection:
        """The game's own part of the analysis and report (:mod:`analysis.games`)."""
        return section(self.game)

    def table(self, name: str) -> pl.DataFrame:
        """A game-specific table (empty if the game or the study has none)."""
        return self.tables.get(name, pl.DataFrame())

    @property
    def dirk(self) -> pl.DataFrame:
        """Alhambra: Dirk's record per cell with Dirk (empty otherwise)."""
        return self.table("dirk")

    def label(self, cell_id: str) -> str:
        return next(str(c.get("label", c["id"])) for c in self.cells if str(c["id"]) == cell_id)


def _advantage_verdict(est: float, lo: float, hi: float) -> tuple[str, bool]:
    """Plain words for a start-player advantage interval, and whether it is too wide."""
    hw = (hi - lo) / 2
    if lo > 0:
        return f"the start player wins more often than fair (+{est:.3f})", False
    if hi < 0:
        return f"the start player wins less often than fair ({est:.3f})", False
    if hw <= PRECISION_TARGET:
        return f"no meaningful start-player advantage (interval within ±{PRECISION_TARGET})", False
    return "no detectable start-player advantage at this sample size", True


def analyse(run_dir: pathlib.Path | str) -> StudyAnalysis:
    """Reads a run and computes every table of the report.

    Without ``pair_seats`` the unit is the game; with it, the deal (paired design).
    """
    manifest = read_manifest(run_dir)
    study = manifest["study"]
    paired = bool(study.get("pair_seats", False))
    game = section(study.get("game"))
    cells = list(study["cells"])
    rows: dict[str, pl.DataFrame] = {}
    seats, adv, scores, outcomes = [], [], [], []
    extra: dict[str, list[pl.DataFrame]] = {}
    warnings: list[str] = []
    for cell in cells:
        cid = str(cell["id"])
        label = str(cell.get("label", cid))
        try:
            r = cell_rows(run_dir, cid)
        except FileNotFoundError:
            r = pl.DataFrame()
        if r.height == 0:
            warnings.append(f"{label}: no games recorded.")
            continue
        rows[cid] = r
        n = int(r["seat"].to_numpy().max()) + 1
        meta = {"cell": cid, "label": label, "n_players": n}
        seats.append(seat_win_rates(r, paired=paired).with_columns(**{k: pl.lit(v) for k, v in meta.items()}))
        a = start_advantage(r, paired=paired)
        test = equal_seats_test(r, paired=paired)
        games = game_table(r)
        verdict, too_wide = _advantage_verdict(a.estimate, a.lo, a.hi)
        rec: dict[str, Any] = {
            **meta,
            "games": games.height,
            "units": a.n_units,
            "advantage": a.estimate,
            "lo": a.lo,
            "hi": a.hi,
            "halfwidth": a.halfwidth,
            "equal_seats_p": test.p_value,
            "equal_seats_test": test.method,
            "verdict": verdict,
        }
        if game.advantage is not None:
            rec.update(game.advantage(r, paired))
        adv.append(rec)
        if too_wide:
            need = int(a.n_units * (a.halfwidth / PRECISION_TARGET) ** 2) + 1
            unit = "deals" if paired else "games"
            warnings.append(
                f"{label}: the start-player advantage interval (±{a.halfwidth:.3f}) is too wide to support "
                f"a verdict; about {need} {unit} are needed for ±{PRECISION_TARGET}."
            )
        scores.append(score_by_seat(r, paired=paired).with_columns(**{k: pl.lit(v) for k, v in meta.items()}))
        m, t, ties = (
            margin(games, paired=paired),
            game_length(games, paired=paired),
            tie_share(games, paired=paired),
        )
        outcomes.append(
            {
                **meta,
                "margin": m.estimate,
                "margin_lo": m.lo,
                "margin_hi": m.hi,
                "turns": t.estimate,
                "turns_lo": t.lo,
                "turns_hi": t.hi,
                "turns_median": float(np.median(games["turns"].to_numpy())),
                "tie_share": ties.estimate,
                "tie_lo": ties.lo,
                "tie_hi": ties.hi,
            }
        )
        if game.tables is not None:
            for name, table in game.tables(r, paired).items():
                extra.setdefault(name, []).append(
                    table.with_columns(**{k: pl.lit(v) for k, v in meta.items()})
                )
    comparisons = compare_cells(rows, paired=paired)
    if comparisons.height:
        labels = {str(c["id"]): str(c.get("label", c["id"])) for c in cells}
        comparisons = comparisons.with_columns(
            pl.col("cell_a").replace_strict(labels, default=pl.col("cell_a")).alias("label_a"),
            pl.col("cell_b").replace_strict(labels, default=pl.col("cell_b")).alias("label_b"),
        )
        comparisons = comparisons.with_columns(
            pl.struct("verdict", "cell_a", "cell_b", "label_a", "label_b")
            .map_elements(
                lambda s: (
                    s["verdict"]
                    .replace(s["cell_b"] + " has", s["label_b"] + " has")
                    .replace("than " + s["cell_a"] + " ", "than " + s["label_a"] + " ")
                ),
                return_dtype=pl.String,
            )
            .alias("verdict")
        )
    return StudyAnalysis(
        manifest=manifest,
        paired=paired,
        cells=cells,
        rows=rows,
        seats=pl.concat(seats) if seats else pl.DataFrame(),
        advantage=pl.DataFrame(adv) if adv else pl.DataFrame(),
        scores=pl.concat(scores) if scores else pl.DataFrame(),
        outcomes=pl.DataFrame(outcomes) if outcomes else pl.DataFrame(),
        comparisons=comparisons,
        tables={name: pl.concat(parts) for name, parts in extra.items()},
        warnings=warnings,
    )
