"""Study files: parsing, validation, the grid of cells, and the built-in studies.

A study is a TOML file (README.md, "Study files", has an annotated example)::

    name = "alhambra-dirk"
    game = "alhambra"
    seed = 1
    games_per_cell = 40000
    pair_seats = true
    [grid]
    players = [2]
    agents = ["random"]
    [grid.variants]
    dirk_official = {}
    no_dirk = { dirk = false }

Every problem is a :class:`StudyError` naming the file, the field and the allowed values;
nothing is played or written before a study has been fully validated.

Variant options that the game's schema marks ``"path": true`` (e.g. Hiroba's ``tiles``) name
files: a relative path is resolved against the study file's directory, the file must exist,
and its SHA-256 is kept in :attr:`Study.files` (and so in the manifest), so a run is never
continued, or played on workers, with a file that has changed since.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import rust_core

from .rundir import CellSpec, StudySpec
from .rundir.layout import MAX_GAMES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
TOP_KEYS = (
    "name",
    "description",
    "game",
    "seed",
    "games_per_cell",
    "pair_seats",
    "practical_threshold",
    "variant",
    "grid",
)
GRID_KEYS = ("players", "agents", "ladder", "variants", "options")
LINEUP_KEYS = ("agents", "games")
RUNG_KEYS = ("agent", "games")
MAX_SEED = 2**63 - 1


class StudyError(ValueError):
    """A bad study: ``source`` (file or built-in), ``field`` (dotted TOML path) and what is wrong."""

    def __init__(self, source: str, field_name: str, message: str) -> None:
        self.source = source
        self.field = field_name
        self.message = message
        super().__init__(f"{source}: {field_name}: {message}")


@dataclass(frozen=True)
class Cell:
    """One combination of player count, variant and agent line-up."""

    id: str
    label: str
    n_players: int
    variant: dict[str, Any]
    agents: list[str]
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "n_players": self.n_players,
            "variant": dict(self.variant),
            "agents": list(self.agents),
            "games": self.games,
        }


@dataclass(frozen=True)
class Study:
    """A validated study with its cells resolved."""

    name: str
    description: str
    game: str
    seed: int
    games_per_cell: int
    pair_seats: bool
    source: str
    cells: list[Cell] = field(default_factory=list)
    #: SHA-256 of every file named by a path option of a cell, by absolute path.
    files: dict[str, str] = field(default_factory=dict)
    #: Smallest difference of win rate that matters to the report (a share; None: its default).
    practical_threshold: float | None = None
    #: The skill ladder's agent specs, weakest first (empty: no ladder); see :func:`ladder_cells`.
    ladder: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "game": self.game,
            "seed": self.seed,
            "games_per_cell": self.games_per_cell,
            "pair_seats": self.pair_seats,
            "source": self.source,
            "cells": [c.to_dict() for c in self.cells],
            "files": dict(self.files),
            "practical_threshold": self.practical_threshold,
            "ladder": list(self.ladder),
        }

    def to_spec(self) -> StudySpec:
        """The study as the manifest records it."""
        cells = [
            CellSpec(c.id, c.label, c.n_players, dict(c.variant), list(c.agents), c.games) for c in self.cells
        ]
        return StudySpec(
            self.name, self.description, self.game, self.seed, self.games_per_cell, self.pair_seats,
            self.source, cells, dict(self.files), self.practical_threshold, list(self.ladder),
        )  # fmt: skip

    def cell(self, cell_id: str) -> Cell:
        for c in self.cells:
            if c.id == cell_id:
                return c
        raise KeyError(f"no cell {cell_id!r}; cells: {', '.join(c.id for c in self.cells)}")

    def with_games(self, games_per_cell: int) -> Study:
        """The same study with ``games_per_cell`` games in every cell (rounded up for seat pairs),
        line-ups with their own ``games`` included."""
        if not 1 <= games_per_cell <= MAX_GAMES:
            raise StudyError(
                self.source, "games_per_cell", f"must be an integer 1..{MAX_GAMES}, got {games_per_cell}"
            )
        cells = [
            replace(c, games=games_for(games_per_cell, c.n_players, self.pair_seats)) for c in self.cells
        ]
        return replace(self, games_per_cell=games_per_cell, cells=cells)


def games_for(games: int, n_players: int, pair_seats: bool) -> int:
    """Games of a cell: with seat pairs rounded up to a whole number of seat rotations."""
    if pair_seats:
        return -(-games // n_players) * n_players
    return games


def slug(value: Any) -> str:
    """A short hive-safe rendering of an option value or agent spec."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "default"
    elif isinstance(value, list):
        text = "_".join(slug(v) for v in value)
    else:
        text = str(value)
    text = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")
    return text or "x"


