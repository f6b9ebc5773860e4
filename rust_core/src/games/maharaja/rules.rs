//! Legal actions and their effects: set-up, wheels, turns, travel with tolls.

use super::map::{Map, N_CITIES, START};
use super::state::*;
use super::variant::Variant;
use crate::error::Result;
use crate::game::{Decision, Game};
use crate::options::{Files, OptionSpec};
use crate::rng::{below, Rng};
use serde_json::{json, Value};

/// Most cheapest routes to one city searched for `route = choose`.
pub const MAX_ROUTES: usize = 64;

/// The cheapest routes of one player from their architect's city.
#[derive(Debug, Clone, Copy)]
pub struct Routes {
    /// Toll of the cheapest passable route to each city (`i32::MAX` = none).
    pub cost: [i32; N_CITIES],
    /// The road by which the cheapest route enters each city (`u8::MAX` at the start).
    pub via: [u8; N_CITIES],
}

impl Maharaja {
    // ------------------------------------------------------------- travel

    /// Toll player `p` owes to pass `village` (`None`: impassable, no house there).
    #[inline]
    pub fn village_toll(&self, p: usize, village: usize) -> Option<i32> {
        match self.site_houses[village] {
            0 => None,
            _ if self.houses[village][p] > 0 => Some(0),
            total => Some(total as i32),
        }
    }

    /// Dijkstra over the cities from `p`'s architect: tolls as costs, roads through an
    /// empty village closed. Ties: the first route found (roads in file order).
    pub fn routes(&self, p: usize) -> Routes {
        let mut r = Routes { cost: [i32::MAX; N_CITIES], via: [u8::MAX; N_CITIES] };
        let mut done = [false; N_CITIES];
        r.cost[self.architect[p] as usize] = 0;
        loop {
            let mut best = None;
            for (c, &d) in done.iter().enumerate() {
                if !d && r.cost[c] != i32::MAX && best.is_none_or(|b: usize| r.cost[c] < r.cost[b]) {
                    best = Some(c);
                }
            }
            let Some(c) = best else { break };
            done[c] = true;
            for &ri in &self.map.city_roads[c] {
                let road = &self.map.roads[ri as usize];
                let mut toll = 0;
                let mut open = true;
                for v in road.villages() {
                    match self.village_toll(p, v) {
                        Some(t) => toll += t,
                        None => open = false,
                    }
                }
                let o = road.other(c);
                if open && r.cost[c] + toll < r.cost[o] {
                    r.cost[o] = r.cost[c] + toll;
                    r.via[o] = ri;
                }
            }
        }
        r
    }

    /// Whether `p` can afford a route of toll `cost` (the Wandering Monk's tolls are paid by
    /// the bank).
    pub fn affordable(&self, p: usize, cost: i32) -> bool {
        cost != i32::MAX && (self.holds(p, MONK) || cost <= self.gold[p])
    }

    /// The toll `p` owes on road `ri` (`None`: closed, a village on it holds no house).
    fn road_toll(&self, p: usize, ri: usize) -> Option<i32> {
        self.map.roads[ri].villages().map(|v| self.village_toll(p, v)).sum()
    }

    /// The roads of the first cheapest route to `city` (from `city` back to the architect).
    fn first_route(&self, r: &Routes, city: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = city;
        while r.via[at] != u8::MAX {
            out.push(r.via[at]);
            at = self.map.roads[r.via[at] as usize].other(at);
        }
        out
    }

    /// Gold `p` owes each owner along a route (roads as listed).
    pub fn route_payments(&self, p: usize, roads: &[u8]) -> [i32; MAX_PLAYERS] {
        let mut pay = [0; MAX_PLAYERS];
        for &ri in roads {
            for v in self.map.roads[ri as usize].villages() {
                if self.houses[v][p] == 0 {
                    for (q, owed) in pay.iter_mut().enumerate().take(self.n) {
                        *owed += self.houses[v][q] as i32;
                    }
                }
            }
        }
        pay
    }

    /// `route = choose`: the equally cheap routes of `p` to `city` that pay different owners
    /// (one route per distinct payment, the first found of each; roads from `city` back to
    /// the architect; the first [`MAX_ROUTES`] cheapest routes are searched).
    pub fn route_choices(&self, p: usize, r: &Routes, city: usize) -> Vec<Vec<u8>> {
        let mut all = Vec::new();
        self.cheapest_paths(p, r, city, &mut Vec::new(), 1 << city, &mut all);
        let mut seen: Vec<[i32; MAX_PLAYERS]> = Vec::with_capacity(all.len());
        all.retain(|roads| {
            let pay = self.route_payments(p, roads);
            let new = !seen.contains(&pay);
            seen.push(pay);
            new
        });
        all
    }

