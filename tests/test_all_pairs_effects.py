"""stats.pairwise_effects equals, bit for bit, a loop over the pairs calling stats.a12,
stats.cliffs_delta (unpaired), stats.hodges_lehmann and stats.mann_whitney (the loop the pairs
view ran, kept here as the reference), on tables with ties, zero differences, small n (exact
Hodges-Lehmann interval and exact Mann-Whitney) and large n, in both directions."""

from __future__ import annotations

import doctest

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stats
from stats.core import pairs
from stats.twosample import all_pairs_effects

COLUMNS = ["a", "b", *all_pairs_effects.EFFECT_COLUMNS]


def loop_reference(scores: pd.DataFrame, higher: bool) -> pd.DataFrame:
    rows = []
    for i, j in pairs(scores.shape[1]):
        a, b = scores.iloc[:, i].to_numpy(np.float64), scores.iloc[:, j].to_numpy(np.float64)
        sign = 1.0 if higher else -1.0  # Mann-Whitney's U is not oriented: negate lower-is-better scores
        mw = stats.mann_whitney(sign * a, sign * b)
        a12 = stats.a12(a, b, higher_is_better=higher)
        delta = stats.cliffs_delta(a, b, higher_is_better=higher)
        hl = stats.hodges_lehmann(a, b, higher_is_better=higher)
        rows.append(
            (
                scores.columns[i],
                scores.columns[j],
                a12.value,
                a12.magnitude,
                delta.value,
                delta.magnitude,
                hl.estimate,
                hl.low,
                hl.high,
                hl.attained,
                mw.pvalue,
            )
        )
    return pd.DataFrame(rows, columns=COLUMNS)


@st.composite
def frames(draw: st.DrawFn) -> tuple[pd.DataFrame, bool]:
    n = draw(st.integers(2, 55))
    k = draw(st.integers(2, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):  # continuous: no ties (exact Mann-Whitney for n <= 8, exact HL for n < 50)
        values = rng.normal(0.8, 0.05, size=(n, k)) + rng.normal(0, 0.03, size=(1, k))
    else:  # a coarse grid: ties and zero differences
        levels = draw(st.integers(2, 30))
        values = (rng.integers(0, levels, size=(n, k)) + rng.integers(-3, 4, size=(1, k))) * draw(
            st.sampled_from([1e-3, 0.01, 1.0, 1e5])
        )
    return pd.DataFrame(values, columns=[f"m{j}" for j in range(k)]), draw(st.booleans())


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames())
def test_equals_the_per_pair_loop(case: tuple[pd.DataFrame, bool]) -> None:
    scores, higher = case
    got = stats.pairwise_effects(scores, higher_is_better=higher)
    pd.testing.assert_frame_equal(got.table, loop_reference(scores, higher), check_exact=True)


def test_benchmark_table_equals_the_loop() -> None:
    rng = np.random.default_rng(20240601)
    difficulty = 1.0 - 0.4 * rng.beta(1.2, 4.0, size=(50, 1))
    values = np.round(np.clip(difficulty + rng.normal(0, 0.03, (1, 20)) + rng.normal(0, 0.02, (50, 20)), 0, 1), 3)
    scores = pd.DataFrame(values, columns=[f"L{j:02d}" for j in range(20)])
    for higher in (True, False):
        got = stats.pairwise_effects(scores, higher_is_better=higher)
        pd.testing.assert_frame_equal(got.table, loop_reference(scores, higher), check_exact=True)
    assert (got.confidence, got.n) == (0.95, 50)


def test_brute_force_counts_and_validation() -> None:
    # the 9 pairs counted by hand: a = (3, 2, 2), b = (1, 2, 4): wins 3>1, 3>2, 2>1, 2>1 (4),
    # ties 2=2 twice (2), losses 3<4, 2<4, 2<4 (3) -> A12 = (4 + 2/2) / 9, delta = (4 - 3) / 9
    res = stats.pairwise_effects(pd.DataFrame({"a": [3.0, 2.0, 2.0], "b": [1.0, 2.0, 4.0]}))
    assert res.loc[0, "a12"] == pytest.approx(5 / 9, abs=0, rel=1e-15)
    assert res.loc[0, "delta"] == pytest.approx(1 / 9, abs=0, rel=1e-15)
    with pytest.raises(ValueError, match="confidence"):
        stats.pairwise_effects([[1, 2], [2, 3]], confidence=1.0)
    assert "pairwise_effects" in stats.__all__


def test_docstring_examples() -> None:
    outcome = doctest.testmod(all_pairs_effects)
    assert outcome.attempted >= 2 and outcome.failed == 0


def test_the_view_names_the_same_effect_columns() -> None:
    """tui.model writes the list out (importing stats.twosample.all_pairs_effects would load scipy in
    `rankboard check`); it must stay the one stats returns."""
    from stats.twosample.all_pairs_effects import EFFECT_COLUMNS
    from tui.model._effects import EFFECT_COLUMNS as VIEW_COLUMNS

    assert VIEW_COLUMNS == EFFECT_COLUMNS


@pytest.mark.parametrize("seed", range(3))
def test_walsh_averages_at_mixed_scales_equal_the_loop(seed: int) -> None:
    """Each Walsh average is snapped at the larger scale of its two data sets: rows of very
    different magnitudes, half of them with every digit (so that the averages of one pair round
    at several numbers of digits, and rounding at the smaller scale would give other values),
    zeros (no rounding), values past 1e12 and below 1e-290 (stats.core._table's other branches), ties,
    and n past the exact interval's limit."""
    rng = np.random.default_rng(seed)
    n, k = 60, 4
    row_scale = 10.0 ** rng.integers(-4, 4, size=(n, 1))
    values = np.where(rng.random((n, 1)) < 0.5, rng.random((n, k)), np.round(rng.random((n, k)), 3)) * row_scale
    values[rng.random((n, k)) < 0.1] = 0.0
    values[3] = values[7]  # tied rows
    scores = pd.DataFrame(values, columns=[f"m{j}" for j in range(k)])
    for higher in (True, False):
        got = stats.pairwise_effects(scores, higher_is_better=higher)
        pd.testing.assert_frame_equal(got.table, loop_reference(scores, higher), check_exact=True)
    extreme = values.copy()
    extreme[0] *= 1e15  # digits below 0
    extreme[1] = extreme[1] * 1e-295 + 1e-300  # digits above 300
    scores = pd.DataFrame(extreme, columns=scores.columns)
    got = stats.pairwise_effects(scores)
    pd.testing.assert_frame_equal(got.table, loop_reference(scores, True), check_exact=True)
