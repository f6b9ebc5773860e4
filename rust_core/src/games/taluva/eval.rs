//! The evaluation behind the `greedy` agent (and greedy rollouts and priors of `mcts`).
//!
//! `greedy` looks one ply ahead: each action is scored by the change it makes to the
//! acting player `p`'s prospects, from local features only (the hexes an action touches
//! and their neighbours), so a decision with hundreds of placements costs a few
//! microseconds. The map, supplies and settlements are public; nothing reads the order of
//! the tile stack. In order of weight:
//!
//! 1. **Winning now**: a build that empties a second kind of `p`'s supply ends the game
//!    ([`WIN`]).
//! 2. **Temples and towers first**: a temple is worth [`TEMPLE`], a tower [`TOWER`]; a
//!    placement that creates `p`'s first tower site (an empty hex of level >= 3 next to
//!    one of `p`'s settlements without a tower, while `p` has a tower left) is worth
//!    [`NEW_TOWER_SITE`] (the tower can be built in the same turn), one that creates a
//!    temple site when `p` has none [`NEW_TEMPLE_SITE`]; another tower site when `p` is
//!    down to 3 huts is worth [`SPARE_SITE`]. Without huts, a placement after which `p`
//!    could not build (and would be eliminated) is tried on a copy and costs [`WIN`].
//! 3. **Settlement growth**: huts placed ([`HUT`] each, [`HUT_ENDGAME`] once temples or
//!    towers are all built, when the last hut wins), hexes gained ([`HEX`] each), a
//!    settlement reaching 3 hexes without a temple when `p` has no temple site
//!    ([`ENABLE_TEMPLE`]), a settlement reaching an empty level->= 3 hex without a tower
//!    when `p` has no tower site ([`ENABLE_TOWER`]) or an empty level-2 hex (one eruption
//!    from a tower site, [`TOWER_PREP`]), a settlement without a temple growing towards 3
//!    hexes ([`GROW`] per hex, up to 3), level-2 hexes raised next to `p`'s settlements
//!    without a tower ([`LEVEL_TWO`]), new land next to them ([`NEW_LAND`]).
//! 4. **Keeping huts in reserve / the danger of running out**: a player who cannot build
//!    is eliminated, so spending huts below [`RESERVE`] costs
//!    `DANGER * (RESERVE - left)^2` (minus the same for the huts before the action),
//!    except once temples or towers are all built (then emptying the huts wins).
//! 5. **Denying opponents**: building on an opponent's temple site ([`DENY_TEMPLE`]) or
//!    tower site ([`DENY_TOWER`]); an eruption that raises a hex to level 3 next to an
//!    opponent's settlement that could take a tower costs [`GIFT_TOWER`] per opponent;
//!    destroying an opponent's huts gains [`KILL`] per hex (more, [`KILL_TEMPLE`], when
//!    the settlement could have taken a temple and drops below 3 hexes); losing one's own
//!    costs [`LOSS`] per hut.
//!
//! [`Taluva::estimate`] turns a similar material count into win shares for `mcts`.

use super::hex::{self, tile_hexes, EMPTY, NONE};
use super::moves::CellSet;
use super::state::{Action, Taluva, HUTS, MAX_PLAYERS};
use crate::game::{lead, Evaluate};

pub const WIN: f64 = 10_000.0;
pub const TEMPLE: f64 = 100.0;
pub const TOWER: f64 = 80.0;
pub const NEW_TOWER_SITE: f64 = 60.0;
pub const NEW_TEMPLE_SITE: f64 = 25.0;
pub const SPARE_SITE: f64 = 20.0;
pub const HUT: f64 = 0.3;
pub const HUT_ENDGAME: f64 = 6.0;
pub const HEX: f64 = 0.5;
pub const ENABLE_TEMPLE: f64 = 30.0;
pub const ENABLE_TOWER: f64 = 25.0;
pub const LEVEL_TWO: f64 = 8.0;
pub const GROW: f64 = 4.0;
pub const TOWER_PREP: f64 = 4.0;
pub const NEW_LAND: f64 = 0.5;
pub const RESERVE: i32 = 8;
pub const DANGER: f64 = 4.0;
pub const DENY_TEMPLE: f64 = 8.0;
pub const DENY_TOWER: f64 = 10.0;
pub const GIFT_TOWER: f64 = 15.0;
pub const KILL: f64 = 4.0;
pub const KILL_TEMPLE: f64 = 10.0;
pub const LOSS: f64 = 3.0;

/// What the actions of one decision share.
pub struct Ctx {
    p: usize,
    /// Tower and temple sites of `p` now.
    my_tower_sites: u32,
    my_temple_sites: u32,
    /// Hexes that are a tower or temple site of some opponent.
    opp_tower: CellSet,
    opp_temple: CellSet,
    endgame: bool,
}

