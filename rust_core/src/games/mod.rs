//! One folder per game engine.

pub mod alhambra;
pub mod coin;
pub mod hiroba;
pub mod maharaja;
pub mod taluva;
pub mod titania;
