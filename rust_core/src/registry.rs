//! Games by name: the one place that lists them and dispatches to their engines.

use crate::agents::timed::Clock;
use crate::agents::AgentSpec;
use crate::batch::bare::{BareAgent, Totals};
use crate::batch::{self, BatchSpec, Columns, Positions};
use crate::error::Result;
use crate::game::{Game, Record};
use crate::options::Files;
use serde_json::Value;

/// The registered games, each once: its name, its engine type and, where it has them, the
/// function that adds its own Python helpers (`rust_core.<game>`, from `games/<game>/py.rs`).
/// Adding a game is one line here (plus its folder under `games/` and its `pub mod` line in
/// `games/mod.rs`). `$m` is a macro that receives the list after `$args`.
macro_rules! registered_games {
    ($m:ident $(, $args:tt)?) => {
        $m! { $($args)?
            "alhambra" => crate::games::alhambra::Alhambra, py = crate::games::alhambra::py::register;
            "coin" => crate::games::coin::Coin;
            "hiroba" => crate::games::hiroba::Hiroba;
            "maharaja" => crate::games::maharaja::Maharaja;
            "taluva" => crate::games::taluva::Taluva;
            "titania" => crate::games::titania::Titania;
        }
    };
}

macro_rules! game_names {
    ($($name:literal => $ty:ty $(, py = $py:path)?;)*) => {
        &[$($name),*]
    };
}

/// Names of the available games.
pub const GAMES: &[&str] = registered_games!(game_names);

macro_rules! dispatch {
    (($name:expr, $g:ident => $body:expr) $($n:literal => $ty:ty $(, py = $py:path)?;)*) => {
        match $name {
            $($n => {
                type $g = $ty;
                $body
            })*
            other => Err($crate::error::Error::UnknownGame {
                name: other.to_string(),
                allowed: $crate::registry::GAMES.iter().map(|s| s.to_string()).collect(),
            }),
        }
    };
}

/// Runs `$body` with the type alias `G` bound to the engine of game `$name`.
macro_rules! with_game {
    ($name:expr, $g:ident => $body:expr) => {
        registered_games!(dispatch, ($name, $g => $body))
    };
}

/// Every variant option of a game (name, default, allowed, description) as JSON.
pub fn variant_schema(game: &str) -> Result<Vec<Value>> {
    with_game!(game, G => Ok(G::variant_schema().iter().map(|o| o.to_json()).collect()))
}

/// The options every game accepts besides its own (the score handicap) as JSON, like
/// [`variant_schema`].
pub fn contract_options() -> Vec<Value> {
    vec![crate::handicap::option_spec().to_json()]
}

/// Game-specific output columns: (name, description, nullable).
pub fn metric_columns(game: &str) -> Result<Vec<(String, String, bool)>> {
    with_game!(game, G => Ok(G::metric_specs()
        .iter()
        .map(|m| (m.name.to_string(), m.description.to_string(), m.nullable))
        .collect()))
}

/// The player counts a game allows: `(MIN_PLAYERS, MAX_PLAYERS)`.
pub fn player_range(game: &str) -> Result<(usize, usize)> {
    with_game!(game, G => Ok((G::MIN_PLAYERS, G::MAX_PLAYERS)))
}

/// The version of a game's rules implementation (`RULES_VERSION`).
pub fn rules_version(game: &str) -> Result<u32> {
    with_game!(game, G => Ok(G::RULES_VERSION))
}

/// The game's own `mcts` settings that replace the general defaults ([`crate::game::Evaluate::MCTS_DEFAULTS`]).
pub fn mcts_defaults(game: &str) -> Result<&'static str> {
    with_game!(game, G => Ok(<G as crate::game::Evaluate>::MCTS_DEFAULTS))
}

/// The content hash of `game`'s learned evaluation (`<game>_eval_weights.txt`), as 8 hex digits.
pub fn eval_hash(game: &str) -> Result<String> {
    with_game!(game, G => Ok(format!("{:08x}", crate::agents::learned::content_hash(
        <G as crate::game::Evaluate>::EVAL_WEIGHTS))))
}

/// What `game`'s learned evaluation was fitted on: the `fitted` line of its weights file (rules
/// version, variant, positions and the agent that played them); empty for a game without one.
pub fn eval_fitted(game: &str) -> Result<String> {
    with_game!(game, G => Ok(crate::agents::learned::fitted(<G as crate::game::Evaluate>::EVAL_WEIGHTS).to_string()))
}

/// The names of `game`'s position features ([`crate::game::Evaluate::FEATURE_NAMES`]).
pub fn feature_names(game: &str) -> Result<Vec<&'static str>> {
    with_game!(game, G => Ok(<G as crate::game::Evaluate>::FEATURE_NAMES.to_vec()))
}

