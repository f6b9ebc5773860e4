"""What every game in the registry owes the Python face, one test per shape, parametrised over
``rust_core.games()`` (issue 55): the result columns (the common ones, then the game's metric
columns, each described and documented on the game's page), determinism (a game depends only on
the seed and its index), a replay ending in the simulated rows, variant options refused naming the
option and the allowed values, file-path options (the engine's own file packaged, valid and the
built-in rules; a broken file refused naming the file, the option and the rule) and the built-in
``GAME-start-player`` study.

A new game gets all of these by its registry line alone; the tables below only add cases (another
variant to replay, a hand-broken file naming one rule). The hand-worked rule positions of each
game stay in its own module (``test_hiroba.py``, ``test_maharaja.py``, ...)."""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pytest

import balancelab_cli as cli
import rust_core
from pipeline.study import load_study

GAMES = rust_core.games()
#: Games that are real games (not the calibration coin): they have a built-in start-player study.
BOARD_GAMES = [g for g in GAMES if g != "coin"]
COMMON = [
    "game",
    "rules_version",
    "game_index",
    "deal_index",
    "player",
    "seat",
    "agent",
    "score",
    "handicap",
    "tiebreak",
    "rank",
    "win",
    "turns",
    "capped",
]
DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "games"
#: Variants played besides the defaults ({} for every game) by the determinism and replay tests.
VARIANTS: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in GAMES] + [
    ("alhambra", {"start_player": "random", "hole_rule": "cell"}),
    ("alhambra", {"leftover_rule": "count"}),
    ("hiroba", {"line_rule": "last"}),
    ("taluva", {"expansion": "connected", "new_hut": "not_adjacent"}),
]
#: Every file-path option of every game, from the variant schemas.
PATH_OPTIONS = [(g, o["name"]) for g in GAMES for o in rust_core.variant_schema(g) if o["path"]]
#: Hand-broken copies of the engine's own files: (game, option, old text, new text, the rule named).
BAD_FILES = [
    ("hiroba", "tiles", "tile 12\nA   A   B\nA   A*  B\nP   B   B\n", "", "expected 12 tiles, found 11"),
    (
        "hiroba",
        "tiles",
        "tile 7\nA   P   B\nA   B   B",
        "tile 7\nA   P   B\nB   A   B",
        "tile 7: garden A is not connected",
    ),
    (
        "hiroba",
        "tiles",
        "tile 2\nA   P   B\nA   B   B\nB   B   B",
        "tile 2\nA   P   B\nA   B   B\nB   B   P",
        "tile 2: 2 pond cells, need exactly 1",
    ),
    (
        "maharaja",
        "map",
        "road Delhi Jaipur   1",
        "road Jaipur Jaipur 1",
        "road Jaipur-Jaipur: a road must join two different cities",
    ),
    ("maharaja", "map", "road Delhi Jaipur   1", "", "city Jaipur: on 2 roads, needs at least 3"),
    (
        "maharaja",
        "map",
        "road Delhi Jaipur   1",
        "road Delhi Jaipur 3",
        "road Delhi-Jaipur: 3 villages, allowed 1 or 2",
    ),
    ("maharaja", "map", "city  Jaipur    3    8   1", "city  Jaipur    30   30   1", "crosses road"),
    (
        "titania",
        "board",
        "space   4  -2  crane",
        "space   4  -2  reward  points:1",
        "space (4, -1) site: no crane next to it",
    ),
    (
        "titania",
        "board",
        "space   2   0  fog",
        "space   2   0  reward  ship",
        "21 fog spaces, need exactly 22",
    ),
    (
        "titania",
        "board",
        "space   5  -1  reward  tile",
        "space   9   9  reward  tile",
        "space (9, 9) reward: not connected",
    ),
]


def _two(game: str) -> list[str]:
    lo, _ = rust_core.player_range(game)
    return (["greedy", "random"] * 3)[: max(lo, 2)]


def _documented(name: str, page: str) -> bool:
    """``name`` on the game's page: as itself, under a ``prefix_<kind>`` family, or in a numbered
    range ``city_1_round`` … ``city_7_round``."""
    if f"`{name}`" in page:
        return True
    for family in re.findall(r"`(\w*<\w+>\w*)`", page):
        if re.fullmatch(re.sub(r"<\w+>", r"[a-z0-9]+", family), name):
            return True
    for first, last in re.findall(r"`(\w+)` … `(\w+)`", page):
        lo, hi = re.sub(r"\d+", "#", first), re.sub(r"\d+", "#", last)
        if lo == hi and re.sub(r"\d+", "#", name) == lo:
            return True
    return False


@pytest.mark.parametrize("game", GAMES)
def test_columns_are_the_common_ones_then_the_described_and_documented_metrics(game):
    agents = _two(game)
    batch = rust_core.simulate(game, {}, agents, seed=2, start=0, count=6)
    metrics = [c["name"] for c in rust_core.metric_columns(game)]
    assert batch.schema.names == COMMON + metrics
    assert batch.num_rows == 6 * len(agents) and set(batch.column("game").to_pylist()) == {game}
    assert all(batch.schema.field(name).metadata[b"description"] for name in batch.schema.names)
    page = (DOCS / f"{game}.md").read_text()
    assert [n for n in metrics if not _documented(n, page)] == [], f"docs/games/{game}.md"


@pytest.mark.parametrize("pair_seats", [False, True])
@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_games_depend_only_on_the_seed_and_their_index(game, variant, pair_seats):
    agents = _two(game)

    def play(seed: int, start: int, count: int) -> pa.RecordBatch:
        return rust_core.simulate(game, variant, agents, seed, start, count, pair_seats=pair_seats)

    whole = play(11, 0, 8)
    assert whole.equals(play(11, 0, 8))
    parts = pa.Table.from_batches([play(11, 0, 4), play(11, 4, 4)]).combine_chunks()
    assert pa.Table.from_batches([whole]).equals(parts)
    assert not whole.equals(play(12, 0, 8))


