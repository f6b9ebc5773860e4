//! The `greedy` agent's evaluation.
//!
//! **Position value** of player `p` ([`Maharaja::position_value`]), in gold:
//!
//! * 30 per palace built (palaces decide the game; a palace costs 12);
//! * gold held, 1 each (the first tie-break); with `gold = hidden`, another player's gold
//!   counts as the mean of the others' (`p` knows only their total);
//! * the expected payout of the coming scorings with the points as they are now: the
//!   Maharaja's city this round in full, the next two cities on the governor track at 0.5
//!   and 0.25 (rank by points, ties to the lower character, paid by the payout table);
//! * houses: per house in a village 0.5, or 0.8 when its road ends at one of those three
//!   cities (roads and tolls); 0.3 per house in the supply, 0.1 in the quarry;
//! * characters: Artisan 3, Trader 0.5 per round likely left, others 1;
//! * during `p`'s own turn (never for another player, whose wheel may be hidden from `p`),
//!   what the wheel actions left can still do where the architect
//!   stands: a palace (or palace + house) that can be built here is worth 0.8 × (30 −
//!   its cost), two houses in a scoring city 1; and minus 2 per wheel action left that can
//!   no longer be carried out (the forfeit).
//!
//! An action of a turn or of the set-up is judged one ply deep: the value of the position
//! after it, **relative** (`p`'s value minus the mean of the others', so that the 2 gold
//! each opponent takes for a forfeit counts against it). Villages count only by class (near
//! a coming city or not), so `greedy_values` evaluates one action per class and shares the
//! value (ties are broken at random by the agent).
//!
//! **Win estimate** (`mcts` rollouts cut at `depth`): a softmax of the position values with
//! a scale of 15 gold.
//!
//! **The secret wheel** is judged without looking at anybody's wheel (the others' are
//! hidden, and so is the order in which the players will act): the pair's value is the sum
//! of a static estimate of each action for `p` as the position stands
//! ([`Maharaja::wheel_gain`]), the second estimated after the first's spending: gold 2;
//! a palace 30 − cost − the toll to the cheapest city where `p` can build one (if
//! affordable); a house 1.5 (+0.8 if the architect can stand in the Maharaja's city);
//! two houses 3 (needs a scoring city); moving a house 0.8; quarry 0.6 with fewer than 3
//! houses in the supply (else 0.2); governor and character 0.5; and −2 for an action that
//! cannot be carried out (it would be forfeited).
//!
//! Auctions (`advanced_1`): a character is worth the values above plus 2 (Mogul) / 2
//! (Sadhu) / 2 (Monk) / 3 (Builder) / 3 (Yogi); a bid is worth that minus the price.

use super::map::{Map, N_CITIES, START};
use super::rules::Routes;
use super::state::*;
use crate::game::{lead, Evaluate, Game};

const PALACE_VALUE: f64 = 30.0;
const FORFEIT_PENALTY: f64 = 2.0;

/// Auction value of each character (`advanced_1`).
pub const CHARACTER_VALUE: [f64; N_CHARACTERS] = [2.0, 3.0, 2.0, 2.0, 3.0, 4.0, 3.0];

/// The features of a position (see [`Evaluate::features`]); leads are against the best
/// opponent. Progress: the round (/10) and whether it is the last; the lead in the greedy's
/// position value (/30); palaces built (own and lead); gold (own and lead, /10); the expected
/// payout of the coming scorings (lead, /10); the leads in village houses, houses in the
/// supply and characters held;
/// start player of round 1.
pub const FEATURES: &[&str] = &[
    "round",
    "last_round",
    "value_lead",
    "palaces",
    "palace_lead",
    "gold",
    "gold_lead",
    "payout_lead",
    "village_lead",
    "supply_lead",
    "characters_lead",
    "start_player",
];

impl Maharaja {
    /// Expected payout to each player in `city` with the points as they are now.
    fn payout_now(&self, city: usize, out: &mut [f64; MAX_PLAYERS], weight: f64) {
        let pts = self.city_points(city);
        let ranking = self.ranking(&pts);
        for (&p, &g) in ranking.iter().zip(PAYOUTS[ranking.len()]) {
            out[p] += weight * g as f64;
        }
    }

