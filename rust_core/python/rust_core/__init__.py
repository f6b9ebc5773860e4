"""balancelab's Rust core: game engines, agents and the batch runner.

All games are played in Rust (GIL released); results come back as Arrow.

>>> import rust_core
>>> "alhambra" in rust_core.games()
True
>>> batch = rust_core.simulate("alhambra", {}, ["random", "random"], seed=1, start=0, count=10)
>>> batch.num_rows
20
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from . import _native

__all__ = [
    "AgentClock",
    "BatchSpec",
    "EngineError",
    "agent_version",
    "agents",
    "alhambra",
    "eval_fitted",
    "eval_hash",
    "feature_names",
    "games",
    "hiroba",
    "maharaja",
    "metric_columns",
    "player_range",
    "normalize_variant",
    "replay",
    "rules_version",
    "simulate",
    "titania",
    "validate",
    "variant_schema",
    "contract_options",
]
__version__: str = _native.__version__

#: The error of a bad game, option, value, file or agent: a ``ValueError`` whose attributes
#: ``kind`` (``unknown_game``, ``unknown_option``, ``bad_value``, ``bad_file``,
#: ``unknown_agent``, ``bad_agent_param``, ``player_count`` or ``invalid``), ``option``,
#: ``value``, ``allowed`` and ``agent`` (each ``None`` where it does not apply) say which.
EngineError = _native.EngineError

#: Text of the files named by file options, by path as given in the variant.
Files = Mapping[str, str]


def rules_version(game: str) -> int:
    """The version of ``game``'s rules implementation (bumped whenever results change)."""
    return int(_native.rules_version(game))


def player_range(game: str) -> tuple[int, int]:
    """The fewest and the most players ``game`` allows."""
    lo, hi = _native.player_range(game)
    return int(lo), int(hi)


def agent_version(spec: str, game: str) -> int:
    """The version of an agent spec's play in ``game`` (bumped whenever its choices change for a
    seed): it depends only on the agent and on ``game``'s own learned evaluation (``xmcts``), never
    on another game's, so refitting one game's weights leaves every other game's runs resumable.
    An unknown agent or game is an :data:`EngineError` naming the allowed ones."""
    return int(_native.agent_version(spec, game))


def eval_hash(game: str) -> str:
    """The content hash (8 hex digits) of ``game``'s learned evaluation (``<game>_eval_weights.txt``,
    compiled in), which ``xmcts`` uses; it is mixed into ``agent_version("xmcts", game)``."""
    return str(_native.eval_hash(game))


def eval_fitted(game: str) -> str:
    """What ``game``'s learned evaluation was fitted on: the ``fitted`` line of its weights file
    (rules version, variant, positions and the agent that played them)."""
    return str(_native.eval_fitted(game))


def feature_names(game: str) -> list[str]:
    """The names of ``game``'s position features (``f_<name>`` columns of the positions table)."""
    return list(_native.feature_names(game))


def games() -> list[str]:
    """Names of the available games."""
    return list(_native.games())


def agents() -> list[str]:
    """Names of the available agents (a spec is ``name`` or ``name:key=value,...``)."""
    return list(_native.agents())


def variant_schema(game: str) -> list[dict[str, Any]]:
    """Every variant option of ``game``: ``name``, ``default``, ``allowed``, ``description`` and
    ``path`` (true if the value is a file path, e.g. Hiroba's ``tiles``)."""
    return json.loads(_native.variant_schema(game))


def contract_options() -> list[dict[str, Any]]:
    """The options every game accepts besides its own (as :func:`variant_schema` gives them): the
    per-seat score ``handicap`` (one integer per player in turn order, added to the final score)."""
    return json.loads(_native.contract_options())


def metric_columns(game: str) -> list[dict[str, Any]]:
    """The game-specific output columns of ``game``: ``name``, ``description``, ``nullable``."""
    return [
        {"name": n, "description": d, "nullable": nullable} for n, d, nullable in _native.metric_columns(game)
    ]


