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
import math
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import rust_core
from rundir import Cell, Study
from rundir.cells import with_roles
from rundir.labels import option_label
from rundir.layout import MAX_GAMES
from rundir.store import describe, read_regular

from . import study_file

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

#: Most bytes of a study file, and of a file named by a path option (read once, whole).
MAX_STUDY_BYTES = 1 << 20
MAX_DATA_FILE_BYTES = 16 << 20
MAX_DESCRIPTION = 2000
#: Most cells a study may expand into (players x variants x options x line-ups).
MAX_CELLS = 10_000
MAX_SEED = study_file.MAX_SEED


class StudyError(ValueError):
    """A bad study: ``source`` (file or built-in), ``field`` (dotted TOML path) and what is wrong."""

    def __init__(self, source: str, field_name: str, message: str) -> None:
        self.source = source
        self.field = field_name
        self.message = message
        super().__init__(f"{source}: {field_name}: {message}")


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
    elif isinstance(value, int | float) and value < 0:
        text = f"m{-value}"  # -1 -> m1: a sign would be stripped (and -1 would read as 1)
    else:
        text = str(value)
    text = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")
    return text or "x"


def path_options(game: str) -> frozenset[str]:
    """Variant options of ``game`` whose values are file paths (``"path": true`` in its schema)."""
    return frozenset(o["name"] for o in rust_core.variant_schema(game) if o.get("path"))


def read_data_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file named by a path option: a regular file (never a FIFO or device) of at
    most :data:`MAX_DATA_FILE_BYTES`; :class:`OSError` otherwise."""
    return read_regular(Path(path), MAX_DATA_FILE_BYTES)


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes (see :func:`read_data_file`)."""
    return hashlib.sha256(read_data_file(path)).hexdigest()


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
        read_data_file(path)
    except OSError as exc:
        raise StudyError(source, field_name, f"cannot read {where}: {describe(exc)}") from None
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


#: Deepest nesting of arrays and tables in a variant value.
MAX_VALUE_DEPTH = 8
#: Longest string, key and array a study may hold, and its deepest nesting.
MAX_TEXT = 4096
MAX_KEY = 200
MAX_ITEMS = 10_000
MAX_DEPTH = 12


