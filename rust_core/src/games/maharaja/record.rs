//! What is recorded of a game: the metric columns, actions as JSON and the replay log.

use super::map::N_SCORING;
use super::state::*;
use super::variant::Reveal;
use crate::game::{MetricSpec, Record};
use serde_json::{json, Value};

const fn m(name: &'static str, description: &'static str) -> MetricSpec {
    MetricSpec { name, description, nullable: false }
}

const fn city(name: &'static str) -> MetricSpec {
    MetricSpec {
        name,
        description: "round of this city's first scoring (cities in map-file order: city_1 is the first `city` line); null if never scored",
        nullable: true,
    }
}

const METRICS: &[MetricSpec] = &[
    m("palaces_built", "palaces built (the score)"),
    m("houses_built", "houses built during the game (wheel actions and the Builder; not the 4 starting houses)"),
    m("houses_moved", "houses moved (Move a house, the Builder)"),
    m("gold_end", "gold at the end (the first tie-break)"),
    m("first_character", "lowest character number (1-7) held when the first round began; 1 = Mogul"),
    m("last_character", "lowest character number (1-7) held at the end; 8 = none (repick = own_turn, the card taken after the player's last turn)"),
    m("characters_held", "characters held at the end (more than 1 only with advanced_2)"),
    m("forfeits", "wheel actions forfeited (each paid 2 gold to every other player)"),
    m("tolls_paid", "gold paid in tolls to other players (the Wandering Monk's tolls are paid by the bank)"),
    m("tolls_received", "gold received in tolls"),
    m("scoring_gold", "gold received from city scorings"),
    m("scorings_present", "city scorings in which the player was present"),
    m("rounds", "rounds played (the same for every player of a game)"),
    m(
        "end_reason",
        "why the game ended: 1 a 7th palace (6th short), 2 a governor on place 10 (8 short), 3 the round limit",
    ),
    city("city_1_round"),
    city("city_2_round"),
    city("city_3_round"),
    city("city_4_round"),
    city("city_5_round"),
    city("city_6_round"),
    city("city_7_round"),
];

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
            Op::Gold | Op::Quarry | Op::Palace { full_price: false } => json!({"action": name}),
            Op::Palace { full_price: true } => json!({"action": name, "full_price": true}),
            Op::House { site } => json!({"action": name, "site": self.site_json(site)}),
            Op::TwoHouses { second } => json!({"action": name, "second": self.site_json(second)}),
            Op::MoveHouse { from, to } => {
                json!({"action": name, "from": self.site_json(from), "to": self.site_json(to)})
            }
            Op::PalaceHouse { site, full_price } => {
                let mut e = json!({"action": name, "site": self.site_json(site)});
                if full_price {
                    e["full_price"] = json!(true);
                }
                e
            }
            Op::Governor { city } => json!({"action": name, "city": self.map.names[city as usize]}),
            Op::Character { take, give } => json!({"action": name, "take": CHARACTER_NAMES[take as usize],
                "give": if give == NONE { Value::Null } else { json!(CHARACTER_NAMES[give as usize]) }}),
            Op::Recruit { from } => json!({"action": "recruit", "from_position": from}),
        }
    }
}

impl Record for Maharaja {
    fn metric_specs() -> &'static [MetricSpec] {
        METRICS
    }

    fn metrics(&self, p: usize, out: &mut Vec<Option<i64>>) {
        let s = &self.stats[p];
        out.extend(
            [
                self.palaces_built[p] as i64,
                s.houses_built as i64,
                s.houses_moved as i64,
                self.gold[p] as i64,
                s.first_character as i64,
                self.lowest_char(p) as i64 + 1,
                self.chars[p].count_ones() as i64,
                s.forfeits as i64,
                s.tolls_paid as i64,
                s.tolls_received as i64,
                s.scoring_gold as i64,
                s.scorings_present as i64,
                self.round as i64,
                self.end_reason.map_or(0, |r| r as i64),
            ]
            .map(Some),
        );
        out.extend((1..=N_SCORING).map(|c| (self.first_scored[c] > 0).then_some(self.first_scored[c] as i64)));
    }

    /// Any action of `p` as JSON (for replays).
    fn action_json(&self, p: usize, a: &Action) -> Value {
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
            Action::Travel { city, route, own_toll } => {
                let mut e = json!({"type": "travel", "city": self.map.names[city as usize]});
                if self.readings.choose_route {
                    e["route"] = json!(route);
                }
                if own_toll {
                    e["own_toll"] = json!(true);
                }
                e
            }
            Action::Power { card, used } => json!({"type": "power", "used": used,
                "character": format!("{} {}", card + 1, CHARACTER_NAMES[card as usize])}),
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

    fn enable_log(&mut self) {
        let r = self.readings;
        let setup = json!({
            "event": "setup",
            "players": self.n,
            "map_fingerprint": format!("{:016x}", self.map.fingerprint()),
            "cities": self.map.names,
            "track": self.track_json(),
            "variant": {"short": self.short, "one_palace_per_city": self.one_palace_per_city,
                        "advanced_1": self.advanced_1, "advanced_2": self.advanced_2,
                        "reveal": match self.reveal { Reveal::Turn => "turn", Reveal::Together => "together" },
                        "route": if r.choose_route { "choose" } else { "first" },
                        "gold": if r.gold_hidden { "hidden" } else { "public" },
                        "powers": if r.powers_optional { "optional" } else { "always" },
                        "repick": if r.repick_own_turn { "own_turn" } else { "at_once" },
                        "map": if &*self.map_source == "built-in" { Value::Null } else { json!(&*self.map_source) }},
            "map": &*self.map_source,
            "gold": self.gold[..self.n].to_vec(),
        });
        self.log = Some(vec![setup]);
    }

    fn take_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
