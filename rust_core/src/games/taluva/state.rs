//! The Taluva game state: the map, supplies, settlements, the tile stack and the turn.
//!
//! A turn is two consecutive decisions of the current player: **place** the drawn tile
//! ([`Phase::Place`]), then **build** ([`Phase::Build`], declared as continuing the turn).
//! A player who cannot build after placing is eliminated at once (no build decision). The
//! legal-move generators and direct legality tests are in [`super::moves`].

use super::hex::{tile_hexes, Map, CAP, EMPTY, HUT, NOBODY, NONE, TEMPLE, TOWER};
use super::tiles::{all_tiles, terrains, tile_label, N_TILES, TERRAIN_LETTERS, TERRAIN_NAMES, VOLCANO};
use super::variant::{self, Eliminated, LostHuts, Variant};
use crate::game::{Decision, Game};
use crate::options::{Files, OptionSpec};
use crate::rng::{shuffle, Rng};
use serde_json::{json, Value};

pub const MAX_PLAYERS: usize = 4;
/// Each player's supply at the start.
pub const HUTS: u8 = 20;
pub const TEMPLES: u8 = 3;
pub const TOWERS: u8 = 2;
/// Player letters in logs and maps (turn-order position 0 = `a`).
pub const LETTERS: [char; MAX_PLAYERS] = ['a', 'b', 'c', 'd'];
/// The rotation of the first tile (as printed: volcano up); see [`super::moves`].
pub const FIRST_ROT: u8 = 4;
/// Most settlements at once (each player has at most 25 building hexes).
pub const MAX_SETTLEMENTS: usize = 128;
const NO_LABEL: u8 = u8::MAX;

