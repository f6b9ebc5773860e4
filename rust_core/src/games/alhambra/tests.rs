//! Hand-worked positions for every rule of `RULES.md`, plus the random-play
//! invariant run. Tile ids: see `data.rs` (e.g. 5 = pavilion 7 wall E, 11 = seraglio 7
//! wall W, no-wall tiles: 6 13 21 22 30 31 40 41 51 52).

use super::city::{City, HoleRule, WallRule};
use super::data::{bits, card, SCORING_A, SCORING_B, TILES};
use super::scoring::majority_points;
use super::state::*;
use super::variant::parse;
use crate::agents::random::RandomAgent;
use crate::agents::Agent;
use crate::game::{Evaluate, Game, Record, View};
use crate::rng::{agent_rng, deal_rng};
use serde_json::{json, Value};

fn city(layout: &[(i32, i32, u8)]) -> City {
    City::from_layout(layout).expect("well-formed layout")
}

fn game(n: usize, variant: Value, seed: u64) -> Alhambra {
    Alhambra::new(&parse(&variant, n).expect("variant"), n, deal_rng(seed, 0))
}

// ------------------------------------------------------------------- placement

#[test]
fn reference_worked_examples() {
    let c = City::new();
    assert_eq!(c.placement_error(5, 1, 0, HoleRule::Area), None);
    assert!(c.placement_error(11, 1, 0, HoleRule::Area).is_some());
    let one = city(&[(1, 0, 5)]);
    assert_eq!(one.longest_wall(WallRule::Trail), 1);
    let c = city(&[(1, 0, 4), (0, -1, 6)]);
    assert_eq!(c.placement_error(50, 1, -1, HoleRule::Area), None);
    let c = city(&[(1, 0, 4)]);
    assert_eq!(c.placement_error(50, 1, -1, HoleRule::Area), Some("not reachable from the fountain"));
}

#[test]
fn placement_side_matching_and_contact() {
    let c = City::new();
    // Not touching the city (a corner is not enough).
    assert_eq!(c.placement_error(6, 1, 1, HoleRule::Area), Some("not adjacent to the city"));
    // Open side against a wall: tile 5 (wall E) at (1,0), then tile 6 (no walls) at (2,0).
    let c = city(&[(1, 0, 5)]);
    assert_eq!(c.placement_error(6, 2, 0, HoleRule::Area), Some("an open side meets a wall"));
    // Wall against wall but no open link: tile 11 (wall W) at (2,0) is unreachable.
    assert_eq!(c.placement_error(11, 2, 0, HoleRule::Area), Some("not reachable from the fountain"));
    // Occupied square.
    assert_eq!(c.placement_error(6, 1, 0, HoleRule::Area), Some("square is occupied"));
    // Walls meeting walls with another open link: legal.
    let c = city(&[(0, -1, 6), (1, -1, 13), (1, 0, 5)]);
    assert_eq!(c.placement_error(11, 2, 0, HoleRule::Area), Some("not reachable from the fountain"));
    let c = city(&[(0, -1, 6), (1, -1, 13), (2, -1, 21), (1, 0, 5)]);
    assert_eq!(c.placement_error(11, 2, 0, HoleRule::Area), None);
}

#[test]
fn single_square_hole_is_illegal_under_both_rules() {
    // Empty (1,1) ringed by (1,0) (2,1) (1,2) and, after placement, (0,1).
    let c = city(&[(1, 0, 6), (2, 0, 13), (2, 1, 21), (2, 2, 22), (1, 2, 30), (0, 2, 31)]);
    c.validate(HoleRule::Area).expect("legal before");
    for rule in [HoleRule::Area, HoleRule::Cell] {
        assert!(c.placement_error(40, 0, 1, rule).is_some(), "{rule:?}");
    }
}

#[test]
fn two_square_hole_differs_between_rules() {
    // Empty (1,1) and (2,1) become enclosed when (0,1) is filled.
    let c = city(&[(1, 0, 6), (2, 0, 13), (3, 0, 21), (3, 1, 22), (3, 2, 30), (2, 2, 31), (1, 2, 40), (0, 2, 41)]);
    c.validate(HoleRule::Area).expect("legal before");
    assert_eq!(c.placement_error(51, 0, 1, HoleRule::Area), Some("would enclose an empty area"));
    assert_eq!(c.placement_error(51, 0, 1, HoleRule::Cell), None);
    let mut pocket = c.clone();
    pocket.put(51, 0, 1);
    assert!(pocket.validate(HoleRule::Area).is_err());
    assert!(pocket.validate(HoleRule::Cell).is_ok());
    // Filling one of the two squares leaves a single-square hole: illegal under `cell` too.
    assert!(pocket.placement_error(52, 1, 1, HoleRule::Cell).is_some());
}

