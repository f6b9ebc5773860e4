"""The verdict block as data: each question the study answers, in one plain sentence.

:func:`verdict` returns :class:`~analysis.content.Finding` items in this order:

1. per cell: the start player's win rate with its interval, the fair share, and what the interval
   rules out, read against the practical threshold (:mod:`analysis.stats.practical`);
2. which number describes the game, when a game splits the raw advantage into parts;
3. per group of variants (same player count and line-up): the variant closest to fair, with the
   Bonferroni-corrected comparisons that support it (and, where cells change one option each
   against a defaults cell, which of those switches move the advantage beyond the threshold:
   :func:`analysis.switches.switch_findings`); a group played by greedy or random agents only says
   that the answer may change with skill (:func:`analysis.claims.plain_play_warning`);
4. per question asked at several skill levels (line-ups): the answers side by side, and whether
   the answer changes with skill (a typed claim, :class:`analysis.claims.SkillClaim`: "changes"
   only when the paired difference strongest minus weakest excludes 0);
5. the game's own findings (:attr:`analysis.games.GameSection.findings`).

A skill ladder's findings come first, then a game's findings marked ``lead`` (the expert-level
answer), then a switch study's switch findings, then the per-skill-level answers; per-cell
sentences follow, strongest line-up first.

:func:`scope` says in one or two sentences what was played.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import groupby
from typing import Any

import polars as pl

from .claims import (
    Interval,
    SkillClaim,
    band_words,
    plain_play_warning,
    skill_sentence,
    threshold_source_words,
)
from .content import Finding
from .games import section
from .ladder_findings import ladder_findings
from .model import CellInfo, StudyAnalysis, unhandicapped
from .skill import plain_agents
from .stats.practical import MIN_VERDICT_DEALS
from .switches import switch_findings
from .words import around, edge_digits, pct, pts, pts_ci, pts_span

__all__ = ["scope", "skill_claim", "threshold_words", "verdict"]


#: ``±1 point`` / ``±2 points`` of win rate: the claims' wording, one definition.
threshold_words = band_words


def _tail(r: dict[str, Any], t: float) -> str:
    if r.get("few_units"):
        few = f"only {r['units']} deals (or games), fewer than the {MIN_VERDICT_DEALS} a verdict needs"
        return f"not settled: {few}."
    a, lo, hi = r["advantage"], r["lo"], r["hi"]
    word = "an advantage" if a > 0 else "a disadvantage"
    size = f"{abs(100 * a):.1f} points of win rate"
    band = threshold_words(t)
    near, d = min(abs(100 * lo), abs(100 * hi)), edge_digits(lo, hi, around(t))
    return {
        "matters": f"{word} of {size} that matters: the interval rules out a fair game and "
        f"anything smaller than {near:.{d}f} points, beyond the {band} threshold.",
        "measurable": f"{word} of {size}: the interval rules out a fair game but not a difference "
        f"within {band}, so it is measurable but not shown to matter.",
        "negligible": f"{word} of only {size}: measurable, but the interval rules out anything "
        f"beyond {band}, so it does not matter in practice.",
        "fair": f"fair in practice: the interval rules out an advantage or disadvantage beyond {band}.",
        "unsettled": f"not settled: the interval (±{100 * r['halfwidth']:.1f} points) holds both a fair "
        f"game and a difference beyond {band}; more games are needed.",
    }[r["finding"]]


def _adv_ci(r: dict[str, Any], t: float) -> str:
    """A row's start-player advantage with its interval (its ends on their side of 0 and ±t), named a
    confidence sequence where it is one."""
    text = pts_ci(r["advantage"], r["lo"], r["hi"], marks=around(t))
    return text.replace("95% CI", "95% confidence sequence") if r.get("anytime_valid") else text


def start_player(s: StudyAnalysis, c: CellInfo) -> Finding:
    """The start-player sentence of one cell."""
    r = s.advantage_row(c.id)
    fair, d = r["fair"], edge_digits(r["lo"], r["hi"], around(s.threshold))
    several = len({x.lineup for x in s.balance}) > 1
    sentence = (
        (f"With {c.lineup} self-play, the" if several and " vs " not in c.lineup else "The")
        + f" start player wins {pct(r['win_rate'])} of {c.n_players}-player games "
        + ("(95% confidence sequence " if r.get("anytime_valid") else "(95% CI ")
        + f"{100 * (r['lo'] + fair):.{d}f}–{100 * (r['hi'] + fair):.{d}f}%; fair is {pct(fair)}): "
        + _tail(r, s.threshold)
    )
    return Finding(c.name, sentence, (c.id,))


def _parts(s: StudyAnalysis) -> list[Finding]:
    parts = section(s.game).advantage_parts
    if not parts or not s.advantage.height or parts[0].estimate not in s.advantage.columns:
        return []
    bits, (cells, some) = [], unhandicapped(s.balance)
    for p in parts:
        balance = s.advantage.filter(pl.col("cell").is_in([c.id for c in cells]))
        values = [v for v in balance[p.estimate].to_list() if v is not None and v == v]
        if values:
            lo, hi = min(values), max(values)
            both = pts(lo) if pts(lo) == pts(hi) else f"{pts(lo)} to {pts(hi)}"
            bits.append(f"{p.label}, {both} points")
    if not bits:
        return []
    sentence = (
        "The start-player numbers above are the raw advantage: what players experience, and the one "
        "that describes the game. It is the sum of "
        + " and ".join(bits)
        + " (per cell"
        + (" without a handicap" if some else "")
        + " under Start-player advantage); the parts explain the raw number, they do not replace it."
    )
    return [Finding("Which number describes the game", sentence)]


def _comparison(s: StudyAnalysis, a: str, b: str) -> dict[str, Any] | None:
    c = s.comparisons
    if not c.height:
        return None
    hit = c.filter(
        (pl.col("metric") == "start_advantage")
        & (
            ((pl.col("cell_a") == a) & (pl.col("cell_b") == b))
            | ((pl.col("cell_a") == b) & (pl.col("cell_b") == a))
        )
    )
    return hit.row(0, named=True) if hit.height else None


def _against(s: StudyAnalysis, best: CellInfo, other: CellInfo) -> tuple[str, str]:
    """(kind, words) of how ``best`` compares with ``other``: closer, tied or opposite; the
    difference (``other`` − ``best``) with its simultaneous 95% interval, paired over the deals both
    played (:mod:`analysis.stats.compare`)."""
    a_best, a_other = s.advantage_row(best.id)["advantage"], s.advantage_row(other.id)["advantage"]
    comp = _comparison(s, best.id, other.id)
    r_other = s.advantage_row(other.id)
    other_side = r_other["lo"] > 0 if a_best < 0 else r_other["hi"] < 0  # its interval excludes 0
    if a_best * a_other < 0:  # the other side of fair by its estimate
        if other_side:
            return "opposite", f"{other.name} ({_adv_ci(r_other, s.threshold)}) errs the other way"
        return (
            "tied",
            f"{other.name} ({_adv_ci(r_other, s.threshold)}: the other side of fair by its estimate only)",
        )
    if comp is None:
        return "tied", f"{other.name} ({pts(a_other)} points; not compared)"
    words = f"{other.name} ({pts(a_other)}; difference {_difference(comp, best.id)})"
    return ("closer" if comp["reject"] else "tied"), words


def _difference(comp: dict[str, Any], base: str) -> str:
    """A comparison's difference (the other cell minus ``base``) with its interval, in points."""
    sign = 1.0 if comp["cell_a"] == base else -1.0  # the table holds b − a
    diff, lo, hi = (sign * comp[k] for k in ("diff", "lo", "hi"))
    return f"{pts(diff)} points {pts_span(min(lo, hi), max(lo, hi))}"


