"""Nemenyi's q_alpha from the stored table (stats.ranking._nemenyi_q, issue 32): the same numbers
as scipy.stats' studentized range, and Demsar's printed Table 5."""

from __future__ import annotations

import math

import pytest
import scipy.stats as sps

from stats.ranking._nemenyi_q import K_MAX, K_MIN, Q_NEMENYI
from stats.ranking.critical import critical_difference, q_alpha

#: Demsar (2006), Table 5(a): q_0.05 and q_0.10 of the Nemenyi test for k = 2..10, as printed.
DEMSAR_Q = {
    0.05: (1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164),
    0.10: (1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920),
}


@pytest.mark.parametrize("alpha", [0.10, 0.05, 0.01])
def test_the_table_holds_scipys_studentized_range_for_every_k_up_to_100(alpha: float) -> None:
    assert len(Q_NEMENYI[alpha]) == K_MAX - K_MIN + 1
    for k in range(K_MIN, K_MAX + 1):
        want = float(sps.studentized_range.ppf(1.0 - alpha, k, math.inf)) / math.sqrt(2.0)
        assert Q_NEMENYI[alpha][k - K_MIN] == pytest.approx(want, rel=1e-12, abs=0), (alpha, k)
        assert q_alpha(k, alpha=alpha) == Q_NEMENYI[alpha][k - K_MIN]


def test_the_table_agrees_with_demsars_table_5_to_the_digits_printed() -> None:
    """Within one unit of the last digit printed: Demsar's values come from older tables of the
    studentized range, rounded or cut (2.3437 is printed 2.343, 2.9486 is 2.949)."""
    for alpha, printed in DEMSAR_Q.items():
        ours = [Q_NEMENYI[alpha][k - K_MIN] for k in range(2, 11)]
        assert ours == pytest.approx(list(printed), abs=1.0001e-3)
    assert round(critical_difference(4, 14), 2) == 1.25  # Menzies' notes: CD = 1.25 for k = 4, N = 14


def test_outside_the_table_scipy_computes_it() -> None:
    """Another alpha, k above 100 or a finite df: the studentized range of scipy.stats, as before."""
    for k, alpha, df in ((5, 0.2, math.inf), (101, 0.05, math.inf), (5, 0.05, 30.0)):
        want = float(sps.studentized_range.ppf(1.0 - alpha, k, df)) / math.sqrt(2.0)
        assert q_alpha(k, alpha=alpha, df=df) == want
    assert q_alpha(4, method="bonferroni_dunn") == float(sps.norm.isf(0.05 / 6))
