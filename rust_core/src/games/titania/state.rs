//! The Titania game state, its actions and the turn structure.
//!
//! A turn is a chain of decisions of the same player (all but the first continue the
//! turn):
//!
//! 1. **Card play** ([`Phase::Play`]): play a card ([`Action::Play`]: card type, ship
//!    colour, space) or stop and draw ([`Action::Draw`] with 0 up to 3 − cards played,
//!    never above a hand of 7). After the third card the only action is `Draw { count: 0 }`
//!    (a one-option decision: so who acts next never depends on hidden fog tiles, which
//!    decide whether the third card's space asks for more decisions).
//! 2. Each ship's **rewards** resolve at once, in the order printed, depth first (a ship
//!    reward's space resolves before the next icon): shells of choice ask for a colour
//!    ([`Phase::Colour`]), a ship reward asks for a neighbouring space ([`Phase::Ship`]), a
//!    crane asks for floors ([`Phase::Build`]: at least one, then more or stop), and every
//!    gain of starfish offers decorations ([`Phase::Decorate`], any number, or stop).
//!    Decisions with nothing to choose are skipped (a ship reward without a legal space or
//!    without a ship left is lost; a build phase ends when no floor is affordable).
//!
//! After the turn, an epoch ends when a ship colour's supply is empty, or when no ship of
//! any colour left in the supply could be placed by anybody any more (see `RULES.md`).

use super::board::{Board, Icon, Kind, ANY, FOG_TILES, MAX_SITES, MAX_SPACES, SCORE_TILES};
use super::variant::{Draw, Epoch2Start, Rules, Variant};
use crate::game::{Decision, Game};
use crate::options::{Files, OptionSpec};
use crate::rng::{child, shuffle, Rng};
use serde_json::{json, Value};
use std::sync::Arc;

pub const MAX_PLAYERS: usize = 4;
pub const SHIPS: u8 = 20;
/// Ships of each colour set aside for the second epoch.
pub const SET_ASIDE: u8 = 3;
pub const FLOORS: u8 = 16;
pub const MAX_FLOOR: u8 = 4;
/// Shell supply per colour as a value: 15 small (1) and 10 large (2) shells.
pub const SHELL_VALUE: u8 = 35;
/// Large shells per colour in the box.
pub const LARGE_SHELLS: u8 = 10;
pub const STARFISH: u8 = 25;
pub const HAND_LIMIT: u8 = 7;
pub const START_HAND: usize = 4;
pub const CARDS_PER_TURN: u8 = 3;
/// Card types: red, blue, yellow, red/blue, red/yellow, blue/yellow (ship-colour bit sets).
pub const CARD_COLOURS: [u8; 6] = [0b001, 0b010, 0b100, 0b011, 0b101, 0b110];
pub const CARD_COUNTS: [u8; 6] = [8, 8, 8, 4, 4, 4];
pub const CARD_NAMES: [&str; 6] = ["red", "blue", "yellow", "red/blue", "red/yellow", "blue/yellow"];
pub const N_CARDS: usize = 36;
/// Points per floor, and on a decorated site.
pub const FLOOR_POINTS: i32 = 3;
pub const DECORATED_FLOOR_POINTS: i32 = 4;
/// Safety cap: the game ends (scored as it stands) after this many turns.
pub const TURN_CAP: u32 = 1_000;
/// Player letters in logs (turn-order position 0 = `a`).
pub const LETTERS: [char; MAX_PLAYERS] = ['a', 'b', 'c', 'd'];

/// Action kinds (bits of `action_kinds`).
pub const KIND_PLAY: u32 = 0;
pub const KIND_DRAW: u32 = 1;
pub const KIND_COLOUR: u32 = 2;
pub const KIND_SHIP: u32 = 3;
pub const KIND_BUILD: u32 = 4;
pub const KIND_END_BUILD: u32 = 5;
pub const KIND_DECORATE: u32 = 6;
pub const KIND_END_DECORATE: u32 = 7;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play a card of type `card` (index into [`CARD_COLOURS`]) as a ship of `colour`
    /// onto `space`.
    Play {
        card: u8,
        colour: u8,
        space: u8,
    },
    /// Stop playing cards and draw `count`; ends the turn.
    Draw {
        count: u8,
    },
    /// The shell colour of a `shells:any` reward.
    Colour {
        colour: u8,
    },
    /// Where a ship reward's ship goes.
    Ship {
        space: u8,
    },
    /// Build the next floor of the `colour` tower on site `site` (site index).
    Build {
        site: u8,
        colour: u8,
    },
    /// Stop building (after at least one floor).
    EndBuild,
    /// Decorate site `site` (site index) with starfish.
    Decorate {
        site: u8,
    },
    EndDecorate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    Play,
    /// Choose the colour of `n` shells.
    Colour {
        n: u8,
    },
    /// Place a reward ship of `colour` next to space `from`.
    Ship {
        colour: u8,
        from: u8,
    },
    /// Build floors on sites next to `crane`; `built` floors so far.
    Build {
        crane: u8,
        built: u8,
    },
    Decorate,
    Over,
}

/// A reward still to resolve in the current turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// An icon gained by a ship of `colour` that entered `space`.
    Icon { icon: Icon, colour: u8, space: u8 },
    /// A ship entered the crane `space`: build.
    Crane { space: u8 },
}