/// The features of a position (see [`Evaluate::features`]); leads are against the best
/// opponent. Tiles left (/10); the leads in temples, towers and huts built (/5); huts left
/// (/10) and their shortage below the reserve (squared, /10); holding a tower site and a
/// temple site (own and lead); kinds completed (lead); one building from a second kind
/// with a site for it (own and lead); eliminated (−1); start player.
pub const FEATURES: &[&str] = &[
    "tiles_left",
    "temple_lead",
    "tower_lead",
    "hut_lead",
    "huts_left",
    "hut_shortage",
    "tower_site",
    "tower_site_lead",
    "temple_site",
    "temple_site_lead",
    "kinds_lead",
    "near_win",
    "near_win_lead",
    "eliminated",
    "start_player",
];

fn danger(left: i32) -> f64 {
    let short = (RESERVE - left).max(0) as f64;
    DANGER * short * short
}

impl Taluva {
    pub fn eval_ctx(&self, p: usize) -> Ctx {
        let mut c = Ctx {
            p,
            my_tower_sites: 0,
            my_temple_sites: 0,
            opp_tower: CellSet::default(),
            opp_temple: CellSet::default(),
            endgame: self.players[p].temples == 0 || self.players[p].towers == 0,
        };
        for &h in self.map.land_cells() {
            if !self.map.is_free(h) {
                continue;
            }
            c.my_tower_sites += u32::from(self.tower_ok(p, h));
            c.my_temple_sites += u32::from(self.temple_ok(p, h));
            for o in (0..self.n).filter(|&o| o != p && self.players[o].is_in()) {
                if self.tower_ok(o, h) {
                    c.opp_tower.insert(h);
                }
                if self.temple_ok(o, h) {
                    c.opp_temple.insert(h);
                }
            }
        }
        c
    }

    /// Whether hex `h` touches a settlement of `who` without a tower, ignoring huts on
    /// the hexes in `gone`.
    fn touches_towerless(&self, h: u16, who: usize, gone: &[u16]) -> bool {
        let s = &self.settlements;
        self.map.nb[h as usize].iter().any(|&y| {
            y != NONE
                && self.map.owner[y as usize] == who as u8
                && !gone.contains(&y)
                && !s.has_tower[s.label[y as usize] as usize]
        })
    }

    fn eval_place(&self, c: &Ctx, q: i16, r: i16, rot: u8) -> f64 {
        let p = c.p;
        let hexes = tile_hexes(q, r, rot as usize);
        let v = self.map.find(q, r);
        let mut val = 0.0;
        if self.map.is_land(v) {
            let cells = [self.map.find(hexes[1].0, hexes[1].1), self.map.find(hexes[2].0, hexes[2].1)];
            let mut gone = [NONE; 2];
            for (i, &h) in cells.iter().enumerate() {
                if self.map.building[h as usize] == hex::HUT {
                    gone[i] = h;
                }
            }
            let mut new_site = false;
            for &h in &cells {
                let hi = h as usize;
                let lvl = self.map.level[hi] + 1;
                if self.map.building[hi] == hex::HUT {
                    let o = self.map.owner[hi] as usize;
                    if o == p {
                        val -= LOSS * lvl as f64;
                    } else {
                        let s = self.settlements.label[hi] as usize;
                        let size = self.settlements.size[s];
                        let covered = 1 + u8::from(gone.iter().filter(|&&g| g != NONE).count() == 2);
                        let could = size >= 3 && !self.settlements.has_temple[s] && self.players[o].temples > 0;
                        val += if could && size - covered < 3 { KILL_TEMPLE } else { KILL };
                    }
                }
                if lvl >= 3 {
                    if self.players[p].towers > 0 && self.touches_towerless(h, p, &gone) {
                        new_site = true;
                    }
                    for o in (0..self.n).filter(|&o| o != p && self.players[o].is_in() && self.players[o].towers > 0) {
                        if self.touches_towerless(h, o, &gone) && !c.opp_tower.contains(h) {
                            val -= GIFT_TOWER;
                        }
                    }
                } else if lvl == 2 && self.players[p].towers > 0 && self.touches_towerless(h, p, &gone) {
                    val += LEVEL_TWO;
                }
            }
            if new_site {
                val += if c.my_tower_sites == 0 {
                    NEW_TOWER_SITE
                } else if self.players[p].huts <= 3 {
                    SPARE_SITE
                } else {
                    3.0
                };
            }
        } else {
            // New land: next to own settlements it widens expansions (and may open a temple site).
            let mut temple_site = false;
            for &(hq, hr) in &hexes[1..] {
                let h = self.map.find(hq, hr);
                if h == NONE {
                    continue;
                }
                for &y in &self.map.nb[h as usize] {
                    if y == NONE || self.map.building[y as usize] == EMPTY {
                        continue;
                    }
                    let o = self.map.owner[y as usize] as usize;
                    if o == p {
                        val += NEW_LAND;
                        let s = self.settlements.label[y as usize] as usize;
                        temple_site |= self.settlements.size[s] >= 3 && !self.settlements.has_temple[s];
                    } else {
                        val -= NEW_LAND * 0.5;
                    }
                }
            }
            if temple_site && c.my_temple_sites == 0 && self.players[p].temples > 0 {
                val += NEW_TEMPLE_SITE;
            }
        }
        val
    }