    /// The next cities the Maharaja will score: this round's (if not yet scored), then
    /// the lowest governors'.
    fn coming_cities(&self) -> [(usize, f64); 3] {
        let mut out = [(START, 0.0); 3];
        let mut k = 0;
        if !self.is_over() {
            out[0] = (self.maharaja as usize, 1.0);
            k = 1;
        }
        let weights = [0.5, 0.25];
        let mut w = 0;
        for &c in self.track.iter() {
            if k == 3 || w == 2 {
                break;
            }
            if c != EMPTY && c != self.maharaja {
                out[k] = (c as usize, weights[w]);
                k += 1;
                w += 1;
            }
        }
        out
    }

    /// Every player's position value as `me` sees it (see the module docs): the turn
    /// potential counts only for `me` (another player's wheel may be hidden from `me`), and
    /// with `gold = hidden` every other player counts the mean gold of the others.
    pub fn position_values(&self, me: usize) -> [f64; MAX_PLAYERS] {
        self.values(me, self.readings.gold_hidden)
    }

    /// [`Maharaja::position_values`]; `blind`: the others' gold counted as their mean.
    fn values(&self, me: usize, blind: bool) -> [f64; MAX_PLAYERS] {
        let others_mean = self.others_gold(me) as f64 / (self.n - 1) as f64;
        let mut v = [0.0; MAX_PLAYERS];
        if !self.is_over() && self.round > 0 {
            for (c, w) in self.coming_cities() {
                if w > 0.0 && c != START {
                    self.payout_now(c, &mut v, w);
                }
            }
        }
        let rounds_left = if self.last_round { 0.0 } else { 3.0 };
        let near = self.village_weights();
        for (p, vp) in v.iter_mut().enumerate().take(self.n) {
            let village_houses: f64 = self.map.villages().map(|s| self.houses[s][p] as f64 * near[s]).sum();
            let gold = if blind && p != me { others_mean } else { self.gold[p] as f64 };
            *vp += PALACE_VALUE * self.palaces_built[p] as f64
                + gold
                + village_houses
                + 0.3 * self.supply[p] as f64
                + 0.1 * self.quarry[p] as f64;
            for c in bits(self.chars[p]) {
                *vp += match c {
                    ARTISAN => 3.0,
                    TRADER => 0.5 * rounds_left,
                    _ => 1.0,
                };
            }
        }
        if self.phase == Phase::Turn && self.turn_player == me {
            v[me] += self.turn_potential(me);
        }
        v
    }

    /// Value of a house in each village: 0.5, or 0.8 on a road ending at a coming city.
    fn village_weights(&self) -> [f64; super::map::MAX_SITES] {
        let mut w = [0.5; super::map::MAX_SITES];
        if self.round == 0 && self.phase != Phase::StartHouses {
            return w;
        }
        for (c, weight) in self.coming_cities() {
            if weight <= 0.0 || c == START {
                continue;
            }
            for &r in &self.map.city_roads[c] {
                for v in self.map.roads[r as usize].villages() {
                    w[v] = 0.8;
                }
            }
        }
        w
    }

    /// What `p`'s wheel actions left can still do where the architect stands.
    fn turn_potential(&self, p: usize) -> f64 {
        let mut v = 0.0;
        for w in self.remaining {
            if w == NONE {
                continue;
            }
            v += match w {
                PALACE | PALACE_HOUSE if self.can_build_palace(p) => 0.8 * (PALACE_VALUE - self.palace_cost(p) as f64),
                TWO_HOUSES if self.architect[p] as usize != START => 1.0,
                _ if !self.op_open(p, w, Source::Wheel) => -FORFEIT_PENALTY,
                _ => 0.0,
            };
        }
        v
    }

    /// `p`'s value minus the mean of the others'.
    pub fn relative_value(&self, p: usize) -> f64 {
        let v = self.position_values(p);
        let others: f64 = (0..self.n).filter(|&q| q != p).map(|q| v[q]).sum();
        v[p] - others / (self.n - 1) as f64
    }

    /// What an action's value depends on: villages matter only by whether their road ends
    /// at one of the coming cities, so actions differing only in such villages share a key
    /// (greedy evaluates one of them).
    fn value_key(&self, a: &Action) -> Action {
        let coming = self.coming_cities();
        let class = |site: u8| -> u8 {
            if site == NONE || !Map::is_village(site as usize) {
                return site;
            }
            let road = &self.map.roads[self.map.village_road[site as usize - N_CITIES] as usize];
            let near = coming.iter().any(|&(c, w)| w > 0.0 && (road.a as usize == c || road.b as usize == c));
            if near {
                0xF1
            } else {
                0xF0
            }
        };
        match *a {
            Action::StartHouse { village } => Action::StartHouse { village: class(village) },
            Action::Do { op, by } => {
                let op = match op {
                    Op::House { site } => Op::House { site: class(site) },
                    Op::TwoHouses { second } => Op::TwoHouses { second: class(second) },
                    Op::PalaceHouse { site, full_price } => Op::PalaceHouse { site: class(site), full_price },
                    Op::MoveHouse { from, to } => Op::MoveHouse { from: class(from), to: class(to) },
                    other => other,
                };
                Action::Do { op, by }
            }
            other => other,
        }
    }

