"""The skill ladder in words: the headline rung, each number's convergence, the rungs' strength.

The verdict block of a ladder study never states a lower rung's number as the game's property:
the headline is the strongest rung's value, and the sentence says whether the ladder converged
there (:func:`analysis.skill.convergence`), is still moving (and which way), or is not settled.
"""

from __future__ import annotations

import polars as pl

from .content import Finding
from .model import StudyAnalysis
from .skill import Convergence, LadderMetric, LadderPoint
from .words import pct, pts, signed

__all__ = [
    "convergence_sentence",
    "elo_words",
    "ladder_findings",
    "movement",
    "status_words",
    "takeaway",
    "value",
]

STATUS = {"converged": "converged", "moving": "still moving", "unsettled": "not settled"}


def status_words(c: Convergence | None) -> str:
    return "one rung only" if c is None else STATUS[c.status]


def value(m: LadderMetric, x: float) -> str:
    """A metric's value in its unit: points (advantages), % (shares) or a plain number."""
    if not m.percent:
        return f"{x:.2f}"
    return f"{pts(x)} points" if m.reference is not None else pct(x)


def _diff(m: LadderMetric, d: float, lo: float, hi: float) -> str:
    if m.percent:
        return f"{pts(d)} points, 95% CI {pts(lo)} to {pts(hi)}"
    return f"{signed(d, 2)}, 95% CI {signed(lo, 2)} to {signed(hi, 2)}"


def _band(m: LadderMetric) -> str:
    if not m.percent:
        return f"±{m.threshold:g}"
    return f"±{100 * m.threshold:g} point{'' if abs(100 * m.threshold - 1) < 1e-9 else 's'}"


def takeaway(m: LadderMetric) -> str:
    """One-line caption: the verdict and the top two rungs' values."""
    if len(m.points) < 2:
        return f"{m.label[0].upper()}{m.label[1:]} ({m.question}): one rung only."
    top, second = m.points[-1], m.points[-2]
    return (
        f"{m.label[0].upper()}{m.label[1:]} ({m.question}) by rung strength: {status_words(m.verdict)} "
        f"({second.agent} {value(m, second.estimate)}, {top.agent} {value(m, top.estimate)}; "
        f"threshold {_band(m)})."
    )


def elo_words(p: LadderPoint, anchor: str) -> str:
    if p.agent == anchor:
        return "the anchor, Elo 0"
    if p.elo != p.elo:
        return "not rated"
    return f"Elo {signed(p.elo, 0)} [{signed(p.elo_lo, 0)}, {signed(p.elo_hi, 0)}] over {anchor}"


def _subject(m: LadderMetric, a: float, b: float) -> str:
    if m.key != "start_advantage":
        return m.label
    if a < 0 and b < 0:
        return "the start player's disadvantage"
    if a > 0 and b > 0:
        return "the start player's advantage"
    return "the start-player advantage"


def movement(m: LadderMetric, lower: LadderPoint, upper: LadderPoint) -> str:
    """``the start player's disadvantage shrinks as the agents get stronger: −18.0 points at
    mcts:iters=30, −5.0 points at mcts:iters=1000``."""
    a, b = lower.estimate, upper.estimate
    if m.reference is not None:
        ra, rb = a - m.reference, b - m.reference
        if ra * rb < 0:
            flips = min(abs(ra), abs(rb)) > m.threshold
            verb = "changes sign" if flips else ("rises" if b > a else "falls")
        else:
            verb = "shrinks" if abs(rb) < abs(ra) else "grows"
    else:
        verb = "rises" if b > a else "falls"
    return (
        f"{_subject(m, a, b)} {verb} as the agents get stronger: {value(m, a)} at {lower.agent}, "
        f"{value(m, b)} at {upper.agent}"
    )


