//! A player's city: the grid of placed tiles, the placement rules, redesign checks and
//! the longest outer wall.
//!
//! Coordinates in the public API are relative to the fountain at (0, 0), x to the east,
//! y to the **south**. Internally the city lives on a fixed 64 × 64 grid (no allocation);
//! it is shifted when a tile would land within 3 squares of the grid's border. A city
//! holds at most 55 squares (54 tiles and the fountain), so its bounding box plus that
//! margin on every side always fits.

use super::data::{bits, Tile, E, FOUNTAIN, N, N_KINDS, N_TILES, S, TILES, W};

const G: usize = 64;
const _: () = assert!(G == 64, "occupancy rows are u64 bitboards");
const EMPTY: u8 = 255;
const NOWHERE: u16 = u16::MAX;

/// Steps to the four neighbours: (dx, dy, own side, the neighbour's facing side).
const DIRS: [(i32, i32, u8, u8); 4] = [(0, -1, N, S), (1, 0, E, W), (0, 1, S, N), (-1, 0, W, E)];

/// Which reading of "no holes" applies (variant `hole_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoleRule {
    /// No empty region of any size may be cut off from the outside.
    Area,
    /// Only a single empty square with tiles on all four sides is forbidden.
    Cell,
}

/// How the longest outer wall is measured (variant `wall_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallRule {
    /// Longest trail: no segment twice, corners may repeat.
    Trail,
    /// Longest simple path: no corner twice.
    SimplePath,
}

/// A bit set over the grid (row `y`, bit `x`).
#[derive(Clone, Copy)]
struct GridSet([u64; G]);

impl GridSet {
    fn new() -> Self {
        GridSet([0; G])
    }
    #[inline]
    fn has(&self, x: i32, y: i32) -> bool {
        self.0[y as usize] >> x & 1 == 1
    }
    #[inline]
    fn add(&mut self, x: i32, y: i32) {
        self.0[y as usize] |= 1 << x;
    }
}

#[derive(Clone)]
pub struct City {
    cells: [u8; G * G],
    /// Occupancy bitboard of `cells` (row `y`, bit `x`; fountain included).
    rows: [u64; G],
    /// Grid position of the fountain.
    ox: i32,
    oy: i32,
    /// Bounding box of the occupied squares, grid coordinates, inclusive.
    x0: i32,
    x1: i32,
    y0: i32,
    y1: i32,
    /// Tile ids in the city (bit per id), fountain excluded.
    pub tiles: u64,
    pos: [u16; N_TILES],
    pub kind_counts: [u8; N_KINDS],
    /// City tiles that may move to the reserve (kept up to date on every change).
    removable: u64,
    /// Articulation points of the graph of open links (bit per id, fountain included),
    /// kept with `removable`.
    cut: u64,
    /// Empty squares next to the city (kept up to date on every change).
    spots: [Spot; MAX_SPOTS],
    n_spots: u8,
    /// Index into `spots` of each grid square's frontier entry (`NO_SLOT` if none).
    slot: [u8; G * G],
    /// For each city tile, its sides as `occ << 4 | req` (see [`City::sides_at`]).
    sides: [u8; N_TILES],
    /// The hole rule of the game: its flag is precomputed per frontier square, the
    /// other rule's is computed on demand.
    rule: HoleRule,
    /// Built by the engine through legal moves (not from an arbitrary layout).
    trusted: bool,
}

/// Grid index steps to the neighbours N, E, S, W, the sides they touch and the sides
/// facing back; wall bits by cell value (255 = empty has none).
const STEP: [isize; 4] = [-(G as isize), 1, G as isize, -1];
const SIDE: [u8; 4] = [N, E, S, W];
const FACING: [u8; 4] = [S, W, N, E];
/// The 3 × 3 block around a square.
const BLOCK: [(i32, i32); 9] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
/// Squares within two orthogonal steps.
const DIAMOND: [(i32, i32); 13] =
    [(0, -2), (-1, -1), (0, -1), (1, -1), (-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0), (-1, 1), (0, 1), (1, 1), (0, 2)];
const WALLS: [u8; 256] = {
    let mut w = [0u8; 256];
    let mut i = 0;
    while i <= N_TILES {
        w[i] = TILES[i].walls;
        i += 1;
    }
    w
};

/// `RING_OK[m]`: the empty squares of ring mask `m` (bit i = i-th square clockwise
/// from north; even bits are orthogonal neighbours) form at most one run holding an
/// orthogonal neighbour.
const RING_OK: [bool; 256] = {
    let mut table = [false; 256];
    let mut m = 0;
    while m < 256 {
        let mut runs = 0;
        if m == 255 {
            runs = 1;
        } else {
            // Start just after an occupied square and walk once around the ring.
            let mut start = 0;
            while m >> start & 1 == 1 {
                start += 1;
            }
            let mut k = 1;
            let mut in_run = false;
            let mut orth = false;
            while k <= 8 {
                let i = (start + k) % 8;
                if m >> i & 1 == 1 {
                    in_run = true;
                    orth |= i % 2 == 0;
                } else if in_run {
                    if orth {
                        runs += 1;
                    }
                    in_run = false;
                    orth = false;
                }
                k += 1;
            }
        }
        table[m] = runs <= 1;
        m += 1;
    }
    table
};

/// `NB[b]` for the 3 × 3 occupancy block `b` of a square (bits 0–2: the row above, west
/// to east; 3–5: its own row; 6–8: the row below): the occupied orthogonal neighbours as
/// side bits (low nibble), [`NB_HERE`] if the square itself is occupied, and
/// [`NB_RING_OK`] if [`RING_OK`] holds for its ring.
const NB: [u8; 512] = {
    // Block bit of each ring position, clockwise from north, as in `RING_OK`.
    const RING_BIT: [usize; 8] = [1, 2, 5, 8, 7, 6, 3, 0];
    let mut t = [0u8; 512];
    let mut b = 0;
    while b < 512 {
        let mut ring = 0;
        let mut k = 0;
        while k < 8 {
            if b >> RING_BIT[k] & 1 == 0 {
                ring |= 1 << k;
            }
            k += 1;
        }
        // Orthogonal neighbours: block bits 1 (N), 5 (E), 7 (S), 3 (W).
        let (bn, be, bs, bw) = ((b >> 1 & 1) as u8, (b >> 5 & 1) as u8, (b >> 7 & 1) as u8, (b >> 3 & 1) as u8);
        t[b] = (bn * N) | (be * E) | (bs * S) | (bw * W);
        if b >> 4 & 1 == 1 {
            t[b] |= NB_HERE;
        }
        if RING_OK[ring] {
            t[b] |= NB_RING_OK;
        }
        b += 1;
    }
    t
};
const NB_HERE: u8 = 0x10;
const NB_RING_OK: u8 = 0x20;

