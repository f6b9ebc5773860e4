"""Whether an output directory may be continued, and the manifest a run starting now records.

The manifest itself (fields, format, reading and writing) is :mod:`rundir.manifest`, the one
manifest module; here is the writer's side that needs the engine (its versions, a replay). A
directory belongs to one study played by one engine: running a different study into it
(:class:`ManifestMismatch`) or the same study with another rules version of the game or another
version of an agent (:class:`EngineChanged`) is refused; more games per cell are allowed. Files
given through path options are part of the study: a changed file (other SHA-256) is refused.

The study is the source of truth, the manifest its copy. A damaged manifest (its checksum does
not match, or it does not parse) is never read into records; a run rebuilds it from the study
and this engine's versions if, and only if, the verified batch files (``batches.jsonl`` records
whose files pass their size and SHA-256) record this study's hash, and none another's. Their
games must also be this engine's: the engine table of the damaged manifest, where it still
reads as one, must equal this engine's; where it does not, the first verified game of each cell
must replay to its recorded rows. Anything else is refused in one line, changing nothing
(docs/guide/resume-and-signals.md).
"""

from __future__ import annotations

import datetime as dt
import platform
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

import rust_core
from rundir import LEDGER, UNRECORDED, EngineSpec, Manifest, Play, check_run, read_manifest
from rundir.batches import verified_studies
from rundir.columns import GAME_INDEX, PLAYER
from rundir.layout import data_dir, is_foreign_nonempty
from rundir.manifest import ManifestDamaged
from rundir.store import describe

from . import version
from .study import Study
from .words import plural

__all__ = [
    "EngineChanged",
    "ManifestMismatch",
    "check_compatible",
    "engine_of",
    "new",
    "read_for",
    "settle",
]


class ManifestMismatch(ValueError):
    """The output directory holds another study, or is not a run directory."""


