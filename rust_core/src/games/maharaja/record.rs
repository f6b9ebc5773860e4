//! What is recorded of a game: actions as JSON for replays (the metric columns are with
//! the trait implementations in `mod.rs`).

use super::state::*;
use serde_json::{json, Value};

impl Maharaja {
    fn site_json(&self, site: u8) -> Value {
        if site == NONE {
            Value::Null
        } else {
            json!(self.map.site_name(site as usize))
        }
    }

    /// A wheel action step with its choices.
    pub fn op_json(&self, _p: usize, op: &Op) -> Value {
        let name = WHEEL_NAMES[op.wheel() as usize];
        match *op {
            Op::Gold | Op::Quarry | Op::Palace => json!({"action": name}),
            Op::House { site } => json!({"action": name, "site": self.site_json(site)}),
            Op::TwoHouses { second } => json!({"action": name, "second": self.site_json(second)}),
            Op::MoveHouse { from, to } => {
                json!({"action": name, "from": self.site_json(from), "to": self.site_json(to)})
            }
            Op::PalaceHouse { site } => json!({"action": name, "site": self.site_json(site)}),
            Op::Governor { city } => json!({"action": name, "city": self.map.names[city as usize]}),
            Op::Character { take, give } => json!({"action": name, "take": CHARACTER_NAMES[take as usize],
                "give": if give == NONE { Value::Null } else { json!(CHARACTER_NAMES[give as usize]) }}),
            Op::Recruit { from } => json!({"action": "recruit", "from": from}),
        }
    }

    /// Any action of `p` as JSON (for replays).
    pub fn action_to_json(&self, p: usize, a: &Action) -> Value {
        match *a {
            Action::Pick { card } | Action::Give { card } | Action::Nominate { card } => {
                let kind = match a {
                    Action::Pick { .. } => "pick",
                    Action::Give { .. } => "give",
                    _ => "nominate",
                };
                json!({"type": kind, "character": format!("{} {}", card + 1, CHARACTER_NAMES[card as usize])})
            }
            Action::StartHouse { village } => json!({"type": "start_house", "site": self.site_json(village)}),
            Action::Bid { amount } => json!({"type": "bid", "amount": amount}),
            Action::Pass => json!({"type": "pass"}),
            // Secret during play; a replay is read afterwards (the log also shows when it is revealed).
            Action::Wheel { first, second } => {
                json!({"type": "wheel", "actions": [WHEEL_NAMES[first as usize], WHEEL_NAMES[second as usize]]})
            }
            Action::Travel { city } => json!({"type": "travel", "city": self.map.names[city as usize]}),
            Action::Do { op, by } => {
                let mut e = self.op_json(p, &op);
                e["type"] = json!("action");
                e["by"] = json!(match by {
                    Source::Wheel => "wheel",
                    Source::Builder => "builder",
                    Source::Token => "token",
                });
                e
            }
            Action::EndTurn => json!({"type": "end_turn"}),
        }
    }
}
