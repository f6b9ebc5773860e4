"""The report: verdict first, honest figures, each stored once as a PNG both pages link, a real
render in headless Chromium, the migration of reports that embedded them, and one way through
``analysis/`` (no import cycle; only the renderer draws)."""

from __future__ import annotations

import ast
import base64
import json
import pathlib
import re
import shutil
import subprocess

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from helpers_runs import set_study_keys, write_run
from PIL import Image

import rundir
from analysis import analyse, verdict
from analysis.report import write_report
from analysis.report.figures import advantage_plot
from analysis.report.migrate import main as migrate_main
from analysis.report.plots import draw_dotplot, lossless_png
from analysis.report.style import cell_colours

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ANALYSIS = pathlib.Path(__file__).resolve().parents[1] / "analysis"

CHECK_SCRIPT = """
<script>
window.addEventListener('load', function () {
  var imgs = Array.from(document.images);
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
  var v = document.getElementById('verdict');
  var out = document.createElement('pre');
  out.id = 'img-check';
  out.textContent = 'IMAGES ' + ok + '/' + imgs.length + ' VERDICT ' +
    (v ? Math.round(v.getBoundingClientRect().top) + ' ' + v.querySelectorAll('li').length : 'none');
  document.body.appendChild(out);
});
</script>
"""

CELLS = [
    {"id": "dirk", "label": "2 players, dirk_official, random", "agents": ["random"] * 2, "games": 60},
    {
        "id": "nodirk",
        "label": "2 players, no_dirk, random",
        "variant": {"dirk": False},
        "agents": ["random"] * 2,
        "games": 60,
    },
    {"id": "p3", "label": "3 players, dirk_official, random", "agents": ["random"] * 3, "games": 30},
]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> pathlib.Path:
    root = tmp_path_factory.mktemp("rep")
    run = write_run(root / "run", name="alhambra-mini", game="alhambra", pair_seats=True, cells=CELLS)
    index = write_report(run)  # into the run: run/report/
    assert index == run / "report" / "index.html"
    return index


def _h2(md: str) -> list[str]:
    return [x[3:] for x in md.splitlines() if x.startswith("## ")]


def test_verdict_comes_first_and_methods_last(report):
    md = (report.parent / "report.md").read_text()
    heads = _h2(md)
    assert heads[0] == "Verdict"
    assert heads[-3:] == ["Methods", "Glossary", "Provenance"]
    for h in (
        "Start-player advantage",
        "Comparisons between cells",
        "Win rate by seat",
        "Dirk (2-player variant)",
    ):
        assert h in heads
    block = md.split("## Verdict", 1)[1].split("\n## ", 1)[0]
    # one sentence per cell, with its win rate, interval and fair share, named by label, not id
    for name in ("2 players, dirk_official", "2 players, no_dirk", "3 players, dirk_official"):
        assert f"- **{name}.** The start player wins " in block
    assert block.count("(95% CI ") >= 3 and "fair is 50.0%" in block and "fair is 33.3%" in block
    assert "Variant closest to fair" in block and "Which number describes the game" in block
    assert "±1 point of win rate (the default)" in block


def test_numbers_read_as_words(report):
    md = (report.parent / "report.md").read_text()
    assert not re.search(r"\d\.\d+e-\d+", md), "no scientific notation"
    assert "p (Bonferroni)" in md and "unit of analysis is the deal" in md
    for term in ("cell", "deal", "fair share", "points of win rate", "p (Bonferroni)", "matters"):
        assert f"| {term} |" in md  # glossary
    s = analyse(report.parent.parent)
    assert {"finding", "first", "hand", "win_rate"} <= set(s.advantage.columns)
    parts = s.advantage.select((pl.col("first") + pl.col("hand") - pl.col("advantage")).abs().max()).item()
    assert parts < 1e-9  # moving first + starting hand = raw


def _figure_links(folder: pathlib.Path) -> tuple[list[str], list[str]]:
    """The figure paths ``index.html``'s images and ``report.md``'s images link, in page order."""
    page = (folder / "index.html").read_text()
    md = (folder / "report.md").read_text()
    return re.findall(r'<img[^>]*src="([^"]+)"', page), re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)


def test_each_figure_is_stored_once_and_linked_by_both_pages(report):
    page = report.read_text()
    srcs, md_links = _figure_links(report.parent)
    assert srcs == md_links and len(srcs) >= 7
    assert "data:" not in page and "base64" not in page, "no embedded images"
    assert not re.search(r'(src|href)="(https?:|file:|/)', page), "must not reference external resources"
    assert page.index('id="verdict"') < page.index("<img")
    figures = sorted((report.parent / "figures").iterdir())
    assert [f"figures/{p.name}" for p in figures] == sorted(srcs), "one PNG per figure, nothing else"
    for src in srcs:
        with Image.open(report.parent / src) as image:
            assert image.format == "PNG" and image.mode in {"RGB", "P"}, src  # compacted: no alpha
            assert f'src="{src}" width="{image.width}" height="{image.height}"' in page


