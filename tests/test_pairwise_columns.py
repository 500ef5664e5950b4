"""stats.pairwise_wilcoxon computes all pairs at once (stats.posthoc._paired_columns); its table must equal,
bit for bit, the per-pair loop over stats.wilcoxon / stats.sign_test that it replaced (kept here as
the reference), for every zero_method and ties option, on tables with ties, zero differences,
small n (exact distribution) and large n (normal approximation), in both directions."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stats
from stats.core._table import as_table
from stats.posthoc._paired_columns import _binomtest_pvalues, _lower_tail_count, exact_signed_rank_p
from stats.posthoc.apv import adjust
from stats.posthoc.pairwise_two_sample import pairwise_wilcoxon
from stats.twosample.nonparametric import _exact_pvalue

ZERO_METHODS = ("demsar", "zsplit", "pratt", "wilcox")


def loop_reference(scores, *, test, option, method="holm", higher_is_better=True) -> pd.DataFrame:  # type: ignore[no-untyped-def]
    """The per-pair loop of pairwise_wilcoxon before it was vectorised (one call per pair)."""
    table = as_table(scores, higher_is_better=higher_is_better)
    rows = []
    for i, j in itertools.combinations(range(table.k), 2):
        a, b = table.values[:, i], table.values[:, j]
        if test == "wilcoxon":
            res = stats.wilcoxon(a, b, zero_method=option)
            edge = np.sign(res.r_plus - res.r_minus)
            statistic, p = res.statistic, res.pvalue
        else:
            sres = stats.sign_test(a, b, ties=option)
            edge = np.sign(sres.wins - sres.losses)
            statistic, p = float(sres.statistic), sres.pvalue
        better = table.learners[j] if edge > 0 else table.learners[i] if edge < 0 else ""
        rows.append((table.learners[i], table.learners[j], statistic, better, p))
    out = pd.DataFrame(rows, columns=["a", "b", "statistic", "better", "p"])
    out[f"{test}-{method}"] = adjust(out["p"].to_numpy(), method)
    return out


def assert_same_as_loop(scores, higher_is_better: bool = True) -> None:  # type: ignore[no-untyped-def]
    for zero_method in ZERO_METHODS:
        got = pairwise_wilcoxon(scores, zero_method=zero_method, higher_is_better=higher_is_better).table
        want = loop_reference(scores, test="wilcoxon", option=zero_method, higher_is_better=higher_is_better)
        pd.testing.assert_frame_equal(got, want, check_exact=True)
    for ties in ("split", "discard"):
        got = pairwise_wilcoxon(scores, test="sign", ties=ties, higher_is_better=higher_is_better).table
        want = loop_reference(scores, test="sign", option=ties, higher_is_better=higher_is_better)
        pd.testing.assert_frame_equal(got, want, check_exact=True)


@st.composite
def tables(draw: st.DrawFn) -> tuple[np.ndarray, bool]:
    """Tables on a coarse grid (ties and zero differences are frequent), n from 2 (exact) to 70
    (normal approximation above 50), a learner effect so that both directions and small p occur,
    at a scale from 1e-4 to 1e6."""
    n = draw(st.integers(2, 70))
    k = draw(st.integers(2, 6))
    levels = draw(st.integers(2, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    effect = rng.integers(-levels // 3, levels // 3 + 1, size=(1, k))
    grid = rng.integers(0, levels, size=(n, k)) + effect
    if draw(st.booleans()):
        grid[:, 1] = grid[:, 0]  # a pair with no non-zero difference
    scale = draw(st.sampled_from([1e-4, 1e-3, 0.01, 1.0, 7.0, 1e6]))
    return grid * scale + draw(st.sampled_from([0.0, 0.5, 1000.0])), draw(st.booleans())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_vectorised_table_equals_the_per_pair_loop(case: tuple[np.ndarray, bool]) -> None:
    values, higher_is_better = case
    assert_same_as_loop(values, higher_is_better)


def test_benchmark_table_and_named_frames_equal_the_loop() -> None:
    # bench_analysis' table (50 x 20, 3 decimals, many ties; every pair exact at N = 50), and
    # a frame with integer learner names (the columns' dtypes must not change).
    rng = np.random.default_rng(20240601)
    difficulty = 1.0 - 0.4 * rng.beta(1.2, 4.0, size=(50, 1))
    values = np.round(np.clip(difficulty + rng.normal(0, 0.03, (1, 20)) + rng.normal(0, 0.02, (50, 20)), 0, 1), 3)
    assert_same_as_loop(pd.DataFrame(values, columns=[f"L{j:02d}" for j in range(20)]))
    assert_same_as_loop(pd.DataFrame(values[:9, :4], columns=[3, 1, 2, 0]), higher_is_better=False)


def test_exact_p_equals_the_dynamic_programme() -> None:
    # the exact two-sided p read from the lower tail at min(r, total - r) equals the full
    # distribution's min of both tails, for tied (odd twice ranks) and untied ranks
    rng = np.random.default_rng(5)
    for _ in range(300):
        m = int(rng.integers(1, 51))
        absd = rng.integers(1, int(rng.integers(2, 60)), size=m)
        twice = np.rint(2.0 * sps.rankdata(absd)).astype(np.int64)
        positive = rng.random(m) < rng.random()
        pos2 = int(twice[positive].sum())
        assert exact_signed_rank_p(twice, pos2) == _exact_pvalue(twice, pos2)


def test_lower_tail_count_by_enumeration() -> None:
    # subsets counted by brute force over all 2^m sign assignments
    ranks = np.array([2, 3, 3, 8, 9, 9, 14], dtype=np.int64)
    sums = [sum(r for r, s in zip(ranks.tolist(), signs) if s) for signs in itertools.product([0, 1], repeat=7)]
    for t in range(int(ranks.sum()) + 1):
        assert _lower_tail_count(ranks.tobytes(), t) == sum(s <= t for s in sums)


@pytest.mark.parametrize("n_max", [90])
def test_sign_p_equals_binomtest_for_every_k_and_n(n_max: int) -> None:
    for n in range(1, n_max + 1):
        want = [sps.binomtest(k, n, 0.5).pvalue for k in range(n + 1)]
        assert _binomtest_pvalues(n).tolist() == want, n