    /// The greedy evaluation of acting `p`'s action.
    pub fn greedy_eval(&self, p: usize, a: &Action) -> f64 {
        self.greedy_eval_with(p, a, &mut None)
    }

    /// [`Self::greedy_eval`], `p`'s routes ([`Maharaja::routes`]) computed at most once over the
    /// calls that share `routes` (the wheel pairs of one decision: the state does not change).
    fn greedy_eval_with(&self, p: usize, a: &Action, routes: &mut Option<Routes>) -> f64 {
        match *a {
            Action::Wheel { first, second } => {
                self.wheel_value(p, first, second, routes.get_or_insert_with(|| self.routes(p)))
            }
            Action::Nominate { card } => CHARACTER_VALUE[card as usize],
            Action::Bid { amount } => CHARACTER_VALUE[self.auction.card as usize] - amount as f64,
            Action::Pass => 0.0,
            _ => {
                let mut g = self.clone();
                g.log = None;
                g.apply(p, *a);
                g.relative_value(p)
            }
        }
    }

    /// The static value of a wheel pair (see the module docs); reads no wheel. `r`: `p`'s routes.
    pub fn wheel_value(&self, p: usize, first: u8, second: u8, r: &Routes) -> f64 {
        let (g1, spent) = self.wheel_gain(p, first, 0, false, r);
        let (g2, _) = self.wheel_gain(p, second, spent, first == second, r);
        g1 + g2
    }

    /// Estimated gain of one wheel action for `p` with `spent` gold already committed
    /// (`again`: the same action a second time; `r`: `p`'s routes); returns the gain and the gold
    /// it spends.
    pub fn wheel_gain(&self, p: usize, w: u8, spent: i32, again: bool, r: &Routes) -> (f64, i32) {
        let gold = self.gold[p] - spent;
        let supply = self.supply[p] as i32 - if again && matches!(w, HOUSE | TWO_HOUSES) { w as i32 } else { 0 };
        let fail = (-FORFEIT_PENALTY, 0);
        match w {
            GOLD => (2.0, -2),
            HOUSE if supply >= 1 && gold >= 1 => {
                let here = self.reachable_for(p, self.maharaja as usize, gold - 1, r).is_some();
                (1.5 + if here { 0.8 } else { 0.0 }, 1)
            }
            TWO_HOUSES if supply >= 2 && gold >= 2 => match self.cheapest_scoring_city(p, gold - 2, r) {
                Some(t) => (3.0 - 0.2 * t as f64, 2 + t),
                None => fail,
            },
            MOVE_HOUSE if self.can_move_house(p) => (0.8, 0),
            QUARRY if self.quarry[p] >= 2 || (self.quarry[p] >= 1 && !again) => {
                (if self.supply[p] < 3 { 0.6 } else { 0.2 }, 0)
            }
            PALACE | PALACE_HOUSE => {
                let extra = (w == PALACE_HOUSE) as i32;
                match self.best_palace_city(p, gold - extra, again, r) {
                    Some(t) => {
                        let cost = self.palace_cost(p);
                        (PALACE_VALUE - cost as f64 - t as f64 + extra as f64, cost + t + extra)
                    }
                    None => fail,
                }
            }
            GOVERNOR => (0.5, 0),
            CHARACTER if !again => (0.5, 0),
            _ => fail,
        }
    }

    /// The toll to reach `city` if `p` can afford it with `gold` (0 where the architect is).
    fn reachable_for(&self, p: usize, city: usize, gold: i32, r: &Routes) -> Option<i32> {
        if self.architect[p] as usize == city {
            return Some(0);
        }
        let c = r.cost[city];
        (c != i32::MAX && (self.holds(p, MONK) || c <= gold)).then_some(if self.holds(p, MONK) { 0 } else { c })
    }

    fn cheapest_scoring_city(&self, p: usize, gold: i32, r: &Routes) -> Option<i32> {
        (1..N_CITIES).filter_map(|c| self.reachable_for(p, c, gold, r)).min()
    }