#[test]
fn legal_squares_agree_with_placement_error() {
    let c = city(&[(1, 0, 6), (2, 0, 13), (2, 1, 21), (0, 1, 30)]);
    for tile in [5u8, 11, 40, 50, 0, 23] {
        let mut squares = Vec::new();
        c.legal_squares(tile, HoleRule::Area, &mut squares);
        for y in -3..=4 {
            for x in -3..=4 {
                let listed = squares.contains(&(x as i8, y as i8));
                assert_eq!(listed, c.placement_error(tile, x, y, HoleRule::Area).is_none(), "tile {tile} ({x},{y})");
            }
        }
    }
}

#[test]
fn redesign_removal_and_swap() {
    // A chain fountain-(1,0)-(2,0): removing (1,0) strands (2,0).
    let c = city(&[(1, 0, 6), (2, 0, 13)]);
    assert!(!c.can_remove(6));
    assert!(c.can_remove(13));
    // Removing a tile whose square would be an enclosed single square: illegal.
    let ring = city(&[(1, 0, 6), (2, 0, 13), (2, 1, 21), (2, 2, 22), (1, 2, 30), (0, 2, 31), (0, 1, 40), (1, 1, 41)]);
    ring.validate(HoleRule::Area).expect("legal");
    assert!(!ring.can_remove(41));
    // Swap: (1,0) holds 6 (no walls); 5 (wall E) fits only if nothing east of it.
    assert!(c.can_swap(13, 5));
    assert!(!c.can_swap(6, 5)); // 5's E wall would meet 13's open W side
    assert!(c.can_swap(6, 21));
}

// ------------------------------------------------------------------- walls

#[test]
fn internal_walls_are_ignored() {
    // 5's E wall meets 11's W wall: an internal wall, not outer.
    let c = city(&[(0, -1, 6), (1, -1, 13), (2, -1, 21), (1, 0, 5), (2, 0, 11)]);
    c.validate(HoleRule::Area).expect("legal");
    assert_eq!(c.longest_wall(WallRule::Trail), 0);
}

#[test]
fn closed_ring_differs_between_wall_rules() {
    let ring = city(&[(-1, -1, 3), (0, -1, 4), (1, -1, 8), (1, 0, 5), (1, 1, 2), (0, 1, 12), (-1, 1, 1), (-1, 0, 11)]);
    ring.validate(HoleRule::Area).expect("legal");
    assert_eq!(ring.longest_wall(WallRule::Trail), 12);
    assert_eq!(ring.longest_wall(WallRule::SimplePath), 11);
}

#[test]
fn pinch_corner_joins_walls() {
    // 5 (wall E) at (1,0) and 11 (wall W) at (2,1) meet at one corner: one wall of 2.
    let c = city(&[(1, 0, 5), (2, 1, 11)]);
    assert_eq!(c.longest_wall(WallRule::Trail), 2);
    assert_eq!(c.longest_wall(WallRule::SimplePath), 2);
    // Four segments at one corner (2 ES at (1,0), 3 NW at (2,1)): a trail through the
    // pinch uses two of them; the rest are dead ends.
    let star = city(&[(1, 0, 2), (2, 1, 3)]);
    assert_eq!(star.longest_wall(WallRule::Trail), 2);
    // Pinches inside a longer wall: tiles 3 (NW) and 2 (ES) meet at the corner between
    // (5,5) and (6,6), as do 8 (NE) at (6,5) and 1 (SW) at (5,6); all eight outer
    // segments form one closed ring through that corner.
    let eight = city(&[(5, 5, 3), (6, 5, 8), (5, 6, 1), (6, 6, 2)]);
    assert_eq!(eight.longest_wall(WallRule::Trail), 8);
    assert_eq!(eight.longest_wall(WallRule::SimplePath), 7);
}

#[test]
fn walls_facing_an_enclosed_pocket_do_not_count() {
    // Under `cell` a two-square pocket is allowed; 12 (wall S) at (1,0) faces it.
    let c = city(&[
        (1, 0, 12),
        (2, 0, 13),
        (3, 0, 21),
        (3, 1, 22),
        (3, 2, 30),
        (2, 2, 31),
        (1, 2, 40),
        (0, 2, 41),
        (0, 1, 51),
    ]);
    assert!(c.validate(HoleRule::Cell).is_ok());
    assert_eq!(c.longest_wall(WallRule::Trail), 0);
    let open = city(&[(1, 0, 12)]);
    assert_eq!(open.longest_wall(WallRule::Trail), 1);
}

