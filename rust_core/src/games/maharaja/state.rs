//! The Maharaja game state, its actions, the set-up and the round structure.
//!
//! Decisions, in order (see `RULES.md` for the rules behind them):
//!
//! 1. **Set-up.** Each player in seat order takes a character ([`Action::Pick`]; with
//!    `advanced_1` an auction instead: [`Action::Nominate`], [`Action::Bid`],
//!    [`Action::Pass`]); then in character order, repeatedly, each player puts one of their
//!    4 starting houses in a village ([`Action::StartHouse`]).
//! 2. **Each round.** The Maharaja moves (no decision); then every player sets their wheel
//!    in one *simultaneous* decision ([`Action::Wheel`]: two actions, order free). Then, in
//!    character order, each player's turn is a sequence of their own decisions:
//!    [`Action::Travel`] (at most once between two other steps), [`Action::Do`] (a wheel
//!    action, the Builder's free house, or an action token), and [`Action::EndTurn`], which
//!    forfeits whatever wheel actions are left. With `powers = optional` a turn opens with
//!    the Trader's and the Yogi's [`Action::Power`] decisions. A player whose card is taken
//!    picks a new one at once ([`Action::Pick`], their own decision inside the other
//!    player's turn), or with `repick = own_turn` as the first decision of their own turn;
//!    with `advanced_2` a recruited player chooses the card they give ([`Action::Give`]).
//! 3. The Maharaja's city is scored after the last turn (with `powers = optional` the
//!    Sadhu's holder first decides on the power, [`Phase::Sadhu`]); then the next round
//!    begins or the game ends.

use super::map::{Map, N_CITIES, N_SCORING, START};
use super::variant::{Readings, Reveal, Variant};
use crate::rng::Rng;
use serde_json::{json, Value};
use std::sync::Arc;

pub const MAX_PLAYERS: usize = 5;
pub const N_CHARACTERS: usize = 7;
/// Character indices (card number - 1).
pub const MOGUL: usize = 0;
pub const TRADER: usize = 1;
pub const SADHU: usize = 2;
pub const MONK: usize = 3;
pub const BUILDER: usize = 4;
pub const ARTISAN: usize = 5;
pub const YOGI: usize = 6;
pub const CHARACTER_NAMES: [&str; N_CHARACTERS] =
    ["Mogul", "Trader", "Sadhu", "Wandering Monk", "Builder", "Artisan", "Yogi"];

/// Wheel actions.
pub const GOLD: u8 = 0;
pub const HOUSE: u8 = 1;
pub const TWO_HOUSES: u8 = 2;
pub const MOVE_HOUSE: u8 = 3;
pub const QUARRY: u8 = 4;
pub const PALACE: u8 = 5;
pub const PALACE_HOUSE: u8 = 6;
pub const GOVERNOR: u8 = 7;
pub const CHARACTER: u8 = 8;
pub const N_WHEEL: u8 = 9;
pub const WHEEL_NAMES: [&str; N_WHEEL as usize] =
    ["gold", "house", "two_houses", "move_house", "quarry", "palace", "palace_house", "governor", "character"];

pub const START_GOLD: i32 = 15;
pub const HOUSES: u8 = 20;
pub const START_HOUSES: u8 = 4;
pub const SUPPLY_AFTER_SETUP: u8 = 6;
pub const PALACES: u8 = 7;
pub const PALACE_COST: i32 = 12;
pub const ARTISAN_COST: i32 = 9;
/// Gold every other player takes per forfeited action.
pub const FORFEIT_GOLD: i32 = 2;
/// Action tokens in the bank (`advanced_1`).
pub const TOKENS: u8 = 7;
/// Governor track: 7 start places (0..=6, bottom to top), then numbered places 1..=10.
pub const TRACK_LEN: usize = 17;
pub const FIRST_NUMBERED: usize = 7;
pub const EMPTY: u8 = 0;
pub const NONE: u8 = u8::MAX;
/// Safety bound: the game also ends after this many rounds (agents that keep pushing the
/// governors down; no sensible game comes near it).
pub const ROUND_LIMIT: u32 = 60;
/// Gold paid by rank in a scoring, by the number of players present.
pub const PAYOUTS: [&[i32]; 6] = [&[], &[5], &[10, 5], &[11, 7, 3], &[12, 9, 6, 3], &[13, 10, 7, 4, 1]];

