//! Alhambra components: the 54 building tiles (ids as in `RULES.md`), money,
//! and the majority table.

/// Wall bits of a tile side.
pub const N: u8 = 1;
pub const E: u8 = 2;
pub const S: u8 = 4;
pub const W: u8 = 8;

pub const N_TILES: usize = 54;
/// Pseudo tile id of a player's fountain (no walls, never moves).
pub const FOUNTAIN: u8 = 54;
pub const N_KINDS: usize = 6;
pub const KIND_NAMES: [&str; N_KINDS] = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];
pub const CURRENCIES: [&str; 4] = ["yellow", "green", "blue", "orange"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tile {
    pub kind: u8,
    pub price: u8,
    pub walls: u8,
}

const fn w(s: &[u8]) -> u8 {
    let mut bits = 0;
    let mut i = 0;
    while i < s.len() {
        bits |= match s[i] {
            b'N' => N,
            b'E' => E,
            b'S' => S,
            b'W' => W,
            _ => 0,
        };
        i += 1;
    }
    bits
}

const fn t(kind: u8, price: u8, walls: &[u8]) -> Tile {
    Tile { kind, price, walls: w(walls) }
}

/// Tiles by id; index 54 is the fountain.
pub const TILES: [Tile; N_TILES + 1] = [
    // pavilion
    t(0, 2, b"NEW"),
    t(0, 3, b"SW"),
    t(0, 4, b"ES"),
    t(0, 5, b"NW"),
    t(0, 6, b"N"),
    t(0, 7, b"E"),
    t(0, 8, b"-"),
    // seraglio
    t(1, 3, b"ESW"),
    t(1, 4, b"NE"),
    t(1, 5, b"SW"),
    t(1, 6, b"ES"),
    t(1, 7, b"W"),
    t(1, 8, b"S"),
    t(1, 9, b"-"),
    // arcades
    t(2, 4, b"NES"),
    t(2, 5, b"NW"),
    t(2, 6, b"SW"),
    t(2, 6, b"NE"),
    t(2, 7, b"ES"),
    t(2, 8, b"N"),
    t(2, 8, b"E"),
    t(2, 9, b"-"),
    t(2, 10, b"-"),
    // chambers
    t(3, 5, b"NSW"),
    t(3, 6, b"ES"),
    t(3, 7, b"SW"),
    t(3, 7, b"NE"),
    t(3, 8, b"NW"),
    t(3, 9, b"W"),
    t(3, 9, b"S"),
    t(3, 10, b"-"),
    t(3, 11, b"-"),
    // garden
    t(4, 6, b"ESW"),
    t(4, 7, b"NSW"),
    t(4, 8, b"SW"),
    t(4, 8, b"NE"),
    t(4, 8, b"NW"),
    t(4, 9, b"E"),
    t(4, 10, b"N"),
    t(4, 10, b"W"),
    t(4, 10, b"-"),
    t(4, 11, b"-"),
    t(4, 12, b"S"),
    // tower
    t(5, 7, b"NEW"),
    t(5, 8, b"NES"),
    t(5, 9, b"ES"),
    t(5, 9, b"NE"),
    t(5, 9, b"NW"),
    t(5, 10, b"W"),
    t(5, 11, b"N"),
    t(5, 11, b"S"),
    t(5, 11, b"-"),
    t(5, 12, b"-"),
    t(5, 13, b"E"),
    // fountain
    t(255, 0, b"-"),
];

/// A wall string over "NESW" (empty string for no walls).
pub fn wall_string(walls: u8) -> String {
    [(N, 'N'), (E, 'E'), (S, 'S'), (W, 'W')].iter().filter(|(b, _)| walls & b != 0).map(|(_, c)| *c).collect()
}

/// Majority points: `[round-1][kind][place]`, places beyond the table score 0.
pub const MAJORITY: [[[i64; 3]; N_KINDS]; 3] = [
    [[1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0, 0], [5, 0, 0], [6, 0, 0]],
    [[8, 1, 0], [9, 2, 0], [10, 3, 0], [11, 4, 0], [12, 5, 0], [13, 6, 0]],
    [[16, 8, 1], [17, 9, 2], [18, 10, 3], [19, 11, 4], [20, 12, 5], [21, 13, 6]],
];

/// A money card: `currency * 9 + (value - 1)`; 36 and 37 are scoring cards A and B.
pub type Card = u8;
pub const SCORING_A: Card = 36;
pub const SCORING_B: Card = 37;

#[inline]
pub fn card(currency: usize, value: usize) -> Card {
    (currency * 9 + value - 1) as Card
}
#[inline]
pub fn currency_of(c: Card) -> usize {
    c as usize / 9
}
#[inline]
pub fn value_of(c: Card) -> usize {
    c as usize % 9 + 1
}

/// Bits of a u64 set (tile ids, slots, patterns), lowest first.
#[inline]
pub fn bits(set: u64) -> Bits {
    Bits(set)
}

/// Iterator over the set bits of a u64, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Bits(u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(b)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

/// The wall patterns (bit `w` for walls `w`) among a set of tiles (bit per id).
#[inline]
pub fn wall_patterns(tiles: u64) -> u16 {
    bits(tiles).fold(0, |m, t| m | 1 << TILES[t as usize].walls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_table_matches_reference_totals() {
        let tiles = &TILES[..N_TILES];
        let per_kind: Vec<usize> = (0..6).map(|k| tiles.iter().filter(|t| t.kind == k).count()).collect();
        assert_eq!(per_kind, vec![7, 7, 9, 9, 11, 11]);
        let walls: Vec<u32> = tiles.iter().map(|t| t.walls.count_ones()).collect();
        assert_eq!(walls.iter().filter(|c| **c == 0).count(), 10);
        assert_eq!(walls.iter().filter(|c| **c == 1).count(), 16);
        assert_eq!(walls.iter().filter(|c| **c == 2).count(), 20);
        assert_eq!(walls.iter().filter(|c| **c == 3).count(), 8);
        assert_eq!(walls.iter().sum::<u32>(), 80);
        assert_eq!(TILES[0], Tile { kind: 0, price: 2, walls: N | E | W });
        assert_eq!(TILES[53], Tile { kind: 5, price: 13, walls: E });
        assert_eq!(wall_string(TILES[50].walls), "S");
    }
}
