//! Luck at every chance event, measured in play with a frozen evaluation.
//!
//! As backgammon rollouts and AIVAT (Burch et al., AAAI 2018) do, each player's outcome is
//! corrected by the luck of the chance events it met: for a player `p`,
//! `luck_p = V_p(after) − E[V_p(after)]`, summed over the game, with `V` a **frozen** value of a
//! position ([`LuckMeter::value`]: the game's learned evaluation, fitted on other games; the
//! game's own win estimate where it has none; at the end, the recorded win shares).
//!
//! * **The deal**: `V(dealt) − mean over K fresh deals of V(deal)`, taken per turn-order seat
//!   (a position is compared with the position of the same seat in each fresh deal: which seat
//!   a player is dealt is what a start-player question asks about, not luck); the fresh deals
//!   come from the game's own [`crate::game::Game::new`] on the stream of purpose "luck"
//!   ([`crate::rng::luck_rng`]), so the mean estimates `E[V(deal) | seat]` without bias.
//! * **Every action**: before it is applied, the state is resampled K times in what nobody
//!   has seen ([`crate::game::Game::resample_chance`]: the order of a bag, deck or stack, the
//!   future chance stream; hands and pending choices stay), the action applied to each sample
//!   and `V` averaged; after it, `V` of the true state minus that mean is the action's luck. An
//!   action that draws nothing gives the same position on every sample, so its luck is exactly
//!   `V(after) − V(after)` = 0 unless `V` reads what nobody has seen.
//!
//! Every term has mean zero given the seat and everything the players know, whatever `V` is,
//! so `win − luck` is an unbiased estimate of a seat's expected win share (a control variate); the
//! better `V` predicts, the smaller its variance. The measurement has its own stream: play is
//! byte-identical with and without it. A game without a learned evaluation or a win estimate
//! values every unfinished position at the fair share, and then measures only the luck of the
//! actions that end the game.

use crate::agents::learned::Learned;
use crate::game::{Engine, Handicap, MAX_SEATS};
use crate::rng::{child, Rng};

/// Resampled outcomes per chance event (and fresh deals at set-up).
pub const LUCK_SAMPLES: usize = 4;

/// The luck of one game so far, per position (see the module docs).
pub struct LuckMeter {
    learned: Option<Learned>,
    rng: Rng,
    luck: [f64; MAX_SEATS],
    /// `E[V(after)]` of the action being applied, settled at the next step or the end.
    pending: Option<[f64; MAX_SEATS]>,
    started: bool,
    buf: Vec<f64>,
}

impl LuckMeter {
    /// A meter for one game, drawing its samples from `rng` (the game's "luck" stream).
    pub fn new<G: Engine>(rng: Rng) -> Self {
        LuckMeter {
            learned: Learned::of::<G>().ok(),
            rng,
            luck: [0.0; MAX_SEATS],
            pending: None,
            started: false,
            buf: Vec::with_capacity(MAX_SEATS),
        }
    }

    /// `V` of `state` for every position into `out`: the recorded win shares at the end, else
    /// the learned evaluation, else the game's win estimate, else the fair share.
    pub fn value<G: Engine>(&mut self, state: &G, handicap: &Handicap, out: &mut [f64; MAX_SEATS]) {
        let n = state.n_players();
        if state.is_terminal() {
            out[..n].copy_from_slice(&handicap.wins(state));
            return;
        }
        if let Some(learned) = &self.learned {
            learned.win_shares(state, &mut self.buf);
            out[..n].copy_from_slice(&self.buf);
        } else if let Some(est) = state.win_estimate() {
            out[..n].copy_from_slice(&est[..n]);
        } else {
            out[..n].fill(1.0 / n as f64);
        }
    }

