//! Majority scoring (the reference's table and tie rule).

use super::data::{MAJORITY, N_KINDS};

/// Majority points of one scoring round (1, 2 or 3) for each participant; `counts[p][k]`
/// is participant p's number of city tiles of kind k. Tied participants occupy as many
/// places as there are of them and share those places' points, rounded down; a
/// participant needs at least one tile of a kind to score it.
pub fn majority_points(counts: &[[u8; N_KINDS]], round: usize, out: &mut [i64]) {
    debug_assert!((1..=3).contains(&round));
    out[..counts.len()].fill(0);
    let table = &MAJORITY[round - 1];
    for (kind, places) in table.iter().enumerate() {
        // Distinct positive counts, highest first; each group takes the next places.
        let mut place = 0usize;
        let mut above = u8::MAX;
        loop {
            let level = counts.iter().map(|c| c[kind]).filter(|&c| c > 0 && c < above).max();
            let Some(level) = level else { break };
            let tied = counts.iter().filter(|c| c[kind] == level).count();
            if place >= places.len() {
                break;
            }
            let pot: i64 = (place..place + tied).map(|p| places.get(p).copied().unwrap_or(0)).sum();
            let share = pot / tied as i64;
            for (p, c) in counts.iter().enumerate() {
                if c[kind] == level {
                    out[p] += share;
                }
            }
            place += tied;
            above = level;
        }
    }
}

/// Whether participant `who` holds (possibly shared) first place in `kind`.
pub fn holds_first(counts: &[[u8; N_KINDS]], who: usize, kind: usize) -> bool {
    let mine = counts[who][kind];
    mine > 0 && counts.iter().all(|c| c[kind] <= mine)
}
