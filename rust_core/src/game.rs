//! The game contract: three traits every engine implements on its state type, the
//! per-player view through which agents see a game, and the per-seat score [`Handicap`] that
//! view carries (every game accepts one; its option is parsed by [`crate::handicap`]).
//!
//! * [`Game`]: what the game **is**: set-up, who acts, legal actions, applying them, the
//!   outcome, and what each player knows ([`Game::determinize`], [`Game::observation`]).
//! * [`Evaluate`]: how agents **judge** it: the greedy evaluation, the optional win
//!   estimate that cuts `mcts` rollouts short, and the features of a position that the
//!   learned evaluation of `xmcts` reads (and the positions table records).
//! * [`Record`]: what is **recorded**: per-player metric columns, the JSON of actions and
//!   the rule-event log of replays.
//!
//! [`Engine`] is all three; the batch runner and the registry need it. A game implements
//! the traits directly on its state (no forwarding layer), in the files of its own folder.
//!
//! **Who acts.** [`Game::decision`] names the players who act now, by position. One player:
//! an ordinary turn. Several: a *simultaneous* decision: each acting player chooses from its
//! own legal actions, seeing nothing of the others' choices in that decision, and the state
//! resolves once every acting player has chosen (the order of the `apply` calls of one
//! simultaneous decision must not matter). Until then the state holds the choices made so
//! far as hidden information: [`Game::determinize`] for another player forgets them, and
//! [`Game::decision`] names only the players still to choose. A turn may be split into
//! consecutive decisions of the same player ([`Decision::continues_turn`], e.g. place a
//! tile, then build).

use crate::error::Result;
use crate::options::{Files, OptionSpec};
use crate::rng::Rng;
use serde_json::Value;
use std::hash::Hash;

/// Most players any game seats (positions fit a `u32` bit set).
pub const MAX_SEATS: usize = 8;

/// Expected final scores by position and the softmax scale (points) that makes them win
/// shares: see [`Evaluate::estimated_scores`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreEstimate {
    pub n: usize,
    pub scores: [f64; MAX_SEATS],
    /// A score difference of `scale` points makes the estimated win chances e : 1.
    pub scale: f64,
}

impl ScoreEstimate {
    /// Win shares (summing to 1) of the expected scores plus `bonus[q]` points for position
    /// `q` (a handicap): a softmax with the estimate's scale.
    pub fn win_shares(&self, bonus: &[f64; MAX_SEATS]) -> Vec<f64> {
        let est: Vec<f64> = (0..self.n).map(|q| self.scores[q] + bonus[q]).collect();
        let top = est.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = est.iter().map(|e| ((e - top) / self.scale).exp()).collect();
        let total: f64 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    }
}

/// A typed per-player output column a game adds to the batch output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// Whether the value may be null (e.g. Dirk's score without Dirk).
    pub nullable: bool,
}

/// The players who act at a decision point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Bit `p` set: the player at position `p` chooses now. One bit: a turn; several: a
    /// simultaneous decision (secret choices, revealed together).
    pub acting: u32,
    /// The acting player continues a turn begun by their previous decision (a turn split
    /// into consecutive decisions of the same player).
    pub continues_turn: bool,
}

impl Decision {
    /// A decision of one player.
    pub fn one(player: usize) -> Self {
        Decision { acting: 1 << player, continues_turn: false }
    }
    /// A simultaneous decision of every player in `players` (bit set).
    pub fn all(players: u32) -> Self {
        Decision { acting: players, continues_turn: false }
    }
    pub fn is_simultaneous(&self) -> bool {
        self.acting.count_ones() > 1
    }
    /// The lowest acting position.
    pub fn first(&self) -> usize {
        self.acting.trailing_zeros() as usize
    }
    /// Acting positions, lowest first.
    pub fn players(&self) -> impl Iterator<Item = usize> {
        let mut bits = self.acting;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let p = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                p
            })
        })
    }
}

