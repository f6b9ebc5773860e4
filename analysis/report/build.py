"""Builds a report directory: ``index.html`` and ``report.md``, both linking ``figures/*.png``."""

from __future__ import annotations

import html
import pathlib
from string import Template

from ..evidence import read_siblings, write_played
from ..fairness import cell_fixes, sweeps
from ..findings import scope, verdict
from ..games import section
from ..model import StudyAnalysis
from ..study import analyse
from ..switches import switch_sections
from ..words import minus_signs
from . import methods, sections
from .doc import Doc
from .fairness import fairness_findings, fairness_section
from .luck import estimator_lead, luck_section
from .skill import ladder_section
from .strength import strength_section
from .style import cell_colours

__all__ = ["build", "write_report"]

TEMPLATE = pathlib.Path(__file__).with_name("templates") / "index.html"


def build(s: StudyAnalysis, out: pathlib.Path) -> Doc:
    """The whole document: verdict first, then the evidence, then methods, glossary, provenance."""
    doc = Doc(out, cell_colours([c.id for c in s.info]), {c.id: c.name for c in s.info})
    doc.heading(f"balancelab report: {s.name}", 1)
    if s.description:
        doc.para(minus_signs(s.description), "subtitle")
    fixes, found = (cell_fixes(s), sweeps(s)) if s.advantage.height else ([], [])
    fix = fairness_findings(s, fixes, found)
    # A study that plays fixes (a handicap, a sweep) asks for the fix first.
    asks = bool(found) or any(c.variant.get("handicap") for c in s.info)
    doc.verdict(fix + verdict(s) if asks else verdict(s) + fix, scope(s) + estimator_lead(s))
    for w in s.warnings:
        doc.para(w, "warning")
    if s.advantage.height:
        sections.advantage(doc, s)
        fairness_section(doc, s, fixes, found)
        ladder_section(doc, s)
        sections.skill(doc, s)
        sections.comparisons(doc, s)
        sections.seats(doc, s)
        sections.outcomes(doc, s)
        luck_section(doc, s)
    game = section(s.game)
    for part in game.sections(s) if game.sections is not None and not s.generic else []:
        doc.section(part)  # the game's own sections read its own columns: none in a generic analysis
    for part in switch_sections(s):
        doc.section(part)
    strength_section(doc, s)
    methods.methods(doc, s)
    methods.glossary(doc, s)
    methods.provenance(doc, s)
    return doc


def write_report(
    run_dir: pathlib.Path | str,
    out_dir: pathlib.Path | str | None = None,
    *,
    threshold: float | None = None,
    allow_partial: bool = False,
    siblings_of: pathlib.Path | None = None,
    name: str | None = None,
) -> pathlib.Path:
    """Analyses ``run_dir`` and writes ``out_dir/index.html`` and ``report.md``, which both link
    ``figures/NAME.png`` (each figure's one file; keep the folder together); ``out_dir``
    defaults to the run's own ``run_dir/report``. Returns the ``index.html`` path. ``threshold``
    overrides the study's practical threshold; an incomplete run is refused unless
    ``allow_partial`` (:class:`rundir.IncompleteRun`). The handicaps the reports beside
    ``siblings_of`` (default ``out_dir``) played are quoted where this study only predicts them
    (:mod:`analysis.evidence`); ``out_dir/played.json`` lists the ones this study played, under the
    report's ``name`` (default: ``out_dir``'s folder name)."""
    s = analyse(run_dir, threshold=threshold, allow_partial=allow_partial)
    out = pathlib.Path(run_dir) / "report" if out_dir is None else pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    s.elsewhere = read_siblings(siblings_of or out)  # what the reports beside this one played
    doc = build(s, out)
    write_played(s, out, name or out.name)
    page = Template(TEMPLATE.read_text()).substitute(title=html.escape(s.name), body="\n".join(doc.html))
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    (out / "report.md").write_text("\n".join(doc.md).lstrip() + "\n", encoding="utf-8")
    return index
