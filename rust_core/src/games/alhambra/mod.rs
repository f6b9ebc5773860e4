//! Alhambra (2–6 players, with the 2-player Dirk variant). The rules as implemented, with
//! every decision where the source leaves room and every variant switch: `RULES.md` in this
//! folder.

pub mod city;
pub mod data;
pub mod eval;
#[cfg(feature = "python")]
pub mod py;
pub mod record;
pub mod scoring;
pub mod state;
pub mod variant;

#[cfg(test)]
mod tests;

pub use state::{Action, Alhambra};
