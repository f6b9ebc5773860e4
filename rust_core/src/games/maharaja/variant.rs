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

/// The readings where the sources differ (see `RULES.md`, "Readings"), as switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readings {
    /// `route = "choose"`: among equally cheap routes the mover chooses (whom to pay);
    /// `"first"`: the first cheapest route found (roads in map-file order).
    pub choose_route: bool,
    /// `gold = "hidden"`: each player sees only their own gold and the total the others
    /// hold; `"public"`: everyone's gold is known.
    pub gold_hidden: bool,
    /// `powers = "optional"`: each use of a character power is the holder's decision;
    /// `"always"`: the Trader's gold, the Yogi's token, the Monk's tolls, the Artisan's
    /// price and the Sadhu's points always apply.
    pub powers_optional: bool,
    /// `repick = "own_turn"`: a player whose card is taken picks a new one at the start of
    /// their own next turn; `"at_once"`: at once, inside the taker's turn.
    pub repick_own_turn: bool,
}

impl Readings {
    /// The defaults: the project's English rules reference.
    pub const DEFAULT: Readings =
        Readings { choose_route: false, gold_hidden: true, powers_optional: true, repick_own_turn: false };
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub short: bool,
    pub one_palace_per_city: bool,
    pub advanced_1: bool,
    pub advanced_2: bool,
    pub reveal: Reveal,
    pub readings: Readings,
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
            readings: Readings::DEFAULT,
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
            name: "route",
            default: json!("first"),
            allowed: "\"first\" | \"choose\"",
            description: "Travel to a city always takes a cheapest route (least toll); among equally cheap routes the first found, roads in map-file order (first, the engine's reading; the reference is silent), or the mover chooses among equally cheap routes that pay different owners (choose, the seed lets the player take any road).",
            path: false,
        },
        OptionSpec {
            name: "gold",
            default: json!("hidden"),
            allowed: "\"hidden\" | \"public\"",
            description: "Each player's gold is hidden from the others, who know only the total the others hold (hidden, the seed and the reference: 15 gold, hidden information) or known to everyone (public, as every payment is made in the open).",
            path: false,
        },
        OptionSpec {
            name: "powers",
            default: json!("optional"),
            allowed: "\"optional\" | \"always\"",
            description: "Each use of a character power (the Trader's gold, the Yogi's token, the Monk's tolls, the Artisan's price, the Sadhu's points) is the holder's decision (optional, the seed and the reference) or always applies (always; the Builder's free step is a choice either way).",
            path: false,
        },
        OptionSpec {
            name: "repick",
            default: json!("at_once"),
            allowed: "\"at_once\" | \"own_turn\"",
            description: "A player whose character is taken picks one from the bank at once, inside the taker's turn (at_once, the reference), or at the start of their own next turn, acting after every player holding a card (own_turn, the seed's letter).",
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
    let readings = Readings {
        choose_route: o.choice("route", &["first", "choose"])? == 1,
        gold_hidden: o.choice("gold", &["public", "hidden"])? == 1,
        powers_optional: o.choice("powers", &["always", "optional"])? == 1,
        repick_own_turn: o.choice("repick", &["at_once", "own_turn"])? == 1,
    };
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
        readings,
        map: Arc::new(map),
        map_source,
    })
}

/// Validates the text of a map file; errors name the option, the file, the city or road and
/// the broken rule.
pub fn parse_map(path: &str, text: &str) -> Result<Map> {
    Map::parse(text).map_err(|message| Error::BadFile { option: "map".into(), path: path.into(), message })
}