const STACK: usize = 48;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Points scored during play (score tiles are added at the end).
    pub points: i32,
    /// Shells held per colour, as a value (a large shell is 2).
    pub shells: [u8; 4],
    pub stars: u8,
    /// Voyage cards in hand per card type.
    pub hand: [u8; 6],
    /// Score tiles held (values, in the order drawn); `n_tiles` of them.
    pub tiles: [u8; SCORE_TILES],
    pub n_tiles: u8,
    pub tower_points: i32,
    pub decoration_points: i32,
    pub space_points: i32,
    pub floors: u16,
    pub ships_placed: u16,
    pub cards_played: u16,
}

impl Player {
    fn new() -> Self {
        Player {
            points: 0,
            shells: [0; 4],
            stars: 0,
            hand: [0; 6],
            tiles: [0; SCORE_TILES],
            n_tiles: 0,
            tower_points: 0,
            decoration_points: 0,
            space_points: 0,
            floors: 0,
            ships_placed: 0,
            cards_played: 0,
        }
    }
    pub fn hand_size(&self) -> u8 {
        self.hand.iter().sum()
    }
    pub fn tile_points(&self) -> i32 {
        self.tiles[..self.n_tiles as usize].iter().map(|&v| v as i32).sum()
    }
    /// Shells as pieces, as few as possible (large shells first): the tie-break counts pieces.
    /// With `cap`, at most [`LARGE_SHELLS`] large shells per colour (the components).
    pub fn shell_pieces(&self, cap: bool) -> u32 {
        self.shells
            .iter()
            .map(|&v| {
                let large = if cap { (v / 2).min(LARGE_SHELLS) } else { v.div_ceil(2) };
                let small = v.saturating_sub(2 * large);
                (large + small) as u32
            })
            .sum()
    }
    pub fn shell_value(&self) -> u32 {
        self.shells.iter().map(|&v| v as u32).sum()
    }
}

#[derive(Debug, Clone)]
pub struct Titania {
    pub board: Arc<Board>,
    /// `"built-in"` or the path the board was read from.
    pub board_source: Arc<str>,
    /// The rule switches of the variant.
    pub rules: Rules,
    pub n: usize,
    /// Ship-colour bit set on each space.
    pub ships: [u8; MAX_SPACES],
    /// Spaces holding a ship of each colour; their neighbours; spaces with two ships.
    pub has: [u128; 3],
    pub reach: [u128; 3],
    pub full: u128,
    /// The fog tile on each fog slot (index of the first tile with that icon in the
    /// board's list), and the slots whose tile lies face up (this epoch).
    pub fog_tile: [u8; FOG_TILES],
    pub fog_up: u32,
    /// Floors of each colour's tower on each site.
    pub towers: [[u8; 4]; MAX_SITES],
    pub decorated: u32,
    pub ship_supply: [u8; 3],
    pub floor_supply: [u8; 4],
    pub shell_supply: [u8; 4],
    pub star_supply: u8,
    /// Draw pile (top = last), discards per card type.
    pub pile: [u8; N_CARDS],
    pub pile_len: u8,
    pub discard: [u8; 6],
    /// Face-down score tiles (top = last).
    pub tile_pile: [u8; SCORE_TILES],
    pub tile_len: u8,
    pub players: [Player; MAX_PLAYERS],
    pub current: usize,
    pub phase: Phase,
    /// Cards played this turn.
    pub played: u8,
    pub stack: [Effect; STACK],
    pub stack_len: u8,
    /// 0 or 1.
    pub epoch: u8,
    pub turns: u32,
    pub epoch_turns: [u32; 2],
    /// Epochs that ended because no ship could be placed any more (not by an empty supply).
    pub stalls: u8,
    /// The game ended by the [`TURN_CAP`] safety net, not by the rules.
    pub capped: bool,
    /// The stream of future chance events (reshuffles, the second epoch's fog tiles).
    pub rng: Rng,
    pub(crate) log: Option<Vec<Value>>,
}

#[inline]
fn bit(i: usize) -> u128 {
    1u128 << i
}

