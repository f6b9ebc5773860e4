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


def test_every_play_of_the_question_is_quoted_with_its_options_in_normal_form(tmp_path):
    # alhambra-dirk-fairest quoted "not played" for money_copies=2, dirk_tiles=(6, 6, third) while
    # alhambra-handicap played {} (the same options, left at their defaults); hiroba-skill quoted
    # none of hiroba-handicap's plays because its own fix named no handicap (issue 51, third audit)
    import json as _json
    from dataclasses import replace

    from analysis.claims import fix_sentence
    from analysis.evidence import played_cells

    variants = "\n[grid.variants]\nnone = {}\nplayed = { handicap = [0, 1] }\n"
    (record,) = played_cells(analyse(_run(tmp_path, "plays", 8, variants)), "plays")
    predicting = analyse(_run(tmp_path, "predicts", 7))
    (f,) = [f for f in cell_fixes(predicting) if f.step == 0]
    whole = f.comp.whole()
    explicit = replace(record, rest=_json.dumps({"line_rule": "any"}), handicap=whole, units=3000)
    other = replace(record, handicap=(0, 9), advantage=(-0.4, -0.42, -0.38), units=2000)
    changed = replace(record, rest=_json.dumps({"line_rule": "last"}), handicap=(0, 8))
    predicting.elsewhere = [explicit, other, changed]
    (f,) = [f for f in cell_fixes(predicting) if f.step == 0]
    claim = fix_claim(predicting, f)
    assert (
        claim.played_in == "plays" and claim.played_deals == 3000
    )  # an explicit default is no other question
    assert [o.handicap for o in claim.others] == [(0, 9)]  # every other play, not another rule's
    said = fix_sentence(claim)
    assert "the second player +9 points in the plays study (2,000 deals): −40.0 points" in said
    assert (
        "(refuted)" in said
        and "Greedy does not read the handicap, so a handicapped play by it is the same games re-scored"
        in said
    )
    row = predicting.advantage_row(f.cell.id)
    assert (
        claim.base is not None and claim.base.value == row["advantage"] and claim.base_deals == row["units"]
    )
