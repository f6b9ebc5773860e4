"""Pages a designer reads (issue 51 item 10): every technical word a page uses is in its glossary,
no study key or module path in the text a designer reads, and the atlas states the trend rule the
code uses."""

from __future__ import annotations

import math
import pathlib
import re
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

#: Words a designer may not know: where a rendered page uses one, its glossary must define it.
TECHNICAL = (
    "Elo",
    "chained Elo",
    "rung",
    "Bonferroni",
    "bootstrap",
    "luck",
    "OLS",
    "WLS",
    "cluster-robust",
    "Bradley–Terry",
    "transitivity",
    "anytime-valid",
    "confidence sequence",
    "core-hours",
    "converged",
    "still moving",
    "not settled",
    "expert limit",
    "lack-of-fit",
    "threshold",
    "deal",
    "seat",
    "fair share",
    "start-player advantage",
    "p-value",
    "Wilson",
    "Student-t",
    "Welch",
    "GLM",
    "Wald test",
    "Fieller",
    "simultaneous",
    "design effect",
    "chi-square",
    "Hotelling's T²",
    "race",
)


def _said(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}s?(?!\w)", text, re.IGNORECASE) is not None


def _sections(md: str) -> dict[str, str]:
    """Each ``## `` section's text by heading (the text before the first under "")."""
    head, *parts = md.split("\n## ")
    return {"": head} | {p.split("\n", 1)[0]: p.split("\n", 1)[-1] for p in parts}


def _read(md: str) -> tuple[str, set[str]]:
    """(the text a designer reads: every section but the glossary and the provenance, the terms the
    glossary defines)."""
    parts = _sections(md)
    text = "\n".join(v for k, v in parts.items() if k != "Glossary" and "rovenance" not in k)
    glossary = parts.get("Glossary", "")
    defined = {line.split(" | ")[0].strip("| ") for line in glossary.splitlines() if line.startswith("| ")}
    return text, defined - {"term", "---"}


def _undefined(md: str) -> list[str]:
    text, defined = _read(md)
    return [w for w in TECHNICAL if _said(text, w) and w not in defined]


@pytest.mark.parametrize("word", TECHNICAL)
def test_every_technical_word_is_defined_where_a_page_uses_it(tmp_path, word):
    from analysis.report.doc import Doc
    from analysis.report.methods import glossary

    doc = Doc(tmp_path, {}, {})
    doc.para(f"A sentence with {word}s in it.")  # the plural counts too
    glossary(doc, SimpleNamespace(game="coin"))  # type: ignore[arg-type]
    assert _undefined("\n".join(doc.md)) == []


def test_a_page_without_a_term_does_not_define_it(tmp_path):
    from analysis.report.doc import Doc
    from analysis.report.methods import glossary

    doc = Doc(tmp_path, {}, {})
    doc.para("The start player wins 51% of games.")
    glossary(doc, SimpleNamespace(game="coin"))  # type: ignore[arg-type]
    _, defined = _read("\n".join(doc.md))
    assert {"cell", "deal", "seat"} <= defined  # the basic terms: always on a study page
    assert not {"Elo", "luck", "OLS", "core-hours", "bootstrap", "anytime-valid"} & defined


def _ladder_run(root: pathlib.Path) -> pathlib.Path:
    from helpers_runs import set_study_keys, write_run

    cells = [
        {"id": "p2-random", "label": "2 players, random", "agents": ["random"] * 2, "games": 2000},
        {"id": "p2-greedy", "label": "2 players, greedy", "agents": ["greedy"] * 2, "games": 2000},
        {"id": "p2-rg", "label": "2 players, random vs greedy", "agents": ["random", "greedy"], "games": 400},
    ]
    run = write_run(root / "run", name="coin-ladder", game="coin", cells=cells, pair_seats=True, batch=2000)
    return set_study_keys(run, ladder=["random", "greedy"], practical_threshold=0.03)


