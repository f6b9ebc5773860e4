//! The conformance suite: what every game must satisfy, generic over the contract and run
//! for every game of [`crate::registry::GAMES`] by `cargo test` (a new game gets it by
//! registering). Per player count and per variant switch (the defaults, then each value of
//! every option whose schema lists its values, `true | false` or `"a" | "b"`, alone):
//!
//! * random and greedy self-play end within [`MAX_DECISIONS`];
//! * a non-terminal state has legal actions for every acting player, `action_kinds` agrees
//!   with the per-kind lists, and `is_legal` accepts every listed action;
//! * `determinize` keeps `observation` and the `hidden` multiset of the observer, and the
//!   first hidden item of many samples follows the pool's proportions (a chi-square bound);
//! * changing only hidden information (a determinized copy) never changes the choice of
//!   `random`, `greedy` or `mcts` (same seed), nor does another acting player's pending
//!   choice in a simultaneous decision;
//! * `replay` equals `simulate`; results do not depend on how games are split into
//!   batches; ranks, win shares and tie-breaks are consistent with the scores;
//! * under a score handicap each row holds its seat's points (`handicap`), `score - handicap`
//!   is the game's own score, and ranks and wins are those of `score` with the tie-break;
//! * `mcts` and `xmcts` agents that keep their trees between decisions play only legal actions;
//! * [`crate::game::Evaluate::features`] read only what their player knows (equal on a
//!   determinized copy and whatever another player's pending choice), the positions of
//!   `simulate_positions` do not depend on the batch split and their games are `simulate`'s,
//!   and the game's learned evaluation (`<game>_eval_weights.txt`) parses.

use crate::agents::{Agent, AgentSpec};
use crate::batch::{self, Columns};
use crate::game::{Engine, View};
use crate::options::Files;
use crate::rng::{agent_rng, deal_rng, Rng};
use serde_json::{json, Value};

/// Decisions after which a self-play game counts as not ending.
pub const MAX_DECISIONS: usize = 200_000;
/// Games of [`kept_trees_play_legal_moves`].
const KEPT_TREE_GAMES: u64 = 6;
/// Agents whose choices must not depend on hidden information.
const PROBE_AGENTS: [&str; 4] = ["random", "greedy", "mcts:iters=24", "xmcts:iters=24"];

/// Feature `name` of `player` in `state` (for a game's hand-worked feature tests).
pub fn feature<G: crate::game::Evaluate>(state: &G, player: usize, name: &str) -> f32 {
    let mut x = vec![0.0; G::FEATURE_NAMES.len()];
    state.features(player, &mut x);
    x[G::FEATURE_NAMES.iter().position(|&f| f == name).expect("a feature of the game")]
}

/// Runs the whole suite for game `G`; panics naming the game, the variant and the check.
pub fn check<G: Engine>() {
    let files = Files::new();
    for v in switch_variants::<G>() {
        for n in G::MIN_PLAYERS..=G::MAX_PLAYERS {
            let ctx = format!("{} {n}p {v}", G::NAME);
            let variant = G::parse_variant(&v, n, &files).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            for (i, spec) in ["random", "random", "greedy"].iter().enumerate() {
                self_play::<G>(&variant, n, spec, i as u64, i == 0, &ctx);
            }
        }
    }
    determinize_samples::<G>();
    batches_and_replays::<G>();
    handicap_is_data::<G>();
    positions_are_batch_independent::<G>();
    kept_trees_play_legal_moves::<G>();
    luck_leaves_play_unchanged::<G>();
    crate::agents::learned::Learned::of::<G>().unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
}

/// The features of `player` in `state`.
fn features<G: Engine>(state: &G, player: usize) -> Vec<f32> {
    let mut out = vec![0.0; G::FEATURE_NAMES.len()];
    state.features(player, &mut out);
    out
}

