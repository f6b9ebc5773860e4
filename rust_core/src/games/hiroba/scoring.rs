//! The final scoring (`RULES.md`, Scoring 1–4).
//!
//! 1. **Koi**: for each land pond, each player sums their pebbles orthogonally next to the
//!    pond cell (a cell next to two ponds counts for both). Only players with at least one
//!    such pebble take part; the lowest sum wins the koi and tied players each get one;
//!    with no pebble next to the pond nobody gets it.
//! 2. **Gardens**: the players with the highest pebble sum in a garden (at least one
//!    pebble needed) score 1 point per cell of the garden, all of them on a tie. A garden
//!    with a single such player is won *outright*.
//! 3. **Koi placement**: each player puts each koi on an empty cell (no pebble or stone) of
//!    a garden they won outright, at most one per garden, largest eligible gardens first
//!    (ties: lower garden index) — this maximises their score since a garden has at least
//!    2 cells and a kept koi scores 1. That garden scores double; each koi not placed
//!    scores 1.
//! 4. Highest total wins; the tie-break is the number of gardens won outright
//!    ([`Outcome::gardens_won`]; tied gardens do not count), still tied → shared win.

use super::board::{cells, Board, NEIGHBOURS, N_GARDENS};
use super::state::{Hiroba, MAX_PLAYERS};
use serde_json::{json, Value};

/// "No cell" (a garden without a koi, a player without a pebble yet).
pub const NO_CELL: u8 = u8::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    pub scores: [i64; MAX_PLAYERS],
    /// Points from gardens (doubled ones included).
    pub garden_points: [i64; MAX_PLAYERS],
    /// Points from kois not placed (1 each).
    pub koi_points: [i64; MAX_PLAYERS],
    pub gardens_won: [u8; MAX_PLAYERS],
    pub gardens_tied: [u8; MAX_PLAYERS],
    pub koi_won: [u8; MAX_PLAYERS],
    pub koi_placed: [u8; MAX_PLAYERS],
    /// Players with the highest sum in each garden (bit per player; 0 = nobody).
    pub garden_winners: [u8; N_GARDENS],
    /// The cell of the koi placed in each garden (`NO_CELL` if none).
    pub koi_cell: [u8; N_GARDENS],
}

/// Each player's sum of pebbles next to the pond at `pond`, and the players with at
/// least one pebble there (bit per player).
pub fn pond_sums(g: &Hiroba, pond: usize) -> ([u16; MAX_PLAYERS], u8) {
    let mut sums = [0u16; MAX_PLAYERS];
    let mut present = 0u8;
    for c in cells(NEIGHBOURS[pond]) {
        let o = g.owner[c];
        if (o as usize) < MAX_PLAYERS {
            sums[o as usize] += g.number[c] as u16;
            present |= 1 << o;
        }
    }
    (sums, present)
}

/// The koi winners of a pond: the present players with the lowest sum (bit mask).
pub fn koi_winners(sums: &[u16; MAX_PLAYERS], present: u8) -> u8 {
    let lowest = (0..MAX_PLAYERS).filter(|p| present >> p & 1 == 1).map(|p| sums[p]).min();
    match lowest {
        None => 0,
        Some(low) => (0..MAX_PLAYERS).filter(|&p| present >> p & 1 == 1 && sums[p] == low).fold(0, |m, p| m | 1 << p),
    }
}

/// The players with the highest positive sum in a garden (bit mask; 0 without pebbles).
pub fn garden_winners(sums: &[u8; MAX_PLAYERS]) -> u8 {
    let best = *sums.iter().max().expect("players");
    if best == 0 {
        return 0;
    }
    (0..MAX_PLAYERS).filter(|&p| sums[p] == best).fold(0, |m, p| m | 1 << p)
}

