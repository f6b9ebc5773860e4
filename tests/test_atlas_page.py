"""The atlas page's first screen: the verdict grid (one cell per game × player count, coloured by
its verdict, with its number and interval) and one sentence per game that names its rung and
never says more than the row's verdict. Built from typed rows directly (no run directories)."""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from analysis.atlas import (
    MIN_VERDICT_DEALS,
    AtlasRow,
    GameAtlas,
    SeatShare,
    cell_words,
    few_deals,
    seat_verdict,
    two_player_verdict,
)
from analysis.report.atlas import KIND_COLOURS, farthest_seat, game_sentence, row_phrase, verdict_grid
from analysis.words import signed

T = 0.01
FAIR_CLAIM = re.compile(r"\bfair\b(?! share)")  # "fair" as a verdict, not the fair share 1/n


def _row(game: str, rung: str, n: int, deals: int, est: tuple[float, float, float], seats=()) -> AtlasRow:
    if n == 2:
        kind, words = two_player_verdict(*est, T)
    else:
        kind, words = seat_verdict(seats, T)
    kind, words = few_deals(kind, words, deals)  # as analysis.atlas words a row on a handful
    return AtlasRow(
        game,
        n,
        rung,
        250.0,
        200.0,
        300.0,
        "",
        f"c{n}",
        deals,
        *est,
        tuple(seats),
        kind,
        words,
        "not settled",
        T,
    )


def _game(name: str, rows: list[AtlasRow]) -> GameAtlas:
    rung = rows[0].rung
    return GameAtlas(name, f"atlas-{name}", "", ["greedy", rung], {}, rows, [], [], 0, T, None)


def _seats(*shares: tuple[float, float, float]) -> tuple[SeatShare, ...]:
    return tuple(SeatShare(i + 1, *s) for i, s in enumerate(shares))


def _games() -> list[GameAtlas]:
    alhambra = _game(
        "alhambra",
        [
            _row("alhambra", "xmcts:iters=300", 2, 1024, (-0.041, -0.069, -0.013)),
            _row(
                "alhambra",
                "xmcts:iters=300",
                3,
                80,
                (0.1, 0.0, 0.2),
                _seats((0.43, 0.34, 0.52), (0.25, 0.19, 0.32), (0.32, 0.26, 0.40)),
            ),
            _row("alhambra", "xmcts:iters=300", 4, 48, (0.0, -0.1, 0.1), _seats(*[(0.25, 0.17, 0.33)] * 4)),
            _row(  # seat 2 above its share on 9 deals: too few for a verdict
                "alhambra",
                "xmcts:iters=300",
                5,
                9,
                (0.0, -0.1, 0.1),
                _seats((0.1, 0.05, 0.19), (0.5, 0.33, 0.67), *[(0.4 / 3, 0.05, 0.3)] * 3),
            ),
            _row(
                "alhambra",
                "xmcts:iters=300",
                6,
                2000,
                (0.0, -0.1, 0.1),
                _seats(*[(1 / 6, 1 / 6 - 0.005, 1 / 6 + 0.005)] * 6),
            ),
        ],
    )
    hiroba = _game(
        "hiroba",
        [
            _row("hiroba", "mcts:iters=1000", 2, 423, (0.002, -0.004, 0.008)),
            _row(
                "hiroba",
                "mcts:iters=1000",
                3,
                14,
                (0.0, -0.1, 0.1),
                _seats((0.19, 0.08, 0.39), (0.40, 0.25, 0.58), (0.41, 0.27, 0.56)),
            ),
            _row(
                "hiroba",
                "mcts:iters=1000",
                4,
                10,
                (0.0, -0.1, 0.1),
                _seats((0.12, 0.05, 0.26), (0.18, 0.07, 0.38), (0.30, 0.12, 0.56), (0.40, 0.18, 0.67)),
            ),
        ],
    )
    return [alhambra, hiroba]


