//! The tile set: 12 terrain tiles of 3×3 cells, read from a text file.
//!
//! The format is documented in the header of the built-in set,
//! `rust_core/src/games/hiroba/hiroba_tiles.txt` (the engine's own tiles, not the publisher's):
//! `#` comments, then 12 blocks `tile N` + 3 rows of 3 codes `P`, `A`, `B`, `A*`, `B*`.
//! Loading checks every rule of `RULES.md` for one tile (one pond, two orthogonally
//! connected gardens of 2–6 cells, at most one start cell, not next to the pond) and
//! reports the first broken one with the tile number, e.g. `tile 7: garden B is not
//! connected`.

pub const N_TILES: usize = 12;

/// The built-in tile set (the engine's own, see the file header).
pub const BUILTIN: &str = include_str!("hiroba_tiles.txt");

/// One cell of a tile as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    Pond,
    /// A garden cell: garden 0 (`A`) or 1 (`B`), possibly the tile's start cell.
    Garden {
        garden: u8,
        start: bool,
    },
}

impl Code {
    fn parse(s: &str) -> Option<Code> {
        Some(match s {
            "P" => Code::Pond,
            "A" => Code::Garden { garden: 0, start: false },
            "B" => Code::Garden { garden: 1, start: false },
            "A*" => Code::Garden { garden: 0, start: true },
            "B*" => Code::Garden { garden: 1, start: true },
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Pond => "P",
            Code::Garden { garden: 0, start: false } => "A",
            Code::Garden { garden: 0, start: true } => "A*",
            Code::Garden { start: false, .. } => "B",
            Code::Garden { start: true, .. } => "B*",
        }
    }
}

/// A tile as printed (unrotated): `cells[row][col]`.
pub type Tile = [[Code; 3]; 3];

/// A validated set of 12 tiles (tile `i` of the file is `tiles[i - 1]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileSet {
    pub tiles: [Tile; N_TILES],
}

const GARDEN_NAMES: [char; 2] = ['A', 'B'];

impl TileSet {
    /// The built-in set (checked by a test, so this cannot fail).
    pub fn builtin() -> TileSet {
        TileSet::parse(BUILTIN).expect("the built-in tile set is valid")
    }

    /// Parses and validates a tile file; the error names the tile and the broken rule.
    pub fn parse(text: &str) -> Result<TileSet, String> {
        // The rows read so far of each tile.
        let mut blocks: Vec<Vec<[Code; 3]>> = Vec::with_capacity(N_TILES);
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            if line.starts_with("tile") {
                let _ = words.next();
                let number = words.next().and_then(|w| w.parse::<usize>().ok());
                let want = blocks.len() + 1;
                if number != Some(want) || words.next().is_some() {
                    return Err(format!("line {line_no}: expected `tile {want}`, found `{line}`"));
                }
                if let Some(prev) = blocks.last() {
                    check_rows(want - 1, prev.len())?;
                }
                blocks.push(Vec::with_capacity(3));
                continue;
            }
            let tile = blocks.len();
            let Some(rows) = blocks.last_mut() else {
                return Err(format!("line {line_no}: a row of cells before the first `tile 1` header"));
            };
            let row = rows.len() + 1;
            if row > 3 {
                return Err(format!("tile {tile}: more than 3 rows, need 3"));
            }
            let codes: Vec<&str> = words.collect();
            if codes.len() != 3 {
                return Err(format!("tile {tile}: row {row} has {} cells, need 3", codes.len()));
            }
            let mut cells = [Code::Pond; 3];
            for (col, (slot, w)) in cells.iter_mut().zip(&codes).enumerate() {
                *slot = Code::parse(w).ok_or_else(|| {
                    format!(
                        "tile {tile}: row {row} column {}: unknown cell code `{w}`; allowed: P, A, B, A*, B*",
                        col + 1
                    )
                })?;
            }
            rows.push(cells);
        }
        if let Some(last) = blocks.last() {
            check_rows(blocks.len(), last.len())?;
        }
        if blocks.len() != N_TILES {
            return Err(format!("expected {N_TILES} tiles, found {}", blocks.len()));
        }
        let mut tiles = [[[Code::Pond; 3]; 3]; N_TILES];
        for (i, (slot, rows)) in tiles.iter_mut().zip(&blocks).enumerate() {
            for (r, row) in rows.iter().enumerate() {
                slot[r] = *row;
            }
            validate_tile(i + 1, slot)?;
        }
        Ok(TileSet { tiles })
    }

    /// A 64-bit FNV-1a fingerprint of the tiles (to tell tile sets apart in logs).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for tile in &self.tiles {
            for code in tile.iter().flatten() {
                for b in code.as_str().bytes().chain([b' ']) {
                    h ^= b as u64;
                    h = h.wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        h
    }
}