/// The rules of a game. One implementation per folder of `games/`, on the state type.
///
/// A state owns the stream of its future chance events (reshuffles, bag draws), seeded
/// from the deal stream at creation; agents never see it (see [`View`]).
pub trait Game: Clone + Send + Sync + 'static {
    type Action: Copy + Eq + Hash + std::fmt::Debug + Send + Sync;
    type Variant: Clone + Send + Sync + std::fmt::Debug;

    const NAME: &'static str;
    /// Bumped whenever a rule change alters results; written into every output row.
    const RULES_VERSION: u32;
    const MIN_PLAYERS: usize;
    const MAX_PLAYERS: usize;

    /// The option schema: every option, its default, allowed values and description.
    fn variant_schema() -> Vec<OptionSpec>;
    /// Parses a JSON object of options for `n_players` players. A file option's value is
    /// its path (kept for provenance); its content comes from `files` (the engine never
    /// opens a path).
    fn parse_variant(value: &Value, n_players: usize, files: &Files) -> Result<Self::Variant>;

    /// The normal form of a complete option object (every option of the schema present,
    /// defaults filled in, valid for `n_players`): two objects that play the same game for
    /// `n_players` players must give the same value (e.g. Taluva's `tiles = 12` per player
    /// at 4 players is all 48 tiles), so a study can refuse such cells as duplicates.
    /// Default: unchanged (every distinct object is a distinct game).
    fn normalize_variant(options: Value, _n_players: usize) -> Value {
        options
    }

    /// Sets up a game; all randomness of the deal comes from `deal`.
    fn new(variant: &Self::Variant, n_players: usize, deal: Rng) -> Self;

    fn n_players(&self) -> usize;
    /// Who acts now (meaningless once terminal).
    fn decision(&self) -> Decision;
    fn is_terminal(&self) -> bool;
    /// Bit set of the action kinds available to acting `player` (bit `k` = kind `k` has
    /// at least one legal action). The `random` agent picks a kind first.
    fn action_kinds(&self, player: usize) -> u32;
    /// Appends the legal actions of acting `player` (of `kind` only, when given) to `out`.
    fn legal_actions(&self, player: usize, kind: Option<u32>, out: &mut Vec<Self::Action>);
    /// Whether [`Game::is_legal`] is a direct test, cheaper than listing the legal actions.
    /// `mcts` then asks it for the few candidates it considers at a node; otherwise it lists
    /// the legal actions once per node visit.
    const DIRECT_IS_LEGAL: bool = false;

    /// Whether `action` is legal for acting `player` now. Games with large move lists
    /// override it with a direct test (and set [`Game::DIRECT_IS_LEGAL`]).
    fn is_legal(&self, player: usize, action: &Self::Action) -> bool {
        let mut all = Vec::new();
        self.legal_actions(player, None, &mut all);
        all.contains(action)
    }
    /// Applies acting `player`'s choice. In a simultaneous decision the choice is held
    /// until every acting player has chosen.
    fn apply(&mut self, player: usize, action: Self::Action);

    /// Final (or current) score of each player.
    fn scores(&self) -> Vec<i64>;
    /// Tie-break key of each player, compared only between equal scores (higher is
    /// better; players equal in both share the rank and the win). Default: no tie-break.
    fn tiebreaks(&self) -> Vec<i64> {
        vec![0; self.n_players()]
    }
    /// Turn-order position of each player (0 = start player).
    fn seat(&self, player: usize) -> usize;
    /// Completed turns (or rounds) in the game so far.
    fn turns(&self) -> u32;
    /// True when the engine's safety net (a turn or round cap that the rules do not have), not
    /// the rules, ended the game: it is scored as it stood and is not a normal game. The batch
    /// runner writes it as the `capped` column and in the replay log. Default: never.
    fn capped(&self) -> bool {
        false
    }

    /// A state drawn from what `observer` may know: everything hidden from them (future
    /// chance events, other players' secrets, other players' pending simultaneous choices)
    /// is replaced by a sample from `rng`. The result must not depend on the hidden parts
    /// of `self` (only on their public multiset/count).
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self;
    /// A state drawn from what **every** player knows: only what nobody has seen (the order of
    /// an undrawn bag, deck or stack, face-down tiles, the future chance stream) is replaced by
    /// a sample from `rng`; hands, secrets and pending choices stay. Applying the same action to
    /// such samples draws the chance of that action from its true distribution given the
    /// history: what the luck measurement ([`crate::luck`]) averages over.
    fn resample_chance(&self, rng: &mut Rng) -> Self;
    /// Everything `observer` knows, as a comparable value (the conformance suite checks
    /// that [`Game::determinize`] keeps it).
    fn observation(&self, observer: usize) -> Value;
    /// The items hidden from `observer`, as *zones*: each zone a pool whose contents the
    /// observer knows as a multiset but whose order (or split between places) they do not,
    /// listed in the order the game will reveal them (e.g. the tile bag in draw order; the
    /// deck in draw order followed by the cards of unseen hands). `determinize` must keep
    /// each zone's multiset and draw its order at random. Default: nothing hidden.
    fn hidden(&self, _observer: usize) -> Vec<Vec<u32>> {
        Vec::new()
    }
}