/// Scores a position as if the game ended now.
pub fn score(g: &Hiroba) -> Outcome {
    let mut o = Outcome { koi_cell: [NO_CELL; N_GARDENS], ..Outcome::default() };
    for pond in cells(g.board.ponds) {
        let (sums, present) = pond_sums(g, pond);
        let w = koi_winners(&sums, present);
        for p in 0..g.n {
            o.koi_won[p] += w >> p & 1;
        }
    }
    for gi in 0..N_GARDENS {
        let w = garden_winners(&g.garden_sum[gi]);
        o.garden_winners[gi] = w;
        if w.count_ones() == 1 {
            o.gardens_won[w.trailing_zeros() as usize] += 1;
        } else {
            for p in 0..g.n {
                o.gardens_tied[p] += w >> p & 1;
            }
        }
    }
    for p in 0..g.n {
        // Gardens won outright with an empty cell, largest first (stable: lower index first).
        let mut eligible: Vec<usize> =
            (0..N_GARDENS).filter(|&gi| o.garden_winners[gi] == 1 << p && g.board.gardens[gi] & g.empty != 0).collect();
        eligible.sort_by_key(|&gi| std::cmp::Reverse(g.board.garden_size(gi)));
        for &gi in eligible.iter().take(o.koi_won[p] as usize) {
            o.koi_cell[gi] = (g.board.gardens[gi] & g.empty).trailing_zeros() as u8;
            o.koi_placed[p] += 1;
        }
        o.koi_points[p] = (o.koi_won[p] - o.koi_placed[p]) as i64;
    }
    for gi in 0..N_GARDENS {
        let w = o.garden_winners[gi];
        let points = g.board.garden_size(gi) as i64 * if o.koi_cell[gi] != NO_CELL { 2 } else { 1 };
        for p in 0..g.n {
            if w >> p & 1 == 1 {
                o.garden_points[p] += points;
            }
        }
    }
    for p in 0..g.n {
        o.scores[p] = o.garden_points[p] + o.koi_points[p];
    }
    o
}

fn positions(mask: u8) -> Vec<u32> {
    (0..MAX_PLAYERS as u32).filter(|p| mask >> p & 1 == 1).collect()
}

/// The scoring as log events: each pond, each player's koi placements, each garden, the
/// totals.
pub fn events(g: &Hiroba, o: &Outcome) -> Vec<Value> {
    let n = g.n;
    let mut ev = Vec::new();
    for pond in cells(g.board.ponds) {
        let (sums, present) = pond_sums(g, pond);
        let shown: Vec<Value> =
            (0..n).map(|p| if present >> p & 1 == 1 { json!(sums[p]) } else { Value::Null }).collect();
        ev.push(json!({
            "event": "koi", "tile": pond / 27 * 3 + pond % 9 / 3 + 1, "row": pond / 9, "col": pond % 9,
            "sums": shown, "winner_positions": positions(koi_winners(&sums, present)),
        }));
    }
    for p in 0..n {
        let gardens: Vec<String> = (0..N_GARDENS)
            .filter(|&gi| o.koi_cell[gi] != NO_CELL && o.garden_winners[gi] == 1 << p)
            .map(Board::garden_label)
            .collect();
        ev.push(json!({
            "event": "koi_placement", "position": p, "kois": o.koi_won[p], "placed_in": gardens,
            "unplaced": o.koi_won[p] - o.koi_placed[p],
        }));
    }
    for gi in 0..N_GARDENS {
        if g.board.gardens[gi] == 0 {
            continue;
        }
        let w = o.garden_winners[gi];
        let koi = o.koi_cell[gi] != NO_CELL;
        ev.push(json!({
            "event": "garden", "garden": Board::garden_label(gi), "cells": g.board.garden_size(gi),
            "sums": &g.garden_sum[gi][..n], "winner_positions": positions(w), "outright": w.count_ones() == 1,
            "koi": koi, "points": if w == 0 { 0 } else { g.board.garden_size(gi) * if koi { 2 } else { 1 } },
        }));
    }
    ev.push(json!({
        "event": "final_scores", "scores": &o.scores[..n], "garden_points": &o.garden_points[..n],
        "koi_points": &o.koi_points[..n], "gardens_won": &o.gardens_won[..n],
        "tie_break": "most gardens won outright, then a shared win",
    }));
    ev
}
