//! A player's city: the grid of placed tiles, the placement rules, redesign checks and
//! the longest outer wall.
//!
//! Coordinates in the public API are relative to the fountain at (0, 0), x to the east,
//! y to the **south**. Internally the city lives on a fixed 64 × 64 grid (no allocation);
//! it is shifted when a tile would land on the grid's border. A city holds at most 55
//! tiles, so its bounding box plus a one-square margin always fits.

use super::data::{Tile, E, FOUNTAIN, N, N_KINDS, N_TILES, S, TILES, W};

const G: usize = 64;
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
        let c = (G / 2) as i32;
        let mut city = City {
            cells: [EMPTY; G * G],
            ox: c,
            oy: c,
            x0: c,
            x1: c,
            y0: c,
            y1: c,
            tiles: 0,
            pos: [NOWHERE; N_TILES],
            kind_counts: [0; N_KINDS],
        };
        city.cells[c as usize * G + c as usize] = FOUNTAIN;
        city
    }

    /// Builds a city from `(x, y, tile_id)` entries without judging legality; errors on
    /// unknown ids, duplicates, the fountain square, or a city too wide for the grid.
    pub fn from_layout(layout: &[(i32, i32, u8)]) -> Result<City, String> {
        let mut city = City::new();
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
            if x.abs() > 55 || y.abs() > 55 {
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
        self.iter_tiles().map(|id| {
            let (x, y) = self.coords(id);
            (x, y, id)
        }).collect()
    }

    pub fn iter_tiles(&self) -> impl Iterator<Item = u8> + '_ {
        let mut bits = self.tiles;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let id = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(id)
            }
        })
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
        let (mut gx, mut gy) = (x + self.ox, y + self.oy);
        if gx < 1 || gy < 1 || gx > G as i32 - 2 || gy > G as i32 - 2 {
            self.recentre(gx, gy);
            gx = x + self.ox;
            gy = y + self.oy;
        }
        self.cells[gy as usize * G + gx as usize] = id;
        self.pos[id as usize] = (gy as usize * G + gx as usize) as u16;
        self.tiles |= 1 << id;
        self.kind_counts[TILES[id as usize].kind as usize] += 1;
        self.x0 = self.x0.min(gx);
        self.x1 = self.x1.max(gx);
        self.y0 = self.y0.min(gy);
        self.y1 = self.y1.max(gy);
    }

    /// Takes a tile out without checks.
    pub fn take(&mut self, id: u8) {
        let p = self.pos[id as usize] as usize;
        self.cells[p] = EMPTY;
        self.pos[id as usize] = NOWHERE;
        self.tiles &= !(1u64 << id);
        self.kind_counts[TILES[id as usize].kind as usize] -= 1;
        // Shrink the bounding box (cheap: it is small).
        let (mut x0, mut x1, mut y0, mut y1) = (self.ox, self.ox, self.oy, self.oy);
        for t in self.iter_tiles() {
            let q = self.pos[t as usize] as i32;
            let (gx, gy) = (q % G as i32, q / G as i32);
            x0 = x0.min(gx);
            x1 = x1.max(gx);
            y0 = y0.min(gy);
            y1 = y1.max(gy);
        }
        (self.x0, self.x1, self.y0, self.y1) = (x0, x1, y0, y1);
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
        for gy in self.y0..=self.y1 {
            for gx in self.x0..=self.x1 {
                let v = old[gy as usize * G + gx as usize];
                if v != EMPTY {
                    let (nx, ny) = (gx + dx, gy + dy);
                    self.cells[ny as usize * G + nx as usize] = v;
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
        for x in x0..=x1 {
            for y in [y0, y1] {
                if !seen.has(x, y) {
                    seen.add(x, y);
                    stack[top] = (x as i8, y as i8);
                    top += 1;
                }
            }
        }
        for y in y0..=y1 {
            for x in [x0, x1] {
                if !seen.has(x, y) {
                    seen.add(x, y);
                    stack[top] = (x as i8, y as i8);
                    top += 1;
                }
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
    /// `skip` treated as empty and `swap` = (grid square, tile) replacing a square.
    fn all_reachable(&self, skip: Option<(i32, i32)>, swap: Option<(i32, i32, u8)>) -> bool {
        let walls = |x: i32, y: i32| -> Option<u8> {
            if skip == Some((x, y)) {
                return None;
            }
            if let Some((sx, sy, t)) = swap {
                if (sx, sy) == (x, y) {
                    return Some(TILES[t as usize].walls);
                }
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
                    return Some(if mine {
                        "a wall meets an open side"
                    } else {
                        "an open side meets a wall"
                    });
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
                // Ring of the 8 surrounding squares in cyclic order: consecutive squares
                // share a side. If the empty orthogonal neighbours lie in one run of empty
                // ring squares they stay connected to each other, hence to the outside.
                const RING: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
                let e: [bool; 8] = std::array::from_fn(|i| empty(gx + RING[i].0, gy + RING[i].1));
                let mut runs = 0;
                let start = match (0..8).find(|&i| !e[i]) {
                    None => return None,
                    Some(s) => s,
                };
                let mut i = start + 1;
                let mut in_run = false;
                let mut run_has_orth = false;
                for _ in 0..8 {
                    let k = i % 8;
                    if e[k] {
                        in_run = true;
                        run_has_orth |= k % 2 == 0;
                    } else if in_run {
                        runs += usize::from(run_has_orth);
                        in_run = false;
                        run_has_orth = false;
                    }
                    i += 1;
                }
                if runs <= 1 {
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

    /// Appends every public square where `tile` may legally be placed.
    pub fn legal_squares(&self, tile: u8, hole: HoleRule, out: &mut Vec<(i8, i8)>) {
        let t = TILES[tile as usize];
        for gy in self.y0 - 1..=self.y1 + 1 {
            for gx in self.x0 - 1..=self.x1 + 1 {
                if self.cell(gx, gy) == EMPTY
                    && self.fit_error(t, gx, gy).is_none()
                    && self.hole_error(gx, gy, hole).is_none()
                {
                    out.push(((gx - self.ox) as i8, (gy - self.oy) as i8));
                }
            }
        }
    }

    /// Whether `tile` has at least one legal square.
    pub fn has_legal_square(&self, tile: u8, hole: HoleRule) -> bool {
        let t = TILES[tile as usize];
        for gy in self.y0 - 1..=self.y1 + 1 {
            for gx in self.x0 - 1..=self.x1 + 1 {
                if self.cell(gx, gy) == EMPTY
                    && self.fit_error(t, gx, gy).is_none()
                    && self.hole_error(gx, gy, hole).is_none()
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether city tile `id` may be moved to the reserve: the rest stays reachable
    /// and the freed square is not a hole.
    pub fn can_remove(&self, id: u8) -> bool {
        let p = self.pos[id as usize] as i32;
        let (gx, gy) = (p % G as i32, p / G as i32);
        // The freed square must touch an empty square (in a legal city that square is
        // outside under `area`; under `cell` it may join a pocket of two or more).
        let touches_empty = DIRS.iter().any(|(dx, dy, _, _)| self.cell(gx + dx, gy + dy) == EMPTY);
        touches_empty && self.all_reachable(Some((gx, gy)), None)
    }

    /// Whether reserve tile `new` may replace city tile `old` on its square.
    pub fn can_swap(&self, old: u8, new: u8) -> bool {
        let p = self.pos[old as usize] as i32;
        let (gx, gy) = (p % G as i32, p / G as i32);
        let t = TILES[new as usize];
        for (dx, dy, side, facing) in DIRS {
            if let Some(nw) = self.walls_at(gx + dx, gy + dy) {
                if (t.walls & side != 0) != (nw & facing != 0) {
                    return false;
                }
            }
        }
        self.all_reachable(None, Some((gx, gy, new)))
    }

    /// Replaces city tile `old` by `new` on the same square (no checks).
    pub fn swap(&mut self, old: u8, new: u8) {
        let (x, y) = self.coords(old);
        self.take(old);
        self.put(new, x, y);
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
        if !self.all_reachable(None, None) {
            return Err("not every tile is reachable from the fountain".into());
        }
        match hole {
            HoleRule::Area => {
                let out = self.outside(None);
                for gy in self.y0..=self.y1 {
                    for gx in self.x0..=self.x1 {
                        if self.cell(gx, gy) == EMPTY && !out.has(gx, gy) {
                            return Err(format!(
                                "empty square ({}, {}) is enclosed",
                                gx - self.ox,
                                gy - self.oy
                            ));
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

    /// Length of the longest continuous outer wall: wall sides facing an empty square
    /// connected to the outside, joined at shared corners.
    pub fn longest_wall(&self, rule: WallRule) -> u32 {
        let out = self.outside(None);
        // Corners are numbered (cy * (G + 1) + cx); segments are corner pairs.
        let mut edges = [(0u16, 0u16); 96];
        let mut n_edges = 0;
        let corner = |cx: i32, cy: i32| (cy * (G as i32 + 1) + cx) as u16;
        for id in self.iter_tiles() {
            let p = self.pos[id as usize] as i32;
            let (gx, gy) = (p % G as i32, p / G as i32);
            let w = TILES[id as usize].walls;
            for (dx, dy, side, _) in DIRS {
                if w & side == 0 || !out.has(gx + dx, gy + dy) {
                    continue;
                }
                let seg = match side {
                    N => (corner(gx, gy), corner(gx + 1, gy)),
                    E => (corner(gx + 1, gy), corner(gx + 1, gy + 1)),
                    S => (corner(gx, gy + 1), corner(gx + 1, gy + 1)),
                    _ => (corner(gx, gy), corner(gx, gy + 1)),
                };
                edges[n_edges] = seg;
                n_edges += 1;
            }
        }
        longest(&edges[..n_edges], rule)
    }
}

/// Longest trail (or simple path) in the graph of wall segments.
fn longest(edges: &[(u16, u16)], rule: WallRule) -> u32 {
    if edges.is_empty() {
        return 0;
    }
    // Compact vertex ids and adjacency (degree ≤ 4 on a grid).
    let mut verts = [0u16; 192];
    let mut nv = 0;
    let mut vid = |c: u16, verts: &mut [u16; 192]| -> usize {
        match verts[..nv].iter().position(|&v| v == c) {
            Some(i) => i,
            None => {
                verts[nv] = c;
                nv += 1;
                nv - 1
            }
        }
    };
    let mut adj = [[(0u8, 0u8); 4]; 192]; // (neighbour, edge)
    let mut deg = [0u8; 192];
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (a, b) = (vid(a, &mut verts), vid(b, &mut verts));
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
            let mut used = [false; 96];
            for c in 1..=n_comp {
                let mut any_odd = false;
                let mut degree_sum = 0u32;
                for v in (0..nv).filter(|&v| comp[v] == c) {
                    degree_sum += deg[v] as u32;
                    if deg[v] % 2 == 1 {
                        any_odd = true;
                        best = best.max(g.trail(v, &mut used));
                    }
                }
                if !any_odd {
                    best = best.max(degree_sum / 2);
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

    fn trail(&self, v: usize, used: &mut [bool; 96]) -> u32 {
        let mut best = 0;
        for i in 0..self.deg[v] as usize {
            let (w, e) = self.adj[v][i];
            if !used[e as usize] {
                used[e as usize] = true;
                best = best.max(1 + self.trail(w as usize, used));
                used[e as usize] = false;
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
