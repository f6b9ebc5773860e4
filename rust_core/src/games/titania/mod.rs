//! Titania (2–4 players): ships, shells and towers. The rules as implemented, with every
//! decision where the source leaves room and every variant switch, are in `RULES.md` in
//! this folder.
//!
//! * [`board`]: the board file format, its parser and checks; the built-in board
//!   `rust_core/src/games/titania/titania_board.txt` is the engine's own design (the printed board is
//!   not public).
//! * [`state`]: set-up, turns, rewards, towers, epochs, scoring, logs.
//! * [`hidden`]: what each player knows; determinized states.
//! * [`eval`]: the greedy evaluation and the win estimate; [`record`]: output columns and
//!   logs; [`variant`]: the `board` option.

pub mod board;
pub mod eval;
pub mod hidden;
pub mod record;
pub mod state;
pub mod variant;

#[cfg(test)]
mod tests;

pub use state::{Action, Titania};
