"""Types of the compiled engine module (``rust_core/src/py/``); the public face is ``rust_core``.

Keep in step with the ``#[pyfunction]`` signatures: ``tests/test_packaging.py`` compares the names
and parameters of this stub with the built module.
"""

import pyarrow as pa

__version__: str

class EngineError(ValueError):
    """A bad game, option, value, file or agent; the attributes say which (``None`` where they
    do not apply)."""

    kind: str
    option: str | None
    value: str | None
    allowed: str | None
    agent: str | None

def games() -> list[str]: ...
def agents() -> list[str]: ...
def variant_schema(game: str) -> str: ...
def metric_columns(game: str) -> list[tuple[str, str, bool]]: ...
def rules_version(game: str) -> int: ...
def agent_version(spec: str) -> int: ...
def validate(
    game: str, variant_json: str, agents: list[str], files: dict[str, str] | None = None
) -> None: ...
def normalize_variant(
    game: str, variant_json: str, players: int, files: dict[str, str] | None = None
) -> str: ...
def simulate(
    game: str,
    variant_json: str,
    agents: list[str],
    seed: int,
    start: int,
    count: int,
    pair_seats: bool = False,
    files: dict[str, str] | None = None,
) -> pa.RecordBatch: ...
def replay(
    game: str,
    variant_json: str,
    agents: list[str],
    seed: int,
    game_index: int,
    pair_seats: bool = False,
    files: dict[str, str] | None = None,
) -> str: ...
def alhambra_tiles() -> list[tuple[int, str, int, str]]: ...
def alhambra_placement_error(
    city: list[tuple[int, int, int]], tile_id: int, x: int, y: int, hole_rule: str = "area"
) -> str | None: ...
def alhambra_outer_wall_length(city: list[tuple[int, int, int]], rule: str = "trail") -> int: ...
def alhambra_majority_points(counts: list[list[int]], round: int) -> list[int]: ...
