"""The report: files written, self-contained HTML, and a real render in headless Chromium."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import pytest
from helpers_runs import write_run

from analysis.report import write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

CHECK_SCRIPT = """
<script>
window.addEventListener('load', function () {
  var imgs = Array.from(document.images);
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
  var out = document.createElement('pre');
  out.id = 'img-check';
  out.textContent = 'IMAGES ' + ok + '/' + imgs.length;
  document.body.appendChild(out);
});
</script>
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> pathlib.Path:
    root = tmp_path_factory.mktemp("rep")
    run = write_run(
        root / "run",
        name="alhambra-mini",
        game="alhambra",
        pair_seats=True,
        cells=[
            {"id": "dirk", "label": "2p with Dirk", "agents": ["random"] * 2, "games": 60},
            {
                "id": "nodirk",
                "label": "2p without Dirk",
                "variant": {"dirk": False},
                "agents": ["random"] * 2,
                "games": 60,
            },
            {"id": "p3", "label": "3 players", "agents": ["random"] * 3, "games": 30},
        ],
    )
    return write_report(run)  # into the run: run/report/


def test_report_files(report):
    out = report.parent
    assert report.name == "index.html" and out.name == "report" and (out.parent / "manifest.json").exists()
    md = (out / "report.md").read_text()
    for name in ("start_advantage", "seat_win_rates", "scores_by_seat", "game_length", "dirk", "differences"):
        assert (out / "figures" / f"{name}.png").stat().st_size > 1000
        assert (out / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        assert f"figures/{name}.png" in md
    for heading in (
        "## Summary",
        "## Provenance",
        "## Start-player advantage",
        "## Dirk",
        "## Variant comparisons",
    ):
        assert heading in md
    # Every cell whose interval is too wide for its verdict gets a warning (tiny cells: most).
    from analysis import analyse

    study = analyse(out.parent.parent / "run")
    inconclusive = sum("no detectable" in v for v in study.advantage["verdict"].to_list())
    assert inconclusive >= 1
    assert md.count("**Warning:**") == inconclusive == len(study.warnings)


def test_html_is_self_contained(report):
    page = report.read_text()
    srcs = re.findall(r'<img[^>]*src="([^"]+)"', page)
    assert len(srcs) == 6
    assert all(s.startswith("data:image/png;base64,") for s in srcs)
    assert not re.search(r'(src|href)="(https?:|file:|/)', page), "must not reference external resources"
    assert "adjusted for starting hand" in page and "Holm" in page


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (apt-get install -y chromium)")
def test_html_renders_in_headless_chromium(report, tmp_path):
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", CHECK_SCRIPT + "</body>"))
    flags = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--virtual-time-budget=10000",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run([*flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120)
    m = re.search(r"IMAGES (\d+)/(\d+)", dom.stdout)
    assert m, dom.stderr[-2000:]
    assert int(m.group(2)) == 6 and m.group(1) == m.group(2), m.group(0)
    shot = tmp_path / "shot.png"
    subprocess.run(
        [*flags, f"--screenshot={shot}", "--window-size=1200,2400", report.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    shutil.copy(shot, report.parent / "screenshot.png")
