"""Played evidence across reports (issue 51): a handicap one study played is quoted, with its played
interval, by the report of another study that predicts the same handicap for the same question;
a handicap play refutes is never recommended there; a different line-up or rules reading does not
borrow it."""

from __future__ import annotations

import json
from pathlib import Path

from helpers_runs import write_study_run

import balancelab_cli as cli
from analysis.claims import fix_status
from analysis.evidence import PLAYED, read_siblings
from analysis.fairness import cell_fixes, fix_claim
from analysis.report.build import write_report
from analysis.study import analyse
from pipeline.study import parse_text

BASE = """\
name = "{name}"
game = "hiroba"
seed = {seed}
games_per_cell = 400
pair_seats = true

[grid]
players = [2]
agents = ["{agent}"]
{variants}"""


def _run(tmp: Path, name: str, seed: int, variants: str = "", agent: str = "greedy") -> Path:
    text = BASE.format(name=name, seed=seed, variants=variants, agent=agent)
    out = tmp / "runs" / name
    write_study_run(parse_text(text, f"{name}.toml", None, None), out, batch=400)
    return out


def _fix(run: Path) -> tuple[int, ...]:
    """The whole-point handicap the report of ``run`` predicts for its unhandicapped cell."""
    s = analyse(run)
    (f,) = [f for f in cell_fixes(s) if f.step == 0]
    return f.comp.whole()


def test_a_sibling_reports_play_outranks_this_reports_prediction(tmp_path):
    reports = tmp_path / "reports"
    predicting = _run(tmp_path, "predicts", 7)
    whole = _fix(predicting)
    assert any(whole)  # greedy Hiroba needs a handicap: the fix is a prediction here
    variants = f"\n[grid.variants]\nnone = {{}}\nplayed = {{ handicap = {list(whole)} }}\n"
    write_report(_run(tmp_path, "plays", 8, variants), reports / "plays")
    records = json.loads((reports / "plays" / PLAYED).read_text())
    assert [r["handicap"] for r in records] == [list(whole)]  # only the handicapped cell travels

    (reports / "predicts").mkdir()
    (reports / "predicts" / PLAYED).write_text("[]")  # an older page's: this study plays none
    assert cli.main(["report", str(predicting), "--report-dir", str(reports / "predicts")]) == 0
    s = analyse(predicting)
    s.elsewhere = read_siblings(reports / "predicts")
    (f,) = [f for f in cell_fixes(s) if f.step == 0]
    claim = fix_claim(s, f)
    assert claim.played_in == "plays" and claim.played is not None
    assert claim.played.value == records[0]["advantage"][0]  # the sibling's played interval (a share)
    md = (reports / "predicts" / "report.md").read_text()
    assert "in the plays study" in md and "a prediction from the scores" not in md.split("## ")[1]
    if fix_status(claim) == "refuted":
        assert "Do not give" in md  # a handicap play refutes is never recommended
    assert not (reports / "predicts" / PLAYED).exists()  # it played no handicap: nothing to lend
    assert cli.main(["report", str(tmp_path / "runs" / "plays"), "--report-dir", str(reports / "again")]) == 0
    assert {r["report"] for r in json.loads((reports / "again" / PLAYED).read_text())} == {"again"}


def test_another_line_up_does_not_borrow_the_play(tmp_path):
    reports = tmp_path / "reports"
    predicting = _run(tmp_path, "predicts", 7)
    whole = _fix(predicting)
    variants = f"\n[grid.variants]\nnone = {{}}\nplayed = {{ handicap = {list(whole)} }}\n"
    write_report(_run(tmp_path, "plays", 8, variants, agent="random"), reports / "plays")
    assert (reports / "plays" / PLAYED).exists()
    s = analyse(predicting)
    s.elsewhere = read_siblings(reports / "predicts")
    assert s.elsewhere and all(fix_claim(s, f).played is None for f in cell_fixes(s))


def test_a_handicap_refuted_elsewhere_is_never_recommended(tmp_path):
    from dataclasses import replace

    from analysis.claims import fix_sentence
    from analysis.evidence import played_cells

    variants = "\n[grid.variants]\nnone = {}\nplayed = { handicap = [0, 1] }\n"
    s = analyse(_run(tmp_path, "plays", 8, variants))
    (record,) = played_cells(s, "plays")
    predicting = analyse(_run(tmp_path, "predicts", 7))
    whole = tuple(f.comp.whole() for f in cell_fixes(predicting) if f.step == 0)[0]
    far = replace(record, handicap=whole, advantage=(-0.10, -0.12, -0.08), units=5000)
    near = replace(far, advantage=(0.002, -0.004, 0.008))
    cases = ((far, "Do not give", "refuted"), (near, "fair at this skill level (played)", "confirmed"))
    for played, words, status in cases:
        predicting.elsewhere = [played]
        (f,) = [f for f in cell_fixes(predicting) if f.step == 0]
        claim = fix_claim(predicting, f)
        said = fix_sentence(claim)
        assert fix_status(claim) == status and words in said and "in the plays study" in said
