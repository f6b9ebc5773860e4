//! Titania's variant options: the board file (the rules have no other switch).

use super::board::Board;
use crate::error::{Error, Result};
use crate::options::{Files, OptionSpec, Options};
use serde_json::Value;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub struct Variant {
    pub board: Arc<Board>,
    /// `"built-in"` or the path the board was read from.
    pub board_source: Arc<str>,
}

pub fn schema() -> Vec<OptionSpec> {
    vec![OptionSpec {
        name: "board",
        default: Value::Null,
        allowed: "null (the engine's built-in board) | path of a board file",
        description: "The board (spaces, fog tiles, score tiles): null for the built-in board \
            (rust_core/src/games/titania/titania_board.txt, the engine's own design, not the publisher's), or a file in that \
            format; it is checked when the variant is parsed.",
        path: true,
    }]
}

pub fn parse(value: &Value, _n_players: usize, files: &Files) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("titania", value, &schema)?;
    match o.file("board", files)? {
        None => Ok(Variant { board: Arc::new(Board::builtin()), board_source: Arc::from("built-in") }),
        Some((path, text)) => {
            let board = Board::parse(text).map_err(|message| Error::BadFile {
                option: "board".into(),
                path: path.clone(),
                message,
            })?;
            Ok(Variant { board: Arc::new(board), board_source: Arc::from(path.as_str()) })
        }
    }
}
