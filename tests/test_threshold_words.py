"""One wording of the practical threshold (issue 51, item 5): every page spells ``±1 point`` through
:func:`analysis.claims.band_words` / :func:`analysis.claims.threshold_points`, with no copies."""

from __future__ import annotations

import pathlib

import pytest

from analysis import atlas, claims, findings, switches

ROOT = pathlib.Path(__file__).resolve().parents[1] / "analysis"


@pytest.mark.parametrize(("t", "words"), [(0.01, "±1 point"), (0.02, "±2 points"), (0.025, "±2.5 points")])
def test_one_spelling(t, words):
    assert claims.band_words(t) == words == f"±{atlas.points_words(t)}" == findings.threshold_words(t)


def test_no_module_spells_the_threshold_itself():
    assert atlas.points_words is claims.threshold_points
    assert not hasattr(switches, "_band")
    copies = [
        p.relative_to(ROOT.parent).as_posix()
        for p in ROOT.rglob("*.py")
        if p.name != "claims.py" and "point{'' if" in p.read_text(encoding="utf-8")
    ]
    assert not copies, copies