// ------------------------------------------------------------------- majorities

fn majority(counts: &[[u8; 6]], round: usize) -> Vec<i64> {
    let mut out = vec![0; counts.len()];
    majority_points(counts, round, &mut out);
    out
}

fn towers(c: &[u8]) -> Vec<[u8; 6]> {
    c.iter().map(|&t| [0, 0, 0, 0, 0, t]).collect()
}

#[test]
fn majority_tie_patterns_all_rounds() {
    // (round, tower counts, expected points) — tower row: 6 | 13/6 | 21/13/6.
    let cases: &[(usize, &[u8], &[i64])] = &[
        (1, &[3, 1], &[6, 0]),
        (1, &[3, 3], &[3, 3]),
        (1, &[3, 3, 3], &[2, 2, 2]),
        (1, &[2, 1, 1], &[6, 0, 0]),
        (1, &[0, 0], &[0, 0]),
        (2, &[3, 1, 0], &[13, 6, 0]),
        (2, &[3, 3, 1], &[9, 9, 0]),
        (2, &[3, 1, 1], &[13, 3, 3]),
        (2, &[2, 2, 2], &[6, 6, 6]),
        (2, &[3, 0, 0], &[13, 0, 0]),
        (3, &[3, 3, 1, 0], &[17, 17, 6, 0]),
        (3, &[3, 2, 2, 1], &[21, 9, 9, 0]),
        (3, &[3, 2, 1, 1], &[21, 13, 3, 3]),
        (3, &[2, 2, 2, 1], &[13, 13, 13, 0]),
        (3, &[4, 3, 2, 1], &[21, 13, 6, 0]),
        (3, &[1, 1, 1, 1], &[10, 10, 10, 10]),
        (3, &[5, 0, 0], &[21, 0, 0]),
        (3, &[2, 2, 1, 1], &[17, 17, 3, 3]),
    ];
    for (round, counts, want) in cases {
        assert_eq!(&majority(&towers(counts), *round), want, "round {round} counts {counts:?}");
    }
    // Pavilion, round 1, two tied: (1 + 0) / 2 rounds down to 0.
    assert_eq!(majority(&[[1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]], 1), vec![0, 0]);
    // Kinds add up independently.
    assert_eq!(majority(&[[1, 1, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0]], 2), vec![8 + 2, 9]);
}

// ------------------------------------------------------------------- turn structure

/// A 2-player game prepared for hand-made positions: player 0 to act, empty hands.
fn bare(variant: Value) -> Alhambra {
    let mut g = game(2, variant, 11);
    g.current = 0;
    g.start = 0;
    g.deck.retain(|&c| c < SCORING_A); // tests push scoring cards where they need them
    for p in &mut g.players {
        p.hand = [[0; 9]; 4];
        p.sums = [0; 4];
        p.cards = 0;
    }
    g
}

/// Puts `tiles` on the market, returning the old market tiles to the bag.
fn set_market(g: &mut Alhambra, tiles: [u8; 4]) {
    for t in g.market {
        if t != NO_TILE {
            g.bag.push(t);
        }
    }
    for t in tiles.into_iter().filter(|&t| t != NO_TILE) {
        g.bag.retain(|&b| b != t);
        if g.dirk_tiles >> t & 1 == 1 {
            g.dirk_tiles &= !(1u64 << t);
            g.dirk_counts[TILES[t as usize].kind as usize] -= 1;
            g.bag.push(g.bag[0]);
            let moved = g.bag.swap_remove(0);
            g.dirk_tiles |= 1 << moved;
            g.dirk_counts[TILES[moved as usize].kind as usize] += 1;
            g.bag.pop();
        }
    }
    g.market = tiles;
}

fn give(g: &mut Alhambra, p: usize, cur: usize, values: &[usize]) {
    for &v in values {
        let pl = &mut g.players[p];
        pl.hand[cur][v - 1] += 1;
        pl.sums[cur] += v as u16;
        pl.cards += 1;
    }
}

fn buy(space: u8, values: &[usize]) -> Action {
    let mut pay = [0u8; 9];
    for &v in values {
        pay[v - 1] += 1;
    }
    Action::Buy { space, pay }
}

