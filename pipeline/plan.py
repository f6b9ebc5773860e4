"""Cutting a study's cells into batches: which game-index ranges are still missing, and how big a batch is.

Batches never change the data: game ``i`` of a cell depends only on the study, never on which batch,
worker or run played it. Batch sizes adapt to measured speed so that one task takes about
``target_seconds``; with seat pairs a batch holds whole seat rotations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .study import Cell, Study


@dataclass(frozen=True, order=True)
class Batch:
    """Games ``start .. end`` (end exclusive) of one cell."""

    cell_id: str
    start: int
    end: int

    @property
    def games(self) -> int:
        return self.end - self.start


def missing_ranges(total: int, covered: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``0 .. total`` that no ``(start, end)`` in ``covered`` holds."""
    gaps: list[tuple[int, int]] = []
    pos = 0
    for start, end in sorted(covered):
        if start > pos:
            gaps.append((pos, min(start, total)))
        pos = max(pos, end)
        if pos >= total:
            break
    if pos < total:
        gaps.append((pos, total))
    return [(a, b) for a, b in gaps if b > a]


class BatchSizer:
    """Chooses batch sizes per cell from the measured games per second of its tasks."""

    def __init__(
        self,
        study: Study,
        target_seconds: float = 2.0,
        fixed_games: int | None = None,
        max_games: int = 1_000_000,
        first_games: int = 1,
    ) -> None:
        self.study = study
        self.target_seconds = target_seconds
        self.fixed_games = fixed_games
        self.max_games = max_games
        self.first_games = first_games  # until a cell's speed has been measured
        self.rates: dict[str, float] = {}

    def unit(self, cell: Cell) -> int:
        return cell.n_players if self.study.pair_seats else 1

    def observe(self, cell_id: str, games: int, seconds: float) -> None:
        """Feeds one task's speed into the running estimate of its cell."""
        if games <= 0 or seconds <= 0:
            return
        rate = games / seconds
        old = self.rates.get(cell_id)
        self.rates[cell_id] = rate if old is None else 0.5 * old + 0.5 * rate

    def size(self, cell: Cell, remaining_total: int = 0, concurrency: int = 1) -> int:
        """Games in the next batch of ``cell`` (a multiple of the seat rotation with seat pairs)."""
        unit = self.unit(cell)
        if self.fixed_games is not None:
            games = self.fixed_games
        else:
            rate = self.rates.get(cell.id)
            if rate is None:
                games = self.first_games
            else:
                games = int(rate * self.target_seconds)
                if remaining_total and concurrency:
                    # near the end, smaller batches keep every worker busy until the last one finishes
                    tail = remaining_total // (2 * concurrency)
                    games = max(min(games, tail), int(rate * self.target_seconds / 4))
            games = min(games, self.max_games)
        return max(unit, -(-games // unit) * unit)


def cut(cell: Cell, gap: tuple[int, int], size: int) -> Batch:
    """The first batch of at most ``size`` games of ``gap``."""
    start, end = gap
    return Batch(cell.id, start, min(end, start + size))
