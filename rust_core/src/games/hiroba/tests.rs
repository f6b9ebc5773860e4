//! Hand-worked positions for every rule of `RULES.md`, the tile-file checks, the
//! set-up, the agents through the batch runner, and the random-play invariant run.
//!
//! Most positions use the *fixed board*: tiles 1..9 of the built-in set in order,
//! unrotated, all land. Its gardens (`3B` = tile position 3, garden B; garden index
//! `2 * (position - 1) + (A 0, B 1)`), ponds `P` and start cells `*`:
//!
//! ```text
//!      c0  c1  c2 | c3  c4  c5 | c6  c7  c8
//! r0   P   1A  1A | 2A  P   2B | 3A  3A  3B*
//! r1   1B  1B* 1B | 2A  2B  2B | 3B  P   3B
//! r2   1B  1B  1B | 2B  2B  2B | 3B  3B  3B
//! r3   4B  4B  4B | 5A  5A  5A | 6A  6B  6B
//! r4   4B  4B  4B | 5B* 5B  P  | 6A  6B  6B
//! r5   4A  4A  P  | 5B  5B  5B | 6A  6B  P
//! r6   7A  P   7B | 8A  8A  8B | 9A  9A  P
//! r7   7A  7B  7B | 8A  P   8B | 9A  9A  9B
//! r8   7A  7B  7B | 8B  8B  8B | 9B  9B* 9B
//! ```

use super::board::*;
use super::scoring::{self, koi_winners, pond_sums, NO_CELL};
use super::state::*;
use super::tiles::{rotated, Code, TileSet, BUILTIN};
use super::variant::{parse, LineRule, WaterRule};
use crate::agents::random::RandomAgent;
use crate::agents::Agent;
use crate::batch;
use crate::error::Error;
use crate::game::{Game, Record, View};
use crate::options::Files;
use crate::rng::{agent_rng, deal_rng};
use serde_json::{json, Value};

fn rc(r: usize, c: usize) -> usize {
    r * 9 + c
}

/// Garden index of the label `pos` (1..9) and `garden` (`'A'` | `'B'`).
fn gi(pos: usize, garden: char) -> usize {
    2 * (pos - 1) + usize::from(garden == 'B')
}

fn fixed_board(water: u16) -> Board {
    let placements = std::array::from_fn(|i| Placement { tile: i as u8, rotation: 0 });
    Board::new(&TileSet::builtin(), placements, water)
}

fn fixed(n: usize, rule: LineRule) -> Hiroba {
    Hiroba::from_board(fixed_board(0), n, rule, 0)
}

/// Fills `cell` with a neutral blocker (a stone of nobody; for positions only).
fn block(g: &mut Hiroba, cell: usize) {
    g.empty &= !bit(cell);
    g.stones |= bit(cell);
}

fn actions(g: &Hiroba) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(g.current, None, &mut out);
    out
}

fn place(cell: usize, number: u8) -> Action {
    Action::Place { cell: cell as u8, number }
}

// ------------------------------------------------------------------- tiles

#[test]
fn fixed_board_matches_the_picture() {
    let b = fixed_board(0);
    assert_eq!(b.layout_rows()[0], "P1  1A  1A  | 2A  P2  2B  | 3A  3A  3B*");
    assert_eq!(b.layout_rows()[5], "4A  4A  P4  | 5B  5B  5B  | 6A  6B  P6");
    assert_eq!(b.start, bit(rc(1, 1)) | bit(rc(0, 8)) | bit(rc(4, 3)) | bit(rc(8, 7)));
    assert_eq!(b.ponds.count_ones(), 9);
    assert_eq!(b.garden_of[rc(5, 1)] as usize, gi(4, 'A'));
    assert_eq!(b.garden_size(gi(1, 'B')), 6);
    assert_eq!(b.garden_size(gi(9, 'A')), 4);
    assert!(!b.start_next_to_pond());
}

#[test]
fn builtin_tile_set_meets_the_reference() {
    let set = TileSet::builtin();
    assert!(BUILTIN.contains("engine's OWN tile set") && BUILTIN.contains("not the publisher's"));
    let mut splits = std::collections::BTreeMap::new();
    let (mut centre, mut edge_or_corner, mut with_start) = (0, 0, 0);
    for tile in &set.tiles {
        let size_a = tile.iter().flatten().filter(|c| matches!(c, Code::Garden { garden: 0, .. })).count();
        *splits.entry(size_a.min(8 - size_a)).or_insert(0) += 1;
        if tile[1][1] == Code::Pond {
            centre += 1;
        } else {
            edge_or_corner += 1;
        }
        if tile.iter().flatten().any(|c| matches!(c, Code::Garden { start: true, .. })) {
            with_start += 1;
        }
    }
    // Splits 2+6, 3+5, 4+4, each at least twice.
    assert_eq!(splits.keys().copied().collect::<Vec<_>>(), vec![2, 3, 4]);
    assert!(splits.values().all(|&k| k >= 2), "{splits:?}");
    assert!(centre <= 2 && edge_or_corner > 6, "centre {centre}");
    assert_eq!(with_start, 6);
    // Connectivity and sizes are checked by the parser; round trip through a file.
    assert_eq!(TileSet::parse(BUILTIN).unwrap(), set);
}

#[test]
fn rotation_turns_tiles_clockwise() {
    let t = TileSet::builtin().tiles[0]; // P A A / B B* B / B B B
    let r = rotated(&t, 1);
    assert_eq!(r[0][2], Code::Pond, "the top-left pond goes to the top right");
    assert_eq!(r[1][1], t[1][1]);
    assert_eq!(rotated(&t, 4), t);
    assert_eq!(rotated(&rotated(&t, 3), 1), t);
}

