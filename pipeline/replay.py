"""Readable event logs of single games, from explicit settings or from a run directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.compute as pc
import pyarrow.parquet as pq

import rust_core

from . import manifest, sink


def parse_variant(items: list[str]) -> dict[str, Any]:
    """``["dirk=false", "dirk_tiles=[4,4,\"third\"]"]`` to options; values are JSON, else strings."""
    variant: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--variant {item!r}: expected KEY=VALUE")
        try:
            variant[key] = json.loads(raw)
        except json.JSONDecodeError:
            variant[key] = raw
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


def format_event(event: dict[str, Any]) -> str:
    kind = event.get("event", "?")
    if kind == "action" and isinstance(event.get("action"), dict):
        action = dict(event["action"])
        name = action.pop("action", "?")
        args = " ".join(f"{k}={render(v)}" for k, v in action.items())
        head = f"turn {event.get('turn', '?'):>3}  player {event.get('player', '?')}"
        return f"{head}: {name} {args}".rstrip()
    rest = " ".join(f"{k}={render(v)}" for k, v in event.items() if k != "event")
    return f"  {kind}: {rest}".rstrip()


def format_log(log: dict[str, Any]) -> str:
    lines = [
        f"{log['game']} (rules v{log.get('rules_version', '?')}) seed={log['seed']} "
        f"game_index={log['game_index']} deal_index={log.get('deal_index')} turns={log.get('turns')}",
        f"agents: {', '.join(log['agents'])}",
    ]
    lines += [format_event(e) for e in log["events"]]
    lines.append("result:")
    for row in log["result"]:
        lines.append(
            f"  player {row['player']} seat {row['seat']} {row['agent']}: score {row['score']} "
            f"rank {row['rank']} win {row['win']:g}"
        )
    return "\n".join(lines)


def from_run(out: Path, cell_id: str, game_index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The replay of one game of a run, and the rows the run recorded for it (empty if not played yet)."""
    man = manifest.read(out)
    if man is None:
        raise ValueError(f"{out}: no {manifest.MANIFEST}; not a run directory")
    study = man["study"]
    cells = {c["id"]: c for c in study["cells"]}
    if cell_id not in cells:
        raise ValueError(f"{out}: no cell {cell_id!r}; cells: {', '.join(cells)}")
    cell = cells[cell_id]
    log = rust_core.replay(
        study["game"],
        cell["variant"],
        cell["agents"],
        study["seed"],
        game_index,
        pair_seats=study["pair_seats"],
    )
    recorded: list[dict[str, Any]] = []
    folder = sink.cell_dir(out, cell_id)
    for path in sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []:
        m = sink.PART.match(path.name)
        if m and int(m.group(1)) <= game_index < int(m.group(2)):
            table = pq.read_table(path)
            rows = table.filter(pc.equal(table["game_index"], game_index))
            recorded = sorted(rows.to_pylist(), key=lambda r: r["player"])
            break
    return log, recorded


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
