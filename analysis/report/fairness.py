"""The report's "From diagnosis to fix" section: compensation in points, its confirmation, sweeps
and the ``balancelab fairest`` search of a run made by it."""

from __future__ import annotations

from typing import Any

from ..content import Finding
from ..fairness import CellFix, Sweep, cell_fixes, sweeps
from ..model import StudyAnalysis
from ..stats.compensation import describe
from ..stats.practical import SHORT
from .doc import Doc

__all__ = ["fairness_findings", "fairness_section"]


def _fix_row(s: StudyAnalysis, f: CellFix) -> list[object]:
    seats = [
        f"seat {i}: {f.comp.points[i]:+.1f} [{f.comp.lo[i]:+.1f}, {f.comp.hi[i]:+.1f}]"
        for i in range(1, f.cell.n_players)
    ]
    played = "—"
    if f.confirm_cell is not None and f.confirm_advantage is not None:
        a, lo, hi = f.confirm_advantage
        agree = "agrees with" if f.agrees else "differs from"
        played = f"{s.short(f.confirm_cell)}: {_points(a, lo, hi)} → {f.reading}; {agree} the prediction"
    return [f.cell.name, "; ".join(seats), str(list(f.comp.whole())), f"{100 * f.predicted:+.1f}", played]


def _points(a: float, lo: float, hi: float) -> str:
    return f"{100 * a:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _fairest(doc: Doc, s: StudyAnalysis) -> None:
    rounds: list[dict[str, Any]] = [r for r in s.manifest.get("precision_rounds") or [] if "fairest" in r]
    if not rounds:
        return
    last = rounds[-1]["fairest"]
    doc.heading("Fairest settings (balancelab fairest)", 3)
    doc.para(str(last.get("line", "")))
    rows = [
        [c["label"], f"{c['games']:,}", _points(c["advantage"], c["lo"], c["hi"]), c["status"],
         f"{c['turns']:.1f}", f"{100 * c['ties']:.1f}", f"{c['spread']:.1f}"]
        for c in last.get("candidates", [])
    ]  # fmt: skip
    doc.table(
        ["setting", "games", "advantage, points [95% CI]", "status", "turns", "ties, %", "score spread"], rows
    )


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def fairness_findings(s: StudyAnalysis, fixes: list[CellFix], found: list[Sweep]) -> list[Finding]:
    """The verdict block's lines on the fix: each cell's compensation in words, each sweep's answer;
    for a ``fairest`` run only the race's answer (the rest is in the section)."""
    rounds = [r["fairest"] for r in s.manifest.get("precision_rounds") or [] if "fairest" in r]
    if rounds:
        return [Finding("Fairest setting", _first_up(str(rounds[-1].get("line", ""))) + ".")]
    out = [
        Finding(
            f"Fix for {f.cell.name}", _first_up(describe(f.comp, s.game, f.cell.n_players, f.reading)) + "."
        )
        for f in fixes
    ]
    out += [
        Finding(f"Sweep of {w.option} ({w.label})", _first_up(w.fit.words(w.option)) + ".") for w in found
    ]
    return out


def fairness_section(
    doc: Doc, s: StudyAnalysis, fixes: list[CellFix] | None = None, found: list[Sweep] | None = None
) -> None:
    """Compensation per cell (in words and a table), confirmations, sweeps, and the fairest search."""
    fixes = cell_fixes(s) if fixes is None else fixes
    found = sweeps(s) if found is None else found
    has_fairest = any("fairest" in r for r in s.manifest.get("precision_rounds") or [])
    if not fixes and not found and not has_fairest:
        return
    doc.heading("From diagnosis to fix")
    if fixes:
        doc.para(
            "Compensation in points: the score handicap per turn-order seat (the start player's is 0) that "
            "would equalise the seats' win shares, recomputed from the recorded scores and tie-breaks of "
            "every game (equal handicapped scores fall to the game's tie-break), with a 95% deal-level "
            "bootstrap interval. A rule can only add whole points; a cell of the study played with that "
            "handicap confirms the fix (its start-player advantage within the practical threshold) or "
            "refutes it. The predicted advantage is what the recorded scores give under that whole-point "
            "handicap had nobody played differently; the played cell agrees with it when its interval holds "
            "it (a disagreement means the agents play differently with the handicap)."
        )
        for f in fixes:
            doc.para(f"{f.cell.name}: {describe(f.comp, s.game, f.cell.n_players, f.reading)}.")
        doc.table(
            [
                "cell",
                "fair handicap, points [95% CI]",
                "as a rule",
                "predicted advantage with it, points",
                "played with it: advantage, points → reading",
            ],
            [_fix_row(s, f) for f in fixes],
        )
    for w in found:
        cells = ", ".join(f"{x:g}" for _, x in sorted(w.cells, key=lambda t: t[1]))
        doc.para(f"Sweep of {w.option} ({w.label}; values {cells}): {w.fit.words(w.option)}.")
    if found:
        doc.para(
            "Sweep fits: the start player's win share of every game against the option's value, a straight "
            "line fitted by a Gaussian GLM with deal-clustered errors; the crossing of fair with Fieller's "
            f"95% interval. Reading against the practical threshold (±{100 * s.threshold:g} points): "
            + "; ".join(f"{k}: {v}" for k, v in SHORT.items())
            + "."
        )
    _fairest(doc, s)
