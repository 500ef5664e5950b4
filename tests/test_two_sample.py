"""Tests of stats.twosample.nonparametric against the figures of Garcia & Herrera's tutorial (2008, 2010) and Menzies'
lecture notes, scipy and brute force."""

from __future__ import annotations

import doctest
import itertools
import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pytest
import scipy.stats as sps
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.twosample import nonparametric as two_sample
from stats.twosample.nonparametric import mann_whitney, sign_test, wilcoxon

# Garcia & Herrera's tutorial (2008, 2010; after Demsar 2006), C4.5 vs C4.5m on 14 data sets (AUC).
C45 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957]
C45M = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978]
# The tutorial's printed table of critical numbers of wins of the sign test, N = 5..25.
W05 = [5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 17, 18, 18]
W10 = [5, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 14, 15, 16, 16, 17]
ZERO_METHODS = ("demsar", "zsplit", "pratt", "wilcox")


def binom_upper(w: int, n: int) -> float:
    """P(X >= w) for X ~ Bin(n, 1/2), by exact integer arithmetic."""
    return sum(math.comb(n, k) for k in range(w, n + 1)) / 2**n


def binom_two_sided(w: int, n: int) -> float:
    return min(1.0, 2 * min(binom_upper(w, n), binom_upper(n - w, n)))


def midranks(values: Sequence[float]) -> list[float]:
    return [sum(v < x for v in values) + (sum(v == x for v in values) + 1) / 2 for x in values]


def brute_force(d: list[int], zero_method: str) -> tuple[float, float, float]:
    """(R+, R-, exact two-sided p) by enumerating all 2^m signs of the non-zero d."""
    zeros = sum(x == 0 for x in d)
    nonzero = [x for x in d if x != 0]
    keep = {"wilcox": 0, "demsar": zeros - zeros % 2}.get(zero_method, zeros)
    ranks = midranks([0] * keep + [abs(x) for x in nonzero])
    share = sum(ranks[:keep]) / 2 if zero_method in ("demsar", "zsplit") else 0.0
    nz = ranks[keep:]
    r_plus = share + sum(r for r, x in zip(nz, nonzero, strict=True) if x > 0)
    r_minus = share + sum(r for r, x in zip(nz, nonzero, strict=True) if x < 0)
    le = ge = 0
    for signs in itertools.product((False, True), repeat=len(nonzero)):
        s = share + sum(r for r, sg in zip(nz, signs, strict=True) if sg)
        le += s <= r_plus + 1e-9
        ge += s >= r_plus - 1e-9
    return r_plus, r_minus, min(1.0, 2 * min(le, ge) / 2 ** len(nonzero))


# ---------------------------------------------------------------- Wilcoxon


def test_wilcoxon_seed_c45_example() -> None:
    # The tutorial: R+ = 93, R- = 12, T = 12 (two zero differences, |0.005| tied).
    res = wilcoxon(C45, C45M)
    assert (res.r_plus, res.r_minus, res.statistic, res.n, res.n_zero) == (93.0, 12.0, 12.0, 14, 2)
    assert res.method == "exact"
    # The tutorial's critical value for N = 14, alpha = 0.05 is 21: T = 12 <= 21 rejects.
    assert res.pvalue < 0.05


def test_wilcoxon_spss_z() -> None:
    # The tutorial's SPSS output: 11 positive ranks, none negative, Z = -2.934, p = .003.
    res = wilcoxon(np.zeros(11), np.arange(1.0, 12.0), method="approx")
    assert (res.r_plus, res.r_minus, res.statistic) == (66.0, 0.0, 0.0)
    assert res.zscore == pytest.approx(-2.934, abs=5e-4)
    assert res.pvalue == pytest.approx(0.003, abs=5e-4)
    assert wilcoxon(np.zeros(11), np.arange(1.0, 12.0), method="exact").zscore == res.zscore


@pytest.mark.parametrize(
    "zero_method, expected",
    # d = [0, 0, 0, 1, 2, -3], ranks worked by hand.
    [
        ("demsar", (8.5, 6.5, 5)),
        ("zsplit", (12.0, 9.0, 6)),
        ("pratt", (9.0, 6.0, 6)),
        ("wilcox", (3.0, 3.0, 3)),
    ],
)
def test_wilcoxon_zero_methods_by_hand(zero_method: str, expected: tuple[float, float, int]) -> None:
    res = wilcoxon([0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 2, -3], zero_method=zero_method)
    assert (res.r_plus, res.r_minus, res.n) == expected
    assert res.statistic == min(expected[:2]) and res.n_zero == 3


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("seed", range(12))
def test_wilcoxon_exact_matches_brute_force(zero_method: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 13))
    a = rng.integers(0, 4, n)
    b = rng.integers(0, 4, n)
    r_plus, r_minus, p = brute_force([int(x) for x in b - a], zero_method)
    res = wilcoxon(a, b, zero_method=zero_method, method="exact")
    if any(b != a):
        assert (res.r_plus, res.r_minus) == (r_plus, r_minus)
        assert res.pvalue == pytest.approx(p, rel=1e-12)
    else:
        assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("n", [1, 2, 5, 10, 20, 33, 50, 60])
