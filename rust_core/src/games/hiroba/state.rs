//! The Hiroba game state, its actions and the turn structure.
//!
//! A turn is one mandatory decision and one optional one:
//!
//! 1. **Pebble** ([`KIND_PEBBLE`]): place one pebble ([`Action::Place`]) — the first on an
//!    empty land start cell, later in the row or column of one of your pebbles (the last
//!    one with `line_rule = last`), never repeating a number in that row, column or garden.
//!    With no legal placement the only action is [`Action::Pass`] ([`KIND_PASS`]).
//! 2. **Stone** (only if you hold a stone and some cell may take one): [`Action::Stone`]
//!    ([`KIND_STONE`]) on an empty land cell (not on a start cell while some player has not
//!    placed a first pebble), or [`Action::NoStone`] ([`KIND_PASS`]).
//!
//! **Passing and the end** (the engine's reading, a **Decision** of `RULES.md`):
//! placements only ever disappear (cells fill, numbers get used, your own lines and hand
//! change only when you place), so a player who cannot place now can never place again.
//! Such a player passes once — their remaining pebbles stay off the board — and is then
//! out of the pebble play, but keeps their place in turn order for their stones: on each
//! later turn they only decide whether to place a stone, and a player with nothing to
//! decide (out of pebble play and no stone, or no cell for one) is skipped, which is not a
//! turn (with `stone_turns = last_turn` such a player gets no more turns at all). A player who has placed all 9 pebbles is out of the pebble play the same way
//! (without passing). The game ends after a turn (its optional stone included) when no
//! player still in the pebble play can place; then it is scored. [`Hiroba::turns`]
//! counts completed turns.

use super::board::{bit, cells, col_of, deal, render_rows, row_of, Board, Deal, COL, N_CELLS, N_GARDENS, ROW};
use super::scoring::{self, Outcome, NO_CELL};
use super::variant::{LineRule, Variant};
use crate::game::{Decision, Game};
use crate::options::{Files, OptionSpec};
use crate::rng::Rng;
use serde_json::{json, Value};

pub const MAX_PLAYERS: usize = 4;
pub const PEBBLES: u8 = 9;
/// Pebbles of each kind in hand at the start: 1/9, 2/8, 3/7, 4/6 twice each, 5/5 once.
pub const HAND: [u8; 5] = [2, 2, 2, 2, 1];
/// The numbers a pebble kind can show (bit v = number v).
pub const KIND_NUMBERS: [u16; 5] = [1 << 1 | 1 << 9, 1 << 2 | 1 << 8, 1 << 3 | 1 << 7, 1 << 4 | 1 << 6, 1 << 5];
/// Bits 1..=9: every number.
pub const NUMBERS: u16 = 0x3FE;
pub const NOBODY: u8 = u8::MAX;
/// Player letters in logs and boards (turn-order position 0 = `a`).
pub const LETTERS: [char; MAX_PLAYERS] = ['a', 'b', 'c', 'd'];

/// Action kinds (bits of [`Hiroba::kinds`]).
pub const KIND_PEBBLE: u32 = 0;
pub const KIND_STONE: u32 = 1;
/// Declining: `Pass` (no legal placement) or `NoStone`.
pub const KIND_PASS: u32 = 2;

/// The pebble kind (index into [`HAND`]) showing `number`: 1/9 → 0, 2/8 → 1, 3/7 → 2,
/// 4/6 → 3, 5/5 → 4.
#[inline]
pub const fn pebble_kind(number: u8) -> usize {
    (if number <= 5 { number } else { 10 - number }) as usize - 1
}

