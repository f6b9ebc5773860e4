//! Hand-worked positions for every rule of the reference, the board-file checks, the
//! set-up, hidden information, and the random-play invariant run.
//!
//! Positions use the built-in board. The spaces named below (axial `(q, r)`):
//!
//! ```text
//! (1, 0) start red/blue   (0, -1) start yellow/red   (-1, 1) start blue/yellow
//! (2, 0), (3, 0), (2, -1) fog              (3, -1) reward ship
//! (3, -2) reward shells:white:1            (4, -2) crane, next to three sites:
//! (4, -1) site white, (4, -3) site black green, (5, -2) site white black brown
//! (5, -3) reward star:1                    (4, 0) reward shells:green:2
//! (5, 0) bonus cards:2 points:3            (4, 1) bonus points:3 shells:green:2
//! ```

use super::board::*;
use super::state::*;
use super::variant::{Draw, Epoch2Start, Rules, Tiebreak};
use crate::game::{Evaluate, Game, Record};
use crate::rng::{agent_rng, below, deal_rng, Rng};
use std::sync::Arc;

trait ApplyOk {
    fn apply_ok(&mut self, a: Action);
}

impl ApplyOk for Titania {
    /// Applies a legal action (asserting that it is legal).
    fn apply_ok(&mut self, a: Action) {
        assert!(self.is_legal(self.current, &a), "illegal {a:?} in {:?}", self.phase);
        self.apply(self.current, a);
    }
}

fn game(n: usize, seed: u64) -> Titania {
    Titania::with_board(Arc::new(Board::builtin()), Arc::from("built-in"), n, deal_rng(seed, 0))
}

fn at(g: &Titania, q: i32, r: i32) -> usize {
    g.board.at(q, r).unwrap_or_else(|| panic!("no space ({q}, {r})"))
}

fn site(g: &Titania, q: i32, r: i32) -> usize {
    g.board.site_of[at(g, q, r)] as usize
}

fn actions(g: &Titania) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(g.current, None, &mut out);
    out
}

/// Gives player `p` exactly the cards in `hand` (per type), keeping cards conserved by
/// taking them from the pile and the discards.
#[allow(clippy::needless_range_loop)]
fn set_hand(g: &mut Titania, p: usize, hand: [u8; 6]) {
    let mut counts = CARD_COUNTS;
    g.players[p].hand = hand;
    for q in 0..g.n {
        for t in 0..6 {
            counts[t] -= g.players[q].hand[t];
        }
    }
    g.discard = [0; 6];
    let mut k = 0;
    for t in 0..6 {
        for _ in 0..counts[t] {
            g.pile[k] = t as u8;
            k += 1;
        }
    }
    g.pile_len = k as u8;
}

/// Gives player `p` shells of colour `c` from the supply.
fn give_shells(g: &mut Titania, p: usize, c: usize, n: u8) {
    g.shell_supply[c] -= n;
    g.players[p].shells[c] += n;
}

fn play(card: usize, colour: usize, space: usize) -> Action {
    Action::Play { card: card as u8, colour: colour as u8, space: space as u8 }
}

const RED: usize = 0;
const BLUE: usize = 1;
const YELLOW: usize = 2;
const WHITE: usize = 0;
const GREEN: usize = 2;

/// Sets the face-down fog tile of the fog space at `space` to one showing `icon`.
fn set_fog(g: &mut Titania, space: usize, icon: Icon) {
    let code = g.board.fog_tiles.iter().position(|&t| t == icon).expect("such a fog tile") as u8;
    let slot = g.board.fog_slot[space] as usize;
    let other = (0..FOG_TILES).find(|&s| g.fog_tile[s] == code && s != slot);
    if g.fog_tile[slot] != code {
        let other = other.expect("the tile lies elsewhere");
        g.fog_tile.swap(slot, other);
    }
}

// ------------------------------------------------------------------- board

#[test]
fn builtin_board_meets_the_reference() {
    let b = Board::builtin();
    assert_eq!(b.len(), 90);
    assert_eq!(b.starts.len(), 3);
    assert_eq!(b.fog_spaces.len(), 22);
    assert_eq!(b.sites.len(), 15);
    let mut sets: Vec<u8> = b.site_colours.clone();
    sets.sort_unstable();
    assert_eq!(sets, (1..16).collect::<Vec<u8>>(), "one site per non-empty colour set");
    for &s in &b.sites {
        assert!(b.neigh[s as usize] & b.cranes != 0, "{}", b.name(s as usize));
    }
    let bonus = (0..90).filter(|&i| matches!(b.kinds[i], Kind::Bonus(_))).count();
    assert_eq!(bonus, 12);
    assert_eq!(b.fog_tiles.len(), 22);
    assert_eq!(b.score_tiles.iter().filter(|&&v| v == 3).count(), 10);
    assert_eq!(b.score_tiles.iter().filter(|&&v| v == 5).count(), 10);
    // Every space is within 5 hexes of the castle, which is not a space.
    assert!(b.at(0, 0).is_none());
    assert!(b.coords.iter().all(|&(q, r)| q.abs().max(r.abs()).max((q + r).abs()) <= 5));
    // The crane at (4, -2) stands between three sites.
    let crane = b.at(4, -2).unwrap();
    assert_eq!(b.near_sites[crane].count_ones(), 3);
}

