//! What is recorded of a Titania game: the output columns, the JSON of actions and the
//! rule-event log (set-up, ships, fog tiles, rewards, floors, decorations, reshuffles, the
//! end of each epoch, the final scores and board).

use super::board::{Kind, SHELL_COLOURS, SHIP_COLOURS};
use super::state::{hand_json, Action, Titania, CARD_NAMES, SHIP_LEGEND};
use crate::game::{MetricSpec, Record};
use serde_json::{json, Value};

const METRICS: &[MetricSpec] = &[
    MetricSpec {
        name: "tower_points",
        description: "points from tower floors (3 each, 4 on a decorated site)",
        nullable: false,
    },
    MetricSpec {
        name: "decoration_points",
        description: "points from decorating tower sites (1 per tower icon + 1 per floor already built)",
        nullable: false,
    },
    MetricSpec {
        name: "score_tile_points",
        description: "points from score tiles (added at the end)",
        nullable: false,
    },
    MetricSpec {
        name: "space_points",
        description: "points from spaces, bonus spaces and fog tiles showing points",
        nullable: false,
    },
    MetricSpec {
        name: "shells_left",
        description: "shells left at the end, as a value (a large shell is 2)",
        nullable: false,
    },
    MetricSpec { name: "starfish_left", description: "starfish left at the end", nullable: false },
    MetricSpec { name: "floors_built", description: "tower floors built", nullable: false },
    MetricSpec {
        name: "ships_placed",
        description: "ships placed (by cards and by ship rewards), both epochs",
        nullable: false,
    },
    MetricSpec { name: "cards_played", description: "voyage cards played", nullable: false },
    MetricSpec {
        name: "epoch_1_turns",
        description: "turns of the first epoch (all players; same for every player of a game)",
        nullable: false,
    },
    MetricSpec {
        name: "epoch_2_turns",
        description: "turns of the second epoch (all players; same for every player of a game)",
        nullable: false,
    },
    MetricSpec {
        name: "end_reason",
        description: "how the game ended (same in every row of a game): 0 = the second epoch ended (normal), \
                      1 = the 1,000-turn safety net (turn_cap: scored as it stood, not a normal game)",
        nullable: false,
    },
];

impl Record for Titania {
    fn metric_specs() -> &'static [MetricSpec] {
        METRICS
    }
    fn metrics(&self, player: usize, out: &mut Vec<Option<i64>>) {
        let me = &self.players[player];
        out.extend(
            [
                me.tower_points as i64,
                me.decoration_points as i64,
                me.tile_points() as i64,
                me.space_points as i64,
                me.shell_value() as i64,
                me.stars as i64,
                me.floors as i64,
                me.ships_placed as i64,
                me.cards_played as i64,
                self.epoch_turns[0] as i64,
                self.epoch_turns[1] as i64,
                i64::from(self.capped),
            ]
            .map(Some),
        );
    }
    /// Cards by name, ships and shells by colour, spaces and sites by `(q, r)`.
    fn action_json(&self, _player: usize, a: &Action) -> Value {
        let b = &self.board;
        match *a {
            Action::Play { card, colour, space } => json!({
                "type": "play", "card": CARD_NAMES[card as usize], "ship": SHIP_COLOURS[colour as usize],
                "space": b.coords[space as usize], "kind": b.kinds[space as usize].label(),
            }),
            Action::Draw { count } => json!({"type": "draw", "count": count}),
            Action::Colour { colour } => json!({"type": "shell_colour", "colour": SHELL_COLOURS[colour as usize]}),
            Action::Ship { space } => json!({
                "type": "reward_ship", "space": b.coords[space as usize], "kind": b.kinds[space as usize].label(),
            }),
            Action::Build { site, colour } => json!({
                "type": "build", "site": b.coords[b.sites[site as usize] as usize],
                "colour": SHELL_COLOURS[colour as usize], "floor": self.towers[site as usize][colour as usize] + 1,
            }),
            Action::EndBuild => json!({"type": "end_build"}),
            Action::Decorate { site } => json!({"type": "decorate", "site": b.coords[b.sites[site as usize] as usize]}),
            Action::EndDecorate => json!({"type": "end_decorate"}),
        }
    }
    /// The set-up event: the board (built-in or its path), its contents as file lines and
    /// their fingerprint, the rule switches, the start player, the reward spaces, the hands,
    /// the ship supply and the ships on the start spaces.
    fn enable_log(&mut self) {
        let b = &self.board;
        let rewards: Vec<Value> = (0..b.len())
            .filter(|&i| matches!(b.kinds[i], Kind::Reward(_) | Kind::Bonus(_)))
            .map(|i| json!(b.coords[i]))
            .collect();
        let setup = json!({
            "event": "setup",
            "board": &*self.board_source,
            "board_fingerprint": format!("{:016x}", b.fingerprint()),
            "board_lines": b.lines(),
            "reward_spaces": rewards,
            "rules": self.rules.to_json(),
            "start_position": 0,
            "spaces": b.len(),
            "players": self.n,
            "hands": (0..self.n).map(|p| hand_json(&self.players[p].hand)).collect::<Vec<_>>(),
            "ship_supply": self.ship_supply,
            "ships": self.ship_rows(),
            "legend": SHIP_LEGEND,
        });
        self.log = Some(vec![setup]);
    }
    fn take_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
