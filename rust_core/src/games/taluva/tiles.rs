//! Terrains and the 48 volcano tiles with the published distribution.
//!
//! A tile is one volcano hex and two terrain hexes meeting at a point. Looking at the tile
//! with the volcano at the top, its terrains are (left, right); tiles are never flipped, so
//! (jungle, grassland) and (grassland, jungle) are different tiles. A tile is stored as its
//! *pair code* `5 * (left - 1) + (right - 1)` (0..25).

/// Terrain of a hex (the top tile's hex).
pub const VOLCANO: u8 = 0;
pub const JUNGLE: u8 = 1;
pub const GRASS: u8 = 2;
pub const SAND: u8 = 3;
pub const ROCK: u8 = 4;
pub const LAKE: u8 = 5;
/// The five buildable terrains.
pub const TERRAINS: [u8; 5] = [JUNGLE, GRASS, SAND, ROCK, LAKE];
/// One letter per terrain code (volcano first).
pub const TERRAIN_LETTERS: [char; 6] = ['V', 'J', 'G', 'S', 'R', 'L'];
pub const TERRAIN_NAMES: [&str; 6] = ["volcano", "jungle", "grassland", "sand", "rock", "lake"];
pub const N_TILES: usize = 48;

/// The pair code of the tile (`left`, `right`), both buildable terrains.
pub const fn pair(left: u8, right: u8) -> u8 {
    5 * (left - 1) + (right - 1)
}

/// The (left, right) terrains of a pair code.
pub const fn terrains(code: u8) -> (u8, u8) {
    (code / 5 + 1, code % 5 + 1)
}

/// The published distribution: (left, right, copies), 48 tiles in all.
pub const DISTRIBUTION: [(u8, u8, u8); 25] = [
    (JUNGLE, GRASS, 6),
    (GRASS, JUNGLE, 5),
    (JUNGLE, SAND, 4),
    (SAND, JUNGLE, 4),
    (GRASS, ROCK, 2),
    (ROCK, GRASS, 2),
    (GRASS, SAND, 2),
    (SAND, GRASS, 2),
    (JUNGLE, ROCK, 2),
    (ROCK, JUNGLE, 2),
    (JUNGLE, LAKE, 2),
    (LAKE, JUNGLE, 1),
    (SAND, ROCK, 2),
    (ROCK, SAND, 1),
    (GRASS, LAKE, 1),
    (LAKE, GRASS, 1),
    (SAND, LAKE, 1),
    (LAKE, SAND, 1),
    (ROCK, LAKE, 1),
    (LAKE, ROCK, 1),
    (JUNGLE, JUNGLE, 1),
    (GRASS, GRASS, 1),
    (SAND, SAND, 1),
    (ROCK, ROCK, 1),
    (LAKE, LAKE, 1),
];

/// The 48 tiles as pair codes, in the order of [`DISTRIBUTION`] (the box before shuffling).
pub fn all_tiles() -> [u8; N_TILES] {
    let mut out = [0u8; N_TILES];
    let mut i = 0;
    for (l, r, k) in DISTRIBUTION {
        for _ in 0..k {
            out[i] = pair(l, r);
            i += 1;
        }
    }
    debug_assert_eq!(i, N_TILES);
    out
}

/// A tile as text, e.g. `"J/G"` (left/right).
pub fn tile_label(code: u8) -> String {
    let (l, r) = terrains(code);
    format!("{}/{}", TERRAIN_LETTERS[l as usize], TERRAIN_LETTERS[r as usize])
}
