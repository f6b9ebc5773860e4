//! PyO3 bindings (module `rust_core._native`). The only Python-aware code of the crate:
//! it converts arguments, releases the GIL around the engines and hands back Arrow.

use crate::batch::Columns;
use crate::error::Error;
use crate::games::alhambra::city::{City, HoleRule, WallRule};
use crate::games::alhambra::data::{wall_string, KIND_NAMES, N_KINDS, N_TILES, TILES};
use crate::games::alhambra::scoring::majority_points;
use crate::registry;
use arrow_array::{ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_pyarrow::ToPyArrow;
use arrow_schema::{DataType, Field, Schema};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

fn py_err(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
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

/// JSON list of the game-specific output columns.
#[pyfunction]
fn metric_columns(game: &str) -> PyResult<Vec<(String, String, bool)>> {
    registry::metric_columns(game).map_err(py_err)
}

#[pyfunction]
fn validate(game: &str, variant_json: &str, agents: Vec<String>) -> PyResult<()> {
    registry::validate(game, &parse_json(variant_json)?, &agents).map_err(py_err)
}

fn field(name: &str, dt: DataType, nullable: bool, description: &str) -> Field {
    Field::new(name, dt, nullable).with_metadata(HashMap::from([("description".to_string(), description.to_string())]))
}

fn to_batch(game: &str, c: Columns) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let rows = c.game_index.len();
    let mut fields = vec![
        field("game", DataType::Utf8, false, "game name"),
        field("rules_version", DataType::Int32, false, "version of the game's rules implementation"),
        field("game_index", DataType::Int64, false, "index of the game in the study"),
        field("deal_index", DataType::Int64, false, "index of the deal (equal across seat rotations)"),
        field("player", DataType::Int32, false, "index into the agent list"),
        field("seat", DataType::Int32, false, "turn-order position, 0 = start player"),
        field("agent", DataType::Utf8, false, "agent spec as given"),
        field("score", DataType::Int64, false, "final score"),
        field("rank", DataType::Int32, false, "1 = best, ties share"),
        field("win", DataType::Float64, false, "1/k for a k-way tie for first, else 0"),
        field("turns", DataType::Int32, false, "completed turns in the game"),
    ];
    let mut cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(vec![game; rows])),
        Arc::new(Int32Array::from(vec![c.rules_version as i32; rows])),
        Arc::new(Int64Array::from(c.game_index)),
        Arc::new(Int64Array::from(c.deal_index)),
        Arc::new(Int32Array::from(c.player)),
        Arc::new(Int32Array::from(c.seat)),
        Arc::new(StringArray::from(c.agent.iter().map(|&a| c.agent_names[a as usize].as_str()).collect::<Vec<_>>())),
        Arc::new(Int64Array::from(c.score)),
        Arc::new(Int32Array::from(c.rank)),
        Arc::new(Float64Array::from(c.win)),
        Arc::new(Int32Array::from(c.turns)),
    ];
    for (spec, values) in c.metric_specs.iter().zip(c.metrics) {
        fields.push(field(spec.name, DataType::Int64, spec.nullable, spec.description));
        cols.push(Arc::new(Int64Array::from(values)));
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), cols)
}

/// Plays `count` games from `start`; returns a `pyarrow.RecordBatch`.
#[pyfunction]
#[pyo3(signature = (game, variant_json, agents, seed, start, count, pair_seats=false))]
fn simulate<'py>(
    py: Python<'py>,
    game: &str,
    variant_json: &str,
    agents: Vec<String>,
    seed: u64,
    start: u64,
    count: u64,
    pair_seats: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let variant = parse_json(variant_json)?;
    let batch = py
        .detach(|| {
            let cols = registry::simulate(game, &variant, &agents, seed, start, count, pair_seats)?;
            to_batch(game, cols).map_err(|e| Error::Invalid(e.to_string()))
        })
        .map_err(py_err)?;
    batch.to_pyarrow(py)
}

