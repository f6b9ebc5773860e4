//! `mcts`: single-observer information-set Monte Carlo tree search with progressive
//! widening and decoupled UCT at simultaneous decisions.
//!
//! Every iteration samples a state consistent with what the agent's player knows
//! ([`View::determinize`]: hidden cards, bag and deck order, and other players' pending
//! choices of a simultaneous decision) and walks the tree:
//!
//! * **Statistics live on edges.** A node holds one *table* per acting player: that
//!   player's candidate actions with their visits, availability, reward and prior. A turn
//!   has one table; a simultaneous decision has one per acting player.
//! * **Candidates are built once per node**, the second time the node is reached: the
//!   acting player's legal actions in that sample, ordered by the game's greedy evaluation
//!   (ties in random order), of which the best `K` are kept (`K` = the most children the
//!   widening can ever admit within `iters`). The greedy evaluation also gives each
//!   candidate its progressive-bias prior in [0, 1]. Nothing scans siblings: a selected
//!   edge holds its child's index (a simultaneous node finds the child of a joint choice
//!   in a hash map).
//! * **Progressive widening**: a node visited `n` times considers only its first
//!   `ceil(widen_c * (n + 1)^widen)` candidates that are legal in the current sample
//!   (checked with [`Game::is_legal`] where the game has a direct test, so a node with
//!   thousands of legal actions costs about what one with tens does; otherwise against the
//!   legal actions listed once per visit). `widen = 1` admits a new child on every visit
//!   (plain expansion, best prior first). A candidate not yet tried is taken first, in
//!   prior order; otherwise UCT with availability counts (Cowling, Powley & Whitehouse
//!   2012): `mean + c * sqrt(ln(avail) / visits) + bias * prior / (visits + 1)`. When some
//!   candidates are illegal in a sample and too few remain, the sample's other legal
//!   actions are added to the table (with their priors).
//! * A history reached in another sample with other players to act (a hidden chance event
//!   decided it) gets a node of its own for that set of acting players.
//! * **Decoupled UCT** at simultaneous decisions (Lanctot, Lisý & Winands, "Monte Carlo
//!   Tree Search in Simultaneous Move Games", 2013): each acting player selects from its own
//!   table, independently of the others' selections; the joint choice is applied and each
//!   player's edge is credited with that player's reward. No player's statistics are ever
//!   conditioned on another player's choice in the same decision, so nothing leaks.
//!
//! After the tree, the rollout plays with `rollout` (`greedy`, `random`, or `egreedy`: a
//! random move with probability `eps`, else greedy; at simultaneous
//! decisions every acting player chooses from the same position) for at most `depth` moves
//! when the game offers an [`Evaluate::win_estimate`], and every edge on the path is
//! credited with its player's final (or estimated) win share.
//!
//! **Subtree reuse** (`reuse`, on by default): the tree is kept after a decision. The next
//! search follows the turn actions observed since ([`Agent::observe`]) from the old root and,
//! if the node reached was searched for the same acting players, keeps only its subtree
//! (renumbered from 0). A simultaneous decision in between (its choices may be secret) or a
//! new game ([`Agent::start_game`]) starts an empty tree. A kept root was also reached in
//! samples where the same history meant another position (a hidden tile decided it), so its
//! table may hold actions illegal now: selection tests legality per sample, as everywhere,
//! and the final choice counts only actions legal in the true position.
//!
//! **Early stop** (`stop`, `xmcts` only; 0 = never, the default): every 16 iterations a search
//! at a turn checks whether its most visited root candidate legal in the true position leads
//! every other by more than `stop` times the iterations left, and if so ends there. With
//! `stop=1` no other candidate could catch up, so the move is the one the whole search would
//! play, sooner; a smaller `stop` ends sooner still and may rarely play another move. The
//! iterations saved are CPU time: at equal CPU per decision the search can be given more.
//!
//! **Decided positions** (`decided`, `xmcts` only; 0 = never, the default): once a search at a
//! turn has spent a quarter of its iterations, every 16 iterations it checks the position's value
//! for the searching player (the mean reward over the root candidates legal in the true
//! position): at least `decided`, or at most `1 − decided`, and the search ends there (not with
//! `root=halving`, which spends its rounds as planned). A game
//! whose outcome the search already sees as settled then costs less CPU; a move in a decided
//! position rarely changes who wins (measured with paired games,
//! `bench/experiments/2026-11-29-decided/`).
//!
//! **Sequential halving at the root** (`root=halving`, `xmcts` only; default `uct`), after the
//! root of Gumbel AlphaZero (Danihelka, Guez, Schrittwieser & Silver, "Policy improvement by
//! planning with Gumbel", ICLR 2022) without its sampling: at a turn, `root_m` root candidates
//! legal in the true position (the root holds every legal action), the best prior of each action
//! kind first (greedy values of two kinds are not comparable), then the others by prior, share
//! the iterations in `ceil(log2(m))` rounds. Each round spends an equal part of the iterations left, equally and
//! in turn on the candidates still in (an iteration takes its candidate at the root and selects
//! as usual below it), then keeps the better half by mean reward (ties: the better prior). The
//! last candidate left is the move; `stop` does not apply. Simultaneous decisions search as
//! without it. `root=halving_bias` ranks by mean reward plus the progressive bias
//! `bias * prior / (visits + 1)` instead (closer to Gumbel's prior plus value). Neither gained at
//! about 5 ms per decision; Titania lost badly (`bench/experiments/2026-11-29-gumbel-root/`).
//!
//! The move played: at a turn, the most visited root candidate (ties: the higher mean
//! reward, then the better prior); at a simultaneous decision, a choice drawn in proportion
//! to the root visits of the agent's own table (the mixed final policy of decoupled UCT,
//! since a deterministic secret choice is exploitable). The agent never sees the true state.

