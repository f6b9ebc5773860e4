//! The Alhambra game state, its actions and the turn structure.

use super::city::{City, HoleRule};
use super::data::{
    bits, card, currency_of, value_of, wall_patterns, wall_string, Card, CURRENCIES, KIND_NAMES, N_KINDS, N_TILES,
    SCORING_A, SCORING_B, TILES,
};
use super::scoring::{holds_first, majority_points};
use super::variant::{DirkCount, Leftover, StartPlayer, Variant};
use crate::game::{Decision, Game};
use crate::options::{Files, OptionSpec};
use crate::rng::{self, Rng};
use serde_json::{json, Value};

pub const MAX_PLAYERS: usize = 6;
/// Market space without a tile.
pub const NO_TILE: u8 = 255;
/// Most actions one turn may have (four exact purchases, then one more).
pub const MAX_ACTIONS: u8 = 5;
/// Safety stops (rules **Decisions** of the engine): when every player in a row has had
/// no legal action, nothing can ever change and the game ends as if the bag ran out; and
/// a game also ends that way after `MAX_TURNS` turns (agents that never buy would
/// otherwise never empty the bag; random and greedy play end far sooner).
const STALL_ROUNDS: u8 = 1;
pub const MAX_TURNS: u32 = 2_000;

/// Action kinds during a turn.
pub const KIND_TAKE: u32 = 0;
pub const KIND_BUY: u32 = 1;
pub const KIND_REDESIGN: u32 = 2;
pub const KIND_PASS: u32 = 3;
/// Action kinds while placing bought (or end-of-game) tiles.
pub const KIND_CITY: u32 = 0;
pub const KIND_RESERVE: u32 = 1;
pub const KIND_DIRK: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take the money display cards in the slot bit mask.
    Take { mask: u8 },
    /// Buy the tile on market `space`, paying `pay[v-1]` cards of value v of its currency.
    Buy { space: u8, pay: [u8; 9] },
    /// Redesign: reserve tile to a city square.
    ToCity { tile: u8, x: i8, y: i8 },
    /// Redesign: city tile to the reserve.
    ToReserve { tile: u8 },
    /// Redesign: reserve tile `inn` replaces city tile `out` on its square.
    Swap { out: u8, inn: u8 },
    /// Place a bought tile in the city.
    Place { tile: u8, x: i8, y: i8 },
    /// Put a bought tile on the reserve board.
    Reserve { tile: u8 },
    /// Give a bought tile to Dirk.
    Dirk { tile: u8 },
    /// No legal action.
    Pass,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The current player takes actions.
    Act,
    /// The current player places the tiles bought this turn.
    Place,
    /// End of game: a receiver places leftover market tiles (not to Dirk).
    EndPlace,
    Over,
}

#[derive(Debug, Clone)]
pub struct Player {
    /// Card counts: `hand[currency][value - 1]`.
    pub hand: [[u8; 9]; 4],
    /// Total value held per currency.
    pub sums: [u16; 4],
    pub cards: u8,
    pub city: City,
    /// Reserve board tiles (bit per tile id).
    pub reserve: u64,
}

impl Player {
    fn new(rule: HoleRule) -> Self {
        Player { hand: [[0; 9]; 4], sums: [0; 4], cards: 0, city: City::with_rule(rule), reserve: 0 }
    }
    pub fn add_card(&mut self, c: Card) {
        let (cur, val) = (currency_of(c), value_of(c));
        self.hand[cur][val - 1] += 1;
        self.sums[cur] += val as u16;
        self.cards += 1;
    }
    pub fn remove_card(&mut self, cur: usize, val: usize) {
        debug_assert!(self.hand[cur][val - 1] > 0);
        self.hand[cur][val - 1] -= 1;
        self.sums[cur] -= val as u16;
        self.cards -= 1;
    }
    pub fn hand_cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0..4).flat_map(move |cur| {
            (1..=9).flat_map(move |v| std::iter::repeat_n(card(cur, v), self.hand[cur][v - 1] as usize))
        })
    }
}

