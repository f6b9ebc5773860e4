//! Hex geometry and the map: an unbounded grid of axial coordinates stored in fixed arrays.
//!
//! **Coordinates.** Axial `(q, r)` (pointy-top hexes, `r` grows downwards). The six
//! directions, counter-clockwise on the page: 0 east `(1, 0)`, 1 north-east `(1, -1)`,
//! 2 north-west `(0, -1)`, 3 west `(-1, 0)`, 4 south-west `(-1, 1)`, 5 south-east `(0, 1)`.
//! Consecutive directions `k`, `k + 1` point to two neighbours that touch each other.
//!
//! **A tile placed with its volcano at `v` and rotation `k`** covers `v`, `v + d[k]` (its
//! left terrain) and `v + d[k + 1]` (its right terrain): looking from the volcano towards
//! the pair, the left terrain is on the left. Rotation 4 is the tile as printed (volcano
//! up, terrains south-west and south-east). Rotations preserve handedness, so this holds in
//! every rotation.
//!
//! **Bound.** The first tile's hexes lie within distance 1 of the origin; a tile laid at
//! sea level touches a hex already on the table, so its farthest hex is at most 2 farther
//! out; eruptions add no hex. After at most 47 more tiles every hex of land lies within
//! distance `1 + 2 * 47 = 95` of the origin, the sea hexes next to land within 96 and the
//! hexes a candidate placement may cover within 97: coordinates fit an `i8`. There are at
//! most 144 land hexes (3 per tile); the *known* cells (land and the sea hexes next to
//! land) number at most 144 + 9 + 47 * 7 = 482: the first tile has 9 sea neighbours, and a
//! later tile adds at most 8 new ones (its ring of 9 less the land hex it touches) while
//! turning at least one sea neighbour into land. So [`CAP`] = 512 cells never overflow.
//! Cells are indexed in order of discovery and never removed; each keeps the indices of
//! its six neighbours ([`NONE`] for a hex not known yet, which is sea and touches no
//! land); a small open-addressing hash finds a cell by coordinates.

pub const DIRS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
pub const DIR_NAMES: [&str; 6] = ["E", "NE", "NW", "W", "SW", "SE"];
/// Most known cells (land and the sea next to it); see the module docs for the bound.
pub const CAP: usize = 512;
/// Most land hexes (48 tiles of 3 hexes).
pub const MAX_LAND: usize = 144;
/// No cell.
pub const NONE: u16 = u16::MAX;
const HASH: usize = 1024;

/// Building on a hex.
pub const EMPTY: u8 = 0;
pub const HUT: u8 = 1;
pub const TEMPLE: u8 = 2;
pub const TOWER: u8 = 3;
pub const NOBODY: u8 = u8::MAX;

/// The coordinates of `(q, r)`'s neighbour in direction `k` (0..6, taken mod 6).
#[inline]
pub fn step(q: i16, r: i16, k: usize) -> (i16, i16) {
    let (dq, dr) = DIRS[k % 6];
    (q + dq as i16, r + dr as i16)
}

/// The three hexes of a tile placed with its volcano at `(q, r)` and rotation `rot`:
/// volcano, left terrain, right terrain.
#[inline]
pub fn tile_hexes(q: i16, r: i16, rot: usize) -> [(i16, i16); 3] {
    [(q, r), step(q, r, rot), step(q, r, rot + 1)]
}

