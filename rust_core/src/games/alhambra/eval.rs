//! The evaluation behind the `greedy` agent (and greedy rollouts of `mcts`).
//!
//! `greedy` looks one ply ahead: each legal action is scored by how much it changes the
//! acting player's position, measured before the chance events of the end of the turn
//! (so it needs no hidden information). The position value of player `p` is
//!
//! * **majorities**: for every kind, the majority points `p` would get in each scoring
//!   still to come with the current city counts (Dirk included), minus the mean of the
//!   other players' points;
//! * **walls**: the longest outer wall times the number of scorings still to come. For
//!   redesigns the number of outer wall segments stands in for the longest wall: it is
//!   cheap for their many candidates, and with one potential (majority term + walls +
//!   reserve value) for every redesign and a churn cost per move, no sequence of
//!   redesigns can all look profitable, so greedy cannot shuffle tiles forever;
//! * **money**: 0.5 per point of value held in a currency up to 12, 0.1 beyond, plus 1
//!   per market tile the hand can pay for *exactly* (an exact payment is a free action;
//!   after a purchase its space counts as empty);
//! * **exact payment**: buying with the exact amount is worth 2 (the extra action);
//! * a bought tile is worth its majority gain if it has a legal square in the city
//!   (placing it is scored when it is placed), and 0.3 on the reserve;
//! * **Dirk**: giving him a tile is scored by the change in the majority term, which is
//!   negative when it lets him take points from `p` and positive when from an opponent;
//! * redesigns pay a churn cost of 2 so they are made only when they clearly gain, and
//!   count half their majority gain (the opponent can answer with a redesign of their
//!   own); the churn cost doubles with every redesign made since money was last taken or
//!   a tile bought, so two greedy players cannot trade a majority back and forth by
//!   redesign for ever.

use super::data::{bits, Card, MAJORITY, N_KINDS, TILES};
use super::scoring::{kind_points, majority_points};
use super::state::{Action, Alhambra, Phase, Player, MAX_PLAYERS, NO_TILE};
use crate::game::{lead, Evaluate, Game, ScoreEstimate, MAX_SEATS};

const CHURN: f64 = 2.0;
/// Share of a redesign's majority gain counted: the opponent can answer a redesign with
/// one of their own, so a majority taken that way is worth less than one bought.
const REDESIGN_MAJORITY: f64 = 0.5;
const EXACT: f64 = 2.0;
const RESERVE: f64 = 0.3;
/// Score difference (points) that makes the estimated win chance e : 1 (see
/// [`Evaluate::win_estimate`]).
const WIN_SCALE: f64 = 8.0;

/// The features of a position (see [`Evaluate::features`]); leads are against the best
/// opponent. Progress: scorings done (of 3) and cards left in the deck (/100). Points (/10):
/// the score so far, the majority points of the scorings to come with the cities as they
/// are (Dirk included), the longest wall times the scorings left, and their sum. The player's
/// own money at the greedy's rate (/10; the others' hands are secret: their card counts
/// instead), the lead in cards, city tiles and reserve tiles; whether they are the start
/// player. (A position is recorded at the player's own decision, so the player to act is
/// always the player: the learned value is read for the acting player.) Tiles bought this turn
/// and not yet placed count as the buyer's city tiles (kinds and count): right after a purchase
/// the tile is paid for but not placed, and without them every such position looked like money
/// spent for nothing. Then the seven from `score_lead` to `city_lead` again, times the deck left
/// (`_by_deck`) and times the scorings done (`_by_done`): what a lead is worth changes as the game
/// runs out (a majority held with most of the deck to come is easily lost), which one weight per
/// lead cannot say. Measured on the committed labelled positions, held out: these 14 products
/// bring the model as close to the label search as all 66 pairwise products do (cross-entropy
/// against the labels 0.495 → 0.486; README, *Leads that change with the game's progress*).
pub const FEATURES: &[&str] = &[
    "scorings_done",
    "deck_left",
    "score_lead",
    "majority_lead",
    "wall_lead",
    "estimate_lead",
    "own_money",
    "cards_lead",
    "city_lead",
    "reserve_lead",
    "start_player",
    "score_lead_by_deck",
    "majority_lead_by_deck",
    "wall_lead_by_deck",
    "estimate_lead_by_deck",
    "own_money_by_deck",
    "cards_lead_by_deck",
    "city_lead_by_deck",
    "score_lead_by_done",
    "majority_lead_by_done",
    "wall_lead_by_done",
    "estimate_lead_by_done",
    "own_money_by_done",
    "cards_lead_by_done",
    "city_lead_by_done",
];
/// Where in [`FEATURES`] the leads that are multiplied by the progress stand (`score_lead` to
/// `city_lead`).
const PROGRESS_LEADS: std::ops::Range<usize> = 2..9;