def _cells(fig: Figure) -> dict[str, Rectangle]:
    return {p.get_gid(): p for ax in fig.axes for p in ax.patches if isinstance(p, Rectangle) and p.get_gid()}


def test_the_grid_has_one_cell_per_row_coloured_by_its_verdict():
    games = _games()
    kinds = {(r.game, r.n_players): r.kind for g in games for r in g.rows}
    assert set(kinds.values()) == {"fair", "favours", "unsettled"}  # the fixture shows all three
    fig = verdict_grid(games)
    assert isinstance(fig, Figure)
    cells = _cells(fig)
    coloured = {k: v for k, v in cells.items() if k != "absent"}
    assert set(coloured) == {f"{g}:{n}" for g, n in kinds}
    for (g, n), kind in kinds.items():
        assert to_hex(coloured[f"{g}:{n}"].get_facecolor()) == KIND_COLOURS[kind]
    absent = [p for ax in fig.axes for p in ax.patches if p.get_gid() == "absent"]
    assert len(absent) == 2  # hiroba has no 5 or 6 players
    assert all(to_hex(p.get_facecolor()) not in KIND_COLOURS.values() for p in absent)


def test_the_grid_cells_give_the_numbers_and_the_rows_name_the_rung():
    fig = verdict_grid(_games())
    assert fig is not None
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    two = next(t for t in texts if "1,024 deals" in t)
    assert "favours seat 2" in two and "\u22124.1 [\u22126.9, \u22121.3]" in two
    guarded = next(t for t in texts if "\n9 deals" in t)
    assert guarded.startswith("not settled\nseat 2: +30.0 [+13, +47]")  # no "favours" on 9 deals
    rows = [r for g in _games() for r in g.rows]
    assert sum(t.startswith("not settled") for t in texts) == sum(r.kind == "unsettled" for r in rows)
    three = next(t for t in texts if "80 deals" in t)
    assert "favours seat 1\nseat 1: +9.7 [+0.7, +18.7]" in three  # 43% [34, 52]: 34 is inside 1/3 + 1
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["Alhambra\nxmcts:iters=300", "Hiroba\nmcts:iters=1000"]
    assert verdict_grid([]) is None


@given(n=st.integers(2, 6), deals=st.integers(0, 2 * MIN_VERDICT_DEALS), favours=st.booleans())
def test_a_row_on_fewer_deals_than_a_verdict_needs_names_no_verdict(n, deals, favours):
    """A row on 9 deals read "not settled (only 9 deals; favours seat 2 on these)": a verdict on a
    handful, which no report gives below MIN_VERDICT_DEALS (nor the game pages, analysis.study)."""
    verdict = ("favours", "favours seat 2") if favours else ("fair", "fair within ±1 point for every seat")
    kind, words = few_deals(*verdict, deals)
    if deals < MIN_VERDICT_DEALS:
        assert (
            kind == "unsettled"
            and words == f"not settled (only {deals} deals, fewer than the 20 a verdict needs)"
        )
    else:
        assert (kind, words) == verdict


def test_the_farthest_seat_is_the_one_farthest_from_its_fair_share():
    row = _games()[0].rows[1]
    x = farthest_seat(row)
    assert x is not None and x.seat == 1  # 43% is 9.7 points above 1/3, 25% only 8.3 below
    assert farthest_seat(_games()[0].rows[0]) is None


def test_each_sentence_names_its_rung_and_claims_no_more_than_the_verdicts():
    alhambra, hiroba = _games()
    a = game_sentence(alhambra)
    assert a.startswith(
        "Alhambra (xmcts:iters=300): 2 players favours seat 2, by more than 1 point "
        "(\u22124.1 points [\u22126.9, \u22121.3], 1,024 deals); 3 players favours seat 1, seat 2 below its "
        "fair share (seat 1 +9.7 points [+0.7, +18.7] from 1/3, 80 deals)"
    )
    assert "4 and 5 players not settled (9–48 deals)" in a
    assert "6 players fair within ±1 point for every seat (seat 1 0.0 points [\u22120.5, +0.5] from 1/6" in a
    h = game_sentence(hiroba)
    assert h.startswith("Hiroba (mcts:iters=1000): 2 players fair within ±1 point")
    assert "3 and 4 players not settled (10–14 deals)" in h
    assert "favours" not in h