/// Set bits of a `u128`, lowest first.
#[inline]
pub fn spaces(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// Set bits of a `u32`, lowest first.
#[inline]
pub fn bits32(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

impl Titania {
    /// Sets up a game: the deal (cards, fog tiles, score tiles) from `rng`; later chance
    /// events from a child stream of it.
    pub fn with_board(board: Arc<Board>, board_source: Arc<str>, n: usize, mut rng: Rng) -> Self {
        assert!((2..=MAX_PLAYERS).contains(&n));
        let mut pile = [0u8; N_CARDS];
        let mut k = 0;
        for (t, &count) in CARD_COUNTS.iter().enumerate() {
            for _ in 0..count {
                pile[k] = t as u8;
                k += 1;
            }
        }
        shuffle(&mut rng, &mut pile);
        let mut tile_pile = [0u8; SCORE_TILES];
        tile_pile.copy_from_slice(&board.score_tiles);
        shuffle(&mut rng, &mut tile_pile);
        let mut g = Titania {
            board,
            board_source,
            rules: Rules::default(),
            n,
            ships: [0; MAX_SPACES],
            has: [0; 3],
            reach: [0; 3],
            full: 0,
            fog_tile: [0; FOG_TILES],
            fog_up: 0,
            towers: [[0; 4]; MAX_SITES],
            decorated: 0,
            ship_supply: [0; 3],
            floor_supply: [FLOORS; 4],
            shell_supply: [SHELL_VALUE; 4],
            star_supply: STARFISH,
            pile,
            pile_len: N_CARDS as u8,
            discard: [0; 6],
            tile_pile,
            tile_len: SCORE_TILES as u8,
            players: [Player::new(); MAX_PLAYERS],
            current: 0,
            phase: Phase::Play,
            played: 0,
            stack: [Effect::Crane { space: 0 }; STACK],
            stack_len: 0,
            epoch: 0,
            turns: 0,
            epoch_turns: [0; 2],
            stalls: 0,
            capped: false,
            rng: <Rng as rand::SeedableRng>::from_seed([0; 32]),
            log: None,
        };
        g.deal_fog(&mut rng);
        for p in 0..n {
            for _ in 0..START_HAND {
                let c = g.pop_card().expect("36 cards deal every hand");
                g.players[p].hand[c as usize] += 1;
            }
        }
        g.rng = child(&mut rng);
        g.set_ships(SET_ASIDE);
        g
    }

    /// Lays the fog tiles face down on the fog spaces in a random order.
    fn deal_fog(&mut self, rng: &mut Rng) {
        for (slot, t) in self.fog_tile.iter_mut().enumerate() {
            *t = self.board.fog_code(slot);
        }
        shuffle(rng, &mut self.fog_tile);
        self.fog_up = 0;
    }

    /// Clears the ships and puts one ship of each flag colour on every start space;
    /// `aside` ships per colour stay out of the supply.
    pub(crate) fn set_ships(&mut self, aside: u8) {
        self.ships = [0; MAX_SPACES];
        self.has = [0; 3];
        self.reach = [0; 3];
        self.full = 0;
        self.ship_supply = [SHIPS - aside; 3];
        let board = self.board.clone();
        for &s in &board.starts {
            if let Kind::Start(flags) = board.kinds[s as usize] {
                for c in flags {
                    self.put_ship(c as usize, s as usize);
                }
            }
        }
    }

    /// Puts a ship of `colour` from the supply on `space` (no rewards, no checks).
    pub(crate) fn put_ship(&mut self, colour: usize, space: usize) {
        debug_assert!(self.ships[space] >> colour & 1 == 0 && self.ships[space].count_ones() < 2);
        self.ships[space] |= 1 << colour;
        self.has[colour] |= bit(space);
        self.reach[colour] |= self.board.neigh[space];
        if self.ships[space].count_ones() == 2 {
            self.full |= bit(space);
        }
        self.ship_supply[colour] -= 1;
    }

    fn pop_card(&mut self) -> Option<u8> {
        if self.pile_len == 0 {
            self.reshuffle();
        }
        if self.pile_len == 0 {
            return None;
        }
        self.pile_len -= 1;
        Some(self.pile[self.pile_len as usize])
    }

    /// The discards become the draw pile, shuffled (the pile is empty).
    fn reshuffle(&mut self) {
        let mut k = 0;
        for t in 0..6 {
            for _ in 0..self.discard[t] {
                self.pile[k] = t as u8;
                k += 1;
            }
        }
        self.discard = [0; 6];
        self.pile_len = k as u8;
        shuffle(&mut self.rng, &mut self.pile[..k]);
        if k > 0 {
            self.event(|_| json!({"event": "reshuffle", "cards": k}));
        }
    }

    /// Draws up to `count` cards for player `p` (the hand limit applies).
    fn draw_cards(&mut self, p: usize, count: u8) -> u8 {
        let room = HAND_LIMIT.saturating_sub(self.players[p].hand_size());
        let mut drawn = 0;
        for _ in 0..count.min(room) {
            match self.pop_card() {
                Some(c) => {
                    self.players[p].hand[c as usize] += 1;
                    drawn += 1;
                }
                None => break,
            }
        }
        drawn
    }

    // ------------------------------------------------------------- legality

    /// Whether player `p` can pay for the next floor of the `colour` tower on site `site`.
    #[inline]
    pub fn can_build(&self, p: usize, site: usize, colour: usize) -> bool {
        let h = self.towers[site][colour];
        self.board.site_colours[site] >> colour & 1 == 1
            && h < MAX_FLOOR
            && self.floor_supply[colour] > 0
            && self.players[p].shells[colour] > h
    }

    /// Whether player `p` can build a floor on some site next to `space`.
    pub fn can_build_near(&self, p: usize, space: usize) -> bool {
        bits32(self.board.near_sites[space]).any(|k| (0..4).any(|c| self.can_build(p, k, c)))
    }

    /// Spaces a ship of `colour` may enter now for player `p`, ignoring the rule that it
    /// must touch a ship of its colour: not a tower site, no ship of that colour, not
    /// full, a crane only if `p` can build next to it.
    pub fn enterable(&self, p: usize, colour: usize, candidates: u128) -> u128 {
        let open = candidates & self.board.ship_spaces & !self.has[colour] & !self.full;
        let mut out = open & !self.board.cranes;
        for c in spaces(open & self.board.cranes) {
            if self.can_build_near(p, c) {
                out |= bit(c);
            }
        }
        out
    }

    /// Spaces a card of `colour` can send a ship to for player `p`.
    #[inline]
    pub fn targets(&self, p: usize, colour: usize) -> u128 {
        if self.ship_supply[colour] == 0 {
            return 0;
        }
        self.enterable(p, colour, self.reach[colour])
    }

    /// The most cards the player to act may draw on stopping.
    pub fn max_draw(&self) -> u8 {
        let room = HAND_LIMIT.saturating_sub(self.players[self.current].hand_size());
        let cards = self.pile_len as u32 + self.discard.iter().map(|&d| d as u32).sum::<u32>();
        CARDS_PER_TURN.saturating_sub(self.played).min(room).min(cards.min(255) as u8)
    }

    /// Whether drawing `count` of at most `most` is allowed (`draw`: any number up to it,
    /// or all or none).
    #[inline]
    pub fn draw_ok(&self, count: u8, most: u8) -> bool {
        match self.rules.draw {
            Draw::UpTo => count <= most,
            Draw::AllOrNone => count == 0 || count == most,
        }
    }

    fn can_decorate_any(&self, p: usize) -> bool {
        (0..self.board.sites.len()).any(|k| self.can_decorate(p, k))
    }

    #[inline]
    pub fn can_decorate(&self, p: usize, site: usize) -> bool {
        self.decorated >> site & 1 == 0 && self.board.site_colours[site].count_ones() as u8 <= self.players[p].stars
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    // ------------------------------------------------------------- moves

    /// A ship of `colour` from the supply enters `space` for player `p`: its rewards go on
    /// the stack (fog: the tile turns face up).
    fn enter(&mut self, p: usize, colour: usize, space: usize) {
        self.put_ship(colour, space);
        self.players[p].ships_placed += 1;
        let kind = self.board.kinds[space];
        self.event(|g| {
            json!({"event": "ship", "position": p, "colour": super::board::SHIP_COLOURS[colour],
                   "space": g.board.coords[space], "kind": kind.label()})
        });
        let icon = |icon| Effect::Icon { icon, colour: colour as u8, space: space as u8 };
        match kind {
            Kind::Reward(i) => self.push(icon(i)),
            Kind::Bonus([a, b]) => {
                self.push(icon(b));
                self.push(icon(a));
            }
            Kind::Crane => self.push(Effect::Crane { space: space as u8 }),
            Kind::Fog => {
                let slot = self.board.fog_slot[space] as usize;
                let tile = self.board.fog_tiles[self.fog_tile[slot] as usize];
                if self.fog_up >> slot & 1 == 0 {
                    self.fog_up |= 1 << slot;
                    self.event(
                        |g| json!({"event": "fog_revealed", "space": g.board.coords[space], "tile": tile.name()}),
                    );
                }
                self.push(icon(tile));
            }
            Kind::Start(_) | Kind::Site(_) => unreachable!("ships never enter start spaces or sites"),
        }
    }

    fn push(&mut self, e: Effect) {
        assert!((self.stack_len as usize) < STACK, "reward stack overflow");
        self.stack[self.stack_len as usize] = e;
        self.stack_len += 1;
    }

    /// Resolves rewards until one needs a decision or none is left; then the card play
    /// goes on.
    fn resolve(&mut self) {
        let p = self.current;
        while self.phase == Phase::Play && self.stack_len > 0 {
            self.stack_len -= 1;
            let e = self.stack[self.stack_len as usize];
            match e {
                Effect::Crane { space } => {
                    debug_assert!(self.can_build_near(p, space as usize));
                    self.phase = Phase::Build { crane: space, built: 0 };
                }
                Effect::Icon { icon, colour, space } => self.gain(p, icon, colour, space),
            }
        }
    }

    /// Player `p` receives one icon (a ship of `colour` entered `space`).
    fn gain(&mut self, p: usize, icon: Icon, colour: u8, space: u8) {
        match icon {
            Icon::Shells { colour: ANY, n } => {
                if self.shell_supply.iter().any(|&s| s > 0) {
                    self.phase = Phase::Colour { n };
                }
            }
            Icon::Shells { colour: c, n } => self.gain_shells(p, c as usize, n),
            Icon::Star(n) => {
                let got = n.min(self.star_supply);
                self.star_supply -= got;
                self.players[p].stars += got;
                self.event(|_| json!({"event": "reward", "position": p, "starfish": got}));
                if got > 0 && self.can_decorate_any(p) {
                    self.phase = Phase::Decorate;
                }
            }
            Icon::Tile => {
                if self.tile_len > 0 {
                    self.tile_len -= 1;
                    let v = self.tile_pile[self.tile_len as usize];
                    let me = &mut self.players[p];
                    me.tiles[me.n_tiles as usize] = v;
                    me.n_tiles += 1;
                    self.event(|_| json!({"event": "reward", "position": p, "score_tile": "face down"}));
                }
            }
            Icon::Ship => {
                let c = colour as usize;
                let room = self.enterable(p, c, self.board.neigh[space as usize]);
                if self.ship_supply[c] > 0 && room != 0 {
                    self.phase = Phase::Ship { colour, from: space };
                } else {
                    self.event(|_| {
                        json!({"event": "ship_reward_lost", "position": p, "reason":
                        if room == 0 { "no legal neighbouring space" } else { "no ship of that colour left" }})
                    });
                }
            }
            Icon::Points(n) => {
                let me = &mut self.players[p];
                me.points += n as i32;
                me.space_points += n as i32;
                self.event(|_| json!({"event": "reward", "position": p, "points": n}));
            }
            Icon::Cards(n) => {
                let drawn = self.draw_cards(p, n);
                self.event(|_| json!({"event": "reward", "position": p, "cards": drawn}));
            }
        }
    }

    fn gain_shells(&mut self, p: usize, c: usize, n: u8) {
        let got = n.min(self.shell_supply[c]);
        self.shell_supply[c] -= got;
        self.players[p].shells[c] += got;
        self.event(|_| json!({"event": "reward", "position": p, "shells": super::board::SHELL_COLOURS[c], "n": got}));
    }

    fn build(&mut self, p: usize, site: usize, colour: usize) {
        let floor = self.towers[site][colour] + 1;
        self.towers[site][colour] = floor;
        self.floor_supply[colour] -= 1;
        self.shell_supply[colour] += floor;
        let points = if self.decorated >> site & 1 == 1 { DECORATED_FLOOR_POINTS } else { FLOOR_POINTS };
        let me = &mut self.players[p];
        me.shells[colour] -= floor;
        me.points += points;
        me.tower_points += points;
        me.floors += 1;
        self.event(|g| {
            json!({"event": "floor", "position": p, "site": g.board.coords[g.board.sites[site] as usize],
                   "colour": super::board::SHELL_COLOURS[colour], "floor": floor, "points": points})
        });
    }

    fn decorate(&mut self, p: usize, site: usize) {
        let icons = self.board.site_colours[site].count_ones() as u8;
        let floors: u8 = self.towers[site].iter().sum();
        let points = icons as i32 + floors as i32;
        self.decorated |= 1 << site;
        self.star_supply += icons - 1;
        let me = &mut self.players[p];
        me.stars -= icons;
        me.points += points;
        me.decoration_points += points;
        self.event(|g| {
            json!({"event": "decoration", "position": p, "site": g.board.coords[g.board.sites[site] as usize],
                   "starfish": icons, "points": points})
        });
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        self.epoch_turns[self.epoch as usize] += 1;
        self.played = 0;
        self.phase = Phase::Play;
        let exhausted = self.ship_supply.contains(&0);
        if exhausted || self.stalled() {
            self.stalls += u8::from(!exhausted);
            let reason = if exhausted { "a ship colour's supply is empty" } else { "no ship can be placed any more" };
            self.event(|g| {
                json!({"event": "epoch_end", "epoch": g.epoch + 1, "reason": reason,
                                  "ships": g.ship_rows()})
            });
            if self.epoch == 1 {
                self.finish();
                return;
            }
            self.epoch = 1;
            if self.rules.epoch_2_start == Epoch2Start::StartPlayer {
                // The increment below makes position 0 the first to act.
                self.current = self.n - 1;
            }
            self.set_ships(0);
            let mut rng = self.rng.clone();
            self.deal_fog(&mut rng);
            self.rng = rng;
        } else if self.turns >= TURN_CAP {
            self.capped = true;
            self.event(|_| json!({"event": "turn_cap", "turns": TURN_CAP}));
            self.finish();
            return;
        }
        self.current = (self.current + 1) % self.n;
    }

    /// No ship of a colour left in the supply can be placed by any player any more
    /// (spaces only fill up within an epoch, and nothing but ship rewards pays shells).
    pub fn stalled(&self) -> bool {
        (0..3).all(|c| (0..self.n).all(|p| self.targets(p, c) == 0))
    }

    fn finish(&mut self) {
        self.phase = Phase::Over;
        if self.log.is_some() {
            let scores = self.scores();
            let tiebreaks = self.tiebreaks();
            let rows = self.ship_rows();
            let towers = self.tower_rows();
            let players: Vec<Value> = (0..self.n)
                .map(|p| {
                    let me = &self.players[p];
                    json!({"position": p, "points": me.points, "score_tiles": me.tiles[..me.n_tiles as usize],
                           "towers": me.tower_points, "decorations": me.decoration_points,
                           "spaces": me.space_points, "starfish": me.stars, "shells": me.shells,
                           "hand": hand_json(&me.hand), "tiebreak": tiebreaks[p]})
                })
                .collect();
            if let Some(log) = &mut self.log {
                let end = if self.capped { "turn_cap" } else { "normal" };
                log.push(json!({"event": "final_scores", "end_reason": end, "scores": scores, "players": players}));
                log.push(json!({"event": "board", "legend": SHIP_LEGEND, "rows": rows, "towers": towers}));
            }
        }
    }

    // ------------------------------------------------------------- logs

    fn event(&mut self, f: impl FnOnce(&Self) -> Value) {
        if self.log.is_some() {
            let e = f(self);
            if let Some(log) = &mut self.log {
                log.push(e);
            }
        }
    }

    pub fn disable_log(&mut self) {
        self.log = None;
    }

    /// The board as rows of hexes (axial rows `r`, shifted half a hex per row): each space
    /// as two characters, see [`SHIP_LEGEND`].
    pub fn ship_rows(&self) -> Vec<String> {
        let b = &self.board;
        let (rmin, rmax) = b.coords.iter().fold((i32::MAX, i32::MIN), |(lo, hi), c| (lo.min(c.1), hi.max(c.1)));
        let xs: Vec<i32> = b.coords.iter().map(|&(q, r)| 2 * q + r).collect();
        let xmin = xs.iter().copied().min().unwrap_or(0);
        let xmax = xs.iter().copied().max().unwrap_or(0);
        let width = (xmax - xmin) as usize + 1;
        let mut rows = Vec::new();
        for r in rmin..=rmax {
            let mut line = vec!["  ".to_string(); width];
            for (i, &(q, rr)) in b.coords.iter().enumerate() {
                if rr == r {
                    line[(2 * q + r - xmin) as usize] = self.space_code(i);
                }
            }
            rows.push(line.concat().trim_end().to_string());
        }
        rows
    }

    fn space_code(&self, i: usize) -> String {
        const SHIP: [char; 3] = ['r', 'b', 'y'];
        match self.board.kinds[i] {
            Kind::Site(_) => {
                let k = self.board.site_of[i] as usize;
                let floors: u8 = self.towers[k].iter().sum();
                let deco = if self.decorated >> k & 1 == 1 { '*' } else { 'T' };
                format!("{deco}{floors}")
            }
            _ => {
                let s: String = (0..3).filter(|c| self.ships[i] >> c & 1 == 1).map(|c| SHIP[c]).collect();
                match s.len() {
                    0 => match self.board.kinds[i] {
                        Kind::Crane => "C.".into(),
                        Kind::Fog => {
                            let slot = self.board.fog_slot[i] as usize;
                            if self.fog_up >> slot & 1 == 1 {
                                "f.".into()
                            } else {
                                "F.".into()
                            }
                        }
                        Kind::Bonus(_) => "B.".into(),
                        _ => "..".into(),
                    },
                    1 => format!("{s}."),
                    _ => s,
                }
            }
        }
    }

    /// One line per tower site: its coordinate, colours, floors per colour, decoration.
    pub fn tower_rows(&self) -> Vec<String> {
        (0..self.board.sites.len())
            .map(|k| {
                let (q, r) = self.board.coords[self.board.sites[k] as usize];
                let towers: Vec<String> = (0..4)
                    .filter(|&c| self.board.site_colours[k] >> c & 1 == 1)
                    .map(|c| format!("{}={}", super::board::SHELL_COLOURS[c], self.towers[k][c]))
                    .collect();
                let deco = if self.decorated >> k & 1 == 1 { " decorated" } else { "" };
                format!("({q}, {r}): {}{deco}", towers.join(" "))
            })
            .collect()
    }

    // ------------------------------------------------------------- checks

    /// Conservation and consistency of the position (for tests and the invariant run).
    #[allow(clippy::needless_range_loop)] // parallel arrays indexed by colour and card type
    pub fn check_invariants(&self) -> Result<(), String> {
        let b = &self.board;
        let mut on_board = [0u8; 3];
        for i in 0..b.len() {
            let s = self.ships[i];
            if s.count_ones() > 2 {
                return Err(format!("{}: {} ships", b.name(i), s.count_ones()));
            }
            if s != 0 && matches!(b.kinds[i], Kind::Site(_)) {
                return Err(format!("{}: a ship on a tower site", b.name(i)));
            }
            for (c, n) in on_board.iter_mut().enumerate() {
                if s >> c & 1 == 1 {
                    *n += 1;
                    if self.has[c] >> i & 1 == 0 {
                        return Err(format!("{}: ship cache", b.name(i)));
                    }
                }
            }
            if (self.full >> i & 1 == 1) != (s.count_ones() == 2) {
                return Err(format!("{}: full cache", b.name(i)));
            }
        }
        let aside = if self.epoch == 0 { SET_ASIDE } else { 0 };
        for c in 0..3 {
            if on_board[c] + self.ship_supply[c] + aside != SHIPS {
                return Err(format!("ships of colour {c} not conserved"));
            }
            let reach = spaces(self.has[c]).fold(0u128, |m, s| m | b.neigh[s]);
            if reach != self.reach[c] {
                return Err(format!("reach cache of colour {c}"));
            }
        }
        let ps = &self.players[..self.n];
        let mut cards = [0u32; 6];
        for t in 0..6 {
            cards[t] += self.discard[t] as u32 + ps.iter().map(|p| p.hand[t] as u32).sum::<u32>();
        }
        for &t in &self.pile[..self.pile_len as usize] {
            cards[t as usize] += 1;
        }
        if cards.iter().zip(CARD_COUNTS).any(|(&a, b)| a != b as u32) {
            return Err(format!("cards not conserved: {cards:?}"));
        }
        if ps.iter().any(|p| p.hand_size() > HAND_LIMIT) {
            return Err("a hand over the limit".into());
        }
        let mut floors = [0u32; 4];
        for k in 0..b.sites.len() {
            for c in 0..4 {
                let h = self.towers[k][c];
                if h > MAX_FLOOR || (h > 0 && b.site_colours[k] >> c & 1 == 0) {
                    return Err(format!("{}: tower {c} of {h} floors", b.name(b.sites[k] as usize)));
                }
                floors[c] += h as u32;
            }
        }
        let built: u32 = ps.iter().map(|p| p.floors as u32).sum();
        if floors.iter().sum::<u32>() != built {
            return Err("floors on the board differ from floors built".into());
        }
        for c in 0..4 {
            if floors[c] + self.floor_supply[c] as u32 != FLOORS as u32 {
                return Err(format!("floors of colour {c} not conserved"));
            }
            let held: u32 = ps.iter().map(|p| p.shells[c] as u32).sum();
            if held + self.shell_supply[c] as u32 != SHELL_VALUE as u32 {
                return Err(format!("shells of colour {c} not conserved"));
            }
        }
        let stars: u32 =
            ps.iter().map(|p| p.stars as u32).sum::<u32>() + self.decorated.count_ones() + self.star_supply as u32;
        if stars != STARFISH as u32 {
            return Err(format!("starfish not conserved: {stars}"));
        }
        let tiles: u32 = ps.iter().map(|p| p.n_tiles as u32).sum::<u32>() + self.tile_len as u32;
        if tiles != SCORE_TILES as u32 {
            return Err("score tiles not conserved".into());
        }
        for p in ps {
            let parts = p.tower_points + p.decoration_points + p.space_points;
            if parts != p.points {
                return Err("points differ from their parts".into());
            }
        }
        if self.fog_up >> b.fog_spaces.len() != 0 {
            return Err("fog bits".into());
        }
        let mut fog = self.fog_tile;
        fog.sort_unstable();
        let mut want: Vec<u8> = (0..FOG_TILES).map(|s| b.fog_code(s)).collect();
        want.sort_unstable();
        if fog[..] != want[..] {
            return Err("fog tiles not conserved".into());
        }
        Ok(())
    }
}

/// A hand as `{card type name: count}`.
pub fn hand_json(hand: &[u8; 6]) -> Value {
    let mut m = serde_json::Map::new();
    for t in 0..6 {
        if hand[t] > 0 {
            m.insert(CARD_NAMES[t].into(), json!(hand[t]));
        }
    }
    Value::Object(m)
}

/// The notation of [`Titania::ship_rows`].
pub const SHIP_LEGEND: &str = "each space is two characters in hex rows (row r shifted by r/2): ships r red, b blue, \
     y yellow (`rb` two ships, `r.` one); empty: `F.` fog face down, `f.` fog face up, `C.` crane, `B.` bonus, `..` \
     other; tower sites `T3` (floors built) or `*3` when decorated";

/// The rules: set-up, who acts, legal actions, moves, the outcome and what each player
/// knows (see [`super::hidden`]).
impl Game for Titania {
    type Action = Action;
    type Variant = Variant;

    const NAME: &'static str = "titania";
    /// The history of each rules version: CHANGELOG.md.
    const RULES_VERSION: u32 = 2;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = MAX_PLAYERS;

    fn variant_schema() -> Vec<OptionSpec> {
        super::variant::schema()
    }
    fn parse_variant(value: &Value, n_players: usize, files: &Files) -> crate::error::Result<Variant> {
        super::variant::parse(value, n_players, files)
    }
    fn new(v: &Variant, n: usize, deal: Rng) -> Self {
        let mut g = Titania::with_board(v.board.clone(), v.board_source.clone(), n, deal);
        g.rules = v.rules;
        g
    }
    fn n_players(&self) -> usize {
        self.n
    }
    /// The player to act; every decision after the first of a turn continues it.
    fn decision(&self) -> Decision {
        Decision { acting: 1 << self.current, continues_turn: self.phase != Phase::Play || self.played > 0 }
    }
    fn is_terminal(&self) -> bool {
        self.is_over()
    }
    fn action_kinds(&self, _player: usize) -> u32 {
        let p = self.current;
        match self.phase {
            Phase::Play => {
                let mut k = 1 << KIND_DRAW;
                let hand = &self.players[p].hand;
                let mut colours = 0u8;
                for t in 0..6 {
                    if hand[t] > 0 {
                        colours |= CARD_COLOURS[t];
                    }
                }
                if self.played < CARDS_PER_TURN && (0..3).any(|c| colours >> c & 1 == 1 && self.targets(p, c) != 0) {
                    k |= 1 << KIND_PLAY;
                }
                k
            }
            Phase::Colour { .. } => 1 << KIND_COLOUR,
            Phase::Ship { .. } => 1 << KIND_SHIP,
            Phase::Build { built, .. } => 1 << KIND_BUILD | u32::from(built > 0) << KIND_END_BUILD,
            Phase::Decorate => 1 << KIND_DECORATE | 1 << KIND_END_DECORATE,
            Phase::Over => 0,
        }
    }
    /// Plays by card type, colour, space; draws by count; builds by site, colour.
    fn legal_actions(&self, p: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        let want = |k: u32| kind.is_none_or(|x| x == k);
        match self.phase {
            Phase::Play => {
                if want(KIND_PLAY) && self.played < CARDS_PER_TURN {
                    let hand = self.players[p].hand;
                    let mut targets = [0u128; 3];
                    for (c, t) in targets.iter_mut().enumerate() {
                        *t = self.targets(p, c);
                    }
                    for card in 0..6 {
                        if hand[card] == 0 {
                            continue;
                        }
                        for (c, &t) in targets.iter().enumerate() {
                            if CARD_COLOURS[card] >> c & 1 == 1 {
                                out.extend(spaces(t).map(|s| Action::Play {
                                    card: card as u8,
                                    colour: c as u8,
                                    space: s as u8,
                                }));
                            }
                        }
                    }
                }
                if want(KIND_DRAW) {
                    let most = self.max_draw();
                    out.extend((0..=most).filter(|&k| self.draw_ok(k, most)).map(|count| Action::Draw { count }));
                }
            }
            Phase::Colour { .. } => {
                if want(KIND_COLOUR) {
                    out.extend(
                        (0..4).filter(|&c| self.shell_supply[c] > 0).map(|c| Action::Colour { colour: c as u8 }),
                    );
                }
            }
            Phase::Ship { colour, from } => {
                if want(KIND_SHIP) {
                    let t = self.enterable(p, colour as usize, self.board.neigh[from as usize]);
                    out.extend(spaces(t).map(|s| Action::Ship { space: s as u8 }));
                }
            }
            Phase::Build { crane, built } => {
                if want(KIND_BUILD) {
                    for k in bits32(self.board.near_sites[crane as usize]) {
                        for c in 0..4 {
                            if self.can_build(p, k, c) {
                                out.push(Action::Build { site: k as u8, colour: c as u8 });
                            }
                        }
                    }
                }
                if want(KIND_END_BUILD) && built > 0 {
                    out.push(Action::EndBuild);
                }
            }
            Phase::Decorate => {
                if want(KIND_DECORATE) {
                    for k in 0..self.board.sites.len() {
                        if self.can_decorate(p, k) {
                            out.push(Action::Decorate { site: k as u8 });
                        }
                    }
                }
                if want(KIND_END_DECORATE) {
                    out.push(Action::EndDecorate);
                }
            }
            Phase::Over => {}
        }
    }
    fn is_legal(&self, p: usize, a: &Action) -> bool {
        p == self.current
            && match (self.phase, *a) {
                (Phase::Play, Action::Play { card, colour, space }) => {
                    self.played < CARDS_PER_TURN
                        && (card as usize) < 6
                        && colour < 3
                        && (space as usize) < self.board.len()
                        && self.players[p].hand[card as usize] > 0
                        && CARD_COLOURS[card as usize] >> colour & 1 == 1
                        && self.targets(p, colour as usize) >> space & 1 == 1
                }
                (Phase::Play, Action::Draw { count }) => self.draw_ok(count, self.max_draw()),
                (Phase::Colour { .. }, Action::Colour { colour }) => {
                    colour < 4 && self.shell_supply[colour as usize] > 0
                }
                (Phase::Ship { colour, from }, Action::Ship { space }) => {
                    (space as usize) < self.board.len()
                        && self.enterable(p, colour as usize, self.board.neigh[from as usize]) >> space & 1 == 1
                }
                (Phase::Build { crane, .. }, Action::Build { site, colour }) => {
                    (site as usize) < self.board.sites.len()
                        && colour < 4
                        && self.board.near_sites[crane as usize] >> site & 1 == 1
                        && self.can_build(p, site as usize, colour as usize)
                }
                (Phase::Build { built, .. }, Action::EndBuild) => built > 0,
                (Phase::Decorate, Action::Decorate { site }) => {
                    (site as usize) < self.board.sites.len() && self.can_decorate(p, site as usize)
                }
                (Phase::Decorate, Action::EndDecorate) => true,
                _ => false,
            }
    }
    fn apply(&mut self, p: usize, a: Action) {
        debug_assert!(self.is_legal(p, &a), "illegal {a:?} in {:?}", self.phase);
        match (self.phase, a) {
            (Phase::Play, Action::Play { card, colour, space }) => {
                let me = &mut self.players[p];
                me.hand[card as usize] -= 1;
                me.cards_played += 1;
                self.discard[card as usize] += 1;
                self.played += 1;
                self.enter(p, colour as usize, space as usize);
                self.resolve();
            }
            (Phase::Play, Action::Draw { count }) => {
                let drawn = self.draw_cards(p, count);
                debug_assert_eq!(drawn, count);
                self.end_turn();
            }
            (Phase::Colour { n }, Action::Colour { colour }) => {
                self.gain_shells(p, colour as usize, n);
                self.phase = Phase::Play;
                self.resolve();
            }
            (Phase::Ship { colour, .. }, Action::Ship { space }) => {
                self.phase = Phase::Play;
                self.enter(p, colour as usize, space as usize);
                self.resolve();
            }
            (Phase::Build { crane, built }, Action::Build { site, colour }) => {
                self.build(p, site as usize, colour as usize);
                if self.can_build_near(p, crane as usize) {
                    self.phase = Phase::Build { crane, built: built + 1 };
                } else {
                    self.phase = Phase::Play;
                    self.resolve();
                }
            }
            (Phase::Build { .. }, Action::EndBuild) | (Phase::Decorate, Action::EndDecorate) => {
                self.phase = Phase::Play;
                self.resolve();
            }
            (Phase::Decorate, Action::Decorate { site }) => {
                self.decorate(p, site as usize);
                if !self.can_decorate_any(p) {
                    self.phase = Phase::Play;
                    self.resolve();
                }
            }
            (phase, a) => panic!("action {a:?} in phase {phase:?}"),
        }
    }
    /// Points plus score tiles.
    fn scores(&self) -> Vec<i64> {
        self.players[..self.n].iter().map(|p| (p.points + p.tile_points()) as i64).collect()
    }
    /// Starfish plus shell pieces left (still equal: a shared win); `tiebreak` says how
    /// shells count as pieces.
    fn tiebreaks(&self) -> Vec<i64> {
        let cap = self.rules.tiebreak == super::variant::Tiebreak::Components;
        self.players[..self.n].iter().map(|p| p.stars as i64 + p.shell_pieces(cap) as i64).collect()
    }
    /// Position 0 is the start player (the batch runner rotates agents across positions).
    fn seat(&self, player: usize) -> usize {
        player
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn capped(&self) -> bool {
        self.capped
    }
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self {
        super::hidden::determinize(self, observer, rng)
    }
    fn resample_chance(&self, rng: &mut Rng) -> Self {
        super::hidden::resample_chance(self, rng)
    }
    fn observation(&self, observer: usize) -> Value {
        super::hidden::observation(self, observer)
    }
    fn hidden(&self, observer: usize) -> Vec<Vec<u32>> {
        super::hidden::zones(self, observer)
    }
}