#[derive(Debug, Clone)]
pub struct Alhambra {
    pub v: Variant,
    pub n: usize,
    rng: Rng,
    /// Tile bag, next draw at the end.
    pub bag: Vec<u8>,
    pub market: [u8; 4],
    /// Money deck, top card at the end (may hold the scoring cards).
    pub deck: Vec<Card>,
    pub display: [Card; 4],
    pub display_len: u8,
    pub discard: Vec<Card>,
    pub players: Vec<Player>,
    /// Dirk's tiles (bit per id) and his count per kind.
    pub dirk_tiles: u64,
    pub dirk_counts: [u8; N_KINDS],
    pub start: usize,
    pub current: usize,
    pub phase: Phase,
    pub actions_taken: u8,
    /// Tiles the current player still has to place (bit per id).
    pub pending: u64,
    /// End of game: leftover tiles per receiving player.
    end_queue: [u64; MAX_PLAYERS],
    pub scorings_done: u8,
    /// Scores of the players (index `n` = Dirk).
    pub scores: [i64; MAX_PLAYERS + 1],
    /// Score of each player (and Dirk at `n`) after scoring 1, 2, 3 (`None` if not held).
    pub score_after: [[Option<i64>; MAX_PLAYERS + 1]; 3],
    /// Longest wall of each player at the last scoring.
    pub walls_scored: [u32; MAX_PLAYERS],
    /// Scorings in which Dirk held (shared) first place, per kind.
    pub dirk_firsts: [u8; N_KINDS],
    pub turns: u32,
    /// The game ended by the [`MAX_TURNS`] safety net, not by the rules.
    pub capped: bool,
    /// Redesigns since the last money taken or tile bought (public; the greedy evaluation
    /// makes further redesigns dearer so that redesign wars end).
    pub redesigns_in_a_row: u32,
    stalled: u8,
    /// Cards drawn from the deck since set-up, and the draw positions of the piles that
    /// hold scoring cards A and B (public knowledge, used to determinize).
    deck_drawn: u32,
    pile_a: (u32, u32),
    pile_b: (u32, u32),
    pub start_money: [(u8, u16); MAX_PLAYERS],
    pub(super) log: Option<Vec<Value>>,
}

fn count_of(dirk: DirkCount, bag: usize) -> usize {
    match dirk {
        DirkCount::Fixed(k) => k as usize,
        DirkCount::Third => bag / 3,
    }
}

impl Alhambra {
    fn event(&mut self, make: impl FnOnce(&Self) -> Value) {
        if self.log.is_some() {
            let e = make(self);
            if let Some(log) = &mut self.log {
                log.push(e);
            }
        }
    }

    fn give_dirk_from_bag(&mut self, count: usize) {
        let mut got = 0u64;
        for _ in 0..count {
            match self.bag.pop() {
                Some(t) => {
                    self.give_dirk(t);
                    got |= 1 << t;
                }
                None => break,
            }
        }
        self.event(|_| json!({"event": "dirk_receives", "tiles": bits(got).collect::<Vec<u8>>()}));
    }

    fn give_dirk(&mut self, t: u8) {
        self.dirk_tiles |= 1 << t;
        self.dirk_counts[TILES[t as usize].kind as usize] += 1;
    }

    // ---------------------------------------------------------------- legal actions

    fn redesign_exists(&self) -> bool {
        let me = &self.players[self.current];
        let hole = self.v.hole_rule;
        if me.city.removable() != 0 {
            return true;
        }
        let patterns = wall_patterns(me.reserve);
        patterns != 0
            && (me.city.has_square_for(patterns, hole)
                || me.city.iter_tiles().any(|c| me.city.swap_patterns(c) & patterns != 0))
    }

    /// One card of any value, or any set of display cards totalling at most 5; equal
    /// card sets count once.
    fn take_options(&self, out: &mut Vec<Action>) {
        let n = self.display_len as usize;
        let d = &self.display[..n];
        // Equal cards: a set using slot j but not an equal card's earlier slot i is the same
        // as one using i instead; only the latter (canonical) is offered.
        // `earlier[j]`: the earlier slots holding a card equal to slot j's.
        let mut earlier = [0u8; 4];
        for j in 0..n {
            for i in 0..j {
                if d[i] == d[j] {
                    earlier[j] |= 1 << i;
                }
            }
        }
        // Per set (built from the set without its lowest slot): its total and the slots
        // it must also hold to be canonical.
        let mut total = [0u8; 16];
        let mut needs = [0u8; 16];
        for mask in 1u8..(1 << n) {
            let (low, rest) = (mask.trailing_zeros() as usize, (mask & (mask - 1)) as usize);
            total[mask as usize] = total[rest] + value_of(d[low]) as u8;
            needs[mask as usize] = needs[rest] | earlier[low];
            if (rest == 0 || total[mask as usize] <= 5) && needs[mask as usize] & !mask == 0 {
                out.push(Action::Take { mask });
            }
        }
    }