def _has_colour(png: pathlib.Path, colour: str) -> bool:
    rgb = np.asarray(Image.open(png).convert("RGB")).reshape(-1, 3)
    return bool((rgb == [int(colour[i : i + 2], 16) for i in (1, 3, 5)]).all(axis=1).any())


def test_figures_name_cells_by_label_and_keep_their_colour(report):
    figs = report.parent / "figures"
    colours = cell_colours([c["id"] for c in CELLS])
    for name in ("start_advantage", "seat_win_rates_p2", "scores_by_seat", "game_length", "dirk"):
        assert _has_colour(figs / f"{name}.png", colours["dirk"]), name  # the same cell, the same colour
    assert _has_colour(figs / "start_advantage.png", colours["nodirk"])
    assert not _has_colour(figs / "dirk.png", colours["nodirk"])  # no Dirk in that cell
    s = analyse(report.parent.parent)
    fig = draw_dotplot(advantage_plot(s), colours, {c.id: c.name for c in s.info})
    ax = fig.axes[0]
    labels = {t.get_text() for t in ax.get_yticklabels()}
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    plt.close(fig)
    assert "2 players, no_dirk" in labels and "nodirk" not in labels
    # the advantage is drawn against the threshold band around 0, in points
    assert "within the practical threshold" in legend


def test_lossless_png_keeps_every_pixel():
    rng = np.random.default_rng(7)
    many = rng.integers(0, 256, (40, 30, 4), dtype=np.uint8)
    many[..., 3] = 255
    few = rng.choice(
        np.array([[0, 114, 178, 255], [255, 255, 255, 255], [213, 94, 0, 255]], np.uint8), (40, 30)
    )
    clear = many.copy()
    clear[0, 0, 3] = 0
    for pixels, mode in ((many, "RGB"), (few, "P"), (clear, "RGBA")):
        out = lossless_png(Image.fromarray(pixels, "RGBA"))
        assert out.mode == mode
        assert np.array_equal(np.asarray(out.convert("RGBA")), pixels)


def _legacy_copy(report: pathlib.Path, into: pathlib.Path, svg_embedded: str) -> pathlib.Path:
    """The report as renderers before the one-file layout wrote it: every figure embedded as
    base64, a PNG and an SVG beside it; ``svg_embedded``'s page image is its SVG."""
    folder = into / "old"
    shutil.copytree(report.parent, folder)
    page, md = (folder / "index.html").read_text(), (folder / "report.md").read_text()
    for png in sorted((folder / "figures").glob("*.png")):
        svg = png.with_suffix(".svg")
        svg.write_text(
            f"<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'><title>{png.stem}</title></svg>"
        )
        kind, data = ("svg+xml", svg.read_bytes()) if png.stem == svg_embedded else ("png", png.read_bytes())
        uri = f"data:image/{kind};base64,{base64.b64encode(data).decode()}"
        page = re.sub(rf'src="figures/{png.name}" width="\d+" height="\d+"', f'src="{uri}"', page)
        md = re.sub(
            rf"(\(figures/{png.stem}\.png\)\n\n\*[^\n]*\*)\n", rf"\1 ([SVG](figures/{png.stem}.svg))\n", md
        )
    (folder / "index.html").write_text(page)
    (folder / "report.md").write_text(md)
    return folder


def test_migration_links_the_embedded_images_and_deletes_the_duplicates(report, tmp_path):
    old = _legacy_copy(report, tmp_path, svg_embedded="dirk")
    assert "data:image/png;base64," in (old / "index.html").read_text()
    assert "([SVG](figures/start_advantage.svg))" in (old / "report.md").read_text()
    pixels = {p.name: np.asarray(Image.open(p).convert("RGBA")) for p in (old / "figures").glob("*.png")}
    assert migrate_main([str(tmp_path)]) == 0
    srcs, md_links = _figure_links(old)
    assert srcs == md_links and "figures/dirk.svg" in srcs and "figures/start_advantage.png" in srcs
    assert "data:" not in (old / "index.html").read_text() and "[SVG]" not in (old / "report.md").read_text()
    assert sorted(f"figures/{p.name}" for p in (old / "figures").iterdir()) == sorted(srcs)
    for src in srcs:
        if src.endswith(".png"):  # compacted, not changed
            assert np.array_equal(np.asarray(Image.open(old / src).convert("RGBA")), pixels[src[8:]])


