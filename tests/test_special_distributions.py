"""The distribution functions computed from scipy.special (issue 32: the first view and the report's
ranks, tests and pairs views import no scipy.stats) give scipy.stats' floats, bit for bit:
stats.core._distributions (binomial pmf/cdf/sf, the sign test's binomtest, mid-ranks, the normal
cdf and isf) and stats.twosample._mann_whitney (Mann-Whitney U, exact and asymptotic)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as sps

import stats
from stats.core._distributions import (
    binom_cdf,
    binom_pmf,
    binom_sf,
    binomtest_half_pvalue,
    binomtest_half_pvalues,
    norm_cdf,
    norm_isf,
    twice_midranks,
)
from stats.twosample._mann_whitney import mannwhitneyu_asymptotic_columns, mannwhitneyu_two_sided


@pytest.mark.parametrize("p", [0.5, 0.3, 0.0, 1.0, 0.999])
def test_binomial_functions_equal_scipy_stats_binom_inside_and_outside_the_support(p: float) -> None:
    n = np.arange(0, 60)[:, None]
    k = np.arange(-3, 65)[None, :]
    assert np.array_equal(binom_pmf(k, n, p), sps.binom.pmf(k, n, p))
    assert np.array_equal(binom_cdf(k, n, p), sps.binom.cdf(k, n, p))
    assert np.array_equal(binom_sf(k, n, p), sps.binom.sf(k, n, p))
    assert binom_pmf(3, 10, p) == sps.binom.pmf(3, 10, p)


@pytest.mark.parametrize("n", [*range(1, 90), 99, 100, 101, 999, 1000, 4001])
def test_the_sign_tests_p_equals_binomtest_for_every_k(n: int) -> None:
    want = [sps.binomtest(k, n, 0.5).pvalue for k in range(n + 1)]
    assert [binomtest_half_pvalue(k, n) for k in range(n + 1)] == want
    assert binomtest_half_pvalues(n).tolist() == want


def test_sign_test_and_wilcoxon_equal_scipy() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(3, 70))
        a = rng.integers(0, 12, n) / 100
        b = a + rng.integers(-4, 6, n) / 100
        res = stats.sign_test(a, b, ties="discard")
        assert res.pvalue == sps.binomtest(res.wins, res.wins + res.losses).pvalue if res.n else res.pvalue == 1.0
        w = stats.wilcoxon(a, b, zero_method="wilcox", method="approx")
        if w.n:
            d = np.round(b - a, 9)
            want = sps.wilcoxon(d[d != 0], method="asymptotic", correction=False)
            assert w.pvalue == pytest.approx(want.pvalue, rel=1e-12, abs=0)


def test_mid_ranks_normal_cdf_and_isf_equal_scipy() -> None:
    rng = np.random.default_rng(1)
    for _ in range(300):
        x = rng.integers(0, 6, size=int(rng.integers(1, 30))).astype(float)
        assert np.array_equal(twice_midranks(x), np.rint(2 * sps.rankdata(x)).astype(np.int64))
    z = np.linspace(-40, 40, 4001)
    assert np.array_equal(norm_cdf(z), sps.norm.cdf(z))
    q = np.array([1e-300, 1e-10, 0.001, 0.025, 0.3, 0.5, 0.9, 1 - 1e-9])
    assert np.array_equal(norm_isf(q), sps.norm.isf(q))


def test_mann_whitney_equals_scipy_exact_and_asymptotic() -> None:
    rng = np.random.default_rng(0)
    for _ in range(1500):
        n1, n2 = (int(v) for v in rng.integers(1, 14, 2))
        if rng.random() < 0.5:
            x, y = rng.random(n1), rng.random(n2) + rng.normal() * 0.3  # no ties
        else:
            levels = int(rng.integers(2, 40))
            x, y = rng.integers(0, levels, n1).astype(float), rng.integers(0, levels, n2).astype(float)
        for method in ("exact", "asymptotic"):
            res = sps.mannwhitneyu(x, y, alternative="two-sided", method=method)
            assert mannwhitneyu_two_sided(x, y, method) == (float(res.statistic), float(res.pvalue))


def test_mann_whitney_of_columns_equals_scipy_along_an_axis() -> None:
    rng = np.random.default_rng(2)
    for _ in range(200):
        n, cols, levels = (int(v) for v in (rng.integers(1, 25), rng.integers(1, 30), rng.integers(2, 50)))
        x, y = rng.integers(0, levels, (n, cols)).astype(float), rng.integers(0, levels, (n, cols)).astype(float)
        want = sps.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic", axis=0).pvalue
        assert np.array_equal(mannwhitneyu_asymptotic_columns(x, y), want, equal_nan=True)


def test_column_midranks_are_scipys_rankdata_by_column_with_their_tie_groups() -> None:
    """``stats.core.column_midranks``: the mid-ranks of ``scipy.stats.rankdata(a, axis=0)``
    doubled, each value's tie group size (counted here by comparing values), and each column's
    ranks in ascending order, on columns with ties, an all-tied column, and a single row."""
    from stats.core import column_midranks

    rng = np.random.default_rng(7)
    for a in (
        rng.integers(0, 4, size=(9, 5)).astype(float),
        np.full((6, 2), 0.25),
        np.array([[1.5, -2.0, 0.0]]),
        rng.normal(size=(12, 3)),
    ):
        twice, size, ascending = column_midranks(a)
        np.testing.assert_array_equal(twice, np.rint(2 * sps.rankdata(a, axis=0)).astype(np.int64))
        np.testing.assert_array_equal(size, (a[:, None, :] == a[None, :, :]).sum(axis=0))
        np.testing.assert_array_equal(ascending, np.sort(twice, axis=0))
