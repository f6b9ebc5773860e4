//! `mcts1`: the search as it was at `mcts` version 1 (before progressive widening,
//! candidate tables and subtree reuse), kept unchanged as a fixed yardstick: the strength
//! benchmarks measure today's `mcts` against it (`bench/mcts_strength.py --versus mcts1`),
//! and `bench/agents.py` prints its iterations per second beside today's.
//!
//! Single-observer IS-MCTS: every iteration samples a state consistent with what the
//! player knows, walks the tree by UCT among the children legal in that sample (with
//! availability counts), finding each child by a linear scan of its siblings, expands the
//! untried action with the best greedy evaluation (evaluating every legal action at every
//! expansion, so its cost grows with the square of the move count), plays a greedy or
//! random rollout and credits every node with the win share of the player who moved into
//! it. Acting players are taken one at a time (the first listed), so at a simultaneous
//! decision its tree files a later chooser's statistics under the earlier one's pick:
//! the leak issue 11 removed from `mcts`. Use it only as a baseline.

use super::greedy::{best_index, GreedyAgent};
use super::mcts::{MctsConfig, Rollout};
use super::random::RandomAgent;
use super::Agent;
use crate::game::{Evaluate, Game, Handicap, View};
use crate::rng::Rng;

const NONE: u32 = u32::MAX;

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

pub struct Mcts1Agent<G: Game> {
    cfg: MctsConfig,
    nodes: Vec<Node<G::Action>>,
    legal: Vec<G::Action>,
    path: Vec<u32>,
    values: Vec<f64>,
    random: RandomAgent<G>,
    greedy: GreedyAgent<G>,
    /// The game's score handicap (from the view of the last search).
    handicap: Handicap,
}

impl<G: Evaluate> Mcts1Agent<G> {
    /// Uses `iters`, `c`, `bias`, `rollout` (`random` or `greedy`) and `depth` of `cfg`.
    pub fn new(cfg: MctsConfig) -> Self {
        Mcts1Agent {
            cfg,
            nodes: Vec::new(),
            legal: Vec::with_capacity(256),
            path: Vec::with_capacity(64),
            values: Vec::with_capacity(256),
            random: RandomAgent::default(),
            greedy: GreedyAgent::default(),
            handicap: Handicap::default(),
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

    /// The UCT choice among the children legal in this sample; untried legal actions are
    /// moved to the front of `self.legal` and their number returned.
    fn scan(&mut self, node: u32) -> (usize, u32) {
        let (mut untried, mut best, mut best_score) = (0usize, NONE, f64::NEG_INFINITY);
        for i in 0..self.legal.len() {
            let a = self.legal[i];
            let mut ch = self.nodes[node as usize].first_child;
            while ch != NONE && self.nodes[ch as usize].action != Some(a) {
                ch = self.nodes[ch as usize].next_sibling;
            }
            if ch == NONE {
                self.legal.swap(untried, i);
                untried += 1;
                continue;
            }
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
        (untried, best)
    }

    /// One iteration from the root on a fresh determinization.
    fn iterate(&mut self, view: &View<G>, rng: &mut Rng) {
        let mut state = view.determinize(rng);
        let mut node = 0u32;
        self.path.clear();
        while !state.is_terminal() {
            // The agent's own player first at the root (a simultaneous decision lists others).
            let mover = if self.path.is_empty() { view.player() } else { state.decision().first() };
            self.legal.clear();
            state.legal_actions(mover, None, &mut self.legal);
            let (untried, best) = self.scan(node);
            if untried > 0 {
                // Expand the untried action the greedy evaluation likes best.
                self.values.clear();
                state.greedy_values(mover, &self.legal, &mut self.values);
                let pick = best_index(&self.values[..untried], rng);
                let (lo, hi) =
                    self.values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
                let prior = if hi > lo { (self.values[pick] - lo) / (hi - lo) } else { 1.0 };
                let a = self.legal[pick];
                let child = self.add_child(node, a, mover, prior);
                state.apply(mover, a);
                self.path.push(child);
                break;
            }
            let a = self.nodes[best as usize].action.expect("children hold actions");
            state.apply(mover, a);
            self.path.push(best);
            node = best;
        }
        let wins = self.rollout(&mut state, rng);
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += wins[n.mover];
        }
    }

    /// Plays on one acting player at a time; the win estimate after `depth` moves.
    fn rollout(&mut self, state: &mut G, rng: &mut Rng) -> Vec<f64> {
        let mut moves = 0;
        while !state.is_terminal() {
            // The game's estimate knows nothing of a handicap: with one, rollouts play to the end.
            if self.cfg.depth > 0 && moves >= self.cfg.depth && self.handicap.is_zero() {
                if let Some(estimate) = state.win_estimate() {
                    return estimate;
                }
            }
            let p = state.decision().first();
            let view = View::new(&*state, p);
            let a = match self.cfg.rollout {
                Rollout::Random => self.random.choose(&view, rng),
                _ => self.greedy.choose(&view, rng),
            };
            state.apply(p, a);
            moves += 1;
        }
        self.handicap.wins(&*state)
    }
}

impl<G: Evaluate> Agent<G> for Mcts1Agent<G> {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action {
        self.legal.clear();
        view.legal_actions(None, &mut self.legal);
        if self.legal.len() == 1 {
            return self.legal[0];
        }
        self.handicap = *view.handicap();
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
        // The most visited root child (ties: the higher total reward, then the last added).
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