#[test]
fn exact_payment_grants_an_action_and_overpaying_ends_the_turn() {
    let mut g = bare(json!({"dirk": false}));
    set_market(&mut g, [0, 7, 14, 23]); // prices 2, 3, 4, 5 in yellow, green, blue, orange
    give(&mut g, 0, 0, &[2]);
    give(&mut g, 0, 1, &[3]);
    give(&mut g, 0, 2, &[4]);
    give(&mut g, 0, 3, &[6]);
    g.apply(g.current, buy(0, &[2]));
    assert_eq!((g.phase, g.actions_taken, g.current), (Phase::Act, 1, 0));
    g.apply(g.current, buy(1, &[3]));
    g.apply(g.current, buy(2, &[4]));
    assert_eq!((g.phase, g.actions_taken), (Phase::Act, 3));
    g.apply(g.current, buy(3, &[6])); // 6 > 5: no bonus
    assert_eq!(g.phase, Phase::Place);
    assert_eq!(g.pending.count_ones(), 4);
}

#[test]
fn four_exact_purchases_then_one_more_action_at_most() {
    let mut g = bare(json!({"dirk": false}));
    set_market(&mut g, [0, 7, 14, 23]);
    give(&mut g, 0, 0, &[2]);
    give(&mut g, 0, 1, &[3]);
    give(&mut g, 0, 2, &[4]);
    give(&mut g, 0, 3, &[5]);
    for (s, v) in [(0u8, 2usize), (1, 3), (2, 4), (3, 5)] {
        g.apply(g.current, buy(s, &[v]));
    }
    assert_eq!((g.phase, g.actions_taken), (Phase::Act, 4));
    let mut acts = Vec::new();
    g.legal_actions(g.current, None, &mut acts);
    assert!(acts.iter().all(|a| matches!(a, Action::Take { .. })), "{acts:?}");
    g.apply(g.current, acts[0]);
    assert_eq!((g.phase, g.actions_taken), (Phase::Place, 5));
}

#[test]
fn payment_options_are_minimal_and_complete() {
    let mut g = bare(json!({"dirk": false}));
    set_market(&mut g, [30, NO_TILE, NO_TILE, NO_TILE]); // chambers 10
    give(&mut g, 0, 0, &[9, 4, 3, 2, 1]);
    let mut acts = Vec::new();
    g.legal_actions(g.current, Some(KIND_BUY), &mut acts);
    let mut pays: Vec<Vec<usize>> = acts
        .iter()
        .map(|a| match a {
            Action::Buy { pay, .. } => {
                (1..=9).rev().flat_map(|v| std::iter::repeat_n(v, pay[v - 1] as usize)).collect()
            }
            _ => unreachable!(),
        })
        .collect();
    pays.sort();
    // Every subset reaching 10 from which no card can be dropped.
    let want: Vec<Vec<usize>> = vec![vec![4, 3, 2, 1], vec![9, 1], vec![9, 2], vec![9, 3], vec![9, 4]];
    assert_eq!(pays, want);
}

#[test]
fn take_money_one_card_or_total_up_to_five() {
    let mut g = bare(json!({"dirk": false}));
    g.display = [card(0, 2), card(1, 3), card(2, 9), card(3, 2)];
    g.display_len = 4;
    let mut acts = Vec::new();
    g.legal_actions(g.current, Some(KIND_TAKE), &mut acts);
    let mut sets: Vec<u8> = acts.iter().map(|a| if let Action::Take { mask } = a { *mask } else { 0 }).collect();
    sets.sort();
    // singles: 1,2,4,8; pairs ≤ 5: {0,1}=5, {0,3}=4, {1,3}=5; no triple ≤ 5 (2+3+2=7).
    assert_eq!(sets, vec![1, 2, 3, 4, 8, 9, 10]);
}

#[test]
fn scoring_happens_after_the_display_refill_and_sees_this_turns_tiles() {
    let mut g = bare(json!({}));
    set_market(&mut g, [43, 7, 14, 23]); // tower 7 on the yellow space
    give(&mut g, 0, 0, &[7]);
    g.display = [card(1, 1), card(1, 2), card(1, 3), card(1, 4)];
    g.display_len = 4;
    g.bag.extend(bits(g.dirk_tiles));
    g.dirk_tiles = 0;
    g.dirk_counts = [0; 6];
    g.deck.push(card(2, 9));
    g.deck.push(SCORING_A); // top card
    let bag_before = g.bag.len();
    g.apply(g.current, buy(0, &[7])); // exact: bonus action
    g.apply(g.current, Action::Take { mask: 1 });
    assert_eq!(g.phase, Phase::Place);
    g.apply(g.current, Action::Place { tile: 43, x: 0, y: -1 });
    // The turn ended: A was set aside, replaced by the 9 below it, then scoring 1.
    assert_eq!(g.scorings_done, 1);
    assert_eq!(g.display[..g.display_len as usize].last(), Some(&card(2, 9)));
    // Player 0 holds the only tower: 6 points (round 1), tower 43 walls N E W: outer wall 3.
    assert_eq!(g.scores[0], 6 + 3);
    assert_eq!(g.score_after[0][0], Some(9));
    // Dirk got his 6 tiles after the scoring, before the market refill (1 tile).
    assert_eq!(g.dirk_tiles.count_ones(), 6);
    assert_eq!(g.bag.len(), bag_before - 6 - 1);
    assert_eq!(g.current, 1);
}