/// The built-in text with tile `n`'s three rows replaced by `rows`.
fn with_tile(n: usize, rows: &[&str]) -> String {
    let mut out = Vec::new();
    let mut skip = 0;
    for line in BUILTIN.lines() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        out.push(line.to_string());
        if line.trim() == format!("tile {n}") {
            out.extend(rows.iter().map(|s| s.to_string()));
            skip = 3;
        }
    }
    out.join("\n")
}

#[test]
fn tile_file_errors_name_the_tile_and_the_rule() {
    let cut = BUILTIN.split("tile 12").next().unwrap().to_string();
    let no_starts = BUILTIN.replace('*', "");
    let cases: Vec<(&str, String, &str)> = vec![
        ("count", cut, "expected 12 tiles, found 11"),
        ("ponds", with_tile(1, &["P P A", "B B* B", "B B B"]), "tile 1: 2 pond cells, need exactly 1"),
        ("no_pond", with_tile(1, &["A A A", "B B* B", "B B B"]), "tile 1: 0 pond cells, need exactly 1"),
        ("size", with_tile(5, &["A A A", "A A P", "A A B"]), "tile 5: garden A has 7 cells, allowed 2–6"),
        ("small", with_tile(6, &["A B B", "B B B", "B B P"]), "tile 6: garden A has 1 cells, allowed 2–6"),
        ("connected", with_tile(7, &["B P A", "A A A", "B A A"]), "tile 7: garden B is not connected"),
        ("row", with_tile(2, &["A P B B", "A B B", "B B B"]), "tile 2: row 1 has 4 cells, need 3"),
        ("short_row", with_tile(2, &["A P B", "A B", "B B B"]), "tile 2: row 2 has 2 cells, need 3"),
        ("code", with_tile(4, &["B C B", "B B B", "A A P"]), "tile 4: row 1 column 2: unknown cell code `C`"),
        ("rows", with_tile(3, &["A A B*", "B P B"]), "tile 3: 2 rows, need 3"),
        ("starts", with_tile(1, &["P A A", "B B* B", "B B B*"]), "tile 1: 2 start cells, allowed at most 1"),
        ("start_pond", with_tile(1, &["P A* A", "B B B", "B B B"]), "tile 1: the start cell is next to the pond"),
        ("numbering", BUILTIN.replace("tile 3\n", "tile 4\n"), "expected `tile 3`, found `tile 4`"),
        ("no_starts", no_starts, "gives no valid set-up for 2 players"),
    ];
    for (name, text, want) in cases {
        let path = format!("/tiles/{name}.txt");
        let files = Files::from([(path.clone(), text.to_string())]);
        let e = parse(&json!({"tiles": path}), 2, &files).expect_err(name);
        let msg = e.to_string();
        assert!(matches!(e, Error::BadFile { .. } | Error::Invalid(_)), "{name}: {e:?}");
        assert!(msg.contains(want), "{name}: {msg}");
        assert!(msg.contains("tiles"), "{name}: names the option: {msg}");
        if name != "no_starts" {
            assert!(matches!(e, Error::BadFile { .. }), "{name}: {e:?}");
            assert!(msg.contains(&path), "{name}: names the file: {msg}");
        }
    }
    // The engine reads no files: a path without content is refused, naming it.
    let e = parse(&json!({"tiles": "/nonexistent/hiroba.txt"}), 2, &Files::new()).unwrap_err().to_string();
    assert!(e.contains("no content was given") && e.contains("/nonexistent/hiroba.txt"), "{e}");
    // A valid file replaces the built-in set.
    let path = "my/valid.txt".to_string();
    let files = Files::from([(path.clone(), with_tile(2, &["A A P", "B B B", "B B B"]))]);
    let v = parse(&json!({"tiles": path}), 4, &files).expect("valid file");
    assert_eq!(v.tiles.tiles[1][0][2], Code::Pond);
    assert_eq!(v.tiles_source, path);
}

#[test]
fn variant_options_parse_and_reject_with_names() {
    let v = parse(&json!({}), 3, &Files::new()).unwrap();
    assert!(v.rotate_tiles);
    assert_eq!((v.line_rule, v.water, v.tiles_source.as_str()), (LineRule::Any, WaterRule::Run, "built-in"));
    let v = parse(
        &json!({"rotate_tiles": false, "line_rule": "last", "water_tiles": "random", "tiles": null}),
        2,
        &Files::new(),
    );
    let v = v.unwrap();
    assert_eq!((v.rotate_tiles, v.line_rule, v.water), (false, LineRule::Last, WaterRule::Random));
    for (bad, option, allowed) in [
        (json!({"line_rule": "first"}), "line_rule", "\"any\" | \"last\""),
        (json!({"water_tiles": "block"}), "water_tiles", "\"run\" | \"random\""),
        (json!({"rotate_tiles": "yes"}), "rotate_tiles", "true | false"),
        (json!({"tiles": 3}), "tiles", "path of a tile file"),
    ] {
        let e = parse(&bad, 2, &Files::new()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains(option) && msg.contains(allowed), "{msg}");
    }
    let e = parse(&json!({"koi": 1}), 2, &Files::new()).unwrap_err();
    assert!(matches!(e, Error::UnknownOption { .. }), "{e}");
    assert!(e.to_string().contains("line_rule"), "lists the allowed options: {e}");
    assert_eq!(Hiroba::variant_schema().len(), 6);
    assert!(!v.no_stone_turns, "stone turns are kept by default");
    assert!(parse(&json!({"stone_turns": "last_turn"}), 2, &Files::new()).unwrap().no_stone_turns);
    let e = parse(&json!({"stone_turns": "never"}), 2, &Files::new()).unwrap_err().to_string();
    assert!(e.contains("stone_turns") && e.contains("\"kept\" | \"last_turn\""), "{e}");
    let paths: Vec<_> = Hiroba::variant_schema().iter().filter(|o| o.path).map(|o| o.to_json()).collect();
    assert_eq!(paths.len(), 1);
    assert_eq!((paths[0]["name"].as_str(), &paths[0]["path"]), (Some("tiles"), &json!(true)));
}

