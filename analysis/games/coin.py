"""coin, the synthetic calibration game: no section of its own, only what its chance events
are (its set-up shows nothing; the outcome is drawn after the last choice)."""

from __future__ import annotations

from . import ChanceWords, GameSection

SECTION = GameSection(
    chance=ChanceWords(
        setup="its set-up, which shows nothing",
        drawn="the outcome, drawn after the last choice",
        later="the outcome drawn at the end",
    ),
)