/// Money value of one currency: diminishing in the amount held, plus 1 if the market
/// tile on that currency's space can be paid exactly.
fn currency_value(sum: u16, cards: &[u8; 9], tile: u8) -> f64 {
    let s = sum as f64;
    let exact = tile != NO_TILE && can_pay_exactly(cards, TILES[tile as usize].price);
    0.5 * s.min(12.0) + 0.1 * (s - 12.0).max(0.0) + if exact { 1.0 } else { 0.0 }
}

/// Whether some cards of one currency add up to exactly `price` (subset sum, ≤ 9 values).
fn can_pay_exactly(cards: &[u8; 9], price: u8) -> bool {
    let mut reach: u32 = 1; // bit s: sum s reachable
    for v in 1..=9 {
        for _ in 0..cards[v - 1] {
            reach |= reach << v;
        }
    }
    reach >> price & 1 == 1
}

/// Values shared by the actions of one decision, computed on first use.
#[derive(Default)]
pub struct Ctx {
    wall: Option<u32>,
    /// The acting player's money value per currency.
    money: [Option<f64>; 4],
    /// The acting player's majority term per kind with their count changed by −1, 0, +1.
    majority: [[Option<f64>; 3]; N_KINDS],
    /// The gain of giving Dirk a tile of each kind.
    dirk: [Option<f64>; N_KINDS],
}

impl Alhambra {
    /// The majority term for player `p` with `delta` applied to one participant's count
    /// of `kind` (`who` = player index, or `n` for Dirk).
    fn majority_term(&self, p: usize, kind: usize, who: usize, delta: i8) -> f64 {
        let n = self.n;
        let parts = if self.v.dirk { n + 1 } else { n };
        let mut counts = [0u8; MAX_PLAYERS + 1];
        for (c, pl) in counts.iter_mut().zip(&self.players) {
            *c = pl.city.kind_counts[kind];
        }
        if self.v.dirk {
            counts[n] = self.dirk_counts[kind];
        }
        counts[who] = (counts[who] as i8 + delta).max(0) as u8;
        let mut total = 0.0;
        for round in self.scorings_done as usize + 1..=3 {
            let mut pts = [0i64; MAX_PLAYERS + 1];
            kind_points(&counts[..parts], &MAJORITY[round - 1][kind], &mut pts);
            let others: i64 = (0..n).filter(|&q| q != p).map(|q| pts[q]).sum();
            total += pts[p] as f64 - others as f64 / (n - 1) as f64;
        }
        total
    }

    /// Change of the acting player's majority term when their count of `kind` changes
    /// by `delta` (−1, 0 or +1; cached per decision).
    fn majority_gain(&self, p: usize, kind: usize, delta: i8, ctx: &mut Ctx) -> f64 {
        let mut term =
            |d: i8| *ctx.majority[kind][(d + 1) as usize].get_or_insert_with(|| self.majority_term(p, kind, p, d));
        term(delta) - term(0)
    }

    /// The cost of one more redesign: doubles with each redesign since the last money
    /// taken or tile bought.
    fn churn(&self) -> f64 {
        CHURN * 2f64.powi(self.redesigns_in_a_row.min(30) as i32)
    }