// ------------------------------------------------------------------- set-up

#[test]
fn setup_follows_the_reference() {
    let set = TileSet::builtin();
    for n in 2..=4 {
        for variant in [json!({}), json!({"rotate_tiles": false}), json!({"water_tiles": "random"})] {
            let v = parse(&variant, n, &Files::new()).unwrap();
            for seed in 0..200 {
                let g = Hiroba::new(&v, n, deal_rng(seed, 0));
                let b = &g.board;
                // 9 distinct tiles; rotations only when rotating.
                let mut ids: Vec<u8> = b.placements.iter().map(|p| p.tile).collect();
                ids.sort();
                ids.dedup();
                assert_eq!(ids.len(), 9);
                if !v.rotate_tiles {
                    assert!(b.placements.iter().all(|p| p.rotation == 0));
                }
                // No start cell next to a pond, all tiles face up (across borders too).
                assert!(!Board::new(&set, b.placements, 0).start_next_to_pond(), "n {n} seed {seed}");
                // Water: by player count, never the centre.
                assert_eq!(b.water.count_ones() as usize, water_count(n));
                assert_eq!(b.water >> CENTRE & 1, 0);
                if v.water == WaterRule::Run && b.water != 0 {
                    let k = water_count(n);
                    let run = (0..8).any(|first| (0..k).fold(0u16, |m, i| m | 1 << RING[(first + i) % 8]) == b.water);
                    assert!(run, "water tiles {:09b} are not a run", b.water);
                }
                // Enough start cells on land; a koi on every land pond.
                assert!(b.start.count_ones() as usize >= n);
                assert_eq!(b.ponds.count_ones() as usize, 9 - water_count(n));
                assert!(b.land & b.ponds == 0 && cells(b.land | b.ponds).all(|c| !b.is_water(c)));
                assert_eq!(g.players[..n].iter().map(|p| p.stones).collect::<Vec<_>>(), {
                    (0..n).map(|p| stones_dealt(n, p)).collect::<Vec<_>>()
                });
                g.check_invariants().unwrap();
            }
        }
    }
    // Random water tiles are not always a run.
    let v = parse(&json!({"water_tiles": "random"}), 2, &Files::new()).unwrap();
    let scattered = (0..100).any(|seed| {
        let w = Hiroba::new(&v, 2, deal_rng(seed, 0)).board.water;
        !(0..8).any(|first| (0..4).fold(0u16, |m, i| m | 1 << RING[(first + i) % 8]) == w)
    });
    assert!(scattered);
}

#[test]
fn setup_is_determined_by_the_deal_seed() {
    let v = parse(&json!({}), 3, &Files::new()).unwrap();
    let a = Hiroba::new(&v, 3, deal_rng(11, 4));
    let b = Hiroba::new(&v, 3, deal_rng(11, 4));
    let c = Hiroba::new(&v, 3, deal_rng(11, 5));
    assert_eq!(a.board, b.board);
    assert_ne!(a.board, c.board);
}

#[test]
fn stones_dealt_by_turn_order() {
    let dealt = |n: usize| (0..n).map(|p| fixed(n, LineRule::Any).players[p].stones).collect::<Vec<_>>();
    assert_eq!(dealt(2), vec![2, 1]);
    assert_eq!(dealt(3), vec![2, 1, 0]);
    assert_eq!(dealt(4), vec![2, 1, 1, 0]);
    assert_eq!(fixed(2, LineRule::Any).players[0].hand, [2, 2, 2, 2, 1]);
}

// ------------------------------------------------------------------- placement

#[test]
fn first_pebble_goes_on_a_start_cell() {
    let g = fixed(2, LineRule::Any);
    assert_eq!((g.current, g.phase, g.action_kinds(g.current)), (0, Phase::Pebble, 1 << KIND_PEBBLE));
    let acts = actions(&g);
    assert_eq!(acts.len(), 4 * 9, "4 start cells, every number");
    let starts: Vec<usize> = cells(g.board.start).collect();
    assert!(acts.iter().all(|a| matches!(a, Action::Place { cell, .. } if starts.contains(&(*cell as usize)))));
    // An occupied start cell is gone for the next player.
    let mut g = g;
    g.apply(g.current, place(rc(1, 1), 5));
    g.apply(g.current, Action::NoStone);
    assert_eq!(g.current, 1);
    assert!(actions(&g).iter().all(|a| matches!(a, Action::Place { cell, .. } if *cell as usize != rc(1, 1))));
    assert_eq!(actions(&g).len(), 3 * 9);
}

#[test]
fn same_number_rule_in_row_column_and_garden() {
    let mut g = fixed(2, LineRule::Any);
    g.put_pebble(0, rc(1, 1), 5); // garden 1B
    let free = |g: &Hiroba, r, c| g.free_numbers(rc(r, c)) >> 5 & 1 == 1;
    assert!(!free(&g, 1, 5), "same row");
    assert!(!free(&g, 7, 1), "same column");
    assert!(!free(&g, 2, 0), "same garden (1B), other row and column");
    assert!(free(&g, 2, 3), "other row, column and garden");
    // Everybody's pebbles count: b starts on 3B*, a's 7 lands in 2B.
    g.put_pebble(1, rc(0, 8), 3);
    g.put_pebble(0, rc(1, 5), 7);
    let b_at = g.legal_numbers(1, rc(0, 5)); // 2B, row 0
    assert_eq!(b_at & (1 << 3 | 1 << 7), 0, "3 in the row (own), 7 in the garden (a's)");
    assert_eq!(b_at.count_ones(), 7);
    assert_eq!(g.legal_numbers(1, rc(0, 6)).count_ones(), 8, "3A: only the row's 3");
}

