"""A game whose score is not in points (Taluva's ranking key) shows no winning margin and no mean
score; a game scored in points (Alhambra) keeps both (issue 51, item 1)."""

from __future__ import annotations

import pathlib

import pytest
from helpers_runs import write_run

from analysis.games import section
from analysis.report import sections
from analysis.report.doc import Doc
from analysis.study import analyse


def _outcomes_md(tmp_path: pathlib.Path, game: str) -> str:
    cells = [{"id": "p2", "label": "2 players", "agents": ["random"] * 2, "games": 12}]
    run = write_run(tmp_path / game, name=f"{game}-mini", game=game, pair_seats=True, cells=cells)
    s = analyse(run)
    doc = Doc(tmp_path / f"{game}-out", {c.id: "#000000" for c in s.info}, {c.id: c.name for c in s.info})
    sections.outcomes(doc, s)
    return "\n".join(doc.md)


@pytest.mark.parametrize(("game", "points"), [("taluva", False), ("alhambra", True)])
def test_margin_column_only_where_the_score_is_in_points(tmp_path, game, points):
    assert section(game).score_in_points is points
    md = _outcomes_md(tmp_path, game)
    header = next(x for x in md.splitlines() if x.startswith("| cell |"))
    assert ("winning margin" in header) is points
    assert ("figures/scores_by_seat.png" in md) is points
    assert ("ranking key" in md) is not points


@pytest.mark.parametrize(("game", "said"), [("maharaja", True), ("alhambra", False)])
def test_the_verdict_says_what_a_point_is_where_it_is_not_obvious(tmp_path, game, said):
    """Maharaja's point is a palace built: a handicap "in points" is in palaces, and less than one
    only decides ties; every page of the game says so in its scope, generic pages included."""
    from analysis.findings import scope

    cells = [{"id": "p2", "label": "2 players", "agents": ["random"] * 2, "games": 4}]
    run = write_run(tmp_path / game, name=f"{game}-unit", game=game, pair_seats=True, cells=cells)
    for generic in (False, True):
        text = " ".join(scope(analyse(run, generic=generic)))
        assert ("A point of Maharaja's score is a palace built" in text) is said
        assert ("a handicap of less than one point only decides ties" in text) is said