#[test]
fn dirk_tile_flow() {
    let g = game(2, json!({}), 3);
    assert!(g.v.dirk);
    assert_eq!(g.dirk_tiles.count_ones(), 6);
    assert_eq!(g.bag.len(), 54 - 4 - 6);
    // Drive scorings by hand: after the 1st, 6 more; after the 2nd, a third of the bag.
    let mut g = bare(json!({}));
    let before = g.dirk_tiles.count_ones();
    g.deck.push(SCORING_A);
    g.display_len = 3;
    g.apply(g.current, Action::Take { mask: 1 });
    assert_eq!(g.dirk_tiles.count_ones(), before + 6);
    let bag = g.bag.len() + usize::from(true); // one market space was refilled after Dirk
    let _ = bag;
    let bag_at_second = {
        g.deck.push(SCORING_B);
        g.display_len = 3;
        g.bag.len()
    };
    let before = g.dirk_tiles.count_ones() as usize;
    g.apply(g.current, Action::Take { mask: 1 });
    assert_eq!(g.scorings_done, 2);
    assert_eq!(g.dirk_tiles.count_ones() as usize, before + bag_at_second / 3);
    // Custom counts and the no-Dirk game.
    let g = game(2, json!({"dirk_tiles": [4, 4, "third"]}), 3);
    assert_eq!(g.dirk_tiles.count_ones(), 4);
    let g = game(2, json!({"dirk": false}), 3);
    assert_eq!(g.dirk_tiles, 0);
    assert_eq!(g.v.money_copies, 3);
    assert_eq!(game(2, json!({}), 3).v.money_copies, 2);
}

#[test]
fn dirk_takes_bought_tiles_counts_in_majorities_and_scores_no_walls() {
    let mut g = bare(json!({}));
    g.bag.extend(bits(g.dirk_tiles));
    g.dirk_tiles = 0;
    g.dirk_counts = [0; 6];
    set_market(&mut g, [0, 7, 14, 23]);
    give(&mut g, 0, 0, &[3]);
    g.apply(g.current, buy(0, &[3]));
    let mut acts = Vec::new();
    g.legal_actions(g.current, None, &mut acts);
    assert!(acts.contains(&Action::Dirk { tile: 0 }));
    assert!(acts.contains(&Action::Reserve { tile: 0 }));
    g.apply(g.current, Action::Dirk { tile: 0 });
    assert_eq!(g.dirk_counts[0], 1);
    // A tie between player 0 (1 pavilion) and Dirk (1 pavilion) in round 2: (8+1)/2.
    g.players[0].city.put(1, 0, 1);
    g.deck.push(SCORING_A);
    g.scorings_done = 1;
    g.display_len = 3;
    g.current = 1;
    g.phase = Phase::Act;
    g.actions_taken = 0;
    g.apply(g.current, Action::Take { mask: 1 });
    assert_eq!(g.scorings_done, 2);
    let dirk = g.scores[2];
    assert_eq!(dirk, 4, "Dirk: shared 1st+2nd of pavilions, no walls");
    // Player 0's pavilion 1 (walls SW) at (0,1) has an outer wall of 2.
    assert_eq!(g.scores[0], 4 + 2);
}