    /// Payments for the tile on `space`: every multiset of that currency's cards that
    /// reaches the price and from which no card can be dropped (a payment with a
    /// redundant card is never offered: it is dominated, and agents choose among these).
    fn buy_options(&self, space: usize, out: &mut Vec<Action>) {
        let t = self.market[space];
        if t == NO_TILE {
            return;
        }
        let price = TILES[t as usize].price as u16;
        let me = &self.players[self.current];
        if me.sums[space] < price {
            return;
        }
        // The values held, highest first, and the total value from each one down.
        let mut held = [(0u8, 0u8); 9];
        let mut n = 0;
        for v in (1..=9).rev() {
            if me.hand[space][v - 1] > 0 {
                held[n] = (v as u8, me.hand[space][v - 1]);
                n += 1;
            }
        }
        let mut rest = [0u16; 10];
        for i in (0..n).rev() {
            rest[i] = rest[i + 1] + held[i].0 as u16 * held[i].1 as u16;
        }
        let mut pay = [0u8; 9];
        pay_rec(&held[..n], &rest, price, 0, 0, &mut pay, &mut |p| {
            out.push(Action::Buy { space: space as u8, pay: *p })
        });
    }

    fn redesign_options(&self, out: &mut Vec<Action>) {
        let me = &self.players[self.current];
        let hole = self.v.hole_rule;
        // Tiles with equal walls fit the same squares: enumerate each pattern once and
        // copy its squares for the other tiles.
        let mut first: [Option<(usize, usize)>; 16] = [None; 16];
        for r in bits(me.reserve) {
            let w = TILES[r as usize].walls as usize;
            let start = out.len();
            match first[w] {
                Some((from, to)) => {
                    for k in from..to {
                        if let Action::ToCity { x, y, .. } = out[k] {
                            out.push(Action::ToCity { tile: r, x, y });
                        }
                    }
                }
                None => {
                    me.city.each_square(r, hole, |x, y| {
                        out.push(Action::ToCity { tile: r, x, y });
                        true
                    });
                    first[w] = Some((start, out.len()));
                }
            }
        }
        out.extend(bits(me.city.removable()).map(|c| Action::ToReserve { tile: c }));
        // Reserve tiles by wall pattern; a city tile takes those whose pattern fits it.
        let mut by_walls = [0u64; 16];
        let mut present = 0u16;
        for r in bits(me.reserve) {
            let w = TILES[r as usize].walls;
            by_walls[w as usize] |= 1 << r;
            present |= 1 << w;
        }
        if present != 0 {
            for c in me.city.iter_tiles() {
                let fit = me.city.swap_patterns(c) & present;
                if fit != 0 {
                    let fitting = bits(fit as u64).fold(0, |m, w| m | by_walls[w as usize]);
                    out.extend(bits(fitting).map(|r| Action::Swap { out: c, inn: r }));
                }
            }
        }
    }

    // ---------------------------------------------------------------- applying

    fn after_action(&mut self, exact: bool) {
        self.actions_taken += 1;
        if exact && self.actions_taken < MAX_ACTIONS && self.action_kinds(self.current) & !(1 << KIND_PASS) != 0 {
            return; // the bonus action
        }
        if self.pending != 0 {
            self.phase = Phase::Place;
        } else {
            self.end_turn();
        }
    }

    fn after_placement(&mut self) {
        if self.pending != 0 {
            return;
        }
        match self.phase {
            Phase::Place => self.end_turn(),
            Phase::EndPlace => self.next_receiver(),
            _ => unreachable!("placement outside a placement phase"),
        }
    }

