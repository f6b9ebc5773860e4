//! Legal moves: generators for every decision and direct legality tests.
//!
//! **Placements.** The first tile of the game is laid with its volcano at the origin in
//! rotation [`FIRST_ROT`]: on an empty, unbounded plane every placement is the same up to
//! translation and rotation, so it is the only one offered. Later, *sea-level* placements
//! are found from the frontier (the known sea hexes, all next to land), never by scanning
//! a grid: each triangle of three sea hexes containing a frontier hex is taken once (from
//! its frontier hex of lowest cell index), with its volcano on each of its three hexes.
//! *Eruptions* are found from the volcano hexes: five rotations each (never the rotation
//! of the volcano below), the two other hexes at the volcano's level (with
//! `eruption_levels = any`: on land at any level), no temple or tower under them, and no
//! settlement entirely under them.
//!
//! **Builds.** New hut (level 1, `new_hut` rule), each own settlement x terrain whose
//! expansion fills at least one hex with huts the player can pay for, temple (next to an
//! own settlement of at least 3 hexes without a temple), tower (level >= 3, next to an own
//! settlement without a tower). Action ids are described in [`Action`].

use super::hex::{step, tile_hexes, CAP, HUT, NONE, TEMPLE, TOWER};
use super::state::*;
use super::tiles::{TERRAINS, VOLCANO};
use super::variant::{EruptionLevels, Expansion, NewHut};

/// A set of cells (bits of [`CAP`]).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CellSet(pub [u64; CAP / 64]);

impl CellSet {
    #[inline]
    pub fn insert(&mut self, c: u16) -> bool {
        let (w, b) = (c as usize / 64, c as usize % 64);
        let new = self.0[w] >> b & 1 == 0;
        self.0[w] |= 1 << b;
        new
    }
    #[inline]
    pub fn contains(&self, c: u16) -> bool {
        self.0[c as usize / 64] >> (c as usize % 64) & 1 == 1
    }
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    (i * 64 + b) as u16
                })
            })
        })
    }
}

impl Taluva {
    // ------------------------------------------------------------- placements

    /// Whether the eruption with volcano on cell `v` (land, volcano) and rotation `rot` is legal.
    pub fn eruption_ok(&self, v: u16, rot: usize) -> bool {
        let m = &self.map;
        let vi = v as usize;
        if m.terrain[vi] != VOLCANO || m.vdir[vi] as usize == rot {
            return false;
        }
        let (a, b) = (m.nb[vi][rot % 6], m.nb[vi][(rot + 1) % 6]);
        if a == NONE || b == NONE {
            return false;
        }
        let (la, lb) = (m.level[a as usize], m.level[b as usize]);
        let level_ok = match self.variant.eruption_levels {
            EruptionLevels::Same => la == m.level[vi] && lb == m.level[vi],
            EruptionLevels::Any => la > 0 && lb > 0,
        };
        if !level_ok {
            return false;
        }
        let (ba, bb) = (m.building[a as usize], m.building[b as usize]);
        if matches!(ba, TEMPLE | TOWER) || matches!(bb, TEMPLE | TOWER) {
            return false;
        }
        // Never all hexes of a settlement (the volcano hex never holds a building).
        let s = &self.settlements;
        for (c, other) in [(a, b), (b, a)] {
            if m.building[c as usize] == HUT {
                let k = s.label[c as usize];
                let covered = 1 + u8::from(m.building[other as usize] == HUT && s.label[other as usize] == k);
                if s.size[k as usize] <= covered {
                    return false;
                }
            }
        }
        true
    }

    /// Whether placing the current tile with volcano `(q, r)` and rotation `rot` is legal
    /// (in the place phase).
    pub fn placement_ok(&self, q: i16, r: i16, rot: usize) -> bool {
        if rot >= 6 {
            return false;
        }
        if self.map.n_land == 0 {
            return (q, r, rot) == (0, 0, FIRST_ROT as usize);
        }
        let hexes = tile_hexes(q, r, rot);
        let cells = hexes.map(|(hq, hr)| self.map.find(hq, hr));
        if cells.iter().all(|&c| !self.map.is_land(c)) {
            // Sea level: a known sea hex touches land.
            return cells.iter().any(|&c| c != NONE);
        }
        self.map.is_land(cells[0]) && self.eruption_ok(cells[0], rot)
    }

    /// Appends the sea-level placements.
    pub fn extensions(&self, out: &mut Vec<Action>) {
        let m = &self.map;
        if m.n_land == 0 {
            out.push(Action::Place { q: 0, r: 0, rot: FIRST_ROT });
            return;
        }
        for &f in m.frontier_cells() {
            let fi = f as usize;
            let (fq, fr) = m.coord(f);
            for k in 0..6 {
                let (a, b) = (m.nb[fi][k], m.nb[fi][(k + 1) % 6]);
                // All three hexes at sea; counted from the lowest known (frontier) cell.
                if (a != NONE && (a < f || m.level[a as usize] > 0))
                    || (b != NONE && (b < f || m.level[b as usize] > 0))
                {
                    continue;
                }
                let (aq, ar) = step(fq, fr, k);
                let (bq, br) = step(fq, fr, k + 1);
                out.push(Action::Place { q: fq as i8, r: fr as i8, rot: k as u8 });
                out.push(Action::Place { q: aq as i8, r: ar as i8, rot: ((k + 2) % 6) as u8 });
                out.push(Action::Place { q: bq as i8, r: br as i8, rot: ((k + 4) % 6) as u8 });
            }
        }
    }