/// `simulate_positions` plays `simulate`'s games, labelled or not; its rows do not depend on
/// the batch split, and a label search gives each a win share in [0, 1] (NaN only where the
/// player had one legal action, which no test can tell from the row: at least one is labelled).
fn positions_are_batch_independent<G: Engine>() {
    let files = Files::new();
    let agents: Vec<String> = (0..G::MIN_PLAYERS).map(|_| "greedy".to_string()).collect();
    let spec = crate::batch::BatchSpec::new(&json!({}), &files, &agents, 4, true);
    let label = Some("mcts:iters=30");
    let (games, whole) = batch::simulate_positions::<G>(&spec, 0, 6, label).expect("positions");
    assert_eq!(games, batch::simulate::<G>(&spec, 0, 6).expect("simulate"), "{}: other games", G::NAME);
    let (_, plain) = batch::simulate_positions::<G>(&spec, 0, 6, None).expect("positions");
    assert_eq!(plain.features, whole.features, "{}: labelling changed the positions", G::NAME);
    assert!(plain.value.iter().all(|v| v.is_nan()), "{}: a value without a label agent", G::NAME);
    assert!(whole.value.iter().any(|v| (0.0..=1.0).contains(v)), "{}: no position labelled", G::NAME);
    assert!(whole.value.iter().all(|v| v.is_nan() || (0.0..=1.0).contains(v)), "{}: a label out of range", G::NAME);
    let (_, a) = batch::simulate_positions::<G>(&spec, 0, 2, label).expect("positions");
    let (_, b) = batch::simulate_positions::<G>(&spec, 2, 4, label).expect("positions");
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&whole.value), bits(&[a.value.clone(), b.value.clone()].concat()), "{}: split", G::NAME);
    assert_eq!(whole.game_index, [a.game_index.clone(), b.game_index.clone()].concat());
    assert_eq!(whole.decision, [a.decision.clone(), b.decision.clone()].concat(), "{}: split", G::NAME);
    let cat: Vec<Vec<f32>> = a.features.iter().zip(&b.features).map(|(x, y)| [x.clone(), y.clone()].concat()).collect();
    assert_eq!(whole.features, cat, "{}: batch split changed the positions", G::NAME);
    assert_eq!(whole.win, games.win, "{}: a position's win is not its player's", G::NAME);
    assert!(whole.decision.iter().zip(&whole.decisions).all(|(d, n)| d < n), "{}: decision out of range", G::NAME);
}

/// Whole games of `mcts` agents that keep their trees between decisions (the batch runner
/// tells them the actions): every action they choose is legal, though a kept subtree was
/// searched on samples where the same history meant another position.
fn kept_trees_play_legal_moves<G: Engine>() {
    let files = Files::new();
    let n = G::MIN_PLAYERS;
    for name in ["mcts", "xmcts"] {
        let agents: Vec<String> = (0..n).map(|i| format!("{name}:iters={}", 40 + 20 * i)).collect();
        let setup = batch::Setup::<G>::new(&json!({}), &agents, &files).expect("setup");
        let mut line_up = setup.build_agents().expect("agents");
        for index in 0..KEPT_TREE_GAMES {
            setup
                .play(&mut line_up, 12, index, true, false, |s, q, a| {
                    assert!(s.is_legal(q, a), "{}: game {index}: a kept {name} tree chose an illegal {a:?}", G::NAME)
                })
                .expect("play");
        }
    }
}

/// The defaults, then each listed value of every switch alone.
pub fn switch_variants<G: Engine>() -> Vec<Value> {
    let mut out = vec![json!({})];
    for spec in G::variant_schema() {
        for text in spec.allowed.split(" | ") {
            let value: Option<Value> = serde_json::from_str(text.trim()).ok();
            if let Some(v @ (Value::Bool(_) | Value::String(_))) = value {
                if v != spec.default {
                    out.push(json!({ spec.name: v }));
                }
            }
        }
    }
    out
}

fn build<G: Engine>(spec: &str) -> Box<dyn Agent<G>> {
    AgentSpec::parse(spec).and_then(|a| a.build::<G>()).expect("agent")
}

