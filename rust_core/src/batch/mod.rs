//! The batch runner: plays `count` games from `start` and builds output columns.
//!
//! Game *i* uses the deal stream `(seed, deal_index(i))` and, for the agent at list index
//! `p`, the agent stream `(seed, i, p)`: results depend on nothing else. With
//! `pair_seats`, consecutive groups of `n` games share one deal and rotate the agents
//! across the dealt positions, so every agent plays every seat of every deal.
//!
//! [`simulate_positions`] also records **positions**: for every player of every game one of
//! that player's decisions, drawn uniformly (reservoir sampling) from the stream
//! `(seed, game_index)` of purpose "positions" ([`positions_rng`]), with the game's
//! [`crate::game::Evaluate::features`] as that player saw the position and the player's final
//! win share. The rows depend only on the game, never on batch size or worker count, and
//! the games played are those of [`simulate`].
//!
//! Given a **label** agent (a search spec), each recorded position is also searched by that
//! agent afresh, from the recording player's view, on the stream `(seed, game_index, player)`
//! of purpose "label" ([`label_rng`]); its estimate of the player's win share
//! ([`Agent::value`]) is the row's `value` (NaN without a label agent, or where the player had
//! one legal action): a target for the learned evaluation far less noisy than one game's
//! outcome, at the cost of one search per row. (At a simultaneous decision the position is
//! the one the runner records, with the earlier players' choices applied: the view hides
//! them, and the search samples them as it samples any pending choice.)

pub mod bare;

use crate::agents::timed::{Clock, Timed};
use crate::agents::Agent;
use crate::agents::AgentSpec;
use crate::error::{Error, Result};
use crate::game::{ranks_and_wins_into, Engine, Handicap, MetricSpec, View, MAX_SEATS};
use crate::handicap;
use crate::luck::{LuckMeter, LuckValue};
use crate::options::Files;
use crate::rng::{agent_rng, below, deal_rng, label_rng, luck_rng, luck_rollout_rng, positions_rng, Rng};
use serde_json::{json, Value};

/// Columns of a batch, one row per player per game.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Columns {
    pub game_index: Vec<i64>,
    pub deal_index: Vec<i64>,
    pub player: Vec<i32>,
    pub seat: Vec<i32>,
    /// Index into `agent_names`.
    pub agent: Vec<u32>,
    /// Final score plus the seat's handicap (the score that ranks).
    pub score: Vec<i64>,
    /// The seat's handicap (points in `score`; 0 without one): `score - handicap` is the raw score.
    pub handicap: Vec<i64>,
    /// The game's tie-break key (compared only between equal scores).
    pub tiebreak: Vec<i64>,
    pub rank: Vec<i32>,
    pub win: Vec<f64>,
    pub turns: Vec<i32>,
    /// 1 if the engine's safety net ended the game ([`crate::game::Game::capped`]), else 0.
    pub capped: Vec<i32>,
    /// The player's luck in the game ([`crate::luck`]); empty unless the spec asks for it.
    pub luck: Vec<f64>,
    pub metric_specs: Vec<MetricSpec>,
    /// One column per metric spec.
    pub metrics: Vec<Vec<Option<i64>>>,
    pub agent_names: Vec<String>,
    pub rules_version: u32,
}

impl Columns {
    /// Room for `rows` more rows in every column, so that a batch never regrows (and copies) its
    /// columns while it plays.
    fn reserve(&mut self, rows: usize, luck: bool) {
        for col in [&mut self.game_index, &mut self.deal_index, &mut self.score, &mut self.handicap, &mut self.tiebreak]
        {
            col.reserve(rows);
        }
        for col in [&mut self.player, &mut self.seat, &mut self.rank, &mut self.turns, &mut self.capped] {
            col.reserve(rows);
        }
        self.agent.reserve(rows);
        self.win.reserve(rows);
        if luck {
            self.luck.reserve(rows);
        }
        for col in &mut self.metrics {
            col.reserve(rows);
        }
    }
}

