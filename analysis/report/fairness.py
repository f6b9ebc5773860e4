"""The report's "From diagnosis to fix" section: compensation in points, its confirmation, sweeps
and the ``balancelab fairest`` search of a run made by it."""

from __future__ import annotations

from dataclasses import replace

from ..claims import (
    FixClaim,
    band_words,
    fix_sentence,
    fix_status,
    option_value,
    plain_play_warning,
    seat_name,
    sweep_sentence,
)
from ..content import Finding
from ..fairest import fairest_rounds, race_again
from ..fairness import CellFix, Sweep, cell_fixes, fix_claim, subject, sweep_claim, sweeps, unmeasured_claims
from ..model import StudyAnalysis
from ..skill import plain_agents
from ..words import around, pts, pts_span, signed
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


def chain_words(s: StudyAnalysis, chain: list[CellFix]) -> str:
    """A cell's fix in words: each estimate the study played, in turn, then the last estimate with
    every other handicap the reports beside this one played for the question; every sentence made
    from its typed claim (:mod:`analysis.claims`)."""
    steps = [f for f in chain[:-1] if f.confirm_advantage is not None]
    said = [
        fix_sentence(replace(fix_claim(s, f, chain[0].cell, others=False), rescored_by="")) for f in steps
    ]
    said.append(fix_sentence(fix_claim(s, chain[-1], chain[0].cell)))  # other plays, re-scoring: said once
    return " ".join(dict.fromkeys(said))  # a re-estimate that lands on the same played cell: said once


def _seat_words(f: CellFix) -> str:
    """Each seat's fair handicap with its interval; one whose interval has no width as printed is
    shown without one (the bootstrap found no spread: a point only decides ties there)."""

    def one(i: int) -> str:
        lo, hi = signed(f.comp.lo[i]), signed(f.comp.hi[i])
        spread = f" [{lo}, {hi}]" if lo != hi else " (no spread)"
        return f"{seat_name(i)}: {signed(f.comp.points[i])}{spread}"

    return "; ".join(one(i) for i in range(1, f.cell.n_players))


def _rule_words(h: tuple[int, ...]) -> str:
    given = [f"{seat_name(i)} {signed(p, 0)}" for i, p in enumerate(h) if p]
    return "; ".join(given) if given else "none"


def _fix_row(s: StudyAnalysis, f: CellFix) -> list[object]:
    claim = fix_claim(s, f)
    played = "not played"
    if f.confirm_advantage is not None:
        if f.confirm_cell is None:
            where = f"in {f.confirm_report}"
        else:
            where = "this cell" if f.confirm_cell == f.cell.id else s.short(f.confirm_cell)
        played = f"{where}: {_points(*f.confirm_advantage, s.threshold)}"
    source = f.cell.name if not f.step else f"{f.cell.name} (re-estimate {f.step})"
    predicted = _points(f.predicted, f.predicted_lo, f.predicted_hi, s.threshold)
    return [source, _seat_words(f), _rule_words(f.comp.whole()), predicted, played, fix_status(claim)]


def _points(a: float, lo: float, hi: float, t: float = 0.0) -> str:
    return f"{pts(a)} {pts_span(lo, hi, around(t))}"


def _fairest(doc: Doc, s: StudyAnalysis) -> None:
    if not fairest_rounds(s.manifest):
        return
    cands, line = race_again(s.manifest, s.rows, s.threshold)
    doc.heading("Fairest settings (balancelab fairest)", 3)
    doc.para(_first_up(line) + ".")
    doc.para(
        "Each setting's interval is a 95% confidence sequence (see the lead), recomputed here from every "
        "game played; a setting is out when its whole interval lies farther from fair than the whole "
        "interval of the best."
    )
    rows = [
        [c["label"], f"{c['games']:,}", _points(c["advantage"], c["lo"], c["hi"], s.threshold), c["status"],
         f"{c['turns']:.1f}", f"{100 * c['ties']:.1f}", f"{c['spread']:.1f}"]
        for c in cands
    ]  # fmt: skip
    doc.table(
        [
            "setting",
            "games",
            "advantage, points [95% confidence sequence]",
            "status",
            "turns",
            "ties, %",
            "score spread",
        ],
        rows,
    )


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unmeasured(claims: list[FixClaim]) -> list[Finding]:
    """Why no handicap is given: one line for the whole study when every cell has the same reason
    (Taluva's ranking key said once, not once per cell), else one per cell."""
    if len(claims) > 1 and len({(c.score_note, c.missing, c.score_unit) for c in claims}) == 1:
        every = replace(claims[0], subject=f"any of the {len(claims)} cells of this study")
        return [Finding("Handicap", fix_sentence(every))]
    return [Finding(f"Handicap for {c.subject}", fix_sentence(c)) for c in claims]