/// At most 55 tiles with 4 sides each border an empty square.
const MAX_SPOTS: usize = 4 * (N_TILES + 1);
const NO_SLOT: u8 = u8::MAX;
const OK_AREA: u8 = 1;
const OK_CELL: u8 = 2;
const MAYBE_AREA: u8 = 4;
const MAYBE_CELL: u8 = 8;

/// An empty square next to the city: the sides that touch tiles (`occ`) and those of
/// them where the neighbour has a wall (`req`); a tile fits when its walls on the `occ`
/// sides equal `req` and it has an open side among them.
#[derive(Debug, Clone, Copy, Default)]
struct Spot {
    x: i8,
    y: i8,
    occ: u8,
    req: u8,
    ok: u8,
    /// `FIT[occ, req]`: the wall patterns that fit here (cached for the slot sets).
    fit: u16,
}

/// Wall-pattern sets by a square's sides: bit `w` of `FIT[occ << 4 | req]` is set when a
/// tile with walls `w` matches every neighbour (`w & occ == req`) and has an open side
/// towards one (`occ & !w != 0`); `SWAP_FIT` drops the open-side condition (a swapped-in
/// tile inherits the old tile's links, see [`City::can_swap`]).
const FIT: [u16; 256] = fit_table(true);
const SWAP_FIT: [u16; 256] = fit_table(false);

const fn fit_table(need_open: bool) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let (occ, req) = ((i >> 4) as u8, (i & 15) as u8);
        let mut w = 0u8;
        while w < 16 {
            if w & occ == req && (!need_open || occ & !w != 0) {
                t[i] |= 1 << w;
            }
            w += 1;
        }
        i += 1;
    }
    t
}

impl Default for City {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for City {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.layout()).finish()
    }
}

impl City {
    pub fn new() -> Self {
        Self::with_rule(HoleRule::Area)
    }

    /// An empty city (only the fountain) of a game played with hole rule `rule`.
    pub fn with_rule(rule: HoleRule) -> Self {
        let c = (G / 2) as i32;
        let mut city = City {
            cells: [EMPTY; G * G],
            rows: [0; G],
            ox: c,
            oy: c,
            x0: c,
            x1: c,
            y0: c,
            y1: c,
            tiles: 0,
            pos: [NOWHERE; N_TILES],
            kind_counts: [0; N_KINDS],
            removable: 0,
            cut: 0,
            spots: [Spot::default(); MAX_SPOTS],
            n_spots: 0,
            slot: [NO_SLOT; G * G],
            sides: [0; N_TILES],
            rule,
            trusted: true,
        };
        city.cells[c as usize * G + c as usize] = FOUNTAIN;
        city.rows[c as usize] |= 1 << c;
        city.add_spots(); // all slots are still free
        city
    }