def test_wilcoxon_exact_matches_scipy_without_ties(n: int) -> None:
    rng = np.random.default_rng(n)
    a, b = rng.normal(size=n), rng.normal(size=n)
    ref = sps.wilcoxon(b, a, method="exact")
    res = wilcoxon(a, b, method="exact")
    assert res.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize("seed", range(4))
def test_wilcoxon_exact_matches_scipy_permutation_with_ties(zero_method: str, seed: int) -> None:
    # n <= 13: scipy's permutation test enumerates all 2^n sign flips.
    rng = np.random.default_rng(100 + seed)
    n = 13
    a, b = rng.integers(0, 5, n), rng.integers(0, 5, n)
    ref = sps.wilcoxon(b - a, zero_method=zero_method, method=sps.PermutationMethod())
    res = wilcoxon(a, b, zero_method=zero_method, method="exact")
    assert res.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize("n", [3, 15, 40, 120])
def test_wilcoxon_approx_matches_scipy(zero_method: str, n: int) -> None:
    rng = np.random.default_rng(n)
    a, b = rng.integers(0, 6, n), rng.integers(0, 6, n)
    ref = sps.wilcoxon(b - a, zero_method=zero_method, correction=False, method="asymptotic")
    res = wilcoxon(a, b, zero_method=zero_method, method="approx")
    assert res.method == "approx"
    assert res.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert res.zscore == pytest.approx(float(ref.zstatistic), rel=1e-12)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)


def test_wilcoxon_approx_seed_data_matches_scipy_on_decimal_differences() -> None:
    d = np.round(np.array(C45M) - np.array(C45), 3)  # ties as printed in the tutorial
    ref = sps.wilcoxon(d, zero_method="zsplit", correction=False, method="asymptotic")
    res = wilcoxon(C45, C45M, zero_method="zsplit", method="approx")
    assert res.statistic == 12.0 == float(ref.statistic)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)


def test_wilcoxon_differences_equal_in_decimal_tie() -> None:
    # 0.963 - 0.926 != 0.037 - 0 in binary; both are 0.037 in decimal: a tie.
    res = wilcoxon([0.926, 0.037, 0.5], [0.963, 0.0, 0.5], zero_method="wilcox")
    assert (res.r_plus, res.r_minus, res.n, res.n_zero) == (1.5, 1.5, 2, 1)
    assert sign_test([0.1 + 0.2], [0.3]).ties == 1  # equal in decimal: a tie


def test_wilcoxon_auto_switch() -> None:
    rng = np.random.default_rng(7)
    assert wilcoxon(rng.normal(size=50), rng.normal(size=50)).method == "exact"
    assert wilcoxon(rng.normal(size=51), rng.normal(size=51)).method == "approx"


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("method", ["auto", "exact", "approx"])
def test_wilcoxon_all_zero_differences(zero_method: str, method: str) -> None:
    for a in ([0.3], [0.1 + 0.2, 0.5, 0.7]):  # 0.1 + 0.2 equals 0.3 in decimal
        b = [0.3, 0.5, 0.7][: len(a)]
        res = wilcoxon(a, b, zero_method=zero_method, method=method)
        assert (res.statistic, res.pvalue, res.n, res.zscore) == (0.0, 1.0, 0, 0.0)


def test_wilcoxon_orientation() -> None:
    lower = wilcoxon(C45, C45M, higher_is_better=False)
    swapped = wilcoxon(C45M, C45)
    assert (lower.r_plus, lower.r_minus) == (12.0, 93.0) == (swapped.r_plus, swapped.r_minus)
    assert lower.pvalue == swapped.pvalue


