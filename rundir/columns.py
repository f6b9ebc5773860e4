"""The columns of a run's Parquet files.

Every row is one player of one game: the ``rust_core.simulate`` columns (README.md, "Output
columns") plus :data:`N_PLAYERS`, added by the pipeline. Readers get :data:`CELL` from the hive
partition ``cell=<id>``. ``(cell, game_index, player)`` identifies a row.
"""

from __future__ import annotations

GAME = "game"
RULES_VERSION = "rules_version"
GAME_INDEX = "game_index"
DEAL_INDEX = "deal_index"
PLAYER = "player"
SEAT = "seat"
AGENT = "agent"
N_PLAYERS = "n_players"
CELL = "cell"
#: The points of the seat's score handicap in ``score`` (0 without one): ``score - handicap`` is the
#: game's own score. Not in :data:`REQUIRED`: runs written before it lack it (and, resumed since,
#: read it as null in their older files), so readers fall back to the cell's variant
#: (``analysis.stats.ranking.raw_scores``).
HANDICAP = "handicap"

#: Present in every batch file, whatever the game.
REQUIRED = (
    GAME,
    RULES_VERSION,
    GAME_INDEX,
    DEAL_INDEX,
    PLAYER,
    SEAT,
    AGENT,
    "score",
    "rank",
    "win",
    N_PLAYERS,
)
#: What the compact form of a run keeps (an atlas data folder): the generic columns a page reads,
#: none of the game's own nor the luck.
COMPACT = (*REQUIRED, "tiebreak", "turns", "capped")
#: The key of a row within a cell, and within a run.
FILE_KEY = (GAME_INDEX, PLAYER)
RUN_KEY = (CELL, GAME_INDEX, PLAYER)