/// How agents judge positions of a game.
pub trait Evaluate: Game {
    /// This game's `mcts` settings that replace the general defaults, in spec syntax
    /// (`key=value,...`; empty: none). They are measured per game by the bench scripts
    /// (`bench/tune_mcts.py`, `bench/tune_rollout.py`, `bench/results/`). A spec's own
    /// parameters still override them; `mcts1` ignores them. Changing them changes play:
    /// bump `mcts`'s version in `agents::agent_version`.
    const MCTS_DEFAULTS: &'static str = "";

    /// This game's `xmcts` settings, applied after [`Evaluate::MCTS_DEFAULTS`] (same syntax; empty:
    /// none): the learned value that cuts `xmcts`'s rollouts may want another search setting,
    /// chosen at equal CPU time against `mcts` (`bench/equal_time.py`). Changing them changes
    /// play: bump `xmcts`'s base version in `agents`.
    const XMCTS_DEFAULTS: &'static str = "";

    /// The `greedy` agent's one-ply evaluation of an action of acting `player` (higher is
    /// better). It may read only what that player knows.
    fn greedy_value(&self, player: usize, action: &Self::Action) -> f64;

    /// [`Evaluate::greedy_value`] of several actions of one decision, appended to `out`
    /// (a game may share work between them).
    fn greedy_values(&self, player: usize, actions: &[Self::Action], out: &mut Vec<f64>) {
        out.extend(actions.iter().map(|a| self.greedy_value(player, a)));
    }

    /// Estimated win shares (summing to 1) of a position that is not over, from the
    /// game's own evaluation; `mcts` uses it to cut rollouts short (`depth`). It may read
    /// everything in the state (it is called on determinized samples). The default: the
    /// softmax of [`Evaluate::estimated_scores`] where the game gives them, else `None` (no
    /// estimate, rollouts play to the end).
    fn win_estimate(&self) -> Option<Vec<f64>> {
        self.estimated_scores().map(|e| e.win_shares(&[0.0; MAX_SEATS]))
    }

    /// The final scores the game's own evaluation expects, by position, and the scale in
    /// points of the softmax that turns them into [`Evaluate::win_estimate`]. A game whose
    /// estimate is in the points of its final score gives it here (and need not write
    /// `win_estimate`): `mcts` then adds a score handicap to the expected scores and keeps
    /// cutting rollouts short under a handicap. `None` (the default): the estimate is not in
    /// points, and under a handicap rollouts play to the end.
    fn estimated_scores(&self) -> Option<ScoreEstimate> {
        None
    }