/// Plays one self-play game with `spec`, checking every decision; with `probe`, also the
/// hidden-information and pending-choice checks every 9th decision.
fn self_play<G: Engine>(variant: &G::Variant, n: usize, spec: &str, seed: u64, probe: bool, ctx: &str) {
    let mut state = G::new(variant, n, deal_rng(seed, 7));
    let mut agent = build::<G>(spec);
    let mut rng = agent_rng(seed, 7, 0);
    let mut choices = Vec::new();
    let mut decisions = 0;
    while !state.is_terminal() {
        decisions += 1;
        assert!(decisions <= MAX_DECISIONS, "{ctx}: {spec} self-play did not end");
        check_legal(&state, ctx);
        if probe && decisions % 9 == 1 {
            check_knowledge(&state, &mut rng, ctx);
            check_pending(&state, ctx);
        }
        choices.clear();
        for p in state.decision().players() {
            choices.push((p, agent.choose(&View::new(&state, p), &mut rng)));
        }
        for &(p, a) in &choices {
            assert!(state.is_legal(p, &a), "{ctx}: agent {spec} chose an illegal {a:?}");
            state.apply(p, a);
        }
    }
}

/// Legal actions exist for every acting player and agree with the kinds and `is_legal`.
fn check_legal<G: Engine>(state: &G, ctx: &str) {
    let d = state.decision();
    assert!(d.acting != 0, "{ctx}: a non-terminal state with nobody to act");
    let (mut all, mut by_kind) = (Vec::new(), Vec::new());
    for p in d.players() {
        all.clear();
        state.legal_actions(p, None, &mut all);
        assert!(!all.is_empty(), "{ctx}: player {p} acts but has no legal action");
        let kinds = state.action_kinds(p);
        let mut count = 0;
        for k in 0..32 {
            by_kind.clear();
            state.legal_actions(p, Some(k), &mut by_kind);
            assert_eq!(by_kind.is_empty(), kinds >> k & 1 == 0, "{ctx}: kind {k} of player {p} vs action_kinds");
            count += by_kind.len();
        }
        assert_eq!(count, all.len(), "{ctx}: the per-kind lists do not add up to the legal list");
        for a in all.iter().step_by(1 + all.len() / 64) {
            assert!(state.is_legal(p, a), "{ctx}: is_legal rejects the listed {a:?}");
        }
    }
}

/// What the acting players know survives `determinize`; agents ignore hidden parts.
fn check_knowledge<G: Engine>(state: &G, rng: &mut Rng, ctx: &str) {
    let chance = state.resample_chance(rng);
    for p in 0..state.n_players() {
        assert_eq!(chance.observation(p), state.observation(p), "{ctx}: resample_chance changed what player {p} knows");
    }
    for p in state.decision().players() {
        let other = state.determinize(p, rng);
        assert_eq!(other.observation(p), state.observation(p), "{ctx}: determinize changed what player {p} knows");
        let (mut a, mut b) = (state.hidden(p), other.hidden(p));
        a.iter_mut().chain(b.iter_mut()).for_each(|zone| zone.sort_unstable());
        assert_eq!(a, b, "{ctx}: determinize changed a hidden multiset of player {p}");
        assert_eq!(
            features(state, p),
            features(&other, p),
            "{ctx}: the features of player {p} read hidden information"
        );
        for spec in PROBE_AGENTS {
            let choose = |g: &G| build::<G>(spec).choose(&View::new(g, p), &mut agent_rng(5, 5, p as u64));
            assert_eq!(choose(state), choose(&other), "{ctx}: {spec} reads hidden information");
        }
    }
}

