"""The study key ``estimator``: the start-player advantage read raw or luck-corrected (issue 52)."""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import pytest

import balancelab_cli as cli
import rundir
import rust_core
from pipeline.study import StudyError, load_study, parse_text

_SIMULATE = rust_core.simulate

COIN = """\
name = "coin-est"
game = "coin"
seed = 1
games_per_cell = 10
pair_seats = true
[grid]
players = [2]
agents = ["random"]
"""


def _coin_run(tmp_path, monkeypatch, estimator: str, *, base: bool = False):
    """800 paired coin games (first = 0.6: the start player's true advantage is +10 points) with
    the luck measured, their manifest set to read ``estimator``; with ``base`` also the defaults
    cell ``base`` (first = 0.5: fair), so that ``c`` is a rule switch of it, +10 points."""
    import helpers_runs
    from helpers_runs import write_run

    monkeypatch.setattr(helpers_runs.rust_core, "simulate", lambda *a, **k: _SIMULATE(*a, **k, luck=True))
    cells = [{"id": "c", "agents": ["random", "random"], "variant": {"first": 0.6}, "games": 800}]
    if base:
        cells.insert(0, {"id": "base", "agents": ["random", "random"], "games": 800})
    out = tmp_path / f"{estimator}{'-base' if base else ''}"
    run = write_run(out, name="coin-luck", game="coin", pair_seats=True, cells=cells)
    m = rundir.read_manifest(run)
    assert m is not None
    rundir.write_manifest(run, m.with_study(replace(m.study, estimator=estimator)))
    return run


def test_the_corrected_advantage_is_narrower_and_agrees_with_the_raw_one(tmp_path, monkeypatch):
    from analysis import analyse

    raw = analyse(_coin_run(tmp_path, monkeypatch, "raw")).advantage_row("c")
    corrected = analyse(_coin_run(tmp_path, monkeypatch, "corrected")).advantage_row("c")
    assert raw["estimator"] == "raw" and corrected["estimator"] == "corrected"
    assert raw["units"] == corrected["units"] == 400
    assert corrected["halfwidth"] < raw["halfwidth"] / 2  # coin's one chance event is what V sees
    assert raw["lo"] <= corrected["advantage"] <= raw["hi"]
    assert corrected["lo"] <= 0.10 <= corrected["hi"]


def test_the_ladder_trend_reads_the_same_outcome_as_the_advantage_row(tmp_path, monkeypatch):
    from analysis import analyse
    from analysis.skill import _units

    for estimator in ("raw", "corrected", "fitted"):
        s = analyse(_coin_run(tmp_path, monkeypatch, estimator))
        units = _units(s, "c", "start_advantage")
        assert units is not None
        assert units[0].mean() == pytest.approx(s.advantage_row("c")["advantage"], abs=1e-12)


@pytest.mark.parametrize("estimator", ["corrected", "fitted"])
def test_comparisons_switches_the_race_and_the_precision_stop_read_the_estimator(
    tmp_path, monkeypatch, estimator
):
    """Every number of the start-player advantage follows the study's estimator: the comparison
    between cells, the rule switch's change, fairest's candidates and --precision's half-widths are
    narrower corrected than raw on coin (its one chance event is what V sees), and each covers the
    truth (+10 points)."""
    from analysis import analyse
    from analysis.fairest import candidate
    from analysis.precision import max_halfwidths
    from analysis.switches import switch_changes

    read = {}
    for name in ("raw", estimator):
        run = _coin_run(tmp_path, monkeypatch, name, base=True)
        s = analyse(run)
        cmp = s.comparisons.filter(pl.col("metric") == "start_advantage").row(0, named=True)
        sw = switch_changes(s).row(0, named=True)
        race = candidate("c", "c", s.rows["c"], s.manifest.study, 400, 0.01)
        read[name] = (cmp, sw, race, max_halfwidths(run))
    (rc, rs, rr, rp), (cc, cs, cr, cp) = read["raw"], read[estimator]
    assert "luck-corrected" in cc["label"] and "luck-corrected" not in rc["label"]
    for raw, corrected in ((rc, cc), (rs, cs)):  # difference c - base: +10 points
        assert corrected["hi"] - corrected["lo"] < (raw["hi"] - raw["lo"]) / 2
        assert corrected["lo"] <= 0.10 <= corrected["hi"] and raw["lo"] <= 0.10 <= raw["hi"]
    assert cr["hi"] - cr["lo"] < (rr["hi"] - rr["lo"]) / 2 and cr["lo"] <= 0.10 <= cr["hi"]
    assert all(cp[c] < rp[c] / 2 for c in ("base", "c"))


