//! Agents: generic over [`Game`], configured by spec strings `name` or
//! `name:key=value,key=value`, recorded verbatim in the output.

pub mod greedy;
pub mod learned;
pub mod mcts;
pub mod mcts1;
pub mod random;
pub mod timed;

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::game::{Evaluate, Game, View};
use crate::rng::Rng;

/// Names of the available agents.
pub const AGENTS: &[&str] = &["random", "greedy", "mcts", "mcts1", "xmcts"];

/// `xmcts`'s own version, before the content hash of a game's weights file is mixed in (history:
/// CHANGELOG.md).
const XMCTS_BASE_VERSION: u32 = 8;

/// Version of each agent's play in a game: bumped whenever an agent chooses differently for
/// the same seed (recorded with every run, so that a resume never mixes two agents; the history of
/// each version is in CHANGELOG.md). `mcts1` is `mcts` version 1, frozen (a yardstick).
/// `xmcts`'s version in a game is its own version mixed with the content hash of *that game's*
/// learned evaluation, `eval_weights` (its [`Evaluate::EVAL_WEIGHTS`]; see [`xmcts_version`]),
/// so a changed weights file changes it in that game only, and resume refuses a directory of
/// that game played with another evaluation. The other agents' versions are the same in every
/// game. (A game's rules version is recorded beside the agents' versions, not mixed into them.)
pub fn agent_version(name: &str, eval_weights: &str) -> u32 {
    match name {
        "mcts" => 6,
        "xmcts" => xmcts_version(learned::content_hash(eval_weights)),
        _ => 1,
    }
}

/// `xmcts`'s version for the content hash `weights_hash` of a game's weights file: its own
/// version mixed with the hash (a positive 31-bit number, as the manifest records it).
pub fn xmcts_version(weights_hash: u32) -> u32 {
    (weights_hash ^ XMCTS_BASE_VERSION.wrapping_mul(0x9E37_79B9)) & 0x7fff_ffff
}

/// Chooses actions for one player; sees the game only through that player's [`View`].
///
/// A driver that keeps an agent over a whole game (the batch runner) calls
/// [`Agent::start_game`] before the game's first decision and [`Agent::observe`] after each
/// decision; an agent must choose well without them (a fresh agent per decision, as in the
/// conformance suite, sees neither), so what it keeps between decisions is only a cache.
pub trait Agent<G: Game>: Send {
    fn choose(&mut self, view: &View<G>, rng: &mut Rng) -> G::Action;

    /// A new game begins: forget anything kept from an earlier one.
    fn start_game(&mut self) {}

    /// What happened at the last decision: `Some((player, action))` for an action taken at
    /// a turn (every game's turn actions are public once applied), `None` for a
    /// simultaneous decision, whose choices an agent must not learn this way (they may still
    /// be secret).
    fn observe(&mut self, _event: Option<(usize, G::Action)>) {}

    /// A search's estimate of its player's win share at its last decision (the mean reward of
    /// the action it chose), if it searched; `None` for agents that do not search.
    fn value(&self) -> Option<f64> {
        None
    }
}

/// Allowed parameter names per agent.
fn allowed_params(name: &str) -> &'static [&'static str] {
    match name {
        "mcts" => &["iters", "c", "bias", "rollout", "eps", "depth", "widen", "widen_c", "reuse"],
        "xmcts" => &[
            "iters",
            "c",
            "bias",
            "rollout",
            "eps",
            "depth",
            "widen",
            "widen_c",
            "reuse",
            "prior",
            "tree_depth",
            "stop",
            "decided",
            "root",
            "root_m",
        ],
        "mcts1" => &["iters", "c", "bias", "rollout", "depth"],
        _ => &[],
    }
}

fn allowed_list(name: &str) -> String {
    let allowed = allowed_params(name);
    if allowed.is_empty() {
        "none".to_string()
    } else {
        allowed.join(", ")
    }
}

/// A parsed agent spec.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentSpec {
    /// The spec exactly as given.
    pub spec: String,
    pub name: String,
    pub params: Vec<(String, String)>,
}

