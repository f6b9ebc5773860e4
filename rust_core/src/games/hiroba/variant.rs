//! Hiroba's variant options (every variant switch of `RULES.md`).

use super::board::{try_deal, Deal, FEASIBILITY_TRIES};
use super::tiles::TileSet;
use crate::error::{Error, Result};
use crate::options::{Files, OptionSpec, Options};
use crate::rng::deal_rng;
use serde_json::{json, Value};

/// Which of your pebbles a new pebble must share a row or column with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRule {
    /// Any pebble of yours already placed.
    Any,
    /// Your most recently placed pebble.
    Last,
}

/// Which outer tiles are turned water side up with 2 or 3 players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaterRule {
    /// A run of consecutive tiles around the ring of 8 outer tiles, from a random first tile.
    Run,
    /// That many outer tiles drawn at random, not necessarily adjacent.
    Random,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub rotate_tiles: bool,
    pub line_rule: LineRule,
    pub water: WaterRule,
    pub tiles: TileSet,
    /// `"built-in"` or the path the tiles were read from.
    pub tiles_source: String,
    /// `stones_on_start = anytime`: no guard on start cells for stones.
    pub stones_anywhere: bool,
    /// `stone_turns = last_turn`: a player out of the pebble play has no more turns.
    pub no_stone_turns: bool,
}

pub fn schema() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "rotate_tiles",
            default: json!(true),
            allowed: "true | false",
            description: "Set-up: each tile is turned by a random multiple of 90 degrees (true) or laid as printed in the tile file (false).",
            path: false,
        },
        OptionSpec {
            name: "line_rule",
            default: json!("any"),
            allowed: "\"any\" | \"last\"",
            description: "After the first pebble, a pebble must share a row or column with any of your pebbles (any) or with your most recent pebble (last).",
            path: false,
        },
        OptionSpec {
            name: "water_tiles",
            default: json!("run"),
            allowed: "\"run\" | \"random\"",
            description: "With 2 players 4 and with 3 players 2 outer tiles are water (never the centre): a run of consecutive tiles around the ring of 8 outer tiles starting at a random tile (run), or that many outer tiles drawn at random, not necessarily adjacent (random).",
            path: false,
        },
        OptionSpec {
            name: "tiles",
            default: Value::Null,
            allowed: "null (the engine's built-in set) | path of a tile file",
            description: "The 12 terrain tiles: null for the built-in set (rust_core/src/games/hiroba/hiroba_tiles.txt, the engine's own, not the publisher's), or a file in that format; it is checked when the variant is parsed.",
            path: true,
        },
        OptionSpec {
            name: "stones_on_start",
            default: json!("after_first_pebbles"),
            allowed: "\"after_first_pebbles\" | \"anytime\"",
            description: "Stones may go on start cells only once every player still in the pebble play has placed a first pebble (after_first_pebbles, the engine's guard so a stone cannot take a player's only start cell), or at any time (anytime, the seed's letter: stones anywhere).",
            path: false,
        },
        OptionSpec {
            name: "stone_turns",
            default: json!("kept"),
            allowed: "\"kept\" | \"last_turn\"",
            description: "A player out of the pebble play (passed, or all 9 pebbles placed) keeps their turns to place stones (kept, the engine's reading) or has no more turns: the stone of their pass turn (or last pebble's turn) is their last (last_turn).",
            path: false,
        },
    ]
}

pub fn parse(value: &Value, n_players: usize, files: &Files) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("hiroba", value, &schema)?;
    let rotate_tiles = o.boolean("rotate_tiles", true)?;
    let line_rule = [LineRule::Any, LineRule::Last][o.choice("line_rule", &["any", "last"])?];
    let water = [WaterRule::Run, WaterRule::Random][o.choice("water_tiles", &["run", "random"])?];
    let stones_anywhere = o.choice("stones_on_start", &["after_first_pebbles", "anytime"])? == 1;
    let no_stone_turns = o.choice("stone_turns", &["kept", "last_turn"])? == 1;
    let (tiles, tiles_source) = match o.file("tiles", files)? {
        None => (TileSet::builtin(), "built-in".to_string()),
        Some((path, text)) => (parse_tiles(&path, text)?, path),
    };
    let v = Variant { rotate_tiles, line_rule, water, tiles, tiles_source, stones_anywhere, no_stone_turns };
    check_feasible(&v, n_players)?;
    Ok(v)
}

/// Validates the text of a tile file; errors name the option, the file, and the broken rule.
pub fn parse_tiles(path: &str, text: &str) -> Result<TileSet> {
    TileSet::parse(text).map_err(|message| Error::BadFile { option: "tiles".into(), path: path.into(), message })
}

/// Whether the set-up can succeed for `n_players` with these tiles: some of
/// [`FEASIBILITY_TRIES`] seeded random set-ups must be valid (a start cell for every
/// player on land, no start cell next to a pond), or the set-up would never end.
pub fn check_feasible(v: &Variant, n_players: usize) -> Result<()> {
    let deal = Deal { rotate_tiles: v.rotate_tiles, water: v.water, n_players };
    let mut rng = deal_rng(0x6869_726f_6261, n_players as u64);
    if (0..FEASIBILITY_TRIES).any(|_| try_deal(&v.tiles, deal, &mut rng).is_some()) {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "variant option \"tiles\": tile set {:?} gives no valid set-up for {n_players} players in {FEASIBILITY_TRIES} \
         random tries: too few start cells, or start cells next to ponds of neighbouring tiles",
        v.tiles_source
    )))
}
