//! `coin`: a synthetic game whose seat win probabilities are variant options.
//!
//! It exists to calibrate the analysis: the true seat win rates are known exactly. Each
//! player in turn order makes one (meaningless) choice through the [`Game`] trait; after the
//! last choice the outcome is drawn from the deal stream held in the state: with
//! probability `tie` every player ties for first, otherwise seat `s` wins with probability
//! `p[s]`. Scores: the losers draw 0..=9 each, the winner scores 1..=3 more than the best
//! loser; in a tie every player scores 10. Position 0 is always the start player.

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::game::{Game, MetricSpec};
use crate::options::{OptionSpec, Options};
use crate::rng::{self, Rng};
use serde_json::{json, Value};

pub const MAX_PLAYERS: usize = 6;
/// Tolerance on the sum of `p`.
const SUM_TOL: f64 = 1e-6;

/// A player's dummy choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Heads,
    Tails,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Win probability of each seat (sums to 1).
    pub p: Vec<f64>,
    /// Probability that all players tie for first.
    pub tie: f64,
}

fn schema() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "p",
            default: Value::Null,
            allowed: "list of one probability per player (seat 0 first), each 0..=1, summing to 1; null = uniform",
            description: "Win probability of each seat when the game is not a tie.",
            path: false,
        },
        OptionSpec {
            name: "tie",
            default: json!(0.0),
            allowed: "number 0..=1",
            description: "Probability that every player ties for first (each gets a 1/n win share).",
            path: false,
        },
    ]
}

fn parse(value: &Value, n: usize) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("coin", value, &schema)?;
    let tie = o.float_in("tie", 0.0, 0.0, 1.0)?;
    let p = match o.raw("p") {
        None => vec![1.0 / n as f64; n],
        Some(v) => {
            let items = v.as_array().filter(|a| a.len() == n).ok_or_else(|| o.bad("p", v))?;
            let p: Vec<f64> = items
                .iter()
                .map(|x| x.as_f64().filter(|f| (0.0..=1.0).contains(f)))
                .collect::<Option<Vec<f64>>>()
                .ok_or_else(|| o.bad("p", v))?;
            let sum: f64 = p.iter().sum();
            if (sum - 1.0).abs() > SUM_TOL {
                return Err(Error::BadValue {
                    option: "p".into(),
                    value: format!("{v} (sums to {sum})"),
                    allowed: "probabilities summing to 1".into(),
                });
            }
            p
        }
    };
    Ok(Variant { p, tie })
}

#[derive(Debug, Clone)]
pub struct Coin {
    v: Variant,
    n: usize,
    rng: Rng,
    /// Choices made so far (= completed turns); the player to act is `chosen`.
    chosen: usize,
    scores: Vec<i64>,
    log: Option<Vec<Value>>,
}

impl Coin {
    /// Draws the outcome from the state's stream once every player has chosen.
    fn resolve(&mut self) {
        let u: f64 = rand::Rng::random(&mut self.rng);
        if u < self.v.tie {
            self.scores = vec![10; self.n];
            self.push_log(json!({"event": "outcome", "tie": true}));
            return;
        }
        let x: f64 = rand::Rng::random(&mut self.rng);
        let mut winner = self.n - 1;
        let mut acc = 0.0;
        for (s, p) in self.v.p.iter().enumerate() {
            acc += p;
            if x < acc {
                winner = s;
                break;
            }
        }
        // Rounding can leave x >= sum: give it to the last seat with positive probability.
        if x >= acc {
            winner = self.v.p.iter().rposition(|p| *p > 0.0).unwrap_or(self.n - 1);
        }
        let mut scores: Vec<i64> = (0..self.n).map(|_| rng::below(&mut self.rng, 10) as i64).collect();
        let best_loser = (0..self.n).filter(|&s| s != winner).map(|s| scores[s]).max().unwrap_or(0);
        scores[winner] = best_loser + 1 + rng::below(&mut self.rng, 3) as i64;
        self.scores = scores;
        self.push_log(json!({"event": "outcome", "tie": false, "winner_seat": winner}));
    }

    fn push_log(&mut self, event: Value) {
        if let Some(log) = self.log.as_mut() {
            log.push(event);
        }
    }
}

impl Game for Coin {
    type Action = Action;
    type Variant = Variant;

    const NAME: &'static str = "coin";
    const RULES_VERSION: u32 = 1;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = MAX_PLAYERS;

    fn variant_schema() -> Vec<OptionSpec> {
        schema()
    }
    fn parse_variant(value: &Value, n_players: usize) -> Result<Variant> {
        parse(value, n_players)
    }
    fn metric_specs() -> &'static [MetricSpec] {
        &[]
    }
    fn new(variant: &Variant, n_players: usize, deal: Rng) -> Self {
        Coin { v: variant.clone(), n: n_players, rng: deal, chosen: 0, scores: vec![0; n_players], log: None }
    }
    fn n_players(&self) -> usize {
        self.n
    }
    fn current_player(&self) -> usize {
        self.chosen.min(self.n - 1)
    }
    fn is_terminal(&self) -> bool {
        self.chosen >= self.n
    }
    fn action_kinds(&self) -> u32 {
        u32::from(!self.is_terminal())
    }
    fn legal_actions(&self, kind: Option<u32>, out: &mut Vec<Action>) {
        if !self.is_terminal() && kind.unwrap_or(0) == 0 {
            out.extend([Action::Heads, Action::Tails]);
        }
    }
    fn apply(&mut self, _action: Action) {
        debug_assert!(!self.is_terminal());
        self.chosen += 1;
        if self.is_terminal() {
            self.resolve();
        }
    }
    fn scores(&self) -> Vec<i64> {
        self.scores.clone()
    }
    fn seat(&self, player: usize) -> usize {
        player
    }
    fn turns(&self) -> u32 {
        self.chosen as u32
    }
    fn metrics(&self, _player: usize, _out: &mut Vec<Option<i64>>) {}
    fn determinize(&self, _observer: usize, rng: &mut Rng) -> Self {
        // The only hidden part is the future chance stream: replace it.
        let mut s = self.clone();
        s.rng = rng::child(rng);
        s.log = None;
        s
    }
    /// The outcome does not depend on the call: every action is worth the same.
    fn greedy_value(&self, _action: &Action) -> f64 {
        0.0
    }
    fn action_json(&self, action: &Action) -> Value {
        json!(match action {
            Action::Heads => "heads",
            Action::Tails => "tails",
        })
    }
    fn enable_log(&mut self) {
        self.log = Some(Vec::new());
    }
    fn take_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