def path_options(game: str) -> frozenset[str]:
    """Variant options of ``game`` whose values are file paths (``"path": true`` in its schema)."""
    return frozenset(o["name"] for o in rust_core.variant_schema(game) if o.get("path"))


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def resolve_path_value(value: Any, base_dir: Path, source: str, field_name: str) -> Any:
    """A path option's value with a relative path made absolute against ``base_dir``.

    Non-strings (null: the game's default) pass unchanged for the engine to judge. Raises
    :class:`StudyError` naming ``field_name`` if the file does not exist or cannot be read.
    """
    if not isinstance(value, str):
        return value
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = base_dir / path
    path = path.resolve()
    where = f"{value!r}" if value == str(path) else f"{value!r} (resolved to {path})"
    if not path.is_file():
        raise StudyError(
            source,
            field_name,
            f"no such file: {where}; relative paths are resolved against {base_dir}",
        )
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise StudyError(source, field_name, f"cannot read {where}: {exc.strerror or exc}") from None
    return str(path)


def resolve_paths(
    game: str, variant: Mapping[str, Any], base_dir: Path, source: str, where: str = ""
) -> dict[str, Any]:
    """``variant`` with every path option resolved by :func:`resolve_path_value`."""
    paths = path_options(game)
    return {
        key: resolve_path_value(value, base_dir, source, f"{where}.{key}" if where else key)
        if key in paths
        else value
        for key, value in variant.items()
    }


