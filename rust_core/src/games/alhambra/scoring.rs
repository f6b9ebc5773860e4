//! Majority scoring (the table and tie rule of `RULES.md`).

use super::data::{MAJORITY, N_KINDS};

/// Majority points of one scoring round (1, 2 or 3) for each participant; `counts[p][k]`
/// is participant p's number of city tiles of kind k. Tied participants occupy as many
/// places as there are of them and share those places' points, rounded down; a
/// participant needs at least one tile of a kind to score it.
pub fn majority_points(counts: &[[u8; N_KINDS]], round: usize, out: &mut [i64]) {
    debug_assert!((1..=3).contains(&round));
    out[..counts.len()].fill(0);
    let mut one = [0u8; 8];
    for kind in 0..N_KINDS {
        for (o, c) in one.iter_mut().zip(counts) {
            *o = c[kind];
        }
        kind_points(&one[..counts.len()], &MAJORITY[round - 1][kind], out);
    }
}

/// Adds one kind's majority points (`places` = points of 1st, 2nd, 3rd) to `out`, for
/// participants holding `counts` tiles of that kind.
pub fn kind_points(counts: &[u8], places: &[i64; 3], out: &mut [i64]) {
    let mut place = 0usize;
    let mut above = u8::MAX;
    while place < places.len() {
        // The next lower positive count level and how many share it.
        let mut level = 0;
        for &c in counts {
            if c < above && c > level {
                level = c;
            }
        }
        if level == 0 {
            break;
        }
        let tied = counts.iter().filter(|&&c| c == level).count();
        let pot: i64 = (place..place + tied).map(|p| places.get(p).copied().unwrap_or(0)).sum();
        let share = pot / tied as i64;
        for (o, &c) in out.iter_mut().zip(counts) {
            if c == level {
                *o += share;
            }
        }
        place += tied;
        above = level;
    }
}

/// Whether participant `who` holds (possibly shared) first place in `kind`.
pub fn holds_first(counts: &[[u8; N_KINDS]], who: usize, kind: usize) -> bool {
    let mine = counts[who][kind];
    mine > 0 && counts.iter().all(|c| c[kind] <= mine)
}