    fn draw_money(&mut self) -> Option<Card> {
        if self.deck.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            std::mem::swap(&mut self.deck, &mut self.discard);
            rng::shuffle(&mut self.rng, &mut self.deck);
            self.event(|g| json!({"event": "reshuffle", "deck_size": g.deck.len()}));
        }
        self.deck_drawn += 1;
        self.deck.pop()
    }

    fn end_turn(&mut self) {
        // Refill the money display; scoring cards are set aside and replaced.
        let mut scorings = 0;
        while self.display_len < 4 {
            match self.draw_money() {
                None => break,
                Some(c) if c == SCORING_A || c == SCORING_B => scorings += 1,
                Some(c) => {
                    self.display[self.display_len as usize] = c;
                    self.display_len += 1;
                }
            }
        }
        for _ in 0..scorings {
            let round = self.scorings_done as usize + 1;
            self.score(round);
            if self.v.dirk && round < 3 {
                let k = count_of(self.v.dirk_tiles[round], self.bag.len());
                self.give_dirk_from_bag(k);
            }
        }
        // Refill the market in space order; a bag that runs dry ends the game.
        for s in 0..4 {
            if self.market[s] == NO_TILE {
                match self.bag.pop() {
                    Some(t) => self.market[s] = t,
                    None => {
                        self.turns += 1;
                        self.event(
                            |g| json!({"event": "refill", "market": g.market_json(), "display": g.display_json()}),
                        );
                        return self.end_game("bag empty");
                    }
                }
            }
        }
        self.turns += 1;
        self.event(|g| json!({"event": "refill", "market": g.market_json(), "display": g.display_json()}));
        if self.stalled >= self.n as u8 * STALL_ROUNDS {
            return self.end_game("no player can act");
        }
        if self.turns >= MAX_TURNS {
            self.capped = true;
            return self.end_game("turn_cap");
        }
        self.current = (self.current + 1) % self.n;
        self.phase = Phase::Act;
        self.actions_taken = 0;
    }

    fn market_json(&self) -> Value {
        Value::Array(self.market.iter().map(|&t| tile_json(t)).collect())
    }

    fn display_json(&self) -> Value {
        Value::Array(self.display[..self.display_len as usize].iter().map(|&c| card_json(c)).collect())
    }

    /// One scoring round: majorities (Dirk included) and each player's longest wall.
    fn score(&mut self, round: usize) {
        let n = self.n;
        let mut counts = [[0u8; N_KINDS]; MAX_PLAYERS + 1];
        for (c, pl) in counts.iter_mut().zip(&self.players) {
            *c = pl.city.kind_counts;
        }
        let parts = if self.v.dirk { n + 1 } else { n };
        if self.v.dirk {
            counts[n] = self.dirk_counts;
            for k in 0..N_KINDS {
                self.dirk_firsts[k] += u8::from(holds_first(&counts[..parts], n, k));
            }
        }
        let mut pts = [0i64; MAX_PLAYERS + 1];
        majority_points(&counts[..parts], round, &mut pts);
        let mut walls = [0i64; MAX_PLAYERS];
        for (p, pl) in self.players.iter().enumerate() {
            self.walls_scored[p] = pl.city.longest_wall(self.v.wall_rule);
            walls[p] = self.walls_scored[p] as i64;
        }
        for i in 0..parts {
            self.scores[i] += pts[i] + if i < n { walls[i] } else { 0 };
            self.score_after[round - 1][i] = Some(self.scores[i]);
        }
        self.scorings_done = round as u8;
        self.event(|g| {
            json!({
                "event": "scoring", "round": round,
                "majority_points": pts[..parts].to_vec(), "wall_points": walls[..n].to_vec(),
                "scores": g.scores[..parts].to_vec(),
            })
        });
    }

    fn end_game(&mut self, reason: &str) {
        // Leftover market tiles go to the most money of the space's currency.
        let mut given = [None; 4];
        for (s, given) in given.iter_mut().enumerate() {
            let t = self.market[s];
            if t == NO_TILE || self.v.leftover_rule == Leftover::Nobody {
                continue;
            }
            let amount = |p: &Player| match self.v.leftover_rule {
                Leftover::Value => p.sums[s] as u32,
                _ => p.hand[s].iter().map(|&c| c as u32).sum(),
            };
            let best = self.players.iter().map(amount).max().unwrap_or(0);
            let mut holders = (0..self.n).filter(|&p| amount(&self.players[p]) == best);
            if let (Some(p), None) = (holders.next(), holders.next()) {
                if best > 0 {
                    self.market[s] = NO_TILE;
                    self.end_queue[p] |= 1 << t;
                    *given = Some((t, p));
                }
            }
        }
        self.event(|_| {
            let leftovers: Vec<Value> =
                given.iter().flatten().map(|(t, p)| json!({"tile": t, "position": p})).collect();
            json!({"event": "game_end", "reason": reason, "leftovers": leftovers})
        });
        self.current = self.start;
        self.next_receiver_from(0);
    }

    fn next_receiver(&mut self) {
        let seat = (self.current + self.n - self.start) % self.n;
        self.next_receiver_from(seat + 1);
    }

    /// Hands the leftover tiles to the next receiver in seat order from `seat`; when
    /// none is left, the final scoring ends the game.
    fn next_receiver_from(&mut self, seat: usize) {
        for s in seat..self.n {
            let p = (self.start + s) % self.n;
            if self.end_queue[p] != 0 {
                self.current = p;
                self.pending = std::mem::take(&mut self.end_queue[p]);
                self.phase = Phase::EndPlace;
                return;
            }
        }
        self.score(3);
        self.phase = Phase::Over;
    }

    // ---------------------------------------------------------------- information

    // ---------------------------------------------------------------- description

    /// Every tile is somewhere exactly once, money is conserved and every city is legal.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.check_tiles()?;
        self.check_money()
    }

    /// Every tile is in exactly one place and every city is legal.
    pub fn check_tiles(&self) -> Result<(), String> {
        let mut seen = 0u64;
        let mut add = |set: u64, what: &str| -> Result<(), String> {
            if seen & set != 0 {
                return Err(format!("tile(s) {:?} also in {what}", bits(seen & set).collect::<Vec<_>>()));
            }
            seen |= set;
            Ok(())
        };
        for &t in &self.bag {
            add(1 << t, "bag")?;
        }
        for &t in self.market.iter().filter(|&&t| t != NO_TILE) {
            add(1 << t, "market")?;
        }
        for p in &self.players {
            add(p.city.tiles, "a city")?;
            add(p.reserve, "a reserve")?;
            p.city.validate(self.v.hole_rule)?;
        }
        add(self.dirk_tiles, "Dirk")?;
        add(self.pending, "pending")?;
        for &q in &self.end_queue {
            add(q, "end queue")?;
        }
        if seen != (1u64 << N_TILES) - 1 {
            return Err(format!("{} tiles accounted for, not 54", seen.count_ones()));
        }
        Ok(())
    }

    /// Deck + display + hands + discard hold every money card exactly `money_copies` times.
    pub fn check_money(&self) -> Result<(), String> {
        let mut money = [[0u32; 9]; 4];
        let cards = self.deck.iter().chain(&self.discard).chain(&self.display[..self.display_len as usize]);
        for &c in cards.filter(|&&c| c < SCORING_A) {
            money[currency_of(c)][value_of(c) - 1] += 1;
        }
        for p in &self.players {
            for (cur, row) in p.hand.iter().enumerate() {
                for (v, &k) in row.iter().enumerate() {
                    money[cur][v] += k as u32;
                }
            }
        }
        if money.iter().flatten().any(|&k| k != self.v.money_copies as u32) {
            return Err(format!("money not conserved: {money:?}"));
        }
        Ok(())
    }
}

