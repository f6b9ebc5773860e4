//! Plays Alhambra games in a tight loop (for profiling the engine and agents):
//! `cargo run --release --example random_play -- GAMES PLAYERS [AGENT ...]`.

use rust_core::batch::BatchSpec;
use rust_core::registry;
use serde_json::json;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let players: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut agents: Vec<String> = args[3.min(args.len())..].to_vec();
    if agents.is_empty() {
        agents = vec!["random".to_string(); players];
    }
    let t = Instant::now();
    let cols =
        registry::simulate("alhambra", &BatchSpec::new(&json!({}), &Default::default(), &agents, 1, false), 0, games)
            .expect("runs");
    let dt = t.elapsed().as_secs_f64();
    let wins: Vec<f64> = (0..players)
        .map(|p| {
            cols.win.iter().zip(&cols.player).filter(|(_, q)| **q == p as i32).map(|(w, _)| w).sum::<f64>()
                / games as f64
        })
        .collect();
    println!("{agents:?}: {games} games in {dt:.2}s = {:.0} games/s; win share by player {wins:?}", games as f64 / dt);
}