fn replace_line(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn board_file_errors_name_the_space_and_the_rule() {
    let t = BUILTIN;
    let cases: Vec<(String, &str)> = vec![
        // The crane next to (5, -2) becomes a reward: the site has no crane.
        (
            replace_line(t, "space   4  -2  crane", "space   4  -2  reward  points:1"),
            "space (4, -1) site: no crane next to it",
        ),
        (
            replace_line(t, "space   5   0  bonus   cards:2 points:3", "space   5   0  crane"),
            "space (5, 0) crane: no tower site next to it",
        ),
        (replace_line(t, "space   2   0  fog", "space   2   0  reward ship"), "21 fog spaces, need exactly 22"),
        (replace_line(t, "fog_tiles 1 tile", "fog_tiles 2 tile"), "23 fog tiles"),
        (replace_line(t, "score_tiles 10 5", "score_tiles 9 5"), "29 score tiles"),
        (
            replace_line(t, "space   3  -1  reward  ship", "space   3  -1  reward  ship\nspace   3  -1  fog"),
            "space (3, -1): listed twice",
        ),
        (
            replace_line(t, "space   3  -1  reward  ship", "space   3  -1  reward  gold:2"),
            "space (3, -1) reward: unknown icon `gold:2`",
        ),
        (
            replace_line(t, "space   1   0  start   red blue", "space   1   0  start   red red"),
            "space (1, 0) start: both flags are red",
        ),
        (
            replace_line(
                &replace_line(t, "space  -1   1  start   blue yellow", "space  -1   1  start   blue red"),
                "space   0  -1  start   yellow red",
                "space   0  -1  start   blue red",
            ),
            "no start space shows a yellow flag",
        ),
        (
            replace_line(t, "space   4  -1  site    white", "space   4  -1  site    white white"),
            "tower icon white twice",
        ),
        (
            replace_line(t, "space   5  -1  reward  tile", "space   5  -1  reward  tile\nspace   9   9  reward  tile"),
            "space (9, 9) reward: not connected to the start spaces",
        ),
        (
            replace_line(t, "space   2   1  reward  shells:brown:1", "space   2   1  bonus shells:brown:1 star:1"),
            "space (2, 1) bonus: not on the edge",
        ),
        (replace_line(t, "fog_tiles 2 ship", "fog_tiles 2 points:2"), "fog tile points:2"),
        (format!("{t}\ncastle 0 0"), "unknown line kind `castle`"),
    ];
    for (text, want) in cases {
        let err = Board::parse(&text).err().unwrap_or_else(|| panic!("accepted; want {want:?}"));
        assert!(err.contains(want), "want {want:?}, got {err:?}");
    }
    // An enclosed space: surround (3, -2) by tower sites? Instead: cut the outer ring off.
    let mut cut = String::new();
    for line in t.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let inner_ring4 = w.first() == Some(&"space") && w.len() > 3 && {
            let (q, r): (i32, i32) = (w[1].parse().unwrap(), w[2].parse().unwrap());
            q.abs().max(r.abs()).max((q + r).abs()) == 4 && w[3] == "reward"
        };
        if inner_ring4 {
            cut.push_str(&format!("space {} {} site white\n", w[1], w[2]));
        } else {
            cut.push_str(line);
            cut.push('\n');
        }
    }
    let err = Board::parse(&cut).expect_err("ring 4 closed");
    assert!(err.contains("not connected") || err.contains("no crane"), "{err}");
}

// ------------------------------------------------------------------- set-up

#[test]
fn setup_follows_the_reference() {
    for n in 2..=4 {
        let g = game(n, 5);
        g.check_invariants().unwrap();
        for p in 0..n {
            assert_eq!(g.players[p].hand_size(), 4);
        }
        assert_eq!(g.pile_len as usize, 36 - 4 * n);
        assert_eq!(g.ship_supply, [15, 15, 15], "20 - 3 aside - 2 on start spaces");
        assert_eq!(g.full.count_ones(), 3, "two ships on each start space");
        assert_eq!(g.fog_up, 0);
        assert_eq!(g.tile_len, 30);
        assert_eq!((g.current, g.phase, g.epoch), (0, Phase::Play, 0));
        let s = at(&g, 1, 0);
        assert_eq!(g.ships[s], 0b011);
    }
    // The deal depends on the seed only.
    let (a, b) = (game(3, 9), game(3, 9));
    assert_eq!((a.pile, a.fog_tile, a.tile_pile), (b.pile, b.fog_tile, b.tile_pile));
    assert_ne!(a.pile, game(3, 10).pile);
}

// ------------------------------------------------------------------- card play

#[test]
fn a_card_places_a_ship_next_to_a_ship_of_its_colour() {
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [1, 0, 0, 1, 0, 0]);
    let red_spaces: Vec<usize> = actions(&g)
        .iter()
        .filter_map(|a| match *a {
            Action::Play { card: 0, colour: 0, space } => Some(space as usize),
            _ => None,
        })
        .collect();
    // Red ships lie on (1, 0) and (0, -1): the spaces one hex away that are not start
    // spaces (all fog), from the coordinates alone.
    let hex = |(q, r): (i32, i32), (a, b): (i32, i32)| ((q - a).abs() + (r - b).abs() + (q + r - a - b).abs()) / 2;
    let reds = [(1, 0), (0, -1)];
    let want: Vec<usize> = (0..g.board.len())
        .filter(|&s| reds.iter().any(|&c| hex(g.board.coords[s], c) == 1))
        .filter(|&s| !matches!(g.board.kinds[s], Kind::Start(_)))
        .collect();
    assert_eq!(want.len(), 9);
    assert!(want.iter().all(|&s| g.board.kinds[s] == Kind::Fog));
    assert_eq!(red_spaces, want);
    // The red/blue card may place either colour.
    let blue_by_rb = actions(&g).iter().filter(|a| matches!(a, Action::Play { card: 3, colour: 1, .. })).count();
    assert!(blue_by_rb > 0);
    assert!(!actions(&g).iter().any(|a| matches!(a, Action::Play { colour: 2, .. })), "no yellow card");
    assert_eq!(actions(&g).iter().filter(|a| matches!(a, Action::Draw { .. })).count(), 4, "draw 0..=3");
}

#[test]
fn a_space_holds_two_ships_of_different_colours() {
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [2, 1, 0, 0, 0, 0]);
    let fog = at(&g, 1, -1); // next to the red/blue and the yellow/red start spaces
    g.apply_ok(play(0, RED, fog));
    assert_eq!(g.ships[fog], 0b001);
    assert!(!g.is_legal(g.current, &play(0, RED, fog)), "a second red ship");
    if g.phase == Phase::Play {
        assert!(g.is_legal(g.current, &play(1, BLUE, fog)));
        g.apply_ok(play(1, BLUE, fog));
        while g.phase != Phase::Play && !g.is_over() {
            let a = actions(&g)[0];
            g.apply_ok(a);
        }
        assert_eq!(g.ships[fog], 0b011);
        assert!(g.full >> fog & 1 == 1);
    }
    // Start spaces are full and tower sites never take ships.
    for a in actions(&g) {
        if let Action::Play { space, .. } = a {
            assert!(!matches!(g.board.kinds[space as usize], Kind::Site(_) | Kind::Start(_)));
        }
    }
}