    /// Depth-first from `at` back to the architect over roads on which a cheapest route
    /// can arrive (cost of the far end + the road's toll = cost here), cities not repeated.
    fn cheapest_paths(&self, p: usize, r: &Routes, at: usize, path: &mut Vec<u8>, seen: u32, out: &mut Vec<Vec<u8>>) {
        if at == self.architect[p] as usize {
            out.push(path.clone());
            return;
        }
        for &ri in &self.map.city_roads[at] {
            if out.len() >= MAX_ROUTES {
                return;
            }
            let o = self.map.roads[ri as usize].other(at);
            if seen >> o & 1 == 1 || r.cost[o] == i32::MAX {
                continue;
            }
            if self.road_toll(p, ri as usize).is_some_and(|t| r.cost[o] + t == r.cost[at]) {
                path.push(ri);
                self.cheapest_paths(p, r, o, path, seen | 1 << o, out);
                path.pop();
            }
        }
    }

    /// Cities `p` may travel to now (bit set).
    pub fn travel_targets(&self, p: usize) -> u32 {
        if self.moved {
            return 0;
        }
        self.targets_by(p, &self.routes(p))
    }

    /// Cities `p` may travel to by the routes `r` (bit set).
    fn targets_by(&self, p: usize, r: &Routes) -> u32 {
        let here = self.architect[p] as usize;
        (0..N_CITIES).filter(|&c| c != here && self.affordable(p, r.cost[c])).fold(0, |m, c| m | 1 << c)
    }

    /// Moves `p`'s architect to `city` by cheapest route number `route` (see
    /// [`Action::Travel`]), paying the tolls (the bank pays for the Monk's holder unless
    /// `own_toll`).
    pub(crate) fn travel(&mut self, p: usize, city: usize, route: usize, own_toll: bool) {
        let r = self.routes(p);
        debug_assert!(self.affordable(p, r.cost[city]), "unaffordable route");
        let roads = if self.readings.choose_route {
            self.route_choices(p, &r, city).swap_remove(route)
        } else {
            self.first_route(&r, city)
        };
        let pay = self.route_payments(p, &roads);
        let monk = self.holds(p, MONK) && !own_toll;
        for (q, &k) in pay.iter().enumerate().take(self.n).filter(|(_, &k)| k > 0) {
            if monk {
                self.take_from_bank(q, k);
            } else {
                self.gold[p] -= k;
                self.gold[q] += k;
                self.stats[p].tolls_paid += k as u16;
            }
            self.stats[q].tolls_received += k as u16;
        }
        let from = self.architect[p] as usize;
        self.architect[p] = city as u8;
        self.moved = true;
        self.log_event(|g| {
            let mut at = city;
            let mut cities: Vec<&str> = vec![g.map.names[city].as_str()];
            for &ri in &roads {
                at = g.map.roads[ri as usize].other(at);
                cities.push(g.map.names[at].as_str());
            }
            debug_assert_eq!(at, from);
            cities.reverse();
            json!({"event": "travel", "position": p, "route": cities, "toll": r.cost[city],
                   "paid_to": pay[..g.n].to_vec(), "toll_paid_by": if monk { "bank" } else { "player" },
                   "gold": g.gold[..g.n].to_vec()})
        });
    }

    // ------------------------------------------------------------- sites

    /// Whether a house of `p` may be put on `site` now (a village with room, or the
    /// architect's city when it is not the starting city).
    #[inline]
    pub fn house_site_ok(&self, p: usize, site: usize) -> bool {
        if Map::is_village(site) {
            site < self.map.n_sites() && self.site_houses[site] < self.village_limit()
        } else {
            site == self.architect[p] as usize && site != START
        }
    }

    /// Sites for a new house of `p`: the architect's city (if not the start) then villages.
    pub fn house_sites(&self, p: usize, out: &mut Vec<u8>) {
        let a = self.architect[p] as usize;
        if a != START {
            out.push(a as u8);
        }
        let limit = self.village_limit();
        out.extend(self.map.villages().filter(|&v| self.site_houses[v] < limit).map(|v| v as u8));
    }

    fn in_scoring_city(&self, p: usize) -> bool {
        self.architect[p] as usize != START
    }

    pub fn can_build_palace(&self, p: usize) -> bool {
        let c = self.architect[p] as usize;
        c != START
            && self.palaces_built[p] < PALACES
            && self.city_palaces[c] < self.palace_spaces()
            && !(self.one_palace_per_city && self.palaces[c][p] > 0)
            && self.gold[p] >= self.palace_cost(p)
    }

    /// `powers = optional`: whether the Artisan's holder may also pay the full price.
    fn full_price_open(&self, p: usize) -> bool {
        self.readings.powers_optional && self.holds(p, ARTISAN) && self.gold[p] >= PALACE_COST
    }

    // ------------------------------------------------------------- which steps are open