def test_migration_refuses_an_image_that_matches_no_file(report, tmp_path, capsys):
    old = _legacy_copy(report, tmp_path, svg_embedded="")
    (old / "figures" / "game_length.png").write_bytes(b"not the embedded image")
    before = {p: p.read_bytes() for p in old.rglob("*") if p.is_file()}
    assert migrate_main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "matches no file in figures/" in err and "index.html" in err
    assert before == {p: p.read_bytes() for p in old.rglob("*") if p.is_file()}, "nothing written"
    assert migrate_main([str(tmp_path / "nope")]) == 2


def test_threshold_is_a_study_setting(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="coin-t",
        game="coin",
        cells=[
            {
                "id": "a",
                "label": "3 players, biased",
                "agents": ["random"] * 3,
                "variant": {"p": [0.36, 0.33, 0.31]},
                "games": 3000,
            },
        ],
    )
    s1 = analyse(run)
    s2 = analyse(set_study_keys(run, practical_threshold=0.1))
    assert (s1.threshold, s1.threshold_source) == (0.01, "default")
    assert (s2.threshold, s2.threshold_source) == (0.1, "study setting practical_threshold")
    assert s1.advantage["finding"][0] in ("matters", "measurable")
    assert s2.advantage["finding"][0] in ("fair", "negligible")
    assert "±10 points of win rate (this study's threshold)" in " ".join(analysis_scope(s2))
    with pytest.raises(ValueError, match="practical_threshold"):
        analyse(run, threshold=2.0)


def analysis_scope(s):
    from analysis.findings import scope

    return scope(s)


def test_skill_dependence_side_by_side(tmp_path):
    run = write_run(
        tmp_path / "run",
        name="skill",
        game="alhambra",
        pair_seats=True,
        cells=[
            {"id": "p2-random", "label": "2 players, random", "agents": ["random"] * 2, "games": 20},
            {"id": "p2-greedy", "label": "2 players, greedy", "agents": ["greedy"] * 2, "games": 20},
        ],
    )
    index = write_report(run, tmp_path / "reports")
    md = (index.parent / "report.md").read_text()
    assert "## Skill dependence" in md
    assert "| question | random: advantage, points [95% CI] | greedy: advantage, points [95% CI] |" in md
    assert any(f.title == "Skill" for f in verdict(analyse(run)))


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (apt-get install -y chromium)")
def test_html_renders_in_headless_chromium(report, tmp_path):
    copy = tmp_path / "report"  # the page with its figures/, as a reader has it
    shutil.copytree(report.parent, copy)
    probe = copy / "probe.html"
    probe.write_text(report.read_text().replace("</body>", CHECK_SCRIPT + "</body>"))
    flags = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--virtual-time-budget=10000",
        "--window-size=1280,1000",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run([*flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120)
    m = re.search(r"IMAGES (\d+)/(\d+) VERDICT (\S+) (\d+)", dom.stdout)
    assert m, dom.stderr[-2000:]
    images = len(re.findall(r"<img ", report.read_text()))
    assert int(m.group(2)) == images and m.group(1) == m.group(2), m.group(0)
    # the verdict block is on the first screen and holds one finding per cell at least
    assert 0 <= int(m.group(3)) < 300 and int(m.group(4)) >= len(CELLS), m.group(0)
    shot = tmp_path / "shot.png"
    subprocess.run([*flags, f"--screenshot={shot}", report.as_uri()], capture_output=True, timeout=120)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


# ---------------------------------------------------------------- one way through analysis/


def _module(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ANALYSIS.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path, modules: set[str]) -> set[str]:
    """Modules of ``analysis`` that ``path`` imports anywhere (top level, functions, TYPE_CHECKING)."""
    me = _module(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            root = ".".join([*base, *(node.module.split(".") if node.module else [])])
            # ``from . import x`` imports the submodule x, ``from .m import f`` the module m
            names = [f"{root}.{a.name}" if f"{root}.{a.name}" in modules else root for a in node.names]
        for name in names:
            if name in modules and name != me:
                found.add(name)
    return found


def _graph() -> dict[str, set[str]]:
    files = sorted(ANALYSIS.rglob("*.py"))
    modules = {_module(f) for f in files}
    return {_module(f): _imports(f, modules) for f in files}


def test_analysis_has_no_import_cycle():
    graph = _graph()
    graph.pop("analysis")  # the package's face re-exports from below; nothing imports it back
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt == "analysis" or graph.get(nxt) is None:
                continue
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join([*path, nxt])
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])


