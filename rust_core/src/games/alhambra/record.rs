//! What is recorded of an Alhambra game: the output columns, the JSON of actions and the
//! rule-event log (set-up, refills, scorings, Dirk, reshuffles, the end).

use super::data::bits;
use super::data::{self, CURRENCIES, TILES};
use super::state::{card_json, tile_json, Action, Alhambra};
use crate::game::{Game, MetricSpec, Record};
use serde_json::{json, Value};

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

/// Output columns, action JSON and the replay log.
impl Record for Alhambra {
    fn metric_specs() -> &'static [MetricSpec] {
        METRICS
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
        let wall = if self.is_terminal() { self.walls_scored[player] } else { me.city.longest_wall(self.v.wall_rule) };
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
    fn action_json(&self, _player: usize, a: &Action) -> Value {
        match *a {
            Action::Take { mask } => json!({
                "action": "take_money",
                "cards": (0..self.display_len as usize).filter(|i| mask >> i & 1 == 1)
                    .map(|i| card_json(self.display[i])).collect::<Vec<_>>(),
            }),
            Action::Buy { space, pay } => {
                let t = self.market[space as usize];
                let paid: usize = (1..=9).map(|v| v * pay[v - 1] as usize).sum();
                json!({
                    "action": "buy", "space": space, "currency": CURRENCIES[space as usize],
                    "tile": tile_json(t),
                    "pay": (1..=9).flat_map(|v| std::iter::repeat_n(v, pay[v - 1] as usize)).collect::<Vec<_>>(),
                    "exact": paid == TILES[t as usize].price as usize,
                })
            }
            Action::ToCity { tile, x, y } => json!({"action": "redesign_to_city", "tile": tile, "x": x, "y": y}),
            Action::ToReserve { tile } => json!({"action": "redesign_to_reserve", "tile": tile}),
            Action::Swap { out, inn } => json!({"action": "redesign_swap", "out": out, "in": inn}),
            Action::Place { tile, x, y } => json!({"action": "place_city", "tile": tile, "x": x, "y": y}),
            Action::Reserve { tile } => json!({"action": "place_reserve", "tile": tile}),
            Action::Dirk { tile } => json!({"action": "give_dirk", "tile": tile}),
            Action::Pass => json!({"action": "pass"}),
        }
    }
    fn enable_log(&mut self) {
        let setup = json!({
            "event": "setup",
            "start_position": self.start,
            "market": self.market.iter().map(|&t| tile_json(t)).collect::<Vec<_>>(),
            "display": self.display[..self.display_len as usize].iter().map(|&c| card_json(c)).collect::<Vec<_>>(),
            "hands": self.players.iter().map(|p| p.hand_cards().map(card_json).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "dirk_tiles": bits(self.dirk_tiles).collect::<Vec<_>>(),
            "deck_size": self.deck.len(),
            "bag_size": self.bag.len(),
        });
        self.log = Some(vec![setup]);
    }
    fn take_log(&mut self) -> Vec<Value> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