    /// Names of the features of [`Evaluate::features`], one per value, in order (the columns
    /// of the positions table and the lines of the learned evaluation's weights file). Empty
    /// (the default): the game has no features and no learned evaluation.
    const FEATURE_NAMES: &'static [&'static str] = &[];

    /// The text of the game's learned evaluation (`<game>_eval_weights.txt` in its folder, compiled
    /// in; see [`crate::agents::learned`]), fitted on these features by `bench/train_eval.py`.
    /// Empty (the default): none, and `xmcts` refuses the game.
    const EVAL_WEIGHTS: &'static str = "";

    /// The position as `player` sees it, as `FEATURE_NAMES.len()` numbers written to `out`:
    /// cheap, allocation-free summaries (score so far, resources, progress, `player`'s
    /// standing against the best opponent). It may read only what `player` knows: the
    /// public state and `player`'s own secrets, never another player's hidden cards or
    /// pending simultaneous choice, nor the order of a bag or deck, so two determinizations
    /// of one view give the same features. (Inside a search it is called on determinized
    /// samples, where "what `player` knows" is the sample's.)
    fn features(&self, _player: usize, _out: &mut [f32]) {}
}

/// `v[p]` minus the largest `v[q]` of the other players (`n` players): the standing of `p`
/// against its best opponent, the usual shape of a feature.
pub fn lead(v: &[f64], p: usize, n: usize) -> f32 {
    let best = (0..n).filter(|&q| q != p).map(|q| v[q]).fold(f64::NEG_INFINITY, f64::max);
    if best.is_finite() {
        (v[p] - best) as f32
    } else {
        0.0
    }
}

/// What is recorded of a game: output columns and replay logs.
pub trait Record: Game {
    /// Typed per-player columns added to the output.
    fn metric_specs() -> &'static [MetricSpec];
    /// Writes this player's game-specific metrics (one per [`Record::metric_specs`]).
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>);
    /// A JSON description of an action of `player` (for replays).
    fn action_json(&self, player: usize, action: &Self::Action) -> Value;
    /// Starts recording rule events (setup, scorings, reshuffles...) for replays.
    fn enable_log(&mut self);
    /// Takes the recorded events since the last call.
    fn take_log(&mut self) -> Vec<Value>;
}

/// A complete engine: rules, judgement and records.
pub trait Engine: Game + Evaluate + Record {}
impl<G: Game + Evaluate + Record> Engine for G {}

/// What an agent may see of a game: *its own* player's legal moves and evaluations, and
/// samples of the hidden parts consistent with that player's knowledge. It never hands out
/// the true state, nor another player's pending choice in a simultaneous decision.
pub struct View<'a, G: Game> {
    state: &'a G,
    player: usize,
    /// The per-seat score handicap of the game being played (public: a rule).
    handicap: &'a Handicap,
}

impl<'a, G: Game> View<'a, G> {
    /// The view of acting `player`.
    pub fn new(state: &'a G, player: usize) -> Self {
        Self::with_handicap(state, player, &NO_HANDICAP)
    }
    /// The view of acting `player` in a game played with a score `handicap`.
    pub fn with_handicap(state: &'a G, player: usize, handicap: &'a Handicap) -> Self {
        debug_assert!(state.decision().acting & (1 << player) != 0, "player {player} does not act now");
        View { state, player, handicap }
    }
    /// The score handicap of the game (zero for most games): search must value outcomes with it.
    pub fn handicap(&self) -> &Handicap {
        self.handicap
    }
    pub fn player(&self) -> usize {
        self.player
    }
    pub fn n_players(&self) -> usize {
        self.state.n_players()
    }
    pub fn action_kinds(&self) -> u32 {
        self.state.action_kinds(self.player)
    }
    /// Who acts now (public).
    pub fn decision(&self) -> Decision {
        self.state.decision()
    }
    pub fn legal_actions(&self, kind: Option<u32>, out: &mut Vec<G::Action>) {
        self.state.legal_actions(self.player, kind, out)
    }
    /// A full state consistent with this player's information.
    pub fn determinize(&self, rng: &mut Rng) -> G {
        self.state.determinize(self.player, rng)
    }
}

impl<G: Evaluate> View<'_, G> {
    /// The game's greedy evaluation of several of this player's actions.
    pub fn greedy_values(&self, actions: &[G::Action], out: &mut Vec<f64>) {
        self.state.greedy_values(self.player, actions, out)
    }
}