/// Sampled positions of a batch, one row per player per game (see the module docs).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Positions {
    pub game_index: Vec<i64>,
    /// Index into the agent list.
    pub player: Vec<i32>,
    pub seat: Vec<i32>,
    /// Completed turns of the game at the sampled decision.
    pub turn: Vec<i32>,
    /// Which of the player's decisions was sampled (0 = their first) and how many they had.
    pub decision: Vec<i32>,
    pub decisions: Vec<i32>,
    /// The player's final win share (1/k for a k-way tie for first).
    pub win: Vec<f64>,
    /// The game's hand-written [`crate::game::Evaluate::win_estimate`] for the player at the
    /// sampled decision (read from the true state; NaN where the game has none): the
    /// baseline the learned evaluation is compared with.
    pub estimate: Vec<f64>,
    /// The label agent's estimate of the player's win share at the sampled decision (NaN
    /// without a label agent; see the module docs).
    pub value: Vec<f64>,
    pub feature_names: Vec<&'static str>,
    /// One column per feature name.
    pub features: Vec<Vec<f32>>,
}

/// The position sampled so far for one player of one game (the state itself kept only
/// for a label agent).
#[derive(Clone)]
struct Sample<G> {
    seen: u32,
    chosen: u32,
    turn: u32,
    estimate: f64,
    features: Vec<f32>,
    state: Option<G>,
}

/// One batch description, passed whole through the layers (Python, bindings, registry, runner):
/// what a study cell plays (its variant, the text of the files its file options name, its
/// line-up) with the study's seed and seating. A call chooses the games by index range.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchSpec {
    pub variant: Value,
    pub files: Files,
    pub agents: Vec<String>,
    pub seed: u64,
    /// Rotate the agents across the dealt positions of every deal (see the module docs).
    pub pair_seats: bool,
    /// Measure every player's luck ([`crate::luck`]) into [`Columns::luck`]; play is the same.
    pub luck: bool,
    /// The value the luck measurement uses (default: the learned evaluation).
    pub luck_value: LuckValue,
}

impl BatchSpec {
    pub fn new(variant: &Value, files: &Files, agents: &[String], seed: u64, pair_seats: bool) -> Self {
        BatchSpec {
            variant: variant.clone(),
            files: files.clone(),
            agents: agents.to_vec(),
            seed,
            pair_seats,
            luck: false,
            luck_value: LuckValue::Learned,
        }
    }

    /// The same batch measuring luck with `value` (see [`LuckValue`]).
    pub fn with_luck_value(mut self, value: LuckValue) -> Self {
        self.luck_value = value;
        self
    }

    /// The same batch with the luck measurement on or off.
    pub fn with_luck(mut self, luck: bool) -> Self {
        self.luck = luck;
        self
    }
}

/// Validated inputs of a run.
pub struct Setup<G: Engine> {
    pub variant: G::Variant,
    pub agents: Vec<AgentSpec>,
    /// The variant's per-seat score handicap (option `handicap`, see [`crate::handicap`]).
    pub handicap: Handicap,
}

impl<G: Engine> Setup<G> {
    pub fn new(variant: &Value, agents: &[String], files: &Files) -> Result<Self> {
        let n = agents.len();
        debug_assert!(G::MAX_PLAYERS <= MAX_SEATS);
        if !(G::MIN_PLAYERS..=G::MAX_PLAYERS).contains(&n) {
            return Err(Error::PlayerCount {
                game: G::NAME.into(),
                count: n,
                min: G::MIN_PLAYERS,
                max: G::MAX_PLAYERS,
            });
        }
        let agents = agents.iter().map(|a| AgentSpec::parse(a)).collect::<Result<Vec<_>>>()?;
        let (variant, handicap) = handicap::split(variant, n)?;
        let variant = G::parse_variant(&variant, n, files)?;
        Ok(Setup { variant, agents, handicap })
    }

    /// Deal index and the agent at each dealt position for game `index`.
    pub fn seating(&self, index: u64, pair_seats: bool) -> (u64, Vec<usize>) {
        let n = self.agents.len();
        if pair_seats {
            let r = (index % n as u64) as usize;
            (index / n as u64, (0..n).map(|q| (q + r) % n).collect())
        } else {
            (index, (0..n).collect())
        }
    }

    /// One agent per entry of the line-up. [`Setup::play`] starts every game afresh for
    /// each agent ([`Agent::start_game`]), so the same instances play every game of a batch.
    pub fn build_agents(&self) -> Result<Vec<Box<dyn Agent<G>>>> {
        self.agents.iter().map(|a| a.build::<G>()).collect()
    }