#[test]
fn leftover_tiles_under_each_reading() {
    for (rule, want) in [("value", Some(0usize)), ("count", Some(1)), ("none", None)] {
        let mut g = bare(json!({"dirk": false, "leftover_rule": rule}));
        give(&mut g, 0, 0, &[9]);
        give(&mut g, 1, 0, &[2, 2, 2]);
        give(&mut g, 0, 1, &[4]);
        give(&mut g, 1, 1, &[4]); // tie on green: nobody
        g.display[0] = card(3, 1); // the card taken below is orange
        set_market(&mut g, [6, 13, NO_TILE, NO_TILE]);
        let rest: Vec<u8> = g.bag.iter().copied().filter(|&t| t != 6 && t != 13).collect();
        g.players[1].reserve = rest.iter().fold(0u64, |m, &t| m | 1 << t);
        g.bag.clear();
        g.display_len = 3;
        g.apply(g.current, Action::Take { mask: 1 }); // turn ends, market can't be refilled
        let mut receivers = Vec::new();
        while !g.is_terminal() {
            receivers.push(g.current);
            let mut acts = Vec::new();
            g.legal_actions(g.current, None, &mut acts);
            assert!(!acts.iter().any(|a| matches!(a, Action::Dirk { .. })));
            g.apply(
                g.current,
                Action::Reserve {
                    tile: match acts[0] {
                        Action::Reserve { tile } | Action::Place { tile, .. } => tile,
                        _ => unreachable!(),
                    },
                },
            );
        }
        match want {
            Some(p) => {
                assert_eq!(receivers, vec![p], "{rule}");
                assert!(g.players[p].reserve >> 6 & 1 == 1, "{rule}");
            }
            None => assert!(receivers.is_empty(), "{rule}"),
        }
        assert_eq!(g.market[1], 13, "tied green tile stays: {rule}");
        assert_eq!(g.scorings_done, 3);
        g.check_tiles().expect("tiles conserved");
    }
}

#[test]
fn money_reshuffles_when_the_deck_runs_out() {
    let mut g = bare(json!({"dirk": false}));
    let cards: Vec<u8> = g.deck.drain(..).filter(|&c| c < SCORING_A).collect();
    g.discard = cards;
    g.scorings_done = 2;
    let before = g.discard.len();
    g.display_len = 1;
    g.apply(g.current, Action::Take { mask: 1 });
    assert_eq!(g.display_len, 4);
    assert!(g.discard.is_empty());
    assert_eq!(g.deck.len(), before - 4);
}

#[test]
fn game_ends_when_the_bag_cannot_fill_the_market() {
    let mut g = bare(json!({"dirk": false, "leftover_rule": "none"}));
    set_market(&mut g, [0, 7, 14, 23]);
    give(&mut g, 0, 0, &[2]);
    give(&mut g, 0, 1, &[4]);
    let last = g.bag[0];
    let rest: Vec<u8> = g.bag[1..].to_vec();
    g.players[1].reserve = rest.iter().fold(0u64, |m, &t| m | 1 << t);
    g.bag = vec![last];
    g.apply(g.current, buy(0, &[2]));
    g.apply(g.current, buy(1, &[4]));
    g.apply(g.current, Action::Reserve { tile: 0 });
    assert!(!g.is_terminal());
    g.apply(g.current, Action::Reserve { tile: 7 });
    // Space 0 got the last tile, space 1 stayed empty: game over with the final scoring.
    assert!(g.is_terminal());
    assert_eq!(g.market[0], last);
    assert_eq!(g.market[1], NO_TILE);
    assert_eq!(g.scorings_done, 3);
    g.check_tiles().expect("tiles conserved");
}

#[test]
fn start_player_rules() {
    for seed in 0..50 {
        let g = game(4, json!({}), seed);
        let key = |p: usize| (g.start_money[p].0, g.start_money[p].1);
        assert!((0..4).all(|p| key(g.start) <= key(p)), "seed {seed}");
        assert_eq!(g.seat(g.start), 0);
        let g = game(4, json!({"start_player": "most_cards"}), seed);
        assert!((0..4).all(|p| g.start_money[g.start].0 >= g.start_money[p].0));
    }
    let starts: std::collections::HashSet<usize> =
        (0..40).map(|s| game(4, json!({"start_player": "random"}), s).start).collect();
    assert_eq!(starts.len(), 4);
}

#[test]
fn set_up_follows_the_reference() {
    for n in 2..=6 {
        let g = game(n, json!({}), 5);
        for p in 0..n {
            let total: u16 = g.players[p].sums.iter().sum();
            assert!(total >= 20, "player {p} dealt {total}");
            // The last card dealt made the total reach 20: without any one card of the
            // smallest value it would be below 20 only if dealing stopped correctly.
            assert!(total < 20 + 9);
        }
        assert_eq!(g.display_len, 4);
        assert!(g.market.iter().all(|&t| t != NO_TILE));
        let a = g.deck.iter().position(|&c| c == SCORING_A).expect("A in deck");
        let b = g.deck.iter().position(|&c| c == SCORING_B).expect("B in deck");
        assert!(b < a, "B lies deeper (nearer the bottom) than A");
        g.check_invariants().expect("invariants");
    }
}

