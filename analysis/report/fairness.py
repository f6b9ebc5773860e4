"""The report's "From diagnosis to fix" section: compensation in points, its confirmation, sweeps
and the ``balancelab fairest`` search of a run made by it."""

from __future__ import annotations

from typing import Any

from ..content import Finding
from ..fairness import CellFix, Sweep, cell_fixes, sweeps
from ..model import StudyAnalysis
from ..stats.compensation import describe
from ..stats.practical import SHORT
from ..words import pts, signed
from .doc import Doc

__all__ = ["fairness_findings", "fairness_section"]


def _chains(fixes: list[CellFix]) -> list[list[CellFix]]:
    """The fixes grouped by the unhandicapped cell each chain starts from."""
    chains: list[list[CellFix]] = []
    for f in fixes:
        if f.step == 0:
            chains.append([f])
        else:
            chains[-1].append(f)
    return chains


def _played_words(h: tuple[int, ...]) -> str:
    """A handicap as played, e.g. "with the start player +2 points"."""
    if len(h) == 2:
        who, points = ("start", -h[1]) if h[1] <= 0 else ("second", h[1])
        return f"with the {who} player {points:+d} point{'' if abs(points) == 1 else 's'}"
    return "with " + "; ".join(f"seat {i} {p:+d}" for i, p in enumerate(h) if p)


def chain_words(s: StudyAnalysis, chain: list[CellFix]) -> str:
    """A cell's fix in words: each estimate played in turn, then the last estimate."""
    last = chain[-1]
    said = describe(last.comp, s.game, last.cell.n_players, last.reading)
    if len(chain) == 1:
        return said
    steps = []
    for f in chain:
        if f.confirm_advantage is None or f.confirm_cell == f.cell.id:
            continue
        source = (
            "the unhandicapped games"
            if not f.step
            else f"re-estimated from the games played {_played_words(f.played_at)}, they"
        )
        text = (
            f"{source} put fair {_played_words(f.comp.whole())}; played so, the advantage is "
            f"{_points(*f.confirm_advantage)}: {f.reading}"
        )
        if not f.agrees:
            text += f" (the scores predicted {pts(f.predicted)}: the agents play differently with it)"
        steps.append(text)
    return "; ".join(steps) + f"; so {said}"


def _fix_row(s: StudyAnalysis, f: CellFix) -> list[object]:
    seats = [
        f"seat {i}: {signed(f.comp.points[i])} [{signed(f.comp.lo[i])}, {signed(f.comp.hi[i])}]"
        for i in range(1, f.cell.n_players)
    ]
    played = "—"
    if f.confirm_cell is not None and f.confirm_advantage is not None:
        a, lo, hi = f.confirm_advantage
        agree = "agrees with" if f.agrees else "differs from"
        played = f"{s.short(f.confirm_cell)}: {_points(a, lo, hi)} → {f.reading}; {agree} the prediction"
        if f.confirm_cell == f.cell.id:
            played = f"this cell: {_points(a, lo, hi)} → {f.reading}; its own games put fair at its handicap"
    source = f.cell.name if not f.step else f"{f.cell.name} (re-estimate {f.step})"
    return [source, "; ".join(seats), str(list(f.comp.whole())), pts(f.predicted), played]


def _points(a: float, lo: float, hi: float) -> str:
    return f"{pts(a)} [{pts(lo)}, {pts(hi)}]"


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
        Finding(f"Fix for {chain[0].cell.name}", _first_up(chain_words(s, chain)) + ".")
        for chain in _chains(fixes)
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
            "it (a disagreement means the agents play differently with the handicap). Where play refutes "
            "an estimate, the fix is estimated again from the games of the cell that refuted it (the "
            "handicap taken off their scores) and confirmed by the cell played with the new value, along "
            "the handicaps the study played (rows marked re-estimate)."
        )
        for chain in _chains(fixes):
            doc.para(f"{chain[0].cell.name}: {chain_words(s, chain)}.")
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