def fairness_findings(s: StudyAnalysis, fixes: list[CellFix], found: list[Sweep]) -> list[Finding]:
    """The verdict block's lines on the fix: each cell's compensation in words, each sweep's answer;
    for a ``fairest`` run only the race's answer (the rest is in the section)."""
    if fairest_rounds(s.manifest):
        line = _first_up(race_again(s.manifest, s.rows, s.threshold)[1]) + "."
        who = plain_agents(a for c in s.info for a in c.agents)
        if who:
            line += " " + plain_play_warning("this is the race's answer for that play", who)
        return [Finding("Fairest setting", line)]
    out = _unmeasured(unmeasured_claims(s))
    out += [
        Finding(f"Handicap for {subject(s, chain[0].cell)}", chain_words(s, chain))
        for chain in _chains(fixes)
    ]
    out += [Finding(f"Sweep of {w.option} ({w.label})", sweep_sentence(sweep_claim(s, w))) for w in found]
    return out


def _fixes(doc: Doc, s: StudyAnalysis, fixes: list[CellFix]) -> None:
    doc.para(
        "Compensation in points: the score handicap per turn-order seat (the start player's is 0) that "
        "would equalise the seats' win shares, recomputed from the recorded scores and tie-breaks of "
        "every game (equal handicapped scores fall to the game's tie-break), with a 95% deal-level "
        "bootstrap interval. A rule can only add whole points. The predicted advantage (with its 95% "
        "interval) is what the recorded scores give under that whole-point handicap had nobody played "
        "differently: a prediction. Played evidence outranks it: a cell of the study played with the "
        "handicap confirms it (its start-player advantage wholly within the threshold, "
        f"{band_words(s.threshold)}), refutes it (wholly beyond) or leaves it not settled, and a refuted "
        "handicap is never recommended. Unplayed, a handicap is said to be fair only when the predicted "
        "interval lies within the threshold. Where play refutes an estimate, the fix is estimated again "
        "from the games of the cell that refuted it (rows marked re-estimate)."
    )
    for chain in _chains(fixes):
        doc.para(chain_words(s, chain))
    doc.table(
        [
            "cell",
            "fair handicap, points [95% CI]",
            "as a rule, points",
            "predicted advantage with it, points [95% CI]",
            "played with it: advantage, points [95% CI]",
            "reading",
        ],
        [_fix_row(s, f) for f in fixes],
    )


def fairness_section(
    doc: Doc, s: StudyAnalysis, fixes: list[CellFix] | None = None, found: list[Sweep] | None = None
) -> None:
    """Compensation per cell (in words and a table), confirmations, sweeps, and the fairest search."""
    fixes = cell_fixes(s) if fixes is None else fixes
    found = sweeps(s) if found is None else found
    has_fairest = bool(fairest_rounds(s.manifest))
    if not fixes and not found and not has_fairest:
        return
    doc.heading("From diagnosis to fix")
    for c in unmeasured_claims(s):
        doc.para(fix_sentence(c))
    if fixes:
        _fixes(doc, s, fixes)
    for w in found:
        cells = ", ".join(option_value(x) for _, x in sorted(w.cells, key=lambda t: t[1]))
        doc.para(f"Sweep of {w.option} ({w.label}; values {cells}): {sweep_sentence(sweep_claim(s, w))}")
    if found:
        doc.para(
            "Sweeps: a played value whose start-player advantage lies within the threshold "
            f"({band_words(s.threshold)}) answers the question directly. Otherwise the start player's win "
            "share of every game is fitted against the option's value by a straight line (Gaussian GLM, "
            "deal-clustered errors), read only when its slope's 95% interval excludes 0 and a lack-of-fit "
            "test (the line against one mean per value, Wald test, p below 0.05 rejects it) does not reject "
            'it; its crossing of fair carries Fieller\'s 95% interval and is a prediction. "Never fair" is '
            "said only when every played value lies wholly beyond the threshold on one side and the line "
            "crosses fair outside the swept range."
        )
    _fairest(doc, s)
