//! The per-seat score handicap: a rule every game accepts through the contract.
//!
//! A variant may carry the option `handicap`: one integer per player, in turn order (the
//! start player first), added to each player's final score before ranking. It is not a
//! game's own option (no game folder knows it): [`split`] takes it off the variant before
//! the game parses the rest, the batch runner adds it at scoring
//! ([`crate::game::Handicap::outcome`]), and agents see it through their
//! [`crate::game::View`] so that search values handicapped outcomes. A zero handicap (absent,
//! null or all zeros) changes nothing. This module is the option (its schema, parsing and
//! normal form); the value, [`Handicap`], is part of the game contract in [`crate::game`].

use crate::error::{Error, Result};
use crate::game::{Handicap, MAX_SEATS};
use crate::options::OptionSpec;
use serde_json::{json, Value};

/// The option's name in a variant object.
pub const NAME: &str = "handicap";
/// Largest handicap magnitude (points) a seat may get.
pub const MAX_POINTS: i64 = 1000;
const ALLOWED: &str = "list of one integer per player (turn order, start player first), each -1000..=1000; null = none";

/// The option's description, as the games' schemas give theirs.
pub fn option_spec() -> OptionSpec {
    OptionSpec {
        name: NAME,
        default: Value::Null,
        allowed: ALLOWED,
        description: "Points added to the final score of each turn-order seat before ranking (any game).",
        path: false,
    }
}

fn bad(value: &Value) -> Error {
    Error::BadValue { option: NAME.into(), value: value.to_string(), allowed: ALLOWED.into() }
}

/// The variant without `handicap`, and the handicap for `n_players` (zero when absent or null).
pub fn split(variant: &Value, n_players: usize) -> Result<(Value, Handicap)> {
    let Some(raw) = variant.as_object().and_then(|m| m.get(NAME)) else {
        return Ok((variant.clone(), Handicap::default()));
    };
    let mut rest = variant.clone();
    rest.as_object_mut().expect("an object").remove(NAME);
    if raw.is_null() {
        return Ok((rest, Handicap::default()));
    }
    let items = raw.as_array().filter(|a| a.len() == n_players && n_players <= MAX_SEATS).ok_or_else(|| bad(raw))?;
    let points = items
        .iter()
        .map(|x| x.as_i64().filter(|p| p.abs() <= MAX_POINTS))
        .collect::<Option<Vec<i64>>>()
        .ok_or_else(|| bad(raw))?;
    Ok((rest, Handicap::from_points(&points)))
}