// ------------------------------------------------------------------- information

#[test]
fn determinize_ignores_hidden_order() {
    let g = game(3, json!({"open_hands": false}), 9);
    let mut h = g.clone();
    h.bag.reverse();
    let n = h.deck.len();
    h.deck[..n / 2].reverse();
    let mut r1 = agent_rng(1, 2, 3);
    let mut r2 = agent_rng(1, 2, 3);
    let a = g.determinize(0, &mut r1);
    let b = h.determinize(0, &mut r2);
    assert_eq!(a.bag, b.bag);
    assert_eq!(a.deck, b.deck);
    assert_eq!(a.players[0].hand, g.players[0].hand);
    for p in 1..3 {
        assert_eq!(a.players[p].cards, g.players[p].cards);
        assert_eq!(a.players[p].hand, b.players[p].hand);
    }
    a.check_invariants().expect("determinized state is consistent");
}

// ------------------------------------------------------------------- invariant run

fn variants() -> Vec<Value> {
    vec![
        json!({}),
        json!({"hole_rule": "cell", "wall_rule": "simple_path"}),
        json!({"leftover_rule": "count", "start_player": "random", "money_copies": 3}),
        json!({"leftover_rule": "none", "dirk": false, "open_hands": false}),
        json!({"dirk_tiles": [4, 4, "third"], "money_copies": 1}),
    ]
}

/// Plays random games checking conservation, legality and monotone scores after every
/// action. Returns the number of actions checked.
pub fn invariant_run(games: u64, seed: u64) -> u64 {
    let mut actions = 0;
    let vs = variants();
    for i in 0..games {
        let n = 2 + (i % 5) as usize;
        let v = parse(&vs[(i / 5) as usize % vs.len()], n).expect("variant");
        let mut g = Alhambra::new(&v, n, deal_rng(seed, i));
        let mut agents: Vec<RandomAgent<Alhambra>> = (0..n).map(|_| RandomAgent::default()).collect();
        let mut rngs: Vec<_> = (0..n).map(|p| agent_rng(seed, i, p as u64)).collect();
        g.check_invariants().unwrap_or_else(|e| panic!("game {i} set-up: {e}"));
        while !g.is_terminal() {
            let q = g.current;
            let before = g.scores;
            let a = agents[q].choose(&View::new(&g, g.current), &mut rngs[q]);
            g.apply(g.current, a);
            actions += 1;
            g.check_invariants().unwrap_or_else(|e| panic!("game {i} after {a:?}: {e}"));
            g.players[q].city.check_caches(v.hole_rule).unwrap_or_else(|e| panic!("game {i} after {a:?}: {e}"));
            assert!((0..=n).all(|p| g.scores[p] >= before[p]), "game {i}: a score decreased");
            assert!(g.turns < 5_000, "game {i} does not end");
        }
        assert_eq!(g.scorings_done, 3);
        for (p, pl) in g.players.iter().enumerate() {
            assert_eq!(g.walls_scored[p], pl.city.longest_wall(v.wall_rule), "game {i}: final wall of player {p}");
        }
    }
    actions
}