    /// The smallest toll to a city where `p` may build a palace with `gold` (the second
    /// palace of a turn: not where the first went, one palace per city).
    fn best_palace_city(&self, p: usize, gold: i32, again: bool, r: &Routes) -> Option<i32> {
        if self.palaces_built[p] + again as u8 >= PALACES {
            return None;
        }
        let cost = self.palace_cost(p);
        let monk = self.holds(p, MONK);
        let mut best: Option<i32> = None;
        for c in 1..N_CITIES {
            if self.city_palaces[c] >= self.palace_spaces() || (self.one_palace_per_city && self.palaces[c][p] > 0) {
                continue;
            }
            let toll = if self.architect[p] as usize == c {
                0
            } else if r.cost[c] == i32::MAX {
                continue;
            } else if monk {
                0
            } else {
                r.cost[c]
            };
            if toll + cost <= gold && best.is_none_or(|b| toll < b) {
                best = Some(toll);
            }
        }
        best
    }
}

impl Evaluate for Maharaja {
    /// Measured: `bench/tune_mcts.py` (`bench/results/tune-mcts.json`).
    const MCTS_DEFAULTS: &'static str = "widen=0.3";

    const FEATURE_NAMES: &'static [&'static str] = FEATURES;
    const EVAL_WEIGHTS: &'static str = include_str!("maharaja_eval_weights.txt");

    /// See [`FEATURES`]: with `gold = hidden` the others' gold is their mean (the player
    /// knows only their total); nobody's wheel but the player's own is read.
    fn features(&self, player: usize, out: &mut [f32]) {
        let n = self.n;
        let v = self.position_values(player);
        let blind = self.readings.gold_hidden;
        let others_mean = self.others_gold(player) as f64 / (n - 1) as f64;
        let (mut palaces, mut gold, mut houses, mut supply, mut chars) =
            ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
        for q in 0..n {
            palaces[q] = self.palaces_built[q] as f64;
            gold[q] = if blind && q != player { others_mean } else { self.gold[q] as f64 };
            houses[q] = self.map.villages().map(|s| self.houses[s][q] as f64).sum();
            supply[q] = self.supply[q] as f64;
            chars[q] = self.chars[q].count_ones() as f64;
        }
        let mut payout = [0.0; MAX_PLAYERS];
        if !self.is_over() && self.round > 0 {
            for (c, w) in self.coming_cities() {
                if w > 0.0 && c != START {
                    self.payout_now(c, &mut payout, w);
                }
            }
        }
        let values = [
            self.round as f32 / 10.0,
            f32::from(u8::from(self.last_round)),
            lead(&v, player, n) / 30.0,
            palaces[player] as f32,
            lead(&palaces, player, n),
            gold[player] as f32 / 10.0,
            lead(&gold, player, n) / 10.0,
            lead(&payout, player, n) / 10.0,
            lead(&houses, player, n),
            lead(&supply, player, n),
            lead(&chars, player, n),
            f32::from(u8::from(self.seat(player) == 0)),
        ];
        out.copy_from_slice(&values);
    }

    fn greedy_value(&self, player: usize, action: &Action) -> f64 {
        self.greedy_eval(player, action)
    }

    /// Evaluates one action per [`Maharaja::value_key`] class and shares the value.
    fn greedy_values(&self, player: usize, actions: &[Action], out: &mut Vec<f64>) {
        let mut seen: Vec<(Action, f64)> = Vec::with_capacity(32);
        let mut routes = None;
        for a in actions {
            let key = self.value_key(a);
            if key == *a {
                // a key no other action shares (a class key names no site): nothing to look up
                out.push(self.greedy_eval_with(player, a, &mut routes));
                continue;
            }
            let v = match seen.iter().find(|(k, _)| *k == key) {
                Some(&(_, v)) => v,
                None => {
                    let v = self.greedy_eval_with(player, a, &mut routes);
                    seen.push((key, v));
                    v
                }
            };
            out.push(v);
        }
    }

    /// Softmax of the position values (scale 15 gold, half a palace).
    fn win_estimate(&self) -> Option<Vec<f64>> {
        let n = self.n_players();
        let v = self.values(self.turn_player, false);
        let best = v[..n].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = v[..n].iter().map(|x| ((x - best) / 15.0).exp()).collect();
        let sum: f64 = e.iter().sum();
        Some(e.into_iter().map(|x| x / sum).collect())
    }
}