    fn scorings_left(&self) -> f64 {
        (3 - self.scorings_done) as f64
    }

    /// Change of the acting player's longest wall if their city becomes `after`,
    /// weighted by the scorings left.
    fn wall_gain(&self, after: u32, ctx: &mut Ctx) -> f64 {
        let rule = self.v.wall_rule;
        let base = *ctx.wall.get_or_insert_with(|| self.players[self.current].city.longest_wall(rule));
        (after as f64 - base as f64) * self.scorings_left()
    }

    fn place_gain(&self, p: usize, tile: u8, x: i8, y: i8, ctx: &mut Ctx) -> f64 {
        let city = &self.players[p].city;
        let kind = TILES[tile as usize].kind as usize;
        let wall = if city.placement_changes_walls(tile, x as i32, y as i32) {
            self.wall_gain(city.wall_with(tile, x as i32, y as i32, self.v.wall_rule), ctx)
        } else {
            0.0
        };
        self.majority_gain(p, kind, 1, ctx) + wall
    }

    /// Building counts per kind of every city (Dirk's at index `n`), with the tiles the current
    /// player has bought and not yet placed counted as theirs if `pending`.
    fn city_counts(&self, pending: bool) -> [[u8; N_KINDS]; MAX_PLAYERS + 1] {
        let mut counts = [[0u8; N_KINDS]; MAX_PLAYERS + 1];
        for (c, pl) in counts.iter_mut().zip(&self.players) {
            *c = pl.city.kind_counts;
        }
        counts[self.n] = self.dirk_counts;
        if pending {
            for t in bits(self.pending) {
                counts[self.current][TILES[t as usize].kind as usize] += 1;
            }
        }
        counts
    }

    /// Each player's majority points of every scoring still to come with the cities of
    /// `counts` as they are (Dirk included when he plays).
    fn majorities_to_come(&self, counts: &[[u8; N_KINDS]; MAX_PLAYERS + 1]) -> [f64; MAX_PLAYERS] {
        let parts = if self.v.dirk { self.n + 1 } else { self.n };
        let mut majority = [0.0; MAX_PLAYERS];
        for round in self.scorings_done as usize + 1..=3 {
            let mut pts = [0i64; MAX_PLAYERS + 1];
            majority_points(&counts[..parts], round, &mut pts);
            for (m, v) in majority.iter_mut().zip(&pts[..self.n]) {
                *m += *v as f64;
            }
        }
        majority
    }

    /// Estimated final score of each player: the score so far, the majority points of
    /// every scoring still to come with the cities as they are (Dirk included), the
    /// longest wall for each of them, and the money held at the greedy's rate.
    pub fn score_estimate(&self) -> [f64; MAX_PLAYERS] {
        let mut est = self.majorities_to_come(&self.city_counts(false));
        for (p, pl) in self.players.iter().enumerate() {
            est[p] += self.scores[p] as f64
                + pl.city.longest_wall(self.v.wall_rule) as f64 * self.scorings_left()
                + (0..4).map(|c| currency_value(pl.sums[c], &pl.hand[c], self.market[c])).sum::<f64>();
        }
        est
    }

    fn base_money(&self, c: usize, ctx: &mut Ctx) -> f64 {
        let me = &self.players[self.current];
        *ctx.money[c].get_or_insert_with(|| currency_value(me.sums[c], &me.hand[c], self.market[c]))
    }