/// The version of an agent spec's play in `game` (see [`crate::agents::agent_version`]): it
/// depends on the agent and on that game's own learned evaluation, never on another game's.
/// An unknown game or agent is an error naming the allowed ones.
pub fn agent_version(spec: &str, game: &str) -> Result<u32> {
    with_game!(game, G => AgentSpec::parse(spec).map(|a| a.version::<G>()))
}

/// The variant of `game` for `n_players` in normal form ([`Game::normalize_variant`]): every
/// option present (defaults filled in, a null value is the default), checked as
/// [`validate`] checks it; two variants that play the same game give the same object.
pub fn normalize_variant(game: &str, variant: &Value, files: &Files, n_players: usize) -> Result<Value> {
    with_game!(game, G => {
        if !(G::MIN_PLAYERS..=G::MAX_PLAYERS).contains(&n_players) {
            return Err(crate::error::Error::PlayerCount {
                game: G::NAME.into(),
                count: n_players,
                min: G::MIN_PLAYERS,
                max: G::MAX_PLAYERS,
            });
        }
        let (variant, handicap) = crate::handicap::split(variant, n_players)?;
        G::parse_variant(&variant, n_players, files)?;
        let mut options = serde_json::Map::new();
        for spec in G::variant_schema() {
            let given = variant.get(spec.name).filter(|v| !v.is_null());
            options.insert(spec.name.to_string(), given.cloned().unwrap_or(spec.default));
        }
        let options = G::normalize_variant(Value::Object(options), n_players);
        Ok(crate::handicap::restore(options, &handicap, n_players))
    })
}

/// Checks a game, variant and agent line-up without playing.
pub fn validate(game: &str, variant: &Value, files: &Files, agents: &[String]) -> Result<()> {
    with_game!(game, G => batch::Setup::<G>::new(variant, agents, files).map(|_| ()))
}

/// Plays games `start .. start + count` of `spec` (see [`batch::simulate`]).
pub fn simulate(game: &str, spec: &BatchSpec, start: u64, count: u64) -> Result<Columns> {
    with_game!(game, G => batch::simulate::<G>(spec, start, count))
}

/// Plays games `start .. start + count` of the bare reference loop ([`batch::bare`]): `game`'s
/// default rules, `players` players, `agent` in every seat, the games `simulate` plays with
/// `seed` and that line-up.
pub fn bare(game: &str, players: usize, agent: BareAgent, seed: u64, start: u64, count: u64) -> Result<Totals> {
    with_game!(game, G => {
        let line_up = vec![agent.name().to_string(); players];
        let setup = batch::Setup::<G>::new(&Value::Object(Default::default()), &line_up, &Files::default())?;
        Ok(batch::bare::play::<G>(&setup.variant, players, agent, seed, start, count))
    })
}

/// Plays games `start .. start + count` of `spec` and times each agent's decisions (see
/// [`batch::simulate_timed`]).
pub fn simulate_timed(game: &str, spec: &BatchSpec, start: u64, count: u64) -> Result<(Columns, Vec<Clock>)> {
    with_game!(game, G => batch::simulate_timed::<G>(spec, start, count))
}

/// Plays games `start .. start + count` of `spec` and records one sampled position per
/// player per game (see [`batch::simulate_positions`]).
pub fn simulate_positions(
    game: &str,
    spec: &BatchSpec,
    start: u64,
    count: u64,
    label: Option<&str>,
) -> Result<(Columns, Positions)> {
    with_game!(game, G => batch::simulate_positions::<G>(spec, start, count, label))
}

/// The event log of game `index` of `spec` (see [`batch::replay`]).
pub fn replay(game: &str, spec: &BatchSpec, index: u64) -> Result<Value> {
    with_game!(game, G => batch::replay::<G>(spec, index))
}

#[cfg(feature = "python")]
macro_rules! python_helpers {
    (($m:expr) $($n:literal => $ty:ty $(, py = $py:path)?;)*) => {{
        $($($py($m)?;)?)*
        Ok(())
    }};
}

/// Each game's own Python helpers (`rust_core.<game>`), as the list above names them.
#[cfg(feature = "python")]
pub fn python_helpers(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
    registered_games!(python_helpers, (m))
}

#[cfg(test)]
mod conformance_tests {
    /// The conformance suite (see [`crate::conformance`]) for every registered game.
    #[test]
    fn every_game_conforms() {
        for &game in super::GAMES {
            let r: crate::error::Result<()> = with_game!(game, G => {
                crate::conformance::check::<G>();
                Ok(())
            });
            r.expect("registered game");
        }
    }
}