    /// Plays one game with `agents` (from [`Setup::build_agents`]). At each decision every
    /// acting position's agent chooses from the same position through its own view (so in
    /// a simultaneous decision nobody sees another's choice), then the choices are applied;
    /// `on_action(state_before, position, action)` sees each one before it is applied.
    pub fn play(
        &self,
        agents: &mut [Box<dyn Agent<G>>],
        seed: u64,
        index: u64,
        pair_seats: bool,
        log: bool,
        mut on_action: impl FnMut(&mut G, usize, &G::Action),
    ) -> Result<(G, Vec<usize>, u64)> {
        let (deal_index, who) = self.seating(index, pair_seats);
        let n = who.len();
        let mut state = G::new(&self.variant, n, deal_rng(seed, deal_index));
        if log {
            state.enable_log();
        }
        let mut rngs: [Option<Rng>; MAX_SEATS] = Default::default();
        for (q, &p) in who.iter().enumerate() {
            rngs[q] = Some(agent_rng(seed, index, p as u64));
        }
        // allocated at the first simultaneous decision only
        let mut choices: Vec<(usize, G::Action)> = Vec::new();
        for agent in agents.iter_mut() {
            agent.start_game();
        }
        while !state.is_terminal() {
            let d = state.decision();
            if !d.is_simultaneous() {
                let q = d.first();
                let rng = rngs[q].as_mut().expect("one stream per position");
                let action = agents[who[q]].choose(&View::with_handicap(&state, q, &self.handicap), rng);
                on_action(&mut state, q, &action);
                state.apply(q, action);
                for agent in agents.iter_mut() {
                    agent.observe(Some((q, action)));
                }
                continue;
            }
            choices.clear();
            for q in d.players() {
                let rng = rngs[q].as_mut().expect("one stream per position");
                choices.push((q, agents[who[q]].choose(&View::with_handicap(&state, q, &self.handicap), rng)));
            }
            for &(q, action) in &choices {
                on_action(&mut state, q, &action);
                state.apply(q, action);
            }
            for agent in agents.iter_mut() {
                agent.observe(None);
            }
        }
        Ok((state, who, deal_index))
    }
}

/// Plays games `start .. start + count` and returns their rows.
pub fn simulate<G: Engine>(spec: &BatchSpec, start: u64, count: u64) -> Result<Columns> {
    play_batch::<G>(spec, start, count, None, None)
}

/// Plays games `start .. start + count` (the games of [`simulate`]) and returns their rows
/// and what each agent of the line-up spent on its decisions ([`Clock`], in list order).
/// For benchmarks: CPU times differ from run to run, so they are not part of any run's data.
pub fn simulate_timed<G: Engine>(spec: &BatchSpec, start: u64, count: u64) -> Result<(Columns, Vec<Clock>)> {
    let mut clocks = Vec::with_capacity(spec.agents.len());
    let cols = play_batch::<G>(spec, start, count, None, Some(&mut clocks))?;
    Ok((cols, clocks))
}

/// Plays games `start .. start + count` (the games of [`simulate`]) and returns their rows
/// and one sampled position per player per game, each searched by the `label` agent if one
/// is given (see the module docs).
pub fn simulate_positions<G: Engine>(
    spec: &BatchSpec,
    start: u64,
    count: u64,
    label: Option<&str>,
) -> Result<(Columns, Positions)> {
    let names = G::FEATURE_NAMES;
    let mut pos = Positions {
        feature_names: names.to_vec(),
        // one column each with room for every row (cloning an empty Vec would drop the room)
        features: (0..names.len()).map(|_| Vec::with_capacity(count as usize * spec.agents.len())).collect(),
        ..Positions::default()
    };
    let mut labeller = label.map(|l| AgentSpec::parse(l)?.build::<G>()).transpose()?;
    let cols = play_batch::<G>(spec, start, count, Some((&mut pos, labeller.as_mut())), None)?;
    Ok((cols, pos))
}

/// Where a batch records its positions, and the agent that labels them (if any).
type Recording<'a, G> = (&'a mut Positions, Option<&'a mut Box<dyn Agent<G>>>);