#[test]
fn a_card_without_ships_of_its_colour_left_cannot_be_played() {
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    assert!(g.action_kinds(g.current) >> KIND_PLAY & 1 == 1);
    g.ship_supply[RED] = 0;
    assert_eq!(g.action_kinds(g.current), 1 << KIND_DRAW);
    assert!(!actions(&g).iter().any(|a| matches!(a, Action::Play { .. })));
}

#[test]
fn after_three_cards_the_turn_ends_without_a_draw() {
    let mut g = game(2, 3);
    set_hand(&mut g, 0, [3, 0, 0, 0, 0, 0]);
    // Plain shell spaces near the start: fog tiles decide; resolve whatever comes.
    for _ in 0..3 {
        assert_eq!(g.current, 0);
        let a = *actions(&g).iter().find(|a| matches!(a, Action::Play { .. })).expect("a red play");
        g.apply_ok(a);
        while g.current == 0 && g.phase != Phase::Play {
            let a = *actions(&g).iter().find(|a| !matches!(a, Action::EndDecorate)).unwrap();
            g.apply_ok(a);
        }
    }
    assert_eq!(g.players[0].cards_played, 3);
    assert_eq!(actions(&g), vec![Action::Draw { count: 0 }], "after the third card: only stopping, no draw");
    assert!(g.decision().continues_turn);
    let hand = g.players[0].hand;
    g.apply_ok(Action::Draw { count: 0 });
    assert_eq!(g.current, 1, "the turn ended");
    assert_eq!(g.players[0].hand, hand);
    assert_eq!(g.turns, 1);
}

#[test]
fn drawing_stops_at_three_minus_played_and_a_hand_of_seven() {
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [2, 2, 2, 0, 0, 0]);
    assert_eq!(g.max_draw(), 1, "hand 6: one card to 7");
    g.apply_ok(Action::Draw { count: 1 });
    assert_eq!(g.players[0].hand_size(), 7);
    assert_eq!(g.current, 1);
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    assert_eq!(g.max_draw(), 3);
    g.apply_ok(Action::Draw { count: 0 });
    assert_eq!(g.players[0].hand_size(), 1, "drawing is optional");
}

#[test]
fn card_rewards_stop_at_seven_and_the_discards_are_reshuffled() {
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [3, 2, 0, 1, 0, 0]);
    // A ship of red next to the bonus (5, 0) cards:2 points:3: on (4, 0).
    let bonus = at(&g, 5, 0);
    g.put_ship(RED, at(&g, 4, 0));
    g.apply_ok(play(0, RED, bonus));
    assert_eq!(g.players[0].hand_size(), 7, "6 after playing, 1 of the 2 cards drawn");
    assert_eq!(g.players[0].points, 3);
    assert_eq!(g.players[0].space_points, 3);
    g.check_invariants().unwrap();
    // Empty pile: the discards are shuffled into a new pile.
    let mut g = game(2, 2);
    let cards = g.pile_len;
    g.discard = [0; 6];
    for k in 0..cards as usize {
        g.discard[g.pile[k] as usize] += 1;
    }
    g.pile_len = 0;
    let hand = g.players[0].hand;
    set_hand(&mut g, 0, hand);
    let total: u8 = g.pile_len;
    // set_hand refilled the pile; empty it into the discards again.
    for k in 0..total as usize {
        g.discard[g.pile[k] as usize] += 1;
    }
    g.pile_len = 0;
    g.apply_ok(Action::Draw { count: 3 });
    assert_eq!(g.players[0].hand_size(), 7);
    assert_eq!(g.pile_len, total - 3);
    assert_eq!(g.discard, [0; 6]);
    g.check_invariants().unwrap();
}

// ------------------------------------------------------------------- rewards

#[test]
fn chained_ship_rewards_resolve_depth_first() {
    let mut g = game(2, 4);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    // Red ship on the fog (2, 0); the fog (3, 0) hides a ship; (3, -1) shows a ship.
    g.put_ship(RED, at(&g, 2, 0));
    let fog = at(&g, 3, 0);
    set_fog(&mut g, fog, Icon::Ship);
    let ship_space = at(&g, 3, -1);
    let shells = at(&g, 3, -2);
    g.apply_ok(play(0, RED, fog));
    assert_eq!(g.phase, Phase::Ship { colour: RED as u8, from: fog as u8 }, "the fog tile's ship");
    let slot = g.board.fog_slot[fog] as usize;
    assert!(g.fog_up >> slot & 1 == 1, "turned face up");
    assert!(actions(&g).contains(&Action::Ship { space: ship_space as u8 }));
    g.apply_ok(Action::Ship { space: ship_space as u8 });
    assert_eq!(g.phase, Phase::Ship { colour: RED as u8, from: ship_space as u8 }, "the space's ship");
    // Only neighbours of (3, -1) without a red ship: never the site (4, -1).
    for a in actions(&g) {
        let Action::Ship { space } = a else { panic!("{a:?}") };
        assert!(g.board.neigh[ship_space] >> space & 1 == 1);
        assert!(!matches!(g.board.kinds[space as usize], Kind::Site(_)));
        assert_ne!(g.board.kinds[space as usize], Kind::Crane, "crane without shells");
    }
    g.apply_ok(Action::Ship { space: shells as u8 });
    assert_eq!(g.players[0].shells[WHITE], 1);
    assert_eq!(g.players[0].ships_placed, 3);
    assert_eq!(g.ship_supply[RED], 15 - 1 - 3);
    assert_eq!(g.phase, Phase::Play);
    assert_eq!(g.current, 0, "the card play goes on");
    g.check_invariants().unwrap();
}

#[test]
fn a_ship_reward_without_room_is_lost() {
    let mut g = game(2, 4);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    let ship_space = at(&g, 3, -1);
    g.put_ship(RED, at(&g, 2, -1));
    // Fill every neighbour of (3, -1) a red ship could use.
    for s in spaces(g.board.neigh[ship_space] & g.board.ship_spaces) {
        if g.board.kinds[s] != Kind::Crane && g.ships[s] == 0 {
            g.put_ship(BLUE, s);
            g.put_ship(YELLOW, s);
        }
    }
    g.apply_ok(play(0, RED, ship_space));
    assert_eq!(g.phase, Phase::Play, "nothing to choose: the ship is lost");
    assert_eq!(g.players[0].ships_placed, 1);
}

