"""Methods, glossary and provenance: the end of the report."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from rundir import EngineSpec
from rundir.source import written_at

from ..agents import describe, ladder_key
from ..claims import threshold_source_words
from ..content import Code
from ..findings import threshold_words
from ..games import section
from ..model import StudyAnalysis
from ..plays import dirty, played_at, wall_seconds
from ..stats.compare import METRICS
from .doc import Doc
from .luck import estimator_methods

__all__ = ["ALL_TERMS", "glossary", "glossary_table", "methods", "provenance", "terms_used", "uses"]


def _unit(s: StudyAnalysis) -> str:
    if s.paired:
        return (
            "The unit of analysis is the deal. With paired seats every deal (one shuffle of "
            "everything random) is played once per seat order of the agents, so each seat meets the "
            "same cards; the games of a deal are not independent, so every interval and test treats the "
            "deal, not the game, as one observation."
        )
    return "The unit of analysis is the game: every game is dealt independently."


def methods(doc: Doc, s: StudyAnalysis) -> None:
    """How every number was made, in plain words."""
    doc.heading("Methods")
    t = threshold_words(s.threshold)
    source = threshold_source_words(s.threshold_source)
    others = ", ".join(
        f"{m.label} ±{m.negligible:.0%} of the mean"
        if m.relative
        else f"{m.label} ±{100 * m.negligible:g} points"
        for m in METRICS
        if m.name != "start_advantage"
    )
    for text in (
        _unit(s),
        "Win rates count a shared first place as a share (a 2-way tie gives each 1/2). The start-player "
        "advantage is the start player's win rate minus the fair share 1/n, in points of win rate "
        "(percentage points).",
        "Intervals are 95%. Win rates and other shares: Wilson score intervals; with paired seats "
        "Wilson with the effective sample size of the per-deal rates (Kish design effect). Means: "
        "Student-t over units. Differences between cells: t on one value per unit, the deals two cells "
        "share compared as pairs (Welch's t where they share none). All seats "
        "equal: chi-square goodness of fit (games), or a paired t-test (2 players) / Hotelling's T² "
        "(more) on per-deal seat differences.",
        "Multiple comparisons: every comparison between cells of a study (each metric, each pair of cells "
        "with the same player count; for a skill ladder, not its rungs against each other, which the "
        "ladder's trend tests instead) forms one family, corrected with Bonferroni; each difference is "
        "shown with the matching simultaneous interval (95% for the whole family), so an interval "
        "excludes 0 exactly when the adjusted p-value is below 0.05. Comparisons with no variation in "
        "either cell (every game the same length) are exact and left out of the family. Tables show "
        "adjusted p-values, and values below 0.001 as < 0.001.",
        f"Practical threshold: {t} of win rate ({source}; a study may set its own, as a share of games "
        "such as 0.02 for ±2 points). An interval wholly beyond it 'matters'; one that excludes zero but "
        "reaches inside it is 'measurable' but not shown to matter; one that excludes zero and lies inside "
        "it differs 'too little to matter'; one that holds zero and lies inside it shows 'no difference that "
        "matters'; one that holds zero and reaches beyond it is 'not settled'. Thresholds of the other "
        f"comparisons: {others}.",
    ):
        doc.para(text)
    estimator = estimator_methods(s)
    if estimator:
        doc.para(estimator)
    game = section(s.game)
    if game.methods:
        doc.para(game.methods)
    agents = sorted({a for c in s.played for a in c.agents}, key=ladder_key)
    doc.para(
        "Agents. Every number describes the game as these agents play it: a weak agent can miss an advantage "
        "that skilled players exploit, or create one they would avoid. Where a study has several line-ups, "
        "compare them (Skill dependence); the README's Agents section and the Elo ladder (balancelab "
        "strength) give their strength."
    )
    known = s.manifest.engine.agent_versions
    doc.table(
        ["agent", "version", "what it does"],
        [[a, str(known.get(a, "not recorded")), describe(a).split(": ", 1)[1]] for a in agents],
    )
    if any(a.startswith("xmcts") for a in agents):
        doc.para(
            "An xmcts version is its own version mixed with the content hash of the game's learned "
            "evaluation (below), hence the long number: a refitted evaluation is another agent."
        )
    for name, evaluation in s.manifest.engine.evaluations.items():
        doc.para(
            f"Learned evaluation of {name} (xmcts): {_fitted_words(evaluation)}. Cells of another variant "
            "or player count are played with the same weights."
        )


GLOSSARY = (
    ("cell", "one combination of player count, variant and line-up; every cell is played many times"),
    ("line-up", "the agents in the seats of a cell (e.g. greedy self-play)"),
    ("seat", "position in turn order; seat 1 is the start player"),
    ("deal", "one shuffle of everything random; with paired seats it is played once per seat order"),
    ("fair share", "1/n of the games for each of n players"),
    ("start-player advantage", "the start player's win rate minus the fair share, in points of win rate"),
    ("points of win rate", "percentage points: 48.4% against 50% is −1.6 points"),
    ("95% CI", "95% confidence interval: the range of values the data leave plausible"),
    ("rules out", "a value outside the 95% interval is incompatible with the data"),
    ("p (Bonferroni)", "a p-value multiplied by the number of comparisons in the family (capped at 1)"),
    (
        "simultaneous",
        "of 95% intervals: holding their true values all together in 95% of studies (Bonferroni: each at "
        "95%/m)",
    ),
    ("measurably different", "the interval excludes 'no difference'"),
    ("matters", "the whole interval lies beyond the practical threshold"),
)

#: Terms of fixes and sweeps (:mod:`analysis.claims`), shown where the page uses them.
CLAIM_GLOSSARY = (
    (
        "threshold",
        "the study's practical threshold: the smallest advantage that matters, in points of win rate",
    ),
    ("played", "measured in games played with that setting: evidence that outranks a prediction"),
    (
        "predicted",
        "recomputed from the scores of games played without the setting, had nobody played differently",
    ),
    ("confirmed", "played with the setting, the start-player advantage lies wholly within the threshold"),
    ("refutes", "played with the setting, the start-player advantage lies wholly beyond the threshold"),
    (
        "lack-of-fit",
        "a test of a straight line against one mean per swept value; p below 0.05 rejects the line",
    ),
)

#: Terms of a skill ladder, shown where the page uses them.
LADDER_GLOSSARY = (
    ("rung", "one agent of a skill ladder; every rung plays the balance question in self-play"),
    (
        "Elo",
        "a strength scale from head-to-head games: 400 Elo more means winning about 91% of games; here "
        "fitted (Bradley–Terry) from matches between neighbouring rungs, the lowest rung at 0",
    ),
    (
        "chained Elo",
        "a rung's Elo as the sum of the gaps between neighbours; matches between rungs that are not "
        "neighbours check it",
    ),
    (
        "slope per 100 Elo",
        "how much a number changes per 100 Elo of agent strength, a straight line fitted over the search "
        "rungs (over every rung only when fewer than two rungs search)",
    ),
    (
        "converged",
        "the interval of the top two rungs' difference lies within the threshold, and so does the slope "
        "times the Elo step between them: stronger play within the ladder does not change the answer",
    ),
    (
        "still moving",
        "the slope's interval excludes 0, or the top two rungs measurably differ: the number still changes "
        "with skill",
    ),
    (
        "not settled",
        "the data do not decide the question asked yet, and more games are needed: for a cell's verdict, "
        "an interval that neither lies within the threshold nor excludes the value in question (no "
        "difference, the fair share); for a fix (is the game fair with it?), an interval neither within "
        "the threshold nor wholly beyond it; for a ladder's number, neither converged nor shown to move",
    ),
    (
        "expert limit",
        "where a saturating curve (exponential approach in Elo) fitted to the rungs levels off; given only "
        "when the data support such a curve over a straight line and the curve fits every rung",
    ),
)


#: Terms of the methods (intervals, fits, luck, cost), shown where the page uses them.
METHOD_GLOSSARY = (
    (
        "Bonferroni",
        "a correction for making m comparisons at once: each interval is made at 95%/m confidence (each "
        "p-value multiplied by m), so that all of them hold together in 95% of studies",
    ),
    (
        "anytime-valid",
        "an interval that keeps its 95% however often the results are looked at while games are added, so "
        "a study may stop or grow a cell when it looks",
    ),
    (
        "confidence sequence",
        "an anytime-valid interval: one interval per look, all of which hold the true value "
        "together in 95% of studies; about 1.5 times as wide as an interval read once with many deals, "
        "wider with few (about twice at 100, 3 to 5 times on a handful)",
    ),
    (
        "bootstrap",
        "an interval made by redrawing the deals at random (with replacement) many times and recomputing the "
        "number each time; the middle 95% of the recomputed numbers is the interval",
    ),
    (
        "OLS",
        "ordinary least squares: the straight line closest to the data (smallest sum of squared distances)",
    ),
    (
        "WLS",
        "weighted least squares: a straight line through the rungs' estimates, each weighted by how precise "
        "it is",
    ),
    (
        "cluster-robust",
        "an interval that allows for the games of one deal being alike (they share their cards): the deal, "
        "not the game, counts as one independent observation",
    ),
    (
        "Bradley–Terry",
        "the model behind the Elo ratings: the chance that one agent beats another depends only on the "
        "difference of their ratings, fitted to all head-to-head games at once",
    ),
    (
        "transitivity",
        "that strength adds up along the ladder: if a is x Elo above b and b is y Elo above c, a is x + y "
        "Elo above c",
    ),
    (
        "luck",
        "the part of a game's result that its chance events (the deal, and any later draw) decided: at "
        "each, the change in a fixed evaluation of the position minus its average over the outcomes that "
        "could have been drawn; it averages zero",
    ),
    (
        "core-hours",
        "computing time: one hour of one processor core (4 cores for half an hour is 2 core-hours)",
    ),
    ("p-value", "how often a difference at least this large would be seen by chance if there were none"),
    (
        "design effect",
        "how much more a share varies because the games of one deal are alike (Kish): the interval uses "
        "the games' number divided by it, the effective sample size",
    ),
    ("chi-square", "a test of whether counts (wins per seat) differ from what equal seats would give"),
    (
        "Hotelling's T²",
        "a test of whether several means (the seats' per-deal differences) are all 0 at once",
    ),
    (
        "race",
        "a fairest search: every round plays more deals of the settings still in the race and drops those "
        "shown farther from fair than the best (anytime-valid intervals)",
    ),
    (
        "Wilson",
        "the Wilson score interval of a share: unlike the plain ± 1.96 standard errors it stays inside "
        "0–100% and keeps its 95% near the ends",
    ),
    ("Student-t", "the interval of a mean from its standard error, widened for the number of units"),
    (
        "Welch",
        "Welch's t-test: two means compared without assuming their spreads are equal, for cells that "
        "share no deals",
    ),
    (
        "GLM",
        "generalised linear model; here a straight line fitted to every game's result (Gaussian: least "
        "squares), its errors clustered by deal",
    ),
    ("Wald test", "a test of a fitted model's coefficients from their estimates and standard errors"),
    (
        "Fieller",
        "Fieller's interval for where a fitted line crosses a value (a ratio of two estimates); it may be "
        "unbounded when the slope is near 0",
    ),
)

#: Other words by which a page uses a term (each also counts in the plural).
ALIASES: dict[str, tuple[str, ...]] = {
    "slope per 100 Elo": ("per 100 Elo",),
    "core-hours": ("core-h", "core-hour"),
    "95% CI": ("95% interval",),
    "lack-of-fit": ("lack of fit",),
    "design effect": ("Kish design effect",),
}

#: Every term a page may use, in the order a glossary lists them.
ALL_TERMS = (*GLOSSARY, *LADDER_GLOSSARY, *CLAIM_GLOSSARY, *METHOD_GLOSSARY)


def uses(text: str, term: str) -> bool:
    """Whether ``text`` uses ``term`` (or one of its :data:`ALIASES`) as words of their own, in any
    case, also in the plural ("rungs" uses "rung")."""
    words = (term, *ALIASES.get(term, ()))
    return any(re.search(rf"(?<!\w){re.escape(w)}s?(?!\w)", text, re.IGNORECASE) for w in words)


def terms_used(text: str, terms: Sequence[tuple[str, str]] = ALL_TERMS) -> list[tuple[str, str]]:
    """The (term, meaning) rows of ``terms`` that ``text`` uses, in their order."""
    return [(a, b) for a, b in terms if uses(text, a)]


def glossary_table(doc: Doc, terms: Sequence[tuple[str, str]]) -> None:
    """The glossary section: one row per term."""
    doc.heading("Glossary")
    doc.table(["term", "meaning"], [[a, b] for a, b in terms])


def glossary(doc: Doc, s: StudyAnalysis) -> None:
    """Every term of the page: the basic ones always, a ladder's, the claims' and the methods' where
    the page's text uses them (so "Elo" is defined on every page that says it), then the game's own."""
    used = terms_used("\n".join(doc.md), (*LADDER_GLOSSARY, *CLAIM_GLOSSARY, *METHOD_GLOSSARY))
    glossary_table(doc, [*GLOSSARY, *used, *section(s.game).glossary])


def _fitted_words(evaluation: str) -> str:
    """A learned evaluation as recorded, its variant in words (``variant {}``: the engine defaults)."""
    return evaluation.replace("variant {}", "the engine's default rules (no variant option set)")


def _options(variant: dict[str, object]) -> str:
    """``dirk = false, money_copies = 3``; ``engine defaults`` when empty."""
    if not variant:
        return "engine defaults"
    return ", ".join(f"{k} = {json.dumps(v)}" for k, v in variant.items())


def _engine(engine: EngineSpec) -> str:
    """Rules and agent versions as recorded (what resume compares)."""
    rules = ", ".join(f"{g} rules v{v}" for g, v in engine.rules_version.items())
    agents = ", ".join(f"{a} v{v}" for a, v in engine.agent_versions.items())
    return "; ".join(x for x in (rules, f"agents {agents}" if agents else "") if x) or "n/a"


def _source_key(source: str) -> str:
    """Where the threshold came from, as the analysis records it (Provenance only): ``default``,
    ``study setting practical_threshold``, or ``given for this report``."""
    return "given for this report" if source == "given" else source


def provenance(doc: Doc, s: StudyAnalysis) -> None:
    """What was run, with which versions, and every cell's settings."""
    m, st = s.manifest, s.manifest.study
    versions = ", ".join(f"{k} {v}" for k, v in m.versions.items())
    plays = m.history()
    wall, commits = wall_seconds(plays), played_at(plays)
    rows: list[list[str]] = [
        ["study", st.name],
        ["game", st.game],
        ["seed", str(st.seed)],
        ["pair_seats (deal as unit)", str(st.pair_seats)],
        ["practical threshold", f"{threshold_words(s.threshold)} ({_source_key(s.threshold_source)})"],
        ["estimator", st.estimator],
        ["games analysed", f"{s.analysed[0]:,} of {s.analysed[1]:,} planned"],
        ["wall time (s)", f"{wall:.1f}" if wall is not None else "n/a"],
        ["started", plays[0].started],
        ["finished", plays[-1].finished or "n/a"],
        *([["played in", f"{len(plays)} invocations (continued)"]] if len(plays) > 1 else []),
        *([["played at (git commit)", commits]] if commits else []),  # from a checkout only
        ["page written at", written_at()],
        ["versions", versions],
        ["engine", _engine(m.engine)],
    ]
    game = section(s.game)
    if game.provenance is not None:
        rows += game.provenance(s)
    doc.heading("Provenance")
    modified = dirty(plays)
    if modified:
        doc.para(
            "This run was made from a modified working tree (git commit "
            f"{modified}): the code that played and analysed it is not exactly any commit. "
            "Regenerate the run from a clean commit before publishing its numbers.",
            "dirty",
        )
    doc.table(["", "value"], [[k, str(v)] for k, v in rows])
    doc.table(
        ["cell", "id", "players", "agents", "variant", "games"],
        [
            [
                c.name,
                c.id,
                c.n_players,
                ", ".join(c.agents),
                Code(_options(c.variant)) if c.variant else _options(c.variant),
                f"{cell.games:,}",
            ]
            for c, cell in zip(s.info, s.cells, strict=True)
        ],
    )