#[test]
fn equal_numbers_on_one_tile_in_different_gardens() {
    let mut g = fixed(2, LineRule::Any);
    g.apply(g.current, place(rc(1, 1), 5)); // tile 1, garden B
    g.apply(g.current, Action::NoStone);
    g.apply(g.current, place(rc(0, 8), 3)); // b on 3B*: b's row 0 reaches tile 1's garden A
    g.apply(g.current, Action::NoStone);
    assert_eq!(g.current, 0);
    g.apply(g.current, place(rc(2, 1), 9)); // a, column 1
    g.apply(g.current, Action::NoStone);
    // b may put a 5 on (0,2): tile 1 like a's 5, but garden 1A.
    assert_eq!(g.board.garden_of[rc(0, 2)] as usize, gi(1, 'A'));
    assert!(actions(&g).contains(&place(rc(0, 2), 5)));
    g.apply(g.current, place(rc(0, 2), 5));
    g.check_invariants().unwrap();
    // Garden 1B itself still takes no second 5, even off row 1 and column 1.
    assert_eq!(g.free_numbers(rc(2, 2)) >> 5 & 1, 0);
}

#[test]
fn line_rule_any_versus_last() {
    for rule in [LineRule::Any, LineRule::Last] {
        let mut g = fixed(2, rule);
        g.put_pebble(0, rc(1, 1), 5);
        g.put_pebble(0, rc(7, 1), 6); // same column, then row 7
        let t = g.targets(0);
        assert_eq!(t >> rc(7, 6) & 1, 1, "row of the last pebble");
        assert_eq!(t >> rc(3, 1) & 1, 1, "column shared by both");
        // Row 1 belongs only to the first pebble.
        assert_eq!(t >> rc(1, 5) & 1 == 1, rule == LineRule::Any, "{rule:?}");
        assert_eq!(t >> rc(4, 4) & 1, 0, "never a cell off every line");
        // Legal actions agree.
        g.begin_turn_from(0);
        let cells_of: Vec<usize> =
            actions(&g).iter().map(|a| if let Action::Place { cell, .. } = a { *cell as usize } else { 99 }).collect();
        assert_eq!(cells_of.contains(&rc(1, 5)), rule == LineRule::Any);
        assert!(cells_of.contains(&rc(7, 6)));
    }
}

// ------------------------------------------------------------------- stones

#[test]
fn stones_avoid_start_cells_until_every_first_pebble() {
    let mut g = fixed(2, LineRule::Any);
    g.apply(g.current, place(rc(1, 1), 5));
    assert_eq!((g.phase, g.action_kinds(g.current)), (Phase::Stone, 1 << KIND_STONE | 1 << KIND_PASS));
    let stones: Vec<usize> = actions(&g)
        .iter()
        .filter_map(|a| if let Action::Stone { cell } = a { Some(*cell as usize) } else { None })
        .collect();
    assert!(!stones.contains(&rc(0, 8)) && !stones.contains(&rc(4, 3)), "b has not placed a first pebble");
    assert_eq!(stones.len() as u32, (g.empty & !g.board.start).count_ones());
    assert!(stones.iter().all(|&c| g.board.land >> c & 1 == 1), "only land garden cells");
    g.apply(g.current, Action::NoStone);
    g.apply(g.current, place(rc(0, 8), 3));
    // Now every player has a first pebble: start cells take stones.
    assert!(actions(&g).contains(&Action::Stone { cell: rc(4, 3) as u8 }));
    g.apply(g.current, Action::Stone { cell: rc(1, 6) as u8 });
    assert_eq!((g.players[1].stones, g.players[1].stones_placed), (0, 1));
    // The stone blocks a's row 1 cell.
    assert_eq!(g.targets(0) >> rc(1, 6) & 1, 0);
    assert!(!actions(&g).iter().any(|a| matches!(a, Action::Place { cell, .. } if *cell as usize == rc(1, 6))));
    // Without stones left there is no stone decision.
    g.apply(g.current, place(rc(1, 3), 2));
    g.apply(g.current, Action::NoStone);
    g.apply(g.current, place(rc(0, 6), 4)); // b: no stone left, so the turn ends at once
    assert_eq!((g.current, g.phase), (0, Phase::Pebble));
    g.check_invariants().unwrap();
}

// ------------------------------------------------------------------- passing and the end

#[test]
fn a_player_who_cannot_place_passes_once_then_keeps_stone_turns() {
    let mut g = fixed(2, LineRule::Any);
    g.put_pebble(0, rc(1, 1), 5);
    g.put_pebble(1, rc(8, 7), 3);
    // Fill b's lines (row 8, column 7).
    for c in cells((ROW[8] | COL[7]) & g.empty) {
        block(&mut g, c);
    }
    g.begin_turn_from(1);
    assert_eq!((g.current, g.phase, g.action_kinds(g.current)), (1, Phase::Pebble, 1 << KIND_PASS));
    assert_eq!(actions(&g), vec![Action::Pass]);
    g.apply(g.current, Action::Pass);
    // b may still place a stone this turn.
    assert!(g.players[1].passed);
    assert_eq!((g.current, g.phase), (1, Phase::Stone));
    g.apply(g.current, Action::NoStone);
    assert_eq!((g.current, g.phase, g.turns), (0, Phase::Pebble, 1));
    let a = actions(&g)[0];
    g.apply(g.current, a);
    g.apply(g.current, Action::NoStone);
    // b's later turn is only the stone decision (no second pass).
    assert_eq!((g.current, g.phase), (1, Phase::Stone));
    let s = actions(&g)[0];
    g.apply(g.current, s);
    assert_eq!(g.players[1].stones, 0);
    // a plays on; b, out of pebbles to place and stones, is skipped (no turn).
    let a = actions(&g)[0];
    g.apply(g.current, a);
    g.apply(g.current, Action::NoStone);
    assert_eq!((g.current, g.phase, g.turns), (0, Phase::Pebble, 4));
    while !g.is_terminal() {
        let a = actions(&g)[0];
        g.apply(g.current, a);
        assert_ne!(g.current, 1, "b never acts again");
    }
    assert!(g.players[0].placed == PEBBLES || !g.has_placement(0));
    let mut m = Vec::new();
    g.metrics(1, &mut m);
    assert_eq!(m[6..8], [Some(1), Some(1)], "b placed 1 pebble and passed once");
}