    fn greedy_value_in(&self, action: &Action, ctx: &mut Ctx) -> f64 {
        let p = self.current;
        let me: &Player = &self.players[p];
        match *action {
            Action::Pass => 0.0,
            Action::Take { mask } => {
                let mut sums = me.sums;
                let mut hand = me.hand;
                let mut touched = 0u8;
                for i in 0..self.display_len as usize {
                    if mask >> i & 1 == 1 {
                        let c: Card = self.display[i];
                        let (cur, v) = (c as usize / 9, c as usize % 9 + 1);
                        sums[cur] += v as u16;
                        hand[cur][v - 1] += 1;
                        touched |= 1 << cur;
                    }
                }
                (0..4)
                    .filter(|c| touched >> c & 1 == 1)
                    .map(|c| currency_value(sums[c], &hand[c], self.market[c]) - self.base_money(c, ctx))
                    .sum()
            }
            Action::Buy { space, pay } => {
                let s = space as usize;
                let tile = self.market[s];
                let price = TILES[tile as usize].price as u16;
                let mut cards = me.hand[s];
                let mut paid = 0u16;
                for v in 1..=9 {
                    cards[v - 1] -= pay[v - 1];
                    paid += v as u16 * pay[v - 1] as u16;
                }
                let cost = self.base_money(s, ctx) - currency_value(me.sums[s] - paid, &cards, NO_TILE);
                let kind = TILES[tile as usize].kind as usize;
                let use_it = if me.city.has_legal_square(tile, self.v.hole_rule) {
                    self.majority_gain(p, kind, 1, ctx).max(RESERVE)
                } else {
                    RESERVE
                };
                let exact = if paid == price && self.phase == Phase::Act { EXACT } else { 0.0 };
                use_it + exact - cost
            }
            Action::Place { tile, x, y } => self.place_gain(p, tile, x, y, ctx),
            Action::Reserve { .. } => RESERVE,
            Action::Dirk { tile } => {
                // A different participant: the shared base of `ctx` is for the player.
                let kind = TILES[tile as usize].kind as usize;
                *ctx.dirk[kind].get_or_insert_with(|| {
                    self.majority_term(p, kind, self.n, 1) - self.majority_term(p, kind, self.n, 0)
                })
            }
            Action::ToCity { tile, x, y } => {
                let kind = TILES[tile as usize].kind as usize;
                let wall = me.city.segment_delta(x as i32, y as i32, None, Some(tile)) as f64 * self.scorings_left();
                REDESIGN_MAJORITY * self.majority_gain(p, kind, 1, ctx) + wall - RESERVE - self.churn()
            }
            Action::ToReserve { tile } => {
                let kind = TILES[tile as usize].kind as usize;
                let (x, y) = me.city.coords(tile);
                let wall = me.city.segment_delta(x, y, Some(tile), None) as f64 * self.scorings_left();
                REDESIGN_MAJORITY * self.majority_gain(p, kind, -1, ctx) + wall + RESERVE - self.churn()
            }
            Action::Swap { out, inn } => {
                let (ko, ki) = (TILES[out as usize].kind as usize, TILES[inn as usize].kind as usize);
                let maj =
                    if ko == ki { 0.0 } else { self.majority_gain(p, ki, 1, ctx) + self.majority_gain(p, ko, -1, ctx) };
                let (x, y) = me.city.coords(out);
                let wall = me.city.segment_delta(x, y, Some(out), Some(inn)) as f64 * self.scorings_left();
                REDESIGN_MAJORITY * maj + wall - self.churn()
            }
        }
    }
}