def test_wilcoxon_str() -> None:
    text = str(wilcoxon(C45, C45M))
    assert "\n" not in text and "T = 12.000" in text and "R+ = 93" in text and "exact" in text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=16),
    st.sampled_from(ZERO_METHODS),
    st.sampled_from(["exact", "approx"]),
)
def test_wilcoxon_symmetries(pairs: list[tuple[int, int]], zero_method: str, method: str) -> None:
    a, b = np.array(pairs, dtype=float).T
    res = wilcoxon(a, b, zero_method=zero_method, method=method)
    swapped = wilcoxon(b, a, zero_method=zero_method, method=method)
    assert (swapped.r_plus, swapped.r_minus) == (res.r_minus, res.r_plus)
    assert swapped.statistic == res.statistic
    assert swapped.pvalue == pytest.approx(res.pvalue, rel=1e-12)
    assert 0.0 < res.pvalue <= 1.0
    assert wilcoxon(-a, -b, zero_method=zero_method, method=method, higher_is_better=False) == res
    assert sign_test(-a, -b, higher_is_better=False) == sign_test(a, b)
    assert sign_test(b, a).pvalue == sign_test(a, b).pvalue


# ---------------------------------------------------------------- sign test


def test_sign_test_seed_c45_example() -> None:
    # The tutorial: C4.5m has 10 wins, 2 losses, 2 ties; one tie is added: 11 wins of 14.
    res = sign_test(C45, C45M)
    assert (res.wins, res.losses, res.ties, res.statistic, res.n) == (10, 2, 2, 11, 14)
    assert res.pvalue == pytest.approx(binom_two_sided(11, 14), rel=1e-12)


def test_known_discrepancy_printed_sign_table_n14_11_wins_not_significant() -> None:
    # The tutorial reads w_0.05 = 11 for N = 14 and calls 11 wins significant, but
    # the exact two-sided binomial p of 11 of 14 is 940 / 16384 = 0.0574 > 0.05.
    assert W05[14 - 5] == 11
    res = sign_test(C45, C45M)
    assert res.pvalue == pytest.approx(940 / 16384, rel=1e-12)
    assert round(res.pvalue, 4) == 0.0574 and res.pvalue > 0.05


def test_printed_sign_table_follows_no_single_rule() -> None:
    # Backs the sign_test docstring's account of the printed table.
    ns = range(5, 26)
    normal = [math.ceil(n / 2 + 1.96 * math.sqrt(n) / 2) for n in ns]
    one_sided = {a: [min(w for w in range(n + 1) if binom_upper(w, n) <= a) for n in ns] for a in (0.05, 0.10)}
    two_sided = [next((w for w in range(math.ceil(n / 2), n + 1) if binom_two_sided(w, n) <= 0.05), None) for n in ns]

    def differ(rule: list) -> list[int]:
        return [n for n, r, w in zip(ns, rule, W05, strict=True) if r != w]

    assert differ(normal) == [13, 18, 24]
    assert differ(one_sided[0.05]) == [23, 24]
    assert differ(two_sided) == [5, 8, 11, 13, 14, 16, 18, 19, 21, 22]
    assert one_sided[0.10] == W10
    assert not hasattr(two_sample, "sign_test_critical_wins")


def test_sign_test_ties() -> None:
    a, b = [0, 0, 0, 0, 0, 0], [1, 1, -1, 0, 0, 0]
    split = sign_test(a, b)
    assert (split.wins, split.losses, split.ties, split.statistic, split.n) == (2, 1, 3, 3, 5)
    assert split.pvalue == pytest.approx(binom_two_sided(3, 5), rel=1e-12)
    discard = sign_test(a, b, ties="discard")
    assert (discard.statistic, discard.n) == (2, 3)
    assert discard.pvalue == pytest.approx(binom_two_sided(2, 3), rel=1e-12)
    assert sign_test([1.0], [1.0]).pvalue == 1.0 and sign_test([1.0], [1.0]).n == 0


def test_sign_test_orientation_and_str() -> None:
    res = sign_test(C45, C45M, higher_is_better=False)
    assert (res.wins, res.losses, res.statistic) == (2, 10, 3)
    text = str(sign_test(C45, C45M))
    assert "\n" not in text and "11 wins of 14" in text


# ---------------------------------------------------------------- Mann-Whitney

A004, B004 = [5, 7, 2, 0, 4], [4, 8, 2, 3, 6, 7]


def test_mann_whitney_menzies_example() -> None:
    values = sorted(A004 + B004)
    # The mid-ranks of the sorted pooled values in Menzies' lecture notes.
    assert list(sps.rankdata(values)) == [1, 2.5, 2.5, 4, 5.5, 5.5, 7, 8, 9.5, 9.5, 11]
    rank_sum_a = 1 + 2.5 + 5.5 + 7 + 9.5
    assert rank_sum_a == 25.5
    res = mann_whitney(A004, B004)
    assert res.statistic == rank_sum_a - 5 * 6 / 2 == 10.5
    assert res.method == "approx"  # ties: scipy's auto rule is asymptotic
    ref = sps.mannwhitneyu(A004, B004, alternative="two-sided")
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)


