//! Board geometry and the set-up: 9 tiles in a 3×3 grid give a 9×9 board of 81 cells,
//! index `row * 9 + col`. Tile positions are numbered 0..9 row by row (shown 1..9 in
//! logs). Sets of cells are `u128` bit boards (bit = cell index).

use super::tiles::{rotated, Code, TileSet, N_TILES};
use super::variant::WaterRule;
use crate::rng::{self, Rng};

pub const N_CELLS: usize = 81;
/// Gardens: two per tile position, garden `2 * position + (0 for A, 1 for B)`.
pub const N_GARDENS: usize = 18;
pub const NO_GARDEN: u8 = u8::MAX;
/// The outer tile positions clockwise from the top-left corner (the ring of water runs).
pub const RING: [usize; 8] = [0, 1, 2, 5, 8, 7, 6, 3];
/// The centre tile position (never water).
pub const CENTRE: usize = 4;

#[inline]
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}
#[inline]
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}
#[inline]
pub const fn tile_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}
#[inline]
pub const fn bit(cell: usize) -> u128 {
    1u128 << cell
}

const fn row_masks() -> [u128; 9] {
    let mut m = [0u128; 9];
    let mut r = 0;
    while r < 9 {
        m[r] = 0x1FFu128 << (9 * r);
        r += 1;
    }
    m
}

const fn col_masks() -> [u128; 9] {
    let mut m = [0u128; 9];
    let mut c = 0;
    while c < 9 {
        let mut r = 0;
        while r < 9 {
            m[c] |= 1u128 << (9 * r + c);
            r += 1;
        }
        c += 1;
    }
    m
}

const fn neighbour_masks() -> [u128; N_CELLS] {
    let mut m = [0u128; N_CELLS];
    let mut i = 0;
    while i < N_CELLS {
        let (r, c) = (i / 9, i % 9);
        if r > 0 {
            m[i] |= 1u128 << (i - 9);
        }
        if r < 8 {
            m[i] |= 1u128 << (i + 9);
        }
        if c > 0 {
            m[i] |= 1u128 << (i - 1);
        }
        if c < 8 {
            m[i] |= 1u128 << (i + 1);
        }
        i += 1;
    }
    m
}

/// Cells of each row and each column.
pub const ROW: [u128; 9] = row_masks();
pub const COL: [u128; 9] = col_masks();
/// The orthogonal neighbours of each cell (across tile borders).
pub const NEIGHBOURS: [u128; N_CELLS] = neighbour_masks();

/// Cell indices of a bit board, lowest first.
#[inline]
pub fn cells(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// A tile on the board: its id (0-based index into the tile set) and rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Placement {
    pub tile: u8,
    /// Quarter turns clockwise.
    pub rotation: u8,
}

/// The static board of one game: which tile lies where, which are water, and the cell
/// sets derived from them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub placements: [Placement; 9],
    /// Tile positions turned water side up (bit per position).
    pub water: u16,
    /// The garden of each land garden cell (`NO_GARDEN` for ponds and water).
    pub garden_of: [u8; N_CELLS],
    /// Cells of each garden (empty for gardens of water tiles).
    pub gardens: [u128; N_GARDENS],
    /// Land garden cells (the only cells that take pebbles and stones).
    pub land: u128,
    /// Pond cells of land tiles (each holds a koi).
    pub ponds: u128,
    /// Start cells of land tiles.
    pub start: u128,
}

impl Board {
    /// The board of tiles `placements` (position order) with the positions in `water`
    /// flipped.
    pub fn new(set: &TileSet, placements: [Placement; 9], water: u16) -> Board {
        let mut b = Board {
            placements,
            water,
            garden_of: [NO_GARDEN; N_CELLS],
            gardens: [0; N_GARDENS],
            land: 0,
            ponds: 0,
            start: 0,
        };
        for (pos, pl) in placements.iter().enumerate() {
            if water >> pos & 1 == 1 {
                continue;
            }
            let tile = rotated(&set.tiles[pl.tile as usize], pl.rotation);
            for (r, row) in tile.iter().enumerate() {
                for (c, code) in row.iter().enumerate() {
                    let cell = (pos / 3 * 3 + r) * 9 + pos % 3 * 3 + c;
                    match *code {
                        Code::Pond => b.ponds |= bit(cell),
                        Code::Garden { garden, start } => {
                            let g = 2 * pos + garden as usize;
                            b.garden_of[cell] = g as u8;
                            b.gardens[g] |= bit(cell);
                            b.land |= bit(cell);
                            if start {
                                b.start |= bit(cell);
                            }
                        }
                    }
                }
            }
        }
        b
    }