/// The greedy evaluation and the win estimate of Alhambra (see the module docs).
impl Evaluate for Alhambra {
    /// Measured: 0.416 [0.371, 0.462] with reuse against reuse=0 (`bench/results/reuse-alhambra.json`).
    const MCTS_DEFAULTS: &'static str = "reuse=0";
    /// Measured (`bench/equal_time.py alhambra --old mcts --new xmcts --params P --ms MS`, seed 23):
    /// at 5 ms (200 paired games) `widen` 0.15 0.765, 0.2 0.743 [0.687, 0.798], 0.3 0.710, 0.5 (the
    /// general default) 0.590, 0.7 0.460; at 50 ms (100 games) 0.15 0.620, 0.2 0.645, 0.25 0.595, 0.3
    /// 0.506 (400 games, seed 101). Fewer candidates pay at both budgets, down to 0.2 at 50 ms (where
    /// the cost lies is not known: a wide root with 0.2 inside the tree measured no cost at 50 ms).
    /// Fresh seeds, 400 games each: 0.693 [0.647, 0.738] at 5 ms (seed 101); at 50 ms 0.641 (101)
    /// and 0.630 (202), pooled 0.636 [0.603, 0.668]. Mostly the setting itself: `mcts:widen=0.3`
    /// beats `mcts` 0.682 at 5 ms (README, *Alhambra's narrower widening*, *Fewer candidates at 50 ms*).
    /// With the progress features of [`FEATURES`] (seed 404, 400 games, a half-speed machine where
    /// 100 ms buys the iterations 50 ms bought): 0.680 [0.638, 0.722] at 100 ms, 0.693 at 10 ms
    /// (README, *Leads that change with the game's progress*).
    const XMCTS_DEFAULTS: &'static str = "widen=0.2";

    /// The greedy score of `action` for the player to act (see the module docs).
    fn greedy_value(&self, _player: usize, action: &Action) -> f64 {
        self.greedy_value_in(action, &mut Ctx::default())
    }

    /// Greedy scores of many actions of one decision (sharing the base values).
    fn greedy_values(&self, _player: usize, actions: &[Action], out: &mut Vec<f64>) {
        let mut ctx = Ctx::default();
        out.extend(actions.iter().map(|a| self.greedy_value_in(a, &mut ctx)));
    }

    const FEATURE_NAMES: &'static [&'static str] = FEATURES;
    const EVAL_WEIGHTS: &'static str = include_str!("alhambra_eval_weights.txt");

    /// See [`FEATURES`]: public counts, the player's own hand, never another player's cards.
    fn features(&self, player: usize, out: &mut [f32]) {
        let n = self.n;
        let counts = self.city_counts(true);
        let majority = self.majorities_to_come(&counts);
        let (mut score, mut wall, mut cards, mut tiles, mut reserve, mut est) = (
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
        );
        for (q, pl) in self.players.iter().enumerate().take(n) {
            score[q] = self.scores[q] as f64;
            wall[q] = pl.city.longest_wall(self.v.wall_rule) as f64 * self.scorings_left();
            cards[q] = pl.cards as f64;
            tiles[q] = counts[q].iter().map(|&c| c as f64).sum();
            reserve[q] = pl.reserve.count_ones() as f64;
            est[q] = score[q] + majority[q] + wall[q];
        }
        let me = &self.players[player];
        let money: f64 = (0..4).map(|c| currency_value(me.sums[c], &me.hand[c], self.market[c])).sum();
        let (done, deck) = (self.scorings_done as f32 / 3.0, self.deck.len() as f32 / 100.0);
        let values = [
            done,
            deck,
            lead(&score, player, n) / 10.0,
            lead(&majority, player, n) / 10.0,
            lead(&wall, player, n) / 10.0,
            lead(&est, player, n) / 10.0,
            money as f32 / 10.0,
            lead(&cards, player, n),
            lead(&tiles, player, n),
            lead(&reserve, player, n),
            f32::from(u8::from(self.seat(player) == 0)),
        ];
        let (base, by) = out.split_at_mut(values.len());
        base.copy_from_slice(&values);
        let (by_deck, by_done) = by.split_at_mut(PROGRESS_LEADS.len());
        for (i, &lead) in values[PROGRESS_LEADS].iter().enumerate() {
            by_deck[i] = lead * deck;
            by_done[i] = lead * done;
        }
    }

    /// [`Alhambra::score_estimate`] with a softmax scale of `WIN_SCALE` points (for two
    /// players, a logistic in the score difference).
    fn estimated_scores(&self) -> Option<ScoreEstimate> {
        let mut scores = [0.0; MAX_SEATS];
        scores[..self.n].copy_from_slice(&self.score_estimate()[..self.n]);
        Some(ScoreEstimate { n: self.n, scores, scale: WIN_SCALE })
    }
}
