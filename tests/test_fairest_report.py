"""A ``fairest`` run's report reads anytime-valid intervals (the race looked after every round),
recomputed from the games rather than copied from the recorded rounds; its sweep line goes through
the typed sweep claim, never :class:`Crossing`'s own words (issue 51, items 3 and 4)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from helpers_runs import write_run

import rundir
from analysis import analyse
from analysis.fairest import race_again
from analysis.report.build import build
from analysis.stats.seats import start_advantage

STALE = "fairest: first=0.5 +0.0 points [−0.1, +0.1]; STALE"


def _raced_run(tmp_path: Path) -> Path:
    cells = [
        {
            "id": f"c{k}",
            "label": f"first={v}",
            "agents": ["random", "random"],
            "variant": {"first": v},
            "games": 400,
        }
        for k, v in enumerate((0.3, 0.4, 0.5, 0.6))
    ]
    run = write_run(tmp_path / "run", name="coin-race", game="coin", pair_seats=True, cells=cells)
    man = rundir.read_manifest(run)
    record = {"line": STALE, "candidates": [], "max_games": 400}
    rounds = [{"games": {c["id"]: 400 for c in cells}, "fairest": record}]
    rundir.write_manifest(run, dataclasses.replace(man, precision_rounds=rounds))
    return run


def test_fairest_report_reads_anytime_valid_intervals(tmp_path):
    s = analyse(_raced_run(tmp_path))
    assert s.advantage["anytime_valid"].all()
    r, fixed = s.advantage_row("c2"), start_advantage(s.rows["c2"], paired=True)
    assert r["hi"] - r["lo"] > 1.2 * (fixed.hi - fixed.lo)  # a confidence sequence, not the fixed interval
    md = "\n".join(build(s, tmp_path / "out").md)
    assert "STALE" not in md  # the race is recomputed from the games
    closest = next(x for x in md.splitlines() if "is closest to fair" in x)
    assert (
        "does not separate" not in closest and "The race below compares" in closest
    )  # no fixed-sample tests
    lead = md.split("## Verdict", 1)[1].split("\n- ", 1)[0]
    body = md.split("## Glossary", 1)[0]  # the glossary defines the term once more
    assert lead.count("anytime-valid") == 1 and body.count("anytime-valid") == 1
    assert "| anytime-valid |" in md
    verdict = md.split("## Verdict", 1)[1].split("\n## ", 1)[0]
    sentences = [x for x in verdict.splitlines() if x.startswith("- **first=")]
    assert len(sentences) == 4 and all(
        "95% confidence sequence" in x and "95% CI" not in x for x in sentences
    )
    lo, hi = (f"{100 * x:+.1f}".replace("-", "\u2212") for x in (r["lo"], r["hi"]))
    assert f"[{lo}, {hi}]" in md  # the race's table quotes the same interval
    assert "| advantage, points [95% confidence sequence] |" in md
    assert "| advantage, points [95% CI] |" not in md


def test_fairest_sweep_line_is_the_typed_claim(tmp_path):
    run = _raced_run(tmp_path)
    s = analyse(run, threshold=0.2)
    cands, line = race_again(s.manifest, s.rows, s.threshold)
    assert {c["status"] for c in cands} <= {"in", "out (worse)"}
    # The 0.5 setting lies within ±20 points: the claim says so from the played cell, not the line.
    assert "Fair within ±20 points where played" in line
    assert "never fair" not in line


def test_the_official_setting_is_closer_to_fair_only_where_the_paired_difference_shows_it():
    """alhambra-dirk-fairest printed "+0.7 points [−0.4, +1.7] (closer to fair)": an interval that
    holds 0 does not show the fairest closer; one that excludes 0 on the side towards 0 does."""
    from analysis.fairest import RACE_WORDS, _closer_words

    official, best = {"advantage": -0.016}, {"advantage": -0.010}
    assert "not shown closer" in _closer_words(-0.004, 0.017, best, official)
    assert _closer_words(0.002, 0.011, best, official) == " (closer to fair)"
    assert _closer_words(-0.011, -0.002, best, official) == ""  # moves the official away from 0
    assert _closer_words(-0.011, -0.002, {"advantage": 0.010}, {"advantage": 0.016}) == " (closer to fair)"
    assert set(RACE_WORDS) == {"in", "out (worse)"}


def test_sweeps_of_one_option_name_the_options_they_hold(tmp_path):
    """alhambra-dirk-fairest printed four "Sweep of money_copies (2 players, greedy; …)" lines that
    differ only in dirk_tiles, which none named: each sweep names the options it holds fixed."""
    from analysis.fairness import sweeps_of

    cells = [
        {"id": f"c{k}{j}", "label": f"first={v}, tie={t}", "agents": ["random", "random"],
         "variant": {"first": v, "tie": t}, "games": 40}
        for k, v in enumerate((0.3, 0.4, 0.5)) for j, t in enumerate((0.0, 0.2))
    ]  # fmt: skip
    s = analyse(write_run(tmp_path / "run", name="coin-grid", game="coin", pair_seats=True, cells=cells))
    labels = sorted(w.label for w in sweeps_of(s.balance, s.rows, paired=True) if w.option == "first")
    assert labels == ["2 players, random, tie = 0", "2 players, random, tie = 0.2"]


def test_a_two_player_handicap_sweep_reads_the_start_players_points(tmp_path):
    """alhambra-handicap swept "the second player's handicap (points) = −2" beside fixes that say
    "the start player +2": one convention, the start player's points."""
    from analysis.fairness import sweeps_of

    cells = [
        {"id": f"h{k}", "label": f"h{k}", "agents": ["random", "random"], "variant": {"handicap": [0, k]},
         "games": 40}
        for k in (-2, -1, 0, 1)
    ]  # fmt: skip
    s = analyse(write_run(tmp_path / "run", name="coin-hsweep", game="coin", pair_seats=True, cells=cells))
    (w,) = [w for w in sweeps_of(s.balance, s.rows, paired=True) if "handicap" in w.option]
    assert w.option == "the start player's handicap (points)"
    assert dict(w.cells) == {"h-2": 2.0, "h-1": 1.0, "h0": 0.0, "h1": -1.0}
    from analysis.claims import option_value

    assert sorted(option_value(x) for _, x in w.cells) == ["0", "1", "2", "\u22121"]  # no "−0"