    /// Whether step `op` can be started by `p` now from `by` (some choice of it is legal).
    pub fn op_open(&self, p: usize, wheel: u8, by: Source) -> bool {
        let paid = by != Source::Builder;
        let has_house = self.supply[p] > 0;
        match wheel {
            GOLD => true,
            HOUSE => has_house && (!paid || self.gold[p] >= 1) && self.has_house_site(p),
            TWO_HOUSES => {
                has_house && self.in_scoring_city(p) && self.gold[p] >= 1 && (by == Source::Wheel || self.full_two(p))
            }
            MOVE_HOUSE => self.can_move_house(p),
            QUARRY => self.quarry[p] >= if by == Source::Token { 2 } else { 1 },
            PALACE => self.can_build_palace(p),
            PALACE_HOUSE => {
                self.can_build_palace(p) && (by == Source::Wheel || (has_house && self.gold[p] > self.palace_cost(p)))
            }
            GOVERNOR => true,
            CHARACTER => !self.character_done && self.character_open(p),
            _ => false,
        }
    }

    /// Whether some site can take a new house of `p`.
    pub fn has_house_site(&self, p: usize) -> bool {
        let limit = self.village_limit();
        self.in_scoring_city(p) || self.map.villages().any(|v| self.site_houses[v] < limit)
    }

    /// Whether `p` has a house on the board and somewhere else to put it.
    pub fn can_move_house(&self, p: usize) -> bool {
        let on_board: u32 = (1..self.map.n_sites()).map(|s| self.houses[s][p] as u32).sum();
        if on_board == 0 {
            return false;
        }
        let a = self.architect[p] as usize;
        if a != START && on_board > self.houses[a][p] as u32 {
            return true;
        }
        let limit = self.village_limit();
        self.map.villages().any(|v| self.site_houses[v] < limit && on_board > self.houses[v][p] as u32)
    }

    fn full_two(&self, p: usize) -> bool {
        self.supply[p] >= 2 && self.gold[p] >= 2
    }

    fn character_open(&self, p: usize) -> bool {
        if !self.advanced_2 {
            return true;
        }
        self.bank_chars != 0
            || (0..self.n).any(|q| q != p && self.chars[q].count_ones() > self.chars[p].count_ones())
            || (0..self.n).any(|q| q != p && self.chars[q] != 0)
    }

    fn turn_kinds(&self, p: usize) -> u32 {
        if self.power_offer != 0 {
            return 1 << KIND_POWER;
        }
        let mut k = 1 << KIND_END;
        if self.travel_targets(p) != 0 {
            k |= 1 << KIND_TRAVEL;
        }
        for w in self.remaining {
            if w != NONE && self.op_open(p, w, Source::Wheel) {
                k |= 1 << (KIND_OP + w as u32);
            }
        }
        if self.holds(p, BUILDER) && !self.builder_used {
            for w in [HOUSE, MOVE_HOUSE] {
                if self.op_open(p, w, Source::Builder) {
                    k |= 1 << (KIND_OP + w as u32);
                }
            }
        }
        if self.tokens[p] > 0 && !self.token_used {
            for w in 0..CHARACTER {
                if self.op_open(p, w, Source::Token) {
                    k |= 1 << (KIND_OP + w as u32);
                }
            }
        }
        k
    }

    // ------------------------------------------------------------- legal actions

    fn bid_actions(&self, p: usize, out: &mut Vec<Action>) {
        let a = self.auction;
        let opening = a.high_bidder == NONE;
        let lo = if opening { 0 } else { a.high as i32 + 1 };
        let hi = self.gold[p].min(u8::MAX as i32 - 1);
        out.extend((lo..=hi).map(|x| Action::Bid { amount: x as u8 }));
        if !opening {
            out.push(Action::Pass);
        }
    }

    fn turn_actions(&self, p: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        let want = |k: u32| kind.is_none_or(|x| x == k);
        if self.power_offer != 0 {
            if want(KIND_POWER) {
                let card = self.power_offer.trailing_zeros() as u8;
                out.extend([true, false].map(|used| Action::Power { card, used }));
            }
            return;
        }
        if want(KIND_TRAVEL) {
            self.travel_actions(p, out);
        }
        let mut sources = [None; 3];
        for (slot, w) in self.remaining.iter().enumerate() {
            if *w != NONE && (slot == 0 || self.remaining[0] != *w) {
                sources[slot] = Some((*w, Source::Wheel));
            }
        }
        for (w, by) in sources.into_iter().flatten() {
            if want(KIND_OP + w as u32) && self.op_open(p, w, by) {
                self.op_actions(p, w, by, out);
            }
        }
        if self.holds(p, BUILDER) && !self.builder_used {
            for w in [HOUSE, MOVE_HOUSE] {
                if want(KIND_OP + w as u32) && self.op_open(p, w, Source::Builder) {
                    self.op_actions(p, w, Source::Builder, out);
                }
            }
        }
        if self.tokens[p] > 0 && !self.token_used {
            for w in 0..CHARACTER {
                if want(KIND_OP + w as u32) && self.op_open(p, w, Source::Token) {
                    self.op_actions(p, w, Source::Token, out);
                }
            }
        }
        if want(KIND_END) {
            out.push(Action::EndTurn);
        }
    }