class EngineChanged(ManifestMismatch):
    """The output directory was played by another version of the game's rules or of an agent."""


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def versions() -> dict[str, str | None]:
    def dist(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    return {
        "balancelab": dist("balancelab"),
        "rust_core": rust_core.__version__,
        "build": version.engine_build(),
        "ray": dist("ray"),
        "pyarrow": dist("pyarrow"),
        "python": platform.python_version(),
    }


def engine_of(study: Study) -> EngineSpec:
    """The rules version of the study's game and the version of every agent spec it uses."""
    specs = sorted({a for c in study.cells for a in c.agents})
    learned = any(spec.split(":", 1)[0] == "xmcts" for spec in specs)
    return EngineSpec(
        rules_version={study.game: rust_core.rules_version(study.game)},
        agent_versions={spec: rust_core.agent_version(spec, study.game) for spec in specs},
        evaluations={study.game: evaluation_of(study.game)} if learned else {},
    )


def evaluation_of(game: str) -> str:
    """``game``'s learned evaluation in words: its weights file, content hash, and what it was
    fitted on."""
    return (
        f"{game}_eval_weights.txt (hash {rust_core.eval_hash(game)}), fitted on {rust_core.eval_fitted(game)}"
    )


def read_for(out: Path, study: Study) -> tuple[Manifest | None, str | None]:
    """The manifest of ``out`` for a run of ``study`` and ``None``; or, for a damaged manifest
    that may be rebuilt from ``study`` (see the module's docstring), ``None`` and a note saying
    so; a damaged manifest that may not is refused (:class:`rundir.manifest.ManifestDamaged`)."""
    try:
        return read_manifest(out), None
    except ManifestDamaged as exc:
        return None, restore_note(out, study, exc)


def restore_note(out: Path, study: Study, exc: ManifestDamaged) -> str:
    """One line on why the damaged manifest of ``out`` may be rebuilt from ``study``; refused
    (:class:`ManifestDamaged`, one line) where the verified data do not record ``study``."""
    refuse = "run this study into a new --out directory"
    try:
        games = verified_studies(out)
    except OSError as err:
        raise ManifestDamaged(
            f"{exc}; {LEDGER} cannot be read ({describe(err)}), so nothing tells which study its games "
            "belong to: make it readable and run the same command again"
        ) from None
    mine = games.pop(study.hash(), 0)
    if games:
        other = max(games, key=lambda h: games[h])
        raise ManifestDamaged(
            f"{exc}; its verified batch files record another study (study hash {other[:12]}, "
            f"{study.source} has {study.hash()[:12]}), so it is not rebuilt from {study.source}: run the "
            f"study it was run with and --out {out} again, or {refuse}"
        )
    if not mine:
        return f"{exc}; no batch file verified yet, nothing to mix: written again from the study"
    problem = _engine_problem(out, study, exc.raw)
    if problem is not None:
        raise ManifestDamaged(f"{exc}; {problem}, so {out} cannot be continued: {refuse}")
    return (
        f"{exc}; the study's identity (hash {study.hash()[:12]}) is the one its verified batch files "
        f"record ({plural(mine, 'game')}): written again from the study"
    )


def _engine_problem(out: Path, study: Study, raw: dict[str, Any] | None) -> str | None:
    """Why the verified games of ``out`` may be of another engine than this one, or ``None``:
    from the damaged manifest's engine table where it reads as one, else from the games."""
    engine = raw.get("engine") if raw is not None else None
    rules = engine.get("rules_version") if isinstance(engine, dict) else None
    agents = engine.get("agent_versions") if isinstance(engine, dict) else None
    if not isinstance(rules, dict) or not isinstance(agents, dict):
        return _replay_problem(out, study)
    changes = EngineSpec(dict(rules), dict(agents)).changes(engine_of(study))
    if not changes:
        return None
    return (
        f"it records another engine ({'; '.join(changes)[:300]}): damaged there or not, games of two "
        "engines are never mixed"
    )


#: Most cells whose first verified game is replayed to tell the engine of a run.
MAX_REPLAYS = 8


def _replay_problem(out: Path, study: Study) -> str | None:
    """``None`` if the first verified game of each cell (at most :data:`MAX_REPLAYS`) replays to
    its recorded rows with this engine; else why not."""
    from rundir.batches import read_table

    from .replay import mismatches

    check = check_run(out, study.hash(), [c.id for c in study.cells])
    for cell in study.cells[:MAX_REPLAYS]:
        recs = sorted((r for r in check.good if r.cell == cell.id), key=lambda r: r.start)
        if not recs:
            continue
        table = read_table(out, recs[0].path)
        rows = table.filter(pc.equal(table[GAME_INDEX], recs[0].start)).to_pylist()
        log = rust_core.replay(
            study.game, cell.variant, cell.agents, study.seed, recs[0].start, pair_seats=study.pair_seats
        )
        problems = mismatches(log, sorted(rows, key=lambda r: r[PLAYER]))
        if problems:
            return (
                f"its engine table is unreadable and game {recs[0].start} of cell {cell.id} does not "
                f"replay as recorded with this engine ({problems[0][:200]})"
            )
    return None


def check_compatible(out: Path, study: Study, old: Manifest | None) -> None:
    """Raises :class:`ManifestMismatch` if ``out`` is not a run directory of ``study``, or
    :class:`EngineChanged` if it was played by other rules or agent versions."""
    if old is None:
        if is_foreign_nonempty(out) or (data_dir(out).exists() and any(data_dir(out).iterdir())):
            raise ManifestMismatch(
                f"--out {out}: not empty and holds no manifest.json, so it is not a balancelab run; "
                "give a new or empty directory"
            )
        return
    engine = engine_of(study)  # this engine first: what follows only reads the records
    diffs = old.study.differences(study)
    if diffs:
        raise ManifestMismatch(
            f"{out} holds study {old.study.name!r} from {old.study.source}, which differs from "
            f"{study.source} in: {', '.join(diffs)}; use another --out directory (or delete {out})"
        )
    changes = old.engine.changes(engine)
    if changes:
        raise EngineChanged(
            f"{out} was played by another engine ({'; '.join(changes)}): its games cannot be mixed with "
            f"games of this one; start a new run with another --out directory, e.g. "
            f"`balancelab run {study.source.removeprefix('builtin:')} --out {out}-new`"
        )


def new(study: Study, old: Manifest | None) -> Manifest:
    """A manifest for a run starting now (keeping the first start time of a continued directory),
    its last play this invocation's (no games yet), after the directory's earlier plays."""
    started = now()
    man = Manifest(
        study=study,
        engine=engine_of(study),
        versions=versions(),
        git_commit=version.source_commit(),  # None for an installed package: versions["build"] names it
        host=platform.node(),
        started=started,
        first_started=old.first_started if old is not None else started,
        games_done=old.games_done if old is not None else 0,
        games_planned=sum(c.games for c in study.cells),
        plays=list(old.history()) if old is not None else [],
    )
    man.plays.append(Play(man.git_commit, man.versions.get("build"), man.host, started))
    return man


def settle(plays: list[Play], games_done: int) -> None:
    """Accounts for the games on disk that no earlier play counts (``plays[-1]`` is this one): an
    interrupted invocation (the play before, never finished) gets them; otherwise (a manifest
    rebuilt after damage) a play :data:`rundir.UNRECORDED` holds them."""
    unaccounted = games_done - sum(p.games for p in plays[:-1])
    if len(plays) >= 2 and plays[-2].finished is None:
        plays[-2] = replace(plays[-2], games=plays[-2].games + max(0, unaccounted))
    elif unaccounted > 0:
        plays.insert(-1, Play(None, None, UNRECORDED, UNRECORDED, games=unaccounted))
