//! Alhambra's variant options (every variant switch of `RULES.md`).

use super::city::{HoleRule, WallRule};
use crate::error::Result;
use crate::options::{OptionSpec, Options};
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartPlayer {
    FewestCards,
    Random,
    MostCards,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leftover {
    Value,
    Count,
    Nobody,
}

/// How many tiles Dirk receives at one of his three moments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirkCount {
    Fixed(u8),
    /// One third of the tiles left in the bag, rounded down.
    Third,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub start_player: StartPlayer,
    pub hole_rule: HoleRule,
    pub wall_rule: WallRule,
    pub leftover_rule: Leftover,
    pub money_copies: u8,
    /// Dirk is in play (only ever with 2 players).
    pub dirk: bool,
    pub dirk_tiles: [DirkCount; 3],
    pub open_hands: bool,
}

pub fn schema() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "start_player",
            default: json!("fewest_cards"),
            allowed: "\"fewest_cards\" | \"random\" | \"most_cards\"",
            description: "Start player: fewest money cards (tie: lowest value, then random), uniformly random, or most cards (tie: highest value, then random).",
            path: false,
        },
        OptionSpec {
            name: "hole_rule",
            default: json!("area"),
            allowed: "\"area\" | \"cell\"",
            description: "No-hole rule: no enclosed empty area of any size, or only no single empty square with tiles on all four sides.",
            path: false,
        },
        OptionSpec {
            name: "wall_rule",
            default: json!("trail"),
            allowed: "\"trail\" | \"simple_path\"",
            description: "Longest outer wall as a trail (corners may repeat) or a simple path (no corner twice).",
            path: false,
        },
        OptionSpec {
            name: "leftover_rule",
            default: json!("value"),
            allowed: "\"value\" | \"count\" | \"none\"",
            description: "At game end each market tile goes to the most money of its currency by card value, by card count, or to nobody (ties: nobody).",
            path: false,
        },
        OptionSpec {
            name: "money_copies",
            default: Value::Null,
            allowed: "integer 1..=4, or null (2 with Dirk, else 3)",
            description: "Copies of each money card (currency x value).",
            path: false,
        },
        OptionSpec {
            name: "dirk",
            default: json!(true),
            allowed: "true | false",
            description: "Two players only: the virtual player Dirk takes tiles and counts in majorities (ignored with 3-6 players).",
            path: false,
        },
        OptionSpec {
            name: "dirk_tiles",
            default: json!([6, 6, "third"]),
            allowed: "list of 3 entries, each an integer 0..=54 or \"third\"",
            description: "Tiles Dirk receives at the start, after the 1st and after the 2nd scoring (\"third\" = a third of the bag, rounded down).",
            path: false,
        },
        OptionSpec {
            name: "open_hands",
            default: json!(true),
            allowed: "true | false",
            description: "Whether agents see opponents' money (perfect memory) or only their card counts.",
            path: false,
        },
    ]
}

/// The normal form of a complete option object ([`crate::game::Game::normalize_variant`]): an
/// unset `money_copies` is the count the rules give (2 with Dirk in a 2-player game, else 3), so
/// `{}` and `{ money_copies = 2 }` at 2 players are one game.
pub fn normalize(mut options: Value, n_players: usize) -> Value {
    let dirk = n_players == 2 && options.get("dirk").and_then(Value::as_bool).unwrap_or(true);
    if options.get("money_copies").is_none_or(Value::is_null) {
        options["money_copies"] = json!(if dirk { 2 } else { 3 });
    }
    options
}

pub fn parse(value: &Value, n_players: usize) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("alhambra", value, &schema)?;
    let start_player = [StartPlayer::FewestCards, StartPlayer::Random, StartPlayer::MostCards]
        [o.choice("start_player", &["fewest_cards", "random", "most_cards"])?];
    let hole_rule = [HoleRule::Area, HoleRule::Cell][o.choice("hole_rule", &["area", "cell"])?];
    let wall_rule = [WallRule::Trail, WallRule::SimplePath][o.choice("wall_rule", &["trail", "simple_path"])?];
    let leftover_rule =
        [Leftover::Value, Leftover::Count, Leftover::Nobody][o.choice("leftover_rule", &["value", "count", "none"])?];
    let dirk = o.boolean("dirk", true)? && n_players == 2;
    let money_copies = o.int_in("money_copies", if dirk { 2 } else { 3 }, 1, 4)? as u8;
    let open_hands = o.boolean("open_hands", true)?;
    let mut dirk_tiles = [DirkCount::Fixed(6), DirkCount::Fixed(6), DirkCount::Third];
    if let Some(v) = o.raw("dirk_tiles") {
        let items = v.as_array().filter(|a| a.len() == 3).ok_or_else(|| o.bad("dirk_tiles", v))?;
        for (slot, item) in dirk_tiles.iter_mut().zip(items) {
            *slot = match item {
                Value::String(s) if s == "third" => DirkCount::Third,
                _ => match item.as_u64() {
                    Some(k) if k <= 54 => DirkCount::Fixed(k as u8),
                    _ => return Err(o.bad("dirk_tiles", v)),
                },
            };
        }
    }
    Ok(Variant { start_player, hole_rule, wall_rule, leftover_rule, money_copies, dirk, dirk_tiles, open_hands })
}