/// `options` with the handicap put back as given, when it is not zero (a zero handicap is
/// the same game as none, so the normal form leaves it out).
pub fn restore(mut options: Value, handicap: &Handicap, n_players: usize) -> Value {
    if !handicap.is_zero() {
        if let Some(m) = options.as_object_mut() {
            m.insert(NAME.into(), json!((0..n_players).map(|s| handicap.points(s)).collect::<Vec<_>>()));
        }
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, NO_HANDICAP};

    #[test]
    fn split_takes_the_option_off() {
        let (rest, h) = split(&json!({"dirk": false, "handicap": [0, 3]}), 2).unwrap();
        assert_eq!(rest, json!({"dirk": false}));
        assert_eq!((h.points(0), h.points(1)), (0, 3));
        let (rest, h) = split(&json!({"dirk": false}), 2).unwrap();
        assert_eq!(rest, json!({"dirk": false}));
        assert!(h.is_zero());
        assert!(split(&json!({"handicap": null}), 3).unwrap().1.is_zero());
    }

    #[test]
    fn split_refuses_bad_values() {
        for bad in [json!([0, 1, 2]), json!([0, 1.5]), json!("2"), json!([0, 5000])] {
            let err = split(&json!({ "handicap": bad }), 2).unwrap_err().to_string();
            assert!(err.contains("handicap"), "{err}");
        }
    }

    #[test]
    fn restore_keeps_only_a_real_handicap() {
        let h = Handicap::from_points(&[0, 2]);
        assert_eq!(restore(json!({"a": 1}), &h, 2), json!({"a": 1, "handicap": [0, 2]}));
        assert_eq!(restore(json!({"a": 1}), &Handicap::default(), 2), json!({"a": 1}));
    }

    fn coin(variant: Value, agent: &str) -> crate::batch::Columns {
        let spec = crate::batch::BatchSpec::new(&variant, &Default::default(), &[agent.into(), agent.into()], 7, true);
        crate::batch::simulate::<crate::games::coin::Coin>(&spec, 0, 60).unwrap()
    }

    /// Seat 0 always wins by 1 to 3 points: a handicap of 2 to seat 1 turns a 1-point win into
    /// a loss and a 2-point win into a shared tie (coin has no tie-break).
    #[test]
    fn handicap_changes_winners_as_the_scores_say() {
        let base = coin(json!({"p": [1.0, 0.0]}), "random");
        let h = coin(json!({"p": [1.0, 0.0], "handicap": [0, 2]}), "random");
        assert_eq!(base.game_index, h.game_index);
        let mut seen = [0; 3];
        for i in 0..base.score.len() {
            let s = base.seat[i] as usize;
            assert_eq!(h.score[i], base.score[i] + 2 * s as i64, "score plus the seat's points");
            assert_eq!((base.handicap[i], h.handicap[i]), (0, 2 * s as i64), "the seat's points as data");
            if s == 0 {
                let other = i ^ 1; // two rows per game
                let margin = base.score[i] - base.score[other];
                let expected = match margin {
                    1 => 0.0,
                    2 => 0.5,
                    _ => 1.0,
                };
                assert_eq!(base.win[i], 1.0);
                assert_eq!(h.win[i], expected, "margin {margin}");
                assert_eq!(h.win[other], 1.0 - expected);
                seen[(margin - 1) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|n| *n > 0), "every margin occurs: {seen:?}");
    }

    #[test]
    fn zero_handicap_reproduces_the_rows() {
        for agent in ["random", "mcts:iters=20"] {
            let base = coin(json!({"p": [0.6, 0.4]}), agent);
            assert_eq!(coin(json!({"p": [0.6, 0.4], "handicap": [0, 0]}), agent), base);
            assert_eq!(coin(json!({"p": [0.6, 0.4], "handicap": null}), agent), base);
        }
    }

    /// One decision of player 0: `SAFE` wins 1–0 for sure; `RISKY` wins 5–0 or loses 0–1 at
    /// even odds. Unhandicapped, safe is worth a win; with 2 points to player 1 it always loses
    /// (1 against 2) and risky wins half the time (5 against 2): search must see the handicap.
    #[derive(Debug, Clone)]
    struct Gamble {
        scores: Option<Vec<i64>>,
        rng: crate::rng::Rng,
    }

    const SAFE: u8 = 0;

    impl Game for Gamble {
        type Action = u8;
        type Variant = ();
        const NAME: &'static str = "gamble";
        const RULES_VERSION: u32 = 1;
        const MIN_PLAYERS: usize = 2;
        const MAX_PLAYERS: usize = 2;
        fn variant_schema() -> Vec<OptionSpec> {
            Vec::new()
        }
        fn parse_variant(_: &Value, _: usize, _: &crate::options::Files) -> Result<()> {
            Ok(())
        }
        fn new(_: &(), _: usize, deal: crate::rng::Rng) -> Self {
            Gamble { scores: None, rng: deal }
        }
        fn n_players(&self) -> usize {
            2
        }
        fn decision(&self) -> crate::game::Decision {
            crate::game::Decision::one(0)
        }
        fn is_terminal(&self) -> bool {
            self.scores.is_some()
        }
        fn action_kinds(&self, _: usize) -> u32 {
            1
        }
        fn legal_actions(&self, _: usize, _: Option<u32>, out: &mut Vec<u8>) {
            out.extend([SAFE, 1]);
        }
        fn apply(&mut self, _: usize, a: u8) {
            let lucky = crate::rng::below(&mut self.rng, 2) == 0;
            self.scores = Some(match (a, lucky) {
                (SAFE, _) => vec![1, 0],
                (_, true) => vec![5, 0],
                (_, false) => vec![0, 1],
            });
        }
        fn scores(&self) -> Vec<i64> {
            self.scores.clone().unwrap_or(vec![0, 0])
        }
        fn seat(&self, p: usize) -> usize {
            p
        }
        fn turns(&self) -> u32 {
            0
        }
        fn determinize(&self, _: usize, rng: &mut crate::rng::Rng) -> Self {
            self.resample_chance(rng)
        }
        fn resample_chance(&self, rng: &mut crate::rng::Rng) -> Self {
            Gamble { scores: self.scores.clone(), rng: crate::rng::child(rng) }
        }
        fn observation(&self, _: usize) -> Value {
            json!(self.scores)
        }
    }

    impl crate::game::Evaluate for Gamble {
        fn greedy_value(&self, _: usize, _: &u8) -> f64 {
            0.0
        }
    }

    #[test]
    fn search_values_handicapped_outcomes() {
        let pick = |spec: &str, h: &Handicap| {
            let g = Gamble::new(&(), 2, crate::rng::deal_rng(1, 1));
            let mut a = crate::agents::AgentSpec::parse(spec).unwrap().build::<Gamble>().unwrap();
            a.choose(&crate::game::View::with_handicap(&g, 0, h), &mut crate::rng::agent_rng(1, 1, 0))
        };
        for spec in ["mcts:iters=200", "mcts1:iters=200"] {
            assert_eq!(pick(spec, &NO_HANDICAP), SAFE, "{spec} without a handicap");
            assert_ne!(pick(spec, &Handicap::from_points(&[0, 2])), SAFE, "{spec} with 2 points to player 1");
        }
    }
}