def _variant_json(variant: Mapping[str, Any] | None) -> str:
    if variant is None:
        variant = {}
    if not isinstance(variant, Mapping):
        raise ValueError(f"variant must be a dict of option names to values, got {type(variant).__name__}")
    return json.dumps(dict(variant))


def _agent_list(agents: Sequence[str]) -> list[str]:
    if isinstance(agents, str) or not all(isinstance(a, str) for a in agents):
        raise ValueError("agents must be a list of agent spec strings, one per player")
    return list(agents)


def read_files(game: str, variant: Mapping[str, Any] | None) -> dict[str, str]:
    """The text of every file named by a file option of ``variant`` (the engine itself never
    opens a path). A missing or unreadable file is an :data:`EngineError` naming the option."""
    files: dict[str, str] = {}
    paths = {o["name"] for o in variant_schema(game) if o.get("path")}
    for name, value in (variant or {}).items():
        if name in paths and isinstance(value, str):
            try:
                files[value] = Path(value).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                err = EngineError(f"variant option {name!r}: cannot read file {value!r}: {exc}")
                err.kind, err.option, err.value, err.allowed, err.agent = "bad_file", name, value, None, None
                raise err from None
    return files


def _files(game: str, variant: Mapping[str, Any] | None, files: Files | None) -> dict[str, str]:
    return dict(files) if files is not None else read_files(game, variant)


def validate(
    game: str, variant: Mapping[str, Any] | None, agents: Sequence[str], *, files: Files | None = None
) -> None:
    """Raises :data:`EngineError` naming the bad game, option, value, file or agent; plays nothing.

    ``files`` maps each file option's path to the file's text; by default the files are read."""
    _native.validate(game, _variant_json(variant), _agent_list(agents), _files(game, variant, files))


@dataclass(frozen=True)
class AgentClock:
    """What one agent spent in a batch (:meth:`BatchSpec.simulate_timed`)."""

    cpu_seconds: float
    decisions: int
    searched: int  # decisions with more than one legal action

    @property
    def ms_per_searched(self) -> float:
        """CPU milliseconds per decision with a choice (0 if it had none)."""
        return 1000 * self.cpu_seconds / self.searched if self.searched else 0.0


