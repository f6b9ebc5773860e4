//! Alhambra (2–6 players, with the 2-player Dirk variant). Rules: `shared/rules/alhambra.md`.

pub mod city;
pub mod data;
pub mod eval;
pub mod scoring;
pub mod state;
pub mod variant;

#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::game::{Game, MetricSpec};
use crate::options::OptionSpec;
use crate::rng::Rng;
use serde_json::Value;
pub use state::{Action, Alhambra};

const METRICS: &[MetricSpec] = &[
    MetricSpec { name: "start_money_cards", description: "money cards dealt to the player at set-up", nullable: false },
    MetricSpec { name: "start_money_value", description: "total value of the money dealt at set-up", nullable: false },
    MetricSpec {
        name: "score_1",
        description: "score after the 1st scoring (null if it never happened)",
        nullable: true,
    },
    MetricSpec {
        name: "score_2",
        description: "score after the 2nd scoring (null if it never happened)",
        nullable: true,
    },
    MetricSpec { name: "score_3", description: "score after the final scoring", nullable: true },
    MetricSpec { name: "longest_wall", description: "longest outer wall at the end", nullable: false },
    MetricSpec { name: "city_tiles", description: "tiles in the city at the end (fountain excluded)", nullable: false },
    MetricSpec { name: "reserve_tiles", description: "tiles on the reserve board at the end", nullable: false },
    MetricSpec { name: "dirk_score", description: "Dirk's final score (null without Dirk)", nullable: true },
    MetricSpec { name: "dirk_tiles", description: "tiles Dirk holds at the end (null without Dirk)", nullable: true },
    MetricSpec {
        name: "dirk_first_pavilion",
        description: "scorings in which Dirk held (shared) 1st place in pavilions",
        nullable: true,
    },
    MetricSpec { name: "dirk_first_seraglio", description: "same for seraglios", nullable: true },
    MetricSpec { name: "dirk_first_arcades", description: "same for arcades", nullable: true },
    MetricSpec { name: "dirk_first_chambers", description: "same for chambers", nullable: true },
    MetricSpec { name: "dirk_first_garden", description: "same for gardens", nullable: true },
    MetricSpec { name: "dirk_first_tower", description: "same for towers", nullable: true },
];

impl Game for Alhambra {
    type Action = Action;
    type Variant = variant::Variant;

    const NAME: &'static str = "alhambra";
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
        Alhambra::new(variant, n_players, deal)
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
        Alhambra::apply(self, action)
    }
    fn scores(&self) -> Vec<i64> {
        self.scores[..self.n].to_vec()
    }
    fn seat(&self, player: usize) -> usize {
        (player + self.n - self.start) % self.n
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>) {
        let me = &self.players[player];
        let (cards, value) = self.start_money[player];
        out.push(Some(cards as i64));
        out.push(Some(value as i64));
        for r in 0..3 {
            out.push(self.score_after[r][player]);
        }
        // After the final scoring no city changes: its wall count is the final one.
        let wall = if self.is_over() { self.walls_scored[player] } else { me.city.longest_wall(self.v.wall_rule) };
        out.push(Some(wall as i64));
        out.push(Some(me.city.len() as i64));
        out.push(Some(me.reserve.count_ones() as i64));
        let dirk = self.v.dirk;
        out.push(dirk.then_some(self.scores[self.n]));
        out.push(dirk.then_some(self.dirk_tiles.count_ones() as i64));
        for k in 0..data::N_KINDS {
            out.push(dirk.then_some(self.dirk_firsts[k] as i64));
        }
    }
    fn determinize(&self, observer: usize, rng: &mut Rng) -> Self {
        Alhambra::determinize(self, observer, rng)
    }
    fn greedy_value(&self, action: &Action) -> f64 {
        Alhambra::greedy_value(self, action)
    }
    fn greedy_values(&self, actions: &[Action], out: &mut Vec<f64>) {
        Alhambra::greedy_values(self, actions, out)
    }
    fn win_estimate(&self) -> Option<Vec<f64>> {
        Some(Alhambra::win_estimate(self))
    }
    fn action_json(&self, action: &Action) -> Value {
        Alhambra::action_json(self, action)
    }
    fn enable_log(&mut self) {
        Alhambra::enable_log(self)
    }
    fn take_log(&mut self) -> Vec<Value> {
        Alhambra::take_log(self)
    }
}
