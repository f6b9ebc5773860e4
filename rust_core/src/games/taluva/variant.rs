//! Taluva's variant options (every *(variant)* switch of `RULES.md`).

use super::tiles::N_TILES;
use crate::error::Result;
use crate::options::{OptionSpec, Options};
use serde_json::{json, Value};

/// Where a new settlement's first hut may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewHut {
    /// Any empty level-1 terrain hex (the seed).
    Anywhere,
    /// Also not next to one of the player's own settlements (the online implementation).
    NotAdjacent,
}

/// Which hexes an expansion fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expansion {
    /// The empty hexes of the chosen terrain touching the settlement (the seed).
    Adjacent,
    /// Those and every empty hex of that terrain connected to them through empty hexes of
    /// the same terrain.
    Connected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// Tiles per player, or `None` for all 48 (the seed).
    pub tiles_per_player: Option<u8>,
    pub new_hut: NewHut,
    pub expansion: Expansion,
}

impl Default for Variant {
    fn default() -> Self {
        Variant { tiles_per_player: None, new_hut: NewHut::Anywhere, expansion: Expansion::Adjacent }
    }
}

impl Variant {
    /// Tiles the game uses with `n` players.
    pub fn tile_count(&self, n: usize) -> usize {
        self.tiles_per_player.map_or(N_TILES, |k| k as usize * n)
    }
}

pub fn schema() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "tiles",
            default: json!("all"),
            allowed: "\"all\" | integer 1..=24 (tiles per player; players x tiles at most 48)",
            description: "Tiles in the game: all 48 (the seed), or that many per player drawn at random from the 48 (the online implementation uses 12: 24 / 36 / 48 for 2 / 3 / 4 players). The game ends when they are used.",
            path: false,
        },
        OptionSpec {
            name: "new_hut",
            default: json!("anywhere"),
            allowed: "\"anywhere\" | \"not_adjacent\"",
            description: "A new settlement's hut goes on any empty level-1 terrain hex (anywhere, the seed) or only on one not next to one of the player's own buildings (not_adjacent, the online implementation).",
            path: false,
        },
        OptionSpec {
            name: "expansion",
            default: json!("adjacent"),
            allowed: "\"adjacent\" | \"connected\"",
            description: "An expansion fills the empty hexes of the chosen terrain touching the settlement (adjacent, the seed), or also every empty hex of that terrain connected to those through empty hexes of the same terrain (connected).",
            path: false,
        },
    ]
}

pub fn parse(value: &Value, n_players: usize) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("taluva", value, &schema)?;
    let tiles_per_player = match o.raw("tiles") {
        None => None,
        Some(Value::String(s)) if s == "all" => None,
        Some(v) => match v.as_u64() {
            Some(k) if (1..=24).contains(&k) && k as usize * n_players.max(1) <= N_TILES => Some(k as u8),
            _ => return Err(o.bad("tiles", v)),
        },
    };
    let new_hut = [NewHut::Anywhere, NewHut::NotAdjacent][o.choice("new_hut", &["anywhere", "not_adjacent"])?];
    let expansion = [Expansion::Adjacent, Expansion::Connected][o.choice("expansion", &["adjacent", "connected"])?];
    Ok(Variant { tiles_per_player, new_hut, expansion })
}

/// The variant as JSON (for logs).
pub fn to_json(v: &Variant) -> Value {
    json!({
        "tiles": v.tiles_per_player.map_or(json!("all"), |k| json!(k)),
        "new_hut": match v.new_hut { NewHut::Anywhere => "anywhere", NewHut::NotAdjacent => "not_adjacent" },
        "expansion": match v.expansion { Expansion::Adjacent => "adjacent", Expansion::Connected => "connected" },
    })
}
