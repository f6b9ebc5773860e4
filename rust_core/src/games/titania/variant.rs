//! Titania's variant options: the board file and the readings where the sources differ.

use super::board::Board;
use crate::error::{Error, Result};
use crate::options::{Files, OptionSpec, Options};
use serde_json::{json, Value};
use std::sync::Arc;

/// How shells count as pieces in the tie-break (starfish plus shell pieces left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiebreak {
    /// As few pieces as possible with at most the 10 large shells of a colour the box holds
    /// (the components; the default).
    Components,
    /// One large shell per 2 of value with no cap (the engine before rules version 2).
    Uncapped,
}

/// How many cards a player draws on stopping ("play + draw = 3").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draw {
    /// Any number from 0 up to 3 − cards played (the reference: drawing is optional).
    UpTo,
    /// Exactly 3 − cards played (as far as the hand limit and the cards allow), or none.
    AllOrNone,
}

/// Who starts the second epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Epoch2Start {
    /// The player after the one who ended the first epoch (play goes on clockwise).
    Next,
    /// The start player (position 0), as at the set-up.
    StartPlayer,
}

/// The rule switches (everything but the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub tiebreak: Tiebreak,
    pub draw: Draw,
    pub epoch_2_start: Epoch2Start,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { tiebreak: Tiebreak::Components, draw: Draw::UpTo, epoch_2_start: Epoch2Start::Next }
    }
}

impl Rules {
    pub fn to_json(&self) -> Value {
        json!({
            "tiebreak": match self.tiebreak { Tiebreak::Components => "components", Tiebreak::Uncapped => "uncapped" },
            "draw": match self.draw { Draw::UpTo => "up_to", Draw::AllOrNone => "all_or_none" },
            "epoch_2_start": match self.epoch_2_start {
                Epoch2Start::Next => "next",
                Epoch2Start::StartPlayer => "start_player",
            },
        })
    }
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub board: Arc<Board>,
    /// `"built-in"` or the path the board was read from.
    pub board_source: Arc<str>,
    pub rules: Rules,
}

pub fn schema() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "board",
            default: Value::Null,
            allowed: "null (the engine's built-in board) | path of a board file",
            description: "The board (spaces, fog tiles, score tiles): null for the built-in board \
                (rust_core/src/games/titania/titania_board.txt, the engine's own design, not the publisher's), or a file in that \
                format; it is checked when the variant is parsed.",
            path: true,
        },
        OptionSpec {
            name: "tiebreak",
            default: json!("components"),
            allowed: "\"components\" | \"uncapped\"",
            description: "Shell pieces in the tie-break (starfish plus shells left): as few pieces as possible \
                with at most the 10 large shells per colour the box holds (components), or one large shell per 2 \
                of value with no cap (uncapped: 30 brown count 15 pieces instead of 20).",
            path: false,
        },
        OptionSpec {
            name: "draw",
            default: json!("up_to"),
            allowed: "\"up_to\" | \"all_or_none\"",
            description: "\"Play + draw = 3\": on stopping a player draws any number up to 3 minus the cards \
                played (up_to, the reference: drawing is optional), or exactly that many, or none (all_or_none); \
                never above a hand of 7 either way.",
            path: false,
        },
        OptionSpec {
            name: "epoch_2_start",
            default: json!("next"),
            allowed: "\"next\" | \"start_player\"",
            description: "Who starts the second epoch: the player after the one who ended the first (next, \
                play goes on clockwise) or the start player again, as at the set-up (start_player).",
            path: false,
        },
    ]
}

pub fn parse(value: &Value, _n_players: usize, files: &Files) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("titania", value, &schema)?;
    let rules = Rules {
        tiebreak: [Tiebreak::Components, Tiebreak::Uncapped][o.choice("tiebreak", &["components", "uncapped"])?],
        draw: [Draw::UpTo, Draw::AllOrNone][o.choice("draw", &["up_to", "all_or_none"])?],
        epoch_2_start: [Epoch2Start::Next, Epoch2Start::StartPlayer]
            [o.choice("epoch_2_start", &["next", "start_player"])?],
    };
    match o.file("board", files)? {
        None => Ok(Variant { board: Arc::new(Board::builtin()), board_source: Arc::from("built-in"), rules }),
        Some((path, text)) => {
            let board = Board::parse(text).map_err(|message| Error::BadFile {
                option: "board".into(),
                path: path.clone(),
                message,
            })?;
            Ok(Variant { board: Arc::new(board), board_source: Arc::from(path.as_str()), rules })
        }
    }
}