def test_a_study_page_defines_every_technical_word_it_uses_and_shows_no_study_key(tmp_path):
    from analysis.report import write_report

    md = (write_report(_ladder_run(tmp_path), tmp_path / "report").parent / "report.md").read_text()
    text, defined = _read(md)
    assert {"Elo", "rung", "Bonferroni", "Bradley–Terry"} <= {w for w in TECHNICAL if _said(text, w)}
    assert _undefined(md) == []
    # the threshold in words; its study key only in the provenance
    assert "(this study's threshold; a study may set its own" in text
    assert "practical_threshold" not in _sections(md)["Methods"]
    assert "| practical threshold | ±3 points (study setting practical_threshold) |" in md
    assert "greedy = 0" not in text and "random = 0" not in text
    assert not re.search(r"\banalysis\.[a-z_]+", text)  # no module path


def _atlas_md(tmp_path: pathlib.Path, monkeypatch) -> str:
    from test_atlas_page import _games

    import analysis.report.atlas as page

    games = {g.game: g for g in _games()}
    for g in games.values():  # rungs the agents' descriptions know
        g.rungs = ["greedy", "mcts:iters=100"]
    monkeypatch.setattr(page, "game_atlas", lambda d, cost=None: games[d.name])
    state = {"plan": {"budget_s": 3600.0}, "rounds": [{"games": {"alhambra": {"p2-mcts": 10}}}]}
    index = page.write_atlas({name: tmp_path / "runs" / name for name in games}, tmp_path / "page", state)
    return (index.parent / "report.md").read_text()


def test_the_atlas_page_has_a_glossary_of_the_words_it_uses(tmp_path, monkeypatch):
    md = _atlas_md(tmp_path, monkeypatch)
    heads = [h for h in _sections(md) if h]
    assert heads[-2:] == ["Glossary", "Budget and provenance"]
    text, defined = _read(md)
    used = {w for w in TECHNICAL if _said(text, w)}
    assert {"Elo", "rung", "Bonferroni", "anytime-valid", "confidence sequence", "core-hours"} <= used
    assert _undefined(md) == []
    assert "cell" not in defined or _said(text, "cell")  # selected by use, not the study pages' basics


def test_the_atlas_page_states_the_trend_rule_and_no_module_path(tmp_path, monkeypatch):
    from analysis.report.atlas import TREND_RULE

    md = _atlas_md(tmp_path, monkeypatch)
    assert TREND_RULE in md
    assert "still slopes at the right end" not in md
    assert not re.search(r"\banalysis\.[a-z_]+", md)
    assert "greedy = 0" not in md


def _caption_rule(lo: float, hi: float, s_lo: float, s_hi: float, step: float, t: float) -> str:
    """The trend rule as :data:`analysis.report.atlas.TREND_RULE` says it, transcribed."""
    if -t <= lo and hi <= t and -t <= s_lo * step and s_hi * step <= t:
        return "converged"
    if s_lo > 0 or s_hi < 0 or lo > 0 or hi < 0:
        return "moving"
    return "unsettled"


@given(
    lo=st.floats(-0.1, 0.1),
    width=st.floats(0.0, 0.1),
    s_lo=st.floats(-1e-3, 1e-3),
    s_width=st.floats(0.0, 1e-3),
    step=st.floats(1.0, 500.0),
    t=st.floats(0.005, 0.05),
)
def test_the_atlas_trend_rule_in_words_is_the_rule_the_code_uses(lo, width, s_lo, s_width, step, t):
    from analysis.stats.trend import Slope, trend_status

    hi, s_hi = lo + width, s_lo + s_width
    slope = Slope((s_lo + s_hi) / 2, s_lo, s_hi, 0.95, 2, "OLS")
    assert math.isfinite(step)
    assert trend_status((lo, hi), slope, step, t) == _caption_rule(lo, hi, s_lo, s_hi, step, t)