def convergence_sentence(m: LadderMetric, paired: bool = True) -> str:
    """Converged / still moving / not settled, in words, with the evidence."""
    c = m.verdict
    if c is None:
        return "Only one rung was played: convergence cannot be judged."
    top, second, low = m.points[-1], m.points[-2], m.points[0]
    gap = _diff(m, c.diff, c.lo, c.hi)
    if c.status == "converged":
        return (
            f"Converged: {top.agent} and {second.agent} agree within {_band(m)} (difference {gap}), so "
            "stronger play within this ladder does not change the answer."
        )
    if c.status == "moving":
        return (
            f"Still moving: {movement(m, second, top)} (difference {gap}); not converged, so the game's "
            "true value is not known yet."
        )
    unit = "deals" if paired else "games"
    more = f"; about {c.units_needed:,} {unit} per rung would settle it" if c.units_needed else ""
    text = (
        f"Not settled: {top.agent} and {second.agent} differ by {gap}, too uncertain to tell whether it "
        f"still moves with skill (threshold {_band(m)}{more}); not converged, so the game's value at "
        "expert level is not known yet."
    )
    if c.trend == "moving" and low.agent != second.agent:
        text += (
            f" Over the whole ladder it moved: {movement(m, low, top)} "
            f"({_diff(m, c.trend_diff, c.trend_lo, c.trend_hi)})."
        )
    return text


def _headline(s: StudyAnalysis, m: LadderMetric) -> Finding:
    top = m.points[-1]
    r = s.advantage_row(top.cell)
    fair = r["fair"]
    per_rung = "; ".join(f"{p.agent} {pts(p.estimate)}" for p in m.points)
    sentence = (
        f"Headline from the strongest rung, {top.agent} self-play ({elo_words(top, s.rungs[0])}): the start "
        f"player wins {pct(r['win_rate'])} of {m.n_players}-player games (95% CI "
        f"{100 * (top.lo + fair):.1f}–{100 * (top.hi + fair):.1f}%; fair is {pct(fair)}), a start-player "
        f"advantage of {pts(top.estimate)} points. {convergence_sentence(m, s.paired)} "
        f"Per rung, in points: {per_rung} "
        "(lower rungs describe those agents, not the game)."
    )
    return Finding(
        f"Start player along the skill ladder ({m.question})", sentence, tuple(p.cell for p in m.points)
    )


def _other(s: StudyAnalysis, m: LadderMetric, titled: bool) -> Finding:
    top = m.points[-1]
    sentence = f"{top.agent}: {value(m, top.estimate)}. {convergence_sentence(m, s.paired)}"
    title = m.label[0].upper() + m.label[1:] + (f" ({m.question})" if titled else "")
    return Finding(title, sentence, tuple(p.cell for p in m.points))


def _top_step(pairs: pl.DataFrame, second: str, top: str) -> str:
    """How often the top rung beat the one below in their head-to-head games, and whether that
    shows it stronger (the win share's 95% interval excludes one half)."""
    hit = pairs.filter(
        ((pl.col("agent_a") == top) & (pl.col("agent_b") == second))
        | ((pl.col("agent_a") == second) & (pl.col("agent_b") == top))
    )
    if not hit.height:
        return f"{top} and {second} did not play each other."
    r = hit.row(0, named=True)
    share, lo, hi = r["share_a"], r["lo"], r["hi"]
    if r["agent_a"] != top:
        share, lo, hi = 1 - share, 1 - hi, 1 - lo
    text = (
        f"The top step: {top} won {pct(share)} (95% CI {100 * lo:.1f}–{100 * hi:.1f}%) of its games "
        f"against {second}: "
    )
    if lo > 0.5:
        return text + "measurably stronger."
    return text + (
        "not measurably stronger at this sample size, so agreement between the top two rungs would not "
        "show convergence."
    )


def _strength(s: StudyAnalysis) -> list[Finding]:
    ladder = s.ladder
    first = next((m for m in ladder.metrics if m.key == "start_advantage"), None)
    if first is None or not ladder.strength:
        return [Finding("Skill ladder", "The rungs could not be rated (no head-to-head games).")]
    rated = "; ".join(f"{p.agent} {elo_words(p, s.rungs[0])}" for p in first.points)
    sentence = f"Rungs rated by paired head-to-head games between neighbours (Bradley–Terry): {rated}."
    st = ladder.strength.get(first.variant)
    if st is not None and len(first.points) > 1:
        sentence += " " + _top_step(st.pairs, first.points[-2].agent, first.points[-1].agent)
    return [Finding("Skill ladder", sentence)]


def ladder_findings(s: StudyAnalysis) -> list[Finding]:
    """The ladder's part of the verdict block (empty for a study without a ladder)."""
    ladder = s.ladder
    if ladder is None or not ladder.metrics:
        return []
    out = [_headline(s, m) for m in ladder.metrics if m.key == "start_advantage"]
    questions = {(m.n_players, m.variant) for m in ladder.metrics}
    out += [_other(s, m, len(questions) > 1) for m in ladder.metrics if m.key != "start_advantage"]
    return out + _strength(s)
