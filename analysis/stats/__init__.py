"""Statistics per cell (seats, outcomes) and between cells (comparisons)."""

from .compare import compare_cells
from .intervals import Estimate
from .outcomes import game_length, game_table, margin, score_by_seat, tie_share
from .seats import equal_seats_test, seat_win_rates, start_advantage

__all__ = [
    "Estimate",
    "compare_cells",
    "equal_seats_test",
    "game_length",
    "game_table",
    "margin",
    "score_by_seat",
    "seat_win_rates",
    "start_advantage",
    "tie_share",
]