finite = st.floats(-0.5, 0.5, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(est=finite, a=st.floats(0, 0.2), b=st.floats(0, 0.2), deals=st.integers(0, 200))
def test_a_two_player_phrase_never_says_more_than_its_verdict(est, a, b, deals):
    r = _row("g", "mcts:iters=100", 2, deals, (est, est - a, est + b))
    _check(r)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(3, 6), data=st.data())
def test_a_seat_phrase_never_says_more_than_its_verdict(n, data):
    shares = []
    for _ in range(n):
        s = data.draw(st.floats(0, 1))
        shares.append(
            (s, max(0.0, s - data.draw(st.floats(0, 0.3))), min(1.0, s + data.draw(st.floats(0, 0.3))))
        )
    r = _row("g", "mcts:iters=100", n, data.draw(st.integers(0, 200)), (0.0, 0.0, 0.0), _seats(*shares))
    _check(r)


def _check(r: AtlasRow) -> None:
    phrase = row_phrase(r)
    sentence = game_sentence(_game("g", [r]))
    for text in (phrase, sentence):
        assert "mcts:iters=100" in sentence
        assert bool(FAIR_CLAIM.search(text)) == (r.kind == "fair"), text
        if r.kind != "favours":
            assert "favours" not in text and "below" not in text, text
    if r.n_players == 2 and math.isfinite(r.lo):
        assert f"{r.deals:,} deals" in phrase


def test_the_page_opens_with_the_rungs_the_grid_and_the_sentences_before_the_table(tmp_path, monkeypatch):
    import analysis.report.atlas as page

    games = {g.game: g for g in _games()}
    for g in games.values():  # rungs the agents' descriptions know
        g.rungs = ["greedy", "mcts:iters=100"]
    monkeypatch.setattr(page, "game_atlas", lambda d, cost=None: games[d.name])
    index = page.write_atlas({name: tmp_path / "runs" / name for name in games}, tmp_path / "page")
    html = index.read_text()
    lead = html.index('<p class="lead">')
    grid = html.index('src="figures/atlas_verdicts.png"')
    sentences = html.index('<ul class="lead"><li>Alhambra (xmcts:iters=300):')
    table = html.index('<table class="atlas">')
    assert lead < grid < sentences < table
    assert "alhambra xmcts:iters=300 (+250 Elo); hiroba mcts:iters=1000 (+250 Elo)" in html[lead:grid]
    assert (tmp_path / "page" / "figures" / "atlas_verdicts.png").exists()
    md = (tmp_path / "page" / "report.md").read_text()
    # a confidence sequence on 7 deals is 3.3 times as wide as the fixed-sample interval, not 1.5
    assert "(about 1.5 times as wide as a fixed-sample interval with many deals, wider with few" in md
    assert md.index("atlas_verdicts.png") < md.index("- Hiroba (mcts:iters=1000):") < md.index("| game |")


