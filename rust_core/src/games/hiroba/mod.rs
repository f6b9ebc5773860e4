//! Hiroba (2–4 players): a competitive sudoku of gardens and kois. Rules:
//! `shared/rules/hiroba.md` (from seed `003_9f08666a340acb82`), every **Decision** and
//! *(variant)* switch included.
//!
//! * [`tiles`]: the tile file format, its parser and checks; the built-in set
//!   `rust_core/data/hiroba_tiles.txt` is the engine's own (the publisher's is not public).
//! * [`board`]: geometry (81 cells as `u128` bit boards) and the set-up.
//! * [`state`]: turns, legality, passing and the end of the game (see its doc comment for
//!   the engine's reading of passing), logs.
//! * [`scoring`]: kois, koi placement, gardens, totals; [`eval`]: the greedy evaluation.
//! * [`variant`]: `rotate_tiles` (default true), `line_rule` (`any` | `last`),
//!   `water_tiles` (`run` | `random`), `tiles` (null = built-in, or a file path).
//!
//! Position 0 is the start player (the batch runner rotates agents across positions), so
//! `seat(p) = p`. The tie-break (most gardens won outright, then a shared win) is not in
//! the scores: the trait ranks by score alone. It is exposed as [`Hiroba::tiebreak`] and
//! in the `gardens_won` column.

pub mod board;
pub mod eval;
pub mod scoring;
pub mod state;
pub mod tiles;
pub mod variant;

#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::game::{Game, MetricSpec};
use crate::options::OptionSpec;
use crate::rng::Rng;
use serde_json::Value;
pub use state::{Action, Hiroba};

const METRICS: &[MetricSpec] = &[
    MetricSpec {
        name: "gardens_won",
        description: "gardens won outright (sole highest sum); the tie-break on equal scores",
        nullable: false,
    },
    MetricSpec {
        name: "gardens_tied",
        description: "gardens shared as one of several tied highest sums (each scored in full)",
        nullable: false,
    },
    MetricSpec {
        name: "koi_won",
        description: "kois won (lowest sum next to a pond; tied players each get one)",
        nullable: false,
    },
    MetricSpec {
        name: "koi_placed",
        description: "kois placed in gardens won outright (each doubles that garden)",
        nullable: false,
    },
    MetricSpec { name: "koi_points", description: "points from kois not placed (1 each)", nullable: false },
    MetricSpec { name: "garden_points", description: "points from gardens, doubled gardens included", nullable: false },
    MetricSpec { name: "pebbles_placed", description: "pebbles placed on the board (of 9)", nullable: false },
    MetricSpec {
        name: "passes",
        description:
            "1 if the player had to pass with pebbles left (no legal placement; they stay off the board), else 0",
        nullable: false,
    },
    MetricSpec { name: "stones_placed", description: "stones placed (of the 2, 1 or 0 dealt)", nullable: false },
];

impl Hiroba {
    /// The tie-break key of each player: gardens won outright (higher is better).
    pub fn tiebreak(&self) -> Vec<i64> {
        let o = self.outcome.unwrap_or_else(|| scoring::score(self));
        o.gardens_won[..self.n].iter().map(|&g| g as i64).collect()
    }
}

impl Game for Hiroba {
    type Action = Action;
    type Variant = variant::Variant;

    const NAME: &'static str = "hiroba";
    const RULES_VERSION: u32 = 1;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = state::MAX_PLAYERS;

    fn variant_schema() -> Vec<OptionSpec> {
        variant::schema()
    }
    fn parse_variant(value: &Value, n_players: usize) -> Result<Self::Variant> {
        variant::parse(value, n_players)
    }
    fn metric_specs() -> &'static [MetricSpec] {
        METRICS
    }
    fn new(variant: &Self::Variant, n_players: usize, deal: Rng) -> Self {
        Hiroba::new(variant, n_players, deal)
    }
    fn n_players(&self) -> usize {
        self.n
    }
    fn current_player(&self) -> usize {
        self.current
    }
    fn is_terminal(&self) -> bool {
        self.is_over()
    }
    fn action_kinds(&self) -> u32 {
        self.kinds()
    }
    fn legal_actions(&self, kind: Option<u32>, out: &mut Vec<Action>) {
        self.legal(kind, out)
    }
    fn apply(&mut self, action: Action) {
        Hiroba::apply(self, action)
    }
    fn scores(&self) -> Vec<i64> {
        self.score_vec()
    }
    /// Gardens won outright (the reference's tie-break; still equal → shared win).
    fn tiebreaks(&self) -> Vec<i64> {
        self.tiebreak()
    }
    fn seat(&self, player: usize) -> usize {
        player
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>) {
        let o = self.outcome.unwrap_or_else(|| scoring::score(self));
        let me = &self.players[player];
        out.extend(
            [
                o.gardens_won[player] as i64,
                o.gardens_tied[player] as i64,
                o.koi_won[player] as i64,
                o.koi_placed[player] as i64,
                o.koi_points[player],
                o.garden_points[player],
                me.placed as i64,
                me.passed as i64,
                me.stones_placed as i64,
            ]
            .map(Some),
        );
    }
    /// Hiroba has no hidden information once set up (the board, every pebble, hand and
    /// stone are public, and no chance event follows the set-up), so the state itself is
    /// the only one consistent with what `observer` knows.
    fn determinize(&self, _observer: usize, _rng: &mut Rng) -> Self {
        let mut s = self.clone();
        s.disable_log();
        s
    }
    fn greedy_value(&self, action: &Action) -> f64 {
        Hiroba::greedy_value(self, action)
    }
    fn greedy_values(&self, actions: &[Action], out: &mut Vec<f64>) {
        Hiroba::greedy_values(self, actions, out)
    }
    fn action_json(&self, action: &Action) -> Value {
        Hiroba::action_json(self, action)
    }
    fn enable_log(&mut self) {
        Hiroba::enable_log(self)
    }
    fn take_log(&mut self) -> Vec<Value> {
        Hiroba::take_log(self)
    }
}
