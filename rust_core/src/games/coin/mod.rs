//! `coin`: a synthetic game whose seat win probabilities are variant options.
//!
//! It exists to calibrate the analysis and to exercise the game contract: the true seat win
//! rates are known exactly. Each player in turn order makes one (meaningless) choice among
//! `moves` actions (variant `simultaneous = true`: all players choose at once, in one
//! simultaneous decision); after the last choice the outcome is drawn from the deal stream
//! held in the state: with
//! probability `tie` every player ties for first, otherwise seat `s` wins with probability
//! `p[s]`. Scores: the losers draw 0..=9 each, the winner scores 1..=3 more than the best
//! loser; in a tie every player scores 10. Position 0 is always the start player.
//!
//! The rules as implemented, every variant option and what each player knows: `RULES.md`
//! in this folder.

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::game::{Decision, Evaluate, Game, MetricSpec, Record};
use crate::options::{Files, OptionSpec, Options};
use crate::rng::{self, Rng};
use serde_json::{json, Value};

pub const MAX_PLAYERS: usize = 6;
/// Tolerance on the sum of `p`.
const SUM_TOL: f64 = 1e-6;

/// A player's dummy choice: `0 .. moves` (with 2 moves, 0 = heads and 1 = tails).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action(pub u32);

/// Most actions a decision may offer (variant `moves`).
pub const MAX_MOVES: u32 = 100_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Win probability of each seat (sums to 1).
    pub p: Vec<f64>,
    /// Probability that all players tie for first.
    pub tie: f64,
    /// Actions per decision.
    pub moves: u32,
    /// All players choose at once.
    pub simultaneous: bool,
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
            name: "first",
            default: Value::Null,
            allowed: "number 0..=1, or null (use `p`); not together with `p`",
            description: "Win probability of the start player (seat 0) when the game is not a tie; the other seats share the rest equally (fair at 1/players).",
            path: false,
        },
        OptionSpec {
            name: "tie",
            default: json!(0.0),
            allowed: "number 0..=1",
            description: "Probability that every player ties for first (each gets a 1/n win share).",
            path: false,
        },
        OptionSpec {
            name: "moves",
            default: json!(2),
            allowed: "integer 1..=100000",
            description:
                "Legal actions per decision (all equivalent; large values exercise search on long move lists).",
            path: false,
        },
        OptionSpec {
            name: "simultaneous",
            default: json!(false),
            allowed: "true | false",
            description: "Players choose one after another (false) or all at once in one simultaneous decision (true).",
            path: false,
        },
    ]
}