#[test]
fn a_fog_tile_pays_the_first_and_the_second_ship() {
    let mut g = game(2, 4);
    set_hand(&mut g, 0, [1, 1, 0, 0, 0, 0]);
    let fog = at(&g, 1, -1);
    let icon = Icon::Shells { colour: GREEN as u8, n: 3 };
    set_fog(&mut g, fog, icon);
    g.apply_ok(play(0, RED, fog));
    assert_eq!(g.players[0].shells[GREEN], 3);
    g.apply_ok(play(1, BLUE, fog));
    assert_eq!(g.players[0].shells[GREEN], 6, "the second ship takes it again");
    assert!(g.full >> fog & 1 == 1, "then the space is full");
    g.check_invariants().unwrap();
}

#[test]
fn shells_of_choice_ask_for_a_colour_and_the_supply_limits_rewards() {
    let mut g = game(2, 4);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    let fog = at(&g, 1, -1);
    set_fog(&mut g, fog, Icon::Shells { colour: ANY, n: 3 });
    g.shell_supply[GREEN] = 0;
    g.players[1].shells[GREEN] = SHELL_VALUE;
    g.shell_supply[WHITE] = 2;
    g.players[1].shells[WHITE] = SHELL_VALUE - 2;
    g.apply_ok(play(0, RED, fog));
    assert_eq!(g.phase, Phase::Colour { n: 3 });
    let colours: Vec<Action> = actions(&g);
    assert_eq!(colours, vec![Action::Colour { colour: 0 }, Action::Colour { colour: 1 }, Action::Colour { colour: 3 }]);
    g.apply_ok(Action::Colour { colour: WHITE as u8 });
    assert_eq!(g.players[0].shells[WHITE], 2, "paid as far as the supply goes");
    g.check_invariants().unwrap();
}

// ------------------------------------------------------------------- towers

/// Player 0 with a red ship next to the crane (4, -2) and a red card.
fn at_crane(seed: u64) -> Titania {
    let mut g = game(2, seed);
    set_hand(&mut g, 0, [2, 0, 0, 0, 0, 0]);
    set_hand(&mut g, 1, [2, 0, 0, 0, 0, 0]);
    g.put_ship(RED, at(&g, 3, -1));
    g
}

#[test]
fn a_crane_needs_an_affordable_floor() {
    let mut g = at_crane(1);
    let crane = at(&g, 4, -2);
    assert!(!g.is_legal(g.current, &play(0, RED, crane)), "no shells");
    give_shells(&mut g, 0, GREEN, 1);
    assert!(g.is_legal(g.current, &play(0, RED, crane)), "a green floor on (4, -3)");
}

#[test]
fn a_crane_between_sites_builds_on_any_of_them() {
    let mut g = at_crane(1);
    let crane = at(&g, 4, -2);
    give_shells(&mut g, 0, WHITE, 3);
    give_shells(&mut g, 0, GREEN, 2);
    g.apply_ok(play(0, RED, crane));
    assert_eq!(g.phase, Phase::Build { crane: crane as u8, built: 0 });
    let (w, bg, wkb) = (site(&g, 4, -1), site(&g, 4, -3), site(&g, 5, -2));
    let mut want = vec![
        Action::Build { site: w as u8, colour: WHITE as u8 },
        Action::Build { site: bg as u8, colour: GREEN as u8 },
        Action::Build { site: wkb as u8, colour: WHITE as u8 },
    ];
    want.sort_by_key(|a| format!("{a:?}"));
    let mut got = actions(&g);
    got.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(got, want, "at least one floor: no stop yet");
    g.apply_ok(Action::Build { site: w as u8, colour: WHITE as u8 });
    assert_eq!((g.players[0].shells[WHITE], g.players[0].points), (2, 3), "floor 1 costs 1");
    assert!(actions(&g).contains(&Action::EndBuild));
    g.apply_ok(Action::Build { site: w as u8, colour: WHITE as u8 });
    assert_eq!((g.players[0].shells[WHITE], g.players[0].points), (0, 6), "floor 2 costs 2");
    g.apply_ok(Action::Build { site: bg as u8, colour: GREEN as u8 });
    assert_eq!(g.towers[bg][GREEN], 1);
    assert_eq!(g.players[0].shells[GREEN], 1);
    // Green floor 2 costs 2, white nothing left: the build ends by itself.
    assert_eq!(g.phase, Phase::Play);
    assert_eq!((g.players[0].floors, g.players[0].tower_points), (3, 9));
    g.check_invariants().unwrap();
}

#[test]
fn a_shared_tower_scores_each_floor_for_its_builder() {
    let mut g = at_crane(2);
    let crane = at(&g, 4, -2);
    let w = site(&g, 4, -1);
    give_shells(&mut g, 0, WHITE, 1);
    give_shells(&mut g, 1, WHITE, 9);
    g.apply_ok(play(0, RED, crane));
    g.apply_ok(Action::Build { site: w as u8, colour: WHITE as u8 });
    assert_eq!(g.phase, Phase::Play);
    g.apply_ok(Action::Draw { count: 0 });
    assert_eq!(g.current, 1);
    // Player 1 reaches the same crane through (3, -2)... a red ship there first.
    g.put_ship(RED, at(&g, 3, -2));
    // The crane holds one red ship: player 1 enters it with blue? No blue nearby: a red
    // ship may not join a red ship, so place a yellow ship next to it and use yellow.
    g.put_ship(YELLOW, at(&g, 3, -2));
    set_hand(&mut g, 1, [0, 0, 1, 0, 0, 0]);
    g.apply_ok(play(2, YELLOW, crane));
    assert_eq!(g.phase, Phase::Build { crane: crane as u8, built: 0 });
    g.apply_ok(Action::Build { site: w as u8, colour: WHITE as u8 });
    assert_eq!(g.towers[w][WHITE], 2, "the second floor of the same tower");
    assert_eq!(g.players[1].shells[WHITE], 7, "floor 2 costs 2");
    g.apply_ok(Action::Build { site: w as u8, colour: WHITE as u8 });
    assert_eq!(g.players[1].shells[WHITE], 4, "floor 3 costs 3");
    g.apply_ok(Action::Build { site: w as u8, colour: WHITE as u8 });
    assert_eq!(g.players[1].shells[WHITE], 0, "floor 4 costs 4");
    assert_eq!((g.players[0].tower_points, g.players[1].tower_points), (3, 9));
    assert!(!g.can_build(1, w, WHITE), "4 floors at most");
    g.check_invariants().unwrap();
}

