"""Cell labels and option values read as words, not code (issue 51, item 2): built-in studies'
labels and the report's cell names carry no Python or JSON spelling; old manifests' labels are
re-worded; the exact setting stays available as code in the provenance table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from analysis.content import Code
from analysis.model import cell_infos
from analysis.report.doc import Doc
from pipeline.study import builtin_names, load_study
from rundir import Cell
from rundir.cells import CHECK, PLAY, STEP, role_of, with_roles
from rundir.labels import option_label, value_words

CODE = ("'", '"', "[", "grid.", "None", "True", "False")


@pytest.mark.parametrize("name", builtin_names())
def test_builtin_labels_and_names_have_no_code_notation(name):
    cells = load_study(name).cells
    names = [c.name for c in cell_infos(cells)]
    for text in [c.label for c in cells] + names:
        assert not any(x in text for x in CODE), text


def test_values_in_words():
    assert value_words([4, 4, "third"]) == "4, 4, third"
    assert value_words(None) == "none" and value_words(False) == "off" and value_words(0.5) == "0.5"
    assert option_label("dirk_tiles", [4, 4, "third"]) == "dirk_tiles=(4, 4, third)"
    assert option_label("money_copies", 1) == "money_copies=1"


def test_an_old_manifest_label_is_reworded_and_its_cell_gets_its_role_and_variant_words():
    variant = {"money_copies": 1, "dirk_tiles": [4, 4, "third"], "start": None}
    old = "2 players, money_copies=1, dirk_tiles=[4, 4, 'third'], start=None, greedy"
    study = load_study("alhambra-dirk")
    cell = Cell("c", old, 2, variant, ["greedy"] * 2, 10)  # as a manifest without role and words
    (new,) = with_roles(replace(study, cells=[cell], ladder=[])).cells
    assert new.label == "2 players, money_copies=1, dirk_tiles=(4, 4, third), start=none, greedy"
    assert new.variant_label == "money_copies=1, dirk_tiles=(4, 4, third), start=none"
    assert new.role == PLAY and new.lineup == "greedy"


@pytest.mark.parametrize("name", builtin_names())
def test_an_old_manifest_reads_as_the_cells_the_study_resolves_today(name):
    study = load_study(name)  # role and variant words made once, when the study is resolved
    bare = replace(study, cells=[replace(c, role="", variant_label=None) for c in study.cells])
    assert with_roles(bare) == study  # what a manifest without them is read as


def test_roles_of_a_ladder_self_play_steps_and_checks():
    ladder = ["greedy", "mcts:iters=100", "xmcts:iters=300"]
    assert role_of(["greedy"] * 3, ladder) == PLAY and role_of(["greedy", "random"], ladder) == PLAY
    assert role_of(["greedy", "mcts:iters=100"], ladder) == STEP
    assert role_of(["xmcts:iters=300", "mcts:iters=100"], ladder) == STEP
    assert role_of(["greedy", "xmcts:iters=300"], ladder) == CHECK
    assert role_of(["greedy", "mcts:iters=100"], []) == PLAY


def test_the_exact_setting_is_a_code_cell(tmp_path):
    doc = Doc(tmp_path, {}, {})
    doc.table(["cell", "variant"], [["a", Code("handicap = [0, -4]")]])
    assert "| a | `handicap = [0, -4]` |" in doc.md
    assert "<code>handicap = [0, -4]</code>" in doc.html[-1]
