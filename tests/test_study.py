"""Study files: parsing, validation messages, cells, built-ins; bad input exits 2 before anything starts."""

from __future__ import annotations

import re

import pytest

import balancelab_cli as cli
from pipeline.study import StudyError, builtin_names, load_study

GOOD = """\
name = "t"
game = "alhambra"
seed = 3
games_per_cell = 10
pair_seats = true
[grid]
players = [2, 3]
agents = ["random"]
[grid.options]
start_player = ["fewest_cards", "random"]
"""


def test_builtins_load_with_readable_hive_safe_ids():
    assert {"alhambra-dirk", "alhambra-start-player"} <= set(builtin_names())
    dirk = load_study("alhambra-dirk")
    assert [c.id for c in dirk.cells] == [
        "p2-dirk_official",
        "p2-no_dirk",
        "p2-dirk_4_4_third",
        "p2-dirk_money_3",
    ]
    assert dirk.cell("p2-no_dirk").variant == {"dirk": False}
    assert dirk.cell("p2-dirk_4_4_third").variant == {"dirk_tiles": [4, 4, "third"]}
    assert dirk.cell("p2-dirk_money_3").variant == {"money_copies": 3}
    assert dirk.pair_seats
    start = load_study("alhambra-start-player")
    assert sorted({c.n_players for c in start.cells}) == [2, 3, 4, 5, 6]
    assert {c.variant["start_player"] for c in start.cells} == {"fewest_cards", "random"}
    for study in (dirk, start):
        for cell in study.cells:
            assert re.fullmatch(r"[A-Za-z0-9_-]+", cell.id)
            assert len(cell.agents) == cell.n_players
            assert cell.games % cell.n_players == 0


def test_grid_is_players_times_options_and_games_override_rounds_to_rotations(write_study):
    study = load_study(str(write_study(text=GOOD)), games_per_cell=100)
    assert [c.id for c in study.cells] == [
        "p2-start_player_fewest_cards",
        "p2-start_player_random",
        "p3-start_player_fewest_cards",
        "p3-start_player_random",
    ]
    assert [c.games for c in study.cells] == [100, 100, 102, 102]
    assert study.games_per_cell == 100


def test_lineups_of_one_length_only_make_cells_for_that_player_count(write_study):
    text = GOOD.replace('agents = ["random"]', 'agents = [["random", "random", "random"]]')
    study = load_study(str(write_study(text=text)))
    assert [c.id for c in study.cells] == ["p3-start_player_fewest_cards", "p3-start_player_random"]
    assert all(c.agents == ["random"] * 3 for c in study.cells)
    # the same line-up twice would make the same cells twice
    text = GOOD.replace('agents = ["random"]', 'agents = ["random", ["random", "random", "random"]]')
    with pytest.raises(StudyError) as info:
        load_study(str(write_study(text=text, filename="dup.toml")))
    assert info.value.field == "grid" and "p3-start_player_random-random" in str(info.value)


def test_a_lineup_table_keeps_its_own_games_when_games_per_cell_changes(write_study):
    text = GOOD.replace('agents = ["random"]', 'agents = ["random", { agents = "greedy", games = 7 }]')
    path = write_study(text=text)
    for override, random_games in ((None, [10, 10, 12, 12]), (100, [100, 100, 102, 102])):
        study = load_study(str(path), override)
        games = {c.id: c.games for c in study.cells}
        assert [games[i] for i in games if i.endswith("-random")] == random_games
        # 7 games, rounded up to whole seat rotations
        assert [games[i] for i in games if i.endswith("-greedy")] == [8, 8, 9, 9]
    assert all(c.agents == ["greedy"] * c.n_players for c in study.cells if c.id.endswith("-greedy"))
    for entry, field, needle in [
        ('{ agents = "greedy", games = 0 }', "grid.agents[1].games", "integer 1..1000000000"),
        ('{ agents = "greedy", games = true }', "grid.agents[1].games", "integer 1..1000000000"),
        ('{ agents = "greedy", games = 1000000001 }', "grid.agents[1].games", "integer 1..1000000000"),
        ('{ agents = "greedy", colour = 1 }', "grid.agents[1].colour", "allowed: agents, games"),
        ("{ games = 5 }", "grid.agents[1].agents", "missing"),
        ("{ agents = 5 }", "grid.agents[1].agents", "agent spec"),
    ]:
        bad = GOOD.replace('agents = ["random"]', f'agents = ["random", {entry}]')
        with pytest.raises(StudyError) as info:
            load_study(str(write_study(text=bad, filename="bad.toml")))
        assert info.value.field == field and needle in info.value.message, str(info.value)


