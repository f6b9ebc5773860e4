//! Games by name: the one place that lists them and dispatches to their engines.

use crate::agents::AgentSpec;
use crate::batch::{self, Columns};
use crate::error::Result;
use crate::game::{Game, Record};
use crate::options::Files;
use serde_json::Value;

/// Names of the available games.
pub const GAMES: &[&str] = &["alhambra", "coin", "hiroba", "maharaja", "taluva", "titania"];

/// Runs `$body` with the type alias `G` bound to the engine of game `$name`.
macro_rules! with_game {
    ($name:expr, $g:ident => $body:expr) => {
        match $name {
            "alhambra" => {
                type $g = crate::games::alhambra::Alhambra;
                $body
            }
            "coin" => {
                type $g = crate::games::coin::Coin;
                $body
            }
            "hiroba" => {
                type $g = crate::games::hiroba::Hiroba;
                $body
            }
            "maharaja" => {
                type $g = crate::games::maharaja::Maharaja;
                $body
            }
            "taluva" => {
                type $g = crate::games::taluva::Taluva;
                $body
            }
            "titania" => {
                type $g = crate::games::titania::Titania;
                $body
            }
            other => Err($crate::error::Error::UnknownGame {
                name: other.to_string(),
                allowed: $crate::registry::GAMES.iter().map(|s| s.to_string()).collect(),
            }),
        }
    };
}

/// Every variant option of a game (name, default, allowed, description) as JSON.
pub fn variant_schema(game: &str) -> Result<Vec<Value>> {
    with_game!(game, G => Ok(G::variant_schema().iter().map(|o| o.to_json()).collect()))
}

/// Game-specific output columns: (name, description, nullable).
pub fn metric_columns(game: &str) -> Result<Vec<(String, String, bool)>> {
    with_game!(game, G => Ok(G::metric_specs()
        .iter()
        .map(|m| (m.name.to_string(), m.description.to_string(), m.nullable))
        .collect()))
}

/// The version of a game's rules implementation (`RULES_VERSION`).
pub fn rules_version(game: &str) -> Result<u32> {
    with_game!(game, G => Ok(G::RULES_VERSION))
}

/// The version of an agent spec's play (see [`crate::agents::agent_version`]).
pub fn agent_version(spec: &str) -> Result<u32> {
    AgentSpec::parse(spec).map(|a| a.version())
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
        G::parse_variant(variant, n_players, files)?;
        let mut options = serde_json::Map::new();
        for spec in G::variant_schema() {
            let given = variant.get(spec.name).filter(|v| !v.is_null());
            options.insert(spec.name.to_string(), given.cloned().unwrap_or(spec.default));
        }
        Ok(G::normalize_variant(Value::Object(options), n_players))
    })
}

/// Checks a game, variant and agent line-up without playing.
pub fn validate(game: &str, variant: &Value, files: &Files, agents: &[String]) -> Result<()> {
    with_game!(game, G => batch::Setup::<G>::new(variant, agents, files).map(|_| ()))
}

#[allow(clippy::too_many_arguments)]
pub fn simulate(
    game: &str,
    variant: &Value,
    files: &Files,
    agents: &[String],
    seed: u64,
    start: u64,
    count: u64,
    pair_seats: bool,
) -> Result<Columns> {
    with_game!(game, G => batch::simulate::<G>(variant, files, agents, seed, start, count, pair_seats))
}

pub fn replay(
    game: &str,
    variant: &Value,
    files: &Files,
    agents: &[String],
    seed: u64,
    index: u64,
    pair_seats: bool,
) -> Result<Value> {
    with_game!(game, G => batch::replay::<G>(variant, files, agents, seed, index, pair_seats))
}

/// Each game's own Python helpers (`rust_core.<game>`), from `games/<game>/py.rs`.
#[cfg(feature = "python")]
pub fn python_helpers(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
    crate::games::alhambra::py::register(m)?;
    Ok(())
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
