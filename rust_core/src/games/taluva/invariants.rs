//! Brute-force move generators and the consistency checks of the random-play invariant
//! run (`tests.rs`, `BALANCELAB_INVARIANT_GAMES`). Nothing here is used in play.

use super::hex::*;
use super::state::*;
use super::tiles::{TERRAINS, VOLCANO};
use super::variant::{EruptionLevels, Expansion, NewHut};
use std::collections::{BTreeSet, HashMap, HashSet};

type Hex = (i16, i16);

fn neighbours(h: Hex) -> [Hex; 6] {
    std::array::from_fn(|k| step(h.0, h.1, k))
}

/// Everything on the map by coordinates: (level, terrain, vdir, building, owner).
fn board(g: &Taluva) -> HashMap<Hex, (u8, u8, u8, u8, u8)> {
    g.map
        .land_cells()
        .iter()
        .map(|&c| {
            let i = c as usize;
            let m = &g.map;
            (m.coord(c), (m.level[i], m.terrain[i], m.vdir[i], m.building[i], m.owner[i]))
        })
        .collect()
}

/// Settlements by flood fill over coordinates: each as a set of hexes with its owner.
fn naive_settlements(b: &HashMap<Hex, (u8, u8, u8, u8, u8)>) -> Vec<(u8, BTreeSet<Hex>)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut keys: Vec<&Hex> = b.keys().collect();
    keys.sort();
    for &h in keys {
        let who = b[&h].4;
        if who == NOBODY || seen.contains(&h) {
            continue;
        }
        let mut set = BTreeSet::new();
        let mut todo = vec![h];
        seen.insert(h);
        while let Some(x) = todo.pop() {
            set.insert(x);
            for y in neighbours(x) {
                if b.get(&y).is_some_and(|e| e.4 == who) && seen.insert(y) {
                    todo.push(y);
                }
            }
        }
        out.push((who, set));
    }
    out
}

fn naive_placement_ok(g: &Taluva, b: &HashMap<Hex, (u8, u8, u8, u8, u8)>, q: i16, r: i16, rot: usize) -> bool {
    if b.is_empty() {
        return (q, r, rot) == (0, 0, FIRST_ROT as usize);
    }
    let hexes = tile_hexes(q, r, rot);
    let levels: Vec<u8> = hexes.iter().map(|h| b.get(h).map_or(0, |e| e.0)).collect();
    if levels.iter().all(|&l| l == 0) {
        return hexes.iter().any(|&h| neighbours(h).iter().any(|n| b.contains_key(n)));
    }
    let same = levels[1] == levels[0] && levels[2] == levels[0];
    let levels_ok = match g.variant.eruption_levels {
        EruptionLevels::Same => same,
        EruptionLevels::Any => levels.iter().all(|&l| l > 0),
    };
    if levels[0] == 0 || !levels_ok {
        return false;
    }
    let v = b[&hexes[0]];
    if v.1 != VOLCANO || v.2 as usize == rot {
        return false;
    }
    if hexes.iter().any(|h| matches!(b[h].3, TEMPLE | TOWER)) {
        return false;
    }
    let covered: BTreeSet<Hex> = hexes.iter().copied().collect();
    !naive_settlements(b).iter().any(|(_, s)| s.is_subset(&covered))
}

/// Every legal placement, by trying every rotation of every hex near the land.
pub fn naive_placements(g: &Taluva) -> BTreeSet<Action> {
    let b = board(g);
    let mut out = BTreeSet::new();
    if b.is_empty() {
        out.insert(Action::Place { q: 0, r: 0, rot: FIRST_ROT });
        return out;
    }
    let (q0, q1) = (b.keys().map(|h| h.0).min().unwrap() - 3, b.keys().map(|h| h.0).max().unwrap() + 3);
    let (r0, r1) = (b.keys().map(|h| h.1).min().unwrap() - 3, b.keys().map(|h| h.1).max().unwrap() + 3);
    for q in q0..=q1 {
        for r in r0..=r1 {
            for rot in 0..6 {
                if naive_placement_ok(g, &b, q, r, rot) {
                    out.insert(Action::Place { q: q as i8, r: r as i8, rot: rot as u8 });
                }
            }
        }
    }
    out
}