@pytest.mark.parametrize("pair_seats", [False, True])
@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_a_replay_ends_in_the_simulated_rows(game, variant, pair_seats):
    lo, hi = rust_core.player_range(game)
    agents = (["greedy", "random", "random"] * 2)[: max(lo, min(3, hi))]
    rows = rust_core.simulate(game, variant, agents, 9, 4, 1, pair_seats=pair_seats).to_pylist()
    log = rust_core.replay(game, variant, agents, 9, 4, pair_seats=pair_seats)
    assert isinstance(log["events"], list) and log["events"]
    assert (log["game"], log["game_index"], log["turns"]) == (game, 4, rows[0]["turns"])
    by_player = {r["player"]: r for r in log["result"]}
    assert sorted(by_player) == sorted(r["player"] for r in rows)
    metrics = [c["name"] for c in rust_core.metric_columns(game)]
    for row in rows:
        for key in ["score", "handicap", "tiebreak", "rank", "win", "seat", *metrics]:
            assert by_player[row["player"]][key] == row[key], key


@pytest.mark.parametrize("game", GAMES)
def test_bad_options_are_refused_naming_the_option_and_the_allowed(game):
    agents = _two(game)
    schema = rust_core.variant_schema(game)
    names = ", ".join(o["name"] for o in schema)
    with pytest.raises(ValueError) as err:
        rust_core.validate(game, {"nonsense": 1}, agents)
    assert f'unknown variant option "nonsense" for game "{game}"; allowed: {names}' in str(err.value)
    for option in schema:
        with pytest.raises(ValueError) as err:
            rust_core.validate(game, {option["name"]: "sometimes"}, agents)
        if option["path"]:
            assert f"'{option['name']}'" in str(err.value) and "'sometimes'" in str(err.value)
        else:
            expected = f'bad value "sometimes" for option "{option["name"]}"; allowed: {option["allowed"]}'
            assert expected in str(err.value)


def _check(game: str, option: str) -> tuple[pathlib.Path, Callable[[pathlib.Path], None]]:
    """The engine's own file for ``option`` and the game's checker of such files."""
    module = getattr(rust_core, game)
    return getattr(module, f"default_{option}_path")(), getattr(module, f"check_{option}")


@pytest.mark.parametrize("game", GAMES)
def test_path_options_are_the_games_own_files(game):
    module = getattr(rust_core, game, None)
    files = {n[len("default_") : -len("_path")] for n in dir(module) if re.fullmatch(r"default_\w+_path", n)}
    assert files == {o for g, o in PATH_OPTIONS if g == game}
    for option in files:
        (schema,) = [o for o in rust_core.variant_schema(game) if o["name"] == option]
        assert schema["default"] is None and "built-in" in schema["allowed"]


@pytest.mark.parametrize(("game", "option"), PATH_OPTIONS)
def test_the_engines_own_file_is_packaged_valid_and_the_builtin_rules(game, option):
    path, check = _check(game, option)
    assert path.is_file() and path.name == f"{game}_{option}.txt"
    check(path)
    agents = ["random"] * rust_core.player_range(game)[0]
    a = rust_core.simulate(game, {option: str(path)}, agents, 5, 0, 20)
    assert a.equals(rust_core.simulate(game, {}, agents, 5, 0, 20))


def _refused(game: str, option: str, path: pathlib.Path, needle: str) -> None:
    _, check = _check(game, option)
    with pytest.raises(ValueError) as err:
        check(path)
    assert needle in str(err.value) and str(path) in str(err.value) and f'"{option}"' in str(err.value)
    agents = ["random"] * rust_core.player_range(game)[0]
    with pytest.raises(ValueError, match=re.escape(needle)):
        rust_core.simulate(game, {option: str(path)}, agents, 1, 0, 1)


@pytest.mark.parametrize(("game", "option"), PATH_OPTIONS)
def test_a_file_that_is_no_such_file_is_refused_naming_it_and_the_option(game, option, tmp_path):
    path = tmp_path / f"{option}.txt"
    path.write_text("nonsense\n")
    _refused(game, option, path, str(path))


@pytest.mark.parametrize(
    ("game", "option", "old", "new", "needle"), BAD_FILES, ids=[f"{b[0]}-{b[4][:24]}" for b in BAD_FILES]
)
def test_a_broken_file_is_refused_naming_the_file_the_option_and_the_rule(
    game, option, old, new, needle, tmp_path
):
    text = _check(game, option)[0].read_text()
    assert old in text
    path = tmp_path / f"{option}.txt"
    path.write_text(text.replace(old, new, 1))
    _refused(game, option, path, needle)


def test_every_path_option_has_a_broken_file_case():
    assert {(g, o) for g, o, *_ in BAD_FILES} == set(PATH_OPTIONS)


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_the_builtin_start_player_study_is_listed_and_plays_every_player_count(game, capsys):
    name = f"{game}-start-player"
    study = load_study(name)
    assert cli.main(["studies"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(f"{name} "))
    assert f" {len(study.cells)} cells," in line
    assert study.game == game and study.pair_seats and study.files == {}
    lo, hi = rust_core.player_range(game)
    assert sorted({c.n_players for c in study.cells}) == list(range(lo, hi + 1))
    assert "greedy" in {c.agents[0] for c in study.cells}
    for cell in study.cells:
        assert len(set(cell.agents)) == 1 and cell.games % cell.n_players == 0, cell.id
        rust_core.validate(game, cell.variant, list(cell.agents))