#[test]
fn decorations_cost_a_starfish_per_icon_and_score_icons_and_floors() {
    let mut g = at_crane(3);
    let bg = site(&g, 4, -3);
    g.towers[bg][GREEN] = 2;
    g.floor_supply[GREEN] -= 2;
    g.players[1].floors = 2;
    g.players[1].tower_points = 6;
    g.players[1].points = 6;
    // The starfish space (5, -3): a red ship on (4, -2)? The crane: put one on (5, -4).
    g.put_ship(RED, at(&g, 5, -4));
    g.star_supply -= 1;
    g.players[0].stars = 1;
    let star = at(&g, 5, -3);
    g.apply_ok(play(0, RED, star));
    assert_eq!(g.players[0].stars, 2);
    assert_eq!(g.phase, Phase::Decorate);
    let decorations: Vec<Action> = actions(&g);
    assert!(decorations.contains(&Action::Decorate { site: bg as u8 }));
    let big = site(&g, -3, 5);
    assert!(!decorations.contains(&Action::Decorate { site: big as u8 }), "4 icons, 2 starfish");
    g.apply_ok(Action::Decorate { site: bg as u8 });
    assert_eq!(g.players[0].points, 2 + 2, "2 icons + 2 floors");
    assert_eq!(g.players[0].stars, 0);
    assert_eq!(g.star_supply, STARFISH - 1, "one starfish stays on the site, the other returns");
    assert_eq!(g.phase, Phase::Play, "nothing else affordable");
    // Later floors there score 4.
    give_shells(&mut g, 0, GREEN, 3);
    g.phase = Phase::Build { crane: at(&g, 4, -2) as u8, built: 0 };
    g.apply_ok(Action::Build { site: bg as u8, colour: GREEN as u8 });
    assert_eq!(g.players[0].tower_points, 4);
    // A site is decorated once per game.
    g.players[0].stars = 0;
    assert!(!g.can_decorate(1, bg));
    g.check_invariants().unwrap_or_else(|e| panic!("{e}"));
}

// ------------------------------------------------------------------- epochs and end

#[test]
fn the_epoch_ends_after_the_turn_that_empties_a_supply() {
    let mut g = game(2, 6);
    set_hand(&mut g, 0, [2, 0, 0, 0, 0, 0]);
    let s = at(&g, 2, -1);
    // The first floor of a tower and a decoration stay for the second epoch.
    g.towers[0][g.board.site_colours[0].trailing_zeros() as usize] = 1;
    g.floor_supply[g.board.site_colours[0].trailing_zeros() as usize] -= 1;
    g.players[1].floors = 1;
    g.players[1].points = 3;
    g.players[1].tower_points = 3;
    g.ship_supply[RED] = 1;
    g.apply_ok(play(0, RED, s));
    while g.phase != Phase::Play {
        let a = actions(&g)[0];
        g.apply_ok(a);
    }
    assert_eq!(g.ship_supply[RED], 0);
    assert_eq!(g.epoch, 0, "the turn goes on");
    assert!(!actions(&g).iter().any(|a| matches!(a, Action::Play { colour: 0, .. })));
    let hand = g.players[0].hand;
    g.apply_ok(Action::Draw { count: 0 });
    assert_eq!(g.epoch, 1);
    assert_eq!(g.epoch_turns, [1, 0]);
    assert_eq!(g.current, 1, "the next player starts the second epoch");
    assert_eq!(g.ship_supply, [18, 18, 18], "the 3 set aside join; 2 per colour on start spaces");
    assert_eq!(g.fog_up, 0, "fog face down again");
    assert_eq!(g.has[RED].count_ones(), 2);
    assert_eq!(g.players[0].hand, hand, "hands stay");
    assert_eq!(g.towers[0].iter().sum::<u8>(), 1, "towers stay");
    g.check_invariants().unwrap();
}

#[test]
fn the_epoch_ends_when_no_ship_can_be_placed_any_more() {
    let mut g = game(2, 6);
    assert!(!g.stalled());
    // Fill every space a red ship could enter with blue and yellow ships: red is blocked.
    for s in spaces(g.reach[RED] & g.board.ship_spaces & !g.full & !g.has[RED] & !g.board.cranes) {
        for c in [BLUE, YELLOW] {
            if g.ships[s] >> c & 1 == 0 && g.ships[s].count_ones() < 2 {
                g.put_ship(c, s);
            }
        }
    }
    assert_eq!(g.targets(0, RED), 0);
    g.check_invariants().unwrap();
    assert!(!g.stalled(), "blue and yellow can still sail");
    // An artificial position: no space is next to a ship of any colour (the frontier
    // caches emptied), though every supply holds ships.
    g.reach = [0; 3];
    assert!(g.stalled());
    assert!(g.ship_supply.iter().all(|&s| s > 0), "no supply is empty");
    g.apply_ok(Action::Draw { count: 0 });
    assert_eq!((g.epoch, g.stalls), (1, 1), "the epoch ends after the turn");
}

#[test]
fn the_game_ends_after_the_second_epoch_with_score_tiles_added() {
    let mut g = game(2, 7);
    g.epoch = 1;
    g.set_ships(0);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    g.players[0].tiles[0] = 5;
    g.players[0].n_tiles = 1;
    g.tile_len -= 1;
    g.ship_supply[RED] = 1;
    g.apply_ok(play(0, RED, at(&g, 2, -1)));
    while g.phase != Phase::Play {
        let a = actions(&g)[0];
        g.apply_ok(a);
    }
    g.apply_ok(Action::Draw { count: 0 });
    assert!(g.is_over());
    let p0 = &g.players[0];
    assert_eq!(g.scores()[0], (p0.points + 5) as i64);
}