@pytest.mark.parametrize(
    ("change", "field", "needles"),
    [
        (('game = "alhambra"', 'game = "chess"'), "game", ["chess", "alhambra"]),
        (("seed = 3", 'seed = "three"'), "seed", ["integer"]),
        (("seed = 3", "seed = -1"), "seed", ["integer"]),
        (("games_per_cell = 10", "games_per_cell = 0"), "games_per_cell", ["integer"]),
        (("games_per_cell = 10", "games_per_cell = 1000000001"), "games_per_cell", ["1..1000000000"]),
        (("pair_seats = true", "pair_seats = 1"), "pair_seats", ["true or false"]),
        (("players = [2, 3]", "players = []"), "grid.players", ["non-empty"]),
        (("players = [2, 3]", "players = [2, 9]"), "grid.players", ["2..=6"]),
        (('agents = ["random"]', "agents = []"), "grid.agents", ["random"]),
        (('agents = ["random"]', 'agents = ["randm"]'), "grid.agents", ["randm", "allowed: random"]),
        (('agents = ["random"]', 'agents = [["random"] ]'), "grid.agents[0]", ["matches none"]),
        (
            ('start_player = ["fewest_cards", "random"]', "start_player = []"),
            "grid.options.start_player",
            ["non-empty"],
        ),
        (("start_player = [", "start_playr = ["), "grid.options.start_playr", ["allowed:", "start_player"]),
        (
            ('"fewest_cards", "random"]', '"fewest_cards", "sometimes"]'),
            "grid.options.start_player",
            ["sometimes", "most_cards"],
        ),
        (("seed = 3", "seed = 3\ncolour = 1"), "colour", ["allowed:", "games_per_cell"]),
        (("[grid]", "[grid]\nvariant = {}"), "grid.variant", ["allowed:", "variants"]),
    ],
)
def test_bad_fields_name_file_field_and_allowed_values(write_study, change, field, needles):
    old, new = change
    assert old in GOOD
    path = write_study(text=GOOD.replace(old, new, 1))
    with pytest.raises(StudyError) as info:
        load_study(str(path))
    assert info.value.field == field
    assert info.value.source == str(path)
    for needle in needles:
        assert needle in str(info.value)


def test_unknown_option_and_value_in_named_variants(write_study):
    base = GOOD.replace('[grid.options]\nstart_player = ["fewest_cards", "random"]\n', "[grid.variants]\n")
    with pytest.raises(StudyError) as info:
        load_study(str(write_study(text=base + "mine = { dirkk = false }\n")))
    assert info.value.field == "grid.variants.mine.dirkk"
    assert "dirk_tiles" in str(info.value)
    with pytest.raises(StudyError) as info:
        load_study(str(write_study(text=base + "mine = { dirk = 3 }\n")))
    assert info.value.field == "grid.variants.mine"
    assert "true | false" in str(info.value)
    with pytest.raises(StudyError) as info:
        load_study(str(write_study(text=base)))
    assert info.value.field == "grid.variants"