@dataclass(frozen=True)
class BatchSpec:
    """One batch description, passed whole from the pipeline to the engine: what a study cell
    plays (``game``, ``variant``, the line-up ``agents``) with the study's ``seed`` and seating
    (``pair_seats``: every ``len(agents)`` consecutive games share one deal, ``deal_index = i // n``,
    with the agents rotated across the dealt positions). ``files`` maps each file option's path to
    the file's text (by default the files are read when the spec plays). Game ``i`` depends only on
    the spec and ``i``; :meth:`simulate` and :meth:`replay` choose the games."""

    game: str
    variant: Mapping[str, Any] | None
    agents: Sequence[str]
    seed: int
    pair_seats: bool = False
    files: Files | None = None
    #: Measure every player's luck: :meth:`simulate` adds the column ``luck`` (play is the same).
    luck: bool = False
    #: The value ``V`` the luck measurement uses: ``"learned"`` (the game's learned evaluation) or
    #: ``"rollout:k=K[,h=H][,at=all|deal|all+ties|deal+ties]"`` (mean of ``K`` greedy playouts, cut
    #: after ``H`` decisions; ``+ties``: greedy players' tie-breaks measured too).
    luck_value: str = "learned"

    def _native_spec(self) -> tuple[str, list[str], int, bool, dict[str, str]]:
        if self.seed < 0:
            raise ValueError("seed must be non-negative")
        text = _files(self.game, self.variant, self.files)
        return _variant_json(self.variant), _agent_list(self.agents), self.seed, self.pair_seats, text

    def simulate(self, start: int, count: int) -> pa.RecordBatch:
        """Games ``start .. start + count``: one row per player per game (columns: see ``README.md``
        and each field's ``description`` in the Arrow schema metadata)."""
        if start < 0 or count < 0:
            raise ValueError("start and count must be non-negative")
        return _native.simulate(self.game, self._native_spec(), start, count, self.luck, self.luck_value)

    def simulate_positions(
        self, start: int, count: int, label: str | None = None
    ) -> tuple[pa.RecordBatch, pa.RecordBatch]:
        """The games of :meth:`simulate` and their positions: one sampled decision per player per
        game (chosen by the stream of ``seed`` and the game index), with the game's features as
        that player saw it (``f_<name>`` columns), the player's final ``win`` and the game's
        hand-written ``estimate`` (see ``README.md``, "Positions"). With ``label`` (an agent
        spec, e.g. ``"mcts:iters=2000"``), each position is also searched afresh by that agent
        and its estimate of the player's win share is the ``value`` column (NaN otherwise)."""
        if start < 0 or count < 0:
            raise ValueError("start and count must be non-negative")
        return _native.simulate_positions(self.game, self._native_spec(), start, count, label)

    def simulate_timed(self, start: int, count: int) -> tuple[pa.RecordBatch, list[AgentClock]]:
        """The games of :meth:`simulate` and what each agent of the line-up spent on its decisions
        (in list order): thread CPU seconds inside its choices, its decisions, and those with
        more than one legal action. For benchmarks at equal CPU time; timings vary between
        runs, so no run directory records them."""
        if start < 0 or count < 0:
            raise ValueError("start and count must be non-negative")
        games, clocks = _native.simulate_timed(self.game, self._native_spec(), start, count)
        return games, [AgentClock(*c) for c in clocks]

    def replay(self, game_index: int) -> dict[str, Any]:
        """The full event log of game ``game_index`` (JSON-able): set-up, every action, rule events,
        result; its ``result`` rows equal what :meth:`simulate` gives for the same game."""
        if game_index < 0:
            raise ValueError("game_index must be non-negative")
        return json.loads(_native.replay(self.game, self._native_spec(), game_index))


def normalize_variant(
    game: str, variant: Mapping[str, Any] | None, players: int, *, files: Files | None = None
) -> dict[str, Any]:
    """``variant`` for ``players`` players in normal form: every option present (defaults filled
    in), and two variants that play the same game give the same dict (e.g. Taluva's
    ``tiles = 12`` at 4 players is ``tiles = "all"``). Checked as :func:`validate` checks it."""
    text = _native.normalize_variant(game, _variant_json(variant), players, _files(game, variant, files))
    return dict(json.loads(text))


def simulate(
    game: str,
    variant: Mapping[str, Any] | None,
    agents: Sequence[str],
    seed: int,
    start: int,
    count: int,
    *,
    pair_seats: bool = False,
    files: Files | None = None,
    luck: bool = False,
    luck_value: str = "learned",
) -> pa.RecordBatch:
    """Plays games ``start .. start + count`` of a study: ``BatchSpec(...).simulate(start, count)``;
    ``luck``: each row also carries the player's luck (column ``luck``), measured with the value
    ``luck_value`` (see :attr:`BatchSpec.luck_value`)."""
    return BatchSpec(game, variant, agents, seed, pair_seats, files, luck, luck_value).simulate(start, count)


def replay(
    game: str,
    variant: Mapping[str, Any] | None,
    agents: Sequence[str],
    seed: int,
    game_index: int,
    *,
    pair_seats: bool = False,
    files: Files | None = None,
) -> dict[str, Any]:
    """The event log of one game: ``BatchSpec(...).replay(game_index)``."""
    return BatchSpec(game, variant, agents, seed, pair_seats, files).replay(game_index)


# The games' own helpers need the functions above.
from . import alhambra, hiroba, maharaja, titania  # noqa: E402
