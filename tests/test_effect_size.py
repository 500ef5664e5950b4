"""Tests of stats.twosample.effect_size: A12 and Cliff's delta against brute-force pair counting, scipy's
Mann-Whitney U and the cliffs-delta package; the Hodges-Lehmann interval against a brute-force
enumeration of the signed-rank null and against scipy's exact Wilcoxon test, inverted."""

from __future__ import annotations

import doctest
import itertools
import statistics

import numpy as np
import pytest
import scipy.stats as sps
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.twosample import effect_size
from stats.twosample.effect_size import a12, cliffs_delta, hodges_lehmann

# Few distinct values: plenty of ties.
TIED = st.lists(st.integers(0, 6).map(lambda v: v / 10), min_size=1, max_size=15)


def brute_a12(a: list[float], b: list[float]) -> float:
    """P(a > b) + 0.5 P(a = b) over all pairs, counted one pair at a time."""
    score = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)
    return score / (len(a) * len(b))


@settings(max_examples=200, deadline=None)
@given(TIED, TIED)
def test_a12_and_delta_equal_pair_counting(a: list[float], b: list[float]) -> None:
    res = a12(a, b)
    assert res.value == pytest.approx(brute_a12(a, b), abs=1e-12)
    assert res.n == len(a) * len(b)
    delta = cliffs_delta(a, b)
    gt = sum(x > y for x in a for y in b)
    lt = sum(x < y for x in a for y in b)
    assert delta.value == pytest.approx((gt - lt) / (len(a) * len(b)), abs=1e-12)
    assert delta.value == pytest.approx(2 * res.value - 1, abs=1e-12)
    # Direction: swapping the samples or the orientation mirrors the value.
    assert a12(b, a).value == pytest.approx(1 - res.value, abs=1e-12)
    assert a12(a, b, higher_is_better=False).value == pytest.approx(1 - res.value, abs=1e-12)
    assert cliffs_delta(b, a, higher_is_better=False).value == pytest.approx(delta.value, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=20))
def test_paired_a12_counts_the_differences(pairs: list[tuple[int, int]]) -> None:
    a = [x / 10 for x, _ in pairs]
    b = [y / 10 for _, y in pairs]
    d = [x - y for x, y in pairs]  # integers: exact signs
    res = a12(a, b, paired=True)
    want = (sum(v > 0 for v in d) + 0.5 * sum(v == 0 for v in d)) / len(d)
    assert res.value == pytest.approx(want, abs=1e-12)
    assert cliffs_delta(a, b, paired=True).value == pytest.approx(2 * want - 1, abs=1e-12)


def test_a12_is_mann_whitney_u_over_mn() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=13), rng.normal(0.5, size=9)
    u = sps.mannwhitneyu(a, b).statistic
    assert a12(a, b).value == pytest.approx(u / (13 * 9))


def test_delta_equals_the_cliffs_delta_package() -> None:
    pkg = pytest.importorskip("cliffs_delta", reason="cliffs-delta is a test dependency")
    rng = np.random.default_rng(7)
    for shift in (0.0, 0.1, 0.3, 0.6, 1.5):
        a = np.round(rng.normal(shift, 1, size=30), 1).tolist()
        b = np.round(rng.normal(0, 1, size=25), 1).tolist()
        d, label = pkg.cliffs_delta(a, b)
        res = cliffs_delta(a, b)
        assert res.value == pytest.approx(d)
        assert res.magnitude == label


def test_decimal_ties_are_ties() -> None:
    assert a12([0.1 + 0.2], [0.3]).value == 0.5
    assert a12([0.1 + 0.2], [0.3], paired=True).ties == 1


def _paired_signs(wins: int, ties: int, losses: int) -> tuple[list[float], list[float]]:
    return [1.0] * wins + [0.0] * ties + [0.0] * losses, [0.0] * wins + [0.0] * ties + [1.0] * losses


@pytest.mark.parametrize(
    ("wins", "ties", "losses", "label"),
    [
        (14, 0, 11, "negligible"),  # 0.56 exactly: negligible (Vargha & Delaney's [0.44, 0.56])
        (11, 0, 14, "negligible"),  # 0.44
        (15, 0, 10, "small"),  # 0.60
        (28, 1, 21, "small"),  # 0.57
        (16, 0, 9, "medium"),  # 0.64
        (9, 0, 16, "medium"),  # 0.36
        (70, 0, 30, "medium"),  # 0.70
        (71, 0, 29, "large"),  # 0.71
        (29, 0, 71, "large"),  # 0.29
    ],
)
def test_a12_magnitude_bounds(wins: int, ties: int, losses: int, label: str) -> None:
    a, b = _paired_signs(wins, ties, losses)
    res = a12(a, b, paired=True)
    assert res.magnitude == label
    assert a12(b, a, paired=True).magnitude == label  # symmetric about 0.5