def test_only_the_renderer_draws_and_sections_return_data():
    graph = _graph()
    for path in sorted(ANALYSIS.rglob("*.py")):
        me = _module(path)
        if me.startswith("analysis.report"):
            continue
        tree = ast.parse(path.read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(x.split(".")[0] == "matplotlib" for x in imported), f"{me} must not draw"
        assert not any(x.startswith("analysis.report") for x in graph[me]), f"{me} imports the renderer"
    # analysis.games (the section list) knows no game module and no analysis step above it
    assert graph["analysis.games"] <= {"analysis.content", "analysis.model"}
    for game in ("analysis.games.alhambra", "analysis.games.hiroba", "analysis.games.taluva"):
        assert not graph[game] & {"analysis.study", "analysis.findings"}


def test_practical_threshold_is_a_study_field():
    from pipeline.study import StudyError, parse_study

    data = {
        "name": "t",
        "game": "coin",
        "seed": 1,
        "games_per_cell": 10,
        "grid": {"players": [2], "agents": ["random"]},
    }
    assert parse_study(data, "t.toml").to_dict()["practical_threshold"] is None
    assert (
        parse_study({**data, "practical_threshold": 0.02}, "t.toml").to_dict()["practical_threshold"] == 0.02
    )
    with pytest.raises(StudyError, match="practical_threshold: must be a share"):
        parse_study({**data, "practical_threshold": 2}, "t.toml")


def test_a_run_from_a_modified_working_tree_says_so_in_red_and_a_clean_one_does_not(report, tmp_path):
    clean = (report.parent / "report.md").read_text()
    assert "Modified working tree" not in clean and 'class="dirty"' not in report.read_text()
    run = write_run(tmp_path / "run", name="dirty", game="alhambra", pair_seats=True, cells=CELLS[:1])
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["git_commit"] = "0000000-dirty"
    manifest["checksum"] = rundir.manifest.checksum(manifest)
    (run / "manifest.json").write_text(json.dumps(manifest))
    index = write_report(run)
    assert (
        "> **Modified working tree:** This run was made from a modified working tree (git commit "
        in (index.parent / "report.md").read_text()
    )
    html = index.read_text()
    assert '<p class="dirty">' in html and ".dirty { color: #b00020" in html


def test_the_advantage_parts_caption_averages_only_the_cells_shown_and_says_so(report):
    md = (report.parent / "report.md").read_text()
    caption = next(line for line in md.splitlines() if line.startswith("*The parts add up"))
    assert "the plain mean over the 3 self-play cells shown" in caption
    assert "(each cell counts once, across 2 player counts)" in caption
    seats = next(line for line in md.splitlines() if line.startswith("*With 2 players seat"))
    assert "the plain mean over the 2 cells" in seats


def test_seats_tied_as_printed_are_named_together_whatever_the_float_sum_order():
    from analysis.report.figures import _most_often

    third = 1 / 3
    assert _most_often([0, 1, 2], [0.30, third, third - 1e-17]) == [(1, third), (2, third - 1e-17)]
    assert _most_often([0, 1, 2], [0.40, third, 0.27]) == [(0, 0.40)]


def test_a_takeaway_averages_the_cells_without_a_handicap_when_a_study_plays_both(tmp_path):
    """hiroba-handicap said "seat 1 wins most often (53.0%, the plain mean over its 9 cells)",
    eight of them handicapped: a mean over handicaps describes no game."""
    from helpers_runs import write_run

    from analysis import analyse
    from analysis.report.figures import seat_plots
    from analysis.words import pct

    cells = [
        {"id": "plain", "label": "none", "agents": ["random"] * 2, "games": 200},
        {"id": "h", "label": "h", "agents": ["random"] * 2, "variant": {"handicap": [0, 3]}, "games": 200},
    ]
    s = analyse(write_run(tmp_path / "run", name="coin-h", game="coin", pair_seats=True, cells=cells))
    (plot,) = seat_plots(s)
    assert "the one cell without a handicap" in plot.takeaway
    plain = s.seats.filter((pl.col("cell") == "plain") & (pl.col("seat") == 0))["win_rate"][0]
    assert pct(plain) in plot.takeaway or pct(1 - plain) in plot.takeaway


def test_provenance_names_the_commit_that_wrote_the_page(report):
    from rundir.source import code_commit

    md = (report.parent / "report.md").read_text()
    written = code_commit()
    assert written is not None  # the tests run from a checkout
    assert f"| page written at | {written} |" in md


def test_one_cell_is_counted_in_the_singular():
    from analysis.report.figures import _count

    assert _count(1, 1) == "the one cell" and _count(0, 1) == "no cell" and _count(2, 3) == "2 of 3 cells"
