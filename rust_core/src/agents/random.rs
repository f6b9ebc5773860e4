//! `random`: an action kind uniformly among those available, then one of its options
//! uniformly.

use super::Agent;
use crate::game::{Game, View};
use crate::rng::{below, Rng};

pub struct RandomAgent<G: Game> {
    buf: Vec<G::Action>,
}

impl<G: Game> Default for RandomAgent<G> {
    fn default() -> Self {
        RandomAgent { buf: Vec::with_capacity(256) }
    }
}

/// Index of a uniformly chosen set bit of `kinds` (non-zero).
pub fn random_kind(kinds: u32, rng: &mut Rng) -> u32 {
    debug_assert!(kinds != 0);
    let mut k = below(rng, kinds.count_ones() as usize);
    let mut bitset = kinds;
    loop {
        let bit = bitset.trailing_zeros();
        if k == 0 {
            return bit;
        }
        k -= 1;
        bitset &= bitset - 1;
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action {
        let kind = random_kind(view.action_kinds(), rng);
        self.buf.clear();
        view.legal_actions(Some(kind), &mut self.buf);
        assert!(!self.buf.is_empty(), "kind {kind} was reported available but has no action");
        self.buf[below(rng, self.buf.len())]
    }
}
