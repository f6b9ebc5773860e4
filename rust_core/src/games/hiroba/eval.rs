//! The evaluation behind the `greedy` agent (and greedy rollouts of `mcts`).
//!
//! `greedy` looks one ply ahead: each legal action is scored by how much it changes the
//! acting player `p`'s *projected position*, relative to the mean of the other players.
//! Hiroba has no hidden information, so the evaluation may read the whole state. The
//! projection has three parts, and an action changes only a few of their terms (the
//! garden of its cell, the ponds next to it, and mobility), so each action costs a few
//! hundred operations:
//!
//! * **gardens**: each player's chance `w` of being among the highest sums of a garden,
//!   times its cells. With `d` = their sum minus the best other sum and `room` = the most
//!   the garden's empty cells could still add to one player's sum (the largest numbers
//!   not yet in the garden, one per empty cell: the same-number rule caps a comeback),
//!   `w = clamp(0.5 + d / (2 (1 + room)), 0, 1)`: a lead larger than `room` is safe. A full
//!   garden is decided (`w` = 1 for the highest sums, ties included, as tied players all
//!   score it; 0 without a pebble).
//! * **kois**: for each pond, each player's chance of (sharing) the lowest sum among the
//!   players next to it, `w = clamp(0.5 + (d + 0.5) / (2 (2 + 4 open)), 0, 1)` with `d` =
//!   the lowest other sum minus theirs and `open` = empty cells next to the pond (decided
//!   when none is left; ties count as wins since tied players each get a koi; a player
//!   alone at a pond with open cells counts as 3 ahead; 0 without a pebble there), times
//!   [`KOI`] points (a koi doubles a won garden of 2–6 cells, or scores 1 if it cannot be
//!   placed).
//! * **mobility**: [`MOBILITY`] per legal placement up to [`MOBILITY_CAP`], and
//!   [`STRANDED`] points lost per pebble in hand when a player in the pebble play has no
//!   legal placement (they would have to pass and lose those pebbles). This keeps line
//!   options open (which matters most with `line_rule = last`) and makes stones that strand
//!   an opponent valuable.
//!
//! A pebble changes its garden's sum and open cells, the ponds next to it, the placer's
//! lines and hand, and the other players' options (its cell and its number in that row,
//! column and garden). A stone changes open cells and everybody's options at its cell;
//! its value is that change minus [`KEEP_STONE`], the worth of keeping the stone for a
//! later turn, so greedy places a stone only when it clearly gains. Passing and declining
//! a stone are worth 0.

use super::board::{bit, cells, col_of, row_of, COL, NEIGHBOURS, N_GARDENS, ROW};
use super::scoring::pond_sums;
use super::state::{pebble_kind, Action, Hiroba, KIND_NUMBERS, MAX_PLAYERS, NUMBERS};
use super::variant::LineRule;
use crate::game::{lead, Evaluate};

/// Points a koi is worth in the projection.
pub const KOI: f64 = 2.5;
/// Points per legal placement, up to `MOBILITY_CAP` placements.
pub const MOBILITY: f64 = 0.1;
pub const MOBILITY_CAP: u32 = 10;
/// Points lost per pebble in hand when a player has no legal placement.
pub const STRANDED: f64 = 2.0;
/// The worth of keeping a stone for later.
pub const KEEP_STONE: f64 = 0.5;

/// The features of a position (see [`Evaluate::features`]); leads are against the best
/// opponent, in points /10 unless said. Progress (share of land cells filled); the garden
/// projection of the greedy evaluation (cells times the chance of the highest sum), the part
/// of it already decided (full gardens), the koi projection and their sum; legal placements
/// (lead and own, up to 30, /10); pebbles in hand (/5) and stones in hand (leads); whether
/// the player passed and the lead in that;
/// start player.
pub const FEATURES: &[&str] = &[
    "filled",
    "garden_lead",
    "decided_lead",
    "koi_lead",
    "projection_lead",
    "options_lead",
    "own_options",
    "hand_lead",
    "stones_lead",
    "passed",
    "passed_lead",
    "start_player",
];

