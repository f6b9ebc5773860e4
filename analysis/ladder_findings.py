"""The skill ladder in words: the headline rung, each number's convergence, the rungs' strength.

The verdict block of a ladder study never states a lower rung's number as the game's property:
the headline is the top rung's value (and, when it is not measurably stronger than a lower rung,
that strength may saturate there), and the sentence says whether the number converged
(:func:`analysis.skill.convergence`), is still moving (which way, per 100 Elo), or is not settled,
with the expert limit where a saturating fit is supported and the Elo check of the ladder.
"""

from __future__ import annotations

import polars as pl

from .claims import band_words
from .content import Finding
from .model import StudyAnalysis
from .skill import Convergence, LadderMetric, LadderPoint, fitted
from .strength import Z95
from .words import pct, pts, pts_span, signed

__all__ = [
    "ci_label",
    "convergence_sentence",
    "limit_words",
    "per_100_elo",
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


def ci_label(c: Convergence | None) -> str:
    """``95% CI`` for a ladder with one number, else ``simultaneous 95% CI`` (Bonferroni over the
    ladder's numbers, explained once per finding by :func:`family_words`)."""
    if c is None or c.family <= 1:
        return "95% CI"
    return "simultaneous 95% CI"


def family_words(c: Convergence | None) -> str:
    """`` Intervals are simultaneous over the ladder's 5 numbers (Bonferroni, 99.0% each).``"""
    if c is None or c.family <= 1:
        return ""
    return (
        f" Intervals are simultaneous over the ladder's {c.family} numbers (Bonferroni, "
        f"{100 * c.level:.1f}% each)."
    )


def _diff(m: LadderMetric, d: float, lo: float, hi: float, label: str = "95% CI") -> str:
    if m.percent:
        return f"{pts(d)} points, {label} {pts(lo)} to {pts(hi)}"
    return f"{signed(d, 2)}, {label} {signed(lo, 2)} to {signed(hi, 2)}"


def per_100_elo(m: LadderMetric, c: Convergence) -> str:
    """``+1.0 point per 100 Elo [+0.4, +1.7]`` (the slope over the fitted rungs)."""
    assert c.slope is not None
    k = 100 * (100.0 if m.percent else 1.0)
    est, lo, hi = c.slope.slope * k, c.slope.lo * k, c.slope.hi * k
    if m.percent:
        unit = "point" if abs(round(est, 1)) == 1 else "points"
        return f"{est:+.1f} {unit} per 100 Elo [{lo:+.1f}, {hi:+.1f}]".replace("-", "−")
    return f"{signed(est, 3)} per 100 Elo [{signed(lo, 3)}, {signed(hi, 3)}]"


def _fit_words(m: LadderMetric, c: Convergence) -> str:
    assert c.slope is not None
    idx = fitted(m.points)
    span = f"{m.points[idx[0]].agent} to {m.points[idx[-1]].agent}"
    return f"the trend over {span} is {per_100_elo(m, c)} ({ci_label(c)}; {c.slope.method})"


def limit_words(m: LadderMetric, c: Convergence) -> str:
    """The expert-limit estimate, or why none is made."""
    lim = c.limit
    if lim is None:
        return "No extrapolation to expert level is possible: the rungs are not rated."
    if not lim.supported:
        return f"No extrapolation to expert level is possible: {lim.reason}."
    return (
        f"A saturating fit (exponential approach in Elo, scale {lim.scale:.0f} Elo) puts the expert limit "
        f"at {value(m, lim.estimate)} ({ci_label(c)} {value(m, lim.lo)} to {value(m, lim.hi)}), an "
        "extrapolation that holds only if the curve keeps its shape beyond the rungs played."
    )


def _band(m: LadderMetric) -> str:
    if not m.percent:
        return f"±{m.threshold:g}"
    return band_words(m.threshold)


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
    """``the start player's disadvantage shrinks from mcts:iters=30 to mcts:iters=1000: −18.0 points
    at mcts:iters=30, −5.0 points at mcts:iters=1000``: what the two rungs show, never a trend over
    the rungs between (the rungs' trend has its own sentence); a step between two kinds of agent
    (``mcts`` to ``xmcts``) says so."""
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
    other = lower.agent.split(":")[0] != upper.agent.split(":")[0]
    return (
        f"{_subject(m, a, b)} {verb} from {lower.agent} to {upper.agent}: {value(m, a)} at {lower.agent}, "
        f"{value(m, b)} at {upper.agent}"
        + (" (another kind of agent, not only a larger budget)" if other else "")
    )


def _needed(c: Convergence, paired: bool) -> str:
    unit = "deals" if paired else "games"
    if not c.units_needed:
        return ""
    text = f"; about {c.units_needed:,} {unit} per rung would bring the top two rungs within it if they agree"
    if c.units_needed_gap:
        return text + f", about {c.units_needed_gap:,} if the observed gap persists"
    return text + ", and none would if the observed gap persists (it is as large as the threshold or larger)"


def convergence_sentence(m: LadderMetric, paired: bool = True) -> str:
    """Converged / still moving / not settled, in words, with the evidence (trend and top step)."""
    c = m.verdict
    if c is None:
        return "Only one rung was played: convergence cannot be judged."
    top, second, low = m.points[-1], m.points[-2], m.points[0]
    label = ci_label(c)
    gap = _diff(m, c.diff, c.lo, c.hi, label)
    trend = f" {_fit_words(m, c)[0].upper()}{_fit_words(m, c)[1:]}." if c.slope is not None else ""
    limit = f" {limit_words(m, c)}" if c.slope is not None else ""
    if c.status == "converged":
        return (
            f"Converged: {top.agent} and {second.agent} agree within {_band(m)} (difference {gap}), and the "
            f"trend per Elo step between them stays within it too, so stronger play within this ladder does "
            f"not change the answer.{trend}{family_words(c)}"
        )
    if c.status == "moving":
        if c.slope is not None and c.slope.excludes_zero:
            k = c.slope.slope
            way = "rises" if k > 0 else "falls"
            return (
                f"Still moving: the {m.label} {way} with the agents' strength: {_fit_words(m, c)}; the top "
                f"two rungs differ by {gap}. Not converged, so the game's value at expert level is not known "
                f"yet.{limit}{family_words(c)}"
            )
        return (
            f"Still moving: {movement(m, second, top)} (difference {gap}); not converged, so the game's "
            "true value is not known yet."
        )
    # (a top step measurably not 0 reads as still moving: :func:`analysis.stats.trend.trend_status`)
    why = "too uncertain to tell whether it still moves with skill"
    text = (
        f"Not settled: {top.agent} and {second.agent} differ by {gap}, {why} (threshold "
        f"{_band(m)}{_needed(c, paired)}); not converged, so the game's value at expert level is not "
        f"known yet.{trend}"
    )
    if c.trend == "moving" and low.agent != second.agent:
        text += (
            f" Over the whole ladder it moved: {movement(m, low, top)} "
            f"({_diff(m, c.trend_diff, c.trend_lo, c.trend_hi, label)})."
        )
    return text + limit + family_words(c)


def saturation_words(s: StudyAnalysis, m: LadderMetric) -> str:
    """Whether the top rung is the strongest agent measured, measurably weaker than a lower rung
    (the one it trails most, whose number is then given), or no stronger than a lower rung (the
    lowest rung the top is not measurably stronger than: strength may saturate there)."""
    st = s.ladder.strength.get(m.variant) if s.ladder is not None else None
    top = m.points[-1]
    if st is None or len(m.points) < 2:
        return ""
    gaps = []
    for p in m.points[:-1]:
        try:
            g, se = st.elo_diff(p.agent, top.agent)
        except ValueError:
            continue
        if se == se:
            gaps.append((p, g, se))
    weaker = [x for x in gaps if x[1] + Z95 * x[2] < 0]
    if weaker:
        p, g, se = min(weaker, key=lambda x: x[1])
        return (
            f" It is the top of the ladder but measurably weaker than {p.agent} ({signed(g, 0)} Elo "
            f"[{signed(g - Z95 * se, 0)}, {signed(g + Z95 * se, 0)}]): its number describes weaker play; "
            f"at {p.agent}, the ladder's strongest rung measured, it is {pts(p.estimate)} points "
            f"{pts_span(p.lo, p.hi)}."
        )
    for p, g, se in gaps:
        if g - Z95 * se <= 0:
            return (
                f" It is the top of the ladder, not shown to be its strongest agent: it is "
                f"{signed(g, 0)} Elo [{signed(g - Z95 * se, 0)}, {signed(g + Z95 * se, 0)}] over {p.agent}, "
                f"so strength may saturate from {p.agent} on and the rungs above it add little evidence "
                "of skill."
            )
    return ""


def _headline(s: StudyAnalysis, m: LadderMetric) -> Finding:
    top = m.points[-1]
    r = s.advantage_row(top.cell)
    fair = r["fair"]
    per_rung = "; ".join(f"{p.agent} {pts(p.estimate)}" for p in m.points)
    sentence = (
        f"Headline from the top rung, {top.agent} self-play ({elo_words(top, s.rungs[0])}): the start "
        f"player wins {pct(r['win_rate'])} of {m.n_players}-player games (95% CI "
        f"{100 * (top.lo + fair):.1f}–{100 * (top.hi + fair):.1f}%; fair is {pct(fair)}), a start-player "
        f"advantage of {pts(top.estimate)} points.{saturation_words(s, m)} "
        f"{convergence_sentence(m, s.paired)} "
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
    if hi < 0.5:
        return text + (
            f"measurably weaker, so the top of the ladder is not its strongest agent and its numbers "
            f"describe weaker play than {second}'s."
        )
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
    sentence += elo_check_words(s)
    return [Finding("Skill ladder", sentence)]


def _bound(x: float) -> str:
    return "−∞" if x == -float("inf") else ("+∞" if x == float("inf") else signed(x, 0))


def elo_check_words(s: StudyAnalysis) -> str:
    """Whether the chained Elo agrees with the non-neighbour matches played (or that none were)."""
    checks = s.ladder.checks if s.ladder is not None else []
    if not checks:
        return (
            " The chained Elo is a sum of neighbour gaps that assumes transitivity; this run has no "
            "match between rungs that are not neighbours, so nothing checks it."
        )
    bits = []
    for c in checks:
        bits.append(
            f"{c.upper} vs {c.lower} ({c.units:,} {'deals' if s.paired else 'games'}; {c.upper} won "
            f"{pct(c.share)}): direct {_bound(c.direct)} Elo [{_bound(c.lo)}, {_bound(c.hi)}], chained "
            f"{signed(c.chained, 0)} [{signed(c.chained_lo, 0)}, {signed(c.chained_hi, 0)}]: "
            + ("agree" if c.agree else "disagree")
        )
    ok = all(c.agree for c in checks)
    head = (
        "The chained Elo agrees with every non-neighbour match played"
        if ok
        else "The chained Elo disagrees with a non-neighbour match, so the rungs' Elo is not transitive "
        "and the x axis of the ladder figures is doubtful"
    )
    return f" {head}: " + "; ".join(bits) + "."


def ladder_findings(s: StudyAnalysis) -> list[Finding]:
    """The ladder's part of the verdict block (empty for a study without a ladder)."""
    ladder = s.ladder
    if ladder is None or not ladder.metrics:
        return []
    out = [_headline(s, m) for m in ladder.metrics if m.key == "start_advantage"]
    questions = {(m.n_players, m.variant) for m in ladder.metrics}
    out += [_other(s, m, len(questions) > 1) for m in ladder.metrics if m.key != "start_advantage"]
    return out + _strength(s)
