//! Plays Hiroba games in a tight loop (engine and agent speed):
//! `cargo run --release --example hiroba_play -- GAMES PLAYERS [AGENT ...] [VARIANT_JSON]`,
//! e.g. `-- 100000 4` (random players) or `-- 200 2 mcts:iters=200 greedy '{"line_rule": "last"}'`.

use rust_core::batch::BatchSpec;
use rust_core::registry;
use serde_json::{json, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let players: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut rest: Vec<String> = args[3.min(args.len())..].to_vec();
    let variant: Value = match rest.last().filter(|s| s.starts_with('{')) {
        Some(s) => serde_json::from_str(s).expect("variant JSON"),
        None => json!({}),
    };
    if variant != json!({}) {
        rest.pop();
    }
    let agents = if rest.is_empty() { vec!["random".to_string(); players] } else { rest };
    let t = Instant::now();
    let cols = registry::simulate("hiroba", &BatchSpec::new(&variant, &Default::default(), &agents, 1, true), 0, games)
        .expect("runs");
    let dt = t.elapsed().as_secs_f64();
    let n = agents.len();
    let wins: Vec<f64> = (0..n)
        .map(|p| {
            cols.win.iter().zip(&cols.player).filter(|(_, q)| **q == p as i32).map(|(w, _)| w).sum::<f64>()
                / games as f64
        })
        .collect();
    let turns = cols.turns.iter().map(|&t| t as f64).sum::<f64>() / cols.turns.len() as f64;
    println!(
        "{agents:?} {variant}: {games} games in {dt:.2}s = {:.0} games/s; mean turns {turns:.1}; win share by agent {wins:?}",
        games as f64 / dt
    );
}