use super::greedy::GreedyAgent;
use super::learned::Learned;
use super::random::RandomAgent;
use super::Agent;
use crate::game::{Evaluate, Game, Handicap, View, MAX_SEATS};
use crate::rng::{below, Rng};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

const NONE: u32 = u32::MAX;
/// Default rollout length before the game's win estimate is used.
pub const DEFAULT_DEPTH: u32 = 10;
/// Iterations between two `stop` tests.
const STOP_EVERY: u32 = 16;
/// The most candidates `root=halving` may consider (`root_m`).
pub const MAX_ROOT_M: u32 = 64;

/// How a search at a turn chooses among the root candidates (`xmcts`'s `root`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// UCT at the root as below it; the move is the most visited candidate (the default).
    Uct,
    /// Sequential halving over the `root_m` candidates of best prior (see the module docs).
    Halving,
    /// The same, ranking the candidates by mean reward plus the progressive bias
    /// `bias * prior / (visits + 1)` (the prior weighs more where candidates have few visits).
    HalvingBias,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    Random,
    Greedy,
    /// Greedy, but a uniformly random move with probability `eps` (less predictable
    /// opponents in the rollouts).
    EpsilonGreedy,
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
    /// Random-move probability of the `egreedy` rollout.
    pub eps: f64,
    /// Rollout moves after which the game's [`Evaluate::win_estimate`] replaces the rest of
    /// the rollout (0 = always play to the end; games without an estimate always do).
    pub depth: u32,
    /// Progressive widening exponent: a node visited `n` times considers
    /// `ceil(widen_c * (n + 1)^widen)` candidates (1 = a new child on every visit).
    pub widen: f64,
    /// Progressive widening coefficient.
    pub widen_c: f64,
    /// Keep the subtree of the position reached between this player's decisions.
    pub reuse: bool,
    /// `xmcts` only: at a turn, the candidates the widening can admit (the greedy
    /// evaluation's best) are re-ranked, and their progressive-bias priors set, by the learned
    /// evaluation of the position each action leads to (`prior=learned`; default `greedy`).
    pub learned_prior: bool,
    /// `xmcts` only (`tree_depth`): the tree grows no deeper than this many decisions below the
    /// root; an iteration that reaches that depth goes on by rollout (0 = no limit, default).
    pub tree_depth: u32,
    /// `xmcts` only (`stop`): a search at a turn ends once the most visited root candidate legal
    /// now leads every other by more than `stop` times the iterations left (0 = never, default;
    /// 1 = once no other can catch up, so the move is the one the whole search would play).
    pub stop: f64,
    /// `xmcts` only (`decided`): after a quarter of its iterations a search at a turn ends once
    /// the position's value for the searching player is at least `decided` or at most
    /// `1 − decided` (0 = never, default; else 0.5..=1).
    pub decided: f64,
    /// `xmcts` only (`root`): how a search at a turn chooses among the root candidates.
    pub root: Root,
    /// `xmcts` only (`root_m`): the candidates of `root=halving` (2..=[`MAX_ROOT_M`]).
    pub root_m: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iters: 1000,
            c: 0.2,
            bias: 10.0,
            rollout: Rollout::Greedy,
            eps: 0.1,
            depth: DEFAULT_DEPTH,
            widen: 0.5,
            widen_c: 2.0,
            reuse: true,
            learned_prior: false,
            tree_depth: 0,
            stop: 0.0,
            decided: 0.0,
            root: Root::Uct,
            root_m: 8,
        }
    }
}

impl MctsConfig {
    /// Candidates a node visited `visits` times may consider.
    fn admitted(&self, visits: u32) -> usize {
        (self.widen_c * (visits as f64 + 1.0).powf(self.widen)).ceil().max(1.0) as usize
    }
}

/// One candidate action of one acting player at a node.
#[derive(Debug, Clone, Copy)]
struct Edge<A> {
    action: A,
    prior: f64,
    visits: u32,
    avail: u32,
    reward: f64,
    /// The child reached by this action (turns only; simultaneous nodes use the map).
    child: u32,
}

/// A player's candidates: `edges[start .. start + len]`.
#[derive(Debug, Clone, Copy)]
struct Table {
    player: u8,
    start: u32,
    len: u32,
    /// Greedy values of the first build, to scale the priors of actions added later.
    lo: f64,
    hi: f64,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The acting players its tables were built for.
    acting: u32,
    /// Visits through this node (selections made here).
    visits: u32,
    /// `tables[first_table .. first_table + n_tables]`; 0 tables = not built yet.
    first_table: u32,
    n_tables: u8,
}

/// One step of an iteration's path: a node and, per table, the chosen edge (relative).
#[derive(Debug, Clone, Copy)]
struct Step {
    node: u32,
    chosen: [u32; MAX_SEATS],
}

