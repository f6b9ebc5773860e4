//! balancelab's core: game engines, agents and the batch runner.
//!
//! Layout: [`game`] holds the traits every engine implements; each game lives in its
//! own folder under [`games`]; [`agents`] are generic over the traits; [`batch`] plays
//! many games and builds columns; [`registry`] maps names to engines. The PyO3 bindings
//! in `py` (feature `python`) are the only code that knows about Python.

pub mod agents;
pub mod batch;
#[cfg(test)]
pub mod conformance;
pub mod error;
pub mod game;
pub mod games;
pub mod handicap;
pub mod luck;
pub mod options;
pub mod registry;
pub mod rng;

#[cfg(feature = "python")]
mod py;
