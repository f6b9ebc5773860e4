"""The shape of a study file, declared with pydantic: every field, its type and range.

:func:`validate` turns a parsed TOML table into a :class:`StudyFile` or raises
:class:`StudyShapeError` naming the first bad field by its TOML path (``grid.ladder[1].agent``)
with what that field must be (:func:`expectations`) and what it got. What needs the engine (known
games, agents and variant options, cells that can be played) is judged afterwards, in
:mod:`pipeline.study`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError

from rundir.layout import MAX_GAMES, MAX_PLAYERS

MAX_SEED = 2**63 - 1
#: A study's name and a named variant's name, matched whole (no final newline).
NAME_PATTERN = r"\A[A-Za-z0-9][A-Za-z0-9_-]{0,99}\Z"
NAME_RULE = "1 to 100 letters, digits, '-' and '_' (a letter or digit first)"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")


def _kind(value: Any) -> str:
    """The union member a value is judged as: a table, an array, else a string."""
    return "table" if isinstance(value, dict) else "specs" if isinstance(value, list) else "spec"


Games = Annotated[int, Field(ge=1, le=MAX_GAMES)]
Specs = Annotated[list[str], Field(min_length=1)]
AgentOrAgents = Annotated[
    Union[Annotated[str, Tag("spec")], Annotated[Specs, Tag("specs")]], Discriminator(_kind)
]


class LineupTable(_Model):
    """``{ agents = "greedy", games = 600 }``: a line-up with its own games per cell (and,
    with ``variants = ["defaults", ...]``, played only with those named variants)."""

    agents: AgentOrAgents
    games: Games | None = None
    variants: Annotated[list[str], Field(min_length=1)] | None = None


class RungTable(_Model):
    """``{ agent = "mcts:iters=1000", games = 400 }``: a ladder rung with its own games."""

    agent: str
    games: Games | None = None


Lineup = Annotated[
    Union[Annotated[str, Tag("spec")], Annotated[Specs, Tag("specs")], Annotated[LineupTable, Tag("table")]],
    Discriminator(_kind),
]
Rung = Annotated[
    Union[Annotated[str, Tag("spec")], Annotated[RungTable, Tag("table")]],
    Discriminator(lambda v: "table" if isinstance(v, dict) else "spec"),
]


class RangeTable(_Model):
    """``{ from = 0, to = 6, step = 1 }``: a numeric option's values from ``from`` to ``to``."""

    start: Annotated[float, Field(alias="from", allow_inf_nan=False)]
    to: Annotated[float, Field(allow_inf_nan=False)]
    step: Annotated[float, Field(gt=0, allow_inf_nan=False)]


OptionValues = Annotated[
    Union[Annotated[list[Any], Field(min_length=1), Tag("specs")], Annotated[RangeTable, Tag("table")]],
    Discriminator(lambda v: "table" if isinstance(v, dict) else "specs"),
]
VariantName = Annotated[str, Field(pattern=NAME_PATTERN)]
Options = dict[str, Any]


class Grid(_Model):
    """``[grid]``: player counts x named variants x option values x line-ups (and a ladder)."""

    players: Annotated[list[Annotated[int, Field(ge=1, le=MAX_PLAYERS)]], Field(min_length=1)]
    agents: list[Lineup] | None = None
    ladder: Annotated[list[Rung], Field(min_length=2)] | None = None
    variants: Annotated[dict[VariantName, Options], Field(min_length=1)] | None = None
    options: dict[str, OptionValues] = Field(default_factory=dict)


class StudyFile(_Model):
    """A study file as written (see README.md, "Study files")."""

    name: Annotated[str, Field(pattern=NAME_PATTERN)]
    description: str = ""
    game: str
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    games_per_cell: Games
    pair_seats: bool = False
    record_positions: bool = False
    luck: bool = False
    luck_value: str = "learned"
    estimator: Literal["raw", "corrected", "fitted"] = "raw"
    official: Options | None = None
    practical_threshold: Annotated[float, Field(gt=0, lt=1, allow_inf_nan=False)] | None = None
    variant: Options = Field(default_factory=dict)
    grid: Grid


TOP_KEYS = tuple(StudyFile.model_fields)
GRID_KEYS = tuple(Grid.model_fields)
#: Union tags, and pydantic's marker of a dict key, are not fields: left out of paths.
_NOT_FIELDS = {"spec", "specs", "table", "[key]"}
#: Fields whose next path element is a key of the user's (a variant or option name).
_TABLES = {"variant", "variants", "options"}


