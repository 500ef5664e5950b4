"""The tie-corrected Friedman statistic beside Demsar's (2006) uncorrected one (issue 16), on the medians
of baycomp's real log (tests/data/reference/baycomp_accuracies.dat: 54 data sets x 5 learners,
10 x 10-fold CV), where ties among the median accuracies are frequent: 14.42 uncorrected,
19.94 tie-corrected (scipy.stats.friedmanchisquare and R's friedman.test compute the latter)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

import stats
from tests.conftest import REFERENCE

FIELDS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]


@pytest.fixture(scope="module")
def medians() -> pd.DataFrame:
    log = pd.read_csv(REFERENCE / "baycomp_accuracies.dat", header=None, names=FIELDS)
    table = log.pivot_table(index="dataset", columns="learner", values="value", aggfunc="median")
    return table.round(12)  # medians of decimals: equal in decimal, equal in binary


def test_uncorrected_and_tie_corrected_friedman(medians: pd.DataFrame) -> None:
    n, k = medians.shape
    assert (n, k) == (54, 5)
    ranks = medians.rank(axis=1, ascending=False).to_numpy()  # mid-ranks, 1 = best
    mean = ranks.mean(axis=0)
    by_hand = 12 * n / (k * (k + 1)) * (np.sum(mean**2) - k * (k + 1) ** 2 / 4)  # Demsar (2006), eq. 1
    ties = sum(np.sum(c**3 - c) for c in (np.unique(row, return_counts=True)[1] for row in ranks))
    plain = stats.friedman(medians)
    corrected = stats.friedman(medians, tie_correction=True)
    assert plain.statistic == pytest.approx(by_hand, rel=1e-12)
    assert round(plain.statistic, 2) == 14.42
    assert round(corrected.statistic, 2) == 19.94
    scipy_chi2 = sps.friedmanchisquare(*(medians[c] for c in medians.columns)).statistic
    assert corrected.statistic == pytest.approx(scipy_chi2, rel=1e-12)
    # The correction divides by 1 - sum(t^3 - t) / (N k (k^2 - 1)) over the tie groups of each row.
    assert corrected.statistic == pytest.approx(by_hand / (1 - ties / (n * k * (k * k - 1))), rel=1e-12)
    assert corrected.pvalue < plain.pvalue
