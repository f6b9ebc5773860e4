"""Types of the compiled engine module (``rust_core/src/py/``); the public face is ``rust_core``.

Keep in step with the ``#[pyfunction]`` signatures: ``tests/test_packaging.py`` compares the names
and parameters of this stub with the built module.
"""

import pyarrow as pa

__version__: str

def games() -> list[str]: ...
def agents() -> list[str]: ...
def variant_schema(game: str) -> str: ...
def metric_columns(game: str) -> list[tuple[str, str, bool]]: ...
def validate(game: str, variant_json: str, agents: list[str]) -> None: ...
def simulate(
    game: str,
    variant_json: str,
    agents: list[str],
    seed: int,
    start: int,
    count: int,
    pair_seats: bool = False,
) -> pa.RecordBatch: ...
def replay(
    game: str,
    variant_json: str,
    agents: list[str],
    seed: int,
    game_index: int,
    pair_seats: bool = False,
) -> str: ...
def alhambra_tiles() -> list[tuple[int, str, int, str]]: ...
def alhambra_placement_error(
    city: list[tuple[int, int, int]], tile_id: int, x: int, y: int, hole_rule: str = "area"
) -> str | None: ...
def alhambra_outer_wall_length(city: list[tuple[int, int, int]], rule: str = "trail") -> int: ...
def alhambra_majority_points(counts: list[list[int]], round: int) -> list[int]: ...