    /// Called with the state before each action (and so, first, with the dealt state): settles
    /// the luck of the set-up or of the last action, then takes the mean of `V` over
    /// [`LUCK_SAMPLES`] resamples of `state` with `action` applied.
    pub fn step<G: Engine>(
        &mut self,
        state: &G,
        player: usize,
        action: &G::Action,
        fresh: impl Fn(Rng) -> G,
        handicap: &Handicap,
    ) {
        self.settle(state, fresh, handicap);
        let n = state.n_players();
        let (mut mean, mut v) = ([0.0; MAX_SEATS], [0.0; MAX_SEATS]);
        for _ in 0..LUCK_SAMPLES {
            let mut sample = state.resample_chance(&mut self.rng);
            sample.apply(player, *action);
            self.value(&sample, handicap, &mut v);
            for p in 0..n {
                mean[p] += v[p] / LUCK_SAMPLES as f64;
            }
        }
        self.pending = Some(mean);
    }

    /// The luck of the last step (or of the deal, at the first call), `state` being what it led to.
    fn settle<G: Engine>(&mut self, state: &G, fresh: impl Fn(Rng) -> G, handicap: &Handicap) {
        let expected = match self.pending.take() {
            Some(p) => p,
            None if !self.started => {
                self.started = true;
                return self.deal_luck(state, fresh, handicap);
            }
            None => return,
        };
        let mut now = [0.0; MAX_SEATS];
        self.value(state, handicap, &mut now);
        for p in 0..state.n_players() {
            self.luck[p] += now[p] - expected[p];
        }
    }

    /// The deal's luck: `V` of the dealt state minus the mean `V` of [`LUCK_SAMPLES`] fresh deals,
    /// seat by seat (which seat a position is dealt is what a start-player question asks about,
    /// not luck).
    fn deal_luck<G: Engine>(&mut self, state: &G, fresh: impl Fn(Rng) -> G, handicap: &Handicap) {
        let n = state.n_players();
        let (mut v, mut by_seat) = ([0.0; MAX_SEATS], [0.0; MAX_SEATS]);
        for _ in 0..LUCK_SAMPLES {
            let deal = fresh(child(&mut self.rng));
            self.value(&deal, handicap, &mut v);
            for p in 0..n {
                by_seat[deal.seat(p)] += v[p] / LUCK_SAMPLES as f64;
            }
        }
        self.value(state, handicap, &mut v);
        for p in 0..n {
            self.luck[p] += v[p] - by_seat[state.seat(p)];
        }
    }

    /// The game's total luck per position, given its final state.
    pub fn finish<G: Engine>(mut self, state: &G, fresh: impl Fn(Rng) -> G, handicap: &Handicap) -> [f64; MAX_SEATS] {
        self.settle(state, fresh, handicap);
        self.luck
    }
}

#[cfg(test)]
mod tests {
    use crate::batch::{simulate, BatchSpec};
    use crate::games::coin::Coin;
    use crate::options::Files;
    use serde_json::json;

    /// Coin whose start player wins 70% of the games: the corrected win share of the start
    /// player is the truth within its noise, and its variance is several times smaller.
    #[test]
    fn corrected_wins_are_unbiased_and_tighter_on_coin() {
        let agents = vec!["random".to_string(), "random".to_string()];
        let spec = BatchSpec::new(&json!({"first": 0.7}), &Files::new(), &agents, 12, false).with_luck(true);
        let c = simulate::<Coin>(&spec, 0, 4000).expect("simulate");
        let start: Vec<usize> = (0..c.seat.len()).filter(|&i| c.seat[i] == 0).collect();
        let raw: Vec<f64> = start.iter().map(|&i| c.win[i]).collect();
        let corrected: Vec<f64> = start.iter().map(|&i| c.win[i] - c.luck[i]).collect();
        let stats = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            (m, v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64)
        };
        let ((m_raw, v_raw), (m, v)) = (stats(&raw), stats(&corrected));
        let se = (v / corrected.len() as f64).sqrt();
        assert!((m - 0.7).abs() < 4.0 * se, "corrected {m:.4} ± {se:.4} misses 0.7 (raw {m_raw:.4})");
        assert!(v_raw / v > 2.0, "variance {v_raw:.4} -> {v:.4}: less than halved");
    }
}