/// Stones dealt by turn-order position: the start player 2, the second 1; with 3
/// players the third 0; with 4 players the third 1 and the fourth 0.
pub fn stones_dealt(n_players: usize, position: usize) -> u8 {
    match position {
        0 => 2,
        1 => 1,
        2 if n_players == 4 => 1,
        _ => 0,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place a pebble showing `number` (its kind is [`pebble_kind`]) on `cell`.
    Place { cell: u8, number: u8 },
    /// No legal placement: pass (the remaining pebbles stay off the board).
    Pass,
    /// Place a stone on `cell`.
    Stone { cell: u8 },
    /// Keep your stones this turn.
    NoStone,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The current player places a pebble or passes.
    Pebble,
    /// The current player may place a stone.
    Stone,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Pebbles in hand per kind (see [`HAND`]).
    pub hand: [u8; 5],
    pub placed: u8,
    /// Cells in line with the player's pebbles under the line rule (all rows and columns
    /// of their pebbles, or those of the last one).
    pub reach: u128,
    /// Cell of the first and of the latest pebble (`NO_CELL` before).
    pub first: u8,
    pub last: u8,
    pub stones: u8,
    pub stones_placed: u8,
    /// Passed (out of the pebble play with pebbles left).
    pub passed: bool,
}

impl Player {
    fn new(stones: u8) -> Self {
        Player {
            hand: HAND,
            placed: 0,
            reach: 0,
            first: NO_CELL,
            last: NO_CELL,
            stones,
            stones_placed: 0,
            passed: false,
        }
    }
    pub fn in_hand(&self) -> u8 {
        self.hand.iter().sum()
    }
}

#[derive(Debug, Clone)]
pub struct Hiroba {
    pub n: usize,
    pub line_rule: LineRule,
    pub board: Board,
    /// The player whose pebble is on each cell (`NOBODY` if none) and its number (0 if none).
    pub owner: [u8; N_CELLS],
    pub number: [u8; N_CELLS],
    /// Land garden cells holding nothing.
    pub empty: u128,
    pub stones: u128,
    /// Numbers used (bit v) in each row, column and garden.
    pub row_used: [u16; 9],
    pub col_used: [u16; 9],
    pub garden_used: [u16; N_GARDENS],
    /// Each player's pebble sum in each garden.
    pub garden_sum: [[u8; MAX_PLAYERS]; N_GARDENS],
    pub players: [Player; MAX_PLAYERS],
    pub current: usize,
    pub phase: Phase,
    /// In the pebble phase: whether the current player has a legal placement.
    pub can_place: bool,
    pub turns: u32,
    /// The final scoring, once the game is over.
    pub outcome: Option<Outcome>,
    /// Fingerprint of the tile set (for logs).
    pub tile_set: u64,
    /// Variant `stones_on_start = anytime`: stones may go on start cells before every
    /// player has placed a first pebble.
    pub stones_anywhere: bool,
    /// Variant `stone_turns = last_turn`: a player out of the pebble play gets no more
    /// (stone-only) turns.
    pub no_stone_turns: bool,
    pub(super) log: Option<Vec<Value>>,
}

impl Hiroba {
    /// The position before the first turn on a given board.
    pub fn from_board(board: Board, n: usize, line_rule: LineRule, tile_set: u64) -> Self {
        assert!((2..=MAX_PLAYERS).contains(&n));
        let mut g = Hiroba {
            n,
            line_rule,
            board,
            owner: [NOBODY; N_CELLS],
            number: [0; N_CELLS],
            empty: board.land,
            stones: 0,
            row_used: [0; 9],
            col_used: [0; 9],
            garden_used: [0; N_GARDENS],
            garden_sum: [[0; MAX_PLAYERS]; N_GARDENS],
            players: std::array::from_fn(|p| Player::new(if p < n { stones_dealt(n, p) } else { 0 })),
            current: 0,
            phase: Phase::Pebble,
            can_place: false,
            turns: 0,
            outcome: None,
            tile_set,
            stones_anywhere: false,
            no_stone_turns: false,
            log: None,
        };
        g.begin_turn_from(0);
        g
    }

    // ------------------------------------------------------------- legality

    /// Numbers not yet in the row, column or garden of `cell` (a land garden cell).
    #[inline]
    pub fn free_numbers(&self, cell: usize) -> u16 {
        let g = self.board.garden_of[cell] as usize;
        NUMBERS & !(self.row_used[row_of(cell)] | self.col_used[col_of(cell)] | self.garden_used[g])
    }

    /// Numbers player `p` can still show (bit v).
    #[inline]
    pub fn hand_numbers(&self, p: usize) -> u16 {
        let hand = &self.players[p].hand;
        let mut m = 0;
        for (k, &count) in hand.iter().enumerate() {
            if count > 0 {
                m |= KIND_NUMBERS[k];
            }
        }
        m
    }

    /// The empty cells player `p` may place on, before the same-number rule: start cells
    /// for a first pebble, else the cells in line with their pebbles.
    #[inline]
    pub fn targets(&self, p: usize) -> u128 {
        let me = &self.players[p];
        if me.placed == 0 {
            self.board.start & self.empty
        } else {
            me.reach & self.empty
        }
    }

    /// The numbers player `p` may place on `cell` (bit v); 0 if the cell is not a target.
    pub fn legal_numbers(&self, p: usize, cell: usize) -> u16 {
        if self.targets(p) >> cell & 1 == 0 {
            return 0;
        }
        self.hand_numbers(p) & self.free_numbers(cell)
    }

    /// Whether player `p` has a legal placement now.
    pub fn has_placement(&self, p: usize) -> bool {
        let hand = self.hand_numbers(p);
        hand != 0 && cells(self.targets(p)).any(|c| hand & self.free_numbers(c) != 0)
    }

    /// The number of legal placements (cell, number) of player `p`.
    pub fn placement_count(&self, p: usize) -> u32 {
        let hand = self.hand_numbers(p);
        if hand == 0 {
            return 0;
        }
        cells(self.targets(p)).map(|c| (hand & self.free_numbers(c)).count_ones()).sum()
    }

    /// Whether player `p` still takes part in the pebble play (pebbles left, not passed).
    #[inline]
    pub fn in_play(&self, p: usize) -> bool {
        let me = &self.players[p];
        !me.passed && me.placed < PEBBLES
    }

    /// The cells a stone may go on now: empty land cells, without start cells while some
    /// player in the pebble play has not placed a first pebble.
    pub fn stone_cells(&self) -> u128 {
        let waiting = !self.stones_anywhere && (0..self.n).any(|q| self.in_play(q) && self.players[q].placed == 0);
        if waiting {
            self.empty & !self.board.start
        } else {
            self.empty
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    // ------------------------------------------------------------- moves

    /// Puts a pebble of player `p` showing `number` on `cell` (no legality check).
    pub fn put_pebble(&mut self, p: usize, cell: usize, number: u8) {
        let (r, c) = (row_of(cell), col_of(cell));
        let g = self.board.garden_of[cell] as usize;
        debug_assert!(self.empty >> cell & 1 == 1);
        self.owner[cell] = p as u8;
        self.number[cell] = number;
        self.empty &= !bit(cell);
        let nb = 1u16 << number;
        self.row_used[r] |= nb;
        self.col_used[c] |= nb;
        self.garden_used[g] |= nb;
        self.garden_sum[g][p] += number;
        let line = ROW[r] | COL[c];
        let rule = self.line_rule;
        let me = &mut self.players[p];
        me.hand[pebble_kind(number)] -= 1;
        if me.placed == 0 {
            me.first = cell as u8;
        }
        me.placed += 1;
        me.last = cell as u8;
        me.reach = match rule {
            LineRule::Any => me.reach | line,
            LineRule::Last => line,
        };
    }

    /// Puts one of player `p`'s stones on `cell` (no legality check).
    pub fn put_stone(&mut self, p: usize, cell: usize) {
        debug_assert!(self.players[p].stones > 0 && self.empty >> cell & 1 == 1);
        self.empty &= !bit(cell);
        self.stones |= bit(cell);
        self.players[p].stones -= 1;
        self.players[p].stones_placed += 1;
    }

    /// After the mandatory part: the stone decision if there is one, else the turn ends.
    fn after_pebble(&mut self) {
        if self.players[self.current].stones > 0 && self.stone_cells() != 0 {
            self.phase = Phase::Stone;
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        if (0..self.n).any(|q| self.in_play(q) && self.has_placement(q)) {
            self.begin_turn_from((self.current + 1) % self.n);
        } else {
            self.finish();
        }
    }

    /// Gives the turn to the first player from position `from` on (cyclically) who has a
    /// decision: a player in the pebble play (to place or pass), or else one with a stone
    /// and a cell for it. Some player in the pebble play can place when this is called.
    pub fn begin_turn_from(&mut self, from: usize) {
        let stone_ok = self.stone_cells() != 0;
        for i in 0..self.n {
            let q = (from + i) % self.n;
            if self.in_play(q) {
                self.current = q;
                self.phase = Phase::Pebble;
                self.can_place = self.has_placement(q);
                return;
            }
            if stone_ok && self.players[q].stones > 0 && !self.no_stone_turns {
                self.current = q;
                self.phase = Phase::Stone;
                return;
            }
        }
        unreachable!("a turn is started only while some player can place");
    }

    fn finish(&mut self) {
        self.phase = Phase::Over;
        let o = scoring::score(self);
        self.outcome = Some(o);
        if self.log.is_some() {
            let events = scoring::events(self, &o);
            let rows = self.board_rows();
            if let Some(log) = &mut self.log {
                log.extend(events);
                log.push(json!({
                    "event": "board",
                    "legend": BOARD_LEGEND,
                    "rows": rows,
                }));
            }
        }
    }

    /// Final (or, before the end, current) scores.
    pub fn score_vec(&self) -> Vec<i64> {
        let o = self.outcome.unwrap_or_else(|| scoring::score(self));
        o.scores[..self.n].to_vec()
    }

    // ------------------------------------------------------------- logs

    /// Stops recording (a copy for search needs no log).
    pub fn disable_log(&mut self) {
        self.log = None;
    }

    /// The board as 9 strings in the notation of [`BOARD_LEGEND`].
    pub fn board_rows(&self) -> Vec<String> {
        let koi = self.outcome.map(|o| o.koi_cell);
        render_rows(|cell| {
            if self.board.is_water(cell) {
                return "~".into();
            }
            if self.board.ponds >> cell & 1 == 1 {
                return "P".into();
            }
            if self.owner[cell] != NOBODY {
                return format!("{}{}", self.number[cell], LETTERS[self.owner[cell] as usize]);
            }
            if self.stones >> cell & 1 == 1 {
                return "#".into();
            }
            if let Some(k) = koi {
                let g = self.board.garden_of[cell] as usize;
                if k[g] as usize == cell {
                    let o = self.outcome.expect("scored");
                    let winner = o.garden_winners[g].trailing_zeros() as usize;
                    return format!("K{}", LETTERS[winner]);
                }
            }
            if self.board.start >> cell & 1 == 1 {
                return "*".into();
            }
            ".".into()
        })
    }

    // ------------------------------------------------------------- checks

    /// Conservation and consistency of the position (for tests and the invariant run).
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut owned = [0u8; MAX_PLAYERS];
        let mut row = [0u16; 9];
        let mut col = [0u16; 9];
        let mut garden = [0u16; N_GARDENS];
        let mut sums = [[0u8; MAX_PLAYERS]; N_GARDENS];
        let mut filled = 0u128;
        for cell in 0..N_CELLS {
            let o = self.owner[cell];
            if o == NOBODY {
                if self.number[cell] != 0 {
                    return Err(format!("cell {cell}: a number without a pebble"));
                }
                continue;
            }
            if self.board.land >> cell & 1 == 0 {
                return Err(format!("cell {cell}: a pebble off the land gardens"));
            }
            let v = self.number[cell];
            let (r, c, g) = (row_of(cell), col_of(cell), self.board.garden_of[cell] as usize);
            let nb = 1u16 << v;
            if !(1..=9).contains(&v) || row[r] & nb != 0 || col[c] & nb != 0 || garden[g] & nb != 0 {
                return Err(format!("cell {cell}: number {v} repeated in its row, column or garden"));
            }
            row[r] |= nb;
            col[c] |= nb;
            garden[g] |= nb;
            sums[g][o as usize] += v;
            owned[o as usize] += 1;
            filled |= bit(cell);
        }
        if row != self.row_used || col != self.col_used || garden != self.garden_used || sums != self.garden_sum {
            return Err("number caches disagree with the board".into());
        }
        if self.stones & !self.board.land != 0 || self.stones & filled != 0 {
            return Err("a stone off the land gardens or on a pebble".into());
        }
        if self.empty != self.board.land & !filled & !self.stones {
            return Err("empty-cell cache disagrees with the board".into());
        }
        let mut stones_placed = 0;
        for (p, me) in self.players[..self.n].iter().enumerate() {
            if me.placed + me.in_hand() != PEBBLES || owned[p] != me.placed {
                return Err(format!("player {p}: {} placed + {} in hand", owned[p], me.in_hand()));
            }
            if me.hand.iter().zip(HAND).any(|(h, full)| *h > full) {
                return Err(format!("player {p}: more pebbles of a kind than dealt"));
            }
            if me.placed > 0 && self.board.start >> me.first & 1 == 0 {
                return Err(format!("player {p}: first pebble not on a start cell"));
            }
            if me.stones + me.stones_placed != stones_dealt(self.n, p) {
                return Err(format!("player {p}: stones not conserved"));
            }
            stones_placed += me.stones_placed as u32;
        }
        if self.stones.count_ones() != stones_placed {
            return Err("stones on the board differ from stones placed".into());
        }
        Ok(())
    }
}

/// The cell notation of the board rows in logs.
pub const BOARD_LEGEND: &str = "~ water, P pond, . empty garden cell, * empty start cell, # stone, 7a pebble \
     showing 7 of player a (turn-order position 0 = a, 1 = b, ...), Ka koi placed by player a; tiles separated by |";

/// The rules: set-up, turns, legality (see the module doc), the outcome. Hiroba has no
/// hidden information once set up.
impl Game for Hiroba {
    type Action = Action;
    type Variant = Variant;

    const NAME: &'static str = "hiroba";
    /// The history of each rules version: CHANGELOG.md.
    const RULES_VERSION: u32 = 2;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = MAX_PLAYERS;
    const DIRECT_IS_LEGAL: bool = true;

    fn variant_schema() -> Vec<OptionSpec> {
        super::variant::schema()
    }
    fn parse_variant(value: &Value, n_players: usize, files: &Files) -> crate::error::Result<Variant> {
        super::variant::parse(value, n_players, files)
    }

    /// Sets up a game: the board from the deal stream (the only randomness of the game).
    fn new(v: &Variant, n: usize, mut rng: Rng) -> Self {
        let board = deal(&v.tiles, Deal { rotate_tiles: v.rotate_tiles, water: v.water, n_players: n }, &mut rng);
        let mut g = Hiroba::from_board(board, n, v.line_rule, v.tiles.fingerprint());
        g.stones_anywhere = v.stones_anywhere;
        g.no_stone_turns = v.no_stone_turns;
        g
    }

    fn n_players(&self) -> usize {
        self.n
    }
    /// The optional stone continues the turn begun by the pebble.
    fn decision(&self) -> Decision {
        Decision { continues_turn: self.phase == Phase::Stone, ..Decision::one(self.current) }
    }
    fn is_terminal(&self) -> bool {
        self.is_over()
    }
    /// Bit set of the action kinds available now.
    fn action_kinds(&self, _player: usize) -> u32 {
        match self.phase {
            Phase::Pebble if self.can_place => 1 << KIND_PEBBLE,
            Phase::Pebble => 1 << KIND_PASS,
            Phase::Stone => 1 << KIND_STONE | 1 << KIND_PASS,
            Phase::Over => 0,
        }
    }

    /// Placements by cell, then number, ascending; stones by cell.
    fn legal_actions(&self, p: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        let want = |k: u32| kind.is_none_or(|x| x == k);
        match self.phase {
            Phase::Pebble if self.can_place => {
                if want(KIND_PEBBLE) {
                    debug_assert_eq!(p, self.current);
                    let hand = self.hand_numbers(p);
                    for c in cells(self.targets(p)) {
                        let mut nums = hand & self.free_numbers(c);
                        while nums != 0 {
                            let v = nums.trailing_zeros() as u8;
                            nums &= nums - 1;
                            out.push(Action::Place { cell: c as u8, number: v });
                        }
                    }
                }
            }
            Phase::Pebble => {
                if want(KIND_PASS) {
                    out.push(Action::Pass);
                }
            }
            Phase::Stone => {
                if want(KIND_STONE) {
                    out.extend(cells(self.stone_cells()).map(|c| Action::Stone { cell: c as u8 }));
                }
                if want(KIND_PASS) {
                    out.push(Action::NoStone);
                }
            }
            Phase::Over => {}
        }
    }

    fn is_legal(&self, p: usize, a: &Action) -> bool {
        p == self.current
            && match (self.phase, *a) {
                (Phase::Pebble, Action::Place { cell, number }) => {
                    self.can_place && self.legal_numbers(p, cell as usize) >> number & 1 == 1
                }
                (Phase::Pebble, Action::Pass) => !self.can_place,
                (Phase::Stone, Action::Stone { cell }) => self.stone_cells() >> cell & 1 == 1,
                (Phase::Stone, Action::NoStone) => true,
                _ => false,
            }
    }
    fn apply(&mut self, p: usize, a: Action) {
        debug_assert_eq!(p, self.current, "player {p} does not act now");
        match (self.phase, a) {
            (Phase::Pebble, Action::Place { cell, number }) => {
                assert!(self.can_place, "placement while the player must pass");
                debug_assert!(self.legal_numbers(p, cell as usize) >> number & 1 == 1, "illegal {a:?}");
                self.put_pebble(p, cell as usize, number);
                self.after_pebble();
            }
            (Phase::Pebble, Action::Pass) => {
                assert!(!self.can_place, "pass while a placement is legal");
                self.players[p].passed = true;
                self.after_pebble();
            }
            (Phase::Stone, Action::Stone { cell }) => {
                debug_assert!(self.stone_cells() >> cell & 1 == 1, "illegal {a:?}");
                self.put_stone(p, cell as usize);
                self.end_turn();
            }
            (Phase::Stone, Action::NoStone) => self.end_turn(),
            (phase, a) => panic!("action {a:?} in phase {phase:?}"),
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.score_vec()
    }
    /// Gardens won outright (the tie-break of `RULES.md`; still equal: shared win).
    fn tiebreaks(&self) -> Vec<i64> {
        let o = self.outcome.unwrap_or_else(|| scoring::score(self));
        o.gardens_won[..self.n].iter().map(|&g| g as i64).collect()
    }
    /// Position 0 is the start player (the batch runner rotates agents across positions).
    fn seat(&self, player: usize) -> usize {
        player
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    /// Nothing is hidden once set up (the board, every pebble, hand and stone are public,
    /// and no chance event follows the set-up): the state itself is the only one
    /// consistent with what `observer` knows.
    fn determinize(&self, _observer: usize, rng: &mut Rng) -> Self {
        self.resample_chance(rng)
    }
    /// Hiroba has no chance after the deal (the board is dealt at set-up): the state itself.
    fn resample_chance(&self, _rng: &mut Rng) -> Self {
        let mut s = self.clone();
        s.disable_log();
        s
    }
    fn observation(&self, _observer: usize) -> Value {
        json!({
            "board": self.board_rows(), "current": self.current, "phase": format!("{:?}", self.phase),
            "players": format!("{:?}", &self.players[..self.n]), "turns": self.turns,
        })
    }
}
