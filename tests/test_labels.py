"""Cell labels and option values read as words, not code (issue 51, item 2): built-in studies'
labels and the report's cell names carry no Python or JSON spelling; old manifests' labels are
re-worded; the exact setting stays available as code in the provenance table."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from analysis.content import Code
from analysis.model import cell_infos, cell_label
from analysis.report.doc import Doc
from pipeline.study import builtin_names, load_study
from rundir.labels import option_label, value_words

CODE = ("'", '"', "[", "grid.", "None", "True", "False")


@pytest.mark.parametrize("name", builtin_names())
def test_builtin_labels_and_names_have_no_code_notation(name):
    cells = load_study(name).cells
    names = [c.name for c in cell_infos([asdict(c) for c in cells])]
    for text in [c.label for c in cells] + names:
        assert not any(x in text for x in CODE), text


def test_values_in_words():
    assert value_words([4, 4, "third"]) == "4, 4, third"
    assert value_words(None) == "none" and value_words(False) == "off" and value_words(0.5) == "0.5"
    assert option_label("dirk_tiles", [4, 4, "third"]) == "dirk_tiles=(4, 4, third)"
    assert option_label("money_copies", 1) == "money_copies=1"


def test_an_old_manifest_label_is_reworded():
    variant = {"money_copies": 1, "dirk_tiles": [4, 4, "third"], "start": None}
    old = "2 players, money_copies=1, dirk_tiles=[4, 4, 'third'], start=None, greedy"
    new = cell_label({"id": "c", "label": old, "variant": variant, "agents": ["greedy"] * 2})
    assert new == "2 players, money_copies=1, dirk_tiles=(4, 4, third), start=none, greedy"


def test_the_exact_setting_is_a_code_cell(tmp_path):
    doc = Doc(tmp_path, {}, {})
    doc.table(["cell", "variant"], [["a", Code("handicap = [0, -4]")]])
    assert "| a | `handicap = [0, -4]` |" in doc.md
    assert "<code>handicap = [0, -4]</code>" in doc.html[-1]
