"""The balance atlas: the planner (within budget, deterministic), the verdict words (never more
than the interval shows), and a whole atlas on a tiny budget (every game × player count on the
page; an atlas part resumed after losing a batch file)."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rust_core
from analysis.atlas import MIN_VERDICT_DEALS, SeatShare, seat_verdict, settle_deals, two_player_verdict
from pipeline import atlas

ROOT = Path(__file__).resolve().parent.parent


def _fake_costs(studies, scale: float = 1.0) -> dict[str, dict[str, float]]:
    """Costs per cell: greedy-like 1 ms × players, search 0.2 s × players × (iterations / 100)."""
    out = {}
    for s in studies:
        for c in s.cells:
            per = sum(0.001 if a in ("greedy", "random") else 0.002 * int(a.split("=")[1]) for a in c.agents)
            out[atlas.cost_key(s, c)] = {"seconds_per_game": scale * per, "games": 3.0, "cpu_seconds": 1.0}
    return out


def test_every_game_with_players_has_an_atlas_study_over_every_player_count():
    games = atlas.atlas_games()
    assert set(games) == set(rust_core.games()) - {"coin"}
    for s in atlas.atlas_studies():
        lo, hi = rust_core.player_range(s.game)
        assert sorted({c.n_players for c in s.cells}) == list(range(lo, hi + 1))
        assert len(s.ladder) >= 2 and s.pair_seats


def test_the_plan_fits_the_budget_is_deterministic_and_grows_with_it():
    studies = atlas.atlas_studies()
    costs = _fake_costs(studies)
    for hours in (0.5, 1.0, 4.0):
        plan = atlas.plan_atlas(studies, costs, hours * 3600)
        assert plan.calibration_s + plan.first_round_s <= hours * 3600
        assert plan == atlas.plan_atlas(studies, costs, hours * 3600)  # same costs, same plan
        for g in plan.games:
            assert all(c.deals >= atlas.MIN_DEALS and c.games == c.deals * c.n_players for c in g.cells)
    small, big = (atlas.plan_atlas(studies, costs, h * 3600) for h in (0.5, 4.0))
    for a, b in zip(small.games, big.games, strict=True):
        assert all(x.deals <= y.deals for x, y in zip(a.cells, b.cells, strict=True))
    assert sum(c.deals for g in big.games for c in g.cells) > sum(
        c.deals for g in small.games for c in g.cells
    )


def test_more_core_hours_grow_the_precision_rounds_only():
    studies = atlas.atlas_studies()
    costs = _fake_costs(studies)
    plan = atlas.plan_atlas(studies, costs, 1.0 * 3600)
    more = atlas.plan_atlas(studies, costs, 1.0 * 3600, more_s=1800.0)
    assert more.games == plan.games  # the first rounds as planned from --core-hours
    assert more.refine_s == pytest.approx(plan.refine_s + 1800.0)
    assert "more_s" not in plan.to_dict() and more.to_dict()["more_s"] == 1800.0  # older atlas.json match
    assert "0.50 of them --more-core-hours" in atlas.format_plan(more)


def test_luck_is_read_over_the_deals_that_recorded_it():
    import polars as pl

    from analysis.luck import _row

    rng = __import__("numpy").random.default_rng(5)
    deals, n = 40, 2
    rows = pl.DataFrame(
        {
            "deal_index": [d for d in range(deals) for _ in range(n * n)],
            "seat": [s for _ in range(deals) for _ in range(n) for s in range(n)],
            "win": rng.integers(0, 2, deals * n * n).astype(float),
            "luck": rng.normal(0, 0.2, deals * n * n),
        }
    )
    full = _row("c", rows, paired=True)
    # the first 10 deals kept in compact form (no luck): only the 30 others are read
    part = rows.with_columns(
        pl.when(pl.col("deal_index") < 10).then(None).otherwise(pl.col("luck")).alias("luck")
    )
    row = _row("c", part, paired=True)
    assert full is not None and row is not None
    assert full.units == deals and row.units == deals - 10
    assert row.raw.estimate == pytest.approx(
        _row("c", rows.filter(pl.col("deal_index") >= 10), True).raw.estimate
    )


def test_the_two_player_rows_reach_the_target_first():
    studies = atlas.atlas_studies()
    plan = atlas.plan_atlas(studies, _fake_costs(studies), 8 * 3600)
    rungs = [c for g in plan.games for c in g.cells if c.role == "rung"]
    assert all(c.deals >= atlas.TARGET_DEALS for c in rungs if c.n_players == 2)
    assert min(c.deals for c in rungs if c.n_players == 2) > max(c.deals for c in rungs if c.n_players > 2)


def test_a_budget_too_small_is_refused_naming_the_option_and_the_least_that_fits():
    studies = atlas.atlas_studies(["titania"])
    costs = _fake_costs(studies)
    with pytest.raises(atlas.AtlasError, match=r"^--core-hours: 0.001 is too small .* at least (\d+\.\d+)"):
        atlas.plan_atlas(studies, costs, 3.6)
    least = float(re.findall(r"at least (\d+\.\d+)", str(_error(studies, costs)))[0])
    atlas.plan_atlas(studies, costs, least * 3600)  # the least it names fits


def _error(studies, costs) -> Exception:
    try:
        atlas.plan_atlas(studies, costs, 3.6)
    except atlas.AtlasError as exc:
        return exc
    raise AssertionError("not refused")


def test_unknown_games_are_refused_with_the_allowed_ones():
    with pytest.raises(atlas.AtlasError, match="--games: unknown game chess; allowed: alhambra, hiroba"):
        atlas.atlas_studies(["chess"])


GRID = [x / 100 for x in range(-8, 9, 2)]


@pytest.mark.parametrize("t", [0.01, 0.03])
def test_two_player_words_never_claim_more_than_the_interval(t):
    for lo, hi in itertools.combinations(GRID, 2):
        kind, words = two_player_verdict((lo + hi) / 2, lo, hi, t)
        if words.startswith("fair"):
            assert -t <= lo and hi <= t
        if "seat 1" in words:
            assert lo > 0
        if "seat 2" in words:
            assert hi < 0
        if "more than" in words:
            assert lo > t or hi < -t
        if lo <= 0 <= hi and not (-t <= lo and hi <= t):
            assert (kind, words) == ("unsettled", "not settled")


def test_seat_words_never_claim_more_than_the_simultaneous_intervals():
    fair = 1 / 3
    cases = [
        (fair - 0.05, fair + 0.05),
        (fair + 0.01, fair + 0.09),
        (fair - 0.09, fair - 0.02),
        (0.33, 0.336),
    ]
    for a, b, c in itertools.product(cases, repeat=3):
        seats = tuple(SeatShare(i + 1, (lo + hi) / 2, lo, hi) for i, (lo, hi) in enumerate((a, b, c)))
        kind, words = seat_verdict(seats, 0.01)
        for s in seats:
            if re.search(rf"favours seats? [\d, and]*\b{s.seat}\b", words):
                assert s.lo > fair
            if re.search(rf"seats? [\d, and]*\b{s.seat}\b below", words):
                assert s.hi < fair
        if kind == "fair":
            assert all(fair - 0.01 <= s.lo and s.hi <= fair + 0.01 for s in seats)
        if all(s.lo <= fair <= s.hi for s in seats) and kind != "fair":
            assert words == "not settled"


def test_settle_deals_shrink_the_interval_to_the_room_left():
    # ±4 points around +2 with a 1-point threshold: it settles once the half-width is below 2
    assert settle_deals([(0.02, -0.02, 0.06)], 100, 0.01) == 400
    assert settle_deals([(0.0, float("nan"), 0.1)], 100, 0.01) is None


def test_three_players_settle_one_question_the_farthest_seat_not_every_seat():
    # 3 players, 14 deals: seat 1 at 17% [8, 31] is already below its share; seat 2 sits near fair
    third = 1 / 3
    seats = [(0.17 - third, 0.08 - third, 0.31 - third), (0.34 - third, 0.20 - third, 0.48 - third),
             (0.49 - third, 0.35 - third, 0.63 - third)]  # fmt: skip
    assert settle_deals(seats, 14, 0.01) <= 14  # seat 1 already excludes its share: no more deals
    near_fair = [(0.001, -0.05, 0.052), (0.0, -0.05, 0.05)]
    # neither excludes 0 soon: "fair within ±1 point" needs every interval inside (±5 → ±0.9)
    assert settle_deals(near_fair, 100, 0.01) == max(
        settle_deals([near_fair[0]], 100, 0.01) or 0, settle_deals([near_fair[1]], 100, 0.01) or 0
    )


# ---------------------------------------------------------------- a whole atlas, tiny and cheap

RUNNER = """
import sys
sys.path.insert(0, {tests!r})
import inline_ray
inline_ray.install()
from pipeline import atlas, study
atlas.CALIBRATION_SECONDS, atlas.BASE_DEALS, atlas.MAX_DEALS = 0.01, 100, 100
from analysis.stats import compensation  # the page's machinery, not its intervals: fewer resamples
compensation.RESAMPLES, compensation.RESAMPLES_MANY = 100, 30
import matplotlib.figure  # nor its figures' looks: small PNGs, each SVG a stub
real_save = matplotlib.figure.Figure.savefig
def quick_save(fig, fname, **kw):
    if str(fname).endswith(".svg"):
        return open(fname, "w").write("<svg xmlns='http://www.w3.org/2000/svg'/>")
    return real_save(fig, fname, dpi=30)