#[test]
fn invariants_hold_in_random_play() {
    let games = std::env::var("BALANCELAB_INVARIANT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let actions = invariant_run(games, 2026);
    assert!(actions > games * 20);
}

#[test]
fn tile_prices_in_table_order() {
    let prices: Vec<u8> = TILES[..7].iter().map(|t| t.price).collect();
    assert_eq!(prices, vec![2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn win_estimate_follows_the_estimated_scores() {
    let v = parse(&json!({"dirk": false}), 2).unwrap();
    let mut g = Alhambra::new(&v, 2, deal_rng(5, 0));
    let w = g.win_estimate().unwrap();
    assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let est = g.score_estimate();
    // Only money so far: the estimate is the greedy's money value of each hand.
    assert!(est[0] > 0.0 && est[1] > 0.0);
    // A sole pavilion holder gains the pavilion's first place of all three scorings.
    let before = g.score_estimate()[0];
    g.players[0].city.put(0, 0, -1); // tile 0: pavilion, walls N E W, open towards the fountain
    let gained = g.score_estimate()[0] - before;
    let firsts: i64 = (0..3).map(|r| crate::games::alhambra::data::MAJORITY[r][0][0]).sum();
    let wall = g.players[0].city.longest_wall(WallRule::Trail) as f64 * 3.0;
    assert_eq!(gained, firsts as f64 + wall);
    // Points already scored count one for one; a large lead is a near-certain win.
    g.scores[1] += 200;
    assert!(g.win_estimate().unwrap()[1] > 0.999);
}

/// Random play of `g` to its end.
fn play_out(g: &mut Alhambra, seed: u64) {
    let n = g.n;
    let mut agents: Vec<RandomAgent<Alhambra>> = (0..n).map(|_| RandomAgent::default()).collect();
    let mut rngs: Vec<_> = (0..n).map(|p| agent_rng(seed, 0, p as u64)).collect();
    while !g.is_terminal() {
        let q = g.current;
        let a = agents[q].choose(&View::new(g, q), &mut rngs[q]);
        g.apply(q, a);
    }
}

#[test]
fn the_turn_cap_ends_the_game_flagged() {
    let mut g = game(3, json!({}), 5);
    g.enable_log();
    g.turns = MAX_TURNS - 1;
    play_out(&mut g, 5);
    assert!(g.capped() && g.turns == MAX_TURNS, "turns {}", g.turns);
    let log = g.take_log();
    let end = log.iter().find(|e| e["event"] == "game_end").expect("game_end");
    assert_eq!(end["reason"], "turn_cap");
    let mut g = game(3, json!({}), 5);
    play_out(&mut g, 5);
    assert!(!g.capped() && g.turns < MAX_TURNS, "a normal game is not capped");
}

#[test]
fn a_tile_bought_and_not_yet_placed_counts_as_the_buyers_in_the_features() {
    use crate::conformance::feature;
    let mut g = bare(json!({"dirk": false}));
    set_market(&mut g, [0, 7, 14, 23]);
    give(&mut g, 0, 3, &[6]);
    let (city, majority) = (feature(&g, 0, "city_lead"), feature(&g, 0, "majority_lead"));
    g.apply(g.current, buy(3, &[6])); // overpaid: the turn goes on to placing the tile
    assert_eq!((g.phase, g.pending.count_ones()), (Phase::Place, 1));
    assert_eq!(feature(&g, 0, "city_lead"), city + 1.0, "the bought tile is the buyer's");
    assert!(feature(&g, 0, "majority_lead") > majority, "and it counts in the majorities to come");
    assert_eq!(feature(&g, 1, "city_lead"), -city - 1.0);
}

#[test]
fn the_progress_features_are_the_leads_times_the_deck_left_and_the_scorings_done() {
    use crate::conformance::feature;
    let mut g = bare(json!({"dirk": false}));
    set_market(&mut g, [0, 7, 14, 23]);
    give(&mut g, 0, 3, &[6]);
    g.apply(g.current, buy(3, &[6]));
    g.scorings_done = 2;
    let (deck, done) = (feature(&g, 0, "deck_left"), feature(&g, 0, "scorings_done"));
    assert!(deck > 0.0 && done > 0.0, "a position with deck {deck} and scorings {done}");
    let leads = ["score_lead", "majority_lead", "wall_lead", "estimate_lead", "own_money", "cards_lead", "city_lead"];
    let mut some = 0;
    for lead in leads {
        let x = feature(&g, 0, lead);
        some += usize::from(x != 0.0);
        assert_eq!(feature(&g, 0, &format!("{lead}_by_deck")), x * deck, "{lead}");
        assert_eq!(feature(&g, 0, &format!("{lead}_by_done")), x * done, "{lead}");
    }
    assert!(some >= 3, "the position has leads to multiply ({some} nonzero)");
}

#[test]
fn normal_form_fills_in_the_money_copies_the_rules_give() {
    use crate::registry::normalize_variant;
    use serde_json::json;
    let files = crate::options::Files::new();
    let norm = |v: serde_json::Value, n| normalize_variant("alhambra", &v, &files, n).expect("valid");
    assert_eq!(norm(json!({"money_copies": 2}), 2), norm(json!({}), 2), "Dirk's 2-player game: 2 copies");
    assert_eq!(norm(json!({"money_copies": 3}), 3), norm(json!({}), 3), "3+ players: 3 copies");
    assert_eq!(norm(json!({"dirk": false, "money_copies": 3}), 2), norm(json!({"dirk": false}), 2));
    assert_ne!(norm(json!({"money_copies": 3}), 2), norm(json!({}), 2), "3 copies with Dirk is a variant");
    let official = json!({"money_copies": 2, "dirk_tiles": [6, 6, "third"]});
    assert_eq!(norm(official, 2), norm(json!({}), 2), "the official rules spelled out are the defaults");
}
