//! What is recorded of a Hiroba game: the output columns, the JSON of actions and the
//! rule-event log (set-up, scoring of each pond and garden, the final board).

use super::board::{col_of, row_of, Board};
use super::scoring;
use super::state::{pebble_kind, Action, Hiroba, BOARD_LEGEND, PEBBLES};
use super::tiles::TileSet;
use super::variant::LineRule;
use crate::game::{MetricSpec, Record};
use serde_json::{json, Value};

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
        description: "1 if the player ended the pebble play unable to place with pebbles left (a pass turn, or \
                      the game ending before that turn came), else 0",
        nullable: false,
    },
    MetricSpec { name: "stranded", description: "pebbles left off the board at the end (of 9)", nullable: false },
    MetricSpec { name: "stones_placed", description: "stones placed (of the 2, 1 or 0 dealt)", nullable: false },
];

impl Record for Hiroba {
    fn metric_specs() -> &'static [MetricSpec] {
        METRICS
    }
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>) {
        let o = self.outcome.unwrap_or_else(|| scoring::score(self));
        let me = &self.players[player];
        let stranded = PEBBLES - me.placed;
        let stopped = me.passed || (self.is_over() && stranded > 0);
        out.extend(
            [
                o.gardens_won[player] as i64,
                o.gardens_tied[player] as i64,
                o.koi_won[player] as i64,
                o.koi_placed[player] as i64,
                o.koi_points[player],
                o.garden_points[player],
                me.placed as i64,
                stopped as i64,
                stranded as i64,
                me.stones_placed as i64,
            ]
            .map(Some),
        );
    }
    fn action_json(&self, _player: usize, a: &Action) -> Value {
        match *a {
            Action::Place { cell, number } => {
                let k = pebble_kind(number);
                json!({
                    "type": "pebble", "row": row_of(cell as usize), "col": col_of(cell as usize),
                    "garden": Board::garden_label(self.board.garden_of[cell as usize] as usize),
                    "number": number, "pebble": format!("{}/{}", k + 1, 9 - k),
                })
            }
            Action::Pass => json!({"type": "pass"}),
            Action::Stone { cell } => json!({
                "type": "stone", "row": row_of(cell as usize), "col": col_of(cell as usize),
                "garden": Board::garden_label(self.board.garden_of[cell as usize] as usize),
            }),
            Action::NoStone => json!({"type": "no_stone"}),
        }
    }

    fn enable_log(&mut self) {
        let tiles: Vec<Value> = self
            .board
            .placements
            .iter()
            .enumerate()
            .map(|(pos, pl)| {
                json!({
                    "place": pos + 1,
                    "tile": pl.tile + 1,
                    "rotation_degrees": 90 * pl.rotation as u32,
                    "water": self.board.water >> pos & 1 == 1,
                })
            })
            .collect();
        let builtin = self.tile_set == TileSet::builtin().fingerprint();
        let setup = json!({
            "event": "setup",
            "tile_set": if builtin { "built-in" } else { "custom" },
            "tile_set_fingerprint": format!("{:016x}", self.tile_set),
            "line_rule": match self.line_rule { LineRule::Any => "any", LineRule::Last => "last" },
            "stones_on_start": if self.stones_anywhere { "anytime" } else { "after_first_pebbles" },
            "stone_turns": if self.no_stone_turns { "last_turn" } else { "kept" },
            "tiles": tiles,
            "water_places": (0..9).filter(|pos| self.board.water >> pos & 1 == 1).map(|p| p + 1).collect::<Vec<_>>(),
            "stones": self.players[..self.n].iter().map(|p| p.stones).collect::<Vec<_>>(),
            "gardens": self.board.layout_rows(),
            "board": self.board_rows(),
            "legend": BOARD_LEGEND,
        });
        self.log = Some(vec![setup]);
    }

    fn take_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
