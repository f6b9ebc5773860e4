//! Games by name: the one place that lists them and dispatches to their engines.

use crate::batch::{self, Columns};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::games::alhambra::Alhambra;
use serde_json::Value;

/// Names of the available games.
pub const GAMES: &[&str] = &["alhambra", "coin", "hiroba"];

/// Runs `$body` with the type alias `G` bound to the engine of game `$name`.
macro_rules! with_game {
    ($name:expr, $g:ident => $body:expr) => {
        match $name {
            "alhambra" => {
                type $g = Alhambra;
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
            other => Err(Error::UnknownGame {
                name: other.to_string(),
                allowed: GAMES.iter().map(|s| s.to_string()).collect(),
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

/// Checks a game, variant and agent line-up without playing.
pub fn validate(game: &str, variant: &Value, agents: &[String]) -> Result<()> {
    with_game!(game, G => batch::Setup::<G>::new(variant, agents).map(|_| ()))
}

pub fn simulate(
    game: &str,
    variant: &Value,
    agents: &[String],
    seed: u64,
    start: u64,
    count: u64,
    pair_seats: bool,
) -> Result<Columns> {
    with_game!(game, G => batch::simulate::<G>(variant, agents, seed, start, count, pair_seats))
}

pub fn replay(
    game: &str,
    variant: &Value,
    agents: &[String],
    seed: u64,
    index: u64,
    pair_seats: bool,
) -> Result<Value> {
    with_game!(game, G => batch::replay::<G>(variant, agents, seed, index, pair_seats))
}