matplotlib.figure.Figure.savefig = quick_save
real = atlas.load_study
def cheap(name):  # every rung random < greedy: the atlas's machinery, at a fraction of the cost
    text = study.builtin_text(name)
    start = text.index("ladder = ")
    text = text[:start] + 'ladder = ["random", "greedy"]\\n'
    return study.parse_text(text, "builtin:" + name, None, None)
atlas.load_study = cheap
from balancelab_cli import main
sys.exit(main(sys.argv[1:]))
"""


def _atlas(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = RUNNER.format(tests=str(ROOT / "tests"))
    return subprocess.run(
        [sys.executable, "-c", code, "atlas", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )


@pytest.fixture(scope="module")
def tiny_atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas")
    args = ("--core-hours", "0.004", "--out", str(out / "runs"), "--report-dir", str(out / "page"), "--quiet")
    done = _atlas(*args)
    assert done.returncode == 0, done.stderr
    return out, args


@pytest.mark.slow
def test_a_tiny_atlas_writes_the_page_with_every_game_and_player_count(tiny_atlas):
    out, _ = tiny_atlas
    md = (out / "page" / "report.md").read_text()
    for game in atlas.atlas_games():
        lo, hi = rust_core.player_range(game)
        for n in range(lo, hi + 1):
            assert re.search(rf"^\| {game} \| {n} \| \*\*", md, re.M), (game, n)
        assert (out / "page" / game / "index.html").exists()
        sub = (out / "page" / game / "report.md").read_text()  # luck beside how often skill wins
        assert "## Luck against skill" in sub and re.search(r"\| \d+% \[\d+, \d+\] against random \|", sub)
        assert (out / "page" / "figures" / f"atlas_{game}.png").exists()
    row_re = re.compile(r"^\| \w+ \| \d \| \*\*(.*?)\*\* \|.*?\| ([\d,]+) \| [^|]* \| [^|]* \| \[", re.M)
    for row in row_re.findall(md):
        if int(row[1].replace(",", "")) < MIN_VERDICT_DEALS:
            assert row[0].startswith("not settled"), row  # no verdict on a handful of deals
    page = (out / "page" / "index.html").read_text()
    assert page.count('class="game text"') == len(atlas.atlas_games())
    assert len(re.findall(r'<td class="(fair|favours|unsettled) text">', page)) == sum(
        hi - lo + 1 for lo, hi in map(rust_core.player_range, atlas.atlas_games())
    )
    state = json.loads((out / "runs" / "atlas.json").read_text())
    spent = sum(x["task_cpu_seconds"] for x in state["spent"]) + state["plan"]["calibration_s"]
    assert 0 < spent and state["plan"]["first_round_s"] + state["plan"]["calibration_s"] <= 0.004 * 3600


def _games(cell_dir: Path, start: int, end: int):
    """The rows of games start..end-1 of one cell, however its batch files are cut, in key order."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(sorted(cell_dir.glob("*.parquet")))
    keep = pc.and_(pc.greater_equal(table["game_index"], start), pc.less(table["game_index"], end))
    return table.filter(keep).sort_by([("game_index", "ascending"), ("player", "ascending")])


