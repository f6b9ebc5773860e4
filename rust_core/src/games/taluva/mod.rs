//! Taluva (2–4 players): volcano tiles build an island of stacked hexes; players settle it
//! with huts, temples and towers. Rules as implemented, with every decision where the
//! source leaves room and every variant switch: `RULES.md` in this folder.
//!
//! * [`tiles`]: terrains and the 48 tiles; [`hex`]: geometry and the map (fixed arrays,
//!   with the proof of their bound); [`state`]: the state, turn, settlements, end and
//!   ranking, logs; [`moves`]: move generation and direct legality tests; [`variant`]:
//!   `tiles`, `new_hut`, `expansion`.
//!
//! Position 0 is the start player (the batch runner rotates agents across positions), so
//! `seat(p) = p`.

pub mod eval;
pub mod hex;
#[cfg(test)]
pub mod invariants;
pub mod moves;
pub mod record;
pub mod state;
pub mod tiles;
pub mod variant;

#[cfg(test)]
mod tests;

pub use state::{Action, Taluva};