    /// Travel to each city `p` can reach: one action per route choice, and (`powers =
    /// optional`) the Monk's holder paying the tolls himself where he can.
    fn travel_actions(&self, p: usize, out: &mut Vec<Action>) {
        if self.moved {
            return;
        }
        let r = self.routes(p);
        let t = self.targets_by(p, &r);
        let own = self.readings.powers_optional && self.holds(p, MONK);
        for c in (0..N_CITIES).filter(|c| t >> c & 1 == 1) {
            let routes = if self.readings.choose_route { self.route_choices(p, &r, c).len() } else { 1 };
            let pay_own = own && r.cost[c] > 0 && r.cost[c] <= self.gold[p];
            for route in 0..routes as u8 {
                for own_toll in [false, true].into_iter().take(1 + pay_own as usize) {
                    out.push(Action::Travel { city: c as u8, route, own_toll });
                }
            }
        }
    }

    /// The choices of wheel action `w` (open for `p` from `by`).
    fn op_actions(&self, p: usize, w: u8, by: Source, out: &mut Vec<Action>) {
        let push = |out: &mut Vec<Action>, op: Op| out.push(Action::Do { op, by });
        let mut sites = Vec::with_capacity(64);
        match w {
            GOLD => push(out, Op::Gold),
            HOUSE => {
                self.house_sites(p, &mut sites);
                for &s in &sites {
                    push(out, Op::House { site: s });
                }
            }
            TWO_HOUSES => {
                // The second house: the same city or a village with room.
                self.house_sites(p, &mut sites);
                if self.full_two(p) {
                    for &s in &sites {
                        push(out, Op::TwoHouses { second: s });
                    }
                }
                if by == Source::Wheel {
                    push(out, Op::TwoHouses { second: NONE });
                }
            }
            MOVE_HOUSE => {
                let a = self.architect[p] as usize;
                let limit = self.village_limit();
                for from in (1..N_CITIES).chain(self.map.villages()) {
                    if self.houses[from][p] == 0 {
                        continue;
                    }
                    if a != START && a != from {
                        push(out, Op::MoveHouse { from: from as u8, to: a as u8 });
                    }
                    for v in self.map.villages() {
                        if v != from && self.site_houses[v] < limit {
                            push(out, Op::MoveHouse { from: from as u8, to: v as u8 });
                        }
                    }
                }
            }
            QUARRY => push(out, Op::Quarry),
            PALACE => {
                push(out, Op::Palace { full_price: false });
                if self.full_price_open(p) {
                    push(out, Op::Palace { full_price: true });
                }
            }
            PALACE_HOUSE => {
                let full = [false, true].into_iter().take(1 + self.full_price_open(p) as usize);
                for full_price in full {
                    let cost = if full_price { PALACE_COST } else { self.palace_cost(p) };
                    if self.supply[p] > 0 && self.gold[p] > cost {
                        sites.clear();
                        self.house_sites(p, &mut sites);
                        for &s in &sites {
                            push(out, Op::PalaceHouse { site: s, full_price });
                        }
                    }
                    if by == Source::Wheel {
                        push(out, Op::PalaceHouse { site: NONE, full_price });
                    }
                }
            }
            GOVERNOR => {
                for i in 1..super::state::TRACK_LEN {
                    let c = self.track[i];
                    if c != EMPTY {
                        push(out, Op::Governor { city: c });
                    }
                }
            }
            CHARACTER => self.character_actions(p, by, out),
            _ => {}
        }
    }

    fn character_actions(&self, p: usize, by: Source, out: &mut Vec<Action>) {
        let push = |out: &mut Vec<Action>, op: Op| out.push(Action::Do { op, by });
        if !self.advanced_2 {
            for c in 0..N_CHARACTERS {
                let available = self.bank_chars >> c & 1 == 1 || self.holder(c).is_some_and(|q| q != p);
                if available {
                    push(out, Op::Character { take: c as u8, give: NONE });
                }
            }
            return;
        }
        for c in bits(self.bank_chars) {
            push(out, Op::Character { take: c as u8, give: NONE });
        }
        if self.bank_chars == 0 {
            for q in (0..self.n).filter(|&q| q != p) {
                for c in bits(self.chars[q]) {
                    for d in bits(self.chars[p]) {
                        push(out, Op::Character { take: c as u8, give: d as u8 });
                    }
                }
            }
        }
        let mine = self.chars[p].count_ones();
        for q in (0..self.n).filter(|&q| q != p && self.chars[q].count_ones() > mine) {
            push(out, Op::Recruit { from: q as u8 });
        }
    }

    // ------------------------------------------------------------- apply

    fn take_card_from_bank(&mut self, p: usize, c: usize) {
        debug_assert!(self.bank_chars >> c & 1 == 1);
        self.bank_chars &= !(1 << c);
        self.chars[p] |= 1 << c;
    }

    pub(crate) fn put_house(&mut self, p: usize, site: usize) {
        self.houses[site][p] += 1;
        self.site_houses[site] += 1;
    }

    fn remove_house(&mut self, p: usize, site: usize) {
        debug_assert!(self.houses[site][p] > 0);
        self.houses[site][p] -= 1;
        self.site_houses[site] -= 1;
    }