/// Every legal build of player `p`, from the rules read directly off the map.
pub fn naive_builds(g: &Taluva, p: usize) -> BTreeSet<Action> {
    let b = board(g);
    let me = g.players[p];
    let settlements = naive_settlements(&b);
    let mine: Vec<&BTreeSet<Hex>> = settlements.iter().filter(|s| s.0 == p as u8).map(|s| &s.1).collect();
    let free = |h: &Hex| b.get(h).is_some_and(|e| e.1 != VOLCANO && e.3 == EMPTY);
    let cell = |h: &Hex| g.map.find(h.0, h.1);
    let touches = |h: &Hex, s: &BTreeSet<Hex>| neighbours(*h).iter().any(|n| s.contains(n));
    let has = |s: &BTreeSet<Hex>, kind: u8| s.iter().any(|h| b[h].3 == kind);
    let mut out = BTreeSet::new();
    for (h, e) in &b {
        if !free(h) {
            continue;
        }
        let own_next = neighbours(*h).iter().any(|n| b.get(n).is_some_and(|x| x.4 == p as u8));
        let rule_ok = g.variant.new_hut == NewHut::Anywhere || !own_next;
        if me.huts > 0 && e.0 == 1 && rule_ok {
            out.insert(Action::Hut { cell: cell(h) });
        }
        if me.temples > 0 && mine.iter().any(|s| s.len() >= 3 && !has(s, TEMPLE) && touches(h, s)) {
            out.insert(Action::Temple { cell: cell(h) });
        }
        if me.towers > 0 && e.0 >= 3 && mine.iter().any(|s| !has(s, TOWER) && touches(h, s)) {
            out.insert(Action::Tower { cell: cell(h) });
        }
    }
    for s in &mine {
        for t in TERRAINS {
            let of_t = |h: &Hex| free(h) && b[h].1 == t;
            let mut fill: BTreeSet<Hex> = b.keys().filter(|h| of_t(h) && touches(h, s)).copied().collect();
            if g.variant.expansion == Expansion::Connected {
                let mut todo: Vec<Hex> = fill.iter().copied().collect();
                while let Some(x) = todo.pop() {
                    for y in neighbours(x) {
                        if of_t(&y) && fill.insert(y) {
                            todo.push(y);
                        }
                    }
                }
            }
            let cost: u32 = fill.iter().map(|h| b[h].0 as u32).sum();
            if !fill.is_empty() && cost <= me.huts as u32 {
                let id = s.iter().map(&cell).min().unwrap();
                out.insert(Action::Expand { cell: id, terrain: t });
            }
        }
    }
    out
}

/// Conservation and consistency of a position; with `deep`, also the settlements against a
/// flood fill by coordinates.
pub fn check(g: &Taluva, deep: bool) -> Result<(), String> {
    let m = &g.map;
    let placed: u32 = g.players[..g.n].iter().map(|p| p.tiles_placed as u32).sum();
    let level_sum: u32 = m.land_cells().iter().map(|&c| m.level[c as usize] as u32).sum();
    if level_sum != 3 * placed {
        return Err(format!("stack heights {level_sum} != 3 x {placed} tiles placed"));
    }
    if m.n_land as u32 > 3 * placed {
        return Err("more land hexes than tiles placed allow".into());
    }
    let (mut huts, mut temples, mut towers) = ([0u32; MAX_PLAYERS], [0u32; MAX_PLAYERS], [0u32; MAX_PLAYERS]);
    for &c in m.land_cells() {
        let i = c as usize;
        if m.level[i] == 0 {
            return Err("a land cell at level 0".into());
        }
        if m.nb[i].contains(&NONE) {
            return Err("a land cell with an unknown neighbour".into());
        }
        if m.building[i] == EMPTY {
            if m.owner[i] != NOBODY {
                return Err("an owner without a building".into());
            }
            continue;
        }
        if m.terrain[i] == VOLCANO {
            return Err(format!("a building on the volcano at {:?}", m.coord(c)));
        }
        let o = m.owner[i] as usize;
        match m.building[i] {
            HUT => huts[o] += m.level[i] as u32,
            TEMPLE => temples[o] += 1,
            TOWER => towers[o] += 1,
            other => return Err(format!("unknown building {other}")),
        }
    }
    for (p, me) in g.players[..g.n].iter().enumerate() {
        if huts[p] + me.huts as u32 + me.huts_lost as u32 != HUTS as u32 {
            return Err(format!("player {p}: huts not conserved"));
        }
        if temples[p] + me.temples as u32 != TEMPLES as u32 || towers[p] + me.towers as u32 != TOWERS as u32 {
            return Err(format!("player {p}: temples or towers not conserved"));
        }
    }
    for &f in m.frontier_cells() {
        let i = f as usize;
        if m.level[i] != 0 || !m.nb[i].iter().any(|&n| m.is_land(n)) {
            return Err("a frontier cell that is land or touches no land".into());
        }
    }
    let known_sea = (0..m.n_cells).filter(|&c| m.level[c as usize] == 0).count();
    if known_sea != m.n_frontier as usize {
        return Err("frontier list out of step with the known sea".into());
    }
    if !deep {
        return Ok(());
    }
    let b = board(g);
    let mut naive: Vec<(u8, Vec<u16>)> =
        naive_settlements(&b).into_iter().map(|(o, s)| (o, s.iter().map(|h| m.find(h.0, h.1)).collect())).collect();
    let s = &g.settlements;
    let mut mine: Vec<(u8, Vec<u16>)> = (0..s.n as usize)
        .map(|k| {
            let mut v = s.cells(k).to_vec();
            v.sort();
            (s.owner[k], v)
        })
        .collect();
    for v in naive.iter_mut() {
        v.1.sort();
    }
    naive.sort();
    mine.sort();
    if naive != mine {
        return Err("settlements differ from a flood fill".into());
    }
    Ok(())
}
