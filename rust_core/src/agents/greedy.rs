//! `greedy`: one-ply lookahead with the game's evaluation ([`Game::greedy_values`]);
//! ties are broken uniformly at random.

use super::Agent;
use crate::game::{Evaluate, Game, View};
use crate::rng::{below, Rng};

pub struct GreedyAgent<G: Game> {
    buf: Vec<G::Action>,
    values: Vec<f64>,
}

impl<G: Game> Default for GreedyAgent<G> {
    fn default() -> Self {
        GreedyAgent { buf: Vec::with_capacity(256), values: Vec::with_capacity(256) }
    }
}

/// Index of the largest value, ties (within 1e-9) broken uniformly with `rng`.
pub fn best_index(values: &[f64], rng: &mut Rng) -> usize {
    const EPS: f64 = 1e-9;
    let mut best = f64::NEG_INFINITY;
    let mut chosen = 0;
    let mut ties = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > best + EPS {
            best = v;
            chosen = i;
            ties = 1;
        } else if (v - best).abs() <= EPS {
            ties += 1;
            if below(rng, ties) == 0 {
                chosen = i;
            }
        }
    }
    chosen
}

/// The indices [`best_index`] picks among (uniformly): those within 1e-9 of the running best
/// since it last rose by more than 1e-9, in the same scan.
pub fn tied_indices(values: &[f64]) -> Vec<usize> {
    const EPS: f64 = 1e-9;
    let mut best = f64::NEG_INFINITY;
    let mut tied = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        if v > best + EPS {
            best = v;
            tied.clear();
            tied.push(i);
        } else if (v - best).abs() <= EPS {
            tied.push(i);
        }
    }
    tied
}

impl<G: Evaluate> Agent<G> for GreedyAgent<G> {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action {
        self.buf.clear();
        view.legal_actions(None, &mut self.buf);
        assert!(!self.buf.is_empty(), "no legal action");
        if self.buf.len() == 1 {
            return self.buf[0];
        }
        self.values.clear();
        view.greedy_values(&self.buf, &mut self.values);
        self.buf[best_index(&self.values, rng)]
    }
}
