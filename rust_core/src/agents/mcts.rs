//! `mcts`: single-observer information-set Monte Carlo tree search.
//!
//! Every iteration samples a state consistent with what the acting player knows
//! ([`View::determinize`]: bag order, deck order and, with hidden hands, the opponents'
//! cards), walks the tree choosing by UCT among the children legal in that sample
//! (counting each child's availability, as in Cowling, Powley & Whitehouse 2012),
//! expands the untried action with the best greedy evaluation (which also gives the
//! child a progressive-bias prior), plays the game out with the rollout policy (for at
//! most `depth` moves when the game offers a [`Game::win_estimate`]) and credits
//! every node with the final (or estimated) win share of the player who moved into it. The most
//! visited root action is played. The agent never sees the true state.

use super::greedy::{best_index, GreedyAgent};
use super::random::RandomAgent;
use super::Agent;
use crate::game::{ranks_and_wins, Game, View};
use crate::rng::Rng;

const NONE: u32 = u32::MAX;
/// Default rollout length before the game's win estimate is used.
pub const DEFAULT_DEPTH: u32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    Random,
    Greedy,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    pub iters: u32,
    /// UCT exploration constant (rewards are win shares in [0, 1]).
    pub c: f64,
    /// Weight of the progressive bias `bias * prior / (visits + 1)` towards actions the
    /// greedy evaluation prefers (0 = plain UCT).
    pub bias: f64,
    pub rollout: Rollout,
    /// Rollout moves after which the game's [`Game::win_estimate`] replaces the rest of
    /// the rollout (0 = always play to the end; games without an estimate always do).
    pub depth: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { iters: 1000, c: 0.2, bias: 10.0, rollout: Rollout::Greedy, depth: DEFAULT_DEPTH }
    }
}

struct Node<A> {
    action: Option<A>,
    /// The player who played `action` (whose reward this node accumulates).
    mover: usize,
    visits: u32,
    avail: u32,
    reward: f64,
    /// The greedy evaluation of `action` scaled to [0, 1] among its siblings when added.
    prior: f64,
    first_child: u32,
    next_sibling: u32,
}

pub struct MctsAgent<G: Game> {
    cfg: MctsConfig,
    nodes: Vec<Node<G::Action>>,
    legal: Vec<G::Action>,
    path: Vec<u32>,
    values: Vec<f64>,
    random: RandomAgent<G>,
    greedy: GreedyAgent<G>,
}

impl<G: Game> MctsAgent<G> {
    pub fn new(cfg: MctsConfig) -> Self {
        MctsAgent {
            cfg,
            nodes: Vec::new(),
            legal: Vec::with_capacity(256),
            path: Vec::with_capacity(64),
            values: Vec::with_capacity(256),
            random: RandomAgent::default(),
            greedy: GreedyAgent::default(),
        }
    }

    fn add_child(&mut self, parent: u32, action: G::Action, mover: usize, prior: f64) -> u32 {
        let id = self.nodes.len() as u32;
        let sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action: Some(action),
            mover,
            visits: 0,
            avail: 1,
            reward: 0.0,
            prior,
            first_child: NONE,
            next_sibling: sibling,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// One iteration from the root on a fresh determinization.
    fn iterate(&mut self, view: &View<G>, rng: &mut Rng) {
        let mut state = view.determinize(rng);
        let mut node = 0u32;
        self.path.clear();
        while !state.is_terminal() {
            self.legal.clear();
            state.legal_actions(None, &mut self.legal);
            // Availability of the children legal here; untried actions.
            let mut untried = 0usize;
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut i = 0;
            while i < self.legal.len() {
                let a = self.legal[i];
                let mut ch = self.nodes[node as usize].first_child;
                while ch != NONE && self.nodes[ch as usize].action != Some(a) {
                    ch = self.nodes[ch as usize].next_sibling;
                }
                if ch == NONE {
                    self.legal.swap(untried, i);
                    untried += 1;
                } else {
                    let n = &mut self.nodes[ch as usize];
                    n.avail += 1;
                    let score = n.reward / n.visits as f64
                        + self.cfg.c * ((n.avail as f64).ln() / n.visits as f64).sqrt()
                        + self.cfg.bias * n.prior / (n.visits as f64 + 1.0);
                    if score > best_score {
                        best_score = score;
                        best = ch;
                    }
                }
                i += 1;
            }
            let mover = state.current_player();
            if untried > 0 {
                // Expand the untried action the game's greedy evaluation likes best, so
                // small budgets spend their visits on plausible moves first.
                self.values.clear();
                state.greedy_values(&self.legal, &mut self.values);
                let best = best_index(&self.values[..untried], rng);
                let (lo, hi) =
                    self.values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
                let prior = if hi > lo { (self.values[best] - lo) / (hi - lo) } else { 1.0 };
                let a = self.legal[best];
                let child = self.add_child(node, a, mover, prior);
                state.apply(a);
                self.path.push(child);
                break;
            }
            let a = self.nodes[best as usize].action.expect("children hold actions");
            state.apply(a);
            self.path.push(best);
            node = best;
        }
        let mut moves = 0;
        let mut estimate = None;
        while !state.is_terminal() {
            if self.cfg.depth > 0 && moves >= self.cfg.depth {
                estimate = state.win_estimate();
                if estimate.is_some() {
                    break;
                }
            }
            let a = match self.cfg.rollout {
                Rollout::Random => self.random.choose(&View::new(&state), rng),
                Rollout::Greedy => self.greedy.choose(&View::new(&state), rng),
            };
            state.apply(a);
            moves += 1;
        }
        let wins = estimate.unwrap_or_else(|| ranks_and_wins(&state.scores(), &state.tiebreaks()).1);
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += wins[n.mover];
        }
    }
}

impl<G: Game> Agent<G> for MctsAgent<G> {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action {
        self.legal.clear();
        view.legal_actions(None, &mut self.legal);
        if self.legal.len() == 1 {
            return self.legal[0];
        }
        self.nodes.clear();
        self.nodes.push(Node {
            action: None,
            mover: view.player(),
            visits: 0,
            avail: 0,
            reward: 0.0,
            prior: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        for _ in 0..self.cfg.iters {
            self.iterate(view, rng);
        }
        // The most visited root child (ties: the higher mean reward, then first found).
        let mut ch = self.nodes[0].first_child;
        let mut best = ch;
        while ch != NONE {
            let (n, b) = (&self.nodes[ch as usize], &self.nodes[best as usize]);
            if (n.visits, n.reward) > (b.visits, b.reward) {
                best = ch;
            }
            ch = n.next_sibling;
        }
        self.nodes[best as usize].action.expect("root has children")
    }
}
