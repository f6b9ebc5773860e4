//! The bare reference loop (`rust_core::batch::bare`) as a program, for `bench/limit.py`:
//!
//! `cargo run --release --example limit -- GAME PLAYERS AGENT SEED START COUNT`
//!
//! plays games `START .. START + COUNT` of GAME (default rules) with AGENT (`random` or `greedy`)
//! in every seat, the games `rust_core.simulate(GAME, {}, [AGENT] * PLAYERS, SEED, START, COUNT)`
//! plays, and prints one JSON line: the arguments, the process CPU seconds of the loop
//! (`cpu_s`) and the run's totals (games, actions, turns, score: to compare with simulate's rows).

use cpu_time::ProcessTime;
use rust_core::batch::bare::BareAgent;
use rust_core::registry;
use serde_json::json;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: limit GAME PLAYERS AGENT SEED START COUNT (AGENT: random or greedy)";
    let [game, players, agent, seed, start, count] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let (Ok(players), Some(agent), Ok(seed), Ok(start), Ok(count)) =
        (players.parse(), BareAgent::parse(agent), seed.parse(), start.parse(), count.parse())
    else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let t0 = ProcessTime::now();
    let totals = match registry::bare(game, players, agent, seed, start, count) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("limit: {e}");
            return ExitCode::from(2);
        }
    };
    let cpu_s = t0.elapsed().as_secs_f64();
    let line = json!({
        "game": game, "players": players, "agent": agent.name(), "seed": seed, "start": start,
        "count": count, "cpu_s": cpu_s, "games": totals.games, "actions": totals.actions,
        "turns": totals.turns, "score": totals.score,
    });
    println!("{line}");
    ExitCode::SUCCESS
}