fn play_batch<G: Engine>(
    spec: &BatchSpec,
    start: u64,
    count: u64,
    mut pos: Option<Recording<'_, G>>,
    clocks: Option<&mut Vec<Clock>>,
) -> Result<Columns> {
    let BatchSpec { agents, seed, pair_seats, .. } = spec;
    let (seed, pair_seats) = (*seed, *pair_seats);
    let setup = Setup::<G>::new(&spec.variant, agents, &spec.files)?;
    let n = agents.len();
    let rows = count as usize * n;
    let specs = G::metric_specs();
    let mut c = Columns {
        metric_specs: specs.to_vec(),
        metrics: vec![Vec::new(); specs.len()],
        agent_names: agents.to_vec(),
        rules_version: G::RULES_VERSION,
        ..Columns::default()
    };
    c.reserve(rows, spec.luck);
    let mut buf = Vec::with_capacity(specs.len());
    let mut agents = setup.build_agents()?;
    let mut timers = Vec::new();
    if clocks.is_some() {
        agents = agents
            .into_iter()
            .map(|a| {
                let (timed, clock) = Timed::new(a);
                timers.push(clock);
                Box::new(timed) as Box<dyn Agent<G>>
            })
            .collect();
    }
    let keep_state = matches!(pos, Some((_, Some(_))));
    let blank = Sample {
        seen: 0,
        chosen: 0,
        turn: 0,
        estimate: f64::NAN,
        features: vec![0.0; G::FEATURE_NAMES.len()],
        state: None,
    };
    let mut samples = vec![blank; n];
    for index in start..start + count {
        let recording = pos.is_some();
        // the stream that picks the recorded positions, drawn only when recording
        let mut pick = recording.then(|| positions_rng(seed, index));
        for s in samples.iter_mut() {
            s.seen = 0;
        }
        let mut meter = spec.luck.then(|| {
            let meter = match spec.luck_value {
                LuckValue::Learned => LuckMeter::new::<G>(luck_rng(seed, index)),
                v => LuckMeter::with_value::<G>(luck_rng(seed, index), v, Some(luck_rollout_rng(seed, index))),
            };
            let mut greedy = [false; MAX_SEATS];
            for (q, &p) in setup.seating(index, pair_seats).1.iter().enumerate() {
                greedy[q] = setup.agents[p].name == "greedy";
            }
            meter.with_greedy(greedy)
        });
        let fresh = |rng: Rng| G::new(&setup.variant, n, rng);
        let (state, who, deal_index) = setup.play(&mut agents, seed, index, pair_seats, false, |s, q, a| {
            if let Some(pick) = pick.as_mut() {
                sample(&mut samples[q], &*s, q, pick, keep_state);
            }
            if let Some(m) = meter.as_mut() {
                m.step(&*s, q, a, fresh, &setup.handicap);
            }
        })?;
        let luck = meter.map(|m| m.finish(&state, fresh, &setup.handicap));
        // `Handicap::outcome`, with the tie-breaks asked for once
        let scores = setup.handicap.scores(&state);
        let tiebreaks = state.tiebreaks();
        let (mut ranks, mut wins) = ([0u32; MAX_SEATS], [0.0f64; MAX_SEATS]);
        ranks_and_wins_into(&scores, &tiebreaks, &mut ranks, &mut wins);
        // Rows in agent-list order (player = index into `agents`).
        let mut position = [0usize; MAX_SEATS];
        for (q, &p) in who.iter().enumerate() {
            position[p] = q;
        }
        for &q in &position[..n] {
            c.game_index.push(index as i64);
            c.deal_index.push(deal_index as i64);
            c.player.push(who[q] as i32);
            c.seat.push(state.seat(q) as i32);
            c.agent.push(who[q] as u32);
            c.score.push(scores[q]);
            c.handicap.push(setup.handicap.points(state.seat(q)));
            c.tiebreak.push(tiebreaks[q]);
            c.rank.push(ranks[q] as i32);
            c.win.push(wins[q]);
            c.turns.push(state.turns() as i32);
            c.capped.push(i32::from(state.capped()));
            if let Some(l) = &luck {
                c.luck.push(l[q]);
            }
            buf.clear();
            state.metrics(q, &mut buf);
            for (col, v) in c.metrics.iter_mut().zip(&buf) {
                col.push(*v);
            }
            if let Some((p, labeller)) = pos.as_mut() {
                let s = &samples[q];
                let value = match (labeller, &s.state) {
                    (Some(agent), Some(at)) => {
                        label_value(agent.as_mut(), at, q, &setup.handicap, label_rng(seed, index, who[q] as u64))
                    }
                    _ => f64::NAN,
                };
                p.value.push(value);
                p.game_index.push(index as i64);
                p.player.push(who[q] as i32);
                p.seat.push(state.seat(q) as i32);
                p.turn.push(s.turn as i32);
                p.decision.push(s.chosen as i32);
                p.decisions.push(s.seen as i32);
                p.win.push(wins[q]);
                p.estimate.push(s.estimate);
                for (col, v) in p.features.iter_mut().zip(&s.features) {
                    col.push(*v);
                }
            }
        }
    }
    if let Some(out) = clocks {
        out.extend(timers.iter().map(|t| *t.lock().expect("the batch is over")));
    }
    Ok(c)
}