#[test]
fn ties_break_on_starfish_and_shell_pieces_then_share() {
    let mut g = game(3, 8);
    g.players[0].points = 20;
    g.players[1].points = 20;
    g.players[2].points = 19;
    g.players[0].stars = 1;
    g.players[0].shells = [3, 0, 0, 0]; // a large and a small shell: 2 pieces
    g.players[1].shells = [1, 1, 1, 0]; // 3 pieces
    assert_eq!(g.tiebreaks(), vec![3, 3, 0]);
    let (ranks, wins) = crate::game::ranks_and_wins(&g.scores(), &g.tiebreaks());
    assert_eq!(ranks, vec![1, 1, 3]);
    assert_eq!(wins, vec![0.5, 0.5, 0.0]);
    g.players[1].shells = [1, 1, 1, 1];
    let (ranks, wins) = crate::game::ranks_and_wins(&g.scores(), &g.tiebreaks());
    assert_eq!((ranks, wins), (vec![2, 1, 3], vec![0.0, 1.0, 0.0]));
}

#[test]
fn the_tiebreak_caps_large_shells_at_the_ten_of_the_box() {
    let mut g = game(2, 8);
    g.players[0].points = 20;
    g.players[1].points = 20;
    g.players[0].shells = [0, 0, 0, 30]; // 10 large + 10 small: 20 pieces (uncapped: 15 large)
    g.players[1].stars = 17;
    assert_eq!(g.rules.tiebreak, Tiebreak::Components, "the components are the default");
    assert_eq!(g.tiebreaks(), vec![20, 17]);
    let (ranks, _) = crate::game::ranks_and_wins(&g.scores(), &g.tiebreaks());
    assert_eq!(ranks, vec![1, 2]);
    g.rules.tiebreak = Tiebreak::Uncapped;
    assert_eq!(g.tiebreaks(), vec![15, 17]);
    let (ranks, _) = crate::game::ranks_and_wins(&g.scores(), &g.tiebreaks());
    assert_eq!(ranks, vec![2, 1], "the uncapped reading flips this tie");
    // Up to 21 of value the readings agree (at most 10 large shells needed).
    for v in [0u8, 1, 2, 7, 20, 21] {
        g.players[0].shells = [v, 0, 0, 0];
        assert_eq!(g.players[0].shell_pieces(true), g.players[0].shell_pieces(false), "value {v}");
    }
    g.players[0].shells = [25, 22, 0, 0];
    assert_eq!((g.players[0].shell_pieces(true), g.players[0].shell_pieces(false)), (15 + 12, 13 + 11));
}

#[test]
fn draw_all_or_none_offers_none_or_the_most() {
    let draws = |g: &Titania| -> Vec<u8> {
        actions(g).iter().filter_map(|a| if let Action::Draw { count } = a { Some(*count) } else { None }).collect()
    };
    let mut g = game(2, 1);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    assert_eq!(draws(&g), vec![0, 1, 2, 3], "up_to (the default)");
    g.rules.draw = Draw::AllOrNone;
    assert_eq!(draws(&g), vec![0, 3]);
    assert!(!g.is_legal(0, &Action::Draw { count: 2 }));
    set_hand(&mut g, 0, [2, 2, 2, 0, 0, 0]);
    assert_eq!(draws(&g), vec![0, 1], "the hand limit caps the most");
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    g.apply_ok(Action::Draw { count: 3 });
    assert_eq!(g.players[0].hand_size(), 4);
}

#[test]
fn epoch_2_start_player_starts_the_second_epoch_again() {
    for (start, next) in [(Epoch2Start::Next, 2), (Epoch2Start::StartPlayer, 0)] {
        let mut g = game(3, 6);
        g.rules.epoch_2_start = start;
        g.apply_ok(Action::Draw { count: 0 }); // position 0's turn
        set_hand(&mut g, 1, [2, 0, 0, 0, 0, 0]);
        g.ship_supply[RED] = 1;
        g.apply_ok(play(0, RED, at(&g, 2, -1)));
        while g.phase != Phase::Play {
            let a = actions(&g)[0];
            g.apply_ok(a);
        }
        g.apply_ok(Action::Draw { count: 0 });
        assert_eq!(g.epoch, 1, "{start:?}");
        assert_eq!(g.current, next, "{start:?}: position 1 ended the first epoch");
        g.check_invariants().unwrap();
    }
}

#[test]
fn the_turn_cap_ends_the_game_flagged() {
    let mut g = game(2, 3);
    g.enable_log();
    let mut row = Vec::new();
    g.metrics(0, &mut row);
    assert_eq!(row.last(), Some(&Some(0)), "end_reason 0 (normal) until capped");
    g.turns = TURN_CAP - 1;
    g.apply_ok(Action::Draw { count: 0 });
    assert!(g.is_over() && g.capped);
    row.clear();
    g.metrics(1, &mut row);
    assert_eq!(row.last(), Some(&Some(1)), "end_reason 1: the turn cap");
    let log = g.take_log();
    assert!(log.iter().any(|e| e["event"] == "turn_cap"));
    let end = log.iter().find(|e| e["event"] == "final_scores").expect("final scores");
    assert_eq!(end["end_reason"], "turn_cap");
    assert_eq!(end["players"][0]["hand"], hand_json(&g.players[0].hand), "final hands");
}

#[test]
fn logs_carry_the_board_lines_the_rules_and_positions() {
    let b = Board::builtin();
    let lines = b.lines();
    assert_eq!(Board::parse(&lines.join("\n")).expect("the lines parse"), b, "the lines are the board");
    assert_eq!(lines.len(), b.len() + FOG_TILES + SCORE_TILES);
    let files = crate::options::Files::new();
    let agents = ["greedy".to_string(), "random".to_string()];
    let variant = serde_json::json!({"draw": "all_or_none"});
    let log =
        crate::batch::replay::<Titania>(&crate::batch::BatchSpec::new(&variant, &files, &agents, 4, true), 1).unwrap();
    let events = log["events"].as_array().unwrap();
    let setup = &events[0];
    assert_eq!(setup["board_lines"].as_array().unwrap().len(), lines.len());
    assert_eq!(setup["rules"]["draw"], "all_or_none");
    assert_eq!(setup["start_position"], 0);
    let rewards = setup["reward_spaces"].as_array().unwrap();
    let want = b.kinds.iter().filter(|k| matches!(k, Kind::Reward(_) | Kind::Bonus(_))).count();
    assert_eq!(rewards.len(), want);
    for e in events.iter().filter(|e| e["event"] != "action") {
        assert!(e.get("player").is_none(), "a rule event names the position, not the player: {e}");
    }
    assert!(events.iter().any(|e| e["event"] == "ship" && e["position"].is_u64()));
    // pair_seats game 1: agent 1 sits at position 0, so a rule event's position differs
    // from the agent index of the action before it.
    let acts: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "action").collect();
    assert!(acts.iter().all(|a| a["position"] != a["player"]));
}