/// Action kinds (bits of `action_kinds`): set-up and wheel decisions, then one per turn step.
pub const KIND_PICK: u32 = 0;
pub const KIND_START_HOUSE: u32 = 1;
pub const KIND_AUCTION: u32 = 2;
pub const KIND_WHEEL: u32 = 3;
pub const KIND_TRAVEL: u32 = 4;
/// `KIND_OP + op` for a wheel action (also by the Builder or a token).
pub const KIND_OP: u32 = 5;
pub const KIND_END: u32 = KIND_OP + N_WHEEL as u32;
/// `powers = optional`: use a power or not ([`Action::Power`]).
pub const KIND_POWER: u32 = KIND_END + 1;
pub const N_KINDS: u32 = KIND_POWER + 1;

/// Who pays for or grants an action step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// One of the two actions set on the wheel.
    Wheel,
    /// The Builder's free house build or move (once per turn).
    Builder,
    /// An action token (`advanced_1`, once per turn).
    Token,
}

/// One wheel action with its choices. Sites are map nodes (a city or a village).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Gold,
    House {
        site: u8,
    },
    /// The first house in the architect's city, the second at `second` (`NONE`: only one
    /// built, the action counts as forfeited).
    TwoHouses {
        second: u8,
    },
    MoveHouse {
        from: u8,
        to: u8,
    },
    Quarry,
    /// A palace in the architect's city; `full_price`: the Artisan's holder pays 12
    /// (`powers = optional`, the power not used).
    Palace {
        full_price: bool,
    },
    /// A palace in the architect's city and a house at `site` (`NONE`: palace only, the
    /// action counts as forfeited); `full_price` as for [`Op::Palace`].
    PalaceHouse {
        site: u8,
        full_price: bool,
    },
    /// Move this city's governor 2 places down.
    Governor {
        city: u8,
    },
    /// Take character `take` (index) from the bank or its holder; `give` is the card given
    /// in return (`advanced_2` swap with an empty bank) or `NONE` (standard: your card goes
    /// back to the bank; `advanced_2`: you keep yours).
    Character {
        take: u8,
        give: u8,
    },
    /// `advanced_2`: recruit a card from player `from` (who holds more cards; they choose).
    Recruit {
        from: u8,
    },
}