/// Values shared by the actions of one decision.
pub struct Ctx {
    /// Legal placements of each player in the pebble play (0 for the others).
    options: [u32; MAX_PLAYERS],
}

/// The largest sum `open` more pebbles could add to a garden whose used numbers are
/// `used` (distinct numbers: the same-number rule).
fn headroom(used: u16, open: u32) -> u32 {
    let mut left = open;
    let mut sum = 0;
    let mut v = 9;
    while left > 0 && v > 0 {
        if used >> v & 1 == 0 {
            sum += v;
            left -= 1;
        }
        v -= 1;
    }
    sum
}

/// Each player's chance of holding (a share of) the highest sum of a garden whose
/// remaining cells could add at most `room` to anybody's sum.
fn garden_shares(sums: &[u8; MAX_PLAYERS], n: usize, room: u32) -> [f64; MAX_PLAYERS] {
    let mut w = [0.0; MAX_PLAYERS];
    for q in 0..n {
        let best_other = (0..n).filter(|&r| r != q).map(|r| sums[r]).max().unwrap_or(0);
        let d = sums[q] as f64 - best_other as f64;
        w[q] = if room == 0 {
            if sums[q] > 0 && d >= 0.0 {
                1.0
            } else {
                0.0
            }
        } else {
            (0.5 + d / (2.0 * (1.0 + room as f64))).clamp(0.0, 1.0)
        };
    }
    w
}

/// Each player's chance of (sharing) the lowest sum next to a pond.
fn koi_shares(sums: &[u16; MAX_PLAYERS], present: u8, n: usize, open: u32) -> [f64; MAX_PLAYERS] {
    let mut w = [0.0; MAX_PLAYERS];
    for q in 0..n {
        if present >> q & 1 == 0 {
            continue;
        }
        let other = (0..n).filter(|&r| r != q && present >> r & 1 == 1).map(|r| sums[r]).min();
        let d = match other {
            Some(m) => m as f64 - sums[q] as f64,
            None if open == 0 => 0.0,
            None => 3.0,
        };
        w[q] = if open == 0 {
            if d >= 0.0 {
                1.0
            } else {
                0.0
            }
        } else {
            (0.5 + (d + 0.5) / (2.0 * (2.0 + 4.0 * open as f64))).clamp(0.0, 1.0)
        };
    }
    w
}

/// `v[p]` minus the mean of the other players' values.
fn relative(v: &[f64; MAX_PLAYERS], p: usize, n: usize) -> f64 {
    let others: f64 = (0..n).filter(|&q| q != p).map(|q| v[q]).sum();
    v[p] - others / (n - 1) as f64
}

/// The mobility term of a player with `options` legal placements and `in_hand` pebbles.
fn mobility(options: u32, in_hand: u8) -> f64 {
    if in_hand == 0 {
        0.0
    } else if options == 0 {
        -STRANDED * in_hand as f64
    } else {
        MOBILITY * options.min(MOBILITY_CAP) as f64
    }
}

/// The greedy evaluation (the current player is the only one who acts). No win
/// estimate: `mcts` rollouts play Hiroba to the end.
impl Evaluate for Hiroba {
    /// Measured: random rollouts at equal CPU time per decision: 0.812 [0.760, 0.865] (`bench/tune_rollout.py`).
    const MCTS_DEFAULTS: &'static str = "rollout=random";
    /// Measured (`bench/equal_time.py hiroba --old mcts --new xmcts --params bias=B --ms 5`, 200
    /// paired games each, 400 at 10): `bias` 10 (the general default) 0.434, 3 0.593, 2 0.677, 1
    /// 0.738 [0.678, 0.797], 0.5 0.708, 0 0.680; confirmed on a fresh seed, 400 games: 0.637 [0.590,
    /// 0.685] at 5 and at 50 ms. (`mcts` itself gains from bias=1 too, 0.632 [0.570, 0.695]: most of
    /// the gain is the setting; `mcts` keeps its own as the yardstick.) `depth=20` (random rollouts
    /// twice as long before the learned value cuts them), with the weights refitted on
    /// `xmcts:iters=1000` games, 400 games each: 0.681 [0.639, 0.724] against 0.646 with `depth=10`
    /// at 50 ms (seed 23), 0.690 and 0.671 at 5 ms (seeds 23 and 101); the fresh-seed figures are
    /// in the README (*Hiroba's longer rollouts*).
    const XMCTS_DEFAULTS: &'static str = "bias=1,depth=20";