def test_each_game_page_says_its_intervals_are_fixed_sample_and_the_atlas_gives_the_verdicts(
    tmp_path, monkeypatch
):
    """Taluva 2p read [+2.3, +6.7] on its own page, [+1.1, +7.9] on the atlas: the game pages ignore
    the precision rounds' looks, and say so at the top, once, however often the atlas is re-rendered."""
    import analysis.report.atlas as page

    games = {g.game: g for g in _games()}
    for g in games.values():
        g.rungs = ["greedy", "mcts:iters=100"]
    monkeypatch.setattr(page, "game_atlas", lambda d, cost=None: games[d.name])
    out = tmp_path / "page"
    (out / "alhambra").mkdir(parents=True)  # hiroba's page not written (a data folder): nothing to mark
    (out / "alhambra" / "index.html").write_text(
        '<body>\n<h1>balancelab report: atlas-alhambra</h1>\n<p class="subtitle">Atlas</p>\n'
        '<section id="verdict" class="verdict"><h2>Verdict</h2></section>\n</body>\n'
    )
    (out / "alhambra" / "report.md").write_text(
        "# balancelab report: atlas-alhambra\n\nAtlas\n\n\n## Verdict\n"
    )
    for _ in range(2):
        page.write_atlas({name: tmp_path / "runs" / name for name in games}, out)
    html = (out / "alhambra" / "index.html").read_text()
    md = (out / "alhambra" / "report.md").read_text()
    said = "intervals are fixed-sample and only describe"
    assert html.count(said) == 1 and md.count(said) == 1
    assert html.index("Atlas</p>") < html.index(said) < html.index('<section id="verdict"')
    assert '<a href="../index.html">the atlas page</a>' in html
    assert md.index("\nAtlas\n") < md.index(said) < md.index("## Verdict")
    assert "The verdicts are the atlas page's, read from anytime-valid intervals.\n\n" in md
    assert not (out / "hiroba").exists()


def _on_its_side(printed: str, mark: float, true: float) -> bool:
    """A printed end (points) lies strictly on the true end's side of a mark, on it only when it is."""

    def side(x: float) -> int:
        return (x > 1e-9) - (x < -1e-9)

    return side(float(printed.replace("\u2212", "-")) - mark) == side(true)


@settings(max_examples=300, deadline=None)
@given(
    lo=st.floats(0.0, 0.95),
    width=st.floats(0.0001, 0.6),
    n=st.integers(3, 6),
    t=st.sampled_from([0.01, 0.025, 0.05]),
    near=st.sampled_from([None, 0, 1, -1]),
    off=st.floats(1e-4, 0.02),
    below=st.booleans(),
    end=st.booleans(),
)
def test_a_printed_share_interval_end_is_on_its_side_of_the_fair_share_and_the_threshold_marks(
    lo, width, n, t, near, off, below, end
):
    """An end 0.73 points above the share printed as "+1" beside ±1 point reads "at least 1 point":
    each printed end is strictly on the true end's side of the fair share and of
    fair ± t (as printed beside it), equal to one only when it is on it."""
    from analysis.atlas import share_digits

    fair = 1 / n
    if near is not None:  # an end ≥ 0.01 points beside a mark: rounding would reach it
        x = fair + near * t + (-off if below else off)
        lo, hi = (x - width, x) if end else (x, x + width)
    else:
        hi = lo + width
    lo, hi = max(lo, 0.0), min(hi, 1.0)
    for from_fair in (False, True):
        d = share_digits(lo, hi, fair, t, from_fair=from_fair)
        for v in (lo, hi):
            for k in (0, 1, -1):
                if from_fair:  # "seat 1: +4.4 [+0.7, +8]" against 0 and ±t
                    printed, mark = signed(100 * (v - fair), d), 100 * k * t
                else:  # "36% [33.4, 39]" against a fair 33.3 and 33.3 ± 1 (the fair share as printed)
                    printed, mark = f"{100 * v:.{d}f}", round(100 * fair, d) + 100 * k * t
                assert _on_its_side(printed, mark, 100 * (v - fair - k * t)), (printed, mark, from_fair)


def test_an_end_inside_the_band_never_prints_on_its_mark():
    """Taluva 3 players: seat 1's lower end 0.73 points above 1/3 printed as "+1" beside ±1 point."""
    r = _row("taluva", "mcts:iters=100", 3, 900, (0.0, 0.0, 0.0), _seats(
        (1 / 3 + 0.044, 1 / 3 + 0.0073, 1 / 3 + 0.081), (0.31, 0.26, 0.36), (0.3, 0.25, 0.35)
    ))  # fmt: skip
    assert "seat 1 +4.4 points [+0.7, +8.1] from 1/3" in row_phrase(r)
    assert "1: 38% [34.1, 41.4]" in cell_words(r)