    /// Builds a house of `p` from the supply on `site`, paying `cost`.
    fn build_house(&mut self, p: usize, site: usize, cost: i32) {
        debug_assert!(self.supply[p] > 0 && self.house_site_ok(p, site));
        self.supply[p] -= 1;
        self.pay_bank(p, cost);
        self.put_house(p, site);
        self.stats[p].houses_built += 1;
    }

    fn build_palace(&mut self, p: usize, full_price: bool) {
        let c = self.architect[p] as usize;
        self.pay_bank(p, if full_price { PALACE_COST } else { self.palace_cost(p) });
        if self.city_palaces[c] == 0 {
            self.central[c] = p as u8;
        }
        self.city_palaces[c] += 1;
        self.palaces[c][p] += 1;
        self.palaces_built[p] += 1;
        if self.palaces_built[p] >= self.palace_goal() && !self.last_round {
            self.last_round = true;
            self.end_reason = Some(EndReason::Palaces);
        }
    }

    /// Carries out one turn step.
    fn do_op(&mut self, p: usize, op: Op, by: Source) {
        let w = op.wheel();
        let house_cost = if by == Source::Builder { 0 } else { 1 };
        let mut partial = false;
        match op {
            Op::Gold => self.take_from_bank(p, 2),
            Op::House { site } => self.build_house(p, site as usize, house_cost),
            Op::TwoHouses { second } => {
                self.build_house(p, self.architect[p] as usize, 1);
                if second == NONE {
                    partial = true;
                } else {
                    self.build_house(p, second as usize, 1);
                }
            }
            Op::MoveHouse { from, to } => {
                self.remove_house(p, from as usize);
                self.put_house(p, to as usize);
                self.stats[p].houses_moved += 1;
            }
            Op::Quarry => {
                let k = self.quarry[p].min(2);
                self.quarry[p] -= k;
                self.supply[p] += k;
                partial = k < 2;
            }
            Op::Palace { full_price } => self.build_palace(p, full_price),
            Op::PalaceHouse { site, full_price } => {
                self.build_palace(p, full_price);
                if site == NONE {
                    partial = true;
                } else {
                    self.build_house(p, site as usize, 1);
                }
            }
            Op::Governor { city } => self.move_governor(city as usize),
            Op::Character { take, give } => self.exchange(p, take as usize, give),
            Op::Recruit { .. } => {}
        }
        match by {
            Source::Wheel => {
                let slot = if self.remaining[0] == w { 0 } else { 1 };
                debug_assert_eq!(self.remaining[slot], w);
                self.remaining[slot] = NONE;
            }
            Source::Builder => self.builder_used = true,
            Source::Token => {
                self.token_used = true;
                self.tokens[p] -= 1;
                self.bank_tokens += 1;
            }
        }
        self.log_event(|g| {
            let mut e = g.op_json(p, &op);
            e["event"] = json!("step");
            e["position"] = json!(p);
            e["by"] = json!(match by {
                Source::Wheel => "wheel",
                Source::Builder => "builder",
                Source::Token => "token",
            });
            e["gold"] = json!(g.gold[p]);
            e
        });
        if partial {
            self.forfeit(p, w);
        }
        if w == CHARACTER {
            self.character_done = true;
            if let Op::Recruit { from } = op {
                self.phase = Phase::Give;
                self.actor = from as usize;
                return;
            }
            if self.phase == Phase::Refill {
                return;
            }
        }
        self.after_step();
    }

    /// After a step: travel is open again; a turn with nothing left to do ends by itself.
    pub(crate) fn after_step(&mut self) {
        self.moved = false;
        self.maybe_end_turn();
    }

    /// Ends the turn when both wheel actions are done and only `EndTurn` is left.
    fn maybe_end_turn(&mut self) {
        if self.remaining == [NONE; 2] && self.turn_kinds(self.turn_player) == 1 << KIND_END {
            self.end_turn();
        }
    }

    /// The Governor action: this governor moves 2 places down (to the bottom place from
    /// place 1), the occupants of the two places below it each move one place up.
    pub(crate) fn move_governor(&mut self, city: usize) {
        let i = self.gov_place(city);
        debug_assert!(i >= 1);
        let lo = i.saturating_sub(2);
        let from = place_name(i);
        self.track[lo..=i].rotate_right(1);
        self.log_event(|g| {
            json!({"event": "governor", "city": g.map.names[city], "from": from, "to": place_name(lo), "track": g.track_json()})
        });
    }