/// The luck measurement ([`crate::luck`]) plays the same games (its own stream), gives every row
/// a finite luck, and the players' luck of a game sums to 0 (every value it uses is a vector of
/// win shares summing to 1), with the learned value and with the rollout value.
fn luck_leaves_play_unchanged<G: Engine>() {
    let files = Files::new();
    let agents: Vec<String> = (0..G::MIN_PLAYERS).map(|_| "greedy".to_string()).collect();
    let spec = crate::batch::BatchSpec::new(&json!({}), &files, &agents, 6, true);
    let plain = batch::simulate::<G>(&spec, 0, 6).expect("simulate");
    let mut measured = batch::simulate::<G>(&spec.clone().with_luck(true), 0, 6).expect("simulate");
    let luck = std::mem::take(&mut measured.luck);
    assert_eq!(plain, measured, "{}: measuring luck changed the games", G::NAME);
    assert_eq!(luck.len(), plain.win.len(), "{}: one luck per row", G::NAME);
    for (rows, game) in luck.chunks(agents.len()).zip(plain.game_index.chunks(agents.len())) {
        let sum: f64 = rows.iter().sum();
        assert!(rows.iter().all(|l| l.is_finite()) && sum.abs() < 1e-9, "{}: game {}: luck {rows:?}", G::NAME, game[0]);
    }
    // the rollout value (short playouts here, greedy's tie-breaks measured too) plays the same games
    let rollout = crate::luck::LuckValue::Rollout { k: 2, h: 3, deal_only: false, ties: true };
    let mut measured =
        batch::simulate::<G>(&spec.clone().with_luck(true).with_luck_value(rollout), 0, 6).expect("simulate");
    let luck = std::mem::take(&mut measured.luck);
    assert_eq!(plain, measured, "{}: measuring luck with rollouts changed the games", G::NAME);
    for rows in luck.chunks(agents.len()) {
        let sum: f64 = rows.iter().sum();
        assert!(rows.iter().all(|l| l.is_finite()) && sum.abs() < 1e-9, "{}: rollout luck {rows:?}", G::NAME);
    }
}

/// In a simultaneous decision, another player's pending choice changes no agent's choice.
fn check_pending<G: Engine>(state: &G, ctx: &str) {
    let d = state.decision();
    if !d.is_simultaneous() {
        return;
    }
    let players: Vec<usize> = d.players().collect();
    let mut legal = Vec::new();
    for &q in &players {
        legal.clear();
        state.legal_actions(q, None, &mut legal);
        let Some(&last) = legal.last().filter(|_| legal.len() > 1) else { continue };
        let (mut s1, mut s2) = (state.clone(), state.clone());
        s1.apply(q, legal[0]);
        s2.apply(q, last);
        for &p in players.iter().filter(|&&p| p != q) {
            assert_eq!(features(&s1, p), features(&s2, p), "{ctx}: player {p}'s features see player {q}'s choice");
            for spec in PROBE_AGENTS {
                let choose = |g: &G| build::<G>(spec).choose(&View::new(g, p), &mut agent_rng(6, 6, p as u64));
                assert_eq!(choose(&s1), choose(&s2), "{ctx}: {spec} of player {p} sees player {q}'s pending choice");
            }
        }
    }
}

/// The first hidden item of many determinizations follows the pool (chi-square bound).
fn determinize_samples<G: Engine>() {
    let files = Files::new();
    let n = G::MIN_PLAYERS;
    let variant = G::parse_variant(&json!({}), n, &files).expect("defaults");
    let mut state = G::new(&variant, n, deal_rng(3, 3));
    let mut agent = build::<G>("random");
    let mut rng = agent_rng(3, 3, 0);
    for _ in 0..20 {
        if state.is_terminal() {
            return;
        }
        let d = state.decision();
        let picks: Vec<_> = d.players().map(|p| (p, agent.choose(&View::new(&state, p), &mut rng))).collect();
        for (p, a) in picks {
            state.apply(p, a);
        }
    }
    if state.is_terminal() {
        return;
    }
    let p = state.decision().first();
    for (z, pool) in state.hidden(p).iter().enumerate() {
        first_item_follows_pool(&state, p, z, pool, &mut rng);
    }
}