    /// Value of own huts put on the hexes of `set` (`huts` in all), the settlement(s)
    /// they join included.
    fn eval_huts(&self, c: &Ctx, set: &[u16], huts: u8) -> f64 {
        let p = c.p;
        let me = &self.players[p];
        let left = me.huts as i32 - huts as i32;
        let mut val = if c.endgame { HUT_ENDGAME } else { HUT } * huts as f64 + HEX * set.len() as f64;
        if !c.endgame {
            val -= danger(left) - danger(me.huts as i32);
        }
        if (left == 0 && self.lost_huts_count(p) && self.kinds_done(p) >= 1) || (me.temples == 0 && me.towers == 0) {
            return val + WIN;
        }
        // The settlement after: own settlements touching the new hexes, merged.
        let s = &self.settlements;
        let mut joined = [u8::MAX; 8];
        let mut nj = 0;
        let (mut size, mut temple, mut tower) = (set.len() as u32, false, false);
        let (mut tower_spot, mut tower_prep) = (false, false);
        for &h in set {
            if c.opp_tower.contains(h) {
                val += DENY_TOWER;
            }
            if c.opp_temple.contains(h) {
                val += DENY_TEMPLE;
            }
            for &y in &self.map.nb[h as usize] {
                if y == NONE {
                    continue;
                }
                let yi = y as usize;
                if self.map.owner[yi] == p as u8 {
                    let k = s.label[yi];
                    if !joined[..nj].contains(&k) && nj < joined.len() {
                        joined[nj] = k;
                        nj += 1;
                        size += s.size[k as usize] as u32;
                        temple |= s.has_temple[k as usize];
                        tower |= s.has_tower[k as usize];
                    }
                } else if self.map.level[yi] >= 3 && self.map.is_free(y) && !set.contains(&y) {
                    tower_spot = true;
                } else if self.map.level[yi] == 2 && self.map.is_free(y) && !set.contains(&y) {
                    tower_prep = true;
                }
            }
        }
        if size >= 3 && !temple && me.temples > 0 && c.my_temple_sites == 0 {
            val += ENABLE_TEMPLE;
        }
        if tower_spot && !tower && me.towers > 0 && c.my_tower_sites == 0 {
            val += ENABLE_TOWER;
        }
        if tower_prep && !tower && me.towers > 0 {
            val += TOWER_PREP;
        }
        if !temple && me.temples > 0 {
            val += GROW * size.min(3) as f64;
        }
        val
    }

    fn eval_build(&self, c: &Ctx, a: Action) -> f64 {
        let me = &self.players[c.p];
        match a {
            Action::Temple { cell } | Action::Tower { cell } => {
                let is_temple = matches!(a, Action::Temple { .. });
                let done_after =
                    self.kinds_done(c.p) + u8::from(if is_temple { me.temples == 1 } else { me.towers == 1 });
                if done_after >= 2 {
                    return WIN;
                }
                let mut val = if is_temple { TEMPLE } else { TOWER };
                if c.opp_tower.contains(cell) {
                    val += DENY_TOWER;
                }
                if c.opp_temple.contains(cell) {
                    val += DENY_TEMPLE;
                }
                val
            }
            Action::Hut { cell } => self.eval_huts(c, &[cell], 1),
            Action::Expand { cell, terrain } => {
                let Some(s) = self.settlements.of(cell) else { return f64::NEG_INFINITY };
                let set = self.expansion_set(s, terrain);
                let mut cells = [0u16; 144];
                let mut k = 0;
                let mut huts = 0u8;
                for h in set.iter() {
                    cells[k] = h;
                    k += 1;
                    huts += self.map.level[h as usize];
                }
                self.eval_huts(c, &cells[..k], huts)
            }
            Action::Place { .. } => 0.0,
        }
    }