pub struct MctsAgent<G: Game> {
    cfg: MctsConfig,
    nodes: Vec<Node>,
    tables: Vec<Table>,
    edges: Vec<Edge<G::Action>>,
    /// Children of simultaneous nodes by (node, chosen edge per table).
    joint: HashMap<(u32, [u32; MAX_SEATS]), u32>,
    /// A node's twin for another set of acting players, by (node, acting set).
    variants: HashMap<(u32, u32), u32>,
    path: Vec<Step>,
    legal: Vec<G::Action>,
    legal_set: HashSet<G::Action>,
    /// The legal actions of the true position at the root (the final choice and `stop`).
    root_legal: HashSet<G::Action>,
    values: Vec<f64>,
    /// (negated value, tie key, index) of the legal actions being ranked.
    order: Vec<(f64, u64, u32)>,
    choices: Vec<(usize, G::Action)>,
    /// The tree of the last search is kept (its root, node 0, was that decision).
    kept: bool,
    /// Turn actions observed since the last search; `None` once a simultaneous decision
    /// (or anything else not observable) intervened.
    since: Option<Vec<(usize, G::Action)>>,
    random: RandomAgent<G>,
    greedy: GreedyAgent<G>,
    /// The game's score handicap (from the view of the last search): rollouts value
    /// handicapped outcomes.
    handicap: Handicap,
    /// `xmcts`: the game's learned evaluation, which ends every rollout after `depth`
    /// moves (0: at the leaf); `None` for `mcts`.
    learned: Option<Learned>,
    /// The estimated win share of the last searched decision ([`Agent::value`]).
    last_value: Option<f64>,
    /// `root=halving`: the root edge (relative) every iteration takes (`NONE`: select).
    force: u32,
    /// `root=halving`: the root candidates still in (relative edges), best first.
    cands: [u32; MAX_ROOT_M as usize],
}

impl<G: Evaluate> MctsAgent<G> {
    pub fn new(cfg: MctsConfig) -> Self {
        MctsAgent {
            cfg,
            nodes: Vec::new(),
            tables: Vec::new(),
            edges: Vec::new(),
            joint: HashMap::default(),
            variants: HashMap::default(),
            path: Vec::with_capacity(64),
            legal: Vec::with_capacity(256),
            legal_set: HashSet::default(),
            root_legal: HashSet::default(),
            values: Vec::with_capacity(256),
            order: Vec::with_capacity(256),
            choices: Vec::with_capacity(MAX_SEATS),
            kept: false,
            since: Some(Vec::with_capacity(16)),
            random: RandomAgent::default(),
            greedy: GreedyAgent::default(),
            handicap: Handicap::default(),
            learned: None,
            last_value: None,
            force: NONE,
            cands: [NONE; MAX_ROOT_M as usize],
        }
    }

    /// `xmcts`: the search of `mcts` whose rollouts end after `cfg.depth` moves (0: at the
    /// new leaf) with the win shares of the learned evaluation `learned`.
    pub fn with_learned(cfg: MctsConfig, learned: Learned) -> Self {
        MctsAgent { learned: Some(learned), ..Self::new(cfg) }
    }

    fn new_node(&mut self) -> u32 {
        self.nodes.push(Node { acting: 0, visits: 0, first_table: 0, n_tables: 0 });
        (self.nodes.len() - 1) as u32
    }