def _closest(s: StudyAnalysis, cells: list[CellInfo], titled: bool) -> Finding:
    adv = {c.id: s.advantage_row(c.id) for c in cells}
    best = min(cells, key=lambda c: abs(adv[c.id]["advantage"]))
    r = adv[best.id]
    kinds: dict[str, list[str]] = {"closer": [], "tied": [], "opposite": []}
    for other in cells:
        if other.id != best.id:
            kind, words = _against(s, best, other)
            kinds[kind].append(words)
    sentence = (
        f"{best.name} is closest to fair by its estimate: start-player advantage {_adv_ci(r, s.threshold)}."
    )
    if s.anytime_valid:  # raced: fixed-sample differences do not hold under its looks; the race does
        sentence += " The race below compares the settings, each over every look it made."
    else:
        family = int(s.comparisons["in_family"].sum()) if "in_family" in s.comparisons.columns else 0
        sentence += _evidence_words(kinds, family)
    sentence += " " + three_way(s, cells)
    who = plain_agents(a for c in cells for a in c.agents)
    if who and not s.anytime_valid:  # a raced study's "Fairest setting" line carries it
        sentence += " " + plain_play_warning(who=who)
    title = "Variant closest to fair" + (f" ({best.n_players} players, {best.lineup})" if titled else "")
    return Finding(title, sentence, tuple(c.id for c in cells))


