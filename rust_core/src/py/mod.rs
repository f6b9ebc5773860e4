//! PyO3 bindings (module `rust_core._native`). The only Python-aware code of the crate:
//! it converts arguments, releases the GIL around the engines and hands back Arrow.

use crate::batch::{BatchSpec, Columns, Positions};
use crate::error::Error;
use crate::options::Files;
use crate::registry;
use arrow_array::{ArrayRef, Float32Array, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_pyarrow::ToPyArrow;
use arrow_schema::{DataType, Field, Schema};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

create_exception!(
    _native,
    EngineError,
    PyValueError,
    "A bad game, option, value, file or agent: `kind`, `option`, `value`, `allowed` and `agent` say which."
);

/// The structured Python error of an engine error (`EngineError`, a `ValueError`).
fn py_err(e: Error) -> PyErr {
    let (kind, option, value, allowed, agent): (&str, Option<String>, Option<String>, Option<String>, Option<String>) =
        match &e {
            Error::UnknownGame { name, allowed } => {
                ("unknown_game", None, Some(name.clone()), Some(allowed.join(", ")), None)
            }
            Error::UnknownOption { name, allowed, .. } => {
                ("unknown_option", Some(name.clone()), None, Some(allowed.join(", ")), None)
            }
            Error::BadValue { option, value, allowed } => {
                ("bad_value", Some(option.clone()), Some(value.clone()), Some(allowed.clone()), None)
            }
            Error::BadFile { option, path, .. } => ("bad_file", Some(option.clone()), Some(path.clone()), None, None),
            Error::UnknownAgent { spec, allowed } => {
                ("unknown_agent", None, None, Some(allowed.join(", ")), Some(spec.clone()))
            }
            Error::BadAgentParam { spec, .. } => ("bad_agent_param", None, None, None, Some(spec.clone())),
            Error::PlayerCount { count, min, max, .. } => {
                ("player_count", None, Some(count.to_string()), Some(format!("{min}..={max}")), None)
            }
            Error::Invalid(_) => ("invalid", None, None, None, None),
        };
    let err = EngineError::new_err(e.to_string());
    Python::attach(|py| {
        let v = err.value(py);
        for (name, x) in [("option", option), ("value", value), ("allowed", allowed), ("agent", agent)] {
            let _ = v.setattr(name, x);
        }
        let _ = v.setattr("kind", kind);
    });
    err
}

fn files_map(files: Option<HashMap<String, String>>) -> Files {
    files.map(|f| f.into_iter().collect()).unwrap_or_default()
}

fn parse_json(text: &str) -> PyResult<serde_json::Value> {
    serde_json::from_str(text).map_err(|e| PyValueError::new_err(format!("variant is not valid JSON: {e}")))
}

#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::GAMES.to_vec()
}

#[pyfunction]
fn agents() -> Vec<&'static str> {
    crate::agents::AGENTS.to_vec()
}

/// JSON list of the game's options.
#[pyfunction]
fn variant_schema(game: &str) -> PyResult<String> {
    let schema = registry::variant_schema(game).map_err(py_err)?;
    Ok(serde_json::Value::Array(schema).to_string())
}

/// JSON list of the options every game accepts besides its own (the score handicap).
#[pyfunction]
fn contract_options() -> String {
    serde_json::Value::Array(registry::contract_options()).to_string()
}

/// JSON list of the game-specific output columns.
#[pyfunction]
fn metric_columns(game: &str) -> PyResult<Vec<(String, String, bool)>> {
    registry::metric_columns(game).map_err(py_err)
}

/// `files`: the text of each file named by a file option, by path as given.
#[pyfunction]
#[pyo3(signature = (game, variant_json, agents, files=None))]
fn validate(
    game: &str,
    variant_json: &str,
    agents: Vec<String>,
    files: Option<HashMap<String, String>>,
) -> PyResult<()> {
    registry::validate(game, &parse_json(variant_json)?, &files_map(files), &agents).map_err(py_err)
}