#[test]
fn with_stone_turns_last_turn_the_pass_turns_stone_is_the_last() {
    let mut g = fixed(2, LineRule::Any);
    g.no_stone_turns = true;
    g.put_pebble(0, rc(1, 1), 5);
    g.put_pebble(1, rc(8, 7), 3);
    for c in cells((ROW[8] | COL[7]) & g.empty) {
        block(&mut g, c);
    }
    g.begin_turn_from(1);
    g.apply(g.current, Action::Pass);
    // The pass turn still offers the stone (b keeps both, declining).
    assert_eq!((g.current, g.phase), (1, Phase::Stone));
    g.apply(g.current, Action::NoStone);
    assert_eq!(g.players[1].stones, 1);
    // From now on only a acts: b, out of the pebble play, has no more turns, stone or not.
    let mut turns = 0;
    while !g.is_terminal() {
        assert_eq!((g.current, g.phase), (0, Phase::Pebble), "only a's pebble turns");
        let a = actions(&g)[0];
        g.apply(g.current, a);
        if g.phase == Phase::Stone {
            g.apply(g.current, Action::NoStone);
        }
        turns += 1;
    }
    assert!(turns > 0);
    assert_eq!(g.players[1].stones, 1, "b's stone stays unplaced");
}

#[test]
fn the_game_ends_after_the_last_placement_and_its_stone() {
    let mut g = fixed(2, LineRule::Any);
    g.put_pebble(0, rc(1, 1), 8);
    g.put_pebble(1, rc(8, 7), 3);
    g.players[1].passed = true;
    g.players[0].hand = [0, 0, 0, 0, 1]; // a's last pebble: the 5
    g.begin_turn_from(0);
    g.apply(g.current, place(rc(1, 4), 5));
    assert_eq!(g.phase, Phase::Stone, "the last player still decides on a stone");
    assert!(!g.is_terminal());
    g.apply(g.current, Action::Stone { cell: rc(2, 4) as u8 });
    assert!(g.is_terminal());
    assert_eq!(g.action_kinds(g.current), 0);
    assert!(actions(&g).is_empty());
    assert!(g.outcome.is_some());
}

#[test]
fn random_games_place_every_pebble_or_strand_them() {
    let v = parse(&json!({"line_rule": "last"}), 3, &Files::new()).unwrap();
    for seed in 0..50 {
        let mut g = Hiroba::new(&v, 3, deal_rng(seed, 1));
        let mut agent = RandomAgent::<Hiroba>::default();
        let mut rng = agent_rng(seed, 1, 0);
        while !g.is_terminal() {
            let a = agent.choose(&View::new(&g, g.current), &mut rng);
            g.apply(g.current, a);
        }
        for p in 0..3 {
            assert!(g.players[p].placed == PEBBLES || !g.has_placement(p), "seed {seed}");
        }
        assert!(g.turns >= 3 && g.turns <= 40);
    }
}

// ------------------------------------------------------------------- scoring

#[test]
fn koi_goes_to_the_lowest_sum_and_ties_share() {
    let pond = rc(0, 4); // next to (0,3) 2A, (0,5) 2B, (1,4) 2B
    let mut g = fixed(3, LineRule::Any);
    g.put_pebble(0, rc(0, 3), 1);
    g.put_pebble(0, rc(1, 4), 5);
    g.put_pebble(1, rc(0, 5), 4);
    let (sums, present) = pond_sums(&g, pond);
    assert_eq!((sums[..3].to_vec(), present), (vec![6, 4, 0], 0b011));
    assert_eq!(koi_winners(&sums, present), 0b010, "the lowest sum, not the lowest pebble");
    // A tie: each tied player gets a koi; a player without a pebble there gets nothing.
    let mut g = fixed(3, LineRule::Any);
    g.put_pebble(0, rc(0, 3), 2);
    g.put_pebble(1, rc(1, 4), 2);
    let (sums, present) = pond_sums(&g, pond);
    assert_eq!(koi_winners(&sums, present), 0b011);
    assert_eq!(scoring::score(&g).koi_won[..3], [1, 1, 0]);
    // Nobody next to a pond: nobody gets it.
    assert_eq!(koi_winners(&[0; 4], 0), 0);
}

#[test]
fn a_cell_next_to_two_ponds_counts_for_both() {
    let mut g = fixed(2, LineRule::Any);
    let two = rc(5, 1); // next to ponds (5,2) and (6,1)
    assert_eq!((NEIGHBOURS[two] & g.board.ponds).count_ones(), 2);
    g.put_pebble(0, two, 4);
    assert_eq!(scoring::score(&g).koi_won[..2], [2, 0]);
    g.put_pebble(1, rc(4, 2), 3); // next to (5,2) only
    assert_eq!(pond_sums(&g, rc(5, 2)).0[..2], [4, 3]);
    assert_eq!(scoring::score(&g).koi_won[..2], [1, 1]);
}

/// a: 8 and 1 in 1B (6 cells, the 1 next to pond (0,0)), 1 in 2A (2 cells, next to pond
/// (0,4)), 3 in 3A (2 cells, next to pond (1,7)), 4 in 2B; b: 9 on the start cell of 5B
/// (5 cells), 3 and 1 in 2B (a tie at 4).
fn koi_position() -> Hiroba {
    let mut g = fixed(2, LineRule::Any);
    for (p, r, c, v) in [(0, 1, 1, 8), (0, 1, 0, 1), (0, 0, 3, 1), (0, 0, 7, 3), (0, 2, 4, 4)] {
        g.put_pebble(p, rc(r, c), v);
    }
    for (p, r, c, v) in [(1, 4, 3, 9), (1, 2, 3, 3), (1, 2, 5, 1)] {
        g.put_pebble(p, rc(r, c), v);
    }
    g.check_invariants().unwrap();
    g
}