def _evidence_words(kinds: dict[str, list[str]], family: int) -> str:
    """The closest setting against each other one: differences (other − closest) with simultaneous
    95% intervals over every comparison of the study, paired over the shared deals."""
    out = ""
    if kinds["closer"]:
        out += " It is closer to fair than " + "; ".join(kinds["closer"]) + "."
    if kinds["tied"]:
        out += " The evidence does not separate it from " + "; ".join(kinds["tied"]) + "."
    if kinds["opposite"]:
        out += " " + "; ".join(kinds["opposite"]) + "."
    if (kinds["closer"] or kinds["tied"]) and family:
        out += (
            " (Differences: the other setting minus this one, paired by deal, with 95% intervals "
            f"simultaneous over all {family} comparisons of the study: Bonferroni.)"
        )
    return out


#: Each practical class read as a three-way verdict against the threshold.
_THREE_WAY = {
    "fair": "within",
    "negligible": "within",
    "matters": "beyond",
    "measurable": "undetermined",
    "unsettled": "undetermined",
}


def three_way(s: StudyAnalysis, cells: list[CellInfo]) -> str:
    """Each variant within the threshold (its interval inside ±t), beyond it (the interval wholly
    outside) or undetermined (the interval reaches across ±t): never 'unfair' for an interval
    that has not shown it."""
    band = threshold_words(s.threshold)
    groups: dict[str, list[str]] = {"within": [], "beyond": [], "undetermined": []}
    for c in cells:
        r = s.advantage_row(c.id)
        groups[_THREE_WAY[r["finding"]]].append(f"{c.name} ({_adv_ci(r, s.threshold)})")
    words = {
        "within": f"Fair within {band} (interval inside the band)",
        "beyond": f"Beyond {band} (interval wholly outside the band)",
        "undetermined": (
            f"Undetermined (interval reaches across ±{band[1:]}: neither shown fair nor shown unfair)"
        ),
    }
    return " ".join(f"{words[k]}: {'; '.join(v)}." for k, v in groups.items() if v)


def _groups(s: StudyAnalysis, key: Callable[[CellInfo], Any]) -> list[list[CellInfo]]:
    cells = sorted(s.balance, key=lambda c: (key(c), c.order))
    return [list(g) for _, g in groupby(cells, key=key)]


def _strongest_minus_weakest(s: StudyAnalysis, weakest: str, strongest: str) -> Interval | None:
    """The paired difference of the start-player advantage, strongest minus weakest, with its
    simultaneous 95% interval (``None``: not compared, or not finite)."""
    comp = _comparison(s, weakest, strongest)
    if comp is None:
        return None
    sign = 1.0 if comp["cell_a"] == weakest else -1.0  # the table holds b − a
    diff, lo, hi = (sign * float(comp[k]) for k in ("diff", "lo", "hi"))
    if not all(math.isfinite(v) for v in (diff, lo, hi)):
        return None
    return Interval(diff, min(lo, hi), max(lo, hi))