    pub fn is_water(&self, cell: usize) -> bool {
        self.water >> tile_of(cell) & 1 == 1
    }

    pub fn garden_size(&self, g: usize) -> u32 {
        self.gardens[g].count_ones()
    }

    /// Whether some start cell touches a pond (orthogonally, across tile borders too).
    pub fn start_next_to_pond(&self) -> bool {
        cells(self.start).any(|c| NEIGHBOURS[c] & self.ponds != 0)
    }

    /// `"3B"`: tile position (1..9) and garden letter.
    pub fn garden_label(g: usize) -> String {
        format!("{}{}", g / 2 + 1, if g.is_multiple_of(2) { 'A' } else { 'B' })
    }

    /// The layout as 9 strings: each cell's garden label (`5A`), `P5` for the pond of
    /// tile 5, `~~` for water; a start cell has `*` after its label. Tiles are separated
    /// by `|`.
    pub fn layout_rows(&self) -> Vec<String> {
        render_rows(|cell| {
            if self.is_water(cell) {
                "~~".to_string()
            } else if self.ponds >> cell & 1 == 1 {
                format!("P{}", tile_of(cell) + 1)
            } else {
                let g = self.garden_of[cell] as usize;
                let star = if self.start >> cell & 1 == 1 { "*" } else { "" };
                format!("{}{star}", Board::garden_label(g))
            }
        })
    }
}

/// 9 row strings from a cell-token function: tokens padded to 3 characters, tiles
/// separated by `|`.
pub fn render_rows(token: impl Fn(usize) -> String) -> Vec<String> {
    (0..9)
        .map(|r| {
            let mut s = String::with_capacity(48);
            for c in 0..9 {
                if c > 0 {
                    s.push_str(if c % 3 == 0 { " | " } else { " " });
                }
                s.push_str(&format!("{:<3}", token(r * 9 + c)));
            }
            s.trim_end().to_string()
        })
        .collect()
}

/// Water tiles by player count: 2 players 4, 3 players 2, 4 players none.
pub fn water_count(n_players: usize) -> usize {
    match n_players {
        2 => 4,
        3 => 2,
        _ => 0,
    }
}

/// Set-up options that shape the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deal {
    pub rotate_tiles: bool,
    pub water: WaterRule,
    pub n_players: usize,
}

/// One try of the set-up from `rng` (`RULES.md`, set-up steps 1–4): 9 of the 12 tiles at
/// random in a 3×3 grid, each turned by a random multiple of 90° when `rotate_tiles`;
/// `None` if a start cell touches a pond (checked with every tile face up). Then the
/// water tiles; `None` if the land holds fewer start cells than players.
pub fn try_deal(set: &TileSet, deal: Deal, rng: &mut Rng) -> Option<Board> {
    let mut ids: [u8; N_TILES] = std::array::from_fn(|i| i as u8);
    rng::shuffle(rng, &mut ids);
    let mut placements = [Placement::default(); 9];
    for (slot, &tile) in placements.iter_mut().zip(&ids) {
        let rotation = if deal.rotate_tiles { rng::below(rng, 4) as u8 } else { 0 };
        *slot = Placement { tile, rotation };
    }
    if Board::new(set, placements, 0).start_next_to_pond() {
        return None;
    }
    let k = water_count(deal.n_players);
    let mut water = 0u16;
    if k > 0 {
        match deal.water {
            WaterRule::Run => {
                let first = rng::below(rng, RING.len());
                for i in 0..k {
                    water |= 1 << RING[(first + i) % RING.len()];
                }
            }
            WaterRule::Random => {
                let mut ring = RING;
                for i in 0..k {
                    let j = i + rng::below(rng, ring.len() - i);
                    ring.swap(i, j);
                    water |= 1 << ring[i];
                }
            }
        }
    }
    let board = Board::new(set, placements, water);
    (board.start.count_ones() as usize >= deal.n_players).then_some(board)
}

/// Tries of [`try_deal`] the variant check makes before declaring a tile set unusable.
pub const FEASIBILITY_TRIES: usize = 20_000;

/// The set-up: [`try_deal`] until it succeeds (the variant parser checked that it can).
pub fn deal(set: &TileSet, deal: Deal, rng: &mut Rng) -> Board {
    loop {
        if let Some(b) = try_deal(set, deal, rng) {
            return b;
        }
    }
}