/// The JSON event log of one game.
#[pyfunction]
#[pyo3(signature = (game, variant_json, agents, seed, game_index, pair_seats=false))]
fn replay(
    py: Python<'_>,
    game: &str,
    variant_json: &str,
    agents: Vec<String>,
    seed: u64,
    game_index: u64,
    pair_seats: bool,
) -> PyResult<String> {
    let variant = parse_json(variant_json)?;
    py.detach(|| registry::replay(game, &variant, &agents, seed, game_index, pair_seats))
        .map(|v| v.to_string())
        .map_err(py_err)
}

// ------------------------------------------------------------------ Alhambra helpers

#[pyfunction]
fn alhambra_tiles() -> Vec<(u8, &'static str, u8, String)> {
    (0..N_TILES)
        .map(|i| {
            let t = TILES[i];
            (i as u8, KIND_NAMES[t.kind as usize], t.price, wall_string(t.walls))
        })
        .collect()
}

fn hole_rule(name: &str) -> PyResult<HoleRule> {
    match name {
        "area" => Ok(HoleRule::Area),
        "cell" => Ok(HoleRule::Cell),
        other => Err(PyValueError::new_err(format!("bad hole_rule {other:?}; allowed: \"area\", \"cell\""))),
    }
}

fn city_from(layout: Vec<(i32, i32, i64)>) -> PyResult<City> {
    let mut entries = Vec::with_capacity(layout.len());
    for (x, y, id) in layout {
        if !(0..N_TILES as i64).contains(&id) {
            return Err(PyValueError::new_err(format!("tile id {id} out of range 0..=53")));
        }
        entries.push((x, y, id as u8));
    }
    City::from_layout(&entries).map_err(|e| PyValueError::new_err(format!("bad city: {e}")))
}

#[pyfunction]
#[pyo3(signature = (city, tile_id, x, y, hole_rule="area"))]
fn alhambra_placement_error(
    city: Vec<(i32, i32, i64)>,
    tile_id: i64,
    x: i32,
    y: i32,
    hole_rule: &str,
) -> PyResult<Option<&'static str>> {
    let rule = self::hole_rule(hole_rule)?;
    let city = city_from(city)?;
    city.validate(rule).map_err(|e| PyValueError::new_err(format!("illegal city: {e}")))?;
    if !(0..N_TILES as i64).contains(&tile_id) {
        return Err(PyValueError::new_err(format!("tile id {tile_id} out of range 0..=53")));
    }
    if city.tiles >> tile_id & 1 == 1 {
        return Err(PyValueError::new_err(format!("tile {tile_id} is already in the city")));
    }
    Ok(city.placement_error(tile_id as u8, x, y, rule))
}

#[pyfunction]
#[pyo3(signature = (city, rule="trail"))]
fn alhambra_outer_wall_length(city: Vec<(i32, i32, i64)>, rule: &str) -> PyResult<u32> {
    let rule = match rule {
        "trail" => WallRule::Trail,
        "simple_path" => WallRule::SimplePath,
        other => return Err(PyValueError::new_err(format!("bad rule {other:?}; allowed: \"trail\", \"simple_path\""))),
    };
    Ok(city_from(city)?.longest_wall(rule))
}

#[pyfunction]
fn alhambra_majority_points(counts: Vec<Vec<i64>>, round: i64) -> PyResult<Vec<i64>> {
    if !(1..=3).contains(&round) {
        return Err(PyValueError::new_err(format!("bad round {round}; allowed: 1, 2, 3")));
    }
    let mut rows = Vec::with_capacity(counts.len());
    for (p, c) in counts.iter().enumerate() {
        if c.len() != N_KINDS || c.iter().any(|&k| !(0..=54).contains(&k)) {
            return Err(PyValueError::new_err(format!(
                "counts[{p}] must be 6 tile counts 0..=54 in kind order {KIND_NAMES:?}"
            )));
        }
        rows.push(std::array::from_fn::<u8, N_KINDS, _>(|k| c[k] as u8));
    }
    let mut out = vec![0; rows.len()];
    majority_points(&rows, round as usize, &mut out);
    Ok(out)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(agents, m)?)?;
    m.add_function(wrap_pyfunction!(variant_schema, m)?)?;
    m.add_function(wrap_pyfunction!(metric_columns, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_placement_error, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_outer_wall_length, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_majority_points, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
