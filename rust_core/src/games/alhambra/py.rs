//! Alhambra's Python helpers (`rust_core.alhambra`): the tile set, placement legality,
//! outer walls and majorities, for tests and notebooks.

use super::city::{City, HoleRule, WallRule};
use super::data::{wall_string, KIND_NAMES, N_KINDS, N_TILES, TILES};
use super::scoring::majority_points;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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

/// Adds the helpers to the native module (called from the registry).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(alhambra_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_placement_error, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_outer_wall_length, m)?)?;
    m.add_function(wrap_pyfunction!(alhambra_majority_points, m)?)?;
    Ok(())
}