    /// A character exchange by `p`: take card `take`; see [`Op::Character`].
    fn exchange(&mut self, p: usize, take: usize, give: u8) {
        let holder = self.holder(take);
        match holder {
            None => {
                self.bank_chars &= !(1 << take);
                if !self.advanced_2 {
                    self.bank_chars |= self.chars[p];
                    self.chars[p] = 0;
                }
                self.chars[p] |= 1 << take;
            }
            Some(q) if self.advanced_2 => {
                // Swap with an empty bank: `give` goes to q.
                self.chars[q] = self.chars[q] & !(1 << take) | 1 << give;
                self.chars[p] = self.chars[p] & !(1 << give) | 1 << take;
            }
            Some(q) => {
                self.bank_chars |= self.chars[p];
                self.chars[p] = 1 << take;
                self.chars[q] = 0;
                if !self.readings.repick_own_turn {
                    self.phase = Phase::Refill;
                    self.actor = q;
                }
            }
        }
    }

    // ------------------------------------------------------------- hidden gold

    /// The gold `observer` knows of: everyone's (`gold = public`), or their own and the total
    /// of the others (`hidden`; a player's entry is `null`).
    pub fn gold_seen_by(&self, observer: usize) -> Value {
        if !self.readings.gold_hidden {
            return json!(&self.gold[..self.n]);
        }
        let each: Vec<Value> =
            (0..self.n).map(|q| if q == observer { json!(self.gold[q]) } else { Value::Null }).collect();
        json!({"each": each, "others_total": self.others_gold(observer)})
    }

    /// The gold the players other than `observer` hold in all.
    pub fn others_gold(&self, observer: usize) -> i32 {
        (0..self.n).filter(|&q| q != observer).map(|q| self.gold[q]).sum()
    }

    /// Deals the others' total gold among them again (see `determinize`): first a high
    /// bidder's bid, then each coin to a uniformly random other player.
    fn deal_hidden_gold(&mut self, observer: usize, rng: &mut Rng) {
        let others: Vec<usize> = (0..self.n).filter(|&q| q != observer).collect();
        let mut left = self.others_gold(observer);
        for &q in &others {
            let bid = self.phase == Phase::Bid && self.auction.high_bidder as usize == q;
            self.gold[q] = if bid { self.auction.high as i32 } else { 0 };
            left -= self.gold[q];
        }
        for _ in 0..left {
            self.gold[others[below(rng, others.len())]] += 1;
        }
    }

    // ------------------------------------------------------------- auction (advanced_1)

    fn nominate(&mut self, p: usize, card: u8) {
        let without: u8 = (0..self.n).filter(|&q| self.chars[q] == 0).fold(0, |m, q| m | 1 << q);
        self.auction = Auction { starter: p as u8, card, high: 0, high_bidder: NONE, active: without };
        self.phase = Phase::Bid;
        self.log_event(|_| json!({"event": "auction", "position": p, "character": card + 1}));
    }

    /// A bid (or a pass) in the auction; the next bidder is the next active player clockwise.
    fn bid(&mut self, p: usize, amount: Option<u8>) {
        match amount {
            Some(x) => {
                self.auction.high = x;
                self.auction.high_bidder = p as u8;
            }
            None => self.auction.active &= !(1 << p),
        }
        self.log_event(|_| json!({"event": "bid", "position": p, "amount": amount}));
        let a = self.auction;
        if a.active.count_ones() == 1 && a.high_bidder != NONE {
            let w = a.high_bidder as usize;
            self.pay_bank(w, a.high as i32);
            self.take_card_from_bank(w, a.card as usize);
            self.log_event(
                |_| json!({"event": "auction_won", "position": w, "character": a.card + 1, "price": a.high}),
            );
            self.next_auction();
            return;
        }
        self.actor = (1..=self.n).map(|k| (p + k) % self.n).find(|&q| a.active >> q & 1 == 1).expect("a bidder");
    }

    /// The next player clockwise from the last starter without a card starts an auction;
    /// the last player without a card takes any card left for free.
    fn next_auction(&mut self) {
        let without: Vec<usize> = (0..self.n).filter(|&q| self.chars[q] == 0).collect();
        let s = self.auction.starter as usize;
        let next = (1..=self.n).map(|k| (s + k) % self.n).find(|q| without.contains(q));
        match (without.len(), next) {
            (0, _) => self.begin_start_houses(),
            (1, Some(q)) => {
                self.phase = Phase::Pick;
                self.actor = q;
            }
            (_, Some(q)) => {
                self.phase = Phase::Nominate;
                self.actor = q;
            }
            _ => unreachable!(),
        }
    }
}

impl Game for Maharaja {
    type Action = Action;
    type Variant = Variant;

    const NAME: &'static str = "maharaja";
    /// The history of each rules version: CHANGELOG.md.
    const RULES_VERSION: u32 = 2;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = MAX_PLAYERS;