def _type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string", list: "array", dict: "table"}.get(
        type(value), type(value).__name__
    )


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, field_name: str, message: str) -> StudyError:
        return StudyError(self.source, field_name, message)

    def unknown_keys(self, table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
        for key in table:
            if key not in allowed:
                name = f"{where}.{key}" if where else key
                raise self.fail(name, f"unknown field; allowed: {', '.join(allowed)}")

    def string(
        self, table: Mapping[str, Any], key: str, where: str = "", required: bool = True
    ) -> str | None:
        name = f"{where}.{key}" if where else key
        if key not in table:
            if required:
                raise self.fail(name, "missing (a string)")
            return None
        value = table[key]
        if not isinstance(value, str):
            raise self.fail(name, f"must be a string, got {_type_name(value)} {value!r}")
        return value

    def integer(self, table: Mapping[str, Any], key: str, low: int, high: int) -> int:
        if key not in table:
            raise self.fail(key, f"missing (an integer {low}..{high})")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer {low}..{high}, got {_type_name(value)} {value!r}")
        if not low <= value <= high:
            raise self.fail(key, f"must be an integer {low}..{high}, got {value}")
        return value


def parse_study(
    data: Mapping[str, Any],
    source: str,
    games_per_cell: int | None = None,
    base_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Study:
    """Validates a parsed study table and resolves its cells (``games_per_cell`` overrides the file).

    Relative paths in path options are resolved against ``base_dir`` (default: the current
    directory); :func:`load_study` passes the study file's directory. ``overrides`` (from
    ``balancelab run --variant``) sets study-wide options over the file's ``variant`` table; its
    relative paths are resolved against the current directory, and an option that the grid
    sets per cell is refused (edit the study instead).
    """
    ck = _Checker(source)
    base = Path.cwd() if base_dir is None else base_dir
    ck.unknown_keys(data, TOP_KEYS, "")
    name = ck.string(data, "name")
    assert name is not None
    if not SAFE_NAME.match(name):
        raise ck.fail("name", f"{name!r} is not allowed; use letters, digits, '-' and '_'")
    description = ck.string(data, "description", required=False) or ""
    game = ck.string(data, "game")
    allowed_games = rust_core.games()
    if game not in allowed_games:
        raise ck.fail("game", f"unknown game {game!r}; allowed: {', '.join(allowed_games)}")
    seed = ck.integer(data, "seed", 0, MAX_SEED)
    games = ck.integer(data, "games_per_cell", 1, MAX_GAMES)
    if games_per_cell is not None and not 1 <= games_per_cell <= MAX_GAMES:
        raise StudyError(source, "--games", f"must be an integer 1..{MAX_GAMES}, got {games_per_cell}")
    default_games = games if games_per_cell is None else games_per_cell
    pair_seats = data.get("pair_seats", False)
    if not isinstance(pair_seats, bool):
        raise ck.fail("pair_seats", f"must be true or false, got {_type_name(pair_seats)} {pair_seats!r}")

    option_names = [o["name"] for o in rust_core.variant_schema(game)]
    paths = path_options(game)

    def check_options(options: Any, where: str) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise ck.fail(where, f"must be a table of variant options, got {_type_name(options)}")
        for key in options:
            if key not in option_names:
                raise ck.fail(
                    f"{where}.{key}", f"unknown variant option of {game}; allowed: {', '.join(option_names)}"
                )
        return resolve_paths(game, options, base, source, where)

    common = check_options(data.get("variant", {}), "variant")
    if overrides:
        for key in overrides:
            if key not in option_names:
                raise StudyError(
                    "--variant", key, f"unknown variant option of {game}; allowed: {', '.join(option_names)}"
                )
        common = {**common, **resolve_paths(game, overrides, Path.cwd(), "--variant")}

    grid = data.get("grid")
    if grid is None:
        raise ck.fail("grid", f"missing (a table with {', '.join(GRID_KEYS)})")
    if not isinstance(grid, dict):
        raise ck.fail("grid", f"must be a table with {', '.join(GRID_KEYS)}, got {_type_name(grid)}")
    ck.unknown_keys(grid, GRID_KEYS, "grid")

    players = grid.get("players")
    if not isinstance(players, list) or not players:
        raise ck.fail("grid.players", f"must be a non-empty array of player counts, got {players!r}")
    for n in players:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ck.fail("grid.players", f"player counts must be positive integers, got {n!r}")
    if len(set(players)) != len(players):
        raise ck.fail("grid.players", f"repeated player count in {players}")

    ladder = _parse_ladder(ck, grid.get("ladder"), game)
    lineups_raw = grid.get("agents", [] if ladder else None)
    if not isinstance(lineups_raw, list) or (not lineups_raw and not ladder):
        raise ck.fail(
            "grid.agents",
            "must be a non-empty array of line-ups: an agent spec (every seat), an array of specs "
            "(one per player) or a table { agents = ..., games = N }; "
            f"got {lineups_raw!r}; agents: {', '.join(rust_core.agents())}",
        )
    lineups: list[str | list[str]] = []
    lineup_games: list[int | None] = []  # a line-up's own games per cell (not changed by --games)
    for i, entry in enumerate(lineups_raw):
        where = f"grid.agents[{i}]"
        own_games = None
        if isinstance(entry, dict):
            ck.unknown_keys(entry, LINEUP_KEYS, where)
            if "agents" not in entry:
                raise ck.fail(f"{where}.agents", "missing (an agent spec or an array of specs)")
            if "games" in entry:
                own_games = entry["games"]
                if (
                    isinstance(own_games, bool)
                    or not isinstance(own_games, int)
                    or not 1 <= own_games <= MAX_GAMES
                ):
                    raise ck.fail(f"{where}.games", f"must be an integer 1..{MAX_GAMES}, got {own_games!r}")
            where, entry = f"{where}.agents", entry["agents"]
        if isinstance(entry, str):
            lineups.append(entry)
        elif isinstance(entry, list) and entry and all(isinstance(a, str) for a in entry):
            if len(entry) not in players:
                raise ck.fail(where, f"line-up of {len(entry)} agents matches none of grid.players {players}")
            lineups.append(list(entry))
        else:
            raise ck.fail(where, f"must be an agent spec string or an array of them, got {entry!r}")
        lineup_games.append(own_games)
    for spec, own_games in ladder:  # every rung is a self-play line-up
        lineups.append(spec)
        lineup_games.append(own_games)

    presets_raw = grid.get("variants", {"default": {}})
    if not isinstance(presets_raw, dict) or not presets_raw:
        raise ck.fail(
            "grid.variants", "must be a non-empty table of named variants, e.g. no_dirk = { dirk = false }"
        )
    presets: list[tuple[str, dict[str, Any]]] = []
    for pname, options in presets_raw.items():
        if not SAFE_NAME.match(pname):
            raise ck.fail(f"grid.variants.{pname}", "variant names use letters, digits, '-' and '_'")
        presets.append((pname, check_options(options, f"grid.variants.{pname}")))
    show_preset = "variants" in grid
    for key in overrides or {}:
        if key in grid.get("options", {}) or any(key in options for options in presets_raw.values()):
            raise StudyError(
                "--variant", key, "the study's grid sets this option per cell; edit a copy of the study"
            )

    axes_raw = grid.get("options", {})
    if not isinstance(axes_raw, dict):
        raise ck.fail("grid.options", f"must be a table of option = [values], got {_type_name(axes_raw)}")
    axes: list[tuple[str, list[Any]]] = []
    shown: dict[str, list[Any]] = {}  # the values as written (for cell ids and labels)
    for key, values in axes_raw.items():
        if key not in option_names:
            raise ck.fail(
                f"grid.options.{key}", f"unknown variant option of {game}; allowed: {', '.join(option_names)}"
            )
        if not isinstance(values, list) or not values:
            raise ck.fail(f"grid.options.{key}", f"must be a non-empty array of values, got {values!r}")
        shown[key] = values
        if key in paths:
            values = [
                resolve_path_value(v, base, source, f"grid.options.{key}[{i}]") for i, v in enumerate(values)
            ]
        axes.append((key, values))

    cells: list[Cell] = []
    for n in players:
        for pname, preset in presets:
            for picks in itertools.product(*[range(len(values)) for _, values in axes]):
                combo = tuple(values[i] for (_, values), i in zip(axes, picks, strict=True))
                variant = {**common, **preset}
                id_parts = [f"p{n}"]
                label_parts = [f"{n} players"]
                if show_preset:
                    id_parts.append(slug(pname))
                    label_parts.append(pname)
                for (key, _), value, i in zip(axes, combo, picks, strict=True):
                    variant[key] = value
                    id_parts.append(f"{slug(key)}_{slug(shown[key][i])}")
                    label_parts.append(f"{key}={shown[key][i]}")
                for lineup, own_games in zip(lineups, lineup_games, strict=True):
                    agents = [lineup] * n if isinstance(lineup, str) else lineup
                    if len(agents) != n:
                        continue
                    parts, labels = list(id_parts), list(label_parts)
                    same = len(set(agents)) == 1
                    if len(lineups) > 1:
                        parts.append(slug(agents[0]) if same else "_v_".join(slug(a) for a in agents))
                    labels.append(agents[0] if same else " vs ".join(agents))
                    try:
                        rust_core.validate(game, variant, agents)
                    except ValueError as exc:
                        named = (pname if show_preset else None, preset)
                        where = _field_of(exc, named, axes) or _blame(
                            game, n, agents, common, named, axes, combo
                        )
                        raise ck.fail(where, f"{exc} (cell {'-'.join(parts)})") from None
                    cells.append(
                        Cell(
                            id="-".join(parts),
                            label=", ".join(labels),
                            n_players=n,
                            variant=variant,
                            agents=list(agents),
                            games=games_for(own_games or default_games, n, pair_seats),
                        )
                    )
    cells += _step_cells(ck, game, ladder, cells, pair_seats, default_games)
    if not cells:
        raise ck.fail("grid", "the grid has no cells (no line-up fits any player count)")
    ids = [c.id for c in cells]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ck.fail(
            "grid", f"cells with the same id: {', '.join(dupes)}; make variant names or values distinct"
        )
    cells = _refuse_identical(ck, game, cells)
    files: dict[str, str] = {}
    for c in cells:
        for key in sorted(paths & c.variant.keys()):
            value = c.variant[key]
            if isinstance(value, str) and value not in files:
                files[value] = file_sha256(value)
    files = dict(sorted(files.items()))
    threshold = data.get("practical_threshold")
    if threshold is not None and (
        isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold < 1
    ):
        raise ck.fail(
            "practical_threshold", f"must be a share between 0 and 1 (0.01 = 1 point), got {threshold!r}"
        )
    return Study(
        name,
        description,
        game,
        seed,
        default_games,
        pair_seats,
        source,
        cells,
        files,
        None if threshold is None else float(threshold),
        [spec for spec, _ in ladder],
    )


def _parse_ladder(ck: _Checker, raw: Any, game: str) -> list[tuple[str, int | None]]:
    """``grid.ladder``: rungs weakest first, each an agent spec or ``{ agent = spec, games = N }``.

    A rung's ``games`` sizes its self-play cells and the head-to-head step from the rung below
    (kept when ``--games`` changes the rest, like a line-up's ``games``)."""
    if raw is None:
        return []
    shape = (
        "an array of at least 2 agent specs, weakest first, each a spec string or a table "
        '{ agent = "mcts:iters=1000", games = N }'
    )
    if not isinstance(raw, list) or len(raw) < 2:
        raise ck.fail("grid.ladder", f"must be {shape}; got {raw!r}; agents: {', '.join(rust_core.agents())}")
    rungs: list[tuple[str, int | None]] = []
    for i, entry in enumerate(raw):
        where, games = f"grid.ladder[{i}]", None
        if isinstance(entry, dict):
            ck.unknown_keys(entry, RUNG_KEYS, where)
            if "agent" not in entry:
                raise ck.fail(f"{where}.agent", 'missing (an agent spec, e.g. "mcts:iters=300")')
            games = entry.get("games")
            if games is not None and (isinstance(games, bool) or not isinstance(games, int) or games < 1):
                raise ck.fail(f"{where}.games", f"must be a positive integer, got {games!r}")
            where, entry = f"{where}.agent", entry["agent"]
        if not isinstance(entry, str):
            raise ck.fail(where, f"must be an agent spec string, got {_type_name(entry)} {entry!r}")
        if entry in [r for r, _ in rungs]:
            raise ck.fail(where, f"rung {entry!r} is already on the ladder; every rung must differ")
        try:  # the head-to-head steps are 2-player games of the engine's default variant
            rust_core.validate(game, {}, [entry, entry])
        except ValueError as exc:
            raise ck.fail(where, str(exc)) from None
        rungs.append((entry, games))
    return rungs


def _step_cells(
    ck: _Checker,
    game: str,
    ladder: list[tuple[str, int | None]],
    cells: list[Cell],
    pair_seats: bool,
    default_games: int,
) -> list[Cell]:
    """Head-to-head cells between neighbouring rungs: 2 players, lower rung in the first seat
    (``pair_seats`` rotates it), one per variant of the rungs' self-play cells, ``games`` of the
    upper rung. They rate the rungs (Bradley–Terry Elo in the report)."""
    if not ladder:
        return []
    first = ladder[0][0]
    variants: dict[str, tuple[str, str, dict[str, Any]]] = {}
    for c in cells:  # one entry per variant (id and label without players and line-up)
        if c.agents == [first] * c.n_players:
            tail = c.id.split("-", 1)[1] if "-" in c.id else ""
            mid = c.label.split(", ", 1)[1] if ", " in c.label else ""
            tail = tail[: -len(slug(first))].rstrip("-")
            mid = mid[: -len(first)].rstrip(", ")
            variants.setdefault(tail, (tail, mid, c.variant))
    out = []
    for (lower, _), (upper, games) in zip(ladder, ladder[1:], strict=False):
        for tail, mid, variant in variants.values():
            agents = [lower, upper]
            try:
                rust_core.validate(game, variant, agents)
            except ValueError as exc:
                raise ck.fail("grid.ladder", f"{exc} (head-to-head {lower} vs {upper}, 2 players)") from None
            out.append(
                Cell(
                    id="-".join(x for x in ("p2", tail, f"{slug(lower)}_v_{slug(upper)}") if x),
                    label=", ".join(x for x in ("2 players", mid, f"{lower} vs {upper}") if x),
                    n_players=2,
                    variant=variant,
                    agents=agents,
                    games=games_for(games or default_games, 2, pair_seats),
                )
            )
    return out


def _settings(game: str, cell: Cell, *, normal: bool = False) -> str:
    """A cell's settings with every option at its value (defaults filled in), as canonical JSON;
    with ``normal``, in the engine's normal form (values that play the same game merged)."""
    if normal:
        options = rust_core.normalize_variant(game, cell.variant, cell.n_players)
    else:
        options = {o["name"]: o["default"] for o in rust_core.variant_schema(game)}
        options.update(cell.variant)
    return json.dumps([cell.n_players, options, cell.agents], sort_keys=True)


def _refuse_identical(ck: _Checker, game: str, cells: list[Cell]) -> list[Cell]:
    """Two cells with the same settings would play the same games and be compared as independent:
    refused. Cells the engine says play the same game (``rust_core.normalize_variant``: Taluva's
    ``tiles = 12`` at 4 players is all 48 tiles) are merged: the first is kept, its label says so."""
    seen: dict[str, int] = {}
    kept: list[Cell] = []
    for cell in cells:
        key = _settings(game, cell, normal=True)
        if key not in seen:
            seen[key] = len(kept)
            kept.append(cell)
            continue
        first = kept[seen[key]]
        if _settings(game, first) == _settings(game, cell):
            raise ck.fail(
                "grid",
                f"cells {first.id} and {cell.id} have identical settings ({cell.n_players} players, "
                f"agents {', '.join(cell.agents)}, the same variant options once defaults are filled in): "
                "they would play the same games; remove one or make them differ",
            )
        kept[seen[key]] = replace(first, label=f"{first.label} (= {cell.id}: the same game)")
    return kept


def _fails(game: str, variant: dict[str, Any], agents: list[str]) -> bool:
    try:
        rust_core.validate(game, variant, agents)
    except ValueError:
        return True
    return False


def _field_of(
    exc: ValueError, preset: tuple[str | None, dict[str, Any]], axes: list[tuple[str, list[Any]]]
) -> str | None:
    """The study field named by a structured engine error (``rust_core.EngineError``: ``kind``,
    ``option``), or ``None`` when the error does not say (then :func:`_blame` finds it)."""
    if not isinstance(exc, rust_core.EngineError):
        return None
    kind, option = str(exc.kind or ""), exc.option
    if option:
        if any(key == option for key, _ in axes):
            return f"grid.options.{option}"
        pname, options = preset
        if pname is not None and option in options:
            return f"grid.variants.{pname}"
        return "variant"
    if "agent" in kind:
        return "grid.agents"
    if "player" in kind:
        return "grid.players"
    return None


def _blame(
    game: str,
    n: int,
    agents: list[str],
    base: dict[str, Any],
    preset: tuple[str | None, dict[str, Any]],
    axes: list[tuple[str, list[Any]]],
    combo: tuple[Any, ...],
) -> str:
    """The study field that makes a cell invalid: players, agents, variant, a named variant or an option."""
    known = rust_core.agents()
    if known and _fails(game, {}, [known[0]] * n):
        return "grid.players"
    if _fails(game, {}, agents):
        return "grid.agents"
    if _fails(game, base, agents):
        return "variant"
    pname, options = preset
    if pname is not None and _fails(game, options, agents):
        return f"grid.variants.{pname}"
    for (key, _), value in zip(axes, combo, strict=True):
        if _fails(game, {key: value}, agents):
            return f"grid.options.{key}"
    return "grid"


def builtin_names() -> list[str]:
    """Names of the studies that ship inside the package."""
    folder = resources.files("pipeline") / "studies"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def builtin_text(name: str) -> str:
    return (resources.files("pipeline") / "studies" / f"{name}.toml").read_text(encoding="utf-8")


def parse_text(
    text: str,
    source: str,
    games_per_cell: int | None = None,
    base_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Study:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(source, "(toml)", f"malformed TOML: {exc}") from None
    return parse_study(data, source, games_per_cell, base_dir, overrides)


def load_study(
    spec: str, games_per_cell: int | None = None, overrides: Mapping[str, Any] | None = None
) -> Study:
    """A study from a TOML file path or a built-in name (a path wins if both exist).

    Relative file paths in the study are resolved against the study file's directory (for a
    built-in: the built-in studies' folder); ``overrides`` as in :func:`parse_study`.
    """
    path = Path(spec)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise StudyError(str(path), "(file)", f"cannot read: {exc}") from None
        return parse_text(text, str(path), games_per_cell, path.resolve().parent, overrides)
    if spec in builtin_names():
        folder = Path(str(resources.files("pipeline") / "studies"))
        return parse_text(builtin_text(spec), f"builtin:{spec}", games_per_cell, folder, overrides)
    raise StudyError(
        spec,
        "(study)",
        f"no such file and no built-in study of that name; built-ins: {', '.join(builtin_names())}",
    )
