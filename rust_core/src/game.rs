//! The traits every game implements, and the view through which agents see a game.

use crate::error::Result;
use crate::options::OptionSpec;
use crate::rng::Rng;
use serde_json::Value;

/// A typed per-player output column a game adds to the batch output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// Whether the value may be null (e.g. Dirk's score without Dirk).
    pub nullable: bool,
}

/// A game engine: rules, state and outcome. One implementation per folder of `games/`.
///
/// A state owns the stream of its future chance events (reshuffles, bag draws), seeded
/// from the deal stream at creation; agents never see it (see [`View`]).
pub trait Game: Clone + Send + Sync + 'static {
    type Action: Copy + Eq + std::fmt::Debug + Send;
    type Variant: Clone + Send + Sync + std::fmt::Debug;

    const NAME: &'static str;
    /// Bumped whenever a rule change alters results; written into every output row.
    const RULES_VERSION: u32;
    const MIN_PLAYERS: usize;
    const MAX_PLAYERS: usize;

    /// The option schema: every option, its default, allowed values and description.
    fn variant_schema() -> Vec<OptionSpec>;
    /// Parses a JSON object of options for `n_players` players.
    fn parse_variant(value: &Value, n_players: usize) -> Result<Self::Variant>;
    /// Typed per-player columns added to the output.
    fn metric_specs() -> &'static [MetricSpec];

    /// Sets up a game; all randomness of the deal comes from `deal`.
    fn new(variant: &Self::Variant, n_players: usize, deal: Rng) -> Self;

    fn n_players(&self) -> usize;
    /// The player whose decision it is (meaningless once terminal).
    fn current_player(&self) -> usize;
    fn is_terminal(&self) -> bool;
    /// Bit set of the action kinds available now (bit `k` = kind `k` has ≥ 1 legal action).
    fn action_kinds(&self) -> u32;
    /// Appends the legal actions (of `kind` only, when given) to `out`.
    fn legal_actions(&self, kind: Option<u32>, out: &mut Vec<Self::Action>);
    fn apply(&mut self, action: Self::Action);

    /// Final (or current) score of each player.
    fn scores(&self) -> Vec<i64>;
    /// Tie-break key of each player, compared only between equal scores (higher is
    /// better; players equal in both share the rank and the win). Default: no tie-break.
    fn tiebreaks(&self) -> Vec<i64> {
        vec![0; self.n_players()]
    }
    /// Turn-order position of each player (0 = start player).
    fn seat(&self, player: usize) -> usize;
    /// Completed turns in the game so far.
    fn turns(&self) -> u32;
    /// Writes this player's game-specific metrics (one per [`Game::metric_specs`]).
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>);

    /// A state drawn from what `observer` may know: everything hidden from them is
    /// replaced by a sample from `rng`. The result must not depend on the hidden parts
    /// of `self` (only on their public multiset/count).
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self;

    /// The `greedy` agent's one-ply evaluation of an action for the player to act
    /// (higher is better). It may read only what that player knows.
    fn greedy_value(&self, action: &Self::Action) -> f64;

    /// [`Game::greedy_value`] of every action of one decision, appended to `out` (a game
    /// may share work between them).
    fn greedy_values(&self, actions: &[Self::Action], out: &mut Vec<f64>) {
        out.extend(actions.iter().map(|a| self.greedy_value(a)));
    }

    /// Estimated win shares (summing to 1) of a position that is not over, from the
    /// game's own evaluation; `mcts` uses it to cut rollouts short (`depth`). It may read
    /// everything in the state (it is called on determinized samples). `None`
    /// (the default): no estimate, rollouts play to the end.
    fn win_estimate(&self) -> Option<Vec<f64>> {
        None
    }

    /// A JSON description of an action (for replays).
    fn action_json(&self, action: &Self::Action) -> Value;
    /// Starts recording rule events (setup, scorings, reshuffles...) for replays.
    fn enable_log(&mut self);
    /// Takes the recorded events since the last call.
    fn take_log(&mut self) -> Vec<Value>;
}

/// What an agent may see of a game: legal moves, whose turn, and samples of the hidden
/// parts consistent with the acting player's knowledge. It never hands out the true state.
pub struct View<'a, G: Game> {
    state: &'a G,
}

impl<'a, G: Game> View<'a, G> {
    pub fn new(state: &'a G) -> Self {
        View { state }
    }
    pub fn player(&self) -> usize {
        self.state.current_player()
    }
    pub fn n_players(&self) -> usize {
        self.state.n_players()
    }
    pub fn action_kinds(&self) -> u32 {
        self.state.action_kinds()
    }
    pub fn legal_actions(&self, kind: Option<u32>, out: &mut Vec<G::Action>) {
        self.state.legal_actions(kind, out)
    }
    /// The game's greedy evaluation of several actions of this decision.
    pub fn greedy_values(&self, actions: &[G::Action], out: &mut Vec<f64>) {
        self.state.greedy_values(actions, out)
    }
    /// A full state consistent with the acting player's information.
    pub fn determinize(&self, rng: &mut Rng) -> G {
        self.state.determinize(self.state.current_player(), rng)
    }
}

/// Ranks (1 = best, ties share the best rank) and win shares (1/k for a k-way tie for
/// first) of a score vector, equal scores ordered by `tiebreaks` (empty = none).
pub fn ranks_and_wins(scores: &[i64], tiebreaks: &[i64]) -> (Vec<u32>, Vec<f64>) {
    let key = |i: usize| (scores[i], tiebreaks.get(i).copied().unwrap_or(0));
    let n = scores.len();
    let ranks: Vec<u32> = (0..n).map(|i| 1 + (0..n).filter(|&j| key(j) > key(i)).count() as u32).collect();
    let firsts = ranks.iter().filter(|r| **r == 1).count() as f64;
    let wins = ranks.iter().map(|r| if *r == 1 { 1.0 / firsts } else { 0.0 }).collect();
    (ranks, wins)
}

#[cfg(test)]
mod tests {
    use super::ranks_and_wins;

    #[test]
    fn ranks_share_ties() {
        let (r, w) = ranks_and_wins(&[10, 30, 30, 5], &[]);
        assert_eq!(r, vec![3, 1, 1, 4]);
        assert_eq!(w, vec![0.0, 0.5, 0.5, 0.0]);
        let (r, w) = ranks_and_wins(&[10, 30, 30, 30], &[0, 2, 1, 2]);
        assert_eq!(r, vec![4, 1, 3, 1]);
        assert_eq!(w, vec![0.0, 0.5, 0.0, 0.5]);
    }
}
