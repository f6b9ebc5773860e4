//! Plays games of any game in a tight loop on one core (engine and agent speed, and the binary to
//! profile): `cargo run --release --example play -- GAME GAMES [AGENT ...] [VARIANT_JSON]`, e.g.
//! `-- alhambra 20000` (2 random players), `-- maharaja 8 xmcts:iters=300 xmcts:iters=300` or
//! `-- hiroba 200 mcts:iters=200 greedy '{"line_rule": "last"}'`. Seats are paired, seed 1.
//! Prints games/s by process CPU time (what equal-time comparisons equalise), mean turns and
//! the win share by player.

use cpu_time::ProcessTime;
use rust_core::batch::BatchSpec;
use rust_core::registry;
use serde_json::{json, Value};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: play GAME GAMES [AGENT ...] [VARIANT_JSON]";
    let game = args.get(1).expect(usage).clone();
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let mut agents: Vec<String> = args[3.min(args.len())..].to_vec();
    let variant: Value = match agents.last().filter(|s| s.starts_with('{')) {
        Some(s) => serde_json::from_str(s).expect("variant JSON"),
        None => json!({}),
    };
    if variant != json!({}) {
        agents.pop();
    }
    if agents.is_empty() {
        agents = vec!["random".to_string(); 2];
    }
    let t = ProcessTime::now();
    let spec = BatchSpec::new(&variant, &Default::default(), &agents, 1, true);
    let cols = registry::simulate(&game, &spec, 0, games).expect("runs");
    let cpu = t.elapsed().as_secs_f64();
    let wins: Vec<f64> = (0..agents.len())
        .map(|p| {
            cols.win.iter().zip(&cols.player).filter(|(_, q)| **q == p as i32).map(|(w, _)| w).sum::<f64>()
                / games as f64
        })
        .collect();
    let turns = cols.turns.iter().map(|&t| t as f64).sum::<f64>() / cols.turns.len() as f64;
    println!(
        "{game} {agents:?} {variant}: {games} games in {cpu:.2} CPU s = {:.1} games per CPU s; \
         mean turns {turns:.1}; win share by player {wins:?}",
        games as f64 / cpu
    );
}