fn parse(value: &Value, n: usize) -> Result<Variant> {
    let schema = schema();
    let o = Options::new("coin", value, &schema)?;
    let tie = o.float_in("tie", 0.0, 0.0, 1.0)?;
    let first = match o.raw("first") {
        Some(v) if o.raw("p").is_some() => return Err(o.bad("first", v)),
        Some(_) => Some(o.float_in("first", 0.0, 0.0, 1.0)?),
        None => None,
    };
    let p = match o.raw("p") {
        None => match first {
            Some(f) => std::iter::once(f).chain(std::iter::repeat_n((1.0 - f) / (n - 1) as f64, n - 1)).collect(),
            None => vec![1.0 / n as f64; n],
        },
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
    let moves = o.int_in("moves", 2, 1, MAX_MOVES as i64)? as u32;
    let simultaneous = o.boolean("simultaneous", false)?;
    Ok(Variant { p, tie, moves, simultaneous })
}

#[derive(Debug, Clone)]
pub struct Coin {
    v: Variant,
    n: usize,
    rng: Rng,
    /// Choices made so far (= completed turns); in turn order the player to act is `chosen`.
    chosen: usize,
    /// Simultaneous: the players whose choice is still pending (bit set).
    waiting: u32,
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
        self.push_log(json!({"event": "outcome", "tie": false, "winner_position": winner}));
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
    const DIRECT_IS_LEGAL: bool = true;

    fn variant_schema() -> Vec<OptionSpec> {
        schema()
    }
    fn parse_variant(value: &Value, n_players: usize, _files: &Files) -> Result<Variant> {
        parse(value, n_players)
    }
    fn new(variant: &Variant, n_players: usize, deal: Rng) -> Self {
        let waiting = if variant.simultaneous { (1 << n_players) - 1 } else { 0 };
        Coin { v: variant.clone(), n: n_players, rng: deal, chosen: 0, waiting, scores: vec![0; n_players], log: None }
    }
    fn n_players(&self) -> usize {
        self.n
    }
    fn decision(&self) -> Decision {
        if self.v.simultaneous {
            Decision::all(self.waiting)
        } else {
            Decision::one(self.chosen.min(self.n - 1))
        }
    }
    fn is_terminal(&self) -> bool {
        self.chosen >= self.n
    }
    fn action_kinds(&self, _player: usize) -> u32 {
        u32::from(!self.is_terminal())
    }
    fn legal_actions(&self, _player: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        if !self.is_terminal() && kind.unwrap_or(0) == 0 {
            out.extend((0..self.v.moves).map(Action));
        }
    }
    fn is_legal(&self, player: usize, action: &Action) -> bool {
        self.decision().acting >> player & 1 == 1 && action.0 < self.v.moves
    }
    fn apply(&mut self, player: usize, _action: Action) {
        debug_assert!(self.is_legal(player, &_action), "player {player} does not act now");
        self.chosen += 1;
        self.waiting &= !(1 << player);
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
    /// The hidden parts are the future chance stream (replaced) and, in a simultaneous
    /// decision, the other players' pending choices (forgotten: they choose again).
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self {
        let mut s = self.resample_chance(rng);
        if s.v.simultaneous && !s.is_terminal() {
            let others_done = ((1u32 << s.n) - 1) & !s.waiting & !(1 << observer);
            s.waiting |= others_done;
            s.chosen -= others_done.count_ones() as usize;
        }
        s
    }
    /// The coin's future flips (the chance stream) drawn afresh; pending choices stay.
    fn resample_chance(&self, rng: &mut Rng) -> Self {
        let mut s = self.clone();
        s.rng = rng::child(rng);
        s.log = None;
        s
    }
    fn observation(&self, observer: usize) -> Value {
        let mine_done = self.v.simultaneous && self.waiting >> observer & 1 == 0;
        let public = if self.v.simultaneous { usize::from(mine_done) } else { self.chosen };
        json!({"chosen": public, "over": self.is_terminal(), "scores": self.scores})
    }
}

/// Every action is worth the same: the outcome does not depend on the choices.
impl Evaluate for Coin {
    fn greedy_value(&self, _player: usize, _action: &Action) -> f64 {
        0.0
    }

    /// The player's seat's win probability (public: a variant option) and whether they
    /// start; nothing else about a position matters.
    const FEATURE_NAMES: &'static [&'static str] = &["seat_win_p", "start_player"];
    const EVAL_WEIGHTS: &'static str = include_str!("coin_eval_weights.txt");

    fn features(&self, player: usize, out: &mut [f32]) {
        out[0] = self.v.p[player] as f32;
        out[1] = f32::from(u8::from(player == 0));
    }
}

impl Record for Coin {
    fn metric_specs() -> &'static [MetricSpec] {
        &[]
    }
    fn metrics(&self, _player: usize, _out: &mut Vec<Option<i64>>) {}
    fn action_json(&self, _player: usize, action: &Action) -> Value {
        match (self.v.moves, action.0) {
            (2, 0) => json!("heads"),
            (2, _) => json!("tails"),
            (_, k) => json!(k),
        }
    }
    fn enable_log(&mut self) {
        self.log = Some(Vec::new());
    }
    fn take_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
