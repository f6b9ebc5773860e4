"""Small helpers for what the command line prints."""

from __future__ import annotations


def plural(n: int, word: str, plural_form: str | None = None) -> str:
    """``1 cell``, ``2 cells``, ``1,000 games`` (thousands separated)."""
    return f"{n:,} {word if n == 1 else plural_form or word + 's'}"