/// `(fewest, most)` players the game allows.
#[pyfunction]
fn player_range(game: &str) -> PyResult<(usize, usize)> {
    registry::player_range(game).map_err(py_err)
}

/// JSON of the variant in normal form for `players` players (every option, defaults filled
/// in; variants that play the same game give the same object).
#[pyfunction]
#[pyo3(signature = (game, variant_json, players, files=None))]
fn normalize_variant(
    game: &str,
    variant_json: &str,
    players: usize,
    files: Option<HashMap<String, String>>,
) -> PyResult<String> {
    registry::normalize_variant(game, &parse_json(variant_json)?, &files_map(files), players)
        .map(|v| v.to_string())
        .map_err(py_err)
}

#[pyfunction]
fn rules_version(game: &str) -> PyResult<u32> {
    registry::rules_version(game).map_err(py_err)
}

#[pyfunction]
fn agent_version(spec: &str, game: &str) -> PyResult<u32> {
    registry::agent_version(spec, game).map_err(py_err)
}

fn field(name: &str, dt: DataType, nullable: bool, description: &str) -> Field {
    Field::new(name, dt, nullable).with_metadata(HashMap::from([("description".to_string(), description.to_string())]))
}

fn to_batch(game: &str, c: Columns, luck: bool) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let rows = c.game_index.len();
    let mut fields = vec![
        field("game", DataType::Utf8, false, "game name"),
        field("rules_version", DataType::Int32, false, "version of the game's rules implementation"),
        field("game_index", DataType::Int64, false, "index of the game in the study"),
        field("deal_index", DataType::Int64, false, "index of the deal (equal across seat rotations)"),
        field("player", DataType::Int32, false, "index into the agent list"),
        field("seat", DataType::Int32, false, "turn-order position, 0 = start player"),
        field("agent", DataType::Utf8, false, "agent spec as given"),
        field("score", DataType::Int64, false, "final score (plus the seat's handicap, if any): the score that ranks"),
        field(
            "handicap",
            DataType::Int64,
            false,
            "points of the seat's handicap in score (0 without one): score - handicap is the raw score",
        ),
        field("tiebreak", DataType::Int64, false, "the game's tie-break key, compared between equal scores"),
        field("rank", DataType::Int32, false, "1 = best, ties share"),
        field("win", DataType::Float64, false, "1/k for a k-way tie for first, else 0"),
        field("turns", DataType::Int32, false, "completed turns in the game"),
        field(
            "capped",
            DataType::Int32,
            false,
            "1 if the engine's safety net (a turn or round cap), not the rules, ended the game: scored as it stood",
        ),
    ];
    let mut cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(std::iter::repeat_n(game, rows))),
        Arc::new(Int32Array::from(vec![c.rules_version as i32; rows])),
        Arc::new(Int64Array::from(c.game_index)),
        Arc::new(Int64Array::from(c.deal_index)),
        Arc::new(Int32Array::from(c.player)),
        Arc::new(Int32Array::from(c.seat)),
        Arc::new(StringArray::from_iter_values(c.agent.iter().map(|&a| c.agent_names[a as usize].as_str()))),
        Arc::new(Int64Array::from(c.score)),
        Arc::new(Int64Array::from(c.handicap)),
        Arc::new(Int64Array::from(c.tiebreak)),
        Arc::new(Int32Array::from(c.rank)),
        Arc::new(Float64Array::from(c.win)),
        Arc::new(Int32Array::from(c.turns)),
        Arc::new(Int32Array::from(c.capped)),
    ];
    for (spec, values) in c.metric_specs.iter().zip(c.metrics) {
        fields.push(field(spec.name, DataType::Int64, spec.nullable, spec.description));
        cols.push(Arc::new(Int64Array::from(values)));
    }
    if luck {
        fields.push(field(
            "luck",
            DataType::Float64,
            false,
            "the player's luck: the sum over the set-up and every action of V(after) - E[V(after)] under the game's frozen evaluation (win - luck estimates the expected win share without bias)",
        ));
        cols.push(Arc::new(Float64Array::from(c.luck)));
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)
}