/// Over many determinizations, the first item of zone `z` follows the zone's multiset.
fn first_item_follows_pool<G: Engine>(state: &G, p: usize, z: usize, pool: &[u32], rng: &mut Rng) {
    let mut kinds: Vec<u32> = pool.to_vec();
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.len() < 2 {
        return;
    }
    const SAMPLES: usize = 2000;
    let mut seen = vec![0usize; kinds.len()];
    for _ in 0..SAMPLES {
        let first = state.determinize(p, rng).hidden(p)[z][0];
        seen[kinds.binary_search(&first).expect("a pooled item")] += 1;
    }
    let chi2: f64 = kinds
        .iter()
        .zip(&seen)
        .map(|(k, &o)| {
            let e = SAMPLES as f64 * pool.iter().filter(|x| *x == k).count() as f64 / pool.len() as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    let df = (kinds.len() - 1) as f64;
    // Far beyond the 1e-6 tail of chi-square(df) for any df: a wrong pool fails by miles.
    let bound = df + 10.0 * (2.0 * df).sqrt() + 25.0;
    assert!(chi2 < bound, "{}: zone {z}: first hidden item not drawn from the pool (chi2 {chi2:.1}, df {df})", G::NAME);
}

/// Replay equals simulate, batch splits change nothing, ranks and wins are consistent.
fn batches_and_replays<G: Engine>() {
    let files = Files::new();
    let agents: Vec<String> =
        (0..G::MIN_PLAYERS).map(|i| if i == 0 { "greedy" } else { "random" }.to_string()).collect();
    for pair in [false, true] {
        let whole = batch::simulate::<G>(&crate::batch::BatchSpec::new(&json!({}), &files, &agents, 9, pair), 0, 6)
            .expect("simulate");
        let a = batch::simulate::<G>(&crate::batch::BatchSpec::new(&json!({}), &files, &agents, 9, pair), 0, 2)
            .expect("simulate");
        let b = batch::simulate::<G>(&crate::batch::BatchSpec::new(&json!({}), &files, &agents, 9, pair), 2, 4)
            .expect("simulate");
        assert_eq!(whole.score, [a.score.clone(), b.score.clone()].concat(), "{}: batch split changed scores", G::NAME);
        assert_eq!(whole.metrics[..], concat_metrics(&a, &b)[..], "{}: batch split changed metrics", G::NAME);
        check_ranks(&whole);
        for index in [0u64, 5] {
            let log = batch::replay::<G>(&crate::batch::BatchSpec::new(&json!({}), &files, &agents, 9, pair), index)
                .expect("replay");
            check_positions(&log, G::NAME);
            for row in log["result"].as_array().expect("rows") {
                let i = (0..whole.game_index.len())
                    .find(|&i| whole.game_index[i] == index as i64 && whole.player[i] as u64 == row["player"])
                    .expect("the replayed game is in the batch");
                assert_eq!(log["capped"], json!(whole.capped[i] == 1), "{}: replay != simulate (capped)", G::NAME);
                assert_eq!(row["score"], json!(whole.score[i]), "{}: replay != simulate", G::NAME);
                assert_eq!(row["handicap"], json!(whole.handicap[i]), "{}: replay != simulate (handicap)", G::NAME);
                assert_eq!(row["rank"], json!(whole.rank[i]), "{}: replay != simulate", G::NAME);
                assert_eq!(row["win"], json!(whole.win[i]), "{}: replay != simulate", G::NAME);
                for (spec, col) in G::metric_specs().iter().zip(&whole.metrics) {
                    assert_eq!(row[spec.name], json!(col[i]), "{}: replay != simulate ({})", G::NAME, spec.name);
                }
            }
        }
    }
}

/// Under a handicap every row holds its seat's points in `handicap` (and a replay says the
/// same), `score - handicap` is the score the game gave (`greedy` and `random` do not play to a
/// handicap, so the games are the unhandicapped ones), and ranks and wins are those of `score`
/// with the tie-break ([`crate::game::ranks_and_wins`]); without one, `handicap` is 0.
fn handicap_is_data<G: Engine>() {
    let files = Files::new();
    let n = G::MIN_PLAYERS;
    let agents: Vec<String> = (0..n).map(|i| if i == 0 { "greedy" } else { "random" }.to_string()).collect();
    let points: Vec<i64> = (0..n as i64).map(|s| if s % 2 == 1 { s } else { -s }).collect();
    let spec = |variant: Value| crate::batch::BatchSpec::new(&variant, &files, &agents, 11, true);
    let plain = batch::simulate::<G>(&spec(json!({})), 0, 4).expect("simulate");
    let h = batch::simulate::<G>(&spec(json!({ "handicap": points })), 0, 4).expect("simulate");
    assert!(plain.handicap.iter().all(|p| *p == 0), "{}: a handicap without one", G::NAME);
    for i in 0..h.score.len() {
        assert_eq!(h.handicap[i], points[h.seat[i] as usize], "{}: row {i}: not its seat's handicap", G::NAME);
        assert_eq!(h.score[i] - h.handicap[i], plain.score[i], "{}: row {i}: score - handicap", G::NAME);
    }
    for game in h.score.chunks(n).zip(h.tiebreak.chunks(n)).zip(h.rank.chunks(n).zip(h.win.chunks(n))) {
        let ((score, tiebreak), (rank, win)) = game;
        let (ranks, wins) = crate::game::ranks_and_wins(score, tiebreak);
        assert_eq!(ranks.iter().map(|r| *r as i32).collect::<Vec<_>>(), rank, "{}: ranks", G::NAME);
        assert_eq!(wins, win, "{}: win shares", G::NAME);
    }
    let log = batch::replay::<G>(&spec(json!({ "handicap": points })), 3).expect("replay");
    for row in log["result"].as_array().expect("rows") {
        let seat = row["seat"].as_u64().expect("a seat") as usize;
        assert_eq!(row["handicap"], json!(points[seat]), "{}: replay handicap", G::NAME);
    }
}

/// Keys that would name a player in a rule event other than by its position.
const NOT_POSITION: [&str; 7] = ["player", "seat", "winner", "winners", "start_player", "ranking", "winner_seat"];

/// Every player reference in the rule events of a replay log is a position (see the README's
/// replay section): a key `position` or ending `_position` holds a position (or null), one
/// ending `_positions` a list of positions; no rule event says `player` (the agent index, which
/// only `action` events and the result rows carry, beside the position).
fn check_positions(log: &Value, game: &str) {
    let n = log["result"].as_array().expect("rows").len() as u64;
    fn walk(v: &Value, n: u64, ctx: &str) {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    assert!(!NOT_POSITION.contains(&k.as_str()), "{ctx}: key {k:?} names a player: use position");
                    if k == "position" || k.ends_with("_position") {
                        assert!(x.is_null() || x.as_u64().is_some_and(|q| q < n), "{ctx}: {k} = {x} is no position");
                    }
                    if k == "positions" || k.ends_with("_positions") {
                        let ok = x.as_array().is_some_and(|a| a.iter().all(|q| q.as_u64().is_some_and(|q| q < n)));
                        assert!(ok, "{ctx}: {k} = {x} is no list of positions");
                    }
                    walk(x, n, ctx);
                }
            }
            Value::Array(items) => items.iter().for_each(|x| walk(x, n, ctx)),
            _ => {}
        }
    }
    for e in log["events"].as_array().expect("events") {
        if e["event"] == "action" {
            assert!(e["position"].as_u64().is_some_and(|q| q < n), "{game}: action without a position");
            walk(&e["action"], n, &format!("{game} action"));
        } else {
            walk(e, n, &format!("{game} {} event", e["event"]));
        }
    }
}