    /// Appends the legal eruptions.
    pub fn eruptions(&self, out: &mut Vec<Action>) {
        for &v in self.map.land_cells() {
            if self.map.terrain[v as usize] != VOLCANO {
                continue;
            }
            let (q, r) = self.map.coord(v);
            for rot in 0..6 {
                if self.eruption_ok(v, rot) {
                    out.push(Action::Place { q: q as i8, r: r as i8, rot: rot as u8 });
                }
            }
        }
    }

    fn has_eruption(&self) -> bool {
        self.map
            .land_cells()
            .iter()
            .any(|&v| self.map.terrain[v as usize] == VOLCANO && (0..6).any(|rot| self.eruption_ok(v, rot)))
    }

    // ------------------------------------------------------------- builds

    /// Whether player `p` may put a new hut on `cell`.
    #[inline]
    pub fn hut_ok(&self, p: usize, cell: u16) -> bool {
        let m = &self.map;
        if self.players[p].huts == 0 || !m.is_free(cell) || m.level[cell as usize] != 1 {
            return false;
        }
        match self.variant.new_hut {
            NewHut::Anywhere => true,
            NewHut::NotAdjacent => m.nb[cell as usize].iter().all(|&y| y == NONE || m.owner[y as usize] != p as u8),
        }
    }

    /// Whether player `p` may build a temple on `cell`.
    #[inline]
    pub fn temple_ok(&self, p: usize, cell: u16) -> bool {
        let m = &self.map;
        if self.players[p].temples == 0 || !m.is_free(cell) {
            return false;
        }
        let s = &self.settlements;
        m.nb[cell as usize].iter().any(|&y| {
            y != NONE && m.owner[y as usize] == p as u8 && {
                let k = s.label[y as usize] as usize;
                s.size[k] >= 3 && !s.has_temple[k]
            }
        })
    }

    /// Whether player `p` may build a tower on `cell`.
    #[inline]
    pub fn tower_ok(&self, p: usize, cell: u16) -> bool {
        let m = &self.map;
        if self.players[p].towers == 0 || !m.is_free(cell) || m.level[cell as usize] < 3 {
            return false;
        }
        let s = &self.settlements;
        m.nb[cell as usize]
            .iter()
            .any(|&y| y != NONE && m.owner[y as usize] == p as u8 && !s.has_tower[s.label[y as usize] as usize])
    }

    /// The hexes an expansion of settlement `s` into `terrain` fills (empty or not).
    pub fn expansion_set(&self, s: usize, terrain: u8) -> CellSet {
        let m = &self.map;
        let mut set = CellSet::default();
        let mut stack = [0u16; 160];
        let mut top = 0;
        for &x in self.settlements.cells(s) {
            for &y in &m.nb[x as usize] {
                if y != NONE && m.terrain[y as usize] == terrain && m.is_free(y) && set.insert(y) {
                    stack[top] = y;
                    top += 1;
                }
            }
        }
        if self.variant.expansion == Expansion::Connected {
            while top > 0 {
                top -= 1;
                let x = stack[top];
                for &y in &m.nb[x as usize] {
                    if y != NONE && m.terrain[y as usize] == terrain && m.is_free(y) && set.insert(y) {
                        stack[top] = y;
                        top += 1;
                    }
                }
            }
        }
        set
    }

    /// Hexes and huts of every expansion of settlement `s` by terrain (index = terrain code).
    pub fn expansion_costs(&self, s: usize) -> ([u8; 6], [u16; 6]) {
        let mut hexes = [0u8; 6];
        let mut huts = [0u16; 6];
        let m = &self.map;
        let mut seen = CellSet::default();
        let mut stack = [0u16; 160];
        let mut top = 0;
        for &x in self.settlements.cells(s) {
            for &y in &m.nb[x as usize] {
                if y != NONE && m.is_free(y) && seen.insert(y) {
                    let t = m.terrain[y as usize] as usize;
                    hexes[t] += 1;
                    huts[t] += m.level[y as usize] as u16;
                    stack[top] = y;
                    top += 1;
                }
            }
        }
        if self.variant.expansion == Expansion::Connected {
            while top > 0 {
                top -= 1;
                let x = stack[top];
                let t = m.terrain[x as usize];
                for &y in &m.nb[x as usize] {
                    if y != NONE && m.terrain[y as usize] == t && m.is_free(y) && seen.insert(y) {
                        hexes[t as usize] += 1;
                        huts[t as usize] += m.level[y as usize] as u16;
                        stack[top] = y;
                        top += 1;
                    }
                }
            }
        }
        (hexes, huts)
    }