#[test]
fn every_rule_switch_plays_whole_games() {
    for (k, rules) in all_rules().into_iter().enumerate() {
        for n in 2..=4 {
            let mut g = game(n, 40 + k as u64);
            g.rules = rules;
            let mut rng = agent_rng(1, k as u64, n as u64);
            while !g.is_over() {
                random_step(&mut g, &mut rng);
            }
            g.check_invariants().unwrap();
            assert!(!g.capped, "{rules:?} {n}p");
        }
    }
}

/// Every combination of the rule switches.
pub fn all_rules() -> Vec<Rules> {
    (0..8)
        .map(|k| Rules {
            tiebreak: [Tiebreak::Components, Tiebreak::Uncapped][k & 1],
            draw: [Draw::UpTo, Draw::AllOrNone][k >> 1 & 1],
            epoch_2_start: [Epoch2Start::Next, Epoch2Start::StartPlayer][k >> 2],
        })
        .collect()
}

// ------------------------------------------------------------------- hidden information

#[test]
fn determinize_keeps_what_the_observer_knows() {
    let mut g = game(3, 11);
    let mut rng = agent_rng(1, 2, 3);
    for _ in 0..40 {
        random_step(&mut g, &mut rng);
    }
    for observer in 0..3 {
        let obs = g.observation(observer);
        let sorted = |mut z: Vec<Vec<u32>>| {
            z.iter_mut().for_each(|x| x.sort_unstable());
            z
        };
        let hidden = sorted(g.hidden(observer));
        assert_eq!(hidden.len(), 3);
        assert!(hidden.iter().all(|z| !z.is_empty()), "cards, fog tiles and score tiles are hidden");
        let mut moved = 0;
        for k in 0..20 {
            let d = g.determinize(observer, &mut agent_rng(5, k, 0));
            assert_eq!(d.observation(observer), obs);
            if d.hidden(observer) != g.hidden(observer) {
                moved += 1;
            }
            assert_eq!(sorted(d.hidden(observer)), hidden);
            d.check_invariants().unwrap();
        }
        assert!(moved > 15, "the hidden items are shuffled");
        // The result depends only on what the observer knows.
        let other = g.determinize(observer, &mut agent_rng(9, 9, 9));
        let a = g.determinize(observer, &mut agent_rng(5, 0, 0));
        let b = other.determinize(observer, &mut agent_rng(5, 0, 0));
        assert_eq!(a.hidden(observer), b.hidden(observer));
    }
}

// ------------------------------------------------------------------- random play

fn random_step(g: &mut Titania, rng: &mut Rng) {
    let kinds = g.action_kinds(g.current);
    let kind = crate::agents::random::random_kind(kinds, rng);
    let mut out = Vec::new();
    g.legal_actions(g.current, Some(kind), &mut out);
    let a = out[below(rng, out.len())];
    g.apply_ok(a);
}

/// Plays random games checking, after every action: conservation (ships, shells, floors,
/// starfish, cards, score tiles), no space over capacity, caches against the board, that
/// `legal_now` agrees with the legal list, and that the game ends. Returns the actions,
/// the epochs ended by a stall and the games stopped by the turn cap.
pub fn invariant_run(games: u64, seed: u64) -> (u64, u64, u64) {
    let board = Arc::new(Board::builtin());
    let (mut actions, mut stalls, mut capped) = (0u64, 0u64, 0u64);
    let mut legal = Vec::new();
    for i in 0..games {
        let n = 2 + (i % 3) as usize;
        let mut g = Titania::with_board(board.clone(), Arc::from("built-in"), n, deal_rng(seed, i));
        g.rules = all_rules()[(i / 3 % 8) as usize];
        let mut rng = agent_rng(seed, i, 0);
        g.check_invariants().unwrap_or_else(|e| panic!("game {i} set-up: {e}"));
        let full_check = i % 50 == 0;
        let mut epoch = 0;
        while !g.is_over() {
            if full_check {
                legal.clear();
                g.legal_actions(g.current, None, &mut legal);
                assert!(!legal.is_empty(), "game {i}: no legal action");
                for a in &legal {
                    assert!(g.is_legal(g.current, a), "game {i}: {a:?} listed but not legal");
                }
                let kinds = legal.iter().fold(0u32, |m, a| m | 1 << kind_of(a));
                assert_eq!(kinds, g.action_kinds(g.current), "game {i}: kinds");
            }
            let before = g.epoch;
            random_step(&mut g, &mut rng);
            actions += 1;
            if g.epoch != before || g.is_over() {
                epoch += 1;
            }
            g.check_invariants().unwrap_or_else(|e| panic!("game {i}: {e}"));
        }
        stalls += g.stalls as u64;
        if g.turns >= TURN_CAP {
            capped += 1;
        }
        assert!(epoch >= 1);
        assert_eq!(g.epoch_turns[0] + g.epoch_turns[1], g.turns);
    }
    (actions, stalls, capped)
}

pub fn kind_of(a: &Action) -> u32 {
    match a {
        Action::Play { .. } => KIND_PLAY,
        Action::Draw { .. } => KIND_DRAW,
        Action::Colour { .. } => KIND_COLOUR,
        Action::Ship { .. } => KIND_SHIP,
        Action::Build { .. } => KIND_BUILD,
        Action::EndBuild => KIND_END_BUILD,
        Action::Decorate { .. } => KIND_DECORATE,
        Action::EndDecorate => KIND_END_DECORATE,
    }
}