#[test]
fn kois_go_to_gardens_won_outright_one_each() {
    let g = koi_position();
    let o = scoring::score(&g);
    assert_eq!(o.koi_won[..2], [3, 0]);
    assert_eq!(o.garden_winners[gi(2, 'B')], 0b11, "2B is tied");
    assert_eq!(o.koi_cell[gi(2, 'B')], NO_CELL, "no koi in a tied garden");
    for (pos, garden) in [(1, 'B'), (2, 'A'), (3, 'A')] {
        assert_ne!(o.koi_cell[gi(pos, garden)], NO_CELL, "{pos}{garden}");
    }
    assert_eq!(o.koi_cell[gi(1, 'B')] as usize, rc(1, 2), "the first empty cell of 1B");
    assert_eq!(o.koi_placed[..2], [3, 0]);
    // a: 1B 6×2 + 2A 2×2 + 3A 2×2 + tied 2B 6 = 26; b: 5B 5 + 2B 6 = 11.
    assert_eq!(o.scores[..2], [26, 11]);
    assert_eq!((o.gardens_won[..2].to_vec(), o.gardens_tied[..2].to_vec()), (vec![3, 1], vec![1, 1]));
}

#[test]
fn kois_go_to_the_largest_eligible_gardens_first() {
    let mut g = koi_position();
    g.put_pebble(1, rc(2, 7), 2); // b: 2 < a's 3 at pond (1,7); b also wins 3B outright
    let o = scoring::score(&g);
    assert_eq!(o.koi_won[..2], [2, 1]);
    // a's two kois: 1B (6 cells), then 2A before 3A (2 cells each, lower index first).
    assert_ne!(o.koi_cell[gi(1, 'B')], NO_CELL);
    assert_ne!(o.koi_cell[gi(2, 'A')], NO_CELL);
    assert_eq!(o.koi_cell[gi(3, 'A')], NO_CELL);
    // b's koi: 3B (6 cells) before 5B (5 cells).
    assert_ne!(o.koi_cell[gi(3, 'B')], NO_CELL);
    assert_eq!(o.koi_cell[gi(5, 'B')], NO_CELL);
    // a: 12 + 4 + 2 + 6 = 24; b: 3B 12 + 5B 5 + 2B 6 = 23.
    assert_eq!(o.scores[..2], [24, 23]);
}

#[test]
fn a_koi_needs_an_empty_cell_else_it_scores_one() {
    // Three kois, two eligible gardens: one koi per garden, the third scores 1.
    let mut g = koi_position();
    block(&mut g, rc(0, 6)); // 3A is now full
    let o = scoring::score(&g);
    assert_eq!(o.koi_cell[gi(3, 'A')], NO_CELL);
    assert_eq!((o.koi_placed[0], o.koi_points[0]), (2, 1));
    // 12 + 4 + 2 + 6 + 1 unplaced koi.
    assert_eq!(o.scores[0], 25);
}

#[test]
fn tied_gardens_score_for_every_tied_player() {
    let mut g = fixed(3, LineRule::Any);
    g.put_pebble(0, rc(2, 3), 6); // 2B: a 6, b 2 + 4, c 5
    g.put_pebble(1, rc(2, 4), 2);
    g.put_pebble(1, rc(2, 5), 4);
    g.put_pebble(2, rc(1, 5), 5);
    let o = scoring::score(&g);
    assert_eq!(o.garden_winners[gi(2, 'B')], 0b011);
    assert_eq!(o.scores[..3], [6, 6, 0]);
    assert_eq!((o.gardens_won[..3].to_vec(), o.gardens_tied[..3].to_vec()), (vec![0, 0, 0], vec![1, 1, 0]));
    // A garden without pebbles is nobody's.
    assert_eq!(o.garden_winners[gi(5, 'A')], 0);
}

#[test]
fn tie_break_is_gardens_won_outright() {
    let mut g = fixed(2, LineRule::Any);
    g.put_pebble(0, rc(1, 3), 3); // 2A (2 cells)
    g.put_pebble(0, rc(0, 6), 3); // 3A (2 cells)
    g.put_pebble(1, rc(7, 6), 5); // 9A (4 cells)
    assert_eq!(g.score_vec(), vec![4, 4]);
    assert_eq!(g.tiebreaks(), vec![2, 1], "a wins the tie-break");
    assert_eq!(crate::game::ranks_and_wins(&g.scores(), &g.tiebreaks()), (vec![1, 2], vec![1.0, 0.0]));
}

// ------------------------------------------------------------------- logs and agents