    /// Appends player `p`'s legal expansions.
    pub fn expansions(&self, p: usize, out: &mut Vec<Action>) {
        let supply = self.players[p].huts as u16;
        if supply == 0 {
            return;
        }
        let s = &self.settlements;
        for k in 0..s.n as usize {
            if s.owner[k] != p as u8 {
                continue;
            }
            let (hexes, huts) = self.expansion_costs(k);
            for t in TERRAINS {
                if hexes[t as usize] > 0 && huts[t as usize] <= supply {
                    out.push(Action::Expand { cell: s.min_cell[k], terrain: t });
                }
            }
        }
    }

    fn has_expansion(&self, p: usize) -> bool {
        let supply = self.players[p].huts as u16;
        if supply == 0 {
            return false;
        }
        let s = &self.settlements;
        (0..s.n as usize).any(|k| {
            s.owner[k] == p as u8 && {
                let (hexes, huts) = self.expansion_costs(k);
                TERRAINS.iter().any(|&t| hexes[t as usize] > 0 && huts[t as usize] <= supply)
            }
        })
    }

    /// Whether player `p` has any legal build now.
    pub fn can_build(&self, p: usize) -> bool {
        self.build_kinds(p) != 0
    }

    /// Bit set of the build kinds available to `p`.
    pub fn build_kinds(&self, p: usize) -> u32 {
        let mut kinds = 0;
        let land = self.map.land_cells();
        if land.iter().any(|&c| self.hut_ok(p, c)) {
            kinds |= 1 << KIND_HUT;
        }
        if self.has_expansion(p) {
            kinds |= 1 << KIND_EXPAND;
        }
        if self.players[p].temples > 0 && land.iter().any(|&c| self.temple_ok(p, c)) {
            kinds |= 1 << KIND_TEMPLE;
        }
        if self.players[p].towers > 0 && land.iter().any(|&c| self.tower_ok(p, c)) {
            kinds |= 1 << KIND_TOWER;
        }
        kinds
    }

    // ------------------------------------------------------------- decision

    /// Bit set of the action kinds available to the current player.
    pub fn kinds_now(&self) -> u32 {
        match self.phase {
            Phase::Place if self.map.n_land == 0 => 1 << KIND_EXTEND,
            Phase::Place => 1 << KIND_EXTEND | u32::from(self.has_eruption()) << KIND_ERUPT,
            Phase::Build => self.build_kinds(self.current),
            Phase::Over => 0,
        }
    }

    /// Appends the current player's legal actions (of `kind` only, when given).
    pub fn generate(&self, kind: Option<u32>, out: &mut Vec<Action>) {
        let want = |k: u32| kind.is_none_or(|x| x == k);
        let p = self.current;
        match self.phase {
            Phase::Place => {
                if want(KIND_EXTEND) {
                    self.extensions(out);
                }
                if want(KIND_ERUPT) {
                    self.eruptions(out);
                }
            }
            Phase::Build => {
                let land = self.map.land_cells();
                if want(KIND_HUT) {
                    out.extend(land.iter().filter(|&&c| self.hut_ok(p, c)).map(|&cell| Action::Hut { cell }));
                }
                if want(KIND_EXPAND) {
                    self.expansions(p, out);
                }
                if want(KIND_TEMPLE) && self.players[p].temples > 0 {
                    out.extend(land.iter().filter(|&&c| self.temple_ok(p, c)).map(|&cell| Action::Temple { cell }));
                }
                if want(KIND_TOWER) && self.players[p].towers > 0 {
                    out.extend(land.iter().filter(|&&c| self.tower_ok(p, c)).map(|&cell| Action::Tower { cell }));
                }
            }
            Phase::Over => {}
        }
    }

    /// Whether `a` is legal for the current player now (a direct test, no move list).
    pub fn action_is_legal(&self, a: Action) -> bool {
        let p = self.current;
        let cell_ok = |c: u16| (c as usize) < self.map.n_cells as usize;
        match (self.phase, a) {
            (Phase::Place, Action::Place { q, r, rot }) => self.placement_ok(q as i16, r as i16, rot as usize),
            (Phase::Build, Action::Hut { cell }) => cell_ok(cell) && self.hut_ok(p, cell),
            (Phase::Build, Action::Temple { cell }) => cell_ok(cell) && self.temple_ok(p, cell),
            (Phase::Build, Action::Tower { cell }) => cell_ok(cell) && self.tower_ok(p, cell),
            (Phase::Build, Action::Expand { cell, terrain }) => {
                if !cell_ok(cell) || !TERRAINS.contains(&terrain) {
                    return false;
                }
                let Some(s) = self.settlements.of(cell) else { return false };
                if self.settlements.owner[s] != p as u8 || self.settlements.min_cell[s] != cell {
                    return false;
                }
                let (hexes, huts) = self.expansion_costs(s);
                hexes[terrain as usize] > 0 && huts[terrain as usize] <= self.players[p].huts as u16
            }
            _ => false,
        }
    }
}