#[test]
fn invariants_hold_in_random_play() {
    let games = std::env::var("BALANCELAB_INVARIANT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let t = std::time::Instant::now();
    let (actions, stalls, capped) = invariant_run(games, 2026);
    eprintln!(
        "titania invariant run: {games} games, {actions} actions ({stalls} epochs ended by a stall, {capped} games \
         at the turn cap) in {:.1}s",
        t.elapsed().as_secs_f64()
    );
    assert!(actions > games * 40);
    assert_eq!(capped, 0, "random games end by the rules");
}

// ------------------------------------------------------------------- agents

#[test]
fn greedy_values_floors_draws_and_face_down_fog_honestly() {
    let mut g = at_crane(1);
    let crane = at(&g, 4, -2);
    let w = site(&g, 4, -1);
    give_shells(&mut g, 0, WHITE, 10);
    g.apply_ok(play(0, RED, crane));
    let build = Action::Build { site: w as u8, colour: WHITE as u8 };
    let mut values = Vec::new();
    for floor in 1..=4 {
        values.push(g.greedy_value(0, &build));
        g.apply_ok(build);
        assert_eq!(g.towers[w][WHITE], floor);
        if floor < 4 {
            assert_eq!(g.phase, Phase::Build { crane: crane as u8, built: floor });
        }
    }
    assert!(values[0] > values[1] && values[1] > values[2] && values[2] > 0.0, "{values:?}");
    assert!(values[3] < 0.0, "a 4th floor costs more than it scores undecorated: {values:?}");
    // Stopping and drawing the most is the baseline; drawing fewer is worse.
    let mut g = game(2, 2);
    set_hand(&mut g, 0, [1, 0, 0, 0, 0, 0]);
    assert_eq!(g.greedy_value(0, &Action::Draw { count: 3 }), 0.0);
    assert!(g.greedy_value(0, &Action::Draw { count: 1 }) < 0.0);
    // A face-down fog tile is valued from what the player knows: moving the tiles does not
    // change the value of playing onto it.
    let fog = at(&g, 1, -1);
    let a = play(0, RED, fog);
    let before = g.greedy_value(0, &a);
    g.fog_tile.rotate_left(1);
    assert_eq!(g.greedy_value(0, &a), before);
}

#[test]
fn every_agent_plays_through_the_batch_runner() {
    let files = crate::options::Files::new();
    for (n, spec) in [(2, "random"), (3, "greedy"), (4, "mcts:iters=20"), (2, "mcts:iters=40")] {
        let agents: Vec<String> = (0..n).map(|_| spec.to_string()).collect();
        let games = if spec.starts_with("mcts") { 2 } else { 20 };
        let a = crate::batch::simulate::<Titania>(
            &crate::batch::BatchSpec::new(&serde_json::json!({}), &files, &agents, 3, true),
            0,
            games,
        )
        .unwrap();
        let b = crate::batch::simulate::<Titania>(
            &crate::batch::BatchSpec::new(&serde_json::json!({}), &files, &agents, 3, true),
            0,
            games,
        )
        .unwrap();
        assert_eq!(a, b, "{spec}: reproducible");
        assert_eq!(a.score.len(), games as usize * n);
    }
    let agents = ["greedy".to_string(), "random".to_string()];
    let cols = crate::batch::simulate::<Titania>(
        &crate::batch::BatchSpec::new(&serde_json::json!({}), &files, &agents, 1, true),
        0,
        200,
    )
    .unwrap();
    let greedy: f64 = cols.win.iter().zip(&cols.player).filter(|(_, p)| **p == 0).map(|(w, _)| w).sum();
    assert!(greedy >= 190.0, "greedy won {greedy} of 200");
}

#[test]
fn the_board_option_reads_the_text_given_and_refuses_bad_boards() {
    use serde_json::json;
    let mut files = crate::options::Files::new();
    files.insert("b.txt".into(), BUILTIN.replace("space   4  -2  crane", "space   4  -2  reward  points:1"));
    let err = Titania::parse_variant(&json!({"board": "b.txt"}), 2, &files).unwrap_err().to_string();
    assert!(err.contains("\"board\"") && err.contains("b.txt"), "{err}");
    assert!(err.contains("space (4, -1) site: no crane next to it"), "{err}");
    assert!(Titania::parse_variant(&json!({"board": "none.txt"}), 2, &files).is_err(), "no text given");
    assert!(Titania::parse_variant(&json!({"board": 3}), 2, &files).is_err());
    files.insert("ok.txt".into(), BUILTIN.to_string());
    let v = Titania::parse_variant(&json!({"board": "ok.txt"}), 2, &files).unwrap();
    assert_eq!(&*v.board_source, "ok.txt");
    assert_eq!(*v.board, Board::builtin());
    let d = Titania::parse_variant(&json!({}), 3, &files).unwrap();
    assert_eq!(&*d.board_source, "built-in");
}

#[test]
fn the_cards_feature_counts_the_draw_still_owed_this_turn() {
    use crate::conformance::feature;
    let mut g = game(2, 3);
    set_hand(&mut g, 0, [3, 0, 0, 0, 0, 0]);
    set_hand(&mut g, 1, [0, 2, 0, 0, 0, 0]);
    assert_eq!((feature(&g, 0, "cards"), feature(&g, 1, "cards")), (6.0 / 5.0, 2.0 / 5.0), "3 in hand + 3 to draw");
    let a = *actions(&g).iter().find(|a| matches!(a, Action::Play { .. })).expect("a red play");
    g.apply_ok(a);
    while g.current == 0 && g.phase != Phase::Play {
        let a = *actions(&g).iter().find(|a| !matches!(a, Action::EndDecorate)).unwrap();
        g.apply_ok(a);
    }
    let hand = g.players[0].hand_size();
    assert_eq!(g.max_draw(), 2, "one card played: two still to draw");
    assert_eq!(feature(&g, 0, "cards"), (hand + 2) as f32 / 5.0, "a card played costs the card and a draw");
    let before = feature(&g, 0, "cards");
    g.apply_ok(Action::Draw { count: 2 });
    assert_eq!(g.current, 1);
    assert_eq!(feature(&g, 0, "cards"), before, "stopping with the most draw keeps the count");
    assert_eq!(feature(&g, 1, "cards"), 5.0 / 5.0, "the next player's turn owes it three");
}