    fn variant_schema() -> Vec<OptionSpec> {
        super::variant::schema()
    }
    fn parse_variant(value: &Value, _n_players: usize, files: &Files) -> Result<Variant> {
        super::variant::parse(value, files)
    }
    fn new(v: &Variant, n: usize, deal: Rng) -> Self {
        Maharaja::setup(v, n, deal)
    }
    fn n_players(&self) -> usize {
        self.n
    }
    /// The wheel: every player still to set theirs at once; otherwise one player.
    fn decision(&self) -> Decision {
        let acting = self.acting();
        let continues_turn = match self.phase {
            Phase::Turn => self.steps > 0,
            _ => false,
        };
        Decision { acting, continues_turn }
    }
    fn is_terminal(&self) -> bool {
        self.is_over()
    }
    /// Bit set of the action kinds open to `p` now.
    fn action_kinds(&self, p: usize) -> u32 {
        match self.phase {
            Phase::Pick | Phase::Refill | Phase::Nominate if p == self.actor => {
                1 << if self.phase == Phase::Nominate { KIND_AUCTION } else { KIND_PICK }
            }
            Phase::Bid if p == self.actor => 1 << KIND_AUCTION,
            Phase::Give if p == self.actor => 1 << KIND_PICK,
            Phase::Sadhu if p == self.actor => 1 << KIND_POWER,
            Phase::StartHouses if p == self.actor => 1 << KIND_START_HOUSE,
            Phase::Wheel if self.wheel_set >> p & 1 == 0 => 1 << KIND_WHEEL,
            Phase::Turn if p == self.actor => self.turn_kinds(p),
            _ => 0,
        }
    }

    /// Appends the legal actions of `p` (of `kind` only, when given).
    fn legal_actions(&self, p: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        let want = |k: u32| kind.is_none_or(|x| x == k);
        match self.phase {
            Phase::Pick | Phase::Refill if p == self.actor && want(KIND_PICK) => {
                out.extend(bits(self.bank_chars).map(|c| Action::Pick { card: c as u8 }));
            }
            Phase::Give if p == self.actor && want(KIND_PICK) => {
                out.extend(bits(self.chars[p]).map(|c| Action::Give { card: c as u8 }));
            }
            Phase::Nominate if p == self.actor && want(KIND_AUCTION) => {
                out.extend(bits(self.bank_chars).map(|c| Action::Nominate { card: c as u8 }));
            }
            Phase::Bid if p == self.actor && want(KIND_AUCTION) => self.bid_actions(p, out),
            Phase::StartHouses if p == self.actor && want(KIND_START_HOUSE) => {
                let limit = self.village_limit();
                out.extend(
                    self.map
                        .villages()
                        .filter(|&v| self.site_houses[v] < limit)
                        .map(|v| Action::StartHouse { village: v as u8 }),
                );
            }
            Phase::Wheel if self.wheel_set >> p & 1 == 0 && want(KIND_WHEEL) => {
                for a in 0..N_WHEEL {
                    for b in a..N_WHEEL {
                        out.push(Action::Wheel { first: a, second: b });
                    }
                }
            }
            Phase::Turn if p == self.actor => self.turn_actions(p, kind, out),
            Phase::Sadhu if p == self.actor && want(KIND_POWER) => {
                out.extend([true, false].map(|used| Action::Power { card: SADHU as u8, used }));
            }
            _ => {}
        }
    }

    /// Applies acting `p`'s action (checked in debug builds).
    fn apply(&mut self, p: usize, a: Action) {
        assert!(self.acting() >> p & 1 == 1, "player {p} does not act now ({:?})", self.phase);
        debug_assert!(
            {
                let mut all = Vec::new();
                self.legal_actions(p, None, &mut all);
                all.contains(&a)
            },
            "illegal action {a:?} of player {p} in {:?}",
            self.phase
        );
        match (self.phase, a) {
            (Phase::Pick, Action::Pick { card }) => {
                self.take_card_from_bank(p, card as usize);
                self.log_event(|g| json!({"event": "pick", "position": p, "character": g.char_names(p)}));
                self.after_setup_pick();
            }
            (Phase::Refill, Action::Pick { card }) => {
                self.take_card_from_bank(p, card as usize);
                self.log_event(|g| json!({"event": "refill", "position": p, "character": g.char_names(p)}));
                self.phase = Phase::Turn;
                if p == self.turn_player {
                    // `repick = own_turn`: the pick opened the turn; the new card's powers follow.
                    self.start_of_turn_powers(p);
                } else {
                    self.actor = self.turn_player;
                    self.after_step();
                }
            }
            (Phase::Give, Action::Give { card }) => {
                let t = self.turn_player;
                self.chars[p] &= !(1 << card);
                self.chars[t] |= 1 << card;
                self.log_event(
                    |_| json!({"event": "recruited", "position": t, "from_position": p, "character": card + 1}),
                );
                self.phase = Phase::Turn;
                self.actor = t;
                self.after_step();
            }
            (Phase::Nominate, Action::Nominate { card }) => self.nominate(p, card),
            (Phase::Bid, Action::Bid { amount }) => self.bid(p, Some(amount)),
            (Phase::Bid, Action::Pass) => self.bid(p, None),
            (Phase::StartHouses, Action::StartHouse { village }) => {
                self.put_house(p, village as usize);
                self.supply[p] -= 1;
                self.to_place[p] -= 1;
                self.log_event(
                    |g| json!({"event": "start_house", "position": p, "site": g.map.site_name(village as usize)}),
                );
                self.after_start_house();
            }
            (Phase::Wheel, Action::Wheel { first, second }) => self.set_wheel(p, first, second),
            (Phase::Turn, Action::Travel { city, route, own_toll }) => {
                self.steps += 1;
                self.travel(p, city as usize, route as usize, own_toll);
                self.maybe_end_turn();
            }
            (Phase::Turn, Action::Power { card, used }) => {
                self.steps += 1;
                self.power_offer &= !(1 << card);
                if used {
                    match card as usize {
                        TRADER => self.take_from_bank(p, 1),
                        _ => self.take_token(p),
                    }
                }
                self.log_event(|_| {
                    json!({"event": "power", "position": p,
                           "character": format!("{} {}", card + 1, CHARACTER_NAMES[card as usize]), "used": used})
                });
            }
            (Phase::Sadhu, Action::Power { used, .. }) => self.sadhu_decides(p, used),
            (Phase::Turn, Action::Do { op, by }) => {
                self.steps += 1;
                self.do_op(p, op, by);
            }
            (Phase::Turn, Action::EndTurn) => self.end_turn(),
            (phase, a) => panic!("action {a:?} in phase {phase:?}"),
        }
    }