    fn greedy_value(&self, _player: usize, action: &Action) -> f64 {
        self.value_in(action, &self.eval_ctx())
    }

    const FEATURE_NAMES: &'static [&'static str] = FEATURES;
    const EVAL_WEIGHTS: &'static str = include_str!("hiroba_eval_weights.txt");

    /// See [`FEATURES`] (Hiroba has no hidden information).
    fn features(&self, player: usize, out: &mut [f32]) {
        let n = self.n;
        let (mut gardens, mut kois, mut decided) = ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
        for gi in 0..N_GARDENS {
            let cells_in = self.board.gardens[gi];
            let open = (cells_in & self.empty).count_ones();
            let w = garden_shares(&self.garden_sum[gi], n, headroom(self.garden_used[gi], open));
            let size = cells_in.count_ones() as f64;
            for q in 0..n {
                gardens[q] += size * w[q];
                if open == 0 {
                    decided[q] += size * w[q];
                }
            }
        }
        for pond in cells(self.board.ponds) {
            let (sums, present) = pond_sums(self, pond);
            let w = koi_shares(&sums, present, n, (NEIGHBOURS[pond] & self.empty).count_ones());
            for q in 0..n {
                kois[q] += KOI * w[q];
            }
        }
        let (mut options, mut hand, mut stones, mut passed) =
            ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
        for q in 0..n {
            let pl = &self.players[q];
            options[q] = if self.in_play(q) { self.placement_count(q).min(30) as f64 } else { 0.0 };
            hand[q] = pl.in_hand() as f64;
            stones[q] = pl.stones as f64;
            passed[q] = f64::from(u8::from(pl.passed));
        }
        let mut total = [0.0; MAX_PLAYERS];
        for (t, (g, k)) in total.iter_mut().zip(gardens.iter().zip(&kois)) {
            *t = g + k;
        }
        let land = self.board.land.count_ones().max(1) as f32;
        let values = [
            1.0 - self.empty.count_ones() as f32 / land,
            lead(&gardens, player, n) / 10.0,
            lead(&decided, player, n) / 10.0,
            lead(&kois, player, n) / 10.0,
            lead(&total, player, n) / 10.0,
            lead(&options, player, n) / 10.0,
            options[player] as f32 / 10.0,
            lead(&hand, player, n) / 5.0,
            lead(&stones, player, n),
            passed[player] as f32,
            lead(&passed, player, n),
            f32::from(u8::from(player == 0)),
        ];
        out.copy_from_slice(&values);
    }

    /// Greedy scores of many actions of one decision (sharing the players' option counts).
    fn greedy_values(&self, _player: usize, actions: &[Action], out: &mut Vec<f64>) {
        if actions.is_empty() {
            return;
        }
        let ctx = self.eval_ctx();
        out.extend(actions.iter().map(|a| self.value_in(a, &ctx)));
    }
}

impl Hiroba {
    fn eval_ctx(&self) -> Ctx {
        let mut options = [0; MAX_PLAYERS];
        for (q, o) in options.iter_mut().enumerate().take(self.n) {
            if self.in_play(q) {
                *o = self.placement_count(q);
            }
        }
        Ctx { options }
    }

    fn value_in(&self, action: &Action, ctx: &Ctx) -> f64 {
        match *action {
            Action::Pass | Action::NoStone => 0.0,
            Action::Place { cell, number } => self.fill_value(cell as usize, Some(number), ctx),
            Action::Stone { cell } => self.fill_value(cell as usize, None, ctx) - KEEP_STONE,
        }
    }