impl AgentSpec {
    pub fn parse(spec: &str) -> Result<Self> {
        let (name, rest) = match spec.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (spec.trim(), None),
        };
        if !AGENTS.contains(&name) {
            return Err(Error::UnknownAgent {
                spec: spec.to_string(),
                allowed: AGENTS.iter().map(|s| s.to_string()).collect(),
            });
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for item in rest.split(',').filter(|s| !s.trim().is_empty()) {
                let (k, v) = item.split_once('=').ok_or_else(|| Error::BadAgentParam {
                    spec: spec.to_string(),
                    message: format!(
                        "parameter {item:?} is not key=value; allowed keys for {name}: {}",
                        allowed_list(name)
                    ),
                })?;
                params.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let parsed = AgentSpec { spec: spec.to_string(), name: name.to_string(), params };
        parsed.check_params()?;
        if parsed.name.contains("mcts") {
            parsed.mcts_config()?;
        }
        Ok(parsed)
    }

    fn check_params(&self) -> Result<()> {
        let allowed = allowed_params(&self.name);
        for (k, _) in &self.params {
            if !allowed.contains(&k.as_str()) {
                let names = allowed_list(&self.name);
                return Err(Error::BadAgentParam {
                    spec: self.spec.clone(),
                    message: format!("unknown parameter {k:?} for agent {:?}; allowed: {names}", self.name),
                });
            }
        }
        Ok(())
    }

    /// Parameter `key=v` as a number in `lo..=hi` (`what` describes the allowed values).
    fn number<T: std::str::FromStr + PartialOrd>(&self, key: &str, v: &str, lo: T, hi: T, what: &str) -> Result<T> {
        v.parse::<T>()
            .ok()
            .filter(|x| *x >= lo && *x <= hi)
            .ok_or_else(|| self.bad(format!("{key}={v}: allowed {what}")))
    }

    fn bad(&self, message: String) -> Error {
        Error::BadAgentParam { spec: self.spec.clone(), message }
    }

    /// The MCTS settings with the general defaults (see [`AgentSpec::mcts_config_for`]).
    pub fn mcts_config(&self) -> Result<mcts::MctsConfig> {
        self.mcts_config_for("")
    }

    /// The MCTS settings of a game whose own defaults are `game_defaults` (its
    /// [`crate::game::Evaluate::MCTS_DEFAULTS`], for `xmcts` followed by its
    /// [`crate::game::Evaluate::XMCTS_DEFAULTS`]): the general defaults, then the game's
    /// (`mcts` and `xmcts`; `mcts1` stays version 1), then the spec's own parameters:
    /// `iters` (1..=1000000, default 1000), `c` (0..=100, default 0.2), `bias` (0..=100,
    /// default 10), `rollout` (`random` | `greedy` | `egreedy`, default greedy; `egreedy` plays
    /// a random move with probability `eps`, 0..=1, default 0.1), `depth` (rollout moves
    /// before the game's win estimate is used, 0..=100000, 0 = play to the end), `widen`
    /// (progressive widening exponent 0..=1, default 0.5; 1 = a new child on every visit),
    /// `widen_c` (its coefficient 0.1..=100, default 2) and `reuse` (1 = keep the subtree of
    /// the position reached between decisions, default; 0 = a new tree per decision); see
    /// `MctsConfig`. `xmcts` takes the same parameters and defaults; its `depth` counts the
    /// rollout moves before its learned evaluation ends the rollout (0: at the new leaf), and
    /// it has three more, `prior` (`greedy`, default, | `learned`: the candidates at a turn
    /// re-ranked, and their priors set, by the learned value of the position each leads to),
    /// `tree_depth` (0..=1000, default 0 = no limit: the tree grows no deeper than that many
    /// decisions below the root; an experiment, off in every game) and `stop` (0..=1, default 0
    /// = never: a search at a turn ends once its most visited root candidate leads every other
    /// by more than `stop` times the iterations left; 1 = once none can catch up), `root` (`uct`,
    /// default, | `halving`: at a turn, sequential halving over `root_m` root candidates, 2..=64,
    /// default 8, each action kind's best prior first, | `halving_bias`: the same, ranked with the
    /// progressive bias; see the `mcts` module docs).
    pub fn mcts_config_for(&self, game_defaults: &str) -> Result<mcts::MctsConfig> {
        let mut cfg = mcts::MctsConfig::default();
        if self.name != "mcts1" {
            for (k, v) in game_defaults.split(',').filter_map(|kv| kv.split_once('=')) {
                self.set(&mut cfg, k, v)?;
            }
        }
        for (k, v) in &self.params {
            self.set(&mut cfg, k, v)?;
        }
        Ok(cfg)
    }

    /// Sets MCTS parameter `k` to `v` (checked against its allowed values).
    fn set(&self, cfg: &mut mcts::MctsConfig, k: &str, v: &str) -> Result<()> {
        match k {
            "iters" => cfg.iters = self.number(k, v, 1, 1_000_000, "an integer 1..=1000000")?,
            "c" => cfg.c = self.number(k, v, 0.0, 100.0, "a number 0..=100")?,
            "bias" => cfg.bias = self.number(k, v, 0.0, 100.0, "a number 0..=100")?,
            "depth" => cfg.depth = self.number(k, v, 0, 100_000, "an integer 0..=100000")?,
            "widen" => cfg.widen = self.number(k, v, 0.0, 1.0, "a number 0..=1")?,
            "eps" => cfg.eps = self.number(k, v, 0.0, 1.0, "a number 0..=1")?,
            "widen_c" => cfg.widen_c = self.number(k, v, 0.1, 100.0, "a number 0.1..=100")?,
            "reuse" => cfg.reuse = self.number(k, v, 0, 1, "0 or 1")? == 1,
            "tree_depth" => cfg.tree_depth = self.number(k, v, 0, 1000, "an integer 0..=1000")?,
            "stop" => cfg.stop = self.number(k, v, 0.0, 1.0, "a number 0..=1")?,
            "decided" => {
                cfg.decided = self.number(k, v, 0.0, 1.0, "0 or a number 0.5..=1")?;
                if cfg.decided > 0.0 && cfg.decided < 0.5 {
                    return Err(self.bad(format!("decided={v}: allowed 0 or a number 0.5..=1")));
                }
            }
            "root_m" => cfg.root_m = self.number(k, v, 2, mcts::MAX_ROOT_M, "an integer 2..=64")?,
            "root" => {
                cfg.root = match v {
                    "uct" => mcts::Root::Uct,
                    "halving" => mcts::Root::Halving,
                    "halving_bias" => mcts::Root::HalvingBias,
                    _ => return Err(self.bad(format!("root={v}: allowed uct, halving, halving_bias"))),
                }
            }
            "prior" => {
                cfg.learned_prior = match v {
                    "greedy" => false,
                    "learned" => true,
                    _ => return Err(self.bad(format!("prior={v}: allowed greedy, learned"))),
                }
            }
            "rollout" => {
                cfg.rollout = match v {
                    "random" => mcts::Rollout::Random,
                    "greedy" => mcts::Rollout::Greedy,
                    "egreedy" if self.name != "mcts1" => mcts::Rollout::EpsilonGreedy,
                    _ if self.name == "mcts1" => return Err(self.bad(format!("rollout={v}: allowed random, greedy"))),
                    _ => return Err(self.bad(format!("rollout={v}: allowed random, greedy, egreedy"))),
                }
            }
            _ => unreachable!("checked by check_params"),
        }
        Ok(())
    }

    /// The version of this agent's play in game `G` ([`agent_version`] with `G`'s learned
    /// evaluation).
    pub fn version<G: Evaluate>(&self) -> u32 {
        agent_version(&self.name, G::EVAL_WEIGHTS)
    }

    /// Game `G`'s own search settings for this agent: its [`Evaluate::MCTS_DEFAULTS`], for
    /// `xmcts` followed by its [`Evaluate::XMCTS_DEFAULTS`] (see [`AgentSpec::mcts_config_for`]).
    pub fn game_defaults<G: Evaluate>(&self) -> String {
        match self.name.as_str() {
            "xmcts" => format!("{},{}", G::MCTS_DEFAULTS, G::XMCTS_DEFAULTS),
            _ => G::MCTS_DEFAULTS.to_string(),
        }
    }

    /// Builds the agent for game `G`.
    pub fn build<G: Evaluate>(&self) -> Result<Box<dyn Agent<G>>> {
        match self.name.as_str() {
            "random" => Ok(Box::new(random::RandomAgent::default())),
            "greedy" => Ok(Box::new(greedy::GreedyAgent::default())),
            "mcts" => Ok(Box::new(mcts::MctsAgent::new(self.mcts_config_for(&self.game_defaults::<G>())?))),
            "mcts1" => Ok(Box::new(mcts1::Mcts1Agent::new(self.mcts_config()?))),
            "xmcts" => Ok(Box::new(mcts::MctsAgent::with_learned(
                self.mcts_config_for(&self.game_defaults::<G>())?,
                learned::Learned::of::<G>()?,
            ))),
            other => unreachable!("agent {other} passed validation"),
        }
    }
}