/// Ranks (1 = best, ties share the best rank) and win shares (1/k for a k-way tie for
/// first) of a score vector, equal scores ordered by `tiebreaks` (empty = none).
pub fn ranks_and_wins(scores: &[i64], tiebreaks: &[i64]) -> (Vec<u32>, Vec<f64>) {
    let n = scores.len();
    let (mut ranks, mut wins) = (vec![0; n], vec![0.0; n]);
    ranks_and_wins_into(scores, tiebreaks, &mut ranks, &mut wins);
    (ranks, wins)
}

/// [`ranks_and_wins`] written into the first `scores.len()` entries of `ranks` and `wins`
/// (no allocation: the batch runner calls it once per game).
pub fn ranks_and_wins_into(scores: &[i64], tiebreaks: &[i64], ranks: &mut [u32], wins: &mut [f64]) {
    let key = |i: usize| (scores[i], tiebreaks.get(i).copied().unwrap_or(0));
    let n = scores.len();
    for (i, rank) in ranks[..n].iter_mut().enumerate() {
        *rank = 1 + (0..n).filter(|&j| key(j) > key(i)).count() as u32;
    }
    let firsts = ranks[..n].iter().filter(|r| **r == 1).count() as f64;
    for (win, rank) in wins[..n].iter_mut().zip(&ranks[..n]) {
        *win = if *rank == 1 { 1.0 / firsts } else { 0.0 };
    }
}

/// Points added to the final score of the player in each turn-order seat: the score handicap
/// that every game accepts (the option is [`crate::handicap`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Handicap([i64; MAX_SEATS]);

/// No handicap (what [`View::new`] shows agents).
pub static NO_HANDICAP: Handicap = Handicap([0; MAX_SEATS]);

impl Handicap {
    /// A handicap from per-seat points (seats beyond the slice get 0).
    pub fn from_points(points: &[i64]) -> Self {
        let mut h = [0; MAX_SEATS];
        for (slot, p) in h.iter_mut().zip(points) {
            *slot = *p;
        }
        Handicap(h)
    }
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|p| *p == 0)
    }
    /// Points of turn-order seat `seat`.
    pub fn points(&self, seat: usize) -> i64 {
        self.0.get(seat).copied().unwrap_or(0)
    }
    /// Final scores of `state` by position, each plus its seat's handicap.
    pub fn scores<G: Game>(&self, state: &G) -> Vec<i64> {
        let mut scores = state.scores();
        if !self.is_zero() {
            for (q, s) in scores.iter_mut().enumerate() {
                *s += self.points(state.seat(q));
            }
        }
        scores
    }
    /// Handicapped scores, ranks and win shares of a finished `state` (equal handicapped
    /// scores fall to the game's tie-break).
    pub fn outcome<G: Game>(&self, state: &G) -> (Vec<i64>, Vec<u32>, Vec<f64>) {
        let scores = self.scores(state);
        let (ranks, wins) = ranks_and_wins(&scores, &state.tiebreaks());
        (scores, ranks, wins)
    }
    /// Win shares of a finished `state` under this handicap.
    pub fn wins<G: Game>(&self, state: &G) -> Vec<f64> {
        self.outcome(state).2
    }
}

#[cfg(test)]
mod tests {
    use super::{ranks_and_wins, Decision};

    #[test]
    fn ranks_share_ties() {
        let (r, w) = ranks_and_wins(&[10, 30, 30, 5], &[]);
        assert_eq!(r, vec![3, 1, 1, 4]);
        assert_eq!(w, vec![0.0, 0.5, 0.5, 0.0]);
        let (r, w) = ranks_and_wins(&[10, 30, 30, 30], &[0, 2, 1, 2]);
        assert_eq!(r, vec![4, 1, 3, 1]);
        assert_eq!(w, vec![0.0, 0.5, 0.0, 0.5]);
    }

    #[test]
    fn decision_players() {
        let d = Decision::all(0b1011);
        assert!(d.is_simultaneous());
        assert_eq!(d.players().collect::<Vec<_>>(), vec![0, 1, 3]);
        assert_eq!(d.first(), 0);
        assert!(!Decision::one(2).is_simultaneous());
        assert_eq!(Decision::one(2).players().collect::<Vec<_>>(), vec![2]);
    }
}