    /// The change of the projection when the current player fills `cell` with a pebble
    /// showing `number`, or with a stone (`None`).
    fn fill_value(&self, cell: usize, number: Option<u8>, ctx: &Ctx) -> f64 {
        let (p, n) = (self.current, self.n);
        let gi = self.board.garden_of[cell] as usize;
        let cells_in = self.board.gardens[gi];
        let open = (cells_in & self.empty).count_ones();
        let mut sums = self.garden_sum[gi];
        let mut used = self.garden_used[gi];
        let before = garden_shares(&sums, n, headroom(used, open));
        if let Some(v) = number {
            sums[p] += v;
            used |= 1 << v;
        }
        let after = garden_shares(&sums, n, headroom(used, open - 1));
        let size = cells_in.count_ones() as f64;
        let mut value = size * (relative(&after, p, n) - relative(&before, p, n));
        for pond in cells(NEIGHBOURS[cell] & self.board.ponds) {
            let (mut sums, mut present) = pond_sums(self, pond);
            let open = (NEIGHBOURS[pond] & self.empty).count_ones();
            let before = koi_shares(&sums, present, n, open);
            if let Some(v) = number {
                sums[p] += v as u16;
                present |= 1 << p;
            }
            let after = koi_shares(&sums, present, n, open - 1);
            value += KOI * (relative(&after, p, n) - relative(&before, p, n));
        }
        for q in 0..n {
            if !self.in_play(q) {
                continue;
            }
            let in_hand = self.players[q].in_hand();
            let (opts, hand_after) = if q == p && number.is_some() {
                (self.options_after_own(cell, number.unwrap_or(0)), in_hand - 1)
            } else {
                (ctx.options[q] - self.options_lost(q, cell, number), in_hand)
            };
            let change = mobility(opts, hand_after) - mobility(ctx.options[q], in_hand);
            value += if q == p { change } else { -change / (n - 1) as f64 };
        }
        value
    }

    /// The current player's legal placements (counted up to `MOBILITY_CAP`) after they
    /// place `number` on `cell`.
    fn options_after_own(&self, cell: usize, number: u8) -> u32 {
        let me = &self.players[self.current];
        let mut hand = me.hand;
        hand[pebble_kind(number)] -= 1;
        let hand_numbers =
            hand.iter().zip(KIND_NUMBERS).filter(|(h, _)| **h > 0).fold(0u16, |m, (_, numbers)| m | numbers);
        if hand_numbers == 0 {
            return 0;
        }
        let (r, c) = (row_of(cell), col_of(cell));
        let line = ROW[r] | COL[c];
        let reach = match self.line_rule {
            LineRule::Any => me.reach | line,
            LineRule::Last => line,
        };
        let shares = line | self.board.gardens[self.board.garden_of[cell] as usize];
        let nb = 1u16 << number;
        let mut count = 0;
        for t in cells(reach & self.empty & !bit(cell)) {
            let mut free = self.free_numbers(t);
            if shares >> t & 1 == 1 {
                free &= !nb;
            }
            count += (hand_numbers & free & NUMBERS).count_ones();
            if count >= MOBILITY_CAP {
                return count;
            }
        }
        count
    }

    /// Placements player `q` loses when `cell` is filled (with a pebble showing
    /// `number`, which also becomes unavailable in that row, column and garden).
    fn options_lost(&self, q: usize, cell: usize, number: Option<u8>) -> u32 {
        let targets = self.targets(q);
        let hand = self.hand_numbers(q);
        let mut lost = 0;
        if targets >> cell & 1 == 1 {
            lost += (hand & self.free_numbers(cell)).count_ones();
        }
        if let Some(v) = number {
            let nb = 1u16 << v;
            if hand & nb != 0 {
                let shares =
                    ROW[row_of(cell)] | COL[col_of(cell)] | self.board.gardens[self.board.garden_of[cell] as usize];
                for t in cells(targets & shares & !bit(cell)) {
                    if self.free_numbers(t) & nb != 0 {
                        lost += 1;
                    }
                }
            }
        }
        lost
    }
}