/// Action kinds (bits of `action_kinds`).
pub const KIND_EXTEND: u32 = 0;
pub const KIND_ERUPT: u32 = 1;
pub const KIND_HUT: u32 = 2;
pub const KIND_EXPAND: u32 = 3;
pub const KIND_TEMPLE: u32 = 4;
pub const KIND_TOWER: u32 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Place the drawn tile with its volcano at `(q, r)` and rotation `rot` (see
    /// [`super::hex`]): at sea level, or as an eruption on a volcano.
    Place {
        q: i8,
        r: i8,
        rot: u8,
    },
    /// One hut on an empty level-1 terrain hex (a new settlement, or joining one).
    Hut {
        cell: u16,
    },
    /// Expand the settlement whose lowest cell index is `cell` into `terrain`.
    Expand {
        cell: u16,
        terrain: u8,
    },
    Temple {
        cell: u16,
    },
    Tower {
        cell: u16,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Place,
    Build,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// A player placed every piece of two of the three kinds.
    TwoKinds,
    /// All other players were eliminated.
    LastPlayer,
    /// The tiles ran out.
    TilesOut,
}

impl EndReason {
    pub fn code(self) -> i64 {
        match self {
            EndReason::TwoKinds => 0,
            EndReason::LastPlayer => 1,
            EndReason::TilesOut => 2,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            EndReason::TwoKinds => "two_kinds",
            EndReason::LastPlayer => "last_player",
            EndReason::TilesOut => "tiles_out",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Pieces in supply.
    pub huts: u8,
    pub temples: u8,
    pub towers: u8,
    /// Huts removed by eruptions (they count as placed).
    pub huts_lost: u8,
    pub tiles_placed: u8,
    pub eruptions: u8,
    /// 0 while in the game, else the (1-based) turn in which the player was eliminated.
    pub eliminated: u16,
}

impl Player {
    fn new() -> Self {
        Player {
            huts: HUTS,
            temples: TEMPLES,
            towers: TOWERS,
            huts_lost: 0,
            tiles_placed: 0,
            eruptions: 0,
            eliminated: 0,
        }
    }
    pub fn huts_built(&self) -> u8 {
        HUTS - self.huts
    }
    pub fn temples_built(&self) -> u8 {
        TEMPLES - self.temples
    }
    pub fn towers_built(&self) -> u8 {
        TOWERS - self.towers
    }
    pub fn is_in(&self) -> bool {
        self.eliminated == 0
    }
}

/// Maximal groups of one player's buildings connected through adjacent hexes.
#[derive(Clone)]
pub struct Settlements {
    /// Settlement of each cell's building ([`u8::MAX`] without one).
    pub label: [u8; CAP],
    pub n: u8,
    pub owner: [u8; MAX_SETTLEMENTS],
    /// Hexes (not huts).
    pub size: [u8; MAX_SETTLEMENTS],
    pub has_temple: [bool; MAX_SETTLEMENTS],
    pub has_tower: [bool; MAX_SETTLEMENTS],
    /// The lowest cell index of the settlement (its id in [`Action::Expand`]).
    pub min_cell: [u16; MAX_SETTLEMENTS],
    /// Members of settlement `s` are `members[start[s]..start[s + 1]]`.
    pub start: [u8; MAX_SETTLEMENTS + 1],
    pub members: [u16; MAX_SETTLEMENTS],
}

impl Default for Settlements {
    fn default() -> Self {
        Settlements {
            label: [NO_LABEL; CAP],
            n: 0,
            owner: [NOBODY; MAX_SETTLEMENTS],
            size: [0; MAX_SETTLEMENTS],
            has_temple: [false; MAX_SETTLEMENTS],
            has_tower: [false; MAX_SETTLEMENTS],
            min_cell: [NONE; MAX_SETTLEMENTS],
            start: [0; MAX_SETTLEMENTS + 1],
            members: [NONE; MAX_SETTLEMENTS],
        }
    }
}

impl Settlements {
    #[inline]
    pub fn of(&self, cell: u16) -> Option<usize> {
        match self.label[cell as usize] {
            NO_LABEL => None,
            s => Some(s as usize),
        }
    }
    pub fn cells(&self, s: usize) -> &[u16] {
        &self.members[self.start[s] as usize..self.start[s + 1] as usize]
    }

    /// Recomputes every settlement from the buildings on the map.
    pub fn rebuild(&mut self, map: &Map) {
        for &c in map.land_cells() {
            self.label[c as usize] = NO_LABEL;
        }
        let mut n = 0usize;
        let mut top = 0usize;
        for &c in map.land_cells() {
            let ci = c as usize;
            if map.owner[ci] == NOBODY || self.label[ci] != NO_LABEL {
                continue;
            }
            let who = map.owner[ci];
            self.start[n] = top as u8;
            self.label[ci] = n as u8;
            self.members[top] = c;
            let (mut head, mut tail) = (top, top + 1);
            let (mut temple, mut tower, mut min) = (false, false, c);
            while head < tail {
                let x = self.members[head] as usize;
                head += 1;
                temple |= map.building[x] == TEMPLE;
                tower |= map.building[x] == TOWER;
                min = min.min(x as u16);
                for &y in &map.nb[x] {
                    if y != NONE && map.owner[y as usize] == who && self.label[y as usize] == NO_LABEL {
                        self.label[y as usize] = n as u8;
                        self.members[tail] = y;
                        tail += 1;
                    }
                }
            }
            self.owner[n] = who;
            self.size[n] = (tail - top) as u8;
            self.has_temple[n] = temple;
            self.has_tower[n] = tower;
            self.min_cell[n] = min;
            top = tail;
            n += 1;
        }
        self.start[n] = top as u8;
        self.n = n as u8;
    }
}

#[derive(Clone)]
pub struct Taluva {
    pub n: usize,
    pub variant: Variant,
    pub map: Map,
    pub players: [Player; MAX_PLAYERS],
    pub settlements: Settlements,
    /// Pair codes of the 48 tiles in drawing order (those after `drawn` are hidden).
    pub stack: [u8; N_TILES],
    /// Tiles drawn so far, the current one included.
    pub drawn: u8,
    /// Tiles the game uses (`tiles` option).
    pub limit: u8,
    /// The current player's tile (drawn at the start of the turn).
    pub tile: u8,
    pub current: usize,
    pub phase: Phase,
    /// Completed turns.
    pub turns: u16,
    pub end: Option<EndReason>,
    /// The player who ended the game by two kinds or as the last one in, else [`NOBODY`].
    pub winner: u8,
    pub(super) log: Option<Vec<Value>>,
}

impl Taluva {
    /// Sets up a game: the stack shuffled by the deal stream (its only randomness).
    pub fn new(v: &Variant, n: usize, mut rng: Rng) -> Self {
        let mut stack = all_tiles();
        shuffle(&mut rng, &mut stack);
        Taluva::with_stack(v, n, stack)
    }

    /// The position before the first turn with the tiles in the given order.
    pub fn with_stack(v: &Variant, n: usize, stack: [u8; N_TILES]) -> Self {
        assert!((2..=MAX_PLAYERS).contains(&n));
        let limit = v.tile_count(n) as u8;
        Taluva {
            n,
            variant: *v,
            map: Map::default(),
            players: [Player::new(); MAX_PLAYERS],
            settlements: Settlements::default(),
            stack,
            drawn: 1,
            limit,
            tile: stack[0],
            current: 0,
            phase: Phase::Place,
            turns: 0,
            end: None,
            winner: NOBODY,
            log: None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether `p`'s huts count as all placed when their supply is empty (`lost_huts`).
    pub fn lost_huts_count(&self, p: usize) -> bool {
        self.variant.lost_huts == LostHuts::Placed || self.players[p].huts_lost == 0
    }

    /// Kinds of `p`'s buildings completely placed, for the two-kinds win: an empty supply,
    /// for huts only when [`Taluva::lost_huts_count`].
    pub fn kinds_done(&self, p: usize) -> u8 {
        let me = &self.players[p];
        u8::from(me.huts == 0 && self.lost_huts_count(p)) + u8::from(me.temples == 0) + u8::from(me.towers == 0)
    }

    /// Players still in the game.
    pub fn active(&self) -> usize {
        self.players[..self.n].iter().filter(|p| p.is_in()).count()
    }

    // ------------------------------------------------------------- moves

    /// Applies the current player's action (legality is checked in debug builds).
    pub fn play(&mut self, a: Action) {
        debug_assert!(self.action_is_legal(a), "illegal {a:?} in phase {:?}", self.phase);
        match (self.phase, a) {
            (Phase::Place, Action::Place { q, r, rot }) => self.place(q as i16, r as i16, rot),
            (Phase::Build, _) => self.build(a),
            (phase, a) => panic!("action {a:?} in phase {phase:?}"),
        }
    }

    /// Puts the current tile down and moves on to building (or eliminates the player).
    fn place(&mut self, q: i16, r: i16, rot: u8) {
        let p = self.current;
        let hexes = tile_hexes(q, r, rot as usize);
        let (left, right) = terrains(self.tile);
        let ter = [VOLCANO, left, right];
        let tile_no = self.drawn;
        let c0 = self.map.find(q, r);
        let erupt = self.map.is_land(c0);
        if erupt {
            let mut destroyed = false;
            for (i, &(hq, hr)) in hexes.iter().enumerate() {
                let c = self.map.find(hq, hr) as usize;
                if self.map.building[c] == HUT {
                    let owner = self.map.owner[c] as usize;
                    let lost = self.map.level[c];
                    self.players[owner].huts_lost += lost;
                    destroyed = true;
                    if let Some(log) = &mut self.log {
                        log.push(json!({"event": "huts_lost", "position": owner, "huts": lost, "hex": [hq, hr]}));
                    }
                    self.map.building[c] = EMPTY;
                    self.map.owner[c] = NOBODY;
                }
                self.map.level[c] += 1;
                self.map.terrain[c] = ter[i];
                self.map.tile_no[c] = tile_no;
            }
            if destroyed {
                self.settlements.rebuild(&self.map);
            }
            self.players[p].eruptions += 1;
        } else {
            for (i, &(hq, hr)) in hexes.iter().enumerate() {
                self.map.raise_from_sea(hq, hr, ter[i], tile_no);
            }
        }
        let v = self.map.find(q, r) as usize;
        self.map.vdir[v] = rot;
        self.players[p].tiles_placed += 1;
        self.phase = Phase::Build;
        if !self.can_build(p) {
            self.eliminate(p);
        }
    }

    fn build(&mut self, a: Action) {
        let p = self.current;
        let me = p as u8;
        match a {
            Action::Hut { cell } => {
                self.put(cell, me, HUT);
                self.players[p].huts -= 1;
            }
            Action::Expand { cell, terrain } => {
                let s = self.settlements.of(cell).expect("expansion of a settlement");
                let set = self.expansion_set(s, terrain);
                let mut huts = 0u8;
                for c in set.iter() {
                    self.put(c, me, HUT);
                    huts += self.map.level[c as usize];
                }
                self.players[p].huts -= huts;
            }
            Action::Temple { cell } => {
                self.put(cell, me, TEMPLE);
                self.players[p].temples -= 1;
            }
            Action::Tower { cell } => {
                self.put(cell, me, TOWER);
                self.players[p].towers -= 1;
            }
            Action::Place { .. } => panic!("placement in the build phase"),
        }
        self.settlements.rebuild(&self.map);
        if self.kinds_done(p) >= 2 {
            self.turns += 1;
            self.finish(EndReason::TwoKinds, p);
        } else {
            self.end_turn();
        }
    }

    fn put(&mut self, cell: u16, who: u8, building: u8) {
        let c = cell as usize;
        debug_assert!(self.map.is_free(cell));
        self.map.building[c] = building;
        self.map.owner[c] = who;
    }

    fn eliminate(&mut self, p: usize) {
        self.players[p].eliminated = self.turns + 1;
        if let Some(log) = &mut self.log {
            log.push(json!({"event": "eliminated", "position": p, "turn": self.turns + 1,
                            "reason": "cannot build after placing the tile"}));
        }
        if self.active() == 1 {
            self.turns += 1;
            let last = (0..self.n).find(|&q| self.players[q].is_in()).expect("one player left");
            self.finish(EndReason::LastPlayer, last);
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        if self.drawn >= self.limit {
            self.finish(EndReason::TilesOut, NOBODY as usize);
            return;
        }
        let mut q = self.current;
        loop {
            q = (q + 1) % self.n;
            if self.players[q].is_in() {
                break;
            }
        }
        self.current = q;
        self.tile = self.stack[self.drawn as usize];
        self.drawn += 1;
        self.phase = Phase::Place;
    }

    fn finish(&mut self, reason: EndReason, winner: usize) {
        self.phase = Phase::Over;
        self.end = Some(reason);
        self.winner = if winner == NOBODY as usize { NOBODY } else { winner as u8 };
        if self.log.is_some() {
            let scores = self.score_vec();
            let rows = self.map_rows();
            let players: Vec<Value> = (0..self.n).map(|p| self.player_json(p)).collect();
            if let Some(log) = &mut self.log {
                log.push(json!({"event": "game_end", "reason": reason.name(),
                                "winner_position": (winner != NOBODY as usize).then_some(winner),
                                "tiles_used": self.drawn, "players": players, "ranking_keys": scores}));
                log.push(json!({"event": "map", "legend": MAP_LEGEND, "rows": rows}));
            }
        }
    }

    // ------------------------------------------------------------- outcome

    /// The ranking key of each player (higher ranks higher; equal keys share):
    /// an eliminated player scores the turn of their elimination (later is better, and
    /// below everyone still in), or 0 with `eliminated = zero`; a player still in scores
    /// `100_000 + 10_000 temples + 100 towers + huts built` (huts lost included), plus
    /// `1_000_000` for the player who ended the game by two kinds or as the last one in.
    pub fn score_vec(&self) -> Vec<i64> {
        (0..self.n)
            .map(|p| {
                let me = &self.players[p];
                if !me.is_in() {
                    return match self.variant.eliminated {
                        Eliminated::ByTurn => me.eliminated as i64,
                        Eliminated::Zero => 0,
                    };
                }
                let key = 100_000
                    + 10_000 * me.temples_built() as i64
                    + 100 * me.towers_built() as i64
                    + me.huts_built() as i64;
                if self.winner as usize == p {
                    key + 1_000_000
                } else {
                    key
                }
            })
            .collect()
    }

    // ------------------------------------------------------------- logs

    pub fn start_log(&mut self) {
        self.log = Some(vec![json!({
            "event": "setup",
            "players": self.n,
            "variant": variant::to_json(&self.variant),
            "tiles_in_game": self.limit,
            "tile_order": self.stack[..self.limit as usize].iter().map(|&t| tile_label(t)).collect::<Vec<_>>(),
            "tiles_not_in_game": self.stack[self.limit as usize..].iter().map(|&t| tile_label(t)).collect::<Vec<_>>(),
            "supply": {"huts": HUTS, "temples": TEMPLES, "towers": TOWERS},
            "geometry": "axial hex coordinates [q, r]; directions 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE; \
                         rotation k puts the tile's left terrain in direction k and its right terrain \
                         in direction k+1 of the volcano (4 = as printed, volcano up)",
        })]);
    }

    pub fn stop_log(&mut self) {
        self.log = None;
    }

    pub fn drain_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub fn player_json(&self, p: usize) -> Value {
        let me = &self.players[p];
        json!({"position": p, "temples": me.temples_built(), "towers": me.towers_built(),
               "huts": me.huts_built(), "huts_lost": me.huts_lost,
               "eliminated_turn": (me.eliminated > 0).then_some(me.eliminated)})
    }

    /// The JSON of an action of the current player (before it is applied).
    pub fn describe(&self, a: &Action) -> Value {
        let hex = |c: u16| {
            let (q, r) = self.map.coord(c);
            json!([q, r])
        };
        match *a {
            Action::Place { q, r, rot } => {
                let hexes = tile_hexes(q as i16, r as i16, rot as usize);
                let (left, right) = terrains(self.tile);
                let ter = [VOLCANO, left, right];
                let c0 = self.map.find(q as i16, r as i16);
                let erupt = self.map.is_land(c0);
                let mut destroys = Vec::new();
                let cover: Vec<Value> = hexes
                    .iter()
                    .enumerate()
                    .map(|(i, &(hq, hr))| {
                        let c = self.map.find(hq, hr);
                        let below = if c == NONE { 0 } else { self.map.level[c as usize] };
                        if c != NONE && self.map.building[c as usize] == HUT {
                            destroys.push(json!({"position": self.map.owner[c as usize], "huts": below,
                                                 "hex": [hq, hr]}));
                        }
                        json!({"hex": [hq, hr], "terrain": TERRAIN_NAMES[ter[i] as usize], "level": below + 1})
                    })
                    .collect();
                json!({"type": if erupt { "eruption" } else { "extend" }, "tile": tile_label(self.tile),
                       "volcano": [q, r], "rotation": rot, "hexes": cover, "destroys": destroys})
            }
            Action::Hut { cell } => json!({"type": "hut", "hex": hex(cell), "level": self.map.level[cell as usize]}),
            Action::Expand { cell, terrain } => {
                let set = self.settlements.of(cell).map(|s| self.expansion_set(s, terrain));
                let hexes: Vec<Value> = set.iter().flat_map(|s| s.iter()).map(&hex).collect();
                let huts: u32 = set.iter().flat_map(|s| s.iter()).map(|c| self.map.level[c as usize] as u32).sum();
                json!({"type": "expand", "settlement": hex(cell), "terrain": TERRAIN_NAMES[terrain as usize],
                       "hexes": hexes, "huts": huts})
            }
            Action::Temple { cell } => {
                json!({"type": "temple", "hex": hex(cell), "level": self.map.level[cell as usize]})
            }
            Action::Tower { cell } => {
                json!({"type": "tower", "hex": hex(cell), "level": self.map.level[cell as usize]})
            }
        }
    }

    /// The map as text rows (see [`MAP_LEGEND`]).
    pub fn map_rows(&self) -> Vec<String> {
        if self.map.n_land == 0 {
            return Vec::new();
        }
        let (x0, x1, y0, y1) = self.map.bounds();
        let width = 3 * (x1 - x0) as usize + 4;
        let mut rows = Vec::new();
        for y in y0..=y1 {
            let mut line = vec![' '; width];
            for &c in self.map.land_cells() {
                let (q, r) = self.map.coord(c);
                if r != y {
                    continue;
                }
                let col = 3 * (2 * q + r - x0) as usize;
                for (i, ch) in self.hex_token(c).chars().enumerate() {
                    line[col + i] = ch;
                }
            }
            let text: String = line.into_iter().collect();
            rows.push(format!("r={y:<4} {}", text.trim_end()));
        }
        rows
    }

    fn hex_token(&self, c: u16) -> String {
        let ci = c as usize;
        let level = std::char::from_digit(self.map.level[ci] as u32 % 36, 36).unwrap_or('?');
        let t = TERRAIN_LETTERS[self.map.terrain[ci] as usize];
        let b = match self.map.building[ci] {
            EMPTY if self.map.terrain[ci] == VOLCANO => "  ".to_string(),
            EMPTY => "..".to_string(),
            kind => {
                let who = LETTERS[self.map.owner[ci] as usize];
                let k = match kind {
                    HUT => 'h',
                    TEMPLE => 'T',
                    _ => 'W',
                };
                format!("{who}{k}")
            }
        };
        format!("{t}{level}{b}")
    }
}

/// The notation of the map rows in logs.
pub const MAP_LEGEND: &str =
    "each row starts with its axial r (growing downwards); one 4-character token per hex, rows offset by half a hex: \
     terrain (V volcano, J jungle, G grassland, S sand, R rock, L lake), level, then '..' empty or the owner \
     (a = turn-order position 0, b = 1, ...) and h huts (as many as the level), T temple, W tower";

impl Game for Taluva {
    type Action = Action;
    type Variant = Variant;

    const NAME: &'static str = "taluva";
    const RULES_VERSION: u32 = 1;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = MAX_PLAYERS;

    fn variant_schema() -> Vec<OptionSpec> {
        variant::schema()
    }
    fn parse_variant(value: &Value, n_players: usize, _files: &Files) -> crate::error::Result<Variant> {
        variant::parse(value, n_players)
    }
    /// `tiles` = N per player with N x players = 48 is `"all"`.
    fn normalize_variant(options: Value, n_players: usize) -> Value {
        variant::normalize(options, n_players)
    }
    fn new(v: &Variant, n: usize, rng: Rng) -> Self {
        Taluva::new(v, n, rng)
    }
    fn n_players(&self) -> usize {
        self.n
    }
    /// Place, then build: the build decision continues the turn.
    fn decision(&self) -> Decision {
        Decision { acting: 1 << self.current, continues_turn: self.phase == Phase::Build }
    }
    fn is_terminal(&self) -> bool {
        self.is_over()
    }
    fn action_kinds(&self, _player: usize) -> u32 {
        self.kinds_now()
    }
    fn legal_actions(&self, player: usize, kind: Option<u32>, out: &mut Vec<Action>) {
        debug_assert_eq!(player, self.current);
        self.generate(kind, out)
    }
    /// A direct test (placements are checked from their three hexes, builds from the
    /// hex and its neighbours), no move list.
    fn is_legal(&self, player: usize, a: &Action) -> bool {
        player == self.current && !self.is_over() && self.action_is_legal(*a)
    }
    fn apply(&mut self, player: usize, a: Action) {
        debug_assert_eq!(player, self.current);
        self.play(a)
    }
    fn scores(&self) -> Vec<i64> {
        self.score_vec()
    }
    fn seat(&self, player: usize) -> usize {
        player
    }
    fn turns(&self) -> u32 {
        self.turns as u32
    }
    /// Only the order of the undrawn tiles is hidden (the map, supplies and the drawn
    /// tile are public): a sample reshuffles them.
    fn determinize(&self, _observer: usize, rng: &mut Rng) -> Self {
        self.resample_chance(rng)
    }
    /// The undrawn stack's order (nobody has seen it) drawn afresh.
    fn resample_chance(&self, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        g.log = None;
        let rest = &mut g.stack[self.drawn as usize..];
        rest.sort_unstable();
        shuffle(rng, rest);
        g
    }
    fn observation(&self, _observer: usize) -> Value {
        let cells: Vec<Value> = self
            .map
            .land_cells()
            .iter()
            .map(|&c| {
                let i = c as usize;
                let m = &self.map;
                json!([m.q[i], m.r[i], m.level[i], m.terrain[i], m.vdir[i], m.building[i], m.owner[i]])
            })
            .collect();
        let mut unseen: Vec<u8> = self.stack[self.drawn as usize..].to_vec();
        unseen.sort_unstable();
        json!({
            "map": cells, "players": format!("{:?}", &self.players[..self.n]), "current": self.current,
            "phase": format!("{:?}", self.phase), "tile": self.tile, "drawn": self.drawn, "limit": self.limit,
            "turns": self.turns, "end": format!("{:?}", self.end), "unseen_tiles": unseen,
        })
    }
    /// One zone: the undrawn tiles (pair codes) in drawing order (those beyond the game's
    /// tile count, with `tiles` = N per player, are never drawn).
    fn hidden(&self, _observer: usize) -> Vec<Vec<u32>> {
        vec![self.stack[self.drawn as usize..].iter().map(|&t| t as u32).collect()]
    }
}