/// Enumerates minimal payments: values are taken from high to low, and a payment is
/// recorded as soon as it reaches the price (the last card added is the smallest, so
/// none can be dropped). `held[i]` = (value, count) of the held values, highest first;
/// `rest[i]` is the total value of `held[i..]`.
fn pay_rec(
    held: &[(u8, u8)],
    rest: &[u16; 10],
    price: u16,
    i: usize,
    sum: u16,
    pay: &mut [u8; 9],
    emit: &mut impl FnMut(&[u8; 9]),
) {
    if i == held.len() || sum + rest[i] < price {
        return;
    }
    let (v, avail) = held[i];
    let slot = v as usize - 1;
    let mut s = sum;
    for j in 0..=avail {
        if j > 0 {
            s += v as u16;
            pay[slot] = j;
            if s >= price {
                emit(pay);
                break;
            }
        }
        pay_rec(held, rest, price, i + 1, s, pay, emit);
    }
    pay[slot] = 0;
}

pub fn tile_json(t: u8) -> Value {
    if t == NO_TILE {
        return Value::Null;
    }
    let tile = TILES[t as usize];
    json!({"id": t, "kind": KIND_NAMES[tile.kind as usize], "price": tile.price, "walls": wall_string(tile.walls)})
}

pub fn card_json(c: Card) -> Value {
    json!({"currency": CURRENCIES[currency_of(c)], "value": value_of(c)})
}

/// The rules (see `RULES.md`): set-up, the turn, legality, scoring, what a player knows.
impl Game for Alhambra {
    type Action = Action;
    type Variant = Variant;

    const NAME: &'static str = "alhambra";
    const RULES_VERSION: u32 = 1;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = MAX_PLAYERS;