impl Op {
    pub fn wheel(&self) -> u8 {
        match self {
            Op::Gold => GOLD,
            Op::House { .. } => HOUSE,
            Op::TwoHouses { .. } => TWO_HOUSES,
            Op::MoveHouse { .. } => MOVE_HOUSE,
            Op::Quarry => QUARRY,
            Op::Palace { .. } => PALACE,
            Op::PalaceHouse { .. } => PALACE_HOUSE,
            Op::Governor { .. } => GOVERNOR,
            Op::Character { .. } | Op::Recruit { .. } => CHARACTER,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take character `card` (index) from the bank: at set-up, or after yours was taken.
    Pick {
        card: u8,
    },
    /// Set-up: put a starting house in `village`.
    StartHouse {
        village: u8,
    },
    /// `advanced_1` set-up: put character `card` up for auction.
    Nominate {
        card: u8,
    },
    /// `advanced_1` set-up: bid `amount` gold.
    Bid {
        amount: u8,
    },
    /// `advanced_1` set-up: leave this auction.
    Pass,
    /// The secret wheel: two actions (`first <= second`; the same one twice is allowed).
    Wheel {
        first: u8,
        second: u8,
    },
    /// Move the architect to `city` by a cheapest route: `route` indexes the equally cheap
    /// routes that pay different owners (`route = choose`; always 0 under `first`);
    /// `own_toll`: the Wandering Monk's holder pays the tolls (`powers = optional`, the
    /// power not used).
    Travel {
        city: u8,
        route: u8,
        own_toll: bool,
    },
    Do {
        op: Op,
        by: Source,
    },
    /// End the turn, forfeiting the wheel actions left.
    EndTurn,
    /// `advanced_2`: the recruited player gives character `card`.
    Give {
        card: u8,
    },
    /// `powers = optional`: use the power of character `card` (index) now or not: the
    /// Trader's gold or the Yogi's token at the start of the turn, the Sadhu's points at a
    /// scoring.
    Power {
        card: u8,
        used: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Set-up: `actor` takes a character.
    Pick,
    /// `advanced_1` set-up: `actor` chooses the card to auction.
    Nominate,
    /// `advanced_1` set-up: `actor` bids or passes.
    Bid,
    /// Set-up: `actor` puts a starting house.
    StartHouses,
    /// The simultaneous wheel decision of every player who has not set theirs.
    Wheel,
    /// `actor`'s turn.
    Turn,
    /// `actor` picks from the bank: their card was taken during `turn_player`'s turn, or
    /// (`repick = own_turn`, `actor == turn_player`) their own turn opens with the pick.
    Refill,
    /// `advanced_2`: `actor` chooses the card recruited by `turn_player`.
    Give,
    /// `powers = optional`: the Sadhu's holder `actor` decides whether their outer palaces
    /// score 2 in this round's scoring.
    Sadhu,
    Over,
}

/// Why the game ended (the `end_reason` column's codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    Palaces = 1,
    Track = 2,
    RoundLimit = 3,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub houses_built: u16,
    pub houses_moved: u16,
    pub forfeits: u16,
    pub tolls_paid: u16,
    pub tolls_received: u16,
    pub scoring_gold: u16,
    pub scorings_present: u16,
    pub first_character: u8,
}

/// The auction of `advanced_1`'s set-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Auction {
    pub starter: u8,
    pub card: u8,
    pub high: u8,
    pub high_bidder: u8,
    /// Players still bidding in this auction.
    pub active: u8,
}

#[derive(Debug, Clone)]
pub struct Maharaja {
    pub map: Arc<Map>,
    pub n: usize,
    pub short: bool,
    pub one_palace_per_city: bool,
    pub advanced_1: bool,
    pub advanced_2: bool,
    pub reveal: Reveal,
    pub readings: Readings,
    /// The `map` option as given: `"built-in"` or the path of the map file.
    pub map_source: Arc<str>,
    pub phase: Phase,
    /// Whose decision it is (not used in the wheel decision).
    pub actor: usize,
    /// Whose turn it is (in `Turn`, `Refill` and `Give`).
    pub turn_player: usize,
    pub round: u32,
    pub gold: [i32; MAX_PLAYERS],
    /// Gold the bank has paid out net (players' gold = 15 n + this; checked by tests).
    pub bank_out: i64,
    /// Character cards held (bit c = character c + 1).
    pub chars: [u8; MAX_PLAYERS],
    pub bank_chars: u8,
    /// Houses by site (map node) and player.
    pub houses: [[u8; MAX_PLAYERS]; super::map::MAX_SITES],
    pub site_houses: [u8; super::map::MAX_SITES],
    pub supply: [u8; MAX_PLAYERS],
    pub quarry: [u8; MAX_PLAYERS],
    /// Palaces by city and player, their count per city, and the central palace's owner.
    pub palaces: [[u8; MAX_PLAYERS]; N_CITIES],
    pub city_palaces: [u8; N_CITIES],
    pub central: [u8; N_CITIES],
    pub palaces_built: [u8; MAX_PLAYERS],
    pub architect: [u8; MAX_PLAYERS],
    /// The governor track: the city on each place (`EMPTY` = none); place 0 is the bottom.
    pub track: [u8; TRACK_LEN],
    pub maharaja: u8,
    /// Wheels: the two actions set (`NONE` until set), whether shown, whether acted.
    pub wheel: [[u8; 2]; MAX_PLAYERS],
    pub wheel_set: u8,
    pub revealed: u8,
    pub acted: u8,
    /// The current turn: wheel actions left, travelled since the last step, powers used.
    pub remaining: [u8; 2],
    pub moved: bool,
    /// Steps (travel, actions) taken in the current turn.
    pub steps: u8,
    pub character_done: bool,
    pub builder_used: bool,
    pub token_used: bool,
    /// `powers = optional`: the start-of-turn powers still to decide (bit c = character c).
    pub power_offer: u8,
    /// `powers = optional`: the Sadhu's holder declined the power for this scoring.
    pub sadhu_waived: bool,
    pub tokens: [u8; MAX_PLAYERS],
    pub bank_tokens: u8,
    pub auction: Auction,
    /// Set-up: starting houses still to place per player.
    pub to_place: [u8; MAX_PLAYERS],
    pub last_round: bool,
    pub end_reason: Option<EndReason>,
    /// Round of the first scoring of each city (0 = never).
    pub first_scored: [u32; N_CITIES],
    pub stats: [Stats; MAX_PLAYERS],
    /// Turn-order position of each player at the start of round 1.
    pub start_seat: [u8; MAX_PLAYERS],
    pub rng: Rng,
    pub(crate) log: Option<Vec<Value>>,
}

/// Characters in a bit set, lowest first.
pub fn bits(mut set: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

impl Maharaja {
    /// Sets up a game: position 0 is the youngest player (first to take a character). The
    /// deal stream only seeds the state's own stream (the set-up has no chance event).
    pub fn setup(v: &Variant, n: usize, rng: Rng) -> Self {
        assert!((2..=MAX_PLAYERS).contains(&n), "2-5 players");
        let mut track = [EMPTY; TRACK_LEN];
        let mut order: [u8; N_SCORING] = std::array::from_fn(|i| i as u8 + 1);
        let mut rng = rng;
        crate::rng::shuffle(&mut rng, &mut order);
        track[..N_SCORING].copy_from_slice(&order);
        let n_chars = if v.advanced_1 { 7 } else { 6 };
        let mut g = Maharaja {
            map: v.map.clone(),
            n,
            short: v.short,
            one_palace_per_city: v.one_palace_per_city,
            advanced_1: v.advanced_1,
            advanced_2: v.advanced_2,
            reveal: v.reveal,
            readings: v.readings,
            map_source: Arc::from(v.map_source.as_str()),
            phase: if v.advanced_1 { Phase::Nominate } else { Phase::Pick },
            actor: 0,
            turn_player: 0,
            round: 0,
            gold: [START_GOLD; MAX_PLAYERS],
            bank_out: 0,
            chars: [0; MAX_PLAYERS],
            bank_chars: ((1u16 << n_chars) - 1) as u8,
            houses: [[0; MAX_PLAYERS]; super::map::MAX_SITES],
            site_houses: [0; super::map::MAX_SITES],
            supply: [START_HOUSES; MAX_PLAYERS],
            quarry: [HOUSES - START_HOUSES - SUPPLY_AFTER_SETUP; MAX_PLAYERS],
            palaces: [[0; MAX_PLAYERS]; N_CITIES],
            city_palaces: [0; N_CITIES],
            central: [NONE; N_CITIES],
            palaces_built: [0; MAX_PLAYERS],
            architect: [START as u8; MAX_PLAYERS],
            track,
            maharaja: START as u8,
            wheel: [[NONE; 2]; MAX_PLAYERS],
            wheel_set: 0,
            revealed: 0,
            acted: 0,
            remaining: [NONE; 2],
            moved: false,
            steps: 0,
            character_done: false,
            builder_used: false,
            token_used: false,
            power_offer: 0,
            sadhu_waived: false,
            tokens: [0; MAX_PLAYERS],
            bank_tokens: if v.advanced_1 { TOKENS } else { 0 },
            auction: Auction { starter: 0, card: NONE, high: 0, high_bidder: NONE, active: 0 },
            to_place: [START_HOUSES; MAX_PLAYERS],
            last_round: false,
            end_reason: None,
            first_scored: [0; N_CITIES],
            stats: [Stats::default(); MAX_PLAYERS],
            start_seat: std::array::from_fn(|p| p as u8),
            rng,
            log: None,
        };
        for p in n..MAX_PLAYERS {
            g.supply[p] = 0;
            g.quarry[p] = 0;
            g.gold[p] = 0;
            g.to_place[p] = 0;
        }
        g
    }

    // ------------------------------------------------------------- small queries

    pub fn all_players(&self) -> u8 {
        ((1u16 << self.n) - 1) as u8
    }

    /// The lowest character number held (index), or 7 if none (only mid-exchange).
    pub fn lowest_char(&self, p: usize) -> usize {
        if self.chars[p] == 0 {
            N_CHARACTERS
        } else {
            self.chars[p].trailing_zeros() as usize
        }
    }

    pub fn holds(&self, p: usize, c: usize) -> bool {
        self.chars[p] >> c & 1 == 1
    }

    /// The holder of character `c`, if a player holds it.
    pub fn holder(&self, c: usize) -> Option<usize> {
        (0..self.n).find(|&p| self.holds(p, c))
    }

    pub fn village_limit(&self) -> u8 {
        if self.n == 2 {
            1
        } else {
            2
        }
    }

    /// Palace spaces of a city: 7, or 6 with `advanced_1`'s neutral house (fewer than 5 players).
    pub fn palace_spaces(&self) -> u8 {
        if self.advanced_1 && self.n < 5 {
            6
        } else {
            7
        }
    }

    pub fn palace_cost(&self, p: usize) -> i32 {
        if self.holds(p, ARTISAN) {
            ARTISAN_COST
        } else {
            PALACE_COST
        }
    }

    /// The place on the track at which a governor arriving ends the game (place 10; 8 short).
    pub fn end_place(&self) -> usize {
        FIRST_NUMBERED - 1 + if self.short { 8 } else { 10 }
    }

    pub fn palace_goal(&self) -> u8 {
        if self.short {
            6
        } else {
            7
        }
    }

    pub fn gov_place(&self, city: usize) -> usize {
        self.track.iter().position(|&c| c as usize == city).expect("every governor is on the track")
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Players who have not yet taken their turn this round, lowest character first.
    pub fn next_to_act(&self) -> Option<usize> {
        (0..self.n).filter(|&p| self.acted >> p & 1 == 0).min_by_key(|&p| self.lowest_char(p))
    }

    /// Turn-order position of each player by their lowest card now.
    pub fn character_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.n).collect();
        order.sort_by_key(|&p| self.lowest_char(p));
        order
    }

    /// The players who act now (bit set): every player still to set a wheel in the wheel
    /// decision, else the actor; none once over.
    pub fn acting(&self) -> u32 {
        match self.phase {
            Phase::Wheel => (self.all_players() & !self.wheel_set) as u32,
            Phase::Over => 0,
            _ => 1 << self.actor,
        }
    }

    /// Conservation and consistency of the position (for tests and the invariant run).
    pub fn check_invariants(&self) -> Result<(), String> {
        let total: i64 = self.gold[..self.n].iter().map(|&g| g as i64).sum();
        if total != START_GOLD as i64 * self.n as i64 + self.bank_out {
            return Err(format!("gold: players hold {total}, expected 15 × {} + {} paid out", self.n, self.bank_out));
        }
        if let Some(p) = (0..self.n).find(|&p| self.gold[p] < 0) {
            return Err(format!("player {p}: negative gold {}", self.gold[p]));
        }
        let sites = self.map.n_sites();
        for s in 0..sites {
            let sum: u8 = self.houses[s][..self.n].iter().sum();
            if sum != self.site_houses[s] {
                return Err(format!("site {s}: house count cache {} != {sum}", self.site_houses[s]));
            }
            if super::map::Map::is_village(s) && sum > self.village_limit() {
                return Err(format!("{}: {sum} houses, limit {}", self.map.site_name(s), self.village_limit()));
            }
        }
        if self.site_houses[START] != 0 {
            return Err("houses in the starting city".into());
        }
        for p in 0..self.n {
            let board: u32 = (0..sites).map(|s| self.houses[s][p] as u32).sum();
            let placed_at_setup = (START_HOUSES - self.to_place[p]) as u32;
            let held = board + self.supply[p] as u32 + self.quarry[p] as u32;
            let expect = if self.phase == Phase::StartHouses || self.round == 0 {
                START_HOUSES as u32 + (HOUSES - START_HOUSES - SUPPLY_AFTER_SETUP) as u32
            } else {
                HOUSES as u32
            };
            if held != expect || (self.round == 0 && board != placed_at_setup) {
                return Err(format!("player {p}: houses not conserved ({board} on the board, {held} in all)"));
            }
            let palaces: u32 = (0..N_CITIES).map(|c| self.palaces[c][p] as u32).sum();
            if palaces != self.palaces_built[p] as u32 || self.palaces_built[p] > PALACES {
                return Err(format!("player {p}: {palaces} palaces on the map, {} built", self.palaces_built[p]));
            }
            for c in 0..N_CITIES {
                if self.one_palace_per_city && self.palaces[c][p] > 1 {
                    return Err(format!("player {p}: two palaces in {}", self.map.names[c]));
                }
            }
        }
        for c in 0..N_CITIES {
            let sum: u8 = self.palaces[c][..self.n].iter().sum();
            if sum != self.city_palaces[c] || sum > self.palace_spaces() || (c == START && sum > 0) {
                return Err(format!("{}: {sum} palaces (cache {})", self.map.names[c], self.city_palaces[c]));
            }
            let central_ok = if sum == 0 {
                self.central[c] == NONE
            } else {
                self.central[c] != NONE && self.palaces[c][self.central[c] as usize] > 0
            };
            if !central_ok {
                return Err(format!("{}: central palace owner {} inconsistent", self.map.names[c], self.central[c]));
            }
        }
        let mut seen = self.bank_chars;
        for p in 0..self.n {
            if seen & self.chars[p] != 0 {
                return Err(format!("player {p}: a character held twice"));
            }
            seen |= self.chars[p];
            let one = self.chars[p].count_ones() == 1;
            let setting_up = matches!(self.phase, Phase::Pick | Phase::Nominate | Phase::Bid);
            let refilling = self.phase == Phase::Refill && p == self.actor;
            let waiting = self.readings.repick_own_turn && self.chars[p] == 0;
            if !(self.advanced_2 || one || setting_up || refilling || waiting) {
                return Err(format!("player {p}: holds {} characters", self.chars[p].count_ones()));
            }
        }
        let n_chars = if self.advanced_1 { 7 } else { 6 };
        if seen != ((1u16 << n_chars) - 1) as u8 {
            return Err(format!("characters: {seen:#b} in play and bank, expected {n_chars}"));
        }
        let tokens: u8 = self.tokens[..self.n].iter().sum::<u8>() + self.bank_tokens;
        if tokens != if self.advanced_1 { TOKENS } else { 0 } {
            return Err(format!("action tokens: {tokens}"));
        }
        let mut govs: Vec<u8> = self.track.iter().copied().filter(|&c| c != EMPTY).collect();
        govs.sort_unstable();
        if govs != (1..=N_SCORING as u8).collect::<Vec<_>>() {
            return Err(format!("governor track {:?}", self.track));
        }
        Ok(())
    }

    // ------------------------------------------------------------- set-up flow

    /// After a set-up character is taken: the next picker, or the starting houses.
    pub(crate) fn after_setup_pick(&mut self) {
        let next = (self.actor + 1..self.n).find(|&q| self.chars[q] == 0);
        match next {
            Some(q) => self.actor = q,
            None => self.begin_start_houses(),
        }
    }

    pub(crate) fn begin_start_houses(&mut self) {
        for (i, p) in self.character_order().into_iter().enumerate() {
            self.start_seat[p] = i as u8;
            self.stats[p].first_character = self.lowest_char(p) as u8 + 1;
        }
        self.phase = Phase::StartHouses;
        self.actor = self.character_order()[0];
        self.log_event(|g| {
            json!({"event": "characters", "held": (0..g.n).map(|p| g.char_names(p)).collect::<Vec<_>>(),
                   "gold": g.gold[..g.n].to_vec()})
        });
    }

    /// After a starting house: the next player in character order with houses left, or the
    /// first round.
    pub(crate) fn after_start_house(&mut self) {
        let order = self.character_order();
        let i = order.iter().position(|&p| p == self.actor).expect("actor in order");
        for k in 1..=self.n {
            let q = order[(i + k) % self.n];
            if self.to_place[q] > 0 {
                self.actor = q;
                return;
            }
        }
        for p in 0..self.n {
            self.supply[p] = SUPPLY_AFTER_SETUP;
        }
        self.begin_round();
    }

    // ------------------------------------------------------------- rounds

    /// Step 1 of a round: the Maharaja visits the lowest governor's city; that governor goes
    /// to the place above the highest occupied one. Then the wheels are set.
    pub(crate) fn begin_round(&mut self) {
        self.round += 1;
        let lowest = self.track.iter().position(|&c| c != EMPTY).expect("governors on the track");
        let city = self.track[lowest];
        self.track[lowest] = EMPTY;
        let highest = self.track.iter().rposition(|&c| c != EMPTY).expect("governors on the track");
        let target = (highest + 1).max(FIRST_NUMBERED).min(self.end_place());
        self.track[target] = city;
        self.maharaja = city;
        if target >= self.end_place() && !self.last_round {
            self.last_round = true;
            self.end_reason.get_or_insert(EndReason::Track);
        }
        self.phase = Phase::Wheel;
        self.wheel = [[NONE; 2]; MAX_PLAYERS];
        self.wheel_set = 0;
        self.revealed = 0;
        self.acted = 0;
        self.log_event(|g| {
            json!({"event": "round", "round": g.round, "maharaja": g.map.names[city as usize],
                   "governor_place": place_name(target), "track": g.track_json(), "last_round": g.last_round})
        });
    }

    /// Records a player's wheel; once every player has set theirs the turns begin.
    pub(crate) fn set_wheel(&mut self, p: usize, first: u8, second: u8) {
        debug_assert!(self.wheel_set >> p & 1 == 0, "player {p} already set the wheel");
        self.wheel[p] = [first.min(second), first.max(second)];
        self.wheel_set |= 1 << p;
        if self.wheel_set == self.all_players() {
            if self.reveal == Reveal::Together {
                self.revealed = self.all_players();
                self.log_event(|g| {
                    json!({"event": "wheels_revealed",
                           "wheels": (0..g.n).map(|q| g.wheel_names(q)).collect::<Vec<_>>()})
                });
            }
            self.begin_next_turn();
        }
    }

    /// Starts the next player's turn in character order, or scores the round.
    pub(crate) fn begin_next_turn(&mut self) {
        let Some(p) = self.next_to_act() else {
            self.before_scoring();
            return;
        };
        self.phase = Phase::Turn;
        self.actor = p;
        self.turn_player = p;
        self.remaining = self.wheel[p];
        self.moved = false;
        self.steps = 0;
        self.character_done = false;
        self.builder_used = false;
        self.token_used = false;
        self.power_offer = 0;
        let shown = self.revealed >> p & 1 == 0;
        self.revealed |= 1 << p;
        self.log_event(|g| {
            let mut e = json!({"event": "turn", "position": p, "characters": g.char_names(p), "gold": g.gold[p],
                               "architect": g.map.names[g.architect[p] as usize]});
            if shown {
                e["wheel"] = json!(g.wheel_names(p));
            }
            e
        });
        if self.chars[p] == 0 {
            // `repick = own_turn`: the card was taken; the turn begins with a pick.
            self.phase = Phase::Refill;
            return;
        }
        self.start_of_turn_powers(p);
    }

    /// The Trader's gold and the Yogi's token at the start of `p`'s turn: taken at once, or
    /// (`powers = optional`) offered as decisions.
    pub(crate) fn start_of_turn_powers(&mut self, p: usize) {
        let trader = self.holds(p, TRADER);
        let yogi = self.holds(p, YOGI) && self.bank_tokens > 0;
        if self.readings.powers_optional {
            self.power_offer = (trader as u8) << TRADER | (yogi as u8) << YOGI;
            return;
        }
        if trader {
            self.take_from_bank(p, 1);
        }
        if yogi {
            self.take_token(p);
        }
    }

    pub(crate) fn take_token(&mut self, p: usize) {
        self.bank_tokens -= 1;
        self.tokens[p] += 1;
    }

    /// Ends the current turn: the wheel actions left are forfeited.
    pub(crate) fn end_turn(&mut self) {
        let p = self.turn_player;
        for k in 0..2 {
            if self.remaining[k] != NONE {
                self.forfeit(p, self.remaining[k]);
                self.remaining[k] = NONE;
            }
        }
        self.acted |= 1 << p;
        self.begin_next_turn();
    }

    /// Every other player takes 2 gold from the bank.
    pub(crate) fn forfeit(&mut self, p: usize, wheel: u8) {
        self.stats[p].forfeits += 1;
        for q in 0..self.n {
            if q != p {
                self.take_from_bank(q, FORFEIT_GOLD);
            }
        }
        self.log_event(|_| json!({"event": "forfeit", "position": p, "action": WHEEL_NAMES[wheel as usize]}));
    }

    pub(crate) fn take_from_bank(&mut self, p: usize, amount: i32) {
        self.gold[p] += amount;
        self.bank_out += amount as i64;
    }

    pub(crate) fn pay_bank(&mut self, p: usize, amount: i32) {
        debug_assert!(self.gold[p] >= amount, "player {p} cannot pay {amount}");
        self.gold[p] -= amount;
        self.bank_out -= amount as i64;
    }

    /// Before step 4 (`powers = optional`): the Sadhu's holder decides whether to use the
    /// power when it can count (they have an outer palace in the scored city).
    fn before_scoring(&mut self) {
        let city = self.maharaja as usize;
        if let Some(s) = self.holder(SADHU).filter(|_| self.readings.powers_optional) {
            let outer = self.palaces[city][s] as i32 - (self.central[city] as usize == s) as i32;
            if outer > 0 {
                self.phase = Phase::Sadhu;
                self.actor = s;
                return;
            }
        }
        self.score_round();
    }

    /// The Sadhu's decision, then the scoring.
    pub(crate) fn sadhu_decides(&mut self, p: usize, used: bool) {
        self.sadhu_waived = !used;
        self.log_event(|_| json!({"event": "power", "position": p, "character": "3 Sadhu", "used": used}));
        self.score_round();
    }

    /// Step 4: scores the Maharaja's city, then starts the next round or ends the game.
    pub(crate) fn score_round(&mut self) {
        let city = self.maharaja as usize;
        let pts = self.city_points(city);
        let ranking = self.ranking(&pts);
        let pay = PAYOUTS[ranking.len()];
        for (&p, &gold) in ranking.iter().zip(pay) {
            self.take_from_bank(p, gold);
            self.stats[p].scoring_gold += gold as u16;
            self.stats[p].scorings_present += 1;
        }
        self.sadhu_waived = false;
        if self.first_scored[city] == 0 {
            self.first_scored[city] = self.round;
        }
        self.log_event(|g| {
            json!({"event": "scoring", "round": g.round, "city": g.map.names[city],
                   "points": pts[..g.n].to_vec(), "ranking_positions": ranking,
                   "gold_paid": pay.to_vec(), "gold": g.gold[..g.n].to_vec()})
        });
        if self.last_round {
            self.finish();
        } else if self.round >= ROUND_LIMIT {
            self.end_reason = Some(EndReason::RoundLimit);
            self.finish();
        } else {
            self.begin_round();
        }
    }

    /// Each player's points in `city` now (0 = not present).
    pub fn city_points(&self, city: usize) -> [i32; MAX_PLAYERS] {
        let mut pts = [0; MAX_PLAYERS];
        for (p, slot) in pts.iter_mut().enumerate().take(self.n) {
            let own = self.palaces[city][p] as i32;
            let central = (self.central[city] as usize == p) as i32;
            let outer = if self.holds(p, SADHU) && !self.sadhu_waived { 2 } else { 1 };
            let mut v = (self.architect[p] as usize == city) as i32
                + self.houses[city][p] as i32
                + 3 * central
                + outer * (own - central);
            if self.advanced_1 {
                v += bits(self.chars[p]).filter(|&c| self.map.home[city] as usize == c + 1).count() as i32;
            }
            *slot = v;
        }
        pts
    }

    /// Players present (points > 0), best first: more points, then the lower character.
    pub fn ranking(&self, pts: &[i32; MAX_PLAYERS]) -> Vec<usize> {
        let mut present: Vec<usize> = (0..self.n).filter(|&p| pts[p] > 0).collect();
        present.sort_by_key(|&p| (-pts[p], self.lowest_char(p)));
        present
    }

    fn finish(&mut self) {
        self.phase = Phase::Over;
        self.log_event(|g| {
            json!({"event": "game_end", "round": g.round,
                   "reason": match g.end_reason { Some(EndReason::Palaces) => "palaces", Some(EndReason::Track) => "track", _ => "round_limit" },
                   "palaces": g.palaces_built[..g.n].to_vec(), "gold": g.gold[..g.n].to_vec(),
                   "characters": (0..g.n).map(|p| g.char_names(p)).collect::<Vec<_>>()})
        });
    }

    /// Final scores: palaces built.
    pub fn score_vec(&self) -> Vec<i64> {
        self.palaces_built[..self.n].iter().map(|&x| x as i64).collect()
    }

    /// Tie-break on equal palaces: more gold, then the lower character (higher is better).
    pub fn tiebreak_vec(&self) -> Vec<i64> {
        (0..self.n).map(|p| self.gold[p] as i64 * 16 + (N_CHARACTERS - self.lowest_char(p)) as i64).collect()
    }

    // ------------------------------------------------------------- logs

    pub(crate) fn log_event(&mut self, f: impl FnOnce(&Self) -> Value) {
        if self.log.is_some() {
            let e = f(self);
            if let Some(log) = &mut self.log {
                log.push(e);
            }
        }
    }

    pub fn char_names(&self, p: usize) -> Vec<String> {
        bits(self.chars[p]).map(|c| format!("{} {}", c + 1, CHARACTER_NAMES[c])).collect()
    }

    pub fn wheel_names(&self, p: usize) -> Vec<&'static str> {
        self.wheel[p].iter().filter(|w| **w != NONE).map(|&w| WHEEL_NAMES[w as usize]).collect()
    }

    /// The track from the bottom: `[place, city]` for every occupied place.
    pub fn track_json(&self) -> Value {
        let places: Vec<Value> = (0..TRACK_LEN)
            .filter(|&i| self.track[i] != EMPTY)
            .map(|i| json!([place_name(i), self.map.names[self.track[i] as usize]]))
            .collect();
        json!(places)
    }
}

/// A track place for people: `start 1`..`start 7`, then `1`..`10`.
pub fn place_name(i: usize) -> String {
    if i < FIRST_NUMBERED {
        format!("start {}", i + 1)
    } else {
        format!("{}", i - FIRST_NUMBERED + 1)
    }
}
