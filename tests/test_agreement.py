"""Kendall's tau-b of many rows at once (stats.kendall_tau) against scipy and a printed example."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kendalltau

import stats


def scipy_rows(rows: np.ndarray, reference: np.ndarray) -> list[float]:
    out = []
    for row in rows:
        ok = np.isfinite(row) & np.isfinite(reference)
        if ok.sum() < 2 or np.ptp(row[ok]) == 0 or np.ptp(reference[ok]) == 0:
            out.append(np.nan)
        else:
            out.append(kendalltau(row[ok], reference[ok]).statistic)
    return out


def test_scipys_documented_example() -> None:
    # scipy.stats.kendalltau's docstring: x = [12, 2, 1, 12, 2], y = [1, 4, 7, 1, 0] -> -0.47140452079103173
    assert stats.kendall_tau([[12, 2, 1, 12, 2]], [1, 4, 7, 1, 0])[0] == pytest.approx(-0.47140452079103173, abs=1e-15)


@pytest.mark.parametrize("seed", range(5))
def test_equals_scipy_row_by_row_with_ties_and_missing_values(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 6, size=(40, 12)).astype(float)  # many ties
    rows[rng.random(rows.shape) < 0.15] = np.nan
    rows[0] = 3.0  # constant row: tau undefined
    rows[1, 2:] = np.nan  # two items left
    rows[2, 1:] = np.nan  # one item left: undefined
    reference = rng.normal(size=12).round(1)
    reference[5] = reference[6]
    np.testing.assert_allclose(stats.kendall_tau(rows, reference), scipy_rows(rows, reference), rtol=1e-12, atol=1e-15)


def test_continuous_scores_against_scipy() -> None:
    rng = np.random.default_rng(7)
    reference = rng.uniform(0.5, 0.95, 20)
    rows = reference + rng.normal(0, 0.05, (50, 20))
    np.testing.assert_allclose(stats.kendall_tau(rows, reference), scipy_rows(rows, reference), rtol=1e-12)


def test_decimal_ties_are_ties() -> None:
    # (0.1 + 0.2) / 2 is 0.15000000000000002 in binary: a median of two results against a logged 0.15
    row = [0.15, (0.1 + 0.2) / 2, 0.3]
    reference = [1.0, 2.0, 3.0]
    # tau-b with one tied pair in the row: S = 2, n0 = 3, n1 = 1 -> 2 / sqrt(2 * 3)
    assert stats.kendall_tau([row], reference)[0] == pytest.approx(2 / np.sqrt(6), abs=1e-15)


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="3 columns"):
        stats.kendall_tau([[1.0, 2.0]], [1.0, 2.0, 3.0])
