//! `Timed`: an agent wrapped so that the thread CPU time of its decisions is measured, for
//! benchmarks that compare agents at equal CPU time ([`crate::batch::simulate_timed`]).
//! Timing reads a clock twice per decision and never changes what the agent plays.

use super::Agent;
use crate::game::{Game, View};
use crate::rng::Rng;
use cpu_time::ThreadTime;
use std::sync::{Arc, Mutex};

/// What one agent spent: thread CPU seconds in its `choose` calls, its decisions, and those
/// with more than one legal action (the ones a search searches).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Clock {
    pub cpu_s: f64,
    pub decisions: u64,
    pub searched: u64,
}

/// `inner`, with its decisions timed into a shared [`Clock`].
pub struct Timed<G: Game> {
    inner: Box<dyn Agent<G>>,
    clock: Arc<Mutex<Clock>>,
    legal: Vec<G::Action>,
}

impl<G: Game> Timed<G> {
    /// Wraps `inner`; the returned clock reads what it has spent so far.
    pub fn new(inner: Box<dyn Agent<G>>) -> (Self, Arc<Mutex<Clock>>) {
        let clock = Arc::new(Mutex::new(Clock::default()));
        (Timed { inner, clock: clock.clone(), legal: Vec::new() }, clock)
    }
}

impl<G: Game> Agent<G> for Timed<G> {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action {
        let t0 = ThreadTime::now();
        let action = self.inner.choose(view, rng);
        let spent = t0.elapsed().as_secs_f64();
        self.legal.clear();
        view.legal_actions(None, &mut self.legal);
        let mut clock = self.clock.lock().expect("a clock is only read between batches");
        clock.cpu_s += spent;
        clock.decisions += 1;
        clock.searched += u64::from(self.legal.len() > 1);
        action
    }

    fn start_game(&mut self) {
        self.inner.start_game();
    }

    fn observe(&mut self, event: Option<(usize, G::Action)>) {
        self.inner.observe(event);
    }

    fn value(&self) -> Option<f64> {
        self.inner.value()
    }
}
