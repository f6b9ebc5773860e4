//! Hand-worked positions, map checks, and the random-play invariant run.
//!
//! Built-in map nodes: cities Delhi 0 (start), Agra 1, Jaipur 2, Udaipur 3, Bhopal 4,
//! Varanasi 5, Lucknow 6, Kashmir 7; villages by road: Delhi-Agra 8, 9; Delhi-Jaipur 10;
//! Delhi-Udaipur 11; Delhi-Bhopal 12; Delhi-Varanasi 13; Delhi-Lucknow 14; Delhi-Kashmir
//! 15; Agra-Jaipur 16, 17; Jaipur-Udaipur 18, 19; Udaipur-Bhopal 20, 21; ...

use super::map::{Map, BUILTIN, N_CITIES};
use super::state::*;
use super::variant::{Readings, Reveal, Variant};
use crate::game::{Game, Record};
use crate::rng::{below, deal_rng, Rng};

const DELHI: u8 = 0;
const JAIPUR: u8 = 2;
const UDAIPUR: u8 = 3;
const BHOPAL: u8 = 4;
const V_DELHI_JAIPUR: u8 = 10;
const V_DELHI_UDAIPUR: u8 = 11;
const V_DELHI_BHOPAL: u8 = 12;
const V_JAIPUR_UDAIPUR: [u8; 2] = [18, 19];

/// The default rules with the powers always applied (the hand-worked positions below were
/// written for that reading; `powers = optional` has its own tests).
fn always() -> Variant {
    let mut v = Variant::standard();
    v.readings.powers_optional = false;
    v
}

fn do_op(op: Op) -> Action {
    Action::Do { op, by: Source::Wheel }
}

/// A game after set-up: player p holds character `chars[p]` (index), starting houses in
/// the given villages (4 per player, in order of character), round 1 with no wheel set.
fn game_with(v: &Variant, n: usize, chars: &[usize], villages: &[u8]) -> Maharaja {
    let mut g = Maharaja::new(v, n, deal_rng(1, 0));
    for (p, &c) in chars.iter().enumerate().take(n) {
        act(&mut g, p, Action::Pick { card: c as u8 });
    }
    assert_eq!(g.phase, Phase::StartHouses);
    for &vil in villages {
        let p = g.actor;
        act(&mut g, p, Action::StartHouse { village: vil });
    }
    assert_eq!(g.phase, Phase::Wheel, "set-up done");
    g.check_invariants().unwrap();
    g
}

/// A 3-player game (Mogul, Trader, Sadhu) with houses off the roads from Delhi.
fn three() -> Maharaja {
    game_with(&always(), 3, &[MOGUL, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35])
}

/// Sets the wheels and starts the turns.
fn wheels(g: &mut Maharaja, w: &[[u8; 2]]) {
    for (p, pair) in w.iter().enumerate() {
        act(g, p, Action::Wheel { first: pair[0].min(pair[1]), second: pair[0].max(pair[1]) });
    }
}

/// Plays an action after checking that it is legal (the engine checks only in debug builds).
fn act(g: &mut Maharaja, p: usize, a: Action) {
    assert!(legal(g, p).contains(&a), "illegal {a:?} for player {p} in {:?} (actor {})", g.phase, g.actor);
    g.apply(p, a);
}

fn legal(g: &Maharaja, p: usize) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(p, None, &mut out);
    out
}

// ------------------------------------------------------------------ map