    /// Builds a city from `(x, y, tile_id)` entries without judging legality; errors on
    /// unknown ids, duplicates, the fountain square, or a city too wide for the grid.
    pub fn from_layout(layout: &[(i32, i32, u8)]) -> Result<City, String> {
        let span = |f: fn(&(i32, i32, u8)) -> i32| {
            let (lo, hi) = layout.iter().map(f).fold((0, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
            hi - lo + 1
        };
        if span(|t| t.0) > 55 || span(|t| t.1) > 55 {
            return Err("the city spans more than 55 squares".into());
        }
        let mut city = City::new();
        city.trusted = false;
        for &(x, y, id) in layout {
            if id as usize >= N_TILES {
                return Err(format!("tile id {id} out of range 0..=53"));
            }
            if city.tiles >> id & 1 == 1 {
                return Err(format!("tile {id} appears twice"));
            }
            if (x, y) == (0, 0) {
                return Err("square (0, 0) holds the fountain".into());
            }
            if x.abs() > 54 || y.abs() > 54 {
                return Err(format!("square ({x}, {y}) is too far from the fountain"));
            }
            if city.at(x, y) != EMPTY {
                return Err(format!("square ({x}, {y}) is used twice"));
            }
            city.put(id, x, y);
        }
        Ok(city)
    }

    /// `(x, y, tile_id)` of every city tile (fountain excluded), by tile id.
    pub fn layout(&self) -> Vec<(i32, i32, u8)> {
        self.iter_tiles()
            .map(|id| {
                let (x, y) = self.coords(id);
                (x, y, id)
            })
            .collect()
    }

    pub fn iter_tiles(&self) -> impl Iterator<Item = u8> {
        bits(self.tiles)
    }

    pub fn len(&self) -> usize {
        self.tiles.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.tiles == 0
    }

    /// Public coordinates of a city tile.
    pub fn coords(&self, id: u8) -> (i32, i32) {
        let p = self.pos[id as usize] as i32;
        (p % G as i32 - self.ox, p / G as i32 - self.oy)
    }

    #[inline]
    fn cell(&self, gx: i32, gy: i32) -> u8 {
        if gx < 0 || gy < 0 || gx >= G as i32 || gy >= G as i32 {
            EMPTY
        } else {
            self.cells[gy as usize * G + gx as usize]
        }
    }

    /// The tile at public `(x, y)` (255 = empty, 54 = fountain).
    pub fn at(&self, x: i32, y: i32) -> u8 {
        self.cell(x + self.ox, y + self.oy)
    }

    /// Places a tile without checks (the caller has checked legality).
    pub fn put(&mut self, id: u8, x: i32, y: i32) {
        let (gx, gy) = self.put_raw(id, x, y);
        self.refresh_sides_near(gx, gy);
        if !(self.trusted && self.put_leaf(id, gx, gy)) {
            self.update_removable();
        }
        self.refresh_spots_near(gx, gy);
    }

    /// Updates the removable tiles after `id` was legally put on grid square `(gx, gy)`,
    /// if it has a single open link (to tile `v`): a new leaf of the link graph makes `v`
    /// an articulation point and changes no other tile's (the leaf hangs on `v`), so only
    /// `v` and the squares next to the new tile (which may stop touching an empty square)
    /// change. Returns false, changing nothing, when the tile has two or more links.
    fn put_leaf(&mut self, id: u8, gx: i32, gy: i32) -> bool {
        let i = gy as usize * G + gx as usize;
        let (links, v) = self.links(i, WALLS[id as usize]);
        if links != 1 {
            return false;
        }
        if v != FOUNTAIN {
            self.cut |= 1 << v;
            self.removable &= !(1u64 << v);
        }
        for d in STEP {
            let u = self.cells[(i as isize + d) as usize];
            if (u as usize) < N_TILES && !self.touches_empty(self.pos[u as usize] as usize) {
                self.removable &= !(1u64 << u);
            }
        }
        if self.touches_empty(i) {
            self.removable |= 1 << id;
        }
        true
    }

    #[inline]
    fn touches_empty(&self, i: usize) -> bool {
        NB[self.block((i % G) as i32, (i / G) as i32)] & 15 != 15
    }

    /// Places a tile, updating the grid but not the move caches (for evaluation copies:
    /// enough for walls and counts). Returns the grid square.
    fn put_raw(&mut self, id: u8, x: i32, y: i32) -> (i32, i32) {
        let (mut gx, mut gy) = (x + self.ox, y + self.oy);
        if gx < 3 || gy < 3 || gx > G as i32 - 4 || gy > G as i32 - 4 {
            self.recentre(gx, gy);
            gx = x + self.ox;
            gy = y + self.oy;
        }
        self.cells[gy as usize * G + gx as usize] = id;
        self.rows[gy as usize] |= 1 << gx;
        self.pos[id as usize] = (gy as usize * G + gx as usize) as u16;
        self.tiles |= 1 << id;
        self.kind_counts[TILES[id as usize].kind as usize] += 1;
        self.x0 = self.x0.min(gx);
        self.x1 = self.x1.max(gx);
        self.y0 = self.y0.min(gy);
        self.y1 = self.y1.max(gy);
        (gx, gy)
    }

    /// Longest wall after placing `tile` at public `(x, y)` (no checks).
    pub fn wall_with(&self, tile: u8, x: i32, y: i32, rule: WallRule) -> u32 {
        self.wall_overlay(rule, Some((x, y, tile)), None)
    }

    /// Change in the number of outer wall segments (sides with a wall facing an empty
    /// square) when the tile at public `(x, y)` (`old`, or none) is replaced by `new`
    /// (or none). A local, O(1) proxy for the change of the longest wall.
    pub fn segment_delta(&self, x: i32, y: i32, old: Option<u8>, new: Option<u8>) -> i32 {
        let (gx, gy) = (x + self.ox, y + self.oy);
        let walls = |t: Option<u8>| t.map_or(0, |t| TILES[t as usize].walls);
        let mut delta = 0;
        for (dx, dy, side, facing) in DIRS {
            match self.walls_at(gx + dx, gy + dy) {
                // An empty neighbour: our own wall on that side is outer.
                None => delta += i32::from(walls(new) & side != 0) - i32::from(walls(old) & side != 0),
                // A tile neighbour: its wall facing us is outer only if the square is empty.
                Some(nw) if nw & facing != 0 => {
                    delta += i32::from(new.is_none()) - i32::from(old.is_none());
                }
                Some(_) => {}
            }
        }
        delta
    }

    /// Longest wall after taking `tile` out (no checks).
    pub fn wall_without(&self, tile: u8, rule: WallRule) -> u32 {
        self.wall_overlay(rule, None, Some(tile))
    }

    /// Takes a tile out without checks.
    pub fn take(&mut self, id: u8) {
        let p = self.pos[id as usize] as usize;
        let (links, v) = self.links(p, WALLS[id as usize]);
        let (gx, gy) = self.take_raw(id);
        self.refresh_sides_near(gx, gy);
        if !(self.trusted && links == 1 && self.take_leaf(id, p, v)) {
            self.update_removable();
        }
        self.refresh_spots_near(gx, gy);
    }

    /// Open links of a tile with `walls` on grid square `i`: how many, and the last
    /// neighbour found.
    #[inline]
    fn links(&self, i: usize, walls: u8) -> (u32, u8) {
        let (mut n, mut last) = (0, EMPTY);
        for d in 0..4 {
            let v = self.cells[(i as isize + STEP[d]) as usize];
            if v != EMPTY && walls & SIDE[d] == 0 {
                n += 1;
                last = v;
            }
        }
        (n, last)
    }

    /// Updates the articulation points and removable tiles after leaf `id` (linked only
    /// to `v`) left grid square `i`: no other tile's status changes except `v`'s, which
    /// is no articulation point any more if it is now a leaf itself (returns false,
    /// changing nothing, when `v` keeps two or more links: the caller recomputes). The
    /// tiles next to the freed square now touch an empty square.
    fn take_leaf(&mut self, id: u8, i: usize, v: u8) -> bool {
        if v != FOUNTAIN {
            if self.links(self.pos[v as usize] as usize, WALLS[v as usize]).0 > 1 {
                return false;
            }
            self.cut &= !(1u64 << v);
        }
        self.cut &= !(1u64 << id);
        self.removable &= !(1u64 << id);
        for d in STEP {
            let u = self.cells[(i as isize + d) as usize];
            if (u as usize) < N_TILES && self.cut >> u & 1 == 0 {
                self.removable |= 1 << u;
            }
        }
        true
    }

    /// Takes a tile out, updating the grid but not the move caches; returns its square.
    fn take_raw(&mut self, id: u8) -> (i32, i32) {
        let p = self.pos[id as usize] as usize;
        self.cells[p] = EMPTY;
        self.rows[p / G] &= !(1 << (p % G));
        self.pos[id as usize] = NOWHERE;
        self.tiles &= !(1u64 << id);
        self.kind_counts[TILES[id as usize].kind as usize] -= 1;
        let (gx, gy) = (p as i32 % G as i32, p as i32 / G as i32);
        // Shrink the bounding box if the tile was on its edge (rows and columns from the
        // occupancy bitboard).
        if gx == self.x0 || gx == self.x1 || gy == self.y0 || gy == self.y1 {
            let (y0, y1) = (self.y0, self.y1);
            let used = |y: i32| self.rows[y as usize] != 0;
            self.y0 = (y0..=y1).find(|&y| used(y)).expect("the fountain stays");
            self.y1 = (y0..=y1).rev().find(|&y| used(y)).expect("the fountain stays");
            let cols = (self.y0..=self.y1).fold(0u64, |m, y| m | self.rows[y as usize]);
            self.x0 = cols.trailing_zeros() as i32;
            self.x1 = G as i32 - 1 - cols.leading_zeros() as i32;
        }
        (gx, gy)
    }

    /// Shifts the whole city so that the bounding box extended by grid square
    /// `(gx, gy)` sits in the middle of the grid.
    fn recentre(&mut self, gx: i32, gy: i32) {
        let (x0, x1) = (self.x0.min(gx), self.x1.max(gx));
        let (y0, y1) = (self.y0.min(gy), self.y1.max(gy));
        let dx = (G as i32 - (x1 - x0 + 1)) / 2 - x0;
        let dy = (G as i32 - (y1 - y0 + 1)) / 2 - y0;
        let old = self.cells;
        self.cells = [EMPTY; G * G];
        self.rows = [0; G];
        for gy in self.y0..=self.y1 {
            for gx in self.x0..=self.x1 {
                let v = old[gy as usize * G + gx as usize];
                if v != EMPTY {
                    let (nx, ny) = (gx + dx, gy + dy);
                    self.cells[ny as usize * G + nx as usize] = v;
                    self.rows[ny as usize] |= 1 << nx;
                    if (v as usize) < N_TILES {
                        self.pos[v as usize] = (ny as usize * G + nx as usize) as u16;
                    }
                }
            }
        }
        self.ox += dx;
        self.oy += dy;
        self.x0 += dx;
        self.x1 += dx;
        self.y0 += dy;
        self.y1 += dy;
        self.update_spots(); // grid indices moved: rebuild the frontier and its slots
    }

    #[inline]
    fn walls_at(&self, gx: i32, gy: i32) -> Option<u8> {
        let v = self.cell(gx, gy);
        (v != EMPTY).then(|| TILES[v as usize].walls)
    }

    /// Empty squares connected to the outside of the city (4-neighbour steps through
    /// empty squares), within the bounding box plus a margin of one; `extra` is treated
    /// as occupied (a tentative placement).
    fn outside(&self, extra: Option<(i32, i32)>) -> GridSet {
        let (mut x0, mut x1, mut y0, mut y1) = (self.x0, self.x1, self.y0, self.y1);
        if let Some((ex, ey)) = extra {
            x0 = x0.min(ex);
            x1 = x1.max(ex);
            y0 = y0.min(ey);
            y1 = y1.max(ey);
        }
        let (x0, x1, y0, y1) = (x0 - 1, x1 + 1, y0 - 1, y1 + 1);
        let occupied = |x: i32, y: i32| self.cell(x, y) != EMPTY || extra == Some((x, y));
        let mut seen = GridSet::new();
        let mut stack = [(0i8, 0i8); G * 4];
        let mut top = 0;
        // The border of the extended box is empty and outside.
        let border = (x0..=x1).flat_map(|x| [(x, y0), (x, y1)]).chain((y0..=y1).flat_map(|y| [(x0, y), (x1, y)]));
        for (x, y) in border {
            if !seen.has(x, y) {
                seen.add(x, y);
                stack[top] = (x as i8, y as i8);
                top += 1;
            }
        }
        let mut big: Vec<(i8, i8)> = Vec::new(); // overflow only for unusually long borders
        loop {
            let (x, y) = if top > 0 {
                top -= 1;
                let (x, y) = stack[top];
                (x as i32, y as i32)
            } else if let Some((x, y)) = big.pop() {
                (x as i32, y as i32)
            } else {
                break;
            };
            for (dx, dy, _, _) in DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if nx < x0 || nx > x1 || ny < y0 || ny > y1 || seen.has(nx, ny) || occupied(nx, ny) {
                    continue;
                }
                seen.add(nx, ny);
                if top < stack.len() {
                    stack[top] = (nx as i8, ny as i8);
                    top += 1;
                } else {
                    big.push((nx as i8, ny as i8));
                }
            }
        }
        seen
    }

    /// Whether every tile is reachable from the fountain through open sides, with
    /// `skip` treated as empty.
    fn all_reachable(&self, skip: Option<(i32, i32)>) -> bool {
        let walls = |x: i32, y: i32| -> Option<u8> {
            if skip == Some((x, y)) {
                return None;
            }
            self.walls_at(x, y)
        };
        let want = self.len() + 1 - usize::from(skip.is_some());
        let mut seen = GridSet::new();
        let mut stack = [(0i8, 0i8); N_TILES + 1];
        let mut top = 1;
        stack[0] = (self.ox as i8, self.oy as i8);
        seen.add(self.ox, self.oy);
        let mut count = 1;
        while top > 0 {
            top -= 1;
            let (x, y) = (stack[top].0 as i32, stack[top].1 as i32);
            let here = walls(x, y).expect("reached squares hold tiles");
            for (dx, dy, side, facing) in DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if here & side != 0 || seen.has(nx, ny) {
                    continue;
                }
                if let Some(nw) = walls(nx, ny) {
                    if nw & facing == 0 {
                        seen.add(nx, ny);
                        stack[top] = (nx as i8, ny as i8);
                        top += 1;
                        count += 1;
                    }
                }
            }
        }
        count == want
    }

