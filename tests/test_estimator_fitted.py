"""The ``fitted`` estimator: ``win − β·luck``, each unit's slope fitted on the units before it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st
from test_estimator import _coin_run

from analysis.estimator import FIRST_FITTED, outcome_column, predictable_slopes
from pipeline.study import load_study

floats = st.floats(-1, 1, allow_nan=False, width=32)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(floats, floats), min_size=2, max_size=40), st.integers(1, 39), st.data())
def test_each_slope_reads_only_the_units_before_it(pairs, cut, data):
    """Changing units from ``cut`` on changes no slope before ``cut``; each fitted slope is the
    least-squares slope over exactly the units before it."""
    y, x = (np.array(v, dtype=float) for v in zip(*pairs, strict=True))
    cut = min(cut, y.size - 1)
    beta = predictable_slopes(y, x)
    y2, x2 = y.copy(), x.copy()
    y2[cut:] = data.draw(st.lists(floats, min_size=y.size - cut, max_size=y.size - cut))
    x2[cut:] = data.draw(st.lists(floats, min_size=y.size - cut, max_size=y.size - cut))
    assert np.array_equal(predictable_slopes(y2, x2)[:cut], beta[:cut])
    assert (beta[: min(FIRST_FITTED, y.size)] == 1).all()
    for i in range(FIRST_FITTED, y.size):
        if x[:i].var() > 1e-6:
            assert np.isclose(beta[i], np.polyfit(x[:i], y[:i], 1)[0], atol=1e-6)


def _noisy_rows(rng: np.random.Generator, units: int, noise: float) -> pl.DataFrame:
    """Start-player rows of ``units`` games: a skewed outcome with true mean 0.1, half of whose
    spread is the luck a value sees, plus mean-zero noise in the measured luck."""
    seen = rng.exponential(1.0, units) - 1.0
    win = 0.1 + seen + rng.normal(0, 1.0, units)
    return pl.DataFrame(
        {"game_index": np.arange(units), "deal_index": np.arange(units), "seat": np.zeros(units, int),
         "win": win, "luck": seen + rng.normal(0, noise, units)}
    )  # fmt: skip


def _means(estimator: str, noise: float, reps: int = 300, units: int = 200) -> np.ndarray:
    """The estimate of ``reps`` studies of ``units`` games each, read by ``estimator``."""
    study = replace(load_study("hiroba-start-player"), luck=True, estimator=estimator, pair_seats=False)
    rng = np.random.default_rng(5)
    out = []
    for _ in range(reps):
        rows = _noisy_rows(rng, units, noise)
        read = outcome_column(study, rows)
        out.append(rows.select(pl.col("win") if read is None else read).to_series().mean())
    return np.array(out)


def test_the_fitted_estimate_is_unbiased_and_shrinks_a_noisy_luck_instead_of_adding_it():
    """A measured luck four parts noise to one of signal: subtracting it whole (``corrected``)
    more than doubles the spread of the estimate; ``fitted`` scales it down and stays near the raw
    spread; all three unbiased (true mean 0.1); with a clean luck, ``fitted`` reads as ``corrected``."""
    raw, corrected, fitted = (_means(e, noise=2.0) for e in ("raw", "corrected", "fitted"))
    for m in (raw, corrected, fitted):
        assert abs(m.mean() - 0.1) < 4 * m.std(ddof=1) / m.size**0.5
    assert corrected.var() > 2 * raw.var() and fitted.var() < 1.15 * raw.var()
    clean = _means("fitted", noise=0.0)
    assert clean.var() < raw.var() / 1.8


def test_a_fitted_study_reads_and_says_the_fitted_slope(tmp_path, monkeypatch):
    from analysis import analyse
    from analysis.report import write_report

    run = _coin_run(tmp_path, monkeypatch, "fitted")
    raw = analyse(_coin_run(tmp_path, monkeypatch, "raw")).advantage_row("c")
    row = analyse(run).advantage_row("c")
    assert row["estimator"] == "fitted" and row["units"] == 400
    assert row["halfwidth"] < raw["halfwidth"] / 2 and row["lo"] <= 0.10 <= row["hi"]
    page = (write_report(run, tmp_path / "report").parent / "report.md").read_text()
    assert "times a slope fitted on the deals before each deal" in page
    assert "slope over all deals" in page and "the luck, times the fitted slope, subtracted" in page