fn concat_metrics(a: &Columns, b: &Columns) -> Vec<Vec<Option<i64>>> {
    a.metrics.iter().zip(&b.metrics).map(|(x, y)| [x.clone(), y.clone()].concat()).collect()
}

/// Per game: win shares sum to 1, a higher score never ranks worse, rank-1 players share
/// the win equally.
fn check_ranks(c: &Columns) {
    let mut i = 0;
    while i < c.game_index.len() {
        let j = (i..c.game_index.len()).find(|&j| c.game_index[j] != c.game_index[i]).unwrap_or(c.game_index.len());
        let wins: f64 = c.win[i..j].iter().sum();
        assert!((wins - 1.0).abs() < 1e-9, "game {}: win shares sum to {wins}", c.game_index[i]);
        let firsts = c.rank[i..j].iter().filter(|&&r| r == 1).count() as f64;
        for a in i..j {
            assert_eq!(c.win[a] > 0.0, c.rank[a] == 1, "game {}: wins and ranks disagree", c.game_index[i]);
            if c.rank[a] == 1 {
                assert!((c.win[a] - 1.0 / firsts).abs() < 1e-12);
            }
            for b in i..j {
                if c.score[a] > c.score[b] {
                    assert!(c.rank[a] < c.rank[b], "game {}: a higher score ranks worse", c.game_index[i]);
                }
            }
        }
        i = j;
    }
}