fn positions_batch(game: &str, p: Positions, rules_version: u32) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let rows = p.game_index.len();
    let mut fields = vec![
        field("game", DataType::Utf8, false, "game name"),
        field("rules_version", DataType::Int32, false, "version of the game's rules implementation"),
        field("game_index", DataType::Int64, false, "index of the game in the study"),
        field("player", DataType::Int32, false, "index into the agent list"),
        field("seat", DataType::Int32, false, "turn-order position, 0 = start player"),
        field("turn", DataType::Int32, false, "completed turns of the game at the sampled decision"),
        field("decision", DataType::Int32, false, "which of the player's decisions was sampled (0 = first)"),
        field("decisions", DataType::Int32, false, "decisions the player had in the game"),
        field("win", DataType::Float64, false, "the player's final win share"),
        field("estimate", DataType::Float64, false, "the game's hand-written win estimate (NaN: none)"),
        field("value", DataType::Float64, false, "the label search's estimated win share (NaN: no label agent)"),
    ];
    let mut cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(vec![game; rows])),
        Arc::new(Int32Array::from(vec![rules_version as i32; rows])),
        Arc::new(Int64Array::from(p.game_index)),
        Arc::new(Int32Array::from(p.player)),
        Arc::new(Int32Array::from(p.seat)),
        Arc::new(Int32Array::from(p.turn)),
        Arc::new(Int32Array::from(p.decision)),
        Arc::new(Int32Array::from(p.decisions)),
        Arc::new(Float64Array::from(p.win)),
        Arc::new(Float64Array::from(p.estimate)),
        Arc::new(Float64Array::from(p.value)),
    ];
    for (name, values) in p.feature_names.iter().zip(p.features) {
        fields.push(field(&format!("f_{name}"), DataType::Float32, false, "a position feature (Evaluate::features)"));
        cols.push(Arc::new(Float32Array::from(values)));
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)
}

/// A batch description from Python: `variant_json` is the cell's variant, `files` the text of
/// each file its file options name.
fn batch_spec(
    variant_json: &str,
    agents: Vec<String>,
    seed: u64,
    pair_seats: bool,
    files: Option<HashMap<String, String>>,
) -> PyResult<BatchSpec> {
    Ok(BatchSpec::new(&parse_json(variant_json)?, &files_map(files), &agents, seed, pair_seats))
}

/// Plays `count` games from `start` of the batch described by `spec` (a tuple `(variant_json,
/// agents, seed, pair_seats, files)`); with `luck`, each row also carries the player's luck
/// (column `luck`, see `crate::luck`), valued by `luck_value` (`learned`, the default, or
/// `rollout:k=K[,h=H]`, see `crate::luck::LuckValue`); returns a `pyarrow.RecordBatch`.
#[pyfunction]
#[pyo3(signature = (game, spec, start, count, luck=false, luck_value="learned"))]
fn simulate<'py>(
    py: Python<'py>,
    game: &str,
    spec: SpecArgs,
    start: u64,
    count: u64,
    luck: bool,
    luck_value: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let (variant_json, agents, seed, pair_seats, files) = spec;
    let value = crate::luck::LuckValue::parse(luck_value).map_err(py_err)?;
    let spec = batch_spec(&variant_json, agents, seed, pair_seats, files)?.with_luck(luck).with_luck_value(value);
    let batch = py
        .detach(|| {
            let cols = registry::simulate(game, &spec, start, count)?;
            to_batch(game, cols, spec.luck).map_err(|e| Error::Invalid(e.to_string()))
        })
        .map_err(py_err)?;
    batch.to_pyarrow(py)
}

