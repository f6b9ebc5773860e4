"""Readable event logs of single games, from explicit settings or from a run directory.

The text form is generic: one line per event with its fields; an action names its kind (the
``action`` or ``type`` field); a field holding rows of cells (a list of strings of
whitespace-separated cells, e.g. a ``board`` event's ``rows``) is printed as a grid below its
event, and a long list of tables one table per line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

import rundir
import rust_core
from rundir.store import describe

from .study import check_value, file_sha256

#: A list of tables rendered longer than this is printed one table per line.
LONG_LIST = 120


def parse_variant(items: list[str]) -> dict[str, Any]:
    """``["dirk=false", "dirk_tiles=[4,4,\"third\"]"]`` to options; values are JSON, else strings.
    A value that is not plain data (``NaN``, ``1e999``, nested too deeply) is refused naming it."""
    variant: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--variant {item[:100]!r}: expected KEY=VALUE")
        try:
            variant[key] = json.loads(raw)
        except json.JSONDecodeError:
            variant[key] = raw
        except RecursionError:
            raise ValueError(f"--variant {key}: nested too deeply") from None
        check_value("--variant", key, variant[key])
    return variant


def render(value: Any) -> str:
    """A compact rendering: money cards as ``green 7``, tiles as ``arcades 8 [N] #19``."""
    if isinstance(value, dict):
        if set(value) == {"currency", "value"}:
            return f"{value['currency']} {value['value']}"
        if {"kind", "price", "id"} <= set(value):
            walls = f" [{value['walls']}]" if value.get("walls") else ""
            return f"{value['kind']} {value['price']}{walls} #{value['id']}"
        return "{" + ", ".join(f"{k}: {render(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(render(v) for v in value) + "]"
    return json.dumps(value) if isinstance(value, str) else str(value)


def _is_grid(value: Any) -> bool:
    """Rows of a board: a list of several strings of whitespace-separated cells."""
    return (
        isinstance(value, list)
        and len(value) > 1
        and all(isinstance(v, str) and len(v.split()) > 1 for v in value)
    )


def _is_long_table_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) > 1
        and all(isinstance(v, dict) for v in value)
        and len(render(value)) > LONG_LIST
    )


def format_event(event: dict[str, Any]) -> str:
    """One event as text: a line of fields, then any grid (list of strings) or long list of tables
    as an indented block below it."""
    kind = event.get("event", "?")
    if kind == "action" and isinstance(event.get("action"), dict):
        action = dict(event["action"])
        name = action.pop("action", None) or action.pop("type", "?")
        args = " ".join(f"{k}={render(v)}" for k, v in action.items())
        head = f"turn {event.get('turn', '?'):>3}  player {event.get('player', '?')}"
        return f"{head}: {name} {args}".rstrip()
    fields = {k: v for k, v in event.items() if k != "event"}
    blocks = {k: v for k, v in fields.items() if _is_grid(v) or _is_long_table_list(v)}
    rest = " ".join(f"{k}={render(v)}" for k, v in fields.items() if k not in blocks)
    lines = [f"  {kind}: {rest}".rstrip()]
    for key, value in blocks.items():
        lines.append(f"    {key}:")
        lines.extend(f"      {v if isinstance(v, str) else render(v)}" for v in value)
    return "\n".join(lines)


def format_log(log: dict[str, Any]) -> str:
    lines = [
        f"{log['game']} (rules v{log.get('rules_version', '?')}) seed={log['seed']} "
        f"game_index={log['game_index']} deal_index={log.get('deal_index')} turns={log.get('turns')}",
        f"agents: {', '.join(log['agents'])}",
    ]
    seating = sorted((r["position"], r["player"], r["agent"]) for r in log["result"] if "position" in r)
    if seating:
        lines.append("turn order: " + ", ".join(f"position {q} = player {p} ({a})" for q, p, a in seating))
    lines += [format_event(e) for e in log["events"]]
    lines.append("result:")
    basic = ("player", "position", "seat", "agent", "score", "rank", "win")
    try:  # the game's own columns in the game's order
        order = [c["name"] for c in rust_core.metric_columns(log["game"])]
    except ValueError:
        order = []
    for row in log["result"]:
        keys = [k for k in order if k in row] + [k for k in row if k not in order and k not in basic]
        metrics = " ".join(f"{k}={render(row[k])}" for k in keys if row[k] is not None)
        lines.append(
            f"  player {row['player']} seat {row['seat']} {row['agent']}: score {row['score']} "
            f"rank {row['rank']} win {row['win']:g}" + (f" ({metrics})" if metrics else "")
        )
    return "\n".join(lines)


def from_run(out: Path, cell_id: str, game_index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The replay of one game of a run, and the rows the run recorded for it (empty if not played
    yet). Only a batch file that passes validation (its recorded content hash) is read."""
    man = rundir.read_manifest(out)
    if man is None:
        raise ValueError(f"{out}: no {rundir.MANIFEST}; not a run directory")
    study = man.study
    cells = {c.id: c for c in study.cells}
    if cell_id not in cells:
        raise ValueError(f"{out}: no cell {cell_id!r}; cells: {', '.join(cells)}")
    cell = cells[cell_id]
    if not 0 <= game_index < cell.games:
        raise ValueError(f"--game-index {game_index}: cell {cell_id} of {out} has games 0..{cell.games - 1}")
    for path, digest in study.files.items():
        if path not in used_files(study):  # only files the cells name (a damaged manifest may say more)
            raise ValueError(f"{out}: the manifest names {path[:200]!r}, a file no cell uses")
        try:
            now = file_sha256(path)
        except OSError as exc:
            why = describe(exc)
            raise ValueError(f"{out}: the run read {path}, which cannot be read now: {why}") from None
        if now != digest:
            raise ValueError(
                f"{out}: {path} changed since the run (its SHA-256 differs from the one recorded); "
                "the replay would not be the recorded game"
            )
    log = rust_core.replay(
        study.game, cell.variant, cell.agents, study.seed, game_index, pair_seats=study.pair_seats
    )
    check = rundir.check_run(out, study.hash(), [cell_id])
    for rec in check.good:
        if rec.start <= game_index < rec.end:
            table = rundir.batches.read_table(out, rec.path)
            rows = table.filter(pc.equal(table[rundir.columns.GAME_INDEX], game_index))
            return log, sorted(rows.to_pylist(), key=lambda r: r[rundir.columns.PLAYER])
    return log, []


def used_files(study: rundir.Study) -> set[str]:
    """Every text value of the cells' variants (the files the study's path options name are among them)."""
    return {v for c in study.cells for v in c.variant.values() if isinstance(v, str)}


def mismatches(log: dict[str, Any], recorded: list[dict[str, Any]]) -> list[str]:
    """Differences between a replay's result rows and the recorded rows (shared columns only)."""
    problems = []
    if len(recorded) != len(log["result"]):
        return [f"{len(recorded)} recorded rows, replay has {len(log['result'])}"]
    for want, got in zip(sorted(log["result"], key=lambda r: r["player"]), recorded, strict=True):
        for key, value in want.items():
            if key in got and got[key] != value:
                problems.append(f"player {want['player']}: {key} recorded {got[key]!r}, replay {value!r}")
    return problems