@pytest.mark.parametrize(
    ("wins", "label"),
    [(146, "negligible"), (147, "small"), (329, "small"), (330, "medium"), (473, "medium"), (474, "large")],
)
def test_delta_magnitude_bounds(wins: int, label: str) -> None:
    # 1000 paired differences: delta = wins / 1000 exactly.
    a, b = _paired_signs(wins, 1000 - wins, 0)
    assert cliffs_delta(a, b, paired=True).magnitude == label
    assert cliffs_delta(b, a, paired=True).magnitude == label


def test_validation() -> None:
    with pytest.raises(ValueError, match="same length"):
        a12([1, 2], [1], paired=True)
    with pytest.raises(ValueError, match="paired must be True or False"):
        a12([1], [2], paired="yes")
    with pytest.raises(ValueError, match="b is empty"):
        cliffs_delta([1], [])
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        hodges_lehmann([1, 2], [0, 0], confidence=95)


# ---------------------------------------------------------------- Hodges-Lehmann


def brute_signed_rank_cdf(n: int) -> list[float]:
    """P(V <= v) by enumerating all 2^n sign assignments of the ranks 1..n."""
    counts = [0] * (n * (n + 1) // 2 + 1)
    for signs in itertools.product((0, 1), repeat=n):
        counts[sum(r for r, s in zip(range(1, n + 1), signs) if s)] += 1
    return list(itertools.accumulate(c / 2**n for c in counts))


def brute_walsh(d: list[float]) -> list[float]:
    return sorted((x + y) / 2 for x, y in itertools.combinations_with_replacement(d, 2))


@pytest.mark.parametrize("n", [6, 7, 9, 11])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_exact_interval_by_brute_force(n: int, confidence: float) -> None:
    rng = np.random.default_rng(n)
    d = np.round(rng.normal(0.3, 1.0, size=n), 6)
    res = hodges_lehmann(d, np.zeros(n), confidence=confidence)
    assert res.method == "exact"
    walsh = brute_walsh(d.tolist())
    cdf = brute_signed_rank_cdf(n)
    c = max(1, next(q for q, p in enumerate(cdf) if p >= (1 - confidence) / 2))  # R: qsignrank, 0 -> 1
    assert res.estimate == pytest.approx(statistics.median(walsh))
    assert (res.low, res.high) == pytest.approx((walsh[c - 1], walsh[len(walsh) - c]))


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 14), st.integers(0, 10_000))
def test_exact_interval_inverts_scipys_exact_wilcoxon(n: int, seed: int) -> None:
    # The interval is the set of shifts mu that the exact two-sided signed-rank test of d - mu
    # keeps at alpha = 0.05. Between two consecutive Walsh averages d - mu has no zero and no
    # tied |d - mu|, so scipy's exact test applies there.
    d = np.random.default_rng(seed).normal(size=n)
    res = hodges_lehmann(d, np.zeros(n))
    walsh = np.unique(brute_walsh(d.tolist()))
    for mu in (walsh[:-1] + walsh[1:]) / 2:
        kept = sps.wilcoxon(d - mu, method="exact").pvalue > 0.05
        assert kept == (res.low < mu < res.high), mu


def test_direction_and_orientation() -> None:
    a = [0.81, 0.77, 0.92, 0.66, 0.71, 0.88, 0.79]
    b = [0.78, 0.75, 0.85, 0.69, 0.70, 0.80, 0.74]
    ab, ba = hodges_lehmann(a, b), hodges_lehmann(b, a)
    assert ab.estimate > 0
    assert (ba.estimate, ba.low, ba.high) == pytest.approx((-ab.estimate, -ab.high, -ab.low))
    low = hodges_lehmann(a, b, higher_is_better=False)
    assert (low.estimate, low.low, low.high) == pytest.approx((ba.estimate, ba.low, ba.high))


def test_ties_and_zeros_use_the_normal_approximation() -> None:
    d = [0.0, 0.1, 0.1, 0.2, 0.3, -0.1, 0.4, 0.2, 0.5, 0.3]
    res = hodges_lehmann(d, [0.0] * len(d))
    assert (res.method, res.n_zero) == ("approx", 1)
    walsh = brute_walsh(d)
    assert res.estimate == pytest.approx(statistics.median(walsh))
    # Hollander & Wolfe (3.27): C = round(55/2 - 1.959964 sqrt(10 * 11 * 21 / 24)) = round(8.94) = 9.
    assert (res.low, res.high) == pytest.approx((walsh[8], walsh[55 - 9]))


def test_large_n_is_approximate_and_close_to_exact_quantile() -> None:
    rng = np.random.default_rng(11)
    d = rng.normal(1.0, 2.0, size=60)
    res = hodges_lehmann(d, np.zeros(60))
    assert res.method == "approx"
    walsh = np.sort(brute_walsh(d.tolist()))
    counts = effect_size.signed_rank_null_counts(60)
    cdf = np.cumsum(counts) / 2.0**60
    c_exact = int(np.searchsorted(cdf, 0.025))
    low_index = int(np.searchsorted(walsh, res.low))
    assert abs(low_index + 1 - c_exact) <= 2  # the normal C is within two of the exact quantile


def test_docstring_examples() -> None:
    outcome = doctest.testmod(effect_size)
    assert outcome.attempted >= 4 and outcome.failed == 0