fn check_rows(tile: usize, rows: usize) -> Result<(), String> {
    if rows != 3 {
        return Err(format!("tile {tile}: {rows} rows, need 3"));
    }
    Ok(())
}

/// Checks one tile against `RULES.md`: one pond, two connected gardens of 2–6 cells,
/// at most one start cell, and no start cell next to the pond.
pub fn validate_tile(number: usize, tile: &Tile) -> Result<(), String> {
    let cells = || (0..3).flat_map(|r| (0..3).map(move |c| (r, c, tile[r][c])));
    let ponds = cells().filter(|(_, _, k)| *k == Code::Pond).count();
    if ponds != 1 {
        return Err(format!("tile {number}: {ponds} pond cells, need exactly 1"));
    }
    for g in 0..2u8 {
        let size = cells().filter(|(_, _, k)| matches!(k, Code::Garden { garden, .. } if *garden == g)).count();
        if !(2..=6).contains(&size) {
            return Err(format!("tile {number}: garden {} has {size} cells, allowed 2–6", GARDEN_NAMES[g as usize]));
        }
        if !connected(tile, g) {
            return Err(format!("tile {number}: garden {} is not connected", GARDEN_NAMES[g as usize]));
        }
    }
    let starts: Vec<(usize, usize)> =
        cells().filter(|(_, _, k)| matches!(k, Code::Garden { start: true, .. })).map(|(r, c, _)| (r, c)).collect();
    if starts.len() > 1 {
        return Err(format!("tile {number}: {} start cells, allowed at most 1", starts.len()));
    }
    for &(r, c) in &starts {
        let next_to_pond = neighbours(r, c).any(|(nr, nc)| tile[nr][nc] == Code::Pond);
        if next_to_pond {
            return Err(format!(
                "tile {number}: the start cell is next to the pond (the set-up allows no start cell next to a pond)"
            ));
        }
    }
    Ok(())
}

/// Orthogonal neighbours of (r, c) inside a 3×3 tile.
fn neighbours(r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)].into_iter().filter_map(move |(dr, dc)| {
        let (nr, nc) = (r as i32 + dr, c as i32 + dc);
        ((0..3).contains(&nr) && (0..3).contains(&nc)).then_some((nr as usize, nc as usize))
    })
}

/// Whether the cells of garden `g` form one orthogonally connected group (flood fill).
fn connected(tile: &Tile, g: u8) -> bool {
    let in_garden = |r: usize, c: usize| matches!(tile[r][c], Code::Garden { garden, .. } if garden == g);
    let Some(first) = (0..9).map(|i| (i / 3, i % 3)).find(|&(r, c)| in_garden(r, c)) else {
        return false;
    };
    let mut seen = [[false; 3]; 3];
    let mut stack = vec![first];
    seen[first.0][first.1] = true;
    let mut reached = 0;
    while let Some((r, c)) = stack.pop() {
        reached += 1;
        for (nr, nc) in neighbours(r, c) {
            if in_garden(nr, nc) && !seen[nr][nc] {
                seen[nr][nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    let size = (0..9).filter(|&i| in_garden(i / 3, i % 3)).count();
    reached == size
}

/// Rotates a tile by `quarters` quarter turns clockwise.
pub fn rotated(tile: &Tile, quarters: u8) -> Tile {
    let mut t = *tile;
    for _ in 0..quarters % 4 {
        let mut next = t;
        for (r, row) in next.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                // Clockwise: the old cell (r0, c0) moves to (c0, 2 - r0).
                *cell = t[2 - c][r];
            }
        }
        t = next;
    }
    t
}
