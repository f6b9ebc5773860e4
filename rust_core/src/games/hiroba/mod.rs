//! Hiroba (2–4 players): a competitive sudoku of gardens and kois.
//!
//! * [`tiles`]: the tile file format, its parser and checks; the built-in set
//!   `rust_core/src/games/hiroba/hiroba_tiles.txt` is the engine's own (the publisher's is not public).
//! * [`board`]: geometry (81 cells as `u128` bit boards) and the set-up.
//! * [`state`]: turns, legality, passing and the end of the game (see its doc comment for
//!   the engine's reading of passing), logs.
//! * [`scoring`]: kois, koi placement, gardens, totals; [`eval`]: the greedy evaluation.
//! * [`variant`]: `rotate_tiles` (default true), `line_rule` (`any` | `last`),
//!   `water_tiles` (`run` | `random`), `tiles` (null = built-in, or a file's content),
//!   `stones_on_start` (`after_first_pebbles` | `anytime`), `stone_turns` (`kept` |
//!   `last_turn`).
//! * [`record`]: output columns, action JSON, the event log.
//!
//! The rules as implemented, with every decision where the source leaves room: `RULES.md`
//! in this folder. Position 0 is the start player (the batch runner rotates agents across
//! positions), so `seat(p) = p`. The tie-break (most gardens won outright, then a shared
//! win) is `Game::tiebreaks` and the `gardens_won` column.

pub mod board;
pub mod eval;
pub mod record;
pub mod scoring;
pub mod state;
pub mod tiles;
pub mod variant;

#[cfg(test)]
mod tests;

pub use state::{Action, Hiroba};