def check_sizes(source: str, value: Any, where: str = "", depth: int = 0) -> None:
    """Refuses a parsed study holding anything larger than a study needs (a string longer than
    :data:`MAX_TEXT`, a key longer than :data:`MAX_KEY`, an array of more than :data:`MAX_ITEMS`
    items, nesting deeper than :data:`MAX_DEPTH`), naming the field, before any field is judged."""
    name = where or "(toml)"
    if depth > MAX_DEPTH:
        raise StudyError(source, name, f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise StudyError(source, name, f"a string of {len(value):,} characters; at most {MAX_TEXT:,}")
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise StudyError(source, name, f"an array of {len(value):,} items; at most {MAX_ITEMS:,}")
        for i, item in enumerate(value):
            check_sizes(source, item, f"{where}[{i}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            if len(key) > MAX_KEY:
                raise StudyError(source, f"{where}.{key[:40]}...", f"a key longer than {MAX_KEY} characters")
            check_sizes(source, item, f"{where}.{key}" if where else key, depth + 1)


def check_value(source: str, field_name: str, value: Any, depth: int = 0) -> None:
    """Refuses a variant value that is not plain data: a TOML date or time, a non-finite number
    (inf, nan), or arrays and tables nested deeper than :data:`MAX_VALUE_DEPTH`."""
    if depth > MAX_VALUE_DEPTH:
        raise StudyError(source, field_name, f"nested deeper than {MAX_VALUE_DEPTH} levels")
    if isinstance(value, float) and not math.isfinite(value):
        raise StudyError(source, field_name, f"must be a finite number, got {value}")
    if isinstance(value, list):
        for item in value:
            check_value(source, field_name, item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            check_value(source, field_name, item, depth + 1)
    elif value is not None and not isinstance(value, (bool, int, float, str)):
        raise StudyError(
            source,
            field_name,
            f"must be a boolean, number, string, array or table, got {_type_name(value)} {str(value)!r}",
        )


def _type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string", list: "array", dict: "table"}.get(
        type(value), type(value).__name__
    )


def _fail(source: str) -> Callable[[str, str], StudyError]:
    return lambda field_name, message: StudyError(source, field_name, message)


def parse_study(
    data: Mapping[str, Any],
    source: str,
    games_per_cell: int | None = None,
    base_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Study:
    """Validates a parsed study table and resolves its cells (``games_per_cell`` overrides the file).

    The shape (fields, types, ranges) is declared in :mod:`pipeline.study_file`; what needs the
    engine (games, agents, variant options, cells that can be played) is judged here. Relative
    paths in path options are resolved against ``base_dir`` (default: the current directory);
    :func:`load_study` passes the study file's directory. ``overrides`` (from ``balancelab run
    --variant``) sets study-wide options over the file's ``variant`` table; its relative paths are
    resolved against the current directory, and an option that the grid sets per cell is refused.
    """
    check_sizes(source, dict(data))
    try:
        raw = study_file.validate(dict(data), rust_core.agents())
    except study_file.StudyShapeError as exc:
        raise StudyError(source, exc.field, exc.message) from None
    fail = _fail(source)
    _check_header(raw, source, games_per_cell)
    default_games = raw.games_per_cell if games_per_cell is None else games_per_cell
    base = Path.cwd() if base_dir is None else base_dir
    grid = raw.grid
    options = _Options(raw.game, source, base)
    common = options.table(raw.variant, "variant")
    if overrides:
        common = {**common, **options.overrides(overrides, grid)}
    ladder = _parse_ladder(fail, grid.ladder, raw.game)
    lineups = _lineups(fail, grid, ladder)
    presets = [
        (name, options.table(table, f"grid.variants.{name}")) for name, table in (grid.variants or {}).items()
    ]
    axes, shown = options.axes(grid.options)
    count = len(grid.players) * max(1, len(presets)) * len(lineups) * math.prod(len(v) for _, v in axes)
    if count > MAX_CELLS:
        raise fail("grid", f"expands into {count:,} cells; at most {MAX_CELLS:,} are allowed")
    expand = _Expansion(
        raw.game, raw.pair_seats, default_games, common, grid.variants is not None, axes, shown
    )
    cells = [
        c
        for n in grid.players
        for pname, preset in presets or [("default", {})]
        for c in expand.cells(fail, n, pname, preset, lineups)
    ]
    cells += _step_cells(fail, raw.game, ladder, cells, raw.pair_seats, default_games)
    cells = _check_cells(fail, raw.game, cells)
    official = _official(fail, raw.official, cells)
    study = Study(
        raw.name, raw.description, raw.game, raw.seed, default_games, raw.pair_seats, source, cells,
        _files(options.paths, cells), raw.practical_threshold, [spec for spec, _ in ladder],
        record_positions=raw.record_positions, luck=raw.luck, official=official, estimator=raw.estimator,
        luck_value=raw.luck_value,
    )  # fmt: skip
    return with_roles(study)  # every cell's role, made once (rundir.cells)


def _official(
    fail: Callable[[str, str], StudyError], options: dict[str, Any] | None, cells: list[Cell]
) -> str | None:
    """The id of the one cell whose variant has every option of ``official`` (None: not named)."""
    if options is None:
        return None
    found = [c.id for c in cells if all(c.variant.get(k) == v for k, v in options.items())]
    if len(found) != 1:
        how = "no cell has" if not found else f"{len(found)} cells have"
        raise fail("official", f"{how} these options; name the options of exactly one cell")
    return found[0]


def _check_luck_value(fail: Callable[[str, str], StudyError], raw: study_file.StudyFile) -> None:
    """``luck_value`` needs ``luck = true`` and a value the engine parses (its error names the
    allowed forms)."""
    if raw.luck_value == "learned":
        return
    if not raw.luck:
        raise fail("luck_value", "needs luck = true (it values the luck the run measures)")
    try:
        rust_core.simulate(
            raw.game, {}, ["random"] * raw.grid.players[0], 0, 0, 0, luck=True, luck_value=raw.luck_value
        )
    except ValueError as exc:
        raise fail("luck_value", str(exc)) from None


def _check_header(raw: study_file.StudyFile, source: str, games_per_cell: int | None) -> None:
    """The checks that need the engine or span fields: the game, the description, ``--games``,
    the player counts, an estimator that needs the luck."""
    fail = _fail(source)
    allowed_games = rust_core.games()
    if raw.game not in allowed_games:
        raise fail("game", f"unknown game {raw.game!r}; allowed: {', '.join(allowed_games)}")
    if len(raw.description) > MAX_DESCRIPTION or "\n" in raw.description:
        raise fail("description", f"must be one line of at most {MAX_DESCRIPTION} characters")
    if games_per_cell is not None and not 1 <= games_per_cell <= MAX_GAMES:
        raise StudyError(source, "--games", f"must be an integer 1..{MAX_GAMES}, got {games_per_cell}")
    if len(set(raw.grid.players)) != len(raw.grid.players):
        raise fail("grid.players", f"repeated player count in {raw.grid.players}")
    _check_luck_value(fail, raw)
    if raw.estimator != "raw" and not raw.luck:
        raise fail(
            "estimator",
            f'estimator = "{raw.estimator}" needs luck = true (the corrected outcome is the win share minus '
            'the luck the run measures); set luck = true, or estimator = "raw"',
        )


def _files(paths: frozenset[str], cells: list[Cell]) -> dict[str, str]:
    """SHA-256 of every file a path option of a cell names, by absolute path."""
    files: dict[str, str] = {}
    for c in cells:
        for key in sorted(paths & c.variant.keys()):
            value = c.variant[key]
            if isinstance(value, str) and value not in files:
                files[value] = file_sha256(value)
    return dict(sorted(files.items()))


def _check_cells(fail: Callable[[str, str], StudyError], game: str, cells: list[Cell]) -> list[Cell]:
    """The cells, checked: ids distinct, no two with identical settings, cells that play the same
    game merged (:func:`_refuse_identical`)."""
    if not cells:
        raise fail("grid", "the grid has no cells (no line-up fits any player count)")
    ids = [c.id for c in cells]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise fail(
            "grid", f"cells with the same id: {', '.join(dupes)}; make variant names or values distinct"
        )
    return _refuse_identical(fail, game, cells)


class _Options:
    """Variant options of one game: names checked against its schema, values plain data, file
    options resolved (relative to the study's folder, ``--variant``'s to the current one)."""

    def __init__(self, game: str, source: str, base: Path) -> None:
        self.game, self.source, self.base = game, source, base
        own = [o["name"] for o in rust_core.variant_schema(game)]
        self.names = own + [o["name"] for o in rust_core.contract_options()]  # e.g. handicap
        self.paths = path_options(game)

    def _known(self, source: str, field_name: str, key: str) -> None:
        if key not in self.names:
            raise StudyError(
                source, field_name, f"unknown variant option of {self.game}; allowed: {', '.join(self.names)}"
            )

    def table(self, options: dict[str, Any], where: str) -> dict[str, Any]:
        for key, value in options.items():
            self._known(self.source, f"{where}.{key}", key)
            check_value(self.source, f"{where}.{key}", value)
        return resolve_paths(self.game, options, self.base, self.source, where)

    def overrides(self, overrides: Mapping[str, Any], grid: study_file.Grid) -> dict[str, Any]:
        for key, value in overrides.items():
            self._known("--variant", key, key)
            check_value("--variant", key, value)
            if key in grid.options or any(key in table for table in (grid.variants or {}).values()):
                raise StudyError(
                    "--variant", key, "the study's grid sets this option per cell; edit a copy of the study"
                )
        return resolve_paths(self.game, overrides, Path.cwd(), "--variant")

    def axes(
        self, raw: Mapping[str, list[Any] | study_file.RangeTable]
    ) -> tuple[list[tuple[str, list[Any]]], dict[str, list[Any]]]:
        """``grid.options`` as (option, values) axes, and the values as written (for ids and labels)."""
        axes: list[tuple[str, list[Any]]] = []
        shown: dict[str, list[Any]] = {}
        for key, given in raw.items():
            self._known(self.source, f"grid.options.{key}", key)
            values = (
                given if isinstance(given, list) else expand_range(self.source, f"grid.options.{key}", given)
            )
            for i, v in enumerate(values):
                check_value(self.source, f"grid.options.{key}[{i}]", v)
            shown[key] = values
            if key in self.paths:
                values = [
                    resolve_path_value(v, self.base, self.source, f"grid.options.{key}[{i}]")
                    for i, v in enumerate(values)
                ]
            axes.append((key, values))
        return axes, shown


#: Most values a numeric range of ``grid.options`` may expand into.
MAX_RANGE_VALUES = 1000


def expand_range(source: str, where: str, r: study_file.RangeTable) -> list[Any]:
    """The values of ``{ from, to, step }``: integers when all three are whole numbers."""
    if r.to < r.start:
        raise StudyError(source, where, f"'to' ({r.to:g}) must not be below 'from' ({r.start:g})")
    count = math.floor((r.to - r.start) / r.step + 1e-9) + 1
    if count > MAX_RANGE_VALUES:
        raise StudyError(
            source, where, f"expands into {count:,} values; at most {MAX_RANGE_VALUES:,} are allowed"
        )
    whole = all(float(v).is_integer() for v in (r.start, r.to, r.step))
    values = [r.start + i * r.step for i in range(count)]
    return [int(v) for v in values] if whole else [round(v, 10) for v in values]


#: (agent or agents, own games, field, the named variants it plays: None = all).
Lineups = list[tuple[str | list[str], int | None, str, frozenset[str] | None]]


def _lineups(
    fail: Callable[[str, str], StudyError], grid: study_file.Grid, ladder: list[tuple[str, int | None]]
) -> Lineups:
    """(agent or agents, own games, field, named variants) of every line-up, the ladder's rungs
    (self-play) last."""
    if not grid.agents and not ladder:
        expect = study_file.expectations(rust_core.agents())["grid.agents"]
        raise fail("grid.agents", f"must be {expect}; got {grid.agents!r}")
    out: Lineups = []
    for i, entry in enumerate(grid.agents or []):
        where, own_games, only = f"grid.agents[{i}]", None, None
        if isinstance(entry, study_file.LineupTable):
            only = _only(fail, grid, entry.variants, f"{where}.variants")
            where, own_games, entry = f"{where}.agents", entry.games, entry.agents
        if isinstance(entry, list) and len(entry) not in grid.players:
            raise fail(where, f"line-up of {len(entry)} agents matches none of grid.players {grid.players}")
        out.append((entry, own_games, where, only))
    out += [(spec, games, "grid.ladder", None) for spec, games in ladder]
    return out


def _only(
    fail: Callable[[str, str], StudyError], grid: study_file.Grid, names: list[str] | None, where: str
) -> frozenset[str] | None:
    """A line-up's ``variants``: names of ``grid.variants`` (None: every variant)."""
    if names is None:
        return None
    known = list(grid.variants or {})
    for k, name in enumerate(names):
        if name not in known:
            raise fail(f"{where}[{k}]", f"unknown variant {name!r}; allowed: {', '.join(known) or 'none'}")
    return frozenset(names)


@dataclass(frozen=True)
class _Expansion:
    """Turns one player count x named variant into cells: every option combination x line-up."""

    game: str
    pair_seats: bool
    default_games: int
    common: dict[str, Any]
    show_preset: bool
    axes: list[tuple[str, list[Any]]]
    shown: dict[str, list[Any]]

    def cells(
        self,
        fail: Callable[[str, str], StudyError],
        n: int,
        pname: str,
        preset: dict[str, Any],
        lineups: Lineups,
    ) -> list[Cell]:
        out = []
        for picks in itertools.product(*[range(len(values)) for _, values in self.axes]):
            combo = tuple(values[i] for (_, values), i in zip(self.axes, picks, strict=True))
            variant = {**self.common, **preset}
            id_parts, label_parts = [f"p{n}"], [f"{n} players"]
            if self.show_preset:
                id_parts.append(slug(pname))
                label_parts.append(pname)
            for (key, _), value, i in zip(self.axes, combo, picks, strict=True):
                variant[key] = value
                id_parts.append(f"{slug(key)}_{slug(self.shown[key][i])}")
                label_parts.append(option_label(key, self.shown[key][i]))
            for lineup, own_games, _, only in lineups:
                agents = [lineup] * n if isinstance(lineup, str) else lineup
                if len(agents) != n or (only is not None and pname not in only):
                    continue
                parts, labels = list(id_parts), list(label_parts)
                same = len(set(agents)) == 1
                if len(lineups) > 1:
                    parts.append(slug(agents[0]) if same else "_v_".join(slug(a) for a in agents))
                labels.append(agents[0] if same else " vs ".join(agents))
                self._validate(
                    fail, n, agents, variant, (pname if self.show_preset else None, preset), combo, parts
                )
                games = games_for(own_games or self.default_games, n, self.pair_seats)
                cell = Cell("-".join(parts), ", ".join(labels), n, variant, list(agents), games)
                out.append(replace(cell, variant_label=", ".join(label_parts[1:])))
        return out

    def _validate(
        self,
        fail: Callable[[str, str], StudyError],
        n: int,
        agents: list[str],
        variant: dict[str, Any],
        named: tuple[str | None, dict[str, Any]],
        combo: tuple[Any, ...],
        parts: list[str],
    ) -> None:
        try:
            rust_core.validate(self.game, variant, agents)
        except ValueError as exc:
            where = _field_of(exc, named, self.axes) or _blame(
                self.game, n, agents, self.common, named, self.axes, combo
            )
            raise fail(where, f"{exc} (cell {'-'.join(parts)})") from None


def _parse_ladder(
    fail: Callable[[str, str], StudyError], raw: list[str | study_file.RungTable] | None, game: str
) -> list[tuple[str, int | None]]:
    """``grid.ladder``: rungs weakest first (shape checked by :mod:`pipeline.study_file`); every
    rung must differ and be an agent the engine knows.

    A rung's ``games`` sizes its self-play cells and the head-to-head step from the rung below
    (kept when ``--games`` changes the rest, like a line-up's ``games``)."""
    rungs: list[tuple[str, int | None]] = []
    for i, entry in enumerate(raw or []):
        where, games = f"grid.ladder[{i}]", None
        if isinstance(entry, study_file.RungTable):
            where, games, entry = f"{where}.agent", entry.games, entry.agent
        if entry in [r for r, _ in rungs]:
            raise fail(where, f"rung {entry!r} is already on the ladder; every rung must differ")
        try:  # the head-to-head steps are 2-player games of the engine's default variant
            rust_core.validate(game, {}, [entry, entry])
        except ValueError as exc:
            raise fail(where, str(exc)) from None
        rungs.append((entry, games))
    return rungs


def _step_cells(
    fail: Callable[[str, str], StudyError],
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
    for c in cells:  # one entry per variant (its id without players and line-up, its variant's words)
        if c.agents == [first] * c.n_players:
            tail = c.id.split("-", 1)[1] if "-" in c.id else ""
            tail = tail[: -len(slug(first))].rstrip("-")
            variants.setdefault(tail, (tail, c.variant_label or "", c.variant))
    out = []
    for (lower, _), (upper, games) in zip(ladder, ladder[1:], strict=False):
        for tail, mid, variant in variants.values():
            agents = [lower, upper]
            try:
                rust_core.validate(game, variant, agents)
            except ValueError as exc:
                raise fail("grid.ladder", f"{exc} (head-to-head {lower} vs {upper}, 2 players)") from None
            out.append(
                Cell(
                    id="-".join(x for x in ("p2", tail, f"{slug(lower)}_v_{slug(upper)}") if x),
                    label=", ".join(x for x in ("2 players", mid, f"{lower} vs {upper}") if x),
                    n_players=2,
                    variant=variant,
                    agents=agents,
                    games=games_for(games or default_games, 2, pair_seats),
                    variant_label=mid,
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


def _refuse_identical(fail: Callable[[str, str], StudyError], game: str, cells: list[Cell]) -> list[Cell]:
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
            raise fail(
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
    if len(text) > MAX_STUDY_BYTES:
        raise StudyError(source, "(file)", f"longer than {MAX_STUDY_BYTES:,} characters")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(source, "(toml)", f"malformed TOML: {exc}") from None
    except RecursionError:
        raise StudyError(source, "(toml)", "malformed TOML: arrays or tables nested too deeply") from None
    return parse_study(data, source, games_per_cell, base_dir, overrides)


def load_study(
    spec: str, games_per_cell: int | None = None, overrides: Mapping[str, Any] | None = None
) -> Study:
    """A study from a TOML file path or a built-in name (a path wins if both exist).

    Relative file paths in the study are resolved against the study file's directory (for a
    built-in: the built-in studies' folder); ``overrides`` as in :func:`parse_study`.
    """
    path = Path(spec)
    try:
        is_file = path.is_file()
    except OSError as exc:
        raise StudyError(spec[:200], "(study)", f"cannot read: {describe(exc)}") from None
    if is_file:
        try:
            text = read_regular(path, MAX_STUDY_BYTES).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StudyError(str(path), "(file)", f"cannot read: not UTF-8 at byte {exc.start}") from None
        except OSError as exc:
            raise StudyError(str(path), "(file)", f"cannot read: {describe(exc)}") from None
        return parse_text(text, str(path), games_per_cell, path.resolve().parent, overrides)
    if spec in builtin_names():
        folder = Path(str(resources.files("pipeline") / "studies"))
        return parse_text(builtin_text(spec), f"builtin:{spec}", games_per_cell, folder, overrides)
    raise StudyError(
        spec,
        "(study)",
        f"no such file and no built-in study of that name; built-ins: {', '.join(builtin_names())}",
    )