def test_games_without_their_luck_count_it_as_zero():
    """A run continued from an atlas data folder holds games without the luck column's value: the
    corrected outcome of such a game is its win (luck 0: every term has mean 0, measured or not),
    and a cell without the column at all is read raw."""
    from analysis.estimator import outcome_column, start_outcome

    study = replace(load_study("hiroba-start-player"), luck=True, estimator="corrected")
    rows = pl.DataFrame({"win": [1.0, 0.0, 0.5], "luck": [0.25, None, -0.5]})
    assert rows.select(start_outcome(study, rows)).to_series().to_list() == [0.75, 0.0, 1.0]
    assert outcome_column(study, rows.drop("luck")) is None
    assert outcome_column(replace(study, estimator="raw"), rows) is None


def test_the_report_names_the_estimator_and_the_deals_it_saved(tmp_path, monkeypatch):
    from analysis.report import write_report

    def page(estimator: str) -> str:
        run = _coin_run(tmp_path, monkeypatch, estimator)
        return (write_report(run, tmp_path / f"report-{estimator}").parent / "report.md").read_text()

    corrected, raw = page("corrected"), page("raw")
    assert "Estimator: luck-corrected, as this study asks." in corrected
    assert "deals saved: ×" in corrected and "The verdicts above use the corrected outcomes" in corrected
    assert "the seat win rates" in corrected  # says what stays raw
    assert "Estimator: raw, the default: every number reads the win share as played" in raw
    assert "deals the luck-corrected advantage would save: ×" in raw
    assert "The verdicts above use the raw outcomes." in raw and "luck-corrected, as" not in raw
    assert 'estimator = "' not in corrected.split("## Provenance")[0] + raw.split("## Provenance")[0]


def test_a_study_without_the_key_keeps_its_hash_and_reads_raw():
    study = load_study("hiroba-start-player")
    # computed before the key existed: the estimator is no part of a study's identity
    assert study.hash() == "ea272093608d888b8a38839150e0e7dd0344da6c40884fcbda604156eaa4c9d1"
    assert study.estimator == "raw"
    luck = parse_text("luck = true\n" + COIN, "t.toml")
    both = parse_text('luck = true\nestimator = "corrected"\n' + COIN, "t.toml")
    assert both.estimator == "corrected" and luck.estimator == "raw" and both.hash() == luck.hash()


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ('estimator = "bayes"\n', ['"raw", "corrected" or "fitted"', "got string 'bayes'"]),
        ('estimator = "corrected"\n', ['estimator = "corrected" needs luck = true']),
        ('estimator = "fitted"\n', ['estimator = "fitted" needs luck = true']),
    ],
)
def test_a_bad_estimator_exits_2_naming_the_field(write_study, tmp_path, capsys, extra, words):
    with pytest.raises(StudyError) as info:
        parse_text(extra + COIN, "t.toml")
    assert info.value.field == "estimator"
    path = write_study(text=extra + COIN)
    out = tmp_path / "out"
    assert cli.main(["run", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "estimator" in err and all(w in err for w in words)
    assert not out.exists()


def test_the_manifest_keeps_the_estimator_and_refuses_an_unknown_one(tmp_path, monkeypatch):
    run = _coin_run(tmp_path, monkeypatch, "corrected")
    m = rundir.read_manifest(run)
    assert m is not None and m.study.estimator == "corrected"
    data = m.to_dict()
    del data["checksum"], data["study"]["estimator"]  # a manifest from before the key
    assert rundir.Manifest.from_dict(data).study.estimator == "raw"
    data["study"]["estimator"] = "bayes"
    with pytest.raises(rundir.RunFormatError, match="estimator"):
        rundir.Manifest.from_dict(data)