def expectations(agents: list[str]) -> dict[str, str]:
    """What each field must be, by path pattern (``[]`` an array item, ``*`` a table key)."""
    lineup = (
        "an agent spec (every seat), an array of specs (one per player) or a table "
        f"{{ agents = ..., games = N }}; agents: {', '.join(agents)}"
    )
    rung_shape = (
        "an array of at least 2 agent specs, weakest first, each a spec string or a table "
        f'{{ agent = "mcts:iters=1000", games = N }}; agents: {", ".join(agents)}'
    )
    return {
        "name": NAME_RULE,
        "description": "a string",
        "game": "a string",
        "seed": f"an integer 0..{MAX_SEED}",
        "games_per_cell": f"an integer 1..{MAX_GAMES}",
        "pair_seats": "true or false",
        "record_positions": "true or false",
        "luck": "true or false",
        "estimator": (
            '"raw", "corrected" or "fitted" (the start-player advantage read from the win share, from '
            "the win share minus the measured luck, or minus the luck times a slope fitted on the deals "
            "before: both need luck = true)"
        ),
        "official": "a table of variant options that names exactly one cell: the published rules",
        "practical_threshold": "a share between 0 and 1 (0.01 = 1 point)",
        "variant": "a table of variant options",
        "grid": f"a table with {', '.join(GRID_KEYS)}",
        "grid.players": "a non-empty array of player counts",
        "grid.players[]": f"a player count, an integer 1..{MAX_PLAYERS}",
        "grid.agents": f"a non-empty array of line-ups: {lineup}",
        "grid.agents[]": f"an agent spec string or an array of them, or a table; {lineup}",
        "grid.agents[].agents": "an agent spec or an array of specs",
        "grid.agents[].agents[]": "an agent spec string",
        "grid.agents[][]": "an agent spec string",
        "grid.agents[].games": f"an integer 1..{MAX_GAMES}",
        "grid.agents[].variants": "a non-empty array of names of grid.variants",
        "grid.agents[].variants[]": "a name of grid.variants",
        "grid.ladder": rung_shape,
        "grid.ladder[]": 'an agent spec string or a table { agent = "mcts:iters=1000", games = N }',
        "grid.ladder[].agent": 'an agent spec, e.g. "mcts:iters=300"',
        "grid.ladder[].games": f"a positive integer up to {MAX_GAMES}",
        "grid.variants": "a non-empty table of named variants, e.g. no_dirk = { dirk = false }",
        "grid.variants.*": f"a table of variant options named with {NAME_RULE}",
        "grid.options": "a table of option = [values]",
        "grid.options.*": "a non-empty array of values, or a numeric range { from = 0, to = 6, step = 1 }",
        "grid.options.*.from": "a number",
        "grid.options.*.to": "a number",
        "grid.options.*.step": "a positive number",
    }


class StudyShapeError(ValueError):
    """A field of the wrong type, range or shape: ``field`` (its TOML path) and ``message``."""

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        self.message = message
        super().__init__(f"{field_name}: {message}")


def _path(loc: tuple[int | str, ...]) -> tuple[str, str]:
    """(TOML path, its pattern in :func:`expectations`) of a pydantic error location."""
    path, pattern, after_table = "", "", False
    for part in loc:
        if isinstance(part, int):
            path, pattern = f"{path}[{part}]", f"{pattern}[]"
        elif part not in _NOT_FIELDS:
            path = f"{path}.{part}" if path else part
            pattern = f"{pattern}.{'*' if after_table else part}" if pattern else part
        after_table = isinstance(part, str) and part in _TABLES and not after_table
    return path, pattern


def _type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string", list: "array", dict: "table"}.get(
        type(value), type(value).__name__
    )


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def validate(data: Any, agents: list[str]) -> StudyFile:
    """The study file of ``data``, or :class:`StudyShapeError` for its first bad field."""
    try:
        return StudyFile.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "extra_forbidden":
        field_name, _ = _path(loc)
        parent = _path(loc[:-1])[1]
        allowed = {"": TOP_KEYS, "grid": GRID_KEYS}.get(parent)
        if allowed is None and parent.startswith("grid.options"):
            allowed = ("from", "to", "step")
        if allowed is None:
            allowed = ("agent", "games") if parent.startswith("grid.ladder") else ("agents", "games")
        raise StudyShapeError(field_name, f"unknown field; allowed: {', '.join(allowed)}")
    field_name, pattern = _path(loc)
    expect = expectations(agents).get(pattern, "valid")
    if kind == "missing":
        raise StudyShapeError(field_name, f"missing ({expect})")
    value = error.get("input")
    raise StudyShapeError(field_name, f"must be {expect}, got {_type_name(value)} {_shown(value)}")