#[test]
fn replay_is_readable_and_matches_simulate() {
    let agents: Vec<String> = vec!["mcts:iters=20".into(), "greedy".into(), "random".into()];
    let variant = json!({"line_rule": "last"});
    let cols =
        batch::simulate::<Hiroba>(&crate::batch::BatchSpec::new(&variant, &Default::default(), &agents, 9, true), 0, 6)
            .unwrap();
    for index in 0..6u64 {
        let r = batch::replay::<Hiroba>(
            &crate::batch::BatchSpec::new(&variant, &Default::default(), &agents, 9, true),
            index,
        )
        .unwrap();
        let events = r["events"].as_array().unwrap();
        let kinds: Vec<&str> = events.iter().map(|e| e["event"].as_str().unwrap()).collect();
        assert_eq!(kinds[0], "setup");
        assert_eq!(events[0]["board"].as_array().unwrap().len(), 9);
        assert_eq!(events[0]["tile_set"], "built-in");
        for k in ["action", "koi", "koi_placement", "garden", "final_scores", "board"] {
            assert!(kinds.contains(&k), "{k}");
        }
        let board = events.last().unwrap();
        assert_eq!(board["event"], "board");
        let rows: Vec<&str> = board["rows"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        assert_eq!(rows.len(), 9);
        let pebbles = rows
            .iter()
            .flat_map(|r| r.split_whitespace())
            .filter(|t| t.starts_with(|c: char| c.is_ascii_digit()))
            .count();
        let placed: i64 = (0..3).map(|p| cols.metrics[6][index as usize * 3 + p].unwrap()).sum();
        assert_eq!(pebbles as i64, placed, "{rows:?}");
        for (q, row) in r["result"].as_array().unwrap().iter().enumerate() {
            let i = index as usize * 3 + row["player"].as_u64().unwrap() as usize;
            assert_eq!(row["score"].as_i64().unwrap(), cols.score[i], "game {index} position {q}");
            assert_eq!(row["win"].as_f64().unwrap(), cols.win[i]);
            assert_eq!(row["gardens_won"].as_i64(), cols.metrics[0][i]);
        }
        assert_eq!(r["turns"].as_i64().unwrap(), cols.turns[index as usize * 3] as i64);
    }
}

#[test]
fn action_json_names_the_cell_and_the_pebble() {
    let g = fixed(2, LineRule::Any);
    let j = g.action_json(0, &place(rc(1, 1), 7));
    assert_eq!(j, json!({"type": "pebble", "row": 1, "col": 1, "garden": "1B", "number": 7, "pebble": "3/7"}));
    assert_eq!(g.action_json(0, &Action::Pass), json!({"type": "pass"}));
    assert_eq!(g.board_rows()[1], ".   *   .   | .   .   .   | .   P   .");
}

#[test]
fn every_agent_plays_through_the_batch_runner() {
    for (n, spec) in [(2, "random"), (3, "greedy"), (4, "mcts:iters=30"), (2, "mcts:iters=50")] {
        let agents: Vec<String> = (0..n).map(|_| spec.to_string()).collect();
        let games = if spec.starts_with("mcts") { 2 } else { 20 };
        let a = batch::simulate::<Hiroba>(
            &crate::batch::BatchSpec::new(&json!({}), &Default::default(), &agents, 3, true),
            0,
            games,
        )
        .unwrap();
        let b = batch::simulate::<Hiroba>(
            &crate::batch::BatchSpec::new(&json!({}), &Default::default(), &agents, 3, true),
            0,
            games,
        )
        .unwrap();
        assert_eq!(a, b, "{spec}: reproducible");
        assert_eq!(a.score.len(), games as usize * n);
        assert_eq!(a.metrics.len(), Hiroba::metric_specs().len());
        assert!(a.score.iter().all(|&s| s > 0), "{spec}");
    }
}

#[test]
fn greedy_beats_random() {
    let agents = ["greedy".to_string(), "random".to_string()];
    let cols = batch::simulate::<Hiroba>(
        &crate::batch::BatchSpec::new(&json!({}), &Default::default(), &agents, 1, true),
        0,
        200,
    )
    .unwrap();
    let greedy: f64 = cols.win.iter().zip(&cols.player).filter(|(_, p)| **p == 0).map(|(w, _)| w).sum();
    assert!(greedy >= 180.0, "greedy won {greedy} of 200");
}

#[test]
fn determinize_is_the_state_itself() {
    let v = parse(&json!({}), 2, &Files::new()).unwrap();
    let mut g = Hiroba::new(&v, 2, deal_rng(2, 2));
    g.apply(g.current, actions(&g)[3]);
    let d = g.determinize(1, &mut agent_rng(1, 1, 1));
    assert_eq!(d.board, g.board);
    assert_eq!((d.owner, d.current, d.phase, d.players), (g.owner, g.current, g.phase, g.players));
}

// ------------------------------------------------------------------- invariant run

fn variants() -> Vec<Value> {
    vec![
        json!({}),
        json!({"line_rule": "last"}),
        json!({"rotate_tiles": false, "water_tiles": "random"}),
        json!({"line_rule": "last", "water_tiles": "random"}),
    ]
}

/// Whether `p` may place `number` on `cell`, straight from the board (no caches).
fn naive_legal(g: &Hiroba, p: usize, cell: usize, number: u8) -> bool {
    let me = &g.players[p];
    let g_of = |c: usize| g.board.garden_of[c];
    if g_of(cell) == NO_GARDEN || g.owner[cell] != NOBODY || g.stones >> cell & 1 == 1 {
        return false;
    }
    if me.hand[pebble_kind(number)] == 0 {
        return false;
    }
    let in_line = |a: usize, b: usize| row_of(a) == row_of(b) || col_of(a) == col_of(b);
    let placed_ok = if me.placed == 0 {
        g.board.start >> cell & 1 == 1
    } else {
        match g.line_rule {
            LineRule::Any => (0..N_CELLS).any(|c| g.owner[c] == p as u8 && in_line(c, cell)),
            LineRule::Last => in_line(me.last as usize, cell),
        }
    };
    let repeated = (0..N_CELLS)
        .any(|c| g.number[c] == number && (in_line(c, cell) || (g_of(c) == g_of(cell) && g_of(c) != NO_GARDEN)));
    placed_ok && !repeated
}

fn naive_placements(g: &Hiroba, p: usize) -> Vec<Action> {
    let mut out = Vec::new();
    for cell in 0..N_CELLS {
        for v in 1..=9 {
            if naive_legal(g, p, cell, v) {
                out.push(place(cell, v));
            }
        }
    }
    out
}

/// The scores recomputed from the board alone.
fn naive_scores(g: &Hiroba) -> Vec<i64> {
    let n = g.n;
    let mut kois = vec![0i64; n];
    for pond in cells(g.board.ponds) {
        let mut sums = vec![None::<u32>; n];
        for c in cells(NEIGHBOURS[pond]) {
            if g.owner[c] != NOBODY {
                let s = sums[g.owner[c] as usize].get_or_insert(0);
                *s += g.number[c] as u32;
            }
        }
        if let Some(low) = sums.iter().flatten().min().copied() {
            for p in 0..n {
                kois[p] += i64::from(sums[p] == Some(low));
            }
        }
    }
    let mut scores = vec![0i64; n];
    let mut outright: Vec<Vec<(u32, usize, bool)>> = vec![Vec::new(); n];
    for gi in 0..N_GARDENS {
        let garden = g.board.gardens[gi];
        let mut sums = vec![0u32; n];
        for c in cells(garden) {
            if g.owner[c] != NOBODY {
                sums[g.owner[c] as usize] += g.number[c] as u32;
            }
        }
        let best = sums.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..n).filter(|&p| best > 0 && sums[p] == best).collect();
        for &p in &winners {
            scores[p] += garden.count_ones() as i64;
        }
        if winners.len() == 1 {
            let has_empty = cells(garden).any(|c| g.owner[c] == NOBODY && g.stones >> c & 1 == 0);
            outright[winners[0]].push((garden.count_ones(), gi, has_empty));
        }
    }
    for p in 0..n {
        let mut eligible: Vec<u32> = outright[p].iter().filter(|x| x.2).map(|x| x.0).collect();
        eligible.sort_by(|a, b| b.cmp(a));
        let placed = eligible.len().min(kois[p] as usize);
        scores[p] += eligible[..placed].iter().map(|&s| s as i64).sum::<i64>() + kois[p] - placed as i64;
    }
    scores
}

