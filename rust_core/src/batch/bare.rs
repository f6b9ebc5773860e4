//! The bare reference loop: the games of [`super::simulate`] with `random` or `greedy` in every
//! seat, played straight through the [`Game`] trait (no boxed agents, no views, no recording,
//! no output columns): the best the engine itself can do, the yardstick `bench/limit.py` holds
//! `simulate` against.
//!
//! It draws from the same streams as the batch runner (the deal of game *i* from
//! `deal_rng(seed, i)`, the agent at position `q` from `agent_rng(seed, i, q)`, no paired seats)
//! and chooses as the agents do ([`crate::agents::random`], [`crate::agents::greedy`]), so it
//! plays the very games `simulate` plays; its [`Totals`] let a caller check that.

use crate::agents::greedy::best_index;
use crate::agents::random::random_kind;
use crate::game::{Engine, MAX_SEATS};
use crate::rng::{agent_rng, below, deal_rng, Rng};

/// The agent in every seat of a bare run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BareAgent {
    Random,
    Greedy,
}

impl BareAgent {
    /// `random` or `greedy` (the agent specs of the batch runner without parameters).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "random" => Some(BareAgent::Random),
            "greedy" => Some(BareAgent::Greedy),
            _ => None,
        }
    }

    /// The agent's spec in the batch runner.
    pub fn name(self) -> &'static str {
        match self {
            BareAgent::Random => "random",
            BareAgent::Greedy => "greedy",
        }
    }
}

/// Sums over the games of a bare run, to compare with `simulate`'s rows of the same games.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    /// Actions applied.
    pub actions: u64,
    /// Sum over games of [`crate::game::Game::turns`].
    pub turns: u64,
    /// Sum over games and players of the final score.
    pub score: i64,
}

/// Plays games `start .. start + count` of `variant` for `n` players with `agent` in every seat.
pub fn play<G: Engine>(variant: &G::Variant, n: usize, agent: BareAgent, seed: u64, start: u64, count: u64) -> Totals {
    let mut totals = Totals::default();
    let mut buf: Vec<G::Action> = Vec::with_capacity(256);
    let mut values: Vec<f64> = Vec::with_capacity(256);
    let mut choices: Vec<(usize, G::Action)> = Vec::with_capacity(MAX_SEATS);
    for index in start..start + count {
        let mut state = G::new(variant, n, deal_rng(seed, index));
        let mut rngs: Vec<Rng> = (0..n).map(|q| agent_rng(seed, index, q as u64)).collect();
        while !state.is_terminal() {
            choices.clear();
            for q in state.decision().players() {
                let action = match agent {
                    BareAgent::Random => {
                        let kind = random_kind(state.action_kinds(q), &mut rngs[q]);
                        buf.clear();
                        state.legal_actions(q, Some(kind), &mut buf);
                        buf[below(&mut rngs[q], buf.len())]
                    }
                    BareAgent::Greedy => {
                        buf.clear();
                        state.legal_actions(q, None, &mut buf);
                        if buf.len() == 1 {
                            buf[0]
                        } else {
                            values.clear();
                            state.greedy_values(q, &buf, &mut values);
                            buf[best_index(&values, &mut rngs[q])]
                        }
                    }
                };
                choices.push((q, action));
            }
            for &(q, action) in &choices {
                state.apply(q, action);
            }
            totals.actions += choices.len() as u64;
        }
        totals.games += 1;
        totals.turns += u64::from(state.turns());
        totals.score += state.scores().iter().sum::<i64>();
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::{BareAgent, Totals};
    use crate::batch::BatchSpec;
    use crate::registry;
    use serde_json::json;

    /// The totals of `simulate`'s rows, as the bare loop counts them (actions aside).
    fn simulate_totals(game: &str, n: usize, agent: BareAgent, seed: u64, count: u64) -> Totals {
        let line_up = vec![agent.name().to_string(); n];
        let spec = BatchSpec::new(&json!({}), &Default::default(), &line_up, seed, false);
        let c = registry::simulate(game, &spec, 0, count).expect("plays");
        let turns = c.turns.iter().map(|&t| t as u64).sum::<u64>() / n as u64;
        Totals { games: count, actions: 0, turns, score: c.score.iter().sum() }
    }

    #[test]
    fn the_bare_loop_plays_the_games_of_simulate() {
        for &game in registry::GAMES {
            let (lo, hi) = registry::player_range(game).expect("a game");
            for n in [lo, hi] {
                for agent in [BareAgent::Random, BareAgent::Greedy] {
                    let count = if agent == BareAgent::Greedy { 3 } else { 20 };
                    let bare = registry::bare(game, n, agent, 11, 0, count).expect("plays");
                    assert!(bare.actions > 0, "{game}");
                    let bare = Totals { actions: 0, ..bare };
                    assert_eq!(bare, simulate_totals(game, n, agent, 11, count), "{game} {n}p {}", agent.name());
                }
            }
        }
    }

    #[test]
    fn a_bad_game_or_player_count_is_an_error() {
        assert!(registry::bare("chess", 2, BareAgent::Random, 1, 0, 1).is_err());
        assert!(registry::bare("alhambra", 9, BareAgent::Random, 1, 0, 1).is_err());
        assert_eq!(BareAgent::parse("mcts"), None);
    }
}