def skill_claim(s: StudyAnalysis, cells: list[CellInfo]) -> SkillClaim:
    """One question's line-ups as a typed claim (:class:`analysis.claims.SkillClaim`), weakest first."""
    cells = sorted(cells, key=lambda c: c.strength)
    rows = [s.advantage_row(c.id) for c in cells]
    sequences = [bool(r.get("anytime_valid")) for r in rows]
    kind = (
        "95% confidence sequences" if all(sequences) else "95% CIs" if not any(sequences) else "95% intervals"
    )
    return SkillClaim(
        levels=tuple(
            (c.lineup, Interval(r["advantage"], r["lo"], r["hi"])) for c, r in zip(cells, rows, strict=True)
        ),
        difference=_strongest_minus_weakest(s, cells[0].id, cells[-1].id),
        threshold=s.threshold,
        intervals=kind,
        few=tuple(bool(r.get("few_units")) for r in rows),
    )


def _skill(s: StudyAnalysis, cells: list[CellInfo], titled: bool) -> Finding:
    """Whether the answer changes with skill: :func:`analysis.claims.skill_sentence` of its claim."""
    c0 = cells[0]
    where = f"{c0.n_players} players" + (f", {c0.variant_name}" if c0.variant_name else "")
    sentence = skill_sentence(skill_claim(s, cells))
    return Finding("Skill" + (f" ({where})" if titled else ""), sentence, tuple(c.id for c in cells))


def verdict(s: StudyAnalysis) -> list[Finding]:
    """Every finding of the verdict block, in order (see the module docstring)."""
    if not s.advantage.height:
        return []
    rungs = {p.cell for m in s.ladder.metrics for p in m.points} if s.ladder is not None else set()
    game = section(s.game)
    own = game.findings(s) if game.findings is not None else []
    switches = switch_findings(s)
    out = ladder_findings(s) + [f for f in own if f.lead] + switches
    skills = [
        [c for c in g if c.id not in rungs]
        for g in _groups(s, lambda c: c.question)
        if len({c.lineup for c in g if c.id not in rungs}) > 1
    ]
    # the answer per skill level before any one line-up's numbers, strongest line-ups first
    out += [_skill(s, g, len(skills) > 1) for g in skills]
    cells = [c for c in s.balance if c.id not in rungs]
    if skills:
        cells = sorted(cells, key=lambda c: (c.question, tuple((-k[0], -k[1]) for k in c.strength), c.order))
    out += [start_player(s, c) for c in cells]
    out += _parts(s)
    variants = [g for g in _groups(s, lambda c: c.variant_group) if len(g) > 1]
    out += [_closest(s, g, len(variants) > 1) for g in variants]
    return out + [f for f in own if not f.lead]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def scope(s: StudyAnalysis) -> list[str]:
    """What was played, and the threshold that separates 'measurable' from 'matters'."""
    games = int(s.advantage["games"].sum()) if s.advantage.height else 0
    players = sorted({c.n_players for c in s.balance})
    lineups = [c.lineup for c in sorted(s.balance, key=lambda c: c.strength)]
    lineups = list(dict.fromkeys(lineups))
    selfplay = " self-play" if all(" vs " not in x for x in lineups) else ""
    design = (
        "every deal played once per seat order of the same agents (paired seats; the deal is the unit)"
        if s.paired
        else "every game dealt independently (the game is the unit)"
    )
    text = (
        f"{games:,} games of {(s.game or 'the game').capitalize()} with "
        f"{_and([str(n) for n in players])} players in "
        f"{len(s.balance)} cell{'' if len(s.balance) == 1 else 's'}, played by {_and(lineups)}{selfplay}; "
        f"{design}. "
        f"A difference matters when it exceeds {threshold_words(s.threshold)} of win rate "
        f"({threshold_source_words(s.threshold_source)})."
    )
    if s.anytime_valid:
        text += (
            " The settings were raced (more games for those still in after every round), so every "
            "interval of the start-player advantage on this page (each setting's verdict, the advantage "
            "table, the race) is anytime-valid: a 95% confidence sequence, which holds at every look at "
            "once (about 1.5 times as wide as a fixed-sample interval with many deals, wider with few). "
            "The other tables (seats, comparisons, outcomes) use fixed-sample intervals and only describe."
        )
    game = section(s.game)
    unit = [f"{game.score_unit[0].upper()}{game.score_unit[1:]}."] if game.score_unit else []
    return [text, *unit] + (game.scope(s) if game.scope is not None else [])