/// Like `simulate`, plus one sampled position per player per game, each searched by the
/// `label` agent if given: returns a pair of `pyarrow.RecordBatch` (games, positions).
#[pyfunction]
#[pyo3(signature = (game, spec, start, count, label=None))]
fn simulate_positions<'py>(
    py: Python<'py>,
    game: &str,
    spec: SpecArgs,
    start: u64,
    count: u64,
    label: Option<String>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (variant_json, agents, seed, pair_seats, files) = spec;
    let spec = batch_spec(&variant_json, agents, seed, pair_seats, files)?;
    let (games, positions) = py
        .detach(|| {
            let (cols, pos) = registry::simulate_positions(game, &spec, start, count, label.as_deref())?;
            let version = cols.rules_version;
            let err = |e: arrow_schema::ArrowError| Error::Invalid(e.to_string());
            Ok((to_batch(game, cols, false).map_err(err)?, positions_batch(game, pos, version).map_err(err)?))
        })
        .map_err(py_err)?;
    Ok((games.to_pyarrow(py)?, positions.to_pyarrow(py)?))
}

/// Like `simulate`, plus what each agent of the line-up spent on its decisions (in list
/// order): a pair (`pyarrow.RecordBatch`, list of `(cpu_seconds, decisions, searched)`).
#[pyfunction]
fn simulate_timed<'py>(
    py: Python<'py>,
    game: &str,
    spec: SpecArgs,
    start: u64,
    count: u64,
) -> PyResult<(Bound<'py, PyAny>, Vec<(f64, u64, u64)>)> {
    let (variant_json, agents, seed, pair_seats, files) = spec;
    let spec = batch_spec(&variant_json, agents, seed, pair_seats, files)?;
    let (batch, clocks) = py
        .detach(|| {
            let (cols, clocks) = registry::simulate_timed(game, &spec, start, count)?;
            let batch = to_batch(game, cols, false).map_err(|e| Error::Invalid(e.to_string()))?;
            Ok((batch, clocks.iter().map(|c| (c.cpu_s, c.decisions, c.searched)).collect()))
        })
        .map_err(py_err)?;
    Ok((batch.to_pyarrow(py)?, clocks))
}

/// The content hash of `game`'s learned evaluation (8 hex digits).
#[pyfunction]
fn eval_hash(game: &str) -> PyResult<String> {
    registry::eval_hash(game).map_err(py_err)
}

/// What `game`'s learned evaluation was fitted on (the `fitted` line of its weights file).
#[pyfunction]
fn eval_fitted(game: &str) -> PyResult<String> {
    registry::eval_fitted(game).map_err(py_err)
}

/// The names of `game`'s position features.
#[pyfunction]
fn feature_names(game: &str) -> PyResult<Vec<&'static str>> {
    registry::feature_names(game).map_err(py_err)
}

/// The JSON event log of game `game_index` of the batch described by `spec` (as for `simulate`).
#[pyfunction]
fn replay(py: Python<'_>, game: &str, spec: SpecArgs, game_index: u64) -> PyResult<String> {
    let (variant_json, agents, seed, pair_seats, files) = spec;
    let spec = batch_spec(&variant_json, agents, seed, pair_seats, files)?;
    py.detach(|| registry::replay(game, &spec, game_index)).map(|v| v.to_string()).map_err(py_err)
}

/// A batch description as Python passes it: `(variant_json, agents, seed, pair_seats, files)`.
type SpecArgs = (String, Vec<String>, u64, bool, Option<HashMap<String, String>>);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(agents, m)?)?;
    m.add_function(wrap_pyfunction!(variant_schema, m)?)?;
    m.add_function(wrap_pyfunction!(metric_columns, m)?)?;
    m.add_function(wrap_pyfunction!(contract_options, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_variant, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_positions, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_timed, m)?)?;
    m.add_function(wrap_pyfunction!(eval_hash, m)?)?;
    m.add_function(wrap_pyfunction!(eval_fitted, m)?)?;
    m.add_function(wrap_pyfunction!(feature_names, m)?)?;
    m.add_function(wrap_pyfunction!(rules_version, m)?)?;
    m.add_function(wrap_pyfunction!(player_range, m)?)?;
    m.add_function(wrap_pyfunction!(agent_version, m)?)?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    registry::python_helpers(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
