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

/// The one scan both [`best_index`] and [`tied_indices`] make: `on(i, true)` where value `i`
/// rises above the running best by more than 1e-9 (it starts a new set of ties), `on(i, false)`
/// where it is within 1e-9 of it (it joins the set).
fn scan_ties(values: &[f64], mut on: impl FnMut(usize, bool)) {
    const EPS: f64 = 1e-9;
    let mut best = f64::NEG_INFINITY;
    for (i, &v) in values.iter().enumerate() {
        if v > best + EPS {
            best = v;
            on(i, true);
        } else if (v - best).abs() <= EPS {
            on(i, false);
        }
    }
}

/// Index of the largest value, ties (within 1e-9) broken uniformly with `rng` (one draw per tie,
/// as the scan meets it).
pub fn best_index(values: &[f64], rng: &mut Rng) -> usize {
    let (mut chosen, mut ties) = (0, 0);
    scan_ties(values, |i, new| {
        if new {
            (chosen, ties) = (i, 1);
        } else {
            ties += 1;
            if below(rng, ties) == 0 {
                chosen = i;
            }
        }
    });
    chosen
}

/// The indices [`best_index`] picks among (uniformly): the last set of ties of the same scan.
pub fn tied_indices(values: &[f64]) -> Vec<usize> {
    let mut tied = Vec::new();
    scan_ties(values, |i, new| {
        if new {
            tied.clear();
        }
        tied.push(i);
    });
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