/// Distance between two hexes.
pub fn distance(a: (i16, i16), b: (i16, i16)) -> i16 {
    let (dq, dr) = (a.0 - b.0, a.1 - b.1);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// The map: every known cell, its stack and what stands on it.
#[derive(Clone)]
pub struct Map {
    pub n_cells: u16,
    pub q: [i8; CAP],
    pub r: [i8; CAP],
    /// Neighbour cell in each direction, or [`NONE`] (unknown: sea away from land).
    pub nb: [[u16; 6]; CAP],
    /// Height of the stack (0 = sea).
    pub level: [u8; CAP],
    /// Terrain of the top hex ([`super::tiles::VOLCANO`] or a terrain).
    pub terrain: [u8; CAP],
    /// Rotation of the tile whose volcano is on top here (volcano hexes only).
    pub vdir: [u8; CAP],
    /// Number (1-based, in order of placement) of the top tile.
    pub tile_no: [u8; CAP],
    /// Owner of the building, [`NOBODY`] if none.
    pub owner: [u8; CAP],
    /// [`EMPTY`], [`HUT`] (as many huts as the level), [`TEMPLE`] or [`TOWER`].
    pub building: [u8; CAP],
    hash: [u16; HASH],
    /// Land cells in order of placement.
    pub land: [u16; MAX_LAND],
    pub n_land: u16,
    /// Known sea cells (all of them touch land).
    pub frontier: [u16; CAP],
    pub n_frontier: u16,
    fpos: [u16; CAP],
}

impl Default for Map {
    fn default() -> Self {
        Map {
            n_cells: 0,
            q: [0; CAP],
            r: [0; CAP],
            nb: [[NONE; 6]; CAP],
            level: [0; CAP],
            terrain: [0; CAP],
            vdir: [0; CAP],
            tile_no: [0; CAP],
            owner: [NOBODY; CAP],
            building: [EMPTY; CAP],
            hash: [NONE; HASH],
            land: [NONE; MAX_LAND],
            n_land: 0,
            frontier: [NONE; CAP],
            n_frontier: 0,
            fpos: [NONE; CAP],
        }
    }
}

#[inline]
fn slot(q: i16, r: i16) -> usize {
    let key = ((q as u8 as u32) << 8) | (r as u8 as u32);
    (key.wrapping_mul(0x9E37_79B1) >> 22) as usize & (HASH - 1)
}

impl Map {
    /// The cell at `(q, r)`, or [`NONE`] if it is not known (then it is sea and touches no land).
    #[inline]
    pub fn find(&self, q: i16, r: i16) -> u16 {
        if !(-120..=120).contains(&q) || !(-120..=120).contains(&r) {
            return NONE;
        }
        let mut s = slot(q, r);
        loop {
            let c = self.hash[s];
            if c == NONE {
                return NONE;
            }
            if self.q[c as usize] as i16 == q && self.r[c as usize] as i16 == r {
                return c;
            }
            s = (s + 1) & (HASH - 1);
        }
    }

    /// Coordinates of cell `c`.
    #[inline]
    pub fn coord(&self, c: u16) -> (i16, i16) {
        (self.q[c as usize] as i16, self.r[c as usize] as i16)
    }

    /// Level of the hex at `(q, r)` (0 for sea).
    #[inline]
    pub fn level_at(&self, q: i16, r: i16) -> u8 {
        match self.find(q, r) {
            NONE => 0,
            c => self.level[c as usize],
        }
    }

    #[inline]
    pub fn is_land(&self, c: u16) -> bool {
        c != NONE && self.level[c as usize] > 0
    }

    /// The known cell at `(q, r)`, created (as sea) and linked to its known neighbours if new.
    fn ensure(&mut self, q: i16, r: i16) -> u16 {
        let found = self.find(q, r);
        if found != NONE {
            return found;
        }
        assert!((self.n_cells as usize) < CAP, "map capacity exceeded (see the bound in hex.rs)");
        assert!((-110..=110).contains(&q) && (-110..=110).contains(&r), "coordinate out of the proven bound");
        let c = self.n_cells;
        self.n_cells += 1;
        let ci = c as usize;
        self.q[ci] = q as i8;
        self.r[ci] = r as i8;
        let mut s = slot(q, r);
        while self.hash[s] != NONE {
            s = (s + 1) & (HASH - 1);
        }
        self.hash[s] = c;
        for k in 0..6 {
            let (nq, nr) = step(q, r, k);
            let n = self.find(nq, nr);
            self.nb[ci][k] = n;
            if n != NONE {
                self.nb[n as usize][(k + 3) % 6] = c;
            }
        }
        c
    }

    /// Turns the sea hex `(q, r)` into a level-1 hex of `terrain` (no building) and returns
    /// its cell; its sea neighbours become known.
    pub fn raise_from_sea(&mut self, q: i16, r: i16, terrain: u8, tile_no: u8) -> u16 {
        let c = self.ensure(q, r);
        let ci = c as usize;
        debug_assert_eq!(self.level[ci], 0, "hex already land");
        if self.fpos[ci] != NONE {
            let i = self.fpos[ci] as usize;
            let last = self.frontier[self.n_frontier as usize - 1];
            self.frontier[i] = last;
            self.fpos[last as usize] = i as u16;
            self.n_frontier -= 1;
            self.fpos[ci] = NONE;
        }
        self.level[ci] = 1;
        self.terrain[ci] = terrain;
        self.tile_no[ci] = tile_no;
        self.land[self.n_land as usize] = c;
        self.n_land += 1;
        for k in 0..6 {
            let (nq, nr) = step(q, r, k);
            let n = self.ensure(nq, nr);
            let ni = n as usize;
            if self.level[ni] == 0 && self.fpos[ni] == NONE {
                self.fpos[ni] = self.n_frontier;
                self.frontier[self.n_frontier as usize] = n;
                self.n_frontier += 1;
            }
        }
        c
    }

    /// Land cells.
    #[inline]
    pub fn land_cells(&self) -> &[u16] {
        &self.land[..self.n_land as usize]
    }

    /// Known sea cells.
    #[inline]
    pub fn frontier_cells(&self) -> &[u16] {
        &self.frontier[..self.n_frontier as usize]
    }

    /// Whether cell `c` is land without a building and not a volcano.
    #[inline]
    pub fn is_free(&self, c: u16) -> bool {
        let ci = c as usize;
        self.level[ci] > 0 && self.building[ci] == EMPTY && self.terrain[ci] != super::tiles::VOLCANO
    }

    /// Bounding box of the land in doubled coordinates `x = 2q + r`, `y = r`:
    /// (min x, max x, min y, max y).
    pub fn bounds(&self) -> (i16, i16, i16, i16) {
        let mut b = (i16::MAX, i16::MIN, i16::MAX, i16::MIN);
        for &c in self.land_cells() {
            let (q, r) = self.coord(c);
            let x = 2 * q + r;
            b = (b.0.min(x), b.1.max(x), b.2.min(r), b.3.max(r));
        }
        b
    }
}