    fn variant_schema() -> Vec<OptionSpec> {
        super::variant::schema()
    }
    fn parse_variant(value: &Value, n_players: usize, _files: &Files) -> crate::error::Result<Variant> {
        super::variant::parse(value, n_players)
    }
    fn normalize_variant(options: Value, n_players: usize) -> Value {
        super::variant::normalize(options, n_players)
    }
    fn new(v: &Variant, n: usize, mut rng: Rng) -> Self {
        assert!((2..=MAX_PLAYERS).contains(&n));
        let mut bag: Vec<u8> = (0..N_TILES as u8).collect();
        rng::shuffle(&mut rng, &mut bag);
        let mut money: Vec<Card> = Vec::with_capacity(4 * 9 * v.money_copies as usize + 2);
        for cur in 0..4 {
            for val in 1..=9 {
                for _ in 0..v.money_copies {
                    money.push(card(cur, val));
                }
            }
        }
        rng::shuffle(&mut rng, &mut money);
        let mut g = Alhambra {
            v: v.clone(),
            n,
            rng,
            bag,
            market: [NO_TILE; 4],
            deck: Vec::new(),
            display: [0; 4],
            display_len: 0,
            discard: Vec::with_capacity(money.len()),
            players: (0..n).map(|_| Player::new(v.hole_rule)).collect(),
            dirk_tiles: 0,
            dirk_counts: [0; N_KINDS],
            start: 0,
            current: 0,
            phase: Phase::Act,
            actions_taken: 0,
            pending: 0,
            end_queue: [0; MAX_PLAYERS],
            scorings_done: 0,
            scores: [0; MAX_PLAYERS + 1],
            score_after: [[None; MAX_PLAYERS + 1]; 3],
            dirk_firsts: [0; N_KINDS],
            walls_scored: [0; MAX_PLAYERS],
            turns: 0,
            capped: false,
            redesigns_in_a_row: 0,
            stalled: 0,
            deck_drawn: 0,
            pile_a: (0, 0),
            pile_b: (0, 0),
            start_money: [(0, 0); MAX_PLAYERS],
            log: None,
        };
        // 1. Market.
        for s in 0..4 {
            g.market[s] = g.bag.pop().expect("54 tiles");
        }
        // 2. Money: deal each player cards until their total reaches 20 (top = front).
        let mut top = money.into_iter();
        for p in 0..n {
            while g.players[p].sums.iter().sum::<u16>() < 20 {
                match top.next() {
                    Some(c) => g.players[p].add_card(c),
                    None => break,
                }
            }
            g.start_money[p] = (g.players[p].cards, g.players[p].sums.iter().sum());
        }
        // 3. Display.
        for _ in 0..4 {
            if let Some(c) = top.next() {
                g.display[g.display_len as usize] = c;
                g.display_len += 1;
            }
        }
        // 4. Five piles, scoring A into pile 2 and B into pile 4.
        let rest: Vec<Card> = top.collect();
        let (base, extra) = (rest.len() / 5, rest.len() % 5);
        let mut order: Vec<Card> = Vec::with_capacity(rest.len() + 2);
        let mut at = 0;
        for pile in 0..5 {
            let size = base + usize::from(pile < extra);
            let lo = order.len();
            order.extend_from_slice(&rest[at..at + size]);
            at += size;
            if pile == 1 || pile == 3 {
                let pos = lo + rng::below(&mut g.rng, size + 1);
                order.insert(pos, if pile == 1 { SCORING_A } else { SCORING_B });
                let range = (lo as u32, (lo + size + 1) as u32);
                if pile == 1 {
                    g.pile_a = range;
                } else {
                    g.pile_b = range;
                }
            }
        }
        order.reverse();
        g.deck = order;
        // 5. Start player.
        g.start = match v.start_player {
            StartPlayer::Random => rng::below(&mut g.rng, n),
            StartPlayer::FewestCards | StartPlayer::MostCards => {
                let key = |p: usize| {
                    let (c, val) = g.start_money[p];
                    if v.start_player == StartPlayer::FewestCards {
                        (c as i32, val as i32)
                    } else {
                        (-(c as i32), -(val as i32))
                    }
                };
                let best = (0..n).map(key).min().expect("players");
                let tied: Vec<usize> = (0..n).filter(|&p| key(p) == best).collect();
                tied[rng::below(&mut g.rng, tied.len())]
            }
        };
        g.current = g.start;
        // Dirk's first tiles.
        if v.dirk {
            g.give_dirk_from_bag(count_of(v.dirk_tiles[0], g.bag.len()));
        }
        g
    }
    fn n_players(&self) -> usize {
        self.n
    }
    /// A bonus action and placing the tiles bought continue the turn.
    fn decision(&self) -> Decision {
        let continues = self.phase == Phase::Place || self.phase == Phase::Act && self.actions_taken > 0;
        Decision { continues_turn: continues, ..Decision::one(self.current) }
    }
    fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }
    /// Bit set of the available action kinds.
    fn action_kinds(&self, _player: usize) -> u32 {
        match self.phase {
            Phase::Over => 0,
            Phase::Act => {
                let mut k = 0;
                if self.display_len > 0 {
                    k |= 1 << KIND_TAKE;
                }
                let me = &self.players[self.current];
                if (0..4)
                    .any(|s| self.market[s] != NO_TILE && me.sums[s] >= TILES[self.market[s] as usize].price as u16)
                {
                    k |= 1 << KIND_BUY;
                }
                if self.redesign_exists() {
                    k |= 1 << KIND_REDESIGN;
                }
                if k == 0 {
                    k = 1 << KIND_PASS;
                }
                k
            }
            Phase::Place | Phase::EndPlace => {
                let city = &self.players[self.current].city;
                let mut k = 1 << KIND_RESERVE;
                if city.has_square_for(wall_patterns(self.pending), self.v.hole_rule) {
                    k |= 1 << KIND_CITY;
                }
                if self.phase == Phase::Place && self.v.dirk {
                    k |= 1 << KIND_DIRK;
                }
                k
            }
        }
    }
    fn legal_actions(&self, _player: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        let want = |k: u32| kind.is_none_or(|x| x == k);
        match self.phase {
            Phase::Over => {}
            Phase::Act => {
                // Passing is legal only when nothing else is (the kinds are computed only
                // when the answer depends on it: the random agent asks for one other kind).
                let pass_only = match kind {
                    Some(k) if k != KIND_PASS => false,
                    _ => self.action_kinds(self.current) == 1 << KIND_PASS,
                };
                if pass_only || kind == Some(KIND_PASS) {
                    if pass_only {
                        out.push(Action::Pass);
                    }
                    return;
                }
                if want(KIND_TAKE) {
                    self.take_options(out);
                }
                if want(KIND_BUY) {
                    for s in 0..4 {
                        self.buy_options(s, out);
                    }
                }
                if want(KIND_REDESIGN) {
                    self.redesign_options(out);
                }
            }
            Phase::Place | Phase::EndPlace => {
                let city = &self.players[self.current].city;
                for t in bits(self.pending) {
                    if want(KIND_CITY) {
                        city.each_square(t, self.v.hole_rule, |x, y| {
                            out.push(Action::Place { tile: t, x, y });
                            true
                        });
                    }
                    if want(KIND_RESERVE) {
                        out.push(Action::Reserve { tile: t });
                    }
                    if want(KIND_DIRK) && self.phase == Phase::Place && self.v.dirk {
                        out.push(Action::Dirk { tile: t });
                    }
                }
            }
        }
    }
    fn apply(&mut self, p: usize, a: Action) {
        debug_assert_eq!(p, self.current, "player {p} does not act now");
        match a {
            Action::Take { mask } => {
                let mut kept = 0;
                for i in 0..self.display_len as usize {
                    let c = self.display[i];
                    if mask >> i & 1 == 1 {
                        self.players[p].add_card(c);
                    } else {
                        self.display[kept] = c;
                        kept += 1;
                    }
                }
                self.display_len = kept as u8;
                self.stalled = 0;
                self.redesigns_in_a_row = 0;
                self.after_action(false);
            }
            Action::Buy { space, pay } => {
                let s = space as usize;
                let t = self.market[s];
                let mut paid = 0;
                for v in 1..=9 {
                    for _ in 0..pay[v - 1] {
                        self.players[p].remove_card(s, v);
                        self.discard.push(card(s, v));
                        paid += v;
                    }
                }
                let price = TILES[t as usize].price as usize;
                assert!(paid >= price, "payment below price");
                self.market[s] = NO_TILE;
                self.pending |= 1 << t;
                self.stalled = 0;
                self.redesigns_in_a_row = 0;
                self.after_action(paid == price);
            }
            Action::ToCity { tile, x, y } => {
                let me = &mut self.players[p];
                me.reserve &= !(1u64 << tile);
                me.city.put(tile, x as i32, y as i32);
                self.stalled = 0;
                self.redesigns_in_a_row += 1;
                self.after_action(false);
            }
            Action::ToReserve { tile } => {
                let me = &mut self.players[p];
                me.city.take(tile);
                me.reserve |= 1 << tile;
                self.stalled = 0;
                self.redesigns_in_a_row += 1;
                self.after_action(false);
            }
            Action::Swap { out, inn } => {
                let me = &mut self.players[p];
                me.city.swap(out, inn);
                me.reserve = (me.reserve & !(1u64 << inn)) | 1 << out;
                self.stalled = 0;
                self.redesigns_in_a_row += 1;
                self.after_action(false);
            }
            Action::Pass => {
                self.stalled += 1;
                self.after_action(false);
            }
            Action::Place { tile, x, y } => {
                self.pending &= !(1u64 << tile);
                self.players[p].city.put(tile, x as i32, y as i32);
                self.after_placement();
            }
            Action::Reserve { tile } => {
                self.pending &= !(1u64 << tile);
                self.players[p].reserve |= 1 << tile;
                self.after_placement();
            }
            Action::Dirk { tile } => {
                self.pending &= !(1u64 << tile);
                self.give_dirk(tile);
                self.after_placement();
            }
        }
    }
    fn scores(&self) -> Vec<i64> {
        self.scores[..self.n].to_vec()
    }
    fn seat(&self, player: usize) -> usize {
        (player + self.n - self.start) % self.n
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn capped(&self) -> bool {
        self.capped
    }
    /// A state consistent with what `observer` knows: the bag order, the deck order
    /// (scoring cards stay within their piles) and, with `open_hands = false`, the
    /// opponents' cards are resampled; the future chance stream is replaced.
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self {
        self.resampled(Some(observer), rng)
    }
    /// What nobody has seen (the bag order, the deck order within the scoring piles, the
    /// future chance stream) drawn afresh; every hand stays.
    fn resample_chance(&self, rng: &mut Rng) -> Self {
        self.resampled(None, rng)
    }
    /// The public position (market, display, cities, reserves, Dirk, scores, counts of the
    /// bag and the deck, the scoring piles) and the observer's own cards; opponents' cards
    /// only as counts unless `open_hands`.
    fn observation(&self, observer: usize) -> Value {
        let hands: Vec<Value> = (0..self.n)
            .map(|p| {
                let me = &self.players[p];
                if p == observer || self.v.open_hands {
                    json!(me.hand_cards().collect::<Vec<_>>())
                } else {
                    json!(me.cards)
                }
            })
            .collect();
        json!({
            "market": self.market, "display": &self.display[..self.display_len as usize],
            "discard": self.discard, "hands": hands,
            "cities": (0..self.n).map(|p| format!("{:?}", self.players[p].city)).collect::<Vec<_>>(),
            "reserves": (0..self.n).map(|p| self.players[p].reserve).collect::<Vec<_>>(),
            "dirk": self.dirk_tiles, "scores": self.scores.to_vec(), "bag": self.bag.len(),
            "deck": self.deck.len(), "deck_drawn": self.deck_drawn, "piles": [self.pile_a, self.pile_b],
            "scoring_cards_left": self.deck.iter().filter(|&&c| c >= SCORING_A).count(),
            "current": self.current, "phase": format!("{:?}", self.phase), "actions": self.actions_taken,
            "pending": self.pending, "turns": self.turns, "scorings": self.scorings_done,
        })
    }
    /// Two zones: the bag in draw order (tile ids); the money cards the observer has not
    /// seen: the deck in draw order without its scoring cards (whose piles are public),
    /// then, with hidden hands, the opponents' cards.
    fn hidden(&self, observer: usize) -> Vec<Vec<u32>> {
        let bag: Vec<u32> = self.bag.iter().rev().map(|&t| t as u32).collect();
        let mut money: Vec<u32> = self.deck.iter().rev().filter(|&&c| c < SCORING_A).map(|&c| c as u32).collect();
        if !self.v.open_hands {
            for p in (0..self.n).filter(|&p| p != observer) {
                money.extend(self.players[p].hand_cards().map(|c| c as u32));
            }
        }
        vec![bag, money]
    }
}

