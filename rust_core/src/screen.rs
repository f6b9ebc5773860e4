//! The start-player screen of a game's variant switches: for one player count, `greedy`
//! self-play with paired seats under the defaults and under each listed value of every
//! switch alone (the settings of [`crate::conformance::switch_variants`]); per setting the
//! start player's (seat 0) win share and its paired difference from the defaults (the same
//! deals and game indices), each with a 95% normal interval. Greedy is enough to see which
//! switches move the start-player advantage; those that do deserve a search rung.
//!
//! Run by each game's ignored `start_player_by_switch` test:
//! `cargo test --release --lib start_player_by_switch -- --ignored --nocapture`
//! (`BALANCELAB_SCREEN_GAMES` games per setting, default 1,000).

use crate::batch;
use crate::conformance::switch_variants;
use crate::game::Engine;
use crate::options::Files;

/// One setting's figures (win shares; intervals are half-widths of 95% intervals).
#[derive(Debug, Clone)]
pub struct Line {
    pub setting: String,
    pub games: usize,
    pub share: f64,
    pub share_ci: f64,
    /// Paired difference from the defaults (0 for the defaults).
    pub diff: f64,
    pub diff_ci: f64,
}

/// Games per setting from `BALANCELAB_SCREEN_GAMES` (default 1,000).
pub fn games_from_env() -> u64 {
    std::env::var("BALANCELAB_SCREEN_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000)
}

/// The screen of game `G` at `n` players, `games` games per setting from `seed`.
pub fn start_player_screen<G: Engine>(n: usize, games: u64, seed: u64) -> Vec<Line> {
    let agents = vec!["greedy".to_string(); n];
    let files = Files::new();
    let mut base: Option<Vec<f64>> = None;
    let mut out = Vec::new();
    for v in switch_variants::<G>() {
        let c =
            batch::simulate::<G>(&batch::BatchSpec::new(&v, &files, &agents, seed, true), 0, games).expect("simulate");
        let mut by_game: Vec<(i64, f64)> =
            (0..c.win.len()).filter(|&i| c.seat[i] == 0).map(|i| (c.game_index[i], c.win[i])).collect();
        by_game.sort_by_key(|&(g, _)| g);
        let wins: Vec<f64> = by_game.iter().map(|&(_, w)| w).collect();
        let (share, share_ci) = mean_ci(&wins);
        let (diff, diff_ci) = match &base {
            None => (0.0, 0.0),
            Some(b) => mean_ci(&wins.iter().zip(b).map(|(x, y)| x - y).collect::<Vec<_>>()),
        };
        base.get_or_insert(wins.clone());
        out.push(Line { setting: v.to_string(), games: wins.len(), share, share_ci, diff, diff_ci });
    }
    out
}

/// Prints the screen, settings ranked by the size of their effect.
pub fn print_screen(game: &str, n: usize, lines: &[Line]) {
    let mut ranked: Vec<&Line> = lines.iter().collect();
    ranked[1..].sort_by(|a, b| b.diff.abs().total_cmp(&a.diff.abs()));
    eprintln!(
        "{game}, {n} players, greedy self-play, paired seats: start player's win share (fair {:.3})",
        1.0 / n as f64
    );
    for l in ranked {
        eprintln!(
            "  {:<40} {:>5} games  {:.3} ± {:.3}   vs defaults {:+.3} ± {:.3}",
            l.setting, l.games, l.share, l.share_ci, l.diff, l.diff_ci
        );
    }
}

/// Mean and the half-width of its 95% normal interval.
fn mean_ci(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, 1.96 * (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    #[test]
    fn mean_and_interval() {
        let (m, h) = super::mean_ci(&[0.0, 1.0, 0.0, 1.0]);
        assert_eq!(m, 0.5);
        assert!((h - 1.96 * (1.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
    }
}
