//! What is recorded of a Taluva game: the output columns, the JSON of actions and the
//! rule-event log (set-up, huts lost to eruptions, eliminations, the end, the final map).

use super::state::Action;
use super::state::Taluva;
use crate::game::{MetricSpec, Record};
use serde_json::Value;

const METRICS: &[MetricSpec] = &[
    MetricSpec {
        name: "end_reason",
        description: "how the game ended (same in every row of a game): 0 = a player placed two kinds of \
                      building completely, 1 = last player standing, 2 = tiles out",
        nullable: false,
    },
    MetricSpec { name: "temples", description: "temples built (of 3)", nullable: false },
    MetricSpec { name: "towers", description: "towers built (of 2)", nullable: false },
    MetricSpec { name: "huts", description: "huts built (of 20), those lost to eruptions included", nullable: false },
    MetricSpec { name: "huts_lost", description: "the player's huts removed by eruptions (anyone's)", nullable: false },
    MetricSpec {
        name: "eliminated",
        description: "1 if the player was eliminated (could not build after placing a tile), else 0",
        nullable: false,
    },
    MetricSpec {
        name: "elimination_turn",
        description: "the game turn (1-based, counting every player's turns) in which the player was eliminated; \
                      null if never",
        nullable: true,
    },
    MetricSpec { name: "tiles_placed", description: "tiles the player placed", nullable: false },
    MetricSpec { name: "eruptions", description: "tiles the player placed as eruptions", nullable: false },
];

impl Record for Taluva {
    fn metric_specs() -> &'static [MetricSpec] {
        METRICS
    }
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>) {
        let me = &self.players[player];
        out.extend([
            self.end.map(|e| e.code()),
            Some(me.temples_built() as i64),
            Some(me.towers_built() as i64),
            Some(me.huts_built() as i64),
            Some(me.huts_lost as i64),
            Some(i64::from(!me.is_in())),
            (!me.is_in()).then_some(me.eliminated as i64),
            Some(me.tiles_placed as i64),
            Some(me.eruptions as i64),
        ]);
    }
    fn action_json(&self, _player: usize, a: &Action) -> Value {
        self.describe(a)
    }
    fn enable_log(&mut self) {
        self.start_log()
    }
    fn take_log(&mut self) -> Vec<Value> {
        self.drain_log()
    }
}