#[test]
fn builtin_map_has_the_published_shape() {
    let m = Map::builtin();
    assert_eq!(m.names.len(), 8);
    assert_eq!(m.n_villages, 30);
    assert_eq!(m.roads.len(), 18);
    assert_eq!(m.roads.iter().filter(|r| r.villages().count() == 2).count(), 12);
    assert_eq!(m.roads.iter().filter(|r| r.villages().count() == 1).count(), 6);
    assert!((0..N_CITIES).all(|c| m.city_roads[c].len() >= 3));
    assert_eq!(m.city_roads[0].len(), 7, "the start is central: a road to every city");
    let mut homes: Vec<u8> = m.home[1..].to_vec();
    homes.sort_unstable();
    assert_eq!(homes, vec![1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(m.site_name(10), "village 3 (Delhi-Jaipur)");
}

fn broken(from: &str, to: &str) -> String {
    assert!(BUILTIN.contains(from), "{from}");
    Map::parse(&BUILTIN.replacen(from, to, 1)).expect_err("must be refused")
}

#[test]
fn bad_maps_are_refused_naming_the_city_or_road() {
    assert_eq!(
        broken("road Delhi Jaipur   1", "road Jaipur Jaipur 1"),
        "road Jaipur-Jaipur: a road must join two different cities"
    );
    assert_eq!(broken("road Delhi Jaipur   1", "road Delhi Jaypur 1"), "road Delhi-Jaypur: unknown city Jaypur");
    assert_eq!(broken("road Delhi Jaipur   1", "road Delhi Jaipur 3"), "road Delhi-Jaipur: 3 villages, allowed 1 or 2");
    assert_eq!(
        broken("road Agra     Varanasi 2", "road Agra     Varanasi 2\nroad Varanasi Agra 1"),
        "road Varanasi-Agra: a second road between the same two cities"
    );
    assert_eq!(broken("city  Jaipur    3    8   1", "city  Agra 3 8 1"), "city Agra: the name is used twice");
    assert_eq!(
        broken("city  Jaipur    3    8   1", "city  Jaipur 3 8 3"),
        "city Jaipur: home character 3 is already another city's"
    );
    assert_eq!(
        broken("city  Jaipur    3    8   1", "city  Jaipur 3 8 9"),
        "city Jaipur: home character `9` is not a number 1-7"
    );
    assert_eq!(broken("city  Jaipur    3    8   1", ""), "6 `city` lines, need exactly 7 (one per governor)");
    // Jaipur keeps only the ring roads: 2 roads.
    assert_eq!(broken("road Delhi Jaipur   1", ""), "city Jaipur: on 2 roads, needs at least 3");
    // Moving Jaipur across the map makes its roads cross others.
    let e = broken("city  Jaipur    3    8   1", "city  Jaipur    30   30   1");
    assert!(e.starts_with("road ") && e.contains("crosses road"), "{e}");
    let e = broken("city  Jaipur    3    8   1", "city  Jaipur    -1   10   1");
    assert!(e.contains("passes through city") || e.contains("crosses"), "{e}");
    assert_eq!(
        broken("start Delhi", "start Delhi Delhi"),
        "line 29: expected `start NAME X Y`, found `start Delhi Delhi -2 0`"
    );
}

#[test]
fn a_disconnected_map_is_refused() {
    // Two triangles-with-extra-roads far apart: every city on 3 roads, no planarity problem.
    let text = "start S 0 0\ncity A 1 0 1\ncity B 0 1 2\ncity C 1 1 3\n\
                city D 10 10 4\ncity E 11 10 5\ncity F 10 11 6\ncity G 11 11 7\n\
                road S A 1\nroad S B 1\nroad S C 1\nroad A B 1\nroad A C 1\nroad B C 1\n\
                road D E 1\nroad D F 1\nroad D G 1\nroad E F 1\nroad E G 1\nroad F G 1\n";
    assert_eq!(Map::parse(text).unwrap_err(), "city D: not reachable from the starting city S");
}

// ------------------------------------------------------------------ set-up and rounds

#[test]
fn setup_order_houses_and_first_round() {
    let g = three();
    // Characters: player 0 Mogul, 1 Trader, 2 Sadhu; houses placed 0, 1, 2, 0, 1, 2, ...
    assert_eq!(g.houses[24][0], 1);
    assert_eq!(g.houses[25][1], 1);
    assert_eq!(g.houses[26][2], 1);
    assert_eq!(g.supply[..3], [SUPPLY_AFTER_SETUP; 3]);
    assert_eq!(g.quarry[..3], [10; 3]);
    assert_eq!(g.gold[..3], [15; 3]);
    assert_eq!(g.round, 1);
    // The lowest governor went to numbered place 1 and the Maharaja to its city.
    assert_eq!(g.track[FIRST_NUMBERED], g.maharaja);
    assert_eq!(g.track[0], EMPTY);
    assert_eq!(g.acting(), 0b111, "all three set their wheels at once");
    assert_eq!(g.start_seat[..3], [0, 1, 2]);
}

#[test]
fn start_seat_follows_the_characters() {
    let g = game_with(&always(), 3, &[BUILDER, MOGUL, ARTISAN], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    // Player 1 (Mogul) places first.
    assert_eq!(g.houses[24][1], 1);
    assert_eq!(g.houses[25][0], 1);
    assert_eq!(g.houses[26][2], 1);
    assert_eq!(g.start_seat[..3], [1, 0, 2]);
}

#[test]
fn two_player_villages_take_one_house() {
    let mut g = Maharaja::new(&always(), 2, deal_rng(1, 0));
    act(&mut g, 0, Action::Pick { card: 0 });
    act(&mut g, 1, Action::Pick { card: 1 });
    act(&mut g, 0, Action::StartHouse { village: 20 });
    assert!(!legal(&g, 1).contains(&Action::StartHouse { village: 20 }));
    let mut g = Maharaja::new(&always(), 3, deal_rng(1, 0));
    for p in 0..3 {
        act(&mut g, p, Action::Pick { card: p as u8 });
    }
    act(&mut g, 0, Action::StartHouse { village: 20 });
    act(&mut g, 1, Action::StartHouse { village: 20 });
    assert!(!legal(&g, 2).contains(&Action::StartHouse { village: 20 }));
}

#[test]
fn wheel_choices_commute_and_resolve_in_character_order() {
    let mut a = three();
    let mut b = a.clone();
    wheels(&mut a, &[[GOLD, GOLD], [GOLD, QUARRY], [HOUSE, GOLD]]);
    act(&mut b, 2, Action::Wheel { first: GOLD, second: HOUSE });
    assert_eq!(b.acting(), 0b011, "player 2 has chosen");
    act(&mut b, 0, Action::Wheel { first: GOLD, second: GOLD });
    act(&mut b, 1, Action::Wheel { first: GOLD, second: QUARRY });
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    assert_eq!(a.phase, Phase::Turn);
    assert_eq!(a.actor, 0, "the Mogul acts first");
}

// ------------------------------------------------------------------ travel

#[test]
fn travel_needs_houses_and_pays_tolls() {
    let mut g = three();
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    // Every village next to Delhi is empty: no travel.
    assert_eq!(g.travel_targets(0), 0);
    g.put_house(1, V_DELHI_JAIPUR as usize);
    g.put_house(2, V_DELHI_JAIPUR as usize);
    g.supply[1] -= 1;
    g.supply[2] -= 1;
    assert_eq!(g.travel_targets(0), 1 << JAIPUR);
    act(&mut g, 0, Action::Travel { city: JAIPUR, route: 0, own_toll: false });
    assert_eq!(g.architect[0], JAIPUR);
    assert_eq!(g.gold[..3], [13, 16, 16], "1 gold to each owner");
    assert_eq!(g.travel_targets(0), 0, "once between two steps");
    g.check_invariants().unwrap();
}

#[test]
fn own_house_makes_a_village_free_and_routes_are_cheapest() {
    let mut g = three();
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    // Delhi-Udaipur direct: two houses of player 1 (toll 2). Via Jaipur: player 0's own
    // house on Delhi-Jaipur, then Jaipur-Udaipur with one house of player 2 in each village (toll 2).
    g.houses[V_DELHI_UDAIPUR as usize][1] = 2;
    g.site_houses[V_DELHI_UDAIPUR as usize] = 2;
    g.put_house(0, V_DELHI_JAIPUR as usize);
    g.put_house(2, V_JAIPUR_UDAIPUR[0] as usize);
    g.put_house(2, V_JAIPUR_UDAIPUR[1] as usize);
    let r = g.routes(0);
    assert_eq!(r.cost[JAIPUR as usize], 0);
    assert_eq!(r.cost[UDAIPUR as usize], 2);
    // One more house of player 0 on Jaipur-Udaipur makes that way cost 1.
    g.put_house(0, V_JAIPUR_UDAIPUR[1] as usize);
    assert_eq!(g.routes(0).cost[UDAIPUR as usize], 1);
    act(&mut g, 0, Action::Travel { city: UDAIPUR, route: 0, own_toll: false });
    assert_eq!(g.gold[..3], [14, 15, 16], "paid player 2 for the first village only");
}

#[test]
fn unaffordable_tolls_close_the_road_and_the_monk_lets_the_bank_pay() {
    let mut g = game_with(&always(), 3, &[MOGUL, MONK, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    g.houses[V_DELHI_BHOPAL as usize][2] = 2;
    g.site_houses[V_DELHI_BHOPAL as usize] = 2;
    g.gold[0] = 1;
    assert_eq!(g.travel_targets(0), 0, "a toll of 2 with 1 gold");
    g.gold[0] = 15;
    act(&mut g, 0, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    // Player 1 holds the Wandering Monk: the bank pays player 2.
    assert_eq!(g.actor, 1);
    g.gold[1] = 0;
    assert_eq!(g.travel_targets(1), 1 << BHOPAL);
    let before = g.gold;
    act(&mut g, 1, Action::Travel { city: BHOPAL, route: 0, own_toll: false });
    assert_eq!(g.gold[1], 0);
    assert_eq!(g.gold[2], before[2] + 2);
}

// ------------------------------------------------------------------ actions

/// Player 0's turn in `three()` with the architect in Jaipur.
fn turn_in_jaipur(w: [u8; 2]) -> Maharaja {
    let mut g = three();
    wheels(&mut g, &[w, [GOLD, GOLD], [GOLD, GOLD]]);
    g.architect[0] = JAIPUR;
    g
}

#[test]
fn gold_quarry_and_house_actions() {
    let mut g = turn_in_jaipur([GOLD, QUARRY]);
    act(&mut g, 0, do_op(Op::Gold));
    assert_eq!(g.gold[0], 17);
    act(&mut g, 0, do_op(Op::Quarry));
    assert_eq!((g.supply[0], g.quarry[0]), (8, 8));
    let mut g = turn_in_jaipur([HOUSE, TWO_HOUSES]);
    let houses = legal(&g, 0).iter().filter(|a| matches!(a, Action::Do { op: Op::House { .. }, .. })).count();
    // Jaipur + the villages with room (30, of which 12 hold one house: still room).
    assert_eq!(houses, 31);
    assert!(!legal(&g, 0).contains(&do_op(Op::House { site: DELHI })));
    act(&mut g, 0, do_op(Op::House { site: 20 }));
    assert_eq!((g.gold[0], g.supply[0], g.houses[20][0]), (14, 5, 1));
    act(&mut g, 0, do_op(Op::TwoHouses { second: JAIPUR }));
    assert_eq!((g.gold[0], g.supply[0], g.houses[JAIPUR as usize][0]), (12, 3, 2));
    g.check_invariants().unwrap();
}

#[test]
fn move_house_and_partial_two_houses() {
    let mut g = turn_in_jaipur([MOVE_HOUSE, TWO_HOUSES]);
    act(&mut g, 0, do_op(Op::MoveHouse { from: 24, to: JAIPUR }));
    assert_eq!((g.houses[24][0], g.houses[JAIPUR as usize][0]), (0, 1));
    assert_eq!(g.supply[0], 6, "moving is free and takes no house from the supply");
    g.supply[0] = 1;
    g.quarry[0] += 5;
    // Only one house left: the second house is dropped and the action is forfeited.
    assert!(!legal(&g, 0).contains(&do_op(Op::TwoHouses { second: JAIPUR })));
    act(&mut g, 0, do_op(Op::TwoHouses { second: NONE }));
    assert_eq!(g.houses[JAIPUR as usize][0], 2);
    // Paid 1; the others took 2 each for the forfeit; nothing was left to do, so the turn
    // ended and the Trader (player 1) took 1 at the start of theirs.
    assert_eq!(g.gold[..3], [14, 18, 17]);
    assert_eq!(g.actor, 1);
    assert_eq!(g.stats[0].forfeits, 1);
}

#[test]
fn palaces_cost_12_or_9_and_the_first_is_central() {
    let mut g = turn_in_jaipur([PALACE, PALACE_HOUSE]);
    act(&mut g, 0, do_op(Op::Palace { full_price: false }));
    assert_eq!((g.gold[0], g.palaces_built[0], g.central[JAIPUR as usize]), (3, 1, 0));
    // One palace per city (default), and no gold for another.
    assert!(!legal(&g, 0).iter().any(|a| matches!(a, Action::Do { op: Op::PalaceHouse { .. }, .. })));
    // Player 2 (Sadhu) builds the second palace in Jaipur: outer.
    let mut g = three();
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [PALACE_HOUSE, GOLD]]);
    act(&mut g, 0, do_op(Op::Gold));
    act(&mut g, 0, do_op(Op::Gold));
    while g.actor != 2 {
        let p = g.actor;
        act(&mut g, p, Action::EndTurn);
    }
    g.architect[2] = JAIPUR;
    g.central[JAIPUR as usize] = 0;
    g.palaces[JAIPUR as usize][0] = 1;
    g.city_palaces[JAIPUR as usize] = 1;
    g.palaces_built[0] = 1;
    act(&mut g, 2, do_op(Op::PalaceHouse { site: 20, full_price: false }));
    assert_eq!(g.gold[2], 15 + 4 - 12 - 1, "two forfeits of player 1 paid 4; palace 12, house 1");
    assert_eq!(g.central[JAIPUR as usize], 0);
    assert_eq!(g.palaces[JAIPUR as usize][2], 1);
    // Points in Jaipur: player 0 central 3 (architect elsewhere now); player 2 architect 1
    // + outer palace as Sadhu 2.
    g.architect[0] = DELHI;
    let pts = g.city_points(JAIPUR as usize);
    assert_eq!(pts[..3], [3, 0, 3]);
}

#[test]
fn the_artisan_pays_nine() {
    let mut g = game_with(&always(), 3, &[ARTISAN, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    wheels(&mut g, &[[PALACE, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    // Trader (player 1) acts first.
    assert_eq!(g.actor, 1);
    assert_eq!(g.gold[1], 16, "the Trader takes 1 at the start of their turn");
    act(&mut g, 1, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    assert_eq!(g.actor, 0);
    g.architect[0] = BHOPAL;
    let before = g.gold[0];
    act(&mut g, 0, do_op(Op::Palace { full_price: false }));
    assert_eq!(g.gold[0], before - 9);
}

#[test]
fn forfeits_pay_two_gold_to_every_other_player_per_action() {
    let mut g = three();
    wheels(&mut g, &[[PALACE, PALACE], [GOLD, GOLD], [GOLD, GOLD]]);
    // Player 0 in Delhi cannot build a palace: ending the turn forfeits both actions.
    assert!(!legal(&g, 0).iter().any(|a| matches!(a, Action::Do { .. })));
    act(&mut g, 0, Action::EndTurn);
    assert_eq!(g.gold[..3], [15, 19 + 1, 19], "4 each; the Trader's 1 at the start of their turn");
    assert_eq!(g.stats[0].forfeits, 2);
    g.check_invariants().unwrap();
}

#[test]
fn governor_moves_two_down_and_the_two_below_move_up() {
    let mut g = three();
    g.track = [0; TRACK_LEN];
    g.track[8..15].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    g.move_governor(4); // place index 11
    assert_eq!(g.track[8..15], [1, 4, 2, 3, 5, 6, 7]);
    // Gaps: the empty places move up like governors.
    g.track = [0; TRACK_LEN];
    g.track[8] = 1;
    g.track[10] = 2;
    g.track[12] = 3;
    g.track[13] = 4;
    g.track[14] = 5;
    g.track[15] = 6;
    g.track[16] = 7;
    g.move_governor(3); // place 12: to 10; 10 → 11, 11 (empty) → 12
    assert_eq!(g.track[8..17], [1, 0, 3, 2, 0, 4, 5, 6, 7]);
    // One place above the bottom: to the bottom place.
    g.track = [0; TRACK_LEN];
    g.track[0..7].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    g.move_governor(2);
    assert_eq!(g.track[0..7], [2, 1, 3, 4, 5, 6, 7]);
    let gov: Vec<Action> = legal(
        &{
            let mut h = three();
            wheels(&mut h, &[[GOVERNOR, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
            h
        },
        0,
    )
    .into_iter()
    .filter(|a| matches!(a, Action::Do { op: Op::Governor { .. }, .. }))
    .collect();
    assert_eq!(gov.len(), 7, "every governor is off the bottom place after the first move");
}

#[test]
fn the_lowest_governor_goes_above_the_highest_and_place_ten_ends_the_game() {
    let mut g = three();
    g.track = [0; TRACK_LEN];
    g.track[3] = 1;
    g.track[9] = 2;
    g.track[10] = 3;
    g.track[11] = 4;
    g.track[13] = 5;
    g.track[14] = 6;
    g.track[15] = 7;
    g.begin_round();
    assert_eq!(g.maharaja, 1);
    assert_eq!(g.track[16], 1, "above the highest occupied place: place 10");
    assert!(g.last_round);
    assert_eq!(g.end_reason, Some(EndReason::Track));
}

#[test]
fn character_exchange_from_a_player_and_the_new_turn_order() {
    let mut g = three();
    // Player 0 (Mogul) takes the Sadhu from player 2; Mogul returns to the bank; player 2
    // picks at once (the Mogul): player 2 now acts before player 1.
    wheels(&mut g, &[[CHARACTER, CHARACTER], [GOLD, GOLD], [GOLD, GOLD]]);
    act(&mut g, 0, do_op(Op::Character { take: SADHU as u8, give: NONE }));
    assert_eq!(g.phase, Phase::Refill);
    assert_eq!(g.acting(), 1 << 2);
    assert_eq!(legal(&g, 2).len(), 4, "the bank: Mogul, Monk, Builder, Artisan");
    act(&mut g, 2, Action::Pick { card: MOGUL as u8 });
    assert_eq!((g.chars[0], g.chars[2]), (1 << SADHU, 1 << MOGUL));
    assert_eq!(g.phase, Phase::Turn);
    assert_eq!(g.actor, 0);
    // A second Character action is not possible: only forfeiting it.
    assert!(!legal(&g, 0).iter().any(|a| matches!(a, Action::Do { .. })));
    act(&mut g, 0, Action::EndTurn);
    assert_eq!(g.actor, 2, "the Mogul (player 2) before the Trader");
    assert_eq!(g.stats[0].forfeits, 1);
    // From the bank: the old card goes back.
    act(&mut g, 2, Action::EndTurn);
    g.check_invariants().unwrap();
}

#[test]
fn character_from_the_bank_returns_the_old_card() {
    let mut g = three();
    wheels(&mut g, &[[CHARACTER, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    act(&mut g, 0, do_op(Op::Character { take: ARTISAN as u8, give: NONE }));
    assert_eq!(g.chars[0], 1 << ARTISAN);
    assert_eq!(g.bank_chars, 1 << MOGUL | 1 << MONK | 1 << BUILDER);
    assert_eq!(g.phase, Phase::Turn);
}

#[test]
fn builder_builds_one_free_house_per_turn() {
    let mut g = game_with(&always(), 3, &[BUILDER, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    act(&mut g, 1, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    let gold = g.gold[0];
    act(&mut g, 0, Action::Do { op: Op::House { site: 20 }, by: Source::Builder });
    assert_eq!((g.gold[0], g.houses[20][0]), (gold, 1));
    assert!(!legal(&g, 0).iter().any(|a| matches!(a, Action::Do { by: Source::Builder, .. })));
}

// ------------------------------------------------------------------ scoring and the end

#[test]
fn scoring_ranks_by_points_ties_to_the_lower_character() {
    let mut g = three();
    let m = g.maharaja as usize;
    // Player 0 (Mogul): architect + 1 house = 2; player 1 (Trader): 2 houses = 2;
    // player 2 (Sadhu): 3 houses. Ranking 2, 0, 1 (tie to the Mogul); paid 11/7/3.
    g.architect[0] = m as u8;
    g.put_house(0, m);
    g.put_house(1, m);
    g.put_house(1, m);
    for _ in 0..3 {
        g.put_house(2, m);
    }
    let pts = g.city_points(m);
    assert_eq!(pts[..3], [2, 2, 3]);
    assert_eq!(g.ranking(&pts), vec![2, 0, 1]);
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    for p in [0, 1, 2] {
        act(&mut g, p, Action::EndTurn);
    }
    // Two forfeits each: 15 + 8 (+1 Trader); then 7 / 3 / 11.
    assert_eq!(g.gold[..3], [15 + 8 + 7, 15 + 8 + 1 + 3, 15 + 8 + 11]);
    assert_eq!(g.round, 2);
    assert_eq!(g.first_scored[m], 1);
}

#[test]
fn payout_tables() {
    assert_eq!(PAYOUTS[1], &[5]);
    assert_eq!(PAYOUTS[2], &[10, 5]);
    assert_eq!(PAYOUTS[5], &[13, 10, 7, 4, 1]);
    let mut g = three();
    let m = g.maharaja as usize;
    g.put_house(1, m);
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    for p in [0, 1, 2] {
        act(&mut g, p, Action::EndTurn);
    }
    assert_eq!(g.gold[1], 15 + 8 + 1 + 5, "alone: 5");
}

/// Sets a player's gold, keeping the bank's account (gold stays conserved).
fn set_gold(g: &mut Maharaja, p: usize, gold: i32) {
    g.bank_out += (gold - g.gold[p]) as i64;
    g.gold[p] = gold;
}

#[test]
fn seventh_palace_ends_after_the_rounds_scoring() {
    let mut g = three();
    g.palaces_built[1] = 6;
    for c in 1..=6 {
        g.palaces[c][1] = 1;
        g.city_palaces[c] = 1;
        g.central[c] = 1;
    }
    g.architect[1] = 7;
    wheels(&mut g, &[[GOLD, GOLD], [PALACE, GOLD], [GOLD, GOLD]]);
    act(&mut g, 0, do_op(Op::Gold));
    act(&mut g, 0, do_op(Op::Gold));
    assert_eq!(g.actor, 1, "player 0's turn ended by itself");
    set_gold(&mut g, 1, 12);
    act(&mut g, 1, do_op(Op::Palace { full_price: false }));
    assert!(g.last_round);
    assert_eq!(g.end_reason, Some(EndReason::Palaces));
    assert!(!g.is_over(), "the round is finished first");
    act(&mut g, 1, do_op(Op::Gold));
    act(&mut g, 1, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    assert!(g.is_over());
    assert_eq!(g.score_vec(), vec![0, 7, 0]);
    assert_eq!(g.first_scored[g.maharaja as usize], 1, "the last round was scored");
    g.check_invariants().unwrap();
}

#[test]
fn ties_on_palaces_go_to_gold_then_the_lower_character() {
    let mut g = three();
    g.palaces_built[..3].copy_from_slice(&[2, 2, 1]);
    g.gold[..3].copy_from_slice(&[10, 10, 30]);
    let (ranks, wins) = crate::game::ranks_and_wins(&g.score_vec(), &g.tiebreak_vec());
    assert_eq!(ranks, vec![1, 2, 3], "equal palaces and gold: the Mogul first");
    assert_eq!(wins, vec![1.0, 0.0, 0.0]);
}

// ------------------------------------------------------------------ variants

#[test]
fn advanced_2_keeps_cards_swaps_with_an_empty_bank_and_recruits() {
    let mut v = always();
    v.advanced_2 = true;
    let mut g = game_with(&v, 3, &[MOGUL, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    wheels(&mut g, &[[CHARACTER, GOLD], [CHARACTER, GOLD], [CHARACTER, GOLD]]);
    act(&mut g, 0, do_op(Op::Character { take: ARTISAN as u8, give: NONE }));
    assert_eq!(g.chars[0], 1 << MOGUL | 1 << ARTISAN, "the bank card is kept with the old one");
    act(&mut g, 0, Action::EndTurn);
    // Player 1 may recruit from player 0 (2 cards > 1); player 0 chooses which.
    assert!(legal(&g, 1).contains(&do_op(Op::Recruit { from: 0 })));
    act(&mut g, 1, do_op(Op::Recruit { from: 0 }));
    assert_eq!((g.phase, g.actor), (Phase::Give, 0));
    act(&mut g, 0, Action::Give { card: ARTISAN as u8 });
    assert_eq!((g.chars[0], g.chars[1]), (1 << MOGUL, 1 << TRADER | 1 << ARTISAN));
    assert_eq!(g.phase, Phase::Turn);
    act(&mut g, 1, Action::EndTurn);
    // Empty the bank: then swaps with other players are offered.
    g.bank_chars = 0;
    g.chars[2] |= 1 << MONK | 1 << BUILDER;
    let swaps: Vec<Action> = legal(&g, 2)
        .into_iter()
        .filter(|a| matches!(a, Action::Do { op: Op::Character { give, .. }, .. } if *give != NONE))
        .collect();
    // Take one of the 3 cards of players 0 and 1, give one of player 2's 3 cards.
    assert_eq!(swaps.len(), 9);
    act(&mut g, 2, do_op(Op::Character { take: MOGUL as u8, give: BUILDER as u8 }));
    assert_eq!(g.chars[0], 1 << BUILDER);
    assert_eq!(g.chars[2], 1 << MOGUL | 1 << SADHU | 1 << MONK);
    g.check_invariants().unwrap();
}

#[test]
fn short_game_ends_at_place_eight() {
    let mut v = always();
    v.short = true;
    let mut g = game_with(&v, 3, &[MOGUL, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    let mut rounds = 1;
    while !g.is_over() {
        wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
        for _ in 0..6 {
            let p = g.actor;
            act(&mut g, p, do_op(Op::Gold));
        }
        if !g.is_over() {
            rounds += 1;
        }
    }
    assert_eq!(rounds, 8);
    assert_eq!(g.end_reason, Some(EndReason::Track));
    assert_eq!(g.round, 8);
    assert!(always().reveal == Reveal::Turn);
}

#[test]
fn a_standard_game_of_gold_lasts_ten_rounds() {
    let mut g = three();
    while !g.is_over() {
        wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
        for _ in 0..6 {
            let p = g.actor;
            act(&mut g, p, do_op(Op::Gold));
        }
    }
    assert_eq!(g.round, 10);
    g.check_invariants().unwrap();
}

#[test]
fn advanced_1_auction_yogi_tokens_neutral_space_and_home_city() {
    let mut v = always();
    v.advanced_1 = true;
    let mut g = Maharaja::new(&v, 3, deal_rng(1, 0));
    assert_eq!(g.phase, Phase::Nominate);
    // Player 0 puts the Yogi up, bids 0; player 1 bids 2; player 2 passes; player 0 passes.
    act(&mut g, 0, Action::Nominate { card: YOGI as u8 });
    act(&mut g, 0, Action::Bid { amount: 0 });
    act(&mut g, 1, Action::Bid { amount: 2 });
    act(&mut g, 2, Action::Pass);
    act(&mut g, 0, Action::Pass);
    assert_eq!((g.chars[1], g.gold[1]), (1 << YOGI, 13));
    // Next auction: player 1 was the starter? No: player 0 started; the next starter is
    // player 1's neighbour without a card, player 1 has one, so player 2... (clockwise
    // from the last starter, player 0: player 1 has a card, so player 2).
    assert_eq!((g.phase, g.actor), (Phase::Nominate, 2));
    act(&mut g, 2, Action::Nominate { card: MOGUL as u8 });
    act(&mut g, 2, Action::Bid { amount: 1 });
    act(&mut g, 0, Action::Pass);
    assert_eq!((g.chars[2], g.gold[2]), (1 << MOGUL, 14));
    // The last player without a card takes one for free.
    assert_eq!((g.phase, g.actor), (Phase::Pick, 0));
    act(&mut g, 0, Action::Pick { card: ARTISAN as u8 });
    assert_eq!(g.phase, Phase::StartHouses);
    assert_eq!(g.palace_spaces(), 6, "a neutral house on one outer space with 3 players");
    for vil in [24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35] {
        let p = g.actor;
        act(&mut g, p, Action::StartHouse { village: vil });
    }
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    // Mogul (player 2) first, then Artisan (player 0), then Yogi (player 1).
    act(&mut g, 2, Action::EndTurn);
    act(&mut g, 0, Action::EndTurn);
    assert_eq!(g.actor, 1);
    assert_eq!((g.tokens[1], g.bank_tokens), (1, TOKENS - 1), "the Yogi takes a token");
    // A token: one extra action (not Character).
    let tok: Vec<Action> =
        legal(&g, 1).into_iter().filter(|a| matches!(a, Action::Do { by: Source::Token, .. })).collect();
    assert!(tok.contains(&Action::Do { op: Op::Gold, by: Source::Token }));
    assert!(!tok.iter().any(|a| matches!(a, Action::Do { op: Op::Character { .. }, .. })));
    let gold = g.gold[1];
    act(&mut g, 1, Action::Do { op: Op::Gold, by: Source::Token });
    assert_eq!((g.gold[1], g.tokens[1], g.bank_tokens), (gold + 2, 0, TOKENS));
    // Home city: the Yogi's city scores 1 for player 1 with nothing there.
    let yogi_home = g.map.home_city(YOGI + 1);
    assert_eq!(g.city_points(yogi_home)[1], 1);
    g.check_invariants().unwrap();
}

// ------------------------------------------------------------------ random play

/// Picks like the `random` agent: a kind uniformly, then one of its actions.
pub fn random_action(g: &Maharaja, p: usize, rng: &mut Rng, buf: &mut Vec<Action>) -> Action {
    let kinds = g.action_kinds(p);
    assert!(kinds != 0, "player {p} acts but has no action ({:?})", g.phase);
    let k = crate::agents::random::random_kind(kinds, rng);
    buf.clear();
    g.legal_actions(p, Some(k), buf);
    assert!(!buf.is_empty(), "kind {k} reported open without an action ({:?})", g.phase);
    buf[below(rng, buf.len())]
}

/// Every variant switch combination the invariant run cycles through.
pub fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for bits in 0..32u32 {
        let mut v = always();
        v.short = bits & 1 != 0;
        v.one_palace_per_city = bits & 2 == 0;
        v.advanced_1 = bits & 4 != 0;
        v.advanced_2 = bits & 8 != 0;
        v.reveal = if bits & 16 != 0 { Reveal::Together } else { Reveal::Turn };
        // Every combination of the four readings, paired with the switches above.
        let r = bits * 7;
        v.readings = Readings {
            choose_route: r & 1 != 0,
            gold_hidden: r & 2 != 0,
            powers_optional: r & 4 != 0,
            repick_own_turn: r & 8 != 0,
        };
        out.push(v);
    }
    out
}

/// Plays `games` random games (2-5 players, every variant in turn), checking the
/// invariants after every action; returns (actions, palaces built, forfeits).
pub fn invariant_run(games: u64, seed: u64) -> (u64, u64, u64) {
    let vs = variants();
    let (mut actions, mut palaces, mut forfeits) = (0, 0, 0);
    let mut buf = Vec::new();
    for i in 0..games {
        let n = 2 + (i % 4) as usize;
        let v = &vs[(i / 4) as usize % vs.len()];
        let mut g = Maharaja::new(v, n, deal_rng(seed, i));
        let mut rng = crate::rng::agent_rng(seed, i, 0);
        let full = i % 20 == 0;
        while !g.is_over() {
            let acting = g.acting();
            assert!(acting != 0, "game {i}: nobody acts in {:?}", g.phase);
            let p = acting.trailing_zeros() as usize;
            let a = random_action(&g, p, &mut rng, &mut buf);
            g.apply(p, a);
            actions += 1;
            if full || g.phase == Phase::Wheel {
                g.check_invariants().unwrap_or_else(|e| panic!("game {i} after {a:?}: {e}"));
            }
            assert!(g.round <= ROUND_LIMIT, "game {i}: round limit");
        }
        g.check_invariants().unwrap_or_else(|e| panic!("game {i} at the end: {e}"));
        palaces += g.palaces_built[..n].iter().map(|&x| x as u64).sum::<u64>();
        forfeits += g.stats[..n].iter().map(|s| s.forfeits as u64).sum::<u64>();
    }
    (actions, palaces, forfeits)
}

#[test]
fn invariants_hold_in_random_play() {
    let games = std::env::var("BALANCELAB_INVARIANT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(500);
    let t = std::time::Instant::now();
    let (actions, palaces, forfeits) = invariant_run(games, 2026);
    eprintln!(
        "maharaja invariant run: {games} games, {actions} actions, {palaces} palaces, {forfeits} forfeits in {:.1}s",
        t.elapsed().as_secs_f64()
    );
    assert!(actions > games * 50);
    assert!(palaces > 0 && forfeits > 0);
}

// ------------------------------------------------------------------ secrecy

fn choose(spec: &str, g: &Maharaja, p: usize) -> Action {
    let mut agent = crate::agents::AgentSpec::parse(spec).and_then(|a| a.build::<Maharaja>()).expect("agent");
    agent.choose(&crate::game::View::new(g, p), &mut crate::rng::agent_rng(3, 3, p as u64))
}

/// Positions from random play: wheel decisions (some wheels set) and turns.
fn sample_positions(v: &Variant, n: usize, games: u64) -> Vec<Maharaja> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for i in 0..games {
        let mut g = Maharaja::new(v, n, deal_rng(9, i));
        let mut rng = crate::rng::agent_rng(9, i, 0);
        let mut k = 0;
        while !g.is_over() {
            k += 1;
            let p = g.acting().trailing_zeros() as usize;
            if k % 7 == 0 && g.round > 0 {
                out.push(g.clone());
            }
            let a = random_action(&g, p, &mut rng, &mut buf);
            g.apply(p, a);
        }
    }
    out
}

#[test]
fn a_wheel_choice_never_depends_on_another_players_wheel() {
    let v = Variant::standard();
    let wheels_to_try = [[GOLD, GOLD], [PALACE, PALACE_HOUSE], [GOVERNOR, CHARACTER]];
    let mut checked = 0;
    for g in sample_positions(&v, 3, 6).into_iter().filter(|g| g.phase == Phase::Wheel) {
        let p = g.acting().trailing_zeros() as usize;
        // Every other player sets each of several wheels (or has not set one yet).
        let mut variants = vec![g.clone()];
        for q in (0..3).filter(|&q| q != p && g.wheel_set >> q & 1 == 0) {
            for w in wheels_to_try {
                let mut h = g.clone();
                h.apply(q, Action::Wheel { first: w[0], second: w[1] });
                if h.phase == Phase::Wheel {
                    variants.push(h);
                }
            }
        }
        for spec in ["random", "greedy", "mcts:iters=60"] {
            let first = choose(spec, &variants[0], p);
            assert!(matches!(first, Action::Wheel { .. }));
            for h in &variants[1..] {
                assert_eq!(choose(spec, h, p), first, "{spec}: player {p} saw another wheel");
            }
        }
        checked += variants.len();
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn turn_choices_never_depend_on_wheels_not_yet_shown() {
    let v = Variant::standard();
    let mut checked = 0;
    for g in sample_positions(&v, 4, 4).into_iter().filter(|g| g.phase == Phase::Turn) {
        let p = g.actor;
        let hidden: Vec<usize> = (0..4).filter(|&q| q != p && g.revealed >> q & 1 == 0).collect();
        if hidden.is_empty() {
            continue;
        }
        let mut h = g.clone();
        for &q in &hidden {
            h.wheel[q] = [PALACE, CHARACTER];
        }
        assert_eq!(g.observation(p), h.observation(p), "unshown wheels are not part of what {p} knows");
        for spec in ["random", "greedy", "mcts:iters=60"] {
            assert_eq!(choose(spec, &g, p), choose(spec, &h, p), "{spec}: player {p} read a hidden wheel");
        }
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
}

#[test]
fn determinize_forgets_pending_wheels_and_redraws_unshown_ones() {
    let mut g = three();
    g.apply(1, Action::Wheel { first: PALACE, second: PALACE });
    let d = g.determinize(0, &mut deal_rng(4, 4));
    assert_eq!(d.acting(), 0b111, "player 1's pending choice is forgotten for player 0");
    assert_eq!(g.determinize(1, &mut deal_rng(4, 4)).wheel[1], [PALACE, PALACE], "but not for player 1");
    g.apply(0, Action::Wheel { first: GOLD, second: GOLD });
    g.apply(2, Action::Wheel { first: GOLD, second: GOLD });
    // Player 0's turn: player 1's wheel is not shown yet; across samples it takes many values.
    let mut seen = std::collections::HashSet::new();
    let mut rng = deal_rng(4, 5);
    for _ in 0..200 {
        let d = g.determinize(0, &mut rng);
        assert_eq!(d.wheel[0], [GOLD, GOLD]);
        seen.insert(d.wheel[1]);
    }
    assert!(seen.len() > 30, "{}", seen.len());
    // With reveal = together every wheel is known after the decision.
    let mut v = Variant::standard();
    v.reveal = Reveal::Together;
    let mut g = game_with(&v, 3, &[MOGUL, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]);
    wheels(&mut g, &[[GOLD, GOLD], [PALACE, PALACE], [GOLD, HOUSE]]);
    assert_eq!(g.determinize(0, &mut rng).wheel[1], [PALACE, PALACE]);
}

// ------------------------------------------------------------------ readings

fn three_with(v: &Variant) -> Maharaja {
    game_with(v, 3, &[MOGUL, TRADER, SADHU], &[24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35])
}

/// Gives player `p` character `c` instead of their own (which goes to the bank).
fn give_card(g: &mut Maharaja, p: usize, c: usize) {
    g.bank_chars = g.bank_chars & !(1 << c) | g.chars[p];
    g.chars[p] = 1 << c;
}

/// Two equally cheap routes from Delhi to Udaipur for player 0 (toll 1 each): direct,
/// through one house of player 1, or by Jaipur, through player 0's own houses and one of
/// player 2's.
fn two_cheap_routes(v: &Variant) -> Maharaja {
    let mut g = three_with(v);
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    g.put_house(1, V_DELHI_UDAIPUR as usize);
    g.put_house(0, V_DELHI_JAIPUR as usize);
    g.put_house(0, V_JAIPUR_UDAIPUR[0] as usize);
    g.put_house(2, V_JAIPUR_UDAIPUR[1] as usize);
    assert_eq!(g.routes(0).cost[UDAIPUR as usize], 1);
    g
}

fn travels_to(g: &Maharaja, p: usize, city: u8) -> Vec<Action> {
    legal(g, p).into_iter().filter(|a| matches!(a, Action::Travel { city: c, .. } if *c == city)).collect()
}

#[test]
fn route_first_takes_one_cheapest_route_choose_lets_the_mover_pick_whom_to_pay() {
    let g = two_cheap_routes(&always());
    assert_eq!(travels_to(&g, 0, UDAIPUR).len(), 1, "route = first: one way to go");
    let mut v = always();
    v.readings.choose_route = true;
    let g = two_cheap_routes(&v);
    let r = g.routes(0);
    let pays: Vec<[i32; MAX_PLAYERS]> =
        g.route_choices(0, &r, UDAIPUR as usize).iter().map(|roads| g.route_payments(0, roads)).collect();
    assert!(pays.contains(&[0, 1, 0, 0, 0]) && pays.contains(&[0, 0, 1, 0, 0]), "{pays:?}");
    let moves = travels_to(&g, 0, UDAIPUR);
    assert_eq!(moves.len(), pays.len(), "one travel action per distinct payment");
    for (a, pay) in moves.iter().zip(&pays) {
        let mut h = g.clone();
        act(&mut h, 0, *a);
        assert_eq!(h.architect[0], UDAIPUR);
        let paid: Vec<i32> = (1..3).map(|q| h.gold[q] - g.gold[q]).collect();
        assert_eq!(paid, pay[1..3], "{a:?} pays players 1 and 2");
        assert_eq!(h.gold[0], g.gold[0] - 1);
    }
}

#[test]
fn hidden_gold_is_known_only_as_the_others_total() {
    let v = Variant::standard();
    assert!(v.readings.gold_hidden, "the reference: gold is hidden");
    let mut g = three_with(&v);
    wheels(&mut g, &[[GOLD, HOUSE], [GOLD, GOLD], [GOLD, GOLD]]);
    let mut h = g.clone();
    h.gold[1] += 5;
    h.gold[2] -= 5;
    assert_eq!(g.observation(0), h.observation(0), "the split of the others' gold is hidden");
    assert_ne!(g.observation(1), h.observation(1), "a player sees their own gold");
    for spec in ["random", "greedy", "mcts:iters=40"] {
        assert_eq!(choose(spec, &g, 0), choose(spec, &h, 0), "{spec} read the others' gold");
    }
    let mut rng = deal_rng(5, 5);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..100 {
        let d = g.determinize(0, &mut rng);
        assert_eq!((d.gold[0], d.gold[1] + d.gold[2]), (g.gold[0], g.gold[1] + g.gold[2]));
        seen.insert(d.gold[1]);
        d.check_invariants().unwrap();
    }
    assert!(seen.len() > 3, "{seen:?}");
    // Public gold: the split is known and kept.
    let mut v = Variant::standard();
    v.readings.gold_hidden = false;
    let g = three_with(&v);
    let mut h = g.clone();
    h.gold[1] += 5;
    h.gold[2] -= 5;
    assert_ne!(g.observation(0), h.observation(0));
    assert_eq!(g.determinize(0, &mut rng).gold, g.gold);
}

#[test]
fn hidden_gold_keeps_a_high_bidders_bid() {
    let mut v = Variant::standard();
    v.advanced_1 = true;
    let mut g = Maharaja::new(&v, 3, deal_rng(1, 0));
    act(&mut g, 0, Action::Nominate { card: MOGUL as u8 });
    act(&mut g, 0, Action::Bid { amount: 14 });
    let mut rng = deal_rng(6, 6);
    for _ in 0..50 {
        assert!(g.determinize(1, &mut rng).gold[0] >= 14, "the high bidder can pay");
    }
}

#[test]
fn optional_powers_trader_and_monk() {
    let mut g = three_with(&Variant::standard());
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    // Player 0 (Mogul) holds no power to decide; then the Trader's turn opens with one.
    act(&mut g, 0, do_op(Op::Gold));
    act(&mut g, 0, do_op(Op::Gold));
    assert_eq!(g.actor, 1);
    let take = Action::Power { card: TRADER as u8, used: true };
    let decline = Action::Power { card: TRADER as u8, used: false };
    assert_eq!(legal(&g, 1), vec![take, decline]);
    assert_eq!(g.action_kinds(1), 1 << KIND_POWER);
    let gold = g.gold[1];
    let mut h = g.clone();
    act(&mut h, 1, take);
    assert_eq!(h.gold[1], gold + 1);
    act(&mut g, 1, decline);
    assert_eq!(g.gold[1], gold, "declined: no gold");
    assert!(legal(&g, 1).contains(&do_op(Op::Gold)), "the turn goes on");
    // The Monk's holder may pay the tolls himself.
    let mut g = three_with(&Variant::standard());
    give_card(&mut g, 0, MONK);
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    assert_eq!(g.actor, 1, "the Trader acts first now");
    act(&mut g, 1, Action::Power { card: TRADER as u8, used: false });
    act(&mut g, 1, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    assert_eq!(g.actor, 0);
    g.put_house(2, V_DELHI_JAIPUR as usize);
    let bank = Action::Travel { city: JAIPUR, route: 0, own_toll: false };
    let own = Action::Travel { city: JAIPUR, route: 0, own_toll: true };
    assert_eq!(travels_to(&g, 0, JAIPUR), vec![bank, own]);
    let (g0, g2) = (g.gold[0], g.gold[2]);
    let mut h = g.clone();
    act(&mut h, 0, bank);
    assert_eq!((h.gold[0], h.gold[2]), (g0, g2 + 1), "the bank pays");
    act(&mut g, 0, own);
    assert_eq!((g.gold[0], g.gold[2], g.stats[0].tolls_paid), (g0 - 1, g2 + 1, 1), "he pays");
    // Under powers = always there is no choice.
    let g = {
        let mut g = three_with(&always());
        give_card(&mut g, 0, MONK);
        g.put_house(2, V_DELHI_JAIPUR as usize);
        wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
        g
    };
    assert_eq!(travels_to(&g, 0, JAIPUR).len(), 0, "not the Monk's turn yet");
    assert!(legal(&g, 1).iter().all(|a| !matches!(a, Action::Power { .. })));
}

#[test]
fn optional_powers_artisan_price_and_sadhu_points() {
    let mut g = three_with(&Variant::standard());
    give_card(&mut g, 0, ARTISAN);
    give_card(&mut g, 1, MOGUL);
    wheels(&mut g, &[[PALACE, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    act(&mut g, 1, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    assert_eq!(g.actor, 0);
    g.architect[0] = JAIPUR;
    let cheap = do_op(Op::Palace { full_price: false });
    let full = do_op(Op::Palace { full_price: true });
    assert!(legal(&g, 0).contains(&cheap) && legal(&g, 0).contains(&full));
    let gold = g.gold[0];
    let mut h = g.clone();
    act(&mut h, 0, cheap);
    assert_eq!(h.gold[0], gold - 9);
    act(&mut g, 0, full);
    assert_eq!(g.gold[0], gold - 12, "the power not used: the full price");
    // The Sadhu's holder (player 2) with an outer palace in the scored city decides.
    let mut g = three_with(&Variant::standard());
    g.enable_log();
    let city = g.maharaja as usize;
    for _ in 0..2 {
        g.palaces[city][2] += 1;
        g.city_palaces[city] += 1;
        g.palaces_built[2] += 1;
    }
    g.central[city] = 2;
    wheels(&mut g, &[[GOLD, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    act(&mut g, 0, Action::EndTurn);
    act(&mut g, 1, Action::Power { card: TRADER as u8, used: true });
    act(&mut g, 1, Action::EndTurn);
    act(&mut g, 2, Action::EndTurn);
    assert_eq!((g.phase, g.actor), (Phase::Sadhu, 2));
    let choices = [Action::Power { card: SADHU as u8, used: true }, Action::Power { card: SADHU as u8, used: false }];
    assert_eq!(legal(&g, 2), choices);
    for (a, points) in choices.into_iter().zip([5, 4]) {
        let mut h = g.clone();
        h.take_log();
        act(&mut h, 2, a);
        let log = h.take_log();
        let scoring = log.iter().find(|e| e["event"] == "scoring").expect("scored");
        assert_eq!(scoring["points"][2], points, "central 3 + outer palace 2 (Sadhu) or 1");
        assert_eq!(log[0]["event"], "power");
        assert_eq!(log[0]["position"], 2);
        assert_eq!(h.phase, Phase::Wheel, "the next round");
    }
}

#[test]
fn repick_own_turn_leaves_the_player_without_a_card_until_their_turn() {
    let mut v = always();
    v.readings.repick_own_turn = true;
    let mut g = three_with(&v);
    wheels(&mut g, &[[CHARACTER, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    let mut at_once = three_with(&always());
    wheels(&mut at_once, &[[CHARACTER, GOLD], [GOLD, GOLD], [GOLD, GOLD]]);
    let take = do_op(Op::Character { take: TRADER as u8, give: NONE });
    act(&mut at_once, 0, take);
    assert_eq!((at_once.phase, at_once.actor), (Phase::Refill, 1), "at_once: player 1 picks now");
    act(&mut g, 0, take);
    assert_eq!((g.phase, g.actor, g.chars[1]), (Phase::Turn, 0, 0), "own_turn: player 1 waits without a card");
    g.check_invariants().unwrap();
    act(&mut g, 0, do_op(Op::Gold));
    assert_eq!(g.actor, 2, "the Sadhu (3) acts before a player without a card");
    act(&mut g, 2, Action::EndTurn);
    assert_eq!((g.phase, g.actor, g.turn_player), (Phase::Refill, 1, 1), "player 1's turn opens with the pick");
    let bank: Vec<Action> = bits(g.bank_chars).map(|c| Action::Pick { card: c as u8 }).collect();
    assert!(bank.contains(&Action::Pick { card: MOGUL as u8 }), "the card returned is in the bank");
    assert_eq!(legal(&g, 1), bank);
    assert!(!g.decision().continues_turn);
    act(&mut g, 1, Action::Pick { card: MOGUL as u8 });
    assert_eq!((g.phase, g.actor), (Phase::Turn, 1));
    assert!(legal(&g, 1).contains(&do_op(Op::Gold)));
    g.check_invariants().unwrap();
}

#[test]
fn every_event_names_players_by_position_and_the_setup_names_the_map() {
    let mut v = Variant::standard();
    v.readings.choose_route = true;
    v.readings.repick_own_turn = true;
    v.advanced_1 = true;
    let mut events = Vec::new();
    for i in 0..6 {
        let mut g = Maharaja::new(&v, 3 + (i % 3) as usize, deal_rng(11, i));
        g.enable_log();
        let mut rng = crate::rng::agent_rng(11, i, 0);
        let mut buf = Vec::new();
        while !g.is_over() {
            let p = g.acting().trailing_zeros() as usize;
            let a = random_action(&g, p, &mut rng, &mut buf);
            g.apply(p, a);
        }
        events.extend(g.take_log());
    }
    let setup = &events[0];
    assert_eq!(setup["event"], "setup");
    assert_eq!(setup["map"], "built-in");
    assert_eq!(setup["variant"]["map"], serde_json::Value::Null);
    assert_eq!(setup["variant"]["route"], "choose");
    assert_eq!(setup["variant"]["gold"], "hidden");
    assert_eq!(setup["variant"]["powers"], "optional");
    assert_eq!(setup["variant"]["repick"], "own_turn");
    let mut kinds = std::collections::BTreeSet::new();
    for e in &events {
        assert!(e.get("player").is_none(), "an event names a `player`: {e}");
        let kind = e["event"].as_str().unwrap();
        if ["turn", "step", "travel", "forfeit", "pick", "refill", "start_house", "power", "bid", "auction"]
            .contains(&kind)
        {
            assert!(e["position"].is_u64(), "{kind} without a position: {e}");
            kinds.insert(kind);
        }
    }
    assert!(kinds.len() >= 8, "{kinds:?}");
}

#[test]
fn the_round_limit_ends_the_game_capped() {
    let mut g = three();
    g.enable_log();
    assert!(!g.capped());
    g.round = ROUND_LIMIT;
    let (mut rng, mut buf) = (crate::rng::agent_rng(7, 0, 0), Vec::new());
    while !g.is_over() {
        let p = g.acting().trailing_zeros() as usize;
        let a = random_action(&g, p, &mut rng, &mut buf);
        g.apply(p, a);
    }
    assert!(g.capped() && g.end_reason == Some(EndReason::RoundLimit), "{:?}", g.end_reason);
    let mut row = Vec::new();
    g.metrics(0, &mut row);
    let at = Maharaja::metric_specs().iter().position(|m| m.name == "end_reason").unwrap();
    assert_eq!(row[at], Some(3), "end_reason 3: the round limit");
    let log = g.take_log();
    let end = log.iter().find(|e| e["event"] == "game_end").expect("game_end");
    assert_eq!(end["reason"], "round_limit");
}

#[test]
fn a_game_ended_by_the_rules_is_not_capped() {
    let mut g = three();
    let (mut rng, mut buf) = (crate::rng::agent_rng(7, 0, 0), Vec::new());
    while !g.is_over() {
        let p = g.acting().trailing_zeros() as usize;
        let a = random_action(&g, p, &mut rng, &mut buf);
        g.apply(p, a);
    }
    assert_ne!(g.end_reason, Some(EndReason::RoundLimit));
    assert!(!g.capped());
}