    /// Palaces built.
    fn scores(&self) -> Vec<i64> {
        self.score_vec()
    }
    /// Gold, then the lower character.
    fn tiebreaks(&self) -> Vec<i64> {
        self.tiebreak_vec()
    }
    /// Turn order at the start of round 1 (by character): seat 0 held the lowest character.
    fn seat(&self, player: usize) -> usize {
        self.start_seat[player] as usize
    }
    /// Completed rounds.
    fn turns(&self) -> u32 {
        if self.is_over() {
            self.round
        } else {
            self.round.saturating_sub(1)
        }
    }
    /// The [`ROUND_LIMIT`] safety net ended the game (`end_reason` 3).
    fn capped(&self) -> bool {
        self.end_reason == Some(EndReason::RoundLimit)
    }

    /// Hidden from `observer`: the wheels of other players not yet shown. While wheels are
    /// being set, other players' choices are forgotten (they choose again); during the turns,
    /// each unshown wheel of another player is replaced by a uniformly random one (any of the
    /// 45 pairs: nothing limits a wheel, so there is no pool to shuffle and `hidden` stays
    /// empty). With `gold = hidden` (and 3 or more players) the gold the other players hold
    /// in all (public: the bank's payments are made in the open) is dealt among them again,
    /// each coin to a uniformly random one of them, after a high bidder's bid (which they
    /// must be able to pay). Everything else is public.
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self {
        let mut g = self.resample_chance(rng);
        for q in (0..self.n).filter(|&q| q != observer) {
            if self.phase == Phase::Wheel {
                g.wheel[q] = [NONE; 2];
                g.wheel_set &= !(1 << q);
            } else if self.wheel_set >> q & 1 == 1 && self.revealed >> q & 1 == 0 {
                let a = below(rng, N_WHEEL as usize) as u8;
                let b = below(rng, N_WHEEL as usize) as u8;
                g.wheel[q] = [a.min(b), a.max(b)];
            }
        }
        if self.readings.gold_hidden && self.n > 2 {
            g.deal_hidden_gold(observer, rng);
        }
        g
    }
    /// Nothing of the position is unseen by every player (pending wheels and hidden gold are
    /// known to their owners): only the future chance stream is drawn afresh.
    fn resample_chance(&self, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        g.log = None;
        g.rng = crate::rng::child(rng);
        g
    }

    fn observation(&self, observer: usize) -> Value {
        let wheels: Vec<Value> = (0..self.n)
            .map(|q| if q == observer || self.revealed >> q & 1 == 1 { json!(self.wheel[q]) } else { Value::Null })
            .collect();
        let n = self.n;
        let sites = self.map.n_sites();
        json!({
            "phase": format!("{:?}", self.phase), "actor": self.actor, "turn_player": self.turn_player,
            "round": self.round, "gold": self.gold_seen_by(observer), "chars": &self.chars[..n], "bank_chars": self.bank_chars,
            "houses": self.houses[..sites].iter().map(|h| h[..n].to_vec()).collect::<Vec<_>>(),
            "supply": &self.supply[..n], "quarry": &self.quarry[..n],
            "palaces": self.palaces.iter().map(|h| h[..n].to_vec()).collect::<Vec<_>>(),
            "central": self.central, "architect": &self.architect[..n], "track": self.track,
            "maharaja": self.maharaja, "wheels": wheels, "own_wheel_set": self.wheel_set >> observer & 1,
            "revealed": self.revealed, "acted": self.acted, "remaining": self.remaining, "moved": self.moved,
            "powers_used": [self.character_done, self.builder_used, self.token_used],
            "tokens": &self.tokens[..n], "bank_tokens": self.bank_tokens,
            "auction": [self.auction.starter, self.auction.card, self.auction.high, self.auction.high_bidder, self.auction.active],
            "to_place": &self.to_place[..n], "last_round": self.last_round,
        })
    }
}
