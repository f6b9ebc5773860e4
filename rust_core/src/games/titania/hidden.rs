//! What each player knows, and states drawn from it.
//!
//! Hidden from an observer: the order of the draw pile and the other players' hands (only
//! their sizes are public; the discards are public), the face-down fog tiles (the tiles of
//! this epoch not yet turned up are known as a multiset), the score-tile pile and the
//! other players' score tiles (only how many each holds), and the stream of future chance
//! events. Everything else is public. A determinized state pools each kind of hidden item,
//! sorts the pool (so the result does not depend on where the items really are), shuffles
//! it and deals it back with the same sizes.

use super::board::SHELL_COLOURS;
use super::state::{hand_json, Titania, CARD_NAMES};
use crate::rng::{child, shuffle, Rng};
use serde_json::{json, Value};

/// Offsets of the codes of [`zones`]: cards, fog tiles, score tiles.
pub const CARD_CODE: u32 = 100;
pub const FOG_CODE: u32 = 200;
pub const TILE_CODE: u32 = 300;

/// A state consistent with what `observer` knows.
pub fn determinize(state: &Titania, observer: usize, rng: &mut Rng) -> Titania {
    resampled(state, Some(observer), rng)
}

/// A state consistent with what every player knows: only what nobody has seen (the draw pile's
/// order, the face-down fog tiles, the score-tile pile, the future chance stream) is drawn
/// afresh; every hand and every player's score tiles stay.
pub fn resample_chance(state: &Titania, rng: &mut Rng) -> Titania {
    resampled(state, None, rng)
}

/// A state consistent with what `observer` knows (`None`: what every player knows).
fn resampled(state: &Titania, observer: Option<usize>, rng: &mut Rng) -> Titania {
    let mut g = state.clone();
    g.disable_log();
    // Cards: the draw pile and the other hands.
    let mut pool: Vec<u8> = g.pile[..g.pile_len as usize].to_vec();
    for q in (0..g.n).filter(|&q| observer.is_some_and(|o| o != q)) {
        for t in 0..6 {
            pool.extend(std::iter::repeat_n(t as u8, g.players[q].hand[t] as usize));
        }
    }
    pool.sort_unstable();
    shuffle(rng, &mut pool);
    let mut it = pool.into_iter();
    for q in (0..g.n).filter(|&q| observer.is_some_and(|o| o != q)) {
        let size = g.players[q].hand_size();
        g.players[q].hand = [0; 6];
        for c in it.by_ref().take(size as usize) {
            g.players[q].hand[c as usize] += 1;
        }
    }
    for (k, c) in it.enumerate() {
        g.pile[k] = c;
    }
    // Face-down fog tiles.
    let down: Vec<usize> = (0..g.board.fog_spaces.len()).filter(|&s| g.fog_up >> s & 1 == 0).collect();
    let mut tiles: Vec<u8> = down.iter().map(|&s| g.fog_tile[s]).collect();
    tiles.sort_unstable();
    shuffle(rng, &mut tiles);
    for (&s, t) in down.iter().zip(tiles) {
        g.fog_tile[s] = t;
    }
    // Score tiles: the pile and the other players' tiles.
    let mut pool: Vec<u8> = g.tile_pile[..g.tile_len as usize].to_vec();
    for q in (0..g.n).filter(|&q| observer.is_some_and(|o| o != q)) {
        let me = &g.players[q];
        pool.extend_from_slice(&me.tiles[..me.n_tiles as usize]);
    }
    pool.sort_unstable();
    shuffle(rng, &mut pool);
    let mut it = pool.into_iter();
    for q in (0..g.n).filter(|&q| observer.is_some_and(|o| o != q)) {
        let k = g.players[q].n_tiles as usize;
        for slot in 0..k {
            g.players[q].tiles[slot] = it.next().expect("pool holds every hidden tile");
        }
    }
    for (k, v) in it.enumerate() {
        g.tile_pile[k] = v;
    }
    g.rng = child(rng);
    g
}

/// Everything `observer` knows, as a comparable value.
pub fn observation(g: &Titania, observer: usize) -> Value {
    let b = &g.board;
    let fog: Vec<Value> = (0..b.fog_spaces.len())
        .map(|s| if g.fog_up >> s & 1 == 1 { json!(b.fog_tiles[g.fog_tile[s] as usize].name()) } else { Value::Null })
        .collect();
    let players: Vec<Value> = (0..g.n)
        .map(|q| {
            let me = &g.players[q];
            let mut v = json!({
                "points": me.points, "shells": me.shells, "stars": me.stars, "hand_size": me.hand_size(),
                "score_tiles": me.n_tiles, "floors": me.floors, "ships_placed": me.ships_placed,
                "cards_played": me.cards_played, "tower_points": me.tower_points,
                "decoration_points": me.decoration_points, "space_points": me.space_points,
            });
            if q == observer {
                v["hand"] = hand_json(&me.hand);
                v["tiles"] = json!(me.tiles[..me.n_tiles as usize]);
            }
            v
        })
        .collect();
    json!({
        "observer": observer,
        "current": g.current,
        "phase": format!("{:?}", g.phase),
        "played": g.played,
        "stack": g.stack[..g.stack_len as usize].iter().map(|e| format!("{e:?}")).collect::<Vec<_>>(),
        "epoch": g.epoch,
        "turns": g.turns,
        "epoch_turns": g.epoch_turns,
        "ships": g.ships[..b.len()].to_vec(),
        "fog": fog,
        "towers": g.towers[..b.sites.len()].to_vec(),
        "decorated": g.decorated,
        "ship_supply": g.ship_supply,
        "floor_supply": g.floor_supply,
        "shell_supply": g.shell_supply,
        "star_supply": g.star_supply,
        "pile": g.pile_len,
        "discard": (0..6).map(|t| json!({CARD_NAMES[t]: g.discard[t]})).collect::<Vec<_>>(),
        "tile_pile": g.tile_len,
        "players": players,
        "shell_colours": SHELL_COLOURS,
    })
}

/// The items hidden from `observer` in three zones, each in the order the game reveals
/// them: cards (the draw pile from the top, then the other hands), the face-down fog tiles
/// by fog space, score tiles (the pile from the top, then the other players' tiles).
pub fn zones(g: &Titania, observer: usize) -> Vec<Vec<u32>> {
    let mut cards: Vec<u32> = g.pile[..g.pile_len as usize].iter().rev().map(|&c| CARD_CODE + c as u32).collect();
    for q in (0..g.n).filter(|&q| q != observer) {
        for t in 0..6 {
            cards.extend(std::iter::repeat_n(CARD_CODE + t as u32, g.players[q].hand[t] as usize));
        }
    }
    let fog: Vec<u32> = (0..g.board.fog_spaces.len())
        .filter(|&s| g.fog_up >> s & 1 == 0)
        .map(|s| FOG_CODE + g.fog_tile[s] as u32)
        .collect();
    let mut tiles: Vec<u32> = g.tile_pile[..g.tile_len as usize].iter().rev().map(|&v| TILE_CODE + v as u32).collect();
    for q in (0..g.n).filter(|&q| q != observer) {
        let me = &g.players[q];
        tiles.extend(me.tiles[..me.n_tiles as usize].iter().map(|&v| TILE_CODE + v as u32));
    }
    vec![cards, fog, tiles]
}