/// Plays random games checking, after every action: conservation, the number rules,
/// every pebble and stone on land, the start-cell and line rules (from the board alone),
/// the stone allowance; every 50th game also compares the legal placements with a naive
/// enumeration; at the end, that nobody could still place and the scores. Returns the
/// number of actions checked, of passes, and of stone decisions by players out of the
/// pebble play.
pub fn invariant_run(games: u64, seed: u64) -> (u64, u64, u64) {
    let (mut actions, mut passes, mut out_stones) = (0, 0, 0);
    let vs = variants();
    let parsed: Vec<Vec<_>> =
        vs.iter().map(|v| (2..=4).map(|n| parse(v, n, &Files::new()).expect("variant")).collect()).collect();
    let mut legal = Vec::new();
    for i in 0..games {
        let n = 2 + (i % 3) as usize;
        let v = &parsed[(i / 3) as usize % vs.len()][n - 2];
        let mut g = Hiroba::new(v, n, deal_rng(seed, i));
        let mut agents: Vec<RandomAgent<Hiroba>> = (0..n).map(|_| RandomAgent::default()).collect();
        let mut rngs: Vec<_> = (0..n).map(|p| agent_rng(seed, i, p as u64)).collect();
        g.check_invariants().unwrap_or_else(|e| panic!("game {i} set-up: {e}"));
        let full_check = i % 50 == 0;
        while !g.is_terminal() {
            let q = g.current;
            if full_check && g.phase == Phase::Pebble {
                legal.clear();
                g.legal_actions(g.current, Some(KIND_PEBBLE), &mut legal);
                assert_eq!(legal, naive_placements(&g, q), "game {i}: legal placements");
            }
            let a = agents[q].choose(&View::new(&g, g.current), &mut rngs[q]);
            out_stones += u64::from(g.phase == Phase::Stone && !g.in_play(q));
            match a {
                Action::Place { cell, number } => {
                    assert!(naive_legal(&g, q, cell as usize, number), "game {i}: {a:?} breaks a rule");
                }
                Action::Pass => {
                    assert!(naive_placements(&g, q).is_empty(), "game {i}: pass with a placement");
                    passes += 1;
                }
                Action::Stone { cell } => {
                    let c = cell as usize;
                    let waiting = (0..n).any(|p| g.in_play(p) && g.players[p].placed == 0);
                    assert!(g.empty >> c & 1 == 1 && g.board.land >> c & 1 == 1, "game {i}: stone on a full cell");
                    assert!(!(waiting && g.board.start >> c & 1 == 1), "game {i}: stone on a start cell too early");
                    assert!(g.players[q].stones > 0);
                }
                Action::NoStone => {}
            }
            g.apply(g.current, a);
            actions += 1;
            g.check_invariants().unwrap_or_else(|e| panic!("game {i} after {a:?}: {e}"));
            assert!(g.turns <= 9 * n as u32, "game {i} runs past 9 rounds");
        }
        for p in 0..n {
            assert!(!g.in_play(p) || naive_placements(&g, p).is_empty(), "game {i}: player {p} could still place");
            assert!(g.players[p].placed > 0, "game {i}: every player placed a first pebble");
        }
        let scores = g.scores();
        assert_eq!(scores, naive_scores(&g), "game {i}: scores");
        let o = g.outcome.expect("scored");
        for (p, &score) in scores.iter().enumerate() {
            assert!(o.koi_placed[p] <= o.koi_won[p] && o.koi_placed[p] <= o.gardens_won[p]);
            assert_eq!(score, o.garden_points[p] + o.koi_points[p]);
        }
    }
    (actions, passes, out_stones)
}

#[test]
fn invariants_hold_in_random_play() {
    let games = std::env::var("BALANCELAB_INVARIANT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let t = std::time::Instant::now();
    let (actions, passes, out_stones) = invariant_run(games, 2026);
    eprintln!(
        "hiroba invariant run: {games} games, {actions} actions ({passes} passes, {out_stones} stone decisions \
         after leaving the pebble play) in {:.1}s",
        t.elapsed().as_secs_f64()
    );
    assert!(actions > games * 18);
    if games >= 1_000 {
        assert!(passes > 0 && out_stones > 0, "the run reaches passing");
    }
}