@pytest.mark.parametrize("sizes", [(1, 1), (3, 4), (5, 8), (8, 20), (20, 5), (9, 9), (12, 30)])
@pytest.mark.parametrize("method", ["auto", "exact", "approx"])
def test_mann_whitney_matches_scipy(sizes: tuple[int, int], method: str) -> None:
    rng = np.random.default_rng(sum(sizes))
    a, b = rng.normal(size=sizes[0]), rng.normal(size=sizes[1])
    ref = sps.mannwhitneyu(a, b, alternative="two-sided", method={"approx": "asymptotic"}.get(method, method))
    res = mann_whitney(a, b, method=method)
    assert res.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)
    if method == "auto":  # scipy's rule: asymptotic when both samples exceed 8 values
        assert res.method == ("approx" if min(sizes) > 8 else "exact")
    assert "\n" not in str(res) and "Mann-Whitney U" in str(res)


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize("func", [wilcoxon, sign_test])
@pytest.mark.parametrize(
    "a, b, match",
    [
        ([[1.0, 2.0]], [[1.0, 2.0]], "a must be 1-D"),
        ([1.0, 2.0], [1.0], "same length"),
        ([], [], "a is empty"),
        ([1.0, np.nan], [1.0, 2.0], "a must be finite"),
        ([1.0, 2.0], [1.0, np.inf], "b must be finite"),
        (["x", "y"], [1.0, 2.0], "a must be numeric"),
    ],
)
def test_paired_input_validation(func, a, b, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        func(a, b)


def test_option_validation() -> None:
    with pytest.raises(ValueError, match="zero_method must be one of"):
        wilcoxon([1.0], [2.0], zero_method="none")
    with pytest.raises(ValueError, match="method must be one of"):
        wilcoxon([1.0], [2.0], method="asymptotic")
    with pytest.raises(ValueError, match="ties must be one of"):
        sign_test([1.0], [2.0], ties="half")
    with pytest.raises(ValueError, match="higher_is_better must be True or False"):
        wilcoxon([1.0], [2.0], higher_is_better=cast(Any, "yes"))
    with pytest.raises(ValueError, match="higher_is_better must be True or False"):
        sign_test([1.0], [2.0], higher_is_better=cast(Any, None))
    with pytest.raises(ValueError, match="b is empty"):
        mann_whitney([1.0], [])
    with pytest.raises(ValueError, match="a must be 1-D"):
        mann_whitney(np.ones((2, 2)), [1.0])
    with pytest.raises(ValueError, match="b must be finite"):
        mann_whitney([1.0], [np.nan])
    with pytest.raises(ValueError, match="method must be one of"):
        mann_whitney([1.0], [2.0], method="asymptotic")


def test_docstring_examples() -> None:
    outcome = doctest.testmod(two_sample)
    assert outcome.attempted >= 6 and outcome.failed == 0


def test_the_sign_tests_sentence_says_how_the_ties_were_counted() -> None:
    """ "6 wins of 13 (5 wins, 6 losses, 3 ties)" read as a contradiction (stop 22's note): the
    sentence says the ties were split between the two, with an odd one dropped (Demsar 2006,
    Sec. 3.1.3), or dropped."""
    a = [0.5, 0.5, 0.5, 0.1, 0.9, 0.2]  # b: 2 wins, 1 loss, 3 ties
    b = [0.5, 0.5, 0.5, 0.2, 0.95, 0.1]
    split = str(sign_test(a, b))
    assert "3 wins of 5 with ties split (one dropped)" in split and "(2 wins, 1 loss, 3 ties)" in split
    even = str(sign_test(a[1:], b[1:]))
    assert "3 wins of 5 with ties split," in even
    assert "2 wins of 3 with the ties dropped" in str(sign_test(a, b, ties="discard"))
    assert "with" not in str(sign_test([0.1, 0.2], [0.2, 0.3]))


def test_the_results_print_plurals_and_words_not_option_names() -> None:
    """Issue 28: "1 wins", "1 losses" and "zeros: demsar" (an option's name) on screen and in the
    reports; now "1 win", "1 loss" and what the zero method does."""
    one = str(sign_test([0.5, 0.4, 0.3], [0.6, 0.3, 0.3], ties="discard"))
    assert "1 win of 2 with the ties dropped" in one and "(1 win, 1 loss, 1 tie)" in one
    for method, words in (
        ("demsar", "zeros split, one dropped if odd (Demšar 2006)"),
        ("pratt", "zeros ranked, then dropped (Pratt 1959)"),
        ("wilcox", "zeros dropped"),
    ):
        text = str(wilcoxon([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.2, 0.4, 0.6, 0.4], zero_method=method))
        assert text.endswith(f", {words})") and "zeros:" not in text