@pytest.mark.slow
def test_an_atlas_part_resumes_after_losing_a_batch_file(tiny_atlas):
    out, args = tiny_atlas
    game = atlas.atlas_games()[-1]
    state = json.loads((out / "runs" / "atlas.json").read_text())
    lost = sorted((out / "runs" / game / "data").rglob("*.parquet"))[-1]
    start, end = (int(x) for x in lost.stem.split("-")[1:])
    rows = _games(lost.parent, start, end)
    lost.unlink()
    again = _atlas(*args[:-1], "--no-report")  # the same command: the same plan
    assert again.returncode == 0, again.stderr
    assert "playing again" in again.stderr and lost.name in again.stderr
    assert _games(lost.parent, start, end).equals(rows)  # the lost games played again, identical
    now = json.loads((out / "runs" / "atlas.json").read_text())
    assert now["plan"] == state["plan"]
    played = sum(x["games_played"] for x in now["spent"][len(state["spent"]) :])
    assert played == end - start  # nothing else was played


def test_the_equal_seats_test_of_a_cell_with_as_few_deals_as_seat_differences_is_undetermined():
    import polars as pl

    from analysis.stats.seats import equal_seats_test

    # 4 players, 3 deals: 3 per-deal seat differences from 3 deals (statsmodels divides by zero)
    rows = pl.from_arrow(rust_core.simulate("titania", {}, ["greedy"] * 4, 4, 0, 12, pair_seats=True))
    test = equal_seats_test(rows, paired=True)
    assert test.n_units == 3 and test.p_value != test.p_value  # nan: no test, no crash