    /// Builds the candidate tables of `node` from `state` (one per acting player), each keeping
    /// the `keep` candidates of best greedy value.
    fn build(&mut self, node: u32, state: &G, rng: &mut Rng, keep: usize) {
        let first = self.tables.len() as u32;
        for p in state.decision().players() {
            self.legal.clear();
            state.legal_actions(p, None, &mut self.legal);
            assert!(!self.legal.is_empty(), "player {p} acts but has no legal action");
            self.values.clear();
            state.greedy_values(p, &self.legal, &mut self.values);
            let (lo, hi) = bounds(&self.values);
            // Best value first; equal values in a random order (a salted hash of the index,
            // one draw per table instead of a shuffle of the whole list).
            let salt = rand::Rng::random::<u64>(rng);
            self.order.clear();
            self.order.extend(self.values.iter().enumerate().map(|(i, &v)| {
                let tie = (i as u64 ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                (-v, tie, i as u32)
            }));
            let by_key = |a: &(f64, u64, u32), b: &(f64, u64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            if self.order.len() > keep && hi == lo {
                // A flat prior: the order is the tie order alone; keep the `keep` smallest keys.
                self.order.select_nth_unstable_by_key(keep - 1, |o| o.1);
                self.order.truncate(keep);
            } else if self.order.len() > keep {
                self.order.select_nth_unstable_by(keep - 1, by_key);
                self.order.truncate(keep);
            }
            let (plo, phi) = if self.cfg.learned_prior && !state.decision().is_simultaneous() {
                self.learned_rerank(state, p)
            } else {
                (lo, hi)
            };
            self.order.sort_unstable_by(by_key);
            let start = self.edges.len() as u32;
            for &(_, _, i) in &self.order {
                let (action, v) = (self.legal[i as usize], self.values[i as usize]);
                self.edges.push(Edge {
                    action,
                    prior: scale(v, plo, phi),
                    visits: 0,
                    avail: 0,
                    reward: 0.0,
                    child: NONE,
                });
            }
            self.tables.push(Table { player: p as u8, start, len: self.order.len() as u32, lo, hi });
        }
        let n = &mut self.nodes[node as usize];
        n.first_table = first;
        n.n_tables = (self.tables.len() as u32 - first) as u8;
    }

    /// `prior=learned`: the kept candidates of acting `player` (`self.order`) valued by the
    /// learned evaluation of the position each leads to, `player`'s share of its win shares
    /// (read, like a leaf, from the side of whoever acts there: the model was fitted at its own
    /// player's decisions) (into `self.values` and the order's keys); returns their bounds.
    /// Actions added later by [`Self::merge`] keep the greedy scale of the table.
    fn learned_rerank(&mut self, state: &G, player: usize) -> (f64, f64) {
        let learned = self.learned.as_ref().expect("prior=learned is an xmcts setting");
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut shares = Vec::with_capacity(MAX_SEATS);
        for o in self.order.iter_mut() {
            let mut child = state.clone();
            child.apply(player, self.legal[o.2 as usize]);
            let v = if child.is_terminal() {
                self.handicap.wins(&child)[player]
            } else {
                learned.win_shares(&child, &mut shares);
                shares[player]
            };
            self.values[o.2 as usize] = v;
            o.0 = -v;
            lo = lo.min(v);
            hi = hi.max(v);
        }
        (lo, hi)
    }

    /// Adds the legal actions of `state` missing from table `t` (moving it to the end of
    /// the edge arena); their priors use the table's first scale.
    fn merge(&mut self, t: usize, state: &G) {
        let tab = self.tables[t];
        let p = tab.player as usize;
        self.legal.clear();
        state.legal_actions(p, None, &mut self.legal);
        let known: HashSet<G::Action> =
            self.edges[tab.start as usize..(tab.start + tab.len) as usize].iter().map(|e| e.action).collect();
        self.legal.retain(|a| !known.contains(a));
        if self.legal.is_empty() {
            return;
        }
        self.values.clear();
        state.greedy_values(p, &self.legal, &mut self.values);
        let start = self.edges.len() as u32;
        self.edges.extend_from_within(tab.start as usize..(tab.start + tab.len) as usize);
        for (a, v) in self.legal.iter().zip(&self.values) {
            let prior = scale(*v, tab.lo, tab.hi).clamp(0.0, 1.0);
            self.edges.push(Edge { action: *a, prior, visits: 0, avail: 0, reward: 0.0, child: NONE });
        }
        self.tables[t].start = start;
        self.tables[t].len = self.edges.len() as u32 - start;
    }

    /// Selects player `tab.player`'s edge (relative index) at a node visited `visits` times.
    fn select(&mut self, t: usize, visits: u32, state: &G) -> u32 {
        let k = self.cfg.admitted(visits);
        if !G::DIRECT_IS_LEGAL {
            // No direct test: list the legal actions once for this visit.
            self.legal.clear();
            state.legal_actions(self.tables[t].player as usize, None, &mut self.legal);
            self.legal_set.clear();
            self.legal_set.extend(self.legal.iter().copied());
        }
        for attempt in 0..2 {
            let tab = self.tables[t];
            let p = tab.player as usize;
            let (mut seen, mut illegal) = (0usize, 0usize);
            let (mut best, mut untried) = (NONE, NONE);
            let mut best_score = f64::NEG_INFINITY;
            for i in 0..tab.len {
                if seen == k {
                    break;
                }
                let e = &mut self.edges[(tab.start + i) as usize];
                let legal =
                    if G::DIRECT_IS_LEGAL { state.is_legal(p, &e.action) } else { self.legal_set.contains(&e.action) };
                if !legal {
                    illegal += 1;
                    continue;
                }
                seen += 1;
                e.avail += 1;
                if e.visits == 0 {
                    if untried == NONE {
                        untried = i; // untried: best prior first
                    }
                    continue;
                }
                let n = e.visits as f64;
                let score = e.reward / n
                    + self.cfg.c * ((e.avail as f64).ln() / n).sqrt()
                    + self.cfg.bias * e.prior / (n + 1.0);
                if score > best_score {
                    best_score = score;
                    best = i;
                }
            }
            if (seen < k && illegal > 0 || seen == 0) && attempt == 0 {
                self.merge(t, state);
                if seen == 0 {
                    continue;
                }
            }
            if untried != NONE {
                return untried;
            }
            if best != NONE {
                return best;
            }
        }
        unreachable!("an acting player always has a legal action")
    }

    /// `root=halving`: the root edge (relative) this iteration must take, if `node` is the root of
    /// a turn and that edge is legal in the sample (it always is: the acting player's own legal
    /// actions are known to it; otherwise the iteration selects as usual).
    fn forced_root(&mut self, node: u32, n_tables: u8, first_table: u32, state: &G) -> Option<u32> {
        if node != 0 || n_tables != 1 || self.force == NONE || !self.path.is_empty() {
            return None;
        }
        let tab = self.tables[first_table as usize];
        let action = self.edges[(tab.start + self.force) as usize].action;
        let legal = if G::DIRECT_IS_LEGAL {
            state.is_legal(tab.player as usize, &action)
        } else {
            self.legal.clear();
            state.legal_actions(tab.player as usize, None, &mut self.legal);
            self.legal.contains(&action)
        };
        legal.then_some(self.force)
    }

    /// `root=halving` at a turn (see the module docs): sequential halving over the root
    /// candidates of best prior; returns the move (`first` if no candidate is legal).
    fn halving(&mut self, view: &View<G>, first: G::Action, rng: &mut Rng) -> G::Action {
        let mut k = self.root_candidates(view, rng);
        if k == 0 {
            return first;
        }
        // ceil(log2(k)) rounds, each spending an equal share of the iterations left equally on
        // the candidates still in; the last round spends all that are left.
        let rounds = usize::BITS - (k - 1).leading_zeros();
        let mut left = self.cfg.iters;
        for r in 0..rounds {
            let per = (left / (rounds - r) / k as u32).max(1);
            for _ in 0..per {
                for i in 0..k {
                    self.force = self.cands[i];
                    self.iterate(view, rng);
                }
            }
            left = left.saturating_sub(per * k as u32);
            self.rank_candidates(k);
            k = k.div_ceil(2);
        }
        self.force = NONE;
        let tab = self.tables[self.nodes[0].first_table as usize];
        let best = self.edges[(tab.start + self.cands[0]) as usize];
        self.last_value = (best.visits > 0).then(|| best.reward / best.visits as f64);
        best.action
    }

    /// `root=halving`: builds the root (or widens a kept one) so that it holds every action
    /// legal in the true position, and puts the `root_m` candidates (all if fewer) in
    /// `self.cands`: the action of best prior of each action kind first (the greedy values of
    /// two kinds, e.g. drawing cards and playing one, are not comparable), then the others by
    /// prior; best prior first within each; returns how many.
    fn root_candidates(&mut self, view: &View<G>, rng: &mut Rng) -> usize {
        let m = self.cfg.root_m.clamp(1, MAX_ROOT_M) as usize;
        let state = view.determinize(rng);
        if self.nodes[0].n_tables == 0 {
            self.nodes[0].acting = state.decision().acting;
            self.build(0, &state, rng, self.cfg.admitted(self.cfg.iters).max(m));
        }
        let t = self.nodes[0].first_table as usize;
        let legal_edges = |me: &Self| {
            let tab = me.tables[t];
            let edges = &me.edges[tab.start as usize..(tab.start + tab.len) as usize];
            edges.iter().filter(|e| me.root_legal.contains(&e.action)).count()
        };
        if legal_edges(self) < self.root_legal.len() {
            self.merge(t, &state);
        }
        let tab = self.tables[t];
        self.order.clear();
        for i in 0..tab.len {
            let e = &self.edges[(tab.start + i) as usize];
            if self.root_legal.contains(&e.action) {
                self.order.push((-e.prior, i as u64, i));
            }
        }
        let by_key = |a: &(f64, u64, u32), b: &(f64, u64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        // Each kind's best: its key moved below every other (priors are in [0, 1]).
        let p = tab.player as usize;
        let kinds = state.action_kinds(p);
        if kinds.count_ones() > 1 {
            for kind in (0..32).filter(|k| kinds & (1 << k) != 0) {
                self.legal.clear();
                state.legal_actions(p, Some(kind), &mut self.legal);
                self.legal_set.clear();
                self.legal_set.extend(self.legal.iter().copied());
                let edges = &self.edges;
                let of_kind = self
                    .order
                    .iter_mut()
                    .filter(|o| o.0 >= -1.0 && self.legal_set.contains(&edges[(tab.start + o.2) as usize].action));
                if let Some(best) = of_kind.min_by(|a, b| by_key(a, b)) {
                    best.0 -= 2.0;
                }
            }
        }
        let k = m.min(self.order.len());
        if self.order.len() > k {
            self.order.select_nth_unstable_by(k - 1, by_key);
            self.order.truncate(k);
        }
        self.order.sort_unstable_by(by_key);
        for (c, o) in self.cands.iter_mut().zip(&self.order) {
            *c = o.2;
        }
        k
    }

    /// `root=halving`: orders the first `k` candidates by mean reward (`halving_bias`: plus the
    /// progressive bias), best first (ties: the better prior, then the earlier edge).
    fn rank_candidates(&mut self, k: usize) {
        let tab = self.tables[self.nodes[0].first_table as usize];
        let edges = &self.edges[tab.start as usize..(tab.start + tab.len) as usize];
        let bias = if self.cfg.root == Root::HalvingBias { self.cfg.bias } else { 0.0 };
        let key = |c: u32| {
            let e = &edges[c as usize];
            let mean = if e.visits > 0 { e.reward / e.visits as f64 } else { 0.0 };
            (mean + bias * e.prior / (e.visits as f64 + 1.0), e.prior)
        };
        self.cands[..k].sort_unstable_by(|&a, &b| {
            let ((ma, pa), (mb, pb)) = (key(a), key(b));
            mb.total_cmp(&ma).then(pb.total_cmp(&pa)).then(a.cmp(&b))
        });
    }

    /// One iteration from the root on a fresh determinization.
    fn iterate(&mut self, view: &View<G>, rng: &mut Rng) {
        let mut state = view.determinize(rng);
        let mut node = 0u32;
        self.path.clear();
        while !state.is_terminal() {
            if self.cfg.tree_depth > 0 && self.path.len() as u32 >= self.cfg.tree_depth {
                break;
            }
            let acting = state.decision().acting;
            if self.nodes[node as usize].n_tables == 0 {
                self.nodes[node as usize].acting = acting;
                self.build(node, &state, rng, self.cfg.admitted(self.cfg.iters).max(1));
            } else if self.nodes[node as usize].acting != acting {
                // The same history, other players to act (hidden chance decided it): a
                // node of its own for each acting set.
                node = *self.variants.entry((node, acting)).or_insert(self.nodes.len() as u32);
                if node as usize == self.nodes.len() {
                    self.new_node();
                }
                continue;
            }
            let Node { visits, first_table, n_tables, .. } = self.nodes[node as usize];
            let mut chosen = [NONE; MAX_SEATS];
            // Each acting player selects independently (decoupled), then all apply.
            for (j, slot) in chosen.iter_mut().enumerate().take(n_tables as usize) {
                *slot = match self.forced_root(node, n_tables, first_table, &state) {
                    Some(e) => e,
                    None => self.select(first_table as usize + j, visits, &state),
                };
            }
            for (j, &c) in chosen.iter().enumerate().take(n_tables as usize) {
                let tab = self.tables[first_table as usize + j];
                state.apply(tab.player as usize, self.edges[(tab.start + c) as usize].action);
            }
            self.path.push(Step { node, chosen });
            // Follow the edge (or joint choice); a new child ends the descent.
            if n_tables == 1 {
                let e = (self.tables[first_table as usize].start + chosen[0]) as usize;
                if self.edges[e].child == NONE {
                    self.edges[e].child = self.new_node();
                    break;
                }
                node = self.edges[e].child;
            } else if let Some(&c) = self.joint.get(&(node, chosen)) {
                node = c;
            } else {
                let c = self.new_node();
                self.joint.insert((node, chosen), c);
                break;
            }
        }
        let wins = self.rollout(&mut state, rng);
        for step in &self.path {
            let n = self.nodes[step.node as usize];
            self.nodes[step.node as usize].visits += 1;
            for j in 0..n.n_tables as usize {
                let tab = self.tables[n.first_table as usize + j];
                let e = &mut self.edges[(tab.start + step.chosen[j]) as usize];
                e.visits += 1;
                e.reward += wins[tab.player as usize];
            }
        }
    }

    /// The estimated win shares that end a rollout after `moves` moves, if it ends there:
    /// after `depth` moves (`xmcts`: also 0), the learned evaluation (`xmcts`) or the game's
    /// win estimate (`mcts`). Neither knows a handicap: under one, the game's expected scores
    /// plus the handicap ([`Evaluate::estimated_scores`]), or, for a game without them, no cut.
    fn cut(&self, state: &G, moves: u32) -> Option<Vec<f64>> {
        if moves < self.cfg.depth || (self.cfg.depth == 0 && self.learned.is_none()) {
            return None;
        }
        if !self.handicap.is_zero() {
            let mut bonus = [0.0; MAX_SEATS];
            for (q, b) in bonus.iter_mut().enumerate().take(state.n_players()) {
                *b = self.handicap.points(state.seat(q)) as f64;
            }
            return state.estimated_scores().map(|e| e.win_shares(&bonus));
        }
        match &self.learned {
            Some(learned) => {
                let mut shares = Vec::with_capacity(MAX_SEATS);
                learned.win_shares(state, &mut shares);
                Some(shares)
            }
            None => state.win_estimate(),
        }
    }

    /// Plays `state` on with the rollout policy and returns the win shares.
    fn rollout(&mut self, state: &mut G, rng: &mut Rng) -> Vec<f64> {
        let mut moves = 0;
        while !state.is_terminal() {
            if let Some(shares) = self.cut(state, moves) {
                return shares;
            }
            self.choices.clear();
            for p in state.decision().players() {
                let view = View::new(&*state, p);
                let a = match self.cfg.rollout {
                    Rollout::Random => self.random.choose(&view, rng),
                    Rollout::Greedy => self.greedy.choose(&view, rng),
                    Rollout::EpsilonGreedy if rand::Rng::random::<f64>(rng) < self.cfg.eps => {
                        self.random.choose(&view, rng)
                    }
                    Rollout::EpsilonGreedy => self.greedy.choose(&view, rng),
                };
                self.choices.push((p, a));
            }
            for &(p, a) in &self.choices {
                state.apply(p, a);
            }
            moves += 1;
        }
        self.handicap.wins(&*state)
    }

    /// The node a built `node` leads to when `player` takes `action` at a turn, if searched.
    fn follow(&self, node: u32, player: usize, action: &G::Action) -> Option<u32> {
        let acting = 1u32 << player;
        let node =
            if self.nodes[node as usize].acting == acting { node } else { *self.variants.get(&(node, acting))? };
        let n = self.nodes[node as usize];
        if n.n_tables != 1 {
            return None;
        }
        let tab = self.tables[n.first_table as usize];
        let edges = &self.edges[tab.start as usize..(tab.start + tab.len) as usize];
        let child = edges.iter().find(|e| e.action == *action)?.child;
        (child != NONE).then_some(child)
    }

    /// Prepares the tree for a search from `view`: the subtree of the kept tree that the
    /// observed actions lead to, when there is one for these acting players (moved to node
    /// 0 and compacted), else an empty tree.
    fn reroot(&mut self, view: &View<G>) {
        // `None`: something unobservable happened; nothing is reused.
        let mut events = self.since.take().unwrap_or_default();
        let mut root = (self.cfg.reuse && self.kept && !events.is_empty()).then_some(0u32);
        for (p, a) in &events {
            root = root.and_then(|r| self.follow(r, *p, a));
        }
        let acting = view.decision().acting;
        let root = root.and_then(|r| match self.nodes[r as usize] {
            n if n.acting == acting && n.n_tables > 0 => Some(r),
            _ => self.variants.get(&(r, acting)).copied(),
        });
        match root {
            Some(r) => self.compact(r),
            None => {
                self.nodes.clear();
                self.tables.clear();
                self.edges.clear();
                self.joint.clear();
                self.variants.clear();
                self.new_node();
            }
        }
        events.clear();
        self.since = Some(events);
    }

    /// Keeps only the subtree under `root`, renumbered from 0 (breadth first).
    fn compact(&mut self, root: u32) {
        // Children reached through the maps, by parent.
        let mut extra: HashMap<u32, Vec<u32>> = HashMap::default();
        for (&(n, _), &c) in self.joint.iter() {
            extra.entry(n).or_default().push(c);
        }
        for (&(n, _), &c) in self.variants.iter() {
            extra.entry(n).or_default().push(c);
        }
        let mut new_id: HashMap<u32, u32> = HashMap::default();
        let mut order = vec![root];
        new_id.insert(root, 0);
        let mut i = 0;
        while i < order.len() {
            let n = self.nodes[order[i] as usize];
            let tables = &self.tables[n.first_table as usize..(n.first_table + n.n_tables as u32) as usize];
            let via_edges = if n.n_tables == 1 {
                let t = tables[0];
                self.edges[t.start as usize..(t.start + t.len) as usize].iter().map(|e| e.child).collect()
            } else {
                Vec::new()
            };
            for c in via_edges.into_iter().chain(extra.get(&order[i]).into_iter().flatten().copied()) {
                if c != NONE && !new_id.contains_key(&c) {
                    new_id.insert(c, order.len() as u32);
                    order.push(c);
                }
            }
            i += 1;
        }
        let (mut nodes, mut tables, mut edges) = (Vec::with_capacity(order.len()), Vec::new(), Vec::new());
        for &old in &order {
            let mut n = self.nodes[old as usize];
            let first = tables.len() as u32;
            for j in 0..n.n_tables as u32 {
                let mut t = self.tables[(n.first_table + j) as usize];
                let start = edges.len() as u32;
                edges.extend(
                    self.edges[t.start as usize..(t.start + t.len) as usize]
                        .iter()
                        .map(|e| Edge { child: if e.child == NONE { NONE } else { new_id[&e.child] }, ..*e }),
                );
                t.start = start;
                tables.push(t);
            }
            n.first_table = first;
            nodes.push(n);
        }
        self.joint = renumber(std::mem::take(&mut self.joint), &new_id);
        self.variants = renumber(std::mem::take(&mut self.variants), &new_id);
        (self.nodes, self.tables, self.edges) = (nodes, tables, edges);
    }

    /// The root's first table of the last search, in table order: (action, prior) (tests).
    #[cfg(test)]
    pub(crate) fn root_priors(&self) -> Vec<(G::Action, f64)> {
        let t = self.tables[self.nodes[0].first_table as usize];
        self.edges[t.start as usize..(t.start + t.len) as usize].iter().map(|e| (e.action, e.prior)).collect()
    }

    /// Visits of the root of the last search (tests).
    #[cfg(test)]
    pub(crate) fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// The root's first table of the last search, in table order: (action, prior, visits) (tests).
    #[cfg(test)]
    pub(crate) fn root_edges(&self) -> Vec<(G::Action, f64, u32)> {
        let t = self.tables[self.nodes[0].first_table as usize];
        let edges = &self.edges[t.start as usize..(t.start + t.len) as usize];
        edges.iter().map(|e| (e.action, e.prior, e.visits)).collect()
    }

    /// The most decisions below the root at which a node of the tree was built (tests).
    #[cfg(test)]
    pub(crate) fn built_depth(&self) -> u32 {
        let mut depth = vec![u32::MAX; self.nodes.len()];
        let (mut deepest, mut stack) = (0, vec![(0u32, 0u32)]);
        while let Some((v, d)) = stack.pop() {
            if depth[v as usize] <= d {
                continue;
            }
            depth[v as usize] = d;
            let node = self.nodes[v as usize];
            if node.n_tables > 0 {
                deepest = deepest.max(d);
            }
            let tables = &self.tables[node.first_table as usize..(node.first_table + node.n_tables as u32) as usize];
            for t in tables {
                let edges = &self.edges[t.start as usize..(t.start + t.len) as usize];
                stack.extend(edges.iter().filter(|e| e.child != NONE).map(|e| (e.child, d + 1)));
            }
            stack.extend(self.joint.iter().filter(|(k, _)| k.0 == v).map(|(_, &c)| (c, d + 1)));
            stack.extend(self.variants.iter().filter(|(k, _)| k.0 == v).map(|(_, &c)| (c, d)));
        }
        deepest
    }

    /// Panics unless every table, edge and child index of the tree is in range (tests).
    #[cfg(test)]
    pub(crate) fn check_tree(&self) {
        let n = self.nodes.len() as u32;
        for node in &self.nodes {
            assert!(node.first_table + node.n_tables as u32 <= self.tables.len() as u32);
        }
        for t in &self.tables {
            assert!(t.start + t.len <= self.edges.len() as u32);
        }
        assert!(self.edges.iter().all(|e| e.child == NONE || e.child < n));
        assert!(self.joint.iter().all(|(&(a, _), &c)| a < n && c < n));
        assert!(self.variants.iter().all(|(&(a, _), &c)| a < n && c < n));
    }

    /// The root candidates legal in the true position, at a turn (None where the root has a
    /// table per acting player: a simultaneous decision).
    fn root_turn_edges(&self) -> Option<impl Iterator<Item = &Edge<G::Action>>> {
        let root = self.nodes[0];
        if root.n_tables != 1 {
            return None;
        }
        let tab = self.tables[root.first_table as usize];
        let edges = &self.edges[tab.start as usize..(tab.start + tab.len) as usize];
        Some(edges.iter().filter(|e| self.root_legal.contains(&e.action)))
    }

    /// `stop`: whether the most visited root candidate legal in the true position leads every
    /// other legal one by more than `stop * left` visits (at a turn; the root has one table).
    fn settled(&self, left: u32) -> bool {
        let Some(edges) = self.root_turn_edges() else { return false };
        let (mut first, mut second) = (0u32, 0u32);
        for e in edges {
            if e.visits > first {
                (first, second) = (e.visits, first);
            } else if e.visits > second {
                second = e.visits;
            }
        }
        (first - second) as f64 > self.cfg.stop * left as f64
    }

    /// `decided`: whether the position's value for the searching player (the mean reward over
    /// the root candidates legal in the true position) is at least `decided` or at most
    /// `1 − decided` (at a turn; the root has one table).
    fn decided(&self) -> bool {
        let Some(edges) = self.root_turn_edges() else { return false };
        let (visits, reward) = edges.fold((0u32, 0.0), |(n, r), e| (n + e.visits, r + e.reward));
        let value = reward / visits.max(1) as f64;
        visits > 0 && (value >= self.cfg.decided || value <= 1.0 - self.cfg.decided)
    }

    /// The root decision: see the module docs. Only root candidates legal in the true
    /// position count: a kept subtree's root was also reached in samples where the same
    /// history meant another position (a hidden tile decided it), with other legal actions.
    /// `first` is the first legal action, played if no legal candidate was searched.
    fn final_choice(&mut self, view: &View<G>, simultaneous: bool, first: G::Action, rng: &mut Rng) -> G::Action {
        let root = self.nodes[0];
        let tab = (0..root.n_tables as usize)
            .map(|j| self.tables[root.first_table as usize + j])
            .find(|t| t.player as usize == view.player())
            .expect("the agent's player acts at the root");
        let legal = &self.root_legal;
        let mut edges =
            self.edges[tab.start as usize..(tab.start + tab.len) as usize].iter().filter(|e| legal.contains(&e.action));
        if simultaneous {
            let total: u32 = edges.clone().map(|e| e.visits).sum();
            let reward: f64 = edges.clone().map(|e| e.reward).sum();
            self.last_value = (total > 0).then(|| reward / total as f64);
            let mut r = below(rng, total.max(1) as usize) as u32;
            for e in edges {
                if r < e.visits {
                    return e.action;
                }
                r -= e.visits;
            }
            return first;
        }
        // Most visits, then the higher mean, then the better prior (earlier in the table).
        let mean = |x: &Edge<G::Action>| if x.visits > 0 { x.reward / x.visits as f64 } else { 0.0 };
        let Some(mut best) = edges.next() else { return first };
        for e in edges {
            if (e.visits, mean(e)) > (best.visits, mean(best)) {
                best = e;
            }
        }
        self.last_value = (best.visits > 0).then(|| mean(best));
        best.action
    }
}

/// The entries of a map keyed by (node, key) whose node has a new number, renumbered.
fn renumber<K: Eq + std::hash::Hash>(
    map: HashMap<(u32, K), u32>,
    new_id: &HashMap<u32, u32>,
) -> HashMap<(u32, K), u32> {
    map.into_iter().filter_map(|((n, k), c)| Some(((*new_id.get(&n)?, k), new_id[&c]))).collect()
}

/// Smallest and largest of `values`.
fn bounds(values: &[f64]) -> (f64, f64) {
    values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)))
}