/// Reservoir sampling of one decision: the `k`-th decision of a player replaces the sample
/// with probability 1/k (features taken before the action is applied).
fn sample<G: Engine>(s: &mut Sample<G>, state: &G, q: usize, pick: &mut Rng, keep_state: bool) {
    s.seen += 1;
    if below(pick, s.seen as usize) == 0 {
        s.chosen = s.seen - 1;
        s.turn = state.turns();
        s.estimate = state.win_estimate().map_or(f64::NAN, |w| w[q]);
        state.features(q, &mut s.features);
        if keep_state {
            s.state = Some(state.clone());
        }
    }
}

/// The label agent's estimate of position `q`'s win share in `state`, searched afresh (NaN
/// where it does not search: one legal action).
fn label_value<G: Engine>(agent: &mut dyn Agent<G>, state: &G, q: usize, handicap: &Handicap, mut rng: Rng) -> f64 {
    agent.start_game();
    agent.choose(&View::with_handicap(state, q, handicap), &mut rng);
    agent.value().unwrap_or(f64::NAN)
}

/// The event log of one game: set-up, every action with its player, rule events, and
/// the result rows (identical to what [`simulate`] gives for this game).
pub fn replay<G: Engine>(spec: &BatchSpec, index: u64) -> Result<Value> {
    let BatchSpec { agents, seed, pair_seats, .. } = spec;
    let (seed, pair_seats) = (*seed, *pair_seats);
    let setup = Setup::<G>::new(&spec.variant, agents, &spec.files)?;
    let (_, who) = setup.seating(index, pair_seats);
    let mut events: Vec<Value> = Vec::new();
    let mut legal = Vec::new();
    let mut line_up = setup.build_agents()?;
    let (mut state, who, deal_index) = setup.play(&mut line_up, seed, index, pair_seats, true, |s, q, a| {
        events.extend(s.take_log());
        legal.clear();
        s.legal_actions(q, None, &mut legal);
        let d = s.decision();
        let mut e = json!({"event": "action", "turn": s.turns(), "position": q, "player": who[q],
                           "options": legal.len(), "action": s.action_json(q, a)});
        if d.is_simultaneous() {
            e["simultaneous"] = json!(true);
        }
        if d.continues_turn {
            e["continues_turn"] = json!(true);
        }
        events.push(e);
    })?;
    events.extend(state.take_log());
    let (scores, ranks, wins) = setup.handicap.outcome(&state);
    let tiebreaks = state.tiebreaks();
    let mut metrics = Vec::new();
    let players: Vec<Value> = (0..who.len())
        .map(|q| {
            metrics.clear();
            state.metrics(q, &mut metrics);
            let mut row = json!({
                "player": who[q], "agent": agents[who[q]], "position": q, "seat": state.seat(q),
                "score": scores[q], "handicap": setup.handicap.points(state.seat(q)),
                "tiebreak": tiebreaks[q], "rank": ranks[q], "win": wins[q],
            });
            for (spec, v) in G::metric_specs().iter().zip(&metrics) {
                row[spec.name] = json!(v);
            }
            row
        })
        .collect();
    Ok(json!({
        "game": G::NAME, "rules_version": G::RULES_VERSION, "seed": seed, "game_index": index,
        "deal_index": deal_index, "agents": agents, "turns": state.turns(), "capped": state.capped(),
        "events": events, "result": players,
    }))
}
