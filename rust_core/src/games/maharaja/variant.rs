//! Maharaja's variant options (every *(variant)* switch of the rules, see `RULES.md`).

use super::map::Map;
use crate::error::{Error, Result};
use crate::options::{Files, OptionSpec, Options};
use serde_json::{json, Value};
use std::sync::Arc;

/// When the wheels set in secret become known to the other players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reveal {
    /// Each player shows their wheel when their turn begins (the seed's rule).
    Turn,
    /// All wheels are shown together once everyone has set theirs.
    Together,
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub short: bool,
    pub one_palace_per_city: bool,
    pub advanced_1: bool,
    pub advanced_2: bool,
    pub reveal: Reveal,
    pub map: Arc<Map>,
    /// `"built-in"` or the path the map was read from.
    pub map_source: String,
}

impl Variant {
    /// The default rules on the built-in map.
    pub fn standard() -> Variant {
        Variant {
            short: false,
            one_palace_per_city: true,
            advanced_1: false,
            advanced_2: false,
            reveal: Reveal::Turn,
            map: Arc::new(Map::builtin()),
            map_source: "built-in".into(),
        }
    }
}

pub fn schema() -> Vec<OptionSpec> {
    let b = |name, default: bool, description| OptionSpec {
        name,
        default: json!(default),
        allowed: "true | false",
        description,
        path: false,
    };
    vec![
        b("short", false, "Short game: the last round is the one in which a player builds a 6th palace or a governor reaches place 8 (instead of 7 and 10)."),
        b("one_palace_per_city", true, "A player may have at most one palace in each city (true, as commonly played) or any number up to the city's 7 spaces (false, the seed states only the city limit)."),
        b("advanced_1", false, "Advanced variant 1: the Yogi (7th character) and action tokens, characters auctioned at set-up, with fewer than 5 players a neutral house on one outer palace space of each city, and each character's pictured city is its holder's home city (+1 point there)."),
        b("advanced_2", false, "Advanced variant 2: players may hold several characters and use all their powers; taking a card from the bank keeps your own; with an empty bank you may swap a card with another player; you may recruit a card (their choice) from a player holding more cards than you."),
        OptionSpec {
            name: "reveal",
            default: json!("turn"),
            allowed: "\"turn\" | \"together\"",
            description: "When the secretly set wheels are shown: each at its owner's turn (turn, the seed's rule) or all together once every player has set theirs (together).",
            path: false,
        },
        OptionSpec {
            name: "map",
            default: Value::Null,
            allowed: "null (the engine's built-in map) | path of a map file",
            description: "The map of cities, roads and villages: null for the built-in map (rust_core/src/games/maharaja/maharaja_map.txt, the engine's own, not the publisher's), or a file in that format; it is checked when the variant is parsed.",
            path: true,
        },
    ]
}

/// Parses a variant; the `map` file's text comes from `files` (the engine reads no files).
pub fn parse(value: &Value, files: &Files) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("maharaja", value, &schema)?;
    let reveal = [Reveal::Turn, Reveal::Together][o.choice("reveal", &["turn", "together"])?];
    let (map, map_source) = match o.file("map", files)? {
        None => (Map::builtin(), "built-in".to_string()),
        Some((path, text)) => (parse_map(&path, text)?, path),
    };
    Ok(Variant {
        short: o.boolean("short", false)?,
        one_palace_per_city: o.boolean("one_palace_per_city", true)?,
        advanced_1: o.boolean("advanced_1", false)?,
        advanced_2: o.boolean("advanced_2", false)?,
        reveal,
        map: Arc::new(map),
        map_source,
    })
}

/// Validates the text of a map file; errors name the option, the file, the city or road and
/// the broken rule.
pub fn parse_map(path: &str, text: &str) -> Result<Map> {
    Map::parse(text).map_err(|message| Error::BadFile { option: "map".into(), path: path.into(), message })
}