# ---------------------------------------------------------------- the data beside the page


@pytest.mark.slow
def test_the_page_is_re_derived_from_its_data_alone(tiny_atlas, tmp_path):
    out, _ = tiny_atlas
    data = out / "page" / "data"
    assert (data / "atlas.json").exists() and (data / "costs.json").exists()
    for game in atlas.atlas_games():
        manifest = json.loads((out / "runs" / game / "manifest.json").read_text())
        assert json.loads((data / game / "manifest.json").read_text())["study"] == manifest["study"]
    again = _atlas("--from", str(data), "--report-dir", str(tmp_path / "again"), "--quiet")
    assert again.returncode == 0, again.stderr
    # every number of the page from the data folder alone (the games' full reports, which read
    # the games' own columns too, are rendered from the run directories only)
    assert (tmp_path / "again" / "report.md").read_text() == (out / "page" / "report.md").read_text()
    assert not (tmp_path / "again" / atlas.atlas_games()[0]).exists()
    assert (tmp_path / "again" / "data" / "costs.json").exists()  # a page elsewhere gets its data copied


@pytest.mark.slow
def test_verify_replays_the_stored_games_and_finds_a_changed_outcome(tiny_atlas, tmp_path):
    import shutil

    import pyarrow.compute as pc

    import rundir
    from pipeline.atlas_data import verify

    out, _ = tiny_atlas
    done = _atlas("--verify", "2", "--from", str(out / "page" / "data"), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "every one as stored" in done.stdout
    data = tmp_path / "data"
    shutil.copytree(out / "page" / "data", data)
    game = atlas.atlas_games()[0]
    man = rundir.read_manifest(data / game)
    cell = man.study.cells[0]
    part = next((data / game / "data" / f"cell={cell.id}").glob("*.parquet"))
    table = rundir.batches.read_table(data / game, part.relative_to(data / game).as_posix())
    win = table.column("win")
    flipped = pc.if_else(pc.equal(table.column("game_index"), 0), pc.subtract(1.0, win), win)
    changed = table.set_column(table.schema.get_field_index("win"), "win", flipped)
    rundir.write_batch(data / game, man.study.hash(), cell.id, 0, cell.games, cell.n_players, changed)
    played, bad = verify(data, [game], 2)
    assert played >= 2 and [(m.cell, m.game_index) for m in bad] == [(cell.id, 0)]
    assert "column win" in bad[0].why


# ---------------------------------------------------------------- precision rounds: rows cheapest to settle


def _row(game: str, n: int, deals: int, need: int | None, hours: float | None, kind: str = "unsettled"):
    from analysis.atlas import AtlasRow

    return AtlasRow(
        game, n, "mcts:iters=100", 100.0, 50.0, 150.0, "", f"p{n}-mcts", deals, 0.0, -0.1, 0.1, (), kind,
        kind, "", 0.01, need, hours,
    )  # fmt: skip


def test_row_rounds_grow_the_cheapest_rows_first_within_the_budget(monkeypatch):
    from analysis import atlas_round
    from analysis.atlas import GameAtlas

    rows = {
        "a": [_row("a", 2, 100, 400, 0.3), _row("a", 3, 50, None, None, "favours")],
        "b": [_row("b", 2, 100, 150, 0.05), _row("b", 3, 10, 100_000, 50.0)],
    }

    def fake(run_dir, cost):
        return GameAtlas(str(run_dir), "", "", [], {}, rows[str(run_dir)], [], [], 0, 0.01, None)

    monkeypatch.setattr(atlas_round, "game_atlas", fake)
    cost = {g: {f"p{n}-mcts": 1.0 for n in (2, 3)} for g in rows}
    dirs = {g: Path(g) for g in rows}
    r = atlas_round.row_round(dirs, cost, budget_s=2000.0)
    # b 2p first (cheapest): to 150 × 1.2 = 180 deals; then a 2p: to 400 (4× its deals cap)
    assert r.games["b"] == {"p2-mcts": 180 * 2} and r.games["a"] == {"p2-mcts": 400 * 2}
    assert r.cost_s == (180 - 100) * 2 + (400 - 100) * 2 and not r.settled
    assert "p3-mcts" not in r.games["b"]  # 50 core-hours: more than the whole budget, it waits
    small = atlas_round.row_round(dirs, cost, budget_s=100.0)
    assert small.games == {"b": {"p2-mcts": 150 * 2}} and small.cost_s <= 100.0
    for rs in rows.values():
        rs[:] = [_row(r.game, r.n_players, r.deals, None, None, "fair") for r in rs]
    assert atlas_round.row_round(dirs, cost, 1000.0).settled
    rows["a"][:] = [_row("a", 3, 10, 100_000, 50.0)]
    rows["b"][:] = [_row("b", 3, 10, 100_000, 60.0)]
    alone = atlas_round.row_round(dirs, cost, 1000.0)  # none can settle: the cheapest still grows
    assert alone.games == {"a": {"p3-mcts": 40 * 3}}
    spent = atlas_round.row_round(dirs, cost, 2.0)  # too little left to add a deal anywhere
    assert spent.games == {} and spent.cost_s == 0.0 and not spent.settled
    assert "settle no open row (the cheapest, a 3 players, needs about 50.00 core-hours more)" in spent.line


def test_atlas_rows_read_anytime_valid_intervals_wider_than_fixed_sample_ones():
    import polars as pl

    from analysis.stats.seats import seat_win_rates, seat_win_sequences

    rows = pl.from_arrow(rust_core.simulate("titania", {}, ["greedy"] * 3, 5, 0, 600, pair_seats=True))
    fixed = seat_win_rates(rows, paired=True, alpha=0.05 / 3)
    seq = seat_win_sequences(rows, paired=True, alpha=0.05 / 3)
    for e, f in zip(seq, fixed.iter_rows(named=True), strict=True):
        assert e.n_units == 200 and e.estimate == pytest.approx(f["win_rate"])
        assert e.lo < f["lo"] and f["hi"] < e.hi  # the price of looking after every round


def test_two_player_rows_reach_a_thousand_deals_even_when_they_cannot_settle(monkeypatch):
    from analysis import atlas_round
    from analysis.atlas import GameAtlas

    rows = {"a": [_row("a", 2, 420, 20_000, 10.0), _row("a", 3, 50, 200, 0.02)]}
    monkeypatch.setattr(
        atlas_round,
        "game_atlas",
        lambda d, c: GameAtlas("a", "", "", [], {}, rows["a"], [], [], 0, 0.01, None),
    )
    r = atlas_round.row_round({"a": Path("a")}, {"a": {"p2-mcts": 1.0, "p3-mcts": 1.0}}, budget_s=3600.0)
    assert r.games["a"] == {"p2-mcts": atlas_round.TWO_PLAYER_DEALS * 2, "p3-mcts": 200 * 3}


@pytest.mark.slow
def test_an_interrupted_atlas_exports_the_games_it_holds_and_verifies_them(tiny_atlas, tmp_path):
    import shutil

    import rundir
    from pipeline.atlas_data import export, verify

    out, _ = tiny_atlas
    runs = tmp_path / "runs"
    shutil.copytree(out / "runs", runs)
    game = atlas.atlas_games()[0]
    lost = sorted((runs / game / "data").rglob("*.parquet"))[
        len(list((runs / game / "data").rglob("*.parquet"))) // 2
    ]
    lost.unlink()  # a batch in the middle of a cell: its games are missing, those after it are not
    with pytest.raises(rundir.IncompleteRun):
        export(runs, [game], tmp_path / "data")
    export(runs, [game], tmp_path / "data", allow_partial=True)
    assert rundir.verify_run(tmp_path / "data" / game).share() == rundir.verify_run(runs / game).share()
    played, bad = verify(tmp_path / "data", [game], 2)
    assert played > 0 and not bad


@pytest.mark.slow
def test_an_atlas_continues_from_a_copy_of_its_data_with_more_core_hours(tiny_atlas, tmp_path):
    import shutil

    import rundir

    out, _ = tiny_atlas
    runs = tmp_path / "runs"
    shutil.copytree(out / "page" / "data", runs)  # the compact data: the page's columns only
    before = {g: rundir.verify_run(runs / g).share()[0] for g in atlas.atlas_games()}
    args = ("--core-hours", "0.004", "--more-core-hours", "0.003", "--out", str(runs), "--quiet")
    done = _atlas(*args, "--report-dir", str(tmp_path / "page"))
    assert done.returncode == 0, done.stderr
    state = json.loads((runs / "atlas.json").read_text())
    assert state["plan"]["more_s"] == pytest.approx(0.003 * 3600) and state["rounds"]
    after = {g: rundir.verify_run(runs / g).share()[0] for g in atlas.atlas_games()}
    grown = [g for g in after if after[g] > before[g]]
    assert grown and all(after[g] >= before[g] for g in after)
    sub = (tmp_path / "page" / grown[0] / "report.md").read_text()  # compact + full games: generic
    assert "kept in compact form" in sub
    md = (tmp_path / "page" / "report.md").read_text()
    assert "more for the precision rounds)" in md  # the budget says what was added
    again = _atlas(
        "--from", str(tmp_path / "page" / "data"), "--report-dir", str(tmp_path / "again"), "--quiet"
    )
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again" / "report.md").read_text() == md  # its data re-derives the page


def test_verify_of_a_folder_that_is_no_atlas_is_refused_in_one_line(tmp_path, capsys):
    from balancelab_cli import main

    assert main(["atlas", "--verify", "1", "--from", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "atlas verify:" in err and "no manifest.json" in err


def test_a_run_in_compact_form_is_analysed_without_the_games_own_tables(tmp_path):
    from helpers_runs import write_study_run

    from analysis.report.build import write_report
    from analysis.study import analyse
    from pipeline.atlas_data import export
    from pipeline.study import parse_text

    text = 'name = "h"\ngame = "hiroba"\nseed = 3\ngames_per_cell = 40\npair_seats = true\n'
    text += "[grid]\nplayers = [2]\n"
    write_study_run(
        parse_text(text + 'agents = ["greedy"]\n', "h.toml", None, None), tmp_path / "runs" / "hiroba"
    )
    export(tmp_path / "runs", ["hiroba"], tmp_path / "data")  # the data folder: the page's columns only
    s = analyse(tmp_path / "data" / "hiroba")
    assert s.generic and any("compact form" in w for w in s.warnings)
    assert not analyse(tmp_path / "runs" / "hiroba").generic  # the full run keeps the game's own tables
    md = write_report(tmp_path / "data" / "hiroba", tmp_path / "page").with_name("report.md").read_text()
    assert "compact form" in md and "## Hiroba" not in md
