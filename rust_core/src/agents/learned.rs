//! The learned evaluation of a game: a logistic model of a player's win share on the
//! game's [`Evaluate::features`], read from the game's weights file
//! ([`Evaluate::EVAL_WEIGHTS`], `games/<game>/<game>_eval_weights.txt`, compiled in) and evaluated
//! without allocation (one dot product per player).
//!
//! The file is written by `bench/train_eval.py` (data, fit, file). Its format, one item per
//! line (`#` starts a comment line):
//!
//! ```text
//! format 1
//! game alhambra
//! model logistic
//! fitted <free text: rules version, positions, agents>
//! intercept -0.01
//! score_lead 0.31          (one line per feature, in the order of FEATURE_NAMES)
//! ```
//!
//! The coefficients apply to the raw features (any standardisation is folded in). The value
//! of a position for player `p` is `sigmoid(intercept + coef · features(p))`, fitted on
//! positions recorded at `p`'s own decisions; see [`Learned::win_shares`] for all players.

use crate::error::{Error, Result};
use crate::game::Evaluate;

/// Most features a game may define.
pub const MAX_FEATURES: usize = 64;
const FORMAT: &str = "1";

/// A parsed, validated learned evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Learned {
    intercept: f32,
    coef: [f32; MAX_FEATURES],
    n: usize,
}

fn invalid(game: &str, why: String) -> Error {
    Error::Invalid(format!("learned evaluation of {game} ({game}_eval_weights.txt): {why}"))
}

impl Learned {
    /// The learned evaluation of game `G` from its compiled-in weights file.
    pub fn of<G: Evaluate>() -> Result<Self> {
        Self::parse::<G>(G::EVAL_WEIGHTS)
    }

    /// Parses weights `text` for game `G`: the right format, game and model, one finite
    /// coefficient per feature of `G` in the order of [`Evaluate::FEATURE_NAMES`].
    pub fn parse<G: Evaluate>(text: &str) -> Result<Self> {
        let names = G::FEATURE_NAMES;
        if names.is_empty() || text.trim().is_empty() {
            return Err(invalid(G::NAME, "the game has no learned evaluation".into()));
        }
        if names.len() > MAX_FEATURES {
            return Err(invalid(G::NAME, format!("{} features, at most {MAX_FEATURES}", names.len())));
        }
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
        let mut header = |key: &str| -> Result<String> {
            match lines.next().and_then(|l| l.split_once(' ')) {
                Some((k, v)) if k == key => Ok(v.trim().to_string()),
                other => Err(invalid(G::NAME, format!("expected a `{key}` line, found {other:?}"))),
            }
        };
        for (key, want) in [("format", FORMAT), ("game", G::NAME), ("model", "logistic")] {
            let got = header(key)?;
            if got != want {
                return Err(invalid(G::NAME, format!("{key} {got:?}, expected {want:?}")));
            }
        }
        header("fitted")?;
        let number = |key: &str, v: &str| -> Result<f32> {
            v.parse::<f32>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| invalid(G::NAME, format!("{key}: {v:?} is not a finite number")))
        };
        let intercept = number("intercept", &header("intercept")?)?;
        let mut coef = [0.0; MAX_FEATURES];
        for (i, name) in names.iter().enumerate() {
            let v = header(name)?;
            coef[i] = number(name, &v)?;
        }
        if let Some(extra) = lines.next() {
            return Err(invalid(G::NAME, format!("unexpected line after the last feature: {extra:?}")));
        }
        Ok(Learned { intercept, coef, n: names.len() })
    }

    /// Estimated win chance of `player` in `state` (in (0, 1)).
    pub fn value<G: Evaluate>(&self, state: &G, player: usize) -> f64 {
        let mut x = [0.0f32; MAX_FEATURES];
        state.features(player, &mut x[..self.n]);
        let z: f32 = self.intercept + x[..self.n].iter().zip(&self.coef[..self.n]).map(|(a, b)| a * b).sum::<f32>();
        1.0 / (1.0 + (-z as f64).exp())
    }

    /// Estimated win shares of every player of `state` (summing to 1), into `out`. Positions
    /// are recorded at the player's own decisions, so the model predicts the win chance of the
    /// player to act: the acting player (the lowest of a simultaneous decision) gets its value
    /// `v`, the others share `1 - v` in proportion to their own values.
    pub fn win_shares<G: Evaluate>(&self, state: &G, out: &mut Vec<f64>) {
        let n = state.n_players();
        let acting = state.decision().first();
        out.clear();
        out.extend((0..n).map(|p| self.value(state, p)));
        let v = out[acting];
        let others: f64 = out.iter().enumerate().filter(|&(p, _)| p != acting).map(|(_, x)| x).sum();
        for (p, x) in out.iter_mut().enumerate() {
            *x = if p == acting { v } else { (1.0 - v) * *x / others };
        }
    }
}

/// The `fitted` line of weights `text` (what the evaluation was fitted on); empty if it has none.
pub fn fitted(text: &str) -> &str {
    text.lines().find_map(|l| l.trim().strip_prefix("fitted ")).unwrap_or("").trim()
}

/// FNV-1a (32 bits) of `text`: the content hash of a weights file.
pub fn content_hash(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}
