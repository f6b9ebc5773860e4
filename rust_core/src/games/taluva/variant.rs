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

/// What an eruption may rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EruptionLevels {
    /// All three hexes below on one level (the published rules; the reference's decision).
    Same,
    /// Any levels, only no overhang: all three hexes on land (the seed's words).
    Any,
}

/// Whether huts lost to eruptions count as placed for the two-kinds win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LostHuts {
    /// They never return, so an empty hut supply completes the kind (the reference's decision).
    Placed,
    /// The kind is complete only with every hut on the tiles (the seed's words): a player
    /// who lost a hut can win by two kinds only with temples and towers.
    NotPlaced,
}

/// How eliminated players rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eliminated {
    /// Below everyone still in; among them the later elimination higher (the reference's decision).
    ByTurn,
    /// Their buildings count as zero (the seed's words): below everyone still in, all tied.
    Zero,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// Tiles per player, or `None` for all 48 (the seed).
    pub tiles_per_player: Option<u8>,
    pub new_hut: NewHut,
    pub expansion: Expansion,
    pub eruption_levels: EruptionLevels,
    pub lost_huts: LostHuts,
    pub eliminated: Eliminated,
}

impl Default for Variant {
    fn default() -> Self {
        Variant {
            tiles_per_player: None,
            new_hut: NewHut::Anywhere,
            expansion: Expansion::Adjacent,
            eruption_levels: EruptionLevels::Same,
            lost_huts: LostHuts::Placed,
            eliminated: Eliminated::ByTurn,
        }
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
        OptionSpec {
            name: "eruption_levels",
            default: json!("same"),
            allowed: "\"same\" | \"any\"",
            description: "An eruption's three hexes must all lie on one level (same, the published rules) or only on land, any levels (any, the seed: only no overhang).",
            path: false,
        },
        OptionSpec {
            name: "lost_huts",
            default: json!("placed"),
            allowed: "\"placed\" | \"not_placed\"",
            description: "For the two-kinds win, huts lost to eruptions count as placed (placed: an empty supply completes huts) or not (not_placed, the seed: every hut must stand on the tiles, so a player who lost one completes only temples and towers). The tiles-out count of huts built includes lost huts either way.",
            path: false,
        },
        OptionSpec {
            name: "eliminated",
            default: json!("by_turn"),
            allowed: "\"by_turn\" | \"zero\"",
            description: "Eliminated players rank below everyone still in, the later elimination higher (by_turn), or their buildings count as zero (zero, the seed): they share the ranks below everyone still in.",
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
    let eruption_levels = [EruptionLevels::Same, EruptionLevels::Any][o.choice("eruption_levels", &["same", "any"])?];
    let lost_huts = [LostHuts::Placed, LostHuts::NotPlaced][o.choice("lost_huts", &["placed", "not_placed"])?];
    let eliminated = [Eliminated::ByTurn, Eliminated::Zero][o.choice("eliminated", &["by_turn", "zero"])?];
    Ok(Variant { tiles_per_player, new_hut, expansion, eruption_levels, lost_huts, eliminated })
}

/// The variant as JSON (for logs).
pub fn to_json(v: &Variant) -> Value {
    json!({
        "tiles": v.tiles_per_player.map_or(json!("all"), |k| json!(k)),
        "new_hut": match v.new_hut { NewHut::Anywhere => "anywhere", NewHut::NotAdjacent => "not_adjacent" },
        "expansion": match v.expansion { Expansion::Adjacent => "adjacent", Expansion::Connected => "connected" },
        "eruption_levels": match v.eruption_levels { EruptionLevels::Same => "same", EruptionLevels::Any => "any" },
        "lost_huts": match v.lost_huts { LostHuts::Placed => "placed", LostHuts::NotPlaced => "not_placed" },
        "eliminated": match v.eliminated { Eliminated::ByTurn => "by_turn", Eliminated::Zero => "zero" },
    })
}

/// The options in normal form for `n` players: `tiles` = N per player with N x players = 48
/// is all the tiles, the same game as `"all"` (everything else is already one game per value).
pub fn normalize(mut options: Value, n: usize) -> Value {
    if options.get("tiles").and_then(Value::as_u64).is_some_and(|k| k as usize * n == N_TILES) {
        options["tiles"] = json!("all");
    }
    options
}