def test_missing_grid_and_unknown_study(write_study):
    with pytest.raises(StudyError) as info:
        load_study(str(write_study(text=GOOD.split("[grid]")[0])))
    assert info.value.field == "grid"
    with pytest.raises(StudyError) as info:
        load_study("no-such-study")
    assert "alhambra-dirk" in str(info.value)


def test_cli_bad_study_exits_2_before_writing_anything(write_study, tmp_path, capsys):
    path = write_study(text='name = "x"\ngame = [\n')
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "malformed TOML" in err
    assert not out.exists()
    bad_agent = write_study(text=GOOD.replace('["random"]', '["mcts:bogus"]'), filename="agent.toml")
    assert cli.main(["run", str(bad_agent), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(bad_agent) in err and "grid.agents" in err and "allowed" in err
    assert not out.exists()


def test_cli_bad_numbers_exit_2(capsys):
    for argv in (["run", "alhambra-dirk", "--games", "0"], ["run", "alhambra-dirk", "--workers", "x"]):
        with pytest.raises(SystemExit) as info:
            cli.main(argv)
        assert info.value.code == 2
    capsys.readouterr()


def test_cli_studies_lists_builtins(capsys):
    assert cli.main(["studies"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith("alhambra-dirk ") for line in lines)
    assert any(line.startswith("alhambra-start-player ") for line in lines)
    assert any(line.startswith("hiroba-start-player ") for line in lines)
    assert cli.main(["studies", "--show", "alhambra-dirk"]) == 0
    assert "[grid.variants]" in capsys.readouterr().out


def test_cli_variant_sets_study_wide_options_with_paths_from_the_cwd(tmp_path, monkeypatch):
    import rust_core.hiroba

    (tmp_path / "sets").mkdir()
    tiles = tmp_path / "sets" / "mine.txt"
    tiles.write_bytes(open(rust_core.hiroba.default_tiles_path(), "rb").read())
    monkeypatch.chdir(tmp_path)
    s = load_study("hiroba-start-player", 12, {"tiles": "sets/mine.txt", "line_rule": "last"})
    assert {c.variant["tiles"] for c in s.cells} == {str(tiles.resolve())}
    assert {c.variant["line_rule"] for c in s.cells} == {"last"}
    with pytest.raises(StudyError, match=r"--variant: tiles: no such file"):
        load_study("hiroba-start-player", 12, {"tiles": "sets/missing.txt"})
    with pytest.raises(StudyError, match=r"--variant: colour: unknown variant option of hiroba; allowed: "):
        load_study("hiroba-start-player", 12, {"colour": "red"})
    # alhambra-dirk varies `dirk` per cell: a study-wide value would silently merge its cells.
    with pytest.raises(StudyError, match=r"--variant: dirk: the study's grid sets this option per cell"):
        load_study("alhambra-dirk", 12, {"dirk": False})


VARIANT_LINEUPS = """\
name = "t"
game = "alhambra"
seed = 3
games_per_cell = 10
pair_seats = true
[grid]
players = [2, 3]
agents = ["random", { agents = ["greedy", "greedy"], games = 4, variants = ["cell"] }]
[grid.variants]
area = {}
cell = { hole_rule = "cell" }
"""


def test_a_lineup_can_play_only_some_named_variants(write_study):
    study = load_study(str(write_study(text=VARIANT_LINEUPS)))
    greedy = [c for c in study.cells if "greedy" in c.agents]
    assert [c.id for c in greedy] == ["p2-cell-greedy"] and greedy[0].games == 4
    assert len(study.cells) == 2 * 2 + 1, "random plays every variant at both player counts"


def test_a_lineup_naming_an_unknown_variant_is_refused(write_study):
    path = write_study(text=VARIANT_LINEUPS.replace('variants = ["cell"]', 'variants = ["cell", "celll"]'))
    with pytest.raises(StudyError) as info:
        load_study(str(path))
    assert info.value.field == "grid.agents[1].variants[1]"
    assert "celll" in str(info.value) and "allowed: area, cell" in str(info.value)