impl Alhambra {
    /// A state consistent with what `observer` knows (`None`: with what every player knows, so
    /// only what nobody has seen is drawn afresh): the bag order, the deck order (scoring cards
    /// stay within their piles), the future chance stream and, with `open_hands = false`, the
    /// cards of the players other than `observer`.
    fn resampled(&self, observer: Option<usize>, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        g.log = None;
        g.rng = rng::child(rng);
        g.bag.sort_unstable();
        rng::shuffle(rng, &mut g.bag);
        let mut pool: Vec<Card> = g.deck.iter().copied().filter(|&c| c < SCORING_A).collect();
        let hidden_hands = !self.v.open_hands;
        if hidden_hands {
            for p in (0..g.n).filter(|&p| observer.is_some_and(|o| o != p)) {
                pool.extend(g.players[p].hand_cards());
            }
        }
        pool.sort_unstable();
        rng::shuffle(rng, &mut pool);
        if hidden_hands {
            for p in (0..g.n).filter(|&p| observer.is_some_and(|o| o != p)) {
                let k = g.players[p].cards as usize;
                let pl = &mut g.players[p];
                pl.hand = [[0; 9]; 4];
                pl.sums = [0; 4];
                pl.cards = 0;
                for c in pool.drain(pool.len() - k..) {
                    pl.add_card(c);
                }
            }
        }
        // Rebuild the deck top-first, putting undrawn scoring cards back in their piles.
        let mut order: Vec<Card> = pool;
        for (sc, (lo, hi)) in [(SCORING_A, self.pile_a), (SCORING_B, self.pile_b)] {
            if self.deck.contains(&sc) {
                let lo = lo.saturating_sub(self.deck_drawn) as usize;
                let hi = (hi.saturating_sub(self.deck_drawn) as usize).min(order.len() + 1).max(lo + 1);
                let pos = (lo + rng::below(rng, hi - lo)).min(order.len());
                order.insert(pos, sc);
            }
        }
        order.reverse();
        g.deck = order;
        g
    }
}
