"""Option values in words, for the cell labels the pipeline writes and the reports print.

A label is read by a designer, not parsed: ``dirk_tiles=(4, 4, third)``, not the Python or JSON
spelling (``[4, 4, 'third']``). The exact setting stays in the manifest's ``variant`` (and the
report's provenance table prints it as code).
"""

from __future__ import annotations

from typing import Any

__all__ = ["option_label", "value_words"]


def value_words(value: Any) -> str:
    """``4, 4, third`` for ``[4, 4, 'third']``; ``none`` for ``None``; ``on``/``off`` for a switch;
    a string without quotes; a number as written (``0.5``, ``3``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ", ".join(value_words(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {value_words(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def option_label(key: str, value: Any) -> str:
    """``money_copies=1``; a list of several values in parentheses (a label's parts are joined by
    commas): ``dirk_tiles=(4, 4, third)``."""
    words = value_words(value)
    several = isinstance(value, list | tuple | dict) and len(value) > 1
    return f"{key}=({words})" if several else f"{key}={words}"
