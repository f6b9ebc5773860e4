//! Maharaja: The Palace Building Game (Phalanx 2004), 2–5 players. The rules as
//! implemented, every decision where the sources leave room and every variant switch are in
//! `RULES.md` beside this file.
//!
//! * [`map`]: the map file format, its parser and checks; the built-in map
//!   `rust_core/src/games/maharaja/maharaja_map.txt` is the engine's own (the printed map is not public).
//! * [`state`]: the state, the set-up, rounds, scoring and the end; [`rules`]: legal
//!   actions, turn steps, travel with tolls, and `impl Game` (with `determinize`: other
//!   players' pending or unshown wheels, and with `gold = hidden` how the others' gold is
//!   split, are hidden); [`eval`]: the greedy evaluation and
//!   `impl Evaluate`; [`record`]: metric columns, action JSON, the log (`impl Record`).
//! * [`variant`]: `short`, `one_palace_per_city`, `advanced_1`, `advanced_2`, `reveal`,
//!   the readings `route`, `gold`, `powers`, `repick`, and `map`.
//!
//! Position 0 is the youngest player (first to take a character); `seat(p)` is the
//! player's turn-order position at the start of the first round (by character), so seat 0
//! is whoever holds the lowest character then.

pub mod eval;
pub mod map;
pub mod record;
pub mod rules;
pub mod state;
pub mod variant;

#[cfg(test)]
mod tests;

pub use state::{Action, Maharaja, Op, Source};