    /// The greedy value of each action of the current decision of `p`, appended to `out`.
    pub fn greedy_eval(&self, p: usize, actions: &[Action], out: &mut Vec<f64>) {
        let c = self.eval_ctx(p);
        // Without huts a placement that leaves no temple or tower site eliminates `p`:
        // then every placement is tried on a copy.
        let exact = self.players[p].huts == 0;
        let mut scratch = exact.then(|| {
            let mut h = self.clone();
            h.log = None;
            h
        });
        for &a in actions {
            out.push(match a {
                Action::Place { q, r, rot } => {
                    let mut v = self.eval_place(&c, q as i16, r as i16, rot);
                    if let Some(h) = scratch.as_mut() {
                        h.clone_from(self);
                        h.log = None;
                        h.play(a);
                        if !h.players[p].is_in() {
                            v -= WIN;
                        }
                    }
                    v
                }
                _ => self.eval_build(&c, a),
            });
        }
    }

    /// Estimated win shares: a softmax over a material count (temples 10, towers 7, huts
    /// 0.3 each, 3 for holding a tower site and 3 for a temple site), scale 4; eliminated
    /// players 0; a player one building from two kinds (with a site for it) is near 1.
    pub fn estimate(&self) -> Vec<f64> {
        let mut s = [f64::NEG_INFINITY; MAX_PLAYERS];
        for (p, v) in s.iter_mut().enumerate().take(self.n) {
            let me = &self.players[p];
            if !me.is_in() {
                continue;
            }
            let c = self.eval_ctx(p);
            *v = 10.0 * me.temples_built() as f64
                + 7.0 * me.towers_built() as f64
                + 0.3 * (HUTS - me.huts) as f64
                + 3.0 * f64::from(u8::from(c.my_tower_sites > 0))
                + 3.0 * f64::from(u8::from(c.my_temple_sites > 0))
                - 0.2 * danger(me.huts as i32);
            let near = self.kinds_done(p) == 1
                && ((me.temples == 1 && c.my_temple_sites > 0) || (me.towers == 1 && c.my_tower_sites > 0));
            if near {
                *v += 20.0;
            }
        }
        let best = s[..self.n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> =
            s[..self.n].iter().map(|&x| if x.is_finite() { ((x - best) / 4.0).exp() } else { 0.0 }).collect();
        let total: f64 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    }
}

impl Evaluate for Taluva {
    /// Measured: `bench/tune_mcts.py` (`bench/results/tune-mcts.json`).
    const MCTS_DEFAULTS: &'static str = "bias=3";

    fn greedy_value(&self, player: usize, action: &Action) -> f64 {
        let mut out = Vec::with_capacity(1);
        self.greedy_eval(player, std::slice::from_ref(action), &mut out);
        out[0]
    }
    /// The actions of one decision share [`Ctx`] (sites of every player).
    fn greedy_values(&self, player: usize, actions: &[Action], out: &mut Vec<f64>) {
        if !actions.is_empty() {
            self.greedy_eval(player, actions, out)
        }
    }
    fn win_estimate(&self) -> Option<Vec<f64>> {
        Some(self.estimate())
    }

    const FEATURE_NAMES: &'static [&'static str] = FEATURES;
    const EVAL_WEIGHTS: &'static str = include_str!("taluva_eval_weights.txt");

    /// See [`FEATURES`]: the board, the supplies and the tiles left (never the stack's order).
    fn features(&self, player: usize, out: &mut [f32]) {
        let n = self.n;
        let (mut temples, mut towers, mut huts, mut tower_site, mut temple_site, mut kinds, mut inn, mut near) = (
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
        );
        for q in 0..n {
            let me = &self.players[q];
            temples[q] = me.temples_built() as f64;
            towers[q] = me.towers_built() as f64;
            huts[q] = (HUTS - me.huts) as f64;
            kinds[q] = self.kinds_done(q) as f64;
            if !me.is_in() {
                continue;
            }
            inn[q] = 1.0;
            let c = self.eval_ctx(q);
            tower_site[q] = f64::from(u8::from(c.my_tower_sites > 0));
            temple_site[q] = f64::from(u8::from(c.my_temple_sites > 0));
            near[q] = f64::from(u8::from(
                kinds[q] == 1.0
                    && ((me.temples == 1 && c.my_temple_sites > 0) || (me.towers == 1 && c.my_tower_sites > 0)),
            ));
        }
        let me = &self.players[player];
        let values = [
            self.limit.saturating_sub(self.drawn) as f32 / 10.0,
            lead(&temples, player, n),
            lead(&towers, player, n),
            lead(&huts, player, n) / 5.0,
            me.huts as f32 / 10.0,
            (danger(me.huts as i32) / DANGER) as f32 / 10.0,
            tower_site[player] as f32,
            lead(&tower_site, player, n),
            temple_site[player] as f32,
            lead(&temple_site, player, n),
            lead(&kinds, player, n),
            near[player] as f32,
            lead(&near, player, n),
            inn[player] as f32 - 1.0,
            f32::from(u8::from(player == 0)),
        ];
        out.copy_from_slice(&values);
    }
}