    /// Why `tile` may not be placed at public `(x, y)`, or `None` if it may.
    pub fn placement_error(&self, tile: u8, x: i32, y: i32, hole: HoleRule) -> Option<&'static str> {
        let (gx, gy) = (x + self.ox, y + self.oy);
        if self.cell(gx, gy) != EMPTY {
            return Some("square is occupied");
        }
        self.fit_error(TILES[tile as usize], gx, gy).or_else(|| self.hole_error(gx, gy, hole))
    }

    /// Side matching, contact and reachability of a tile put on an empty grid square.
    #[inline]
    fn fit_error(&self, tile: Tile, gx: i32, gy: i32) -> Option<&'static str> {
        let mut touching = false;
        let mut open_link = false;
        for (dx, dy, side, facing) in DIRS {
            if let Some(nw) = self.walls_at(gx + dx, gy + dy) {
                touching = true;
                let mine = tile.walls & side != 0;
                let theirs = nw & facing != 0;
                if mine != theirs {
                    return Some(if mine { "a wall meets an open side" } else { "an open side meets a wall" });
                }
                open_link |= !mine;
            }
        }
        if !touching {
            Some("not adjacent to the city")
        } else if !open_link {
            Some("not reachable from the fountain")
        } else {
            None
        }
    }

    /// Whether filling empty grid square `(gx, gy)` would create a hole.
    fn hole_error(&self, gx: i32, gy: i32, hole: HoleRule) -> Option<&'static str> {
        let empty = |x: i32, y: i32| self.cell(x, y) == EMPTY && (x, y) != (gx, gy);
        match hole {
            HoleRule::Cell => {
                for (dx, dy, _, _) in DIRS {
                    let (nx, ny) = (gx + dx, gy + dy);
                    if empty(nx, ny) && DIRS.iter().all(|(ex, ey, _, _)| !empty(nx + ex, ny + ey)) {
                        return Some("would leave an empty square enclosed on four sides");
                    }
                }
                None
            }
            HoleRule::Area => {
                if self.ring_ok(gx, gy) {
                    return None;
                }
                let out = self.outside(Some((gx, gy)));
                for (dx, dy, _, _) in DIRS {
                    let (nx, ny) = (gx + dx, gy + dy);
                    if empty(nx, ny) && !out.has(nx, ny) {
                        return Some("would enclose an empty area");
                    }
                }
                None
            }
        }
    }

    /// A sufficient local test that filling `(gx, gy)` encloses nothing: the empty
    /// squares among its 8 surrounding ones (in cyclic order, consecutive ones share a
    /// side) form at most one run that holds an orthogonal neighbour. Then all empty
    /// neighbours stay connected to each other, hence to the outside.
    #[inline]
    fn ring_ok(&self, gx: i32, gy: i32) -> bool {
        NB[self.block(gx, gy)] & NB_RING_OK != 0
    }

    /// The occupancy of the 3 × 3 block around grid square `(gx, gy)` as a 9-bit index
    /// (see [`NB`]). Squares read here lie within two steps of a tile, which keeps a
    /// margin of 3 to the grid's border, so the whole block is on the grid.
    #[inline]
    fn block(&self, gx: i32, gy: i32) -> usize {
        debug_assert!((1..G as i32 - 1).contains(&gx) && (1..G as i32 - 1).contains(&gy));
        let (sh, y) = ((gx - 1) as u32, gy as usize);
        let row = |r: usize| (self.rows[r] >> sh & 7) as usize;
        row(y - 1) | row(y) << 3 | row(y + 1) << 6
    }

    /// Appends every public square where `tile` may legally be placed.
    pub fn legal_squares(&self, tile: u8, hole: HoleRule, out: &mut Vec<(i8, i8)>) {
        self.each_square(tile, hole, |x, y| {
            out.push((x, y));
            true
        });
    }

    /// Calls `f(x, y)` for each public square where `tile` may legally be placed, in
    /// frontier order, while it returns true; returns whether it stopped early.
    #[inline]
    pub fn each_square(&self, tile: u8, hole: HoleRule, f: impl FnMut(i8, i8) -> bool) -> bool {
        self.each_square_for(1 << TILES[tile as usize].walls, hole, f)
    }

    /// [`City::each_square`] for the squares where a tile with any of the wall
    /// `patterns` (bit per pattern) fits.
    #[inline]
    fn each_square_for(&self, patterns: u16, hole: HoleRule, mut f: impl FnMut(i8, i8) -> bool) -> bool {
        let (sure, maybe) = match hole {
            HoleRule::Area => (OK_AREA, MAYBE_AREA),
            HoleRule::Cell => (OK_CELL, MAYBE_CELL),
        };
        for (c, chunk) in self.spots[..self.n_spots as usize].chunks(64).enumerate() {
            // The side test without branches, then only the fitting squares.
            let mut fitting = 0u64;
            for (b, s) in chunk.iter().enumerate() {
                fitting |= u64::from(s.fit & patterns != 0) << b;
            }
            for b in bits(fitting) {
                let s = &self.spots[c * 64 + b as usize];
                let legal = s.ok & sure != 0
                    || (s.ok & maybe != 0
                        && self.hole_error(s.x as i32 + self.ox, s.y as i32 + self.oy, hole).is_none());
                if legal && !f(s.x, s.y) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `tile` has at least one legal square.
    pub fn has_legal_square(&self, tile: u8, hole: HoleRule) -> bool {
        self.each_square(tile, hole, |_, _| false)
    }

    /// Whether some tile with one of the wall `patterns` (bit per pattern, see
    /// [`super::data::wall_patterns`]) has a legal square.
    pub fn has_square_for(&self, patterns: u16, hole: HoleRule) -> bool {
        self.each_square_for(patterns, hole, |_, _| false)
    }

    /// Recomputes the frontier: every empty square next to the city, with the sides a
    /// tile must match there and whether filling it would make a hole under each rule.
    fn update_spots(&mut self) {
        self.slot = [NO_SLOT; G * G];
        self.add_spots();
    }

    /// Adds the frontier squares of the bounding box to an empty frontier.
    fn add_spots(&mut self) {
        self.n_spots = 0;
        for gy in self.y0 - 1..=self.y1 + 1 {
            for gx in self.x0 - 1..=self.x1 + 1 {
                if let Some(spot) = self.spot_at(gx, gy) {
                    self.add_spot(gy as usize * G + gx as usize, spot);
                }
            }
        }
    }

    fn add_spot(&mut self, i: usize, spot: Spot) {
        self.slot[i] = self.n_spots;
        self.spots[self.n_spots as usize] = spot;
        self.n_spots += 1;
    }

    /// Removes grid square `i`'s frontier entry (moving the last entry into its place).
    fn remove_spot(&mut self, i: usize) {
        let k = self.slot[i] as usize;
        self.n_spots -= 1;
        let last = self.spots[self.n_spots as usize];
        self.spots[k] = last;
        let j = (last.y as i32 + self.oy) as usize * G + (last.x as i32 + self.ox) as usize;
        self.slot[j] = k as u8;
        self.slot[i] = NO_SLOT;
    }

    /// Updates the frontier after grid square `(gx, gy)` changed. Sides and the `area`
    /// ring test read the 8 surrounding squares, so only the 3 × 3 block around the change
    /// can differ; the `cell` test reads the neighbours' neighbours (two orthogonal steps).
    fn refresh_spots_near(&mut self, gx: i32, gy: i32) {
        let reach: &[(i32, i32)] = match self.rule {
            HoleRule::Area => &BLOCK,
            HoleRule::Cell => &DIAMOND,
        };
        for &(dx, dy) in reach {
            let (x, y) = (gx + dx, gy + dy);
            let i = y as usize * G + x as usize;
            match (self.slot[i], self.spot_at(x, y)) {
                (NO_SLOT, None) => {}
                (NO_SLOT, Some(spot)) => self.add_spot(i, spot),
                (_, None) => self.remove_spot(i),
                (k, Some(spot)) => self.spots[k as usize] = spot,
            }
        }
    }

    /// The frontier entry of grid square `(gx, gy)`, if it is empty and touches the city.
    /// Index arithmetic on the grid: tiles keep a margin of 3 squares to the grid's
    /// border (see `put`), so every square read here exists.
    #[inline]
    fn spot_at(&self, gx: i32, gy: i32) -> Option<Spot> {
        let nb = NB[self.block(gx, gy)];
        if nb & NB_HERE != 0 || nb & 15 == 0 {
            return None;
        }
        let i = gy as usize * G + gx as usize;
        let at = |j: usize, d: isize| self.cells[(j as isize + d) as usize];
        let occ = nb & 15;
        let mut req = 0u8;
        for d in 0..4 {
            if occ & SIDE[d] != 0 && WALLS[at(i, STEP[d]) as usize] & FACING[d] != 0 {
                req |= SIDE[d];
            }
        }
        // Under `area` the flood fill is left for the squares where a tile fits and the
        // local test is not enough (see `squares_for`); so is the other rule's test.
        let ok = match self.rule {
            HoleRule::Area => MAYBE_CELL | if nb & NB_RING_OK != 0 { OK_AREA } else { MAYBE_AREA },
            HoleRule::Cell => {
                // No empty orthogonal neighbour may end up with tiles on all four sides.
                let pocket = (0..4).any(|d| {
                    let n = (i as isize + STEP[d]) as usize;
                    self.cells[n] == EMPTY && STEP.iter().all(|&e| (n as isize + e) as usize == i || at(n, e) != EMPTY)
                });
                MAYBE_AREA | if pocket { 0 } else { OK_CELL }
            }
        };
        let fit = FIT[(occ << 4 | req) as usize];
        Some(Spot { x: (gx - self.ox) as i8, y: (gy - self.oy) as i8, occ, req, ok, fit })
    }

    /// Whether city tile `id` may be moved to the reserve: the rest stays reachable
    /// and the freed square is not a hole.
    #[inline]
    pub fn can_remove(&self, id: u8) -> bool {
        self.removable >> id & 1 == 1
    }

    /// Tiles that may move to the reserve (bit per id).
    pub fn removable(&self) -> u64 {
        self.removable
    }

    /// Recomputes the removable tiles: those that touch an empty square and are not
    /// articulation points of the graph of open links (Tarjan's low-link, one DFS from
    /// the fountain).
    fn update_removable(&mut self) {
        let mut disc = [0u8; N_TILES + 1];
        let mut low = [0u8; N_TILES + 1];
        let mut cut = 0u64;
        let mut time = 0u8;
        self.low_link(FOUNTAIN, u8::MAX, &mut disc, &mut low, &mut time, &mut cut);
        self.cut = cut;
        let mut removable = 0;
        for id in self.iter_tiles() {
            if cut >> id & 1 == 1 || disc[id as usize] == 0 {
                continue;
            }
            // The freed square must touch an empty square (in a legal city that square is
            // outside under `area`; under `cell` it may join a pocket of two or more).
            if self.touches_empty(self.pos[id as usize] as usize) {
                removable |= 1 << id;
            }
        }
        self.removable = removable;
    }

    /// Grid position of a tile id or the fountain.
    fn grid_pos(&self, id: u8) -> (i32, i32) {
        if id == FOUNTAIN {
            (self.ox, self.oy)
        } else {
            let p = self.pos[id as usize] as i32;
            (p % G as i32, p / G as i32)
        }
    }

    fn low_link(&self, u: u8, parent: u8, disc: &mut [u8; 55], low: &mut [u8; 55], time: &mut u8, cut: &mut u64) {
        *time += 1;
        disc[u as usize] = *time;
        low[u as usize] = *time;
        let (x, y) = self.grid_pos(u);
        let i = y as usize * G + x as usize;
        let walls = WALLS[u as usize];
        for d in 0..4 {
            // Tiles keep a 3-square margin to the grid's border: the neighbour exists.
            let v = self.cells[(i as isize + STEP[d]) as usize];
            if v == EMPTY || walls & SIDE[d] != 0 || WALLS[v as usize] & FACING[d] != 0 {
                continue;
            }
            if disc[v as usize] == 0 {
                self.low_link(v, u, disc, low, time, cut);
                low[u as usize] = low[u as usize].min(low[v as usize]);
                if u != FOUNTAIN && low[v as usize] >= disc[u as usize] {
                    *cut |= 1 << u;
                }
            } else if v != parent {
                low[u as usize] = low[u as usize].min(disc[v as usize]);
            }
        }
    }

    /// Whether reserve tile `new` may replace city tile `old` on its square. In a legal
    /// city the old tile matches all its neighbours, so a new tile that matches them too
    /// has exactly the same open links: reachability and holes cannot change.
    pub fn can_swap(&self, old: u8, new: u8) -> bool {
        self.swap_patterns(old) >> WALLS[new as usize] & 1 == 1
    }

    /// The wall patterns (bit per pattern) of the tiles that may replace city tile `id`.
    #[inline]
    pub fn swap_patterns(&self, id: u8) -> u16 {
        SWAP_FIT[self.sides[id as usize] as usize]
    }

    /// Updates the cached sides after grid square `(gx, gy)` changed (tile put, taken or
    /// swapped): the square's own tile and its neighbours' sides facing it.
    fn refresh_sides_near(&mut self, gx: i32, gy: i32) {
        let i = gy as usize * G + gx as usize;
        let here = self.cells[i];
        let walls = WALLS[here as usize];
        let (mut occ, mut req) = (0u8, 0u8);
        for d in 0..4 {
            let v = self.cells[(i as isize + STEP[d]) as usize];
            if v == EMPTY {
                continue;
            }
            occ |= SIDE[d];
            if WALLS[v as usize] & FACING[d] != 0 {
                req |= SIDE[d];
            }
            if (v as usize) < N_TILES {
                // The neighbour's side facing this square: `occ` bit high nibble, `req` low.
                let f = FACING[d];
                let sides = self.sides[v as usize] & !(f << 4 | f);
                self.sides[v as usize] = match here {
                    EMPTY => sides,
                    _ => sides | f << 4 | if walls & SIDE[d] != 0 { f } else { 0 },
                };
            }
        }
        if (here as usize) < N_TILES {
            self.sides[here as usize] = occ << 4 | req;
        }
    }

    /// For city tile `id`: the sides that touch other tiles (`occ`) and those of them
    /// where the neighbour has a wall facing it (`req`). A tile fits that square (as a
    /// swap) exactly when its walls on the `occ` sides equal `req`.
    pub fn sides_at(&self, id: u8) -> (u8, u8) {
        self.sides_of_square(self.pos[id as usize] as usize)
    }

    #[inline]
    fn sides_of_square(&self, i: usize) -> (u8, u8) {
        let (mut occ, mut req) = (0u8, 0u8);
        for d in 0..4 {
            // Tiles keep a 3-square margin to the grid's border: the neighbour exists.
            let v = self.cells[(i as isize + STEP[d]) as usize];
            if v != EMPTY {
                occ |= SIDE[d];
                if WALLS[v as usize] & FACING[d] != 0 {
                    req |= SIDE[d];
                }
            }
        }
        (occ, req)
    }

    /// Replaces city tile `old` by `new` on the same square (no checks).
    ///
    /// The caller has checked [`City::can_swap`]: the new tile has the same open links, so
    /// occupancy, reachability and articulation points are unchanged. Only the tile id and
    /// the sides the neighbouring frontier squares must match can change.
    pub fn swap(&mut self, old: u8, new: u8) {
        let p = self.pos[old as usize];
        let (gx, gy) = (p as i32 % G as i32, p as i32 / G as i32);
        self.cells[p as usize] = new;
        self.pos[new as usize] = p;
        self.pos[old as usize] = NOWHERE;
        self.tiles = (self.tiles & !(1u64 << old)) | 1 << new;
        self.kind_counts[TILES[old as usize].kind as usize] -= 1;
        self.kind_counts[TILES[new as usize].kind as usize] += 1;
        if self.removable >> old & 1 == 1 {
            self.removable = (self.removable & !(1u64 << old)) | 1 << new;
        }
        if self.cut >> old & 1 == 1 {
            self.cut = (self.cut & !(1u64 << old)) | 1 << new;
        }
        for (dx, dy, side, facing) in DIRS {
            let k = self.slot[(gy + dy) as usize * G + (gx + dx) as usize] as usize;
            if k != NO_SLOT as usize {
                // The neighbour's side towards the swapped square must match its new wall.
                let spot = &mut self.spots[k];
                spot.req = (spot.req & !facing) | if WALLS[new as usize] & side != 0 { facing } else { 0 };
                spot.fit = FIT[(spot.occ << 4 | spot.req) as usize];
            }
        }
        self.refresh_sides_near(gx, gy);
    }

    /// Checks the whole city against every placement rule.
    pub fn validate(&self, hole: HoleRule) -> Result<(), String> {
        for id in self.iter_tiles() {
            let (x, y) = self.coords(id);
            let (gx, gy) = (x + self.ox, y + self.oy);
            let w = TILES[id as usize].walls;
            for (dx, dy, side, facing) in DIRS {
                if let Some(nw) = self.walls_at(gx + dx, gy + dy) {
                    if (w & side != 0) != (nw & facing != 0) {
                        return Err(format!("tile {id} at ({x}, {y}): sides do not match its neighbour"));
                    }
                }
            }
        }
        if !self.all_reachable(None) {
            return Err("not every tile is reachable from the fountain".into());
        }
        match hole {
            HoleRule::Area => {
                let out = self.outside(None);
                for gy in self.y0..=self.y1 {
                    for gx in self.x0..=self.x1 {
                        if self.cell(gx, gy) == EMPTY && !out.has(gx, gy) {
                            return Err(format!("empty square ({}, {}) is enclosed", gx - self.ox, gy - self.oy));
                        }
                    }
                }
            }
            HoleRule::Cell => {
                for gy in self.y0..=self.y1 {
                    for gx in self.x0..=self.x1 {
                        if self.cell(gx, gy) == EMPTY
                            && DIRS.iter().all(|(dx, dy, _, _)| self.cell(gx + dx, gy + dy) != EMPTY)
                        {
                            return Err(format!(
                                "empty square ({}, {}) is enclosed on four sides",
                                gx - self.ox,
                                gy - self.oy
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks the incrementally kept caches (frontier squares, removable tiles) against
    /// a recomputation from scratch (used by the invariant tests).
    pub fn check_caches(&self, hole: HoleRule) -> Result<(), String> {
        let key = |c: &City| {
            let mut v: Vec<(i8, i8, u8, u8, u8)> =
                c.spots[..c.n_spots as usize].iter().map(|s| (s.x, s.y, s.occ, s.req, s.ok)).collect();
            v.sort_unstable();
            v
        };
        for (k, spot) in self.spots[..self.n_spots as usize].iter().enumerate() {
            let i = (spot.y as i32 + self.oy) as usize * G + (spot.x as i32 + self.ox) as usize;
            if self.slot[i] as usize != k {
                return Err(format!("frontier slot of ({}, {}) is stale", spot.x, spot.y));
            }
        }
        if self.slot.iter().filter(|&&k| k != NO_SLOT).count() != self.n_spots as usize {
            return Err("frontier slots count squares that are not on the frontier".into());
        }
        let mut bbox = (self.ox, self.ox, self.oy, self.oy);
        for id in self.iter_tiles() {
            let p = self.pos[id as usize] as usize;
            let (gx, gy) = ((p % G) as i32, (p / G) as i32);
            bbox = (bbox.0.min(gx), bbox.1.max(gx), bbox.2.min(gy), bbox.3.max(gy));
            if self.rows[gy as usize] >> gx & 1 != 1 {
                return Err(format!("occupancy bitboard misses tile {id}"));
            }
        }
        if bbox != (self.x0, self.x1, self.y0, self.y1) {
            return Err(format!("bounding box {:?} should be {bbox:?}", (self.x0, self.x1, self.y0, self.y1)));
        }
        if self.rows.iter().map(|r| r.count_ones()).sum::<u32>() != self.len() as u32 + 1 {
            return Err("occupancy bitboard holds stray squares".into());
        }
        let mut fresh = self.clone();
        fresh.update_removable();
        if (fresh.cut, fresh.removable) != (self.cut, self.removable) {
            return Err(format!(
                "articulation/removable caches {:x}/{:x} should be {:x}/{:x}",
                self.cut, self.removable, fresh.cut, fresh.removable
            ));
        }
        fresh.update_spots();
        fresh.trusted = false;
        for rule in [WallRule::Trail, WallRule::SimplePath] {
            if fresh.longest_wall(rule) != self.longest_wall(rule) {
                return Err(format!("{rule:?} wall without flood fill differs"));
            }
        }
        for id in self.iter_tiles() {
            let (occ, req) = self.sides_at(id);
            if self.sides[id as usize] != occ << 4 | req {
                return Err(format!("cached sides of tile {id} are stale"));
            }
        }
        if self.spots[..self.n_spots as usize].iter().any(|s| s.fit != FIT[(s.occ << 4 | s.req) as usize]) {
            return Err("frontier wall-pattern masks are stale".into());
        }
        if key(self) != key(&fresh) {
            return Err(format!("frontier cache differs: {:?} vs {:?}", key(self), key(&fresh)));
        }
        for id in self.iter_tiles() {
            let mut without = self.clone();
            without.take(id);
            if without.longest_wall(WallRule::Trail) != self.wall_without(id, WallRule::Trail) {
                return Err(format!("wall overlay without tile {id} differs"));
            }
            let legal = without.validate(hole).is_ok();
            if legal != self.can_remove(id) {
                return Err(format!("tile {id}: removable cache says {}, rules say {legal}", self.can_remove(id)));
            }
        }
        Ok(())
    }

    /// Whether placing `tile` at public `(x, y)` can change the outer walls: it has a
    /// wall, a neighbour has a wall facing the square, or (under `cell`) it may close a
    /// pocket. Otherwise a legal placement leaves the outer wall segments as they are.
    pub fn placement_changes_walls(&self, tile: u8, x: i32, y: i32) -> bool {
        let (gx, gy) = (x + self.ox, y + self.oy);
        self.rule == HoleRule::Cell
            || TILES[tile as usize].walls != 0
            || DIRS.iter().any(|&(dx, dy, _, facing)| self.walls_at(gx + dx, gy + dy).is_some_and(|w| w & facing != 0))
    }

    /// Length of the longest continuous outer wall: wall sides facing an empty square
    /// connected to the outside, joined at shared corners.
    pub fn longest_wall(&self, rule: WallRule) -> u32 {
        self.wall_overlay(rule, None, None)
    }

    /// Longest wall with tile `add = (public x, y, id)` placed and/or tile `remove` taken
    /// out, without changing the city (no checks).
    pub fn wall_overlay(&self, rule: WallRule, add: Option<(i32, i32, u8)>, remove: Option<u8>) -> u32 {
        // A city built by legal moves under `area` has no enclosed empty square: every
        // empty square is outside and no flood fill is needed. Otherwise work on a copy.
        if !(self.trusted && self.rule == HoleRule::Area) {
            if add.is_none() && remove.is_none() {
                return self.walls_flooded(rule);
            }
            let mut c = self.clone();
            if let Some(r) = remove {
                c.take_raw(r);
            }
            if let Some((x, y, id)) = add {
                c.put_raw(id, x, y);
            }
            return c.walls_flooded(rule);
        }
        if add.is_none() && remove.is_none() {
            // The city as it is: a side is outer when its neighbour square is empty.
            let mut edges = [(0u16, 0u16); 96];
            let mut n_edges = 0;
            for id in self.iter_tiles() {
                let p = self.pos[id as usize] as usize;
                let (gx, gy) = ((p % G) as i32, (p / G) as i32);
                let outer = TILES[id as usize].walls & !NB[self.block(gx, gy)] & 15;
                if outer != 0 {
                    push_segments(&mut edges, &mut n_edges, gx, gy, outer, &|_, _| true);
                }
            }
            return longest(&edges[..n_edges], rule);
        }
        let add_at = add.map(|(x, y, id)| (x + self.ox, y + self.oy, id));
        let removed_at = remove.map(|r| {
            let p = self.pos[r as usize] as i32;
            (p % G as i32, p / G as i32)
        });
        let empty = |x: i32, y: i32| {
            if add_at.is_some_and(|(ax, ay, _)| (ax, ay) == (x, y)) {
                false
            } else {
                removed_at == Some((x, y)) || self.cell(x, y) == EMPTY
            }
        };
        let mut edges = [(0u16, 0u16); 96];
        let mut n_edges = 0;
        let tiles = self.iter_tiles().filter(|&t| Some(t) != remove).map(|t| {
            let p = self.pos[t as usize] as i32;
            (p % G as i32, p / G as i32, t)
        });
        for (gx, gy, id) in tiles.chain(add_at) {
            push_segments(&mut edges, &mut n_edges, gx, gy, TILES[id as usize].walls, &empty);
        }
        longest(&edges[..n_edges], rule)
    }

    /// Longest wall counting only sides that face squares connected to the outside.
    fn walls_flooded(&self, rule: WallRule) -> u32 {
        let out = self.outside(None);
        let mut edges = [(0u16, 0u16); 96];
        let mut n_edges = 0;
        for id in self.iter_tiles() {
            let p = self.pos[id as usize] as i32;
            let outer = |x: i32, y: i32| out.has(x, y);
            push_segments(&mut edges, &mut n_edges, p % G as i32, p / G as i32, TILES[id as usize].walls, &outer);
        }
        longest(&edges[..n_edges], rule)
    }
}

/// Appends the wall segments of a tile at grid `(gx, gy)` that face an outer square.
/// Corners are numbered `cy * (G + 1) + cx`; a segment is a pair of corners.
fn push_segments(
    edges: &mut [(u16, u16); 96],
    n: &mut usize,
    gx: i32,
    gy: i32,
    walls: u8,
    outer: &impl Fn(i32, i32) -> bool,
) {
    let corner = |cx: i32, cy: i32| (cy * (G as i32 + 1) + cx) as u16;
    for (dx, dy, side, _) in DIRS {
        if walls & side == 0 || !outer(gx + dx, gy + dy) {
            continue;
        }
        edges[*n] = match side {
            N => (corner(gx, gy), corner(gx + 1, gy)),
            E => (corner(gx + 1, gy), corner(gx + 1, gy + 1)),
            S => (corner(gx, gy + 1), corner(gx + 1, gy + 1)),
            _ => (corner(gx, gy), corner(gx, gy + 1)),
        };
        *n += 1;
    }
}

/// Longest trail (or simple path) in the graph of wall segments.
fn longest(edges: &[(u16, u16)], rule: WallRule) -> u32 {
    if edges.is_empty() {
        return 0;
    }
    // Compact vertex ids (corners in order of first appearance) and adjacency (degree
    // ≤ 4 on a grid).
    let mut id_of = [u8::MAX; (G + 1) * (G + 1)];
    let mut nv = 0;
    let mut vid = |c: u16| {
        let slot = &mut id_of[c as usize];
        if *slot == u8::MAX {
            *slot = nv as u8;
            nv += 1;
        }
        *slot as usize
    };
    let mut adj = [[(0u8, 0u8); 4]; 192]; // (neighbour, edge)
    let mut deg = [0u8; 192];
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (a, b) = (vid(a), vid(b));
        adj[a][deg[a] as usize] = (b as u8, e as u8);
        deg[a] += 1;
        adj[b][deg[b] as usize] = (a as u8, e as u8);
        deg[b] += 1;
    }
    let g = Graph { adj: &adj[..nv], deg: &deg[..nv] };
    let mut best = 0;
    match rule {
        WallRule::Trail => {
            // A longest trail starts at an odd-degree vertex, or it is closed and then
            // covers its whole (Eulerian) component: a closed trail missing an edge of
            // its connected component could be extended.
            let mut comp = [0u8; 192];
            let mut n_comp = 0u8;
            for s in 0..nv {
                if comp[s] == 0 {
                    n_comp += 1;
                    g.mark(s, n_comp, &mut comp);
                }
            }
            // Each component's degree sum and whether it has an odd-degree vertex, in one pass.
            let mut degree_sum = [0u32; 193];
            let mut odd = [false; 193];
            for v in 0..nv {
                degree_sum[comp[v] as usize] += deg[v] as u32;
                odd[comp[v] as usize] |= deg[v] % 2 == 1;
            }
            let mut used = [false; 96];
            for c in 1..=n_comp {
                let (size, any_odd) = (degree_sum[c as usize] / 2, odd[c as usize]);
                if !any_odd || size <= best {
                    best = best.max(if any_odd { 0 } else { size });
                    continue;
                }
                for v in (0..nv).filter(|&v| comp[v] == c && deg[v] % 2 == 1) {
                    best = best.max(g.trail(v, &mut used, size));
                    if best == size {
                        break; // no trail is longer than its component
                    }
                }
            }
        }
        WallRule::SimplePath => {
            let mut seen = [false; 192];
            for v in 0..nv {
                seen[v] = true;
                best = best.max(g.path(v, &mut seen));
                seen[v] = false;
            }
        }
    }
    best
}

struct Graph<'a> {
    adj: &'a [[(u8, u8); 4]],
    deg: &'a [u8],
}

impl Graph<'_> {
    fn mark(&self, v: usize, c: u8, comp: &mut [u8; 192]) {
        comp[v] = c;
        for i in 0..self.deg[v] as usize {
            let w = self.adj[v][i].0 as usize;
            if comp[w] == 0 {
                self.mark(w, c, comp);
            }
        }
    }

    /// Longest trail from `v` over unused edges, stopping early once `cap` is reached.
    fn trail(&self, v: usize, used: &mut [bool; 96], cap: u32) -> u32 {
        let mut best = 0;
        for i in 0..self.deg[v] as usize {
            let (w, e) = self.adj[v][i];
            if !used[e as usize] {
                used[e as usize] = true;
                best = best.max(1 + self.trail(w as usize, used, cap.saturating_sub(1)));
                used[e as usize] = false;
                if best >= cap {
                    break;
                }
            }
        }
        best
    }

    fn path(&self, v: usize, seen: &mut [bool; 192]) -> u32 {
        let mut best = 0;
        for i in 0..self.deg[v] as usize {
            let w = self.adj[v][i].0 as usize;
            if !seen[w] {
                seen[w] = true;
                best = best.max(1 + self.path(w, seen));
                seen[w] = false;
            }
        }
        best
    }
}