/// `v` scaled to [0, 1] between `lo` and `hi` (1 when they are equal).
fn scale(v: f64, lo: f64, hi: f64) -> f64 {
    if hi > lo {
        (v - lo) / (hi - lo)
    } else {
        1.0
    }
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action {
        self.legal.clear();
        view.legal_actions(None, &mut self.legal);
        self.last_value = None;
        if self.legal.len() == 1 {
            return self.legal[0];
        }
        self.handicap = *view.handicap();
        self.reroot(view);
        self.kept = true;
        self.root_legal.clear();
        self.root_legal.extend(self.legal.iter().copied());
        let first = self.legal[0];
        if self.cfg.root != Root::Uct && !view.decision().is_simultaneous() {
            return self.halving(view, first, rng);
        }
        let (stop, decided) = (self.cfg.stop > 0.0, self.cfg.decided > 0.0);
        let quarter = self.cfg.iters / 4;
        let mut simultaneous = false;
        for i in 0..self.cfg.iters {
            self.iterate(view, rng);
            if i == 0 {
                simultaneous = self.nodes[0].n_tables > 1;
            }
            if i % STOP_EVERY == STOP_EVERY - 1
                && ((stop && self.settled(self.cfg.iters - i - 1)) || (decided && i >= quarter && self.decided()))
            {
                break;
            }
        }
        self.final_choice(view, simultaneous, first, rng)
    }

    fn start_game(&mut self) {
        self.kept = false;
        self.since = Some(Vec::new());
    }

    fn observe(&mut self, event: Option<(usize, G::Action)>) {
        match (event, self.since.as_mut()) {
            (Some(e), Some(since)) => since.push(e),
            _ => self.since = None,
        }
    }

    fn value(&self) -> Option<f64> {
        self.last_value
    }
}
