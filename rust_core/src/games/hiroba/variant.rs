//! Hiroba's variant options (every *(variant)* switch of the rules reference).

use super::board::{try_deal, Deal, FEASIBILITY_TRIES};
use super::tiles::TileSet;
use crate::error::{Error, Result};
use crate::options::{OptionSpec, Options};
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
            description: "The 12 terrain tiles: null for the built-in set (rust_core/data/hiroba_tiles.txt, the engine's own, not the publisher's), or a file in that format; it is checked when the variant is parsed.",
            path: true,
        },
    ]
}

pub fn parse(value: &Value, n_players: usize) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("hiroba", value, &schema)?;
    let rotate_tiles = o.boolean("rotate_tiles", true)?;
    let line_rule = [LineRule::Any, LineRule::Last][o.choice("line_rule", &["any", "last"])?];
    let water = [WaterRule::Run, WaterRule::Random][o.choice("water_tiles", &["run", "random"])?];
    let (tiles, tiles_source) = match o.raw("tiles") {
        None => (TileSet::builtin(), "built-in".to_string()),
        Some(Value::String(path)) => (load_tiles(path)?, path.clone()),
        Some(v) => return Err(o.bad("tiles", v)),
    };
    let v = Variant { rotate_tiles, line_rule, water, tiles, tiles_source };
    check_feasible(&v, n_players)?;
    Ok(v)
}

/// Reads and validates a tile file; errors name the option, the file, and the broken rule.
pub fn load_tiles(path: &str) -> Result<TileSet> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Invalid(format!("variant option \"tiles\": cannot read tile file {path:?}: {e}")))?;
    TileSet::parse(&text).map_err(|m| Error::Invalid(format!("variant option \"tiles\": tile file {path:?}: {m}")))
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
