"""Fold-level comparisons (issue 14, the stats API): the corrected resampled t-test against an
independent computation and scipy, the Bayesian tests against baycomp (a test dependency) on
baycomp's own example log (tests/data/reference/baycomp_accuracies.dat: 54 data sets x 5
learners, 10 x 10-fold cross-validation)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

import stats
from stats.folds.signed_rank import bayes_signed_rank
from stats.folds.ttests import bayes_correlated_ttest, corrected_ttest
from tests.conftest import REFERENCE

baycomp = pytest.importorskip("baycomp", reason="baycomp is a test dependency (pip install -e '.[test]')")


@pytest.fixture(scope="module")
def folds() -> dict[str, pd.DataFrame]:
    """Per data set: a (repeat, fold) x learner table of accuracies."""
    log = stats.read_logs(REFERENCE / "baycomp_accuracies.dat")
    out = {}
    for dataset, part in log.groupby("dataset", observed=True):
        out[str(dataset)] = part.pivot_table(
            index=["repeat", "fold"], columns="learner", values="value", observed=True
        ).sort_index()
    return out


def test_bayes_correlated_ttest_equals_baycomp_on_every_data_set_and_pair(folds: dict[str, pd.DataFrame]) -> None:
    checked = 0
    for table in folds.values():
        for x, y in itertools.combinations(table.columns, 2):
            a, b = table[x].to_numpy(), table[y].to_numpy()
            if np.ptp(a - b) == 0:
                continue  # baycomp divides by a zero variance here; our degenerate case is tested below
            ours = bayes_correlated_ttest(a, b, folds=10, rope=0.01)
            left, rope, right = baycomp.two_on_single(a, b, rope=0.01, runs=10)  # right: b better
            assert (ours.p_a, ours.p_rope, ours.p_b) == pytest.approx((left, rope, right), abs=1e-9)
            checked += 1
    assert checked >= 500  # 54 data sets x 10 pairs, less the degenerate ones


def test_bayes_correlated_ttest_without_rope_and_lower_is_better(folds: dict[str, pd.DataFrame]) -> None:
    table = folds[sorted(folds)[1]]
    a, b = table.iloc[:, 0].to_numpy(), table.iloc[:, 1].to_numpy()
    left, right = baycomp.two_on_single(a, b, rope=0, runs=10)
    ours = bayes_correlated_ttest(a, b, folds=10)
    assert (ours.p_a, ours.p_rope, ours.p_b) == pytest.approx((left, 0.0, right), abs=1e-9)
    flipped = bayes_correlated_ttest(-a, -b, folds=10, higher_is_better=False)
    assert (flipped.p_a, flipped.p_b) == pytest.approx((ours.p_a, ours.p_b), abs=1e-12)


def test_corrected_ttest_against_the_formula_and_scipy(folds: dict[str, pd.DataFrame]) -> None:
    table = folds[sorted(folds)[0]]
    a, b = table.iloc[:, 0].to_numpy(), table.iloc[:, 2].to_numpy()
    d = a - b
    j, n_test_over_train = len(d), 1 / (10 - 1)
    t = d.mean() / math.sqrt((1 / j + n_test_over_train) * d.var(ddof=1))  # Nadeau & Bengio 2003
    ours = corrected_ttest(a, b, folds=10)
    assert ours.statistic == pytest.approx(t, rel=1e-12) and ours.df == 99
    assert ours.pvalue == pytest.approx(2 * sps.t.sf(abs(t), 99), rel=1e-12)
    # the plumbing: with the correction term replaced by 1/J alone it is scipy's paired t-test
    plain = ours.statistic * math.sqrt((1 / j + n_test_over_train) / (1 / j))
    assert plain == pytest.approx(sps.ttest_rel(a, b).statistic, rel=1e-12)


def test_bayes_signed_rank_agrees_with_baycomp_within_monte_carlo_error(folds: dict[str, pd.DataFrame]) -> None:
    means = pd.DataFrame({name: t.mean() for name, t in folds.items()}).T  # data sets x learners
    # Each probability is a fraction of 50,000 samples: its standard error is at most
    # sqrt(0.25 / 50000) = 0.0022, so two independent estimates differ by more than 0.016
    # (5 standard errors of the difference) with probability below 1e-6.
    for x, y in [("nbc", "aode"), ("j48", "j48gr"), ("hnb", "nbc")]:
        a, b = means[x].to_numpy(), means[y].to_numpy()
        ours = bayes_signed_rank(a, b, rope=0.01, prior=0.5, nsamples=50000, seed=1)
        theirs = baycomp.SignedRankTest.probs(a, b, rope=0.01, prior=0.5, nsamples=50000, random_state=1)
        assert (ours.p_a, ours.p_rope, ours.p_b) == pytest.approx(theirs, abs=0.016), (x, y)
        assert ours.p_a + ours.p_rope + ours.p_b == pytest.approx(1.0, abs=1e-12)


def test_bayes_signed_rank_is_reproducible_for_a_seed() -> None:
    a, b = [0.9, 0.8, 0.85, 0.7, 0.75, 0.6], [0.8, 0.7, 0.86, 0.71, 0.7, 0.62]
    first = bayes_signed_rank(a, b, rope=0.01, seed=7)
    assert first == bayes_signed_rank(a, b, rope=0.01, seed=7)
    assert first != bayes_signed_rank(a, b, rope=0.01, seed=8, nsamples=3000)


def test_degenerate_inputs() -> None:
    same = [0.8] * 20
    eq = bayes_correlated_ttest(same, same, folds=10, rope=0.01)
    assert (eq.p_a, eq.p_rope, eq.p_b) == (0.0, 1.0, 0.0)  # all deltas zero, rope > 0
    eq0 = bayes_correlated_ttest(same, same, folds=10)
    assert (eq0.p_a, eq0.p_b) == (0.5, 0.5)  # rope = 0: split, as baycomp does
    t = corrected_ttest(same, same, folds=10)
    assert (t.statistic, t.pvalue) == (0.0, 1.0)
    shifted = corrected_ttest([0.9] * 20, same, folds=10)
    assert shifted.statistic == math.inf and shifted.pvalue == 0.0
    with pytest.raises(ValueError, match="same length"):
        corrected_ttest([0.1, 0.2], [0.1], folds=2)
    with pytest.raises(ValueError, match="finite"):
        bayes_correlated_ttest([0.1, np.nan], [0.1, 0.2], folds=2)
    with pytest.raises(ValueError, match="not R repeats x 10 folds"):
        corrected_ttest([0.1] * 15, [0.2] * 15, folds=10)
    with pytest.raises(ValueError, match="folds must be an integer >= 2"):
        corrected_ttest([0.1] * 4, [0.2] * 4, folds=1)
    with pytest.raises(ValueError, match="rope must be"):
        bayes_signed_rank([0.1, 0.2], [0.2, 0.1], rope=-1)


def _decimal_signs(values: np.ndarray, target: float) -> np.ndarray:
    """sign(v_i + v_j - target) for every pair, in exact decimal arithmetic: each float taken as
    the decimal of its shortest repr (0.011 + 0.009 is 0.02), the decimal rule of issue 26."""
    d = [Fraction(repr(float(v))) for v in values]
    t = Fraction(repr(float(target)))
    return np.array([[(x + y > t) - (x + y < t) for y in d] for x in d], dtype=float)


def _reference_weights(m: int, prior: float, nsamples: int, seed: int) -> np.ndarray:
    """Dirichlet(prior, 1, ..., 1) as normalised independent gammas, the construction the module
    documents: exponentials sample after sample (for prior 1, bit for bit Generator.dirichlet),
    the prior's column replaced by Gamma(prior) variates drawn after them, sums left to right."""
    rng = np.random.default_rng(seed)
    e = rng.standard_exponential((nsamples, m + 1))
    if prior != 1.0:
        e[:, 0] = rng.standard_gamma(prior, nsamples)
    return e * (1.0 / np.cumsum(e, axis=1)[:, -1:])


def _signed_rank_by_double_sum(a, b, *, rope, prior, nsamples, seed):  # type: ignore[no-untyped-def]
    """The O(nsamples * m^2) implementation bayes_signed_rank had before the suffix-sum one,
    kept as the reference: theta = w^T A w with the full step matrix A, its steps decided in
    exact decimal arithmetic."""
    from stats.folds.ttests import _paired

    z = _paired(a, b, True)
    values = np.concatenate([[0.0], z])

    def step(sign: np.ndarray) -> np.ndarray:
        return (sign > 0).astype(float) + 0.5 * (sign == 0)

    above, below = step(_decimal_signs(values, 2 * rope)), step(-_decimal_signs(values, -2 * rope))
    w = _reference_weights(z.size, prior, nsamples, seed)
    theta_a = np.einsum("si,ij,sj->s", w, above, w, optimize=True)
    theta_b = np.einsum("si,ij,sj->s", w, below, w, optimize=True)
    if rope > 0:
        theta = np.column_stack([theta_a, 1.0 - theta_a - theta_b, theta_b])
    else:
        theta = np.column_stack([theta_a, np.full_like(theta_a, -np.inf), 1.0 - theta_a])
    return tuple(np.bincount(np.argmax(theta, axis=1), minlength=3) / len(theta))


@pytest.mark.parametrize("case", range(12))
def test_bayes_signed_rank_equals_the_double_sum_for_the_same_seed(case: int) -> None:
    rng = np.random.default_rng(100 + case)
    m = int(rng.integers(1, 80))
    # values on a 0.005 grid: many tied differences, and many pairs z_i + z_j exactly at +-2 rope
    a = np.round(rng.uniform(0.6, 0.9, m), 2)
    b = np.round(a + rng.choice([-0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.02], m), 3)
    for rope in (0.0, 0.005, 0.01):
        for prior in (1.0, 0.5):
            ours = bayes_signed_rank(a, b, rope=rope, prior=prior, nsamples=4000, seed=case)
            ref = _signed_rank_by_double_sum(a, b, rope=rope, prior=prior, nsamples=4000, seed=case)
            assert (ours.p_a, ours.p_rope, ours.p_b) == ref, (m, rope, prior)


def test_bayes_signed_rank_bound_counts_half() -> None:
    # z = (0.01, 0.01, -0.01): every z_i + z_j with i, j among the first two is exactly 2 rope
    a, b = [0.81, 0.71, 0.6], [0.8, 0.7, 0.61]
    for rope in (0.0, 0.01):
        ours = bayes_signed_rank(a, b, rope=rope, nsamples=5000, seed=3)
        ref = _signed_rank_by_double_sum(a, b, rope=rope, prior=1.0, nsamples=5000, seed=3)
        assert (ours.p_a, ours.p_rope, ours.p_b) == ref


def _grid_differences(rng: np.random.Generator, m: int) -> np.ndarray:
    """m oriented differences on a 0.005 grid: ties, zeros, and sums exactly at +-2 rope."""
    return np.round(rng.choice([-0.03, -0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.015, 0.02, 0.03], m), 3)


def _thetas_by_double_sum(z: np.ndarray, rope: float, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """theta_a and theta_b of every sample (row of w) by the O(m^2) definition (decimal steps)."""
    values = np.concatenate([[0.0], z])
    up, down = _decimal_signs(values, 2 * rope), -_decimal_signs(values, -2 * rope)
    above = (up > 0) + 0.5 * (up == 0)
    below = (down > 0) + 0.5 * (down == 0)
    return np.einsum("si,ij,sj->s", w, above, w), np.einsum("si,ij,sj->s", w, below, w)


@pytest.mark.parametrize("case", range(8))
def test_exact_outcomes_equal_the_double_sum_sample_by_sample(case: int) -> None:
    from stats.folds._signed_rank_engine import _exact_outcomes, _steps, dirichlet_weights

    rng = np.random.default_rng(300 + case)
    m = int(rng.integers(1, 60))
    z = _grid_differences(rng, m)
    w = dirichlet_weights(m, prior=float(rng.choice([0.5, 1.0])), nsamples=3000, seed=case)
    for rope in (0.0, 0.005, 0.01):
        theta_a, theta_b = _thetas_by_double_sum(z, rope, w)
        if rope > 0:
            want = np.argmax(np.column_stack([theta_a, 1.0 - theta_a - theta_b, theta_b]), axis=1)
        else:
            want = np.where(theta_a >= 1.0 - theta_a, 0, 2)
        got = _exact_outcomes(_steps(z, rope), np.ascontiguousarray(w.T))
        assert np.array_equal(got, want), (m, rope)


@pytest.mark.parametrize("case", range(10))
def test_block_bounds_hold_every_samples_thetas(case: int) -> None:
    """The bounds of _bounds_plan's blocks contain the double sum's thetas of every sample, and
    a sample they decide has the double sum's winner."""
    from stats.folds._signed_rank_engine import (
        _bounded_outcomes,
        _bounds,
        _bounds_plan,
        _steps,
        dirichlet_weights,
    )

    rng = np.random.default_rng(400 + case)
    m = int(rng.integers(30, 150))
    z = _grid_differences(rng, m) + rng.choice([0.0, 0.01, -0.01])  # shift: clear verdicts too
    w = dirichlet_weights(m, prior=1.0, nsamples=2000, seed=case)
    block = np.ascontiguousarray(w.T)
    decided = 0
    for rope in (0.0, 0.005, 0.01):
        steps = _steps(z, rope)
        plan = _bounds_plan(steps)
        if plan is None:
            continue
        weights = np.zeros((plan.blocks, block.shape[1]))
        for k, first, end in plan.slices:
            weights[k] = block[plan.rows[first:end]].sum(axis=0)
        weights[plan.big] = 1.0 - weights.sum(axis=0)
        q = _bounds(plan.cols, weights)
        theta_a, theta_b = _thetas_by_double_sum(z, rope, w)
        assert np.all(q[0] <= theta_a + 1e-12) and np.all(theta_a <= q[1] + 1e-12)
        if rope > 0:
            assert np.all(q[2] <= theta_b + 1e-12) and np.all(theta_b <= q[3] + 1e-12)
            want = np.argmax(np.column_stack([theta_a, 1.0 - theta_a - theta_b, theta_b]), axis=1)
        else:
            want = np.where(theta_a >= 1.0 - theta_a, 0, 2)
        outcome = _bounded_outcomes(plan, rope, block)
        known = outcome >= 0
        assert np.array_equal(outcome[known], want[known]), (m, rope)
        decided += int(known.sum())
    assert decided > 0  # not vacuous: the bounds decided some samples


@pytest.mark.parametrize("case", range(10))
def test_signed_rank_counts_with_bounds_equal_the_exact_counts(case: int) -> None:
    from stats.folds._signed_rank_engine import cached_weights
    from stats.folds.signed_rank import signed_rank_counts

    rng = np.random.default_rng(500 + case)
    m = int(rng.integers(20, 300))
    kind = case % 5
    if kind == 0:
        z = np.zeros(m)  # every sum at the bound with rope 0
    elif kind == 1:
        z = np.full(m, 0.01)  # every sum exactly 2 rope for rope 0.01
    else:
        z = _grid_differences(rng, m) + [0.0, 0.012, -0.02][kind - 2]
    w = cached_weights(m, prior=1.0, nsamples=5000, seed=case)
    for rope in (0.0, 0.005, 0.01):
        exact = signed_rank_counts(z, rope, w, bounds=False)
        assert np.array_equal(signed_rank_counts(z, rope, w, bounds=True), exact), (m, rope)
        assert np.array_equal(signed_rank_counts(z, rope, w), exact), (m, rope)


def test_weights_are_drawn_once_and_kept_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.folds import _signed_rank_engine as folds_tests  # the engine behind stats.folds.signed_rank

    monkeypatch.setattr(folds_tests, "_weight_cache", type(folds_tests._weight_cache)())
    first = folds_tests.cached_weights(40, prior=1.0, nsamples=3000, seed=5)
    fresh = folds_tests.dirichlet_weights(40, prior=1.0, nsamples=3000, seed=5)
    assert first.shape == (41, 3000) and np.array_equal(first, fresh.T)
    assert folds_tests.cached_weights(40, prior=1.0, nsamples=3000, seed=5) is first
    assert not first.flags.writeable
    other = folds_tests.cached_weights(40, prior=0.5, nsamples=3000, seed=5)
    assert other is not first and not np.array_equal(other, first)
    # over the budget the least recently used draw goes; the newest stays even when alone too big
    monkeypatch.setattr(folds_tests, "WEIGHT_CACHE_BYTES", 1)
    folds_tests.cached_weights(41, prior=1.0, nsamples=3000, seed=5)
    assert list(folds_tests._weight_cache) == [(41, 1.0, 3000, 5)]


def test_bayes_signed_rank_on_many_data_sets_equals_the_exact_counts() -> None:
    """500 data sets, clear verdicts: the bounds decide nearly every sample, the counts are those
    of summing every sample exactly with the same weights."""
    from stats.folds._signed_rank_engine import cached_weights
    from stats.folds.signed_rank import signed_rank_counts
    from stats.folds.ttests import _paired

    rng = np.random.default_rng(9)
    b = rng.uniform(0.6, 0.95, 500)
    for shift in (0.03, 0.012, 0.005, -0.012):
        a = np.round(b + shift + rng.normal(0, 0.004, 500), 4)
        got = bayes_signed_rank(a, b, rope=0.01, nsamples=6000, seed=2)
        z = _paired(a, b, True)
        exact = signed_rank_counts(z, 0.01, cached_weights(500, prior=1.0, nsamples=6000, seed=2), bounds=False)
        assert (got.p_a, got.p_rope, got.p_b) == tuple(exact), shift


@pytest.mark.parametrize("case", range(6))
def test_steps_equal_the_first_index_of_the_full_step_matrix(case: int) -> None:
    """The step columns (searchsorted guesses, checked and repaired by the binary search) equal the
    first j of each row of the full predicate matrix in exact decimal arithmetic, with sums that
    round across 2 rope in binary (values one ulp apart, 0.1 + 0.2, ties)."""
    from stats.folds._signed_rank_engine import _steps

    rng = np.random.default_rng(600 + case)
    m = int(rng.integers(1, 200))
    rope = float(rng.choice([0.0, 0.005, 0.01, 0.1, 0.15]))
    base = rng.choice([0.0, 0.1, 0.2, 0.3, 0.005, 0.01, 0.015, -0.01, -0.1, -0.2], m)
    z = base + rng.choice([0.0, 0.0, 1.0, -1.0], m) * np.spacing(np.abs(base) + 1e-300)
    steps = _steps(z, rope)
    up, down = _decimal_signs(steps.v, 2 * rope), _decimal_signs(steps.v, -2 * rope)  # exact decimal
    n = steps.v.size

    def first(mask: np.ndarray) -> np.ndarray:
        return np.where(mask.any(axis=1), mask.argmax(axis=1), n)

    assert np.array_equal(steps.a1, first(up > 0))
    assert np.array_equal(steps.ah, first(up >= 0))
    if rope > 0:
        assert np.array_equal(steps.b1, first(down >= 0))
        assert np.array_equal(steps.bh, first(down > 0))


@pytest.mark.parametrize("unit", [1e-160, 1e-200, 1e-300])
def test_tiny_results_give_the_statistics_of_any_other_unit(unit: float) -> None:
    # a t statistic is a ratio: results in units of 1e-300 must read as in units of 1 (their
    # squared differences underflow: t was inf and p 0, "significant" on pure noise)
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.8, 0.02, 50), rng.normal(0.79, 0.02, 50)
    t, small = corrected_ttest(a, b, folds=10), corrected_ttest(a * unit, b * unit, folds=10)
    assert small.statistic == pytest.approx(t.statistic, rel=1e-12)
    assert small.pvalue == pytest.approx(t.pvalue, rel=1e-12)
    post = bayes_correlated_ttest(a, b, folds=10, rope=0.01)
    tiny = bayes_correlated_ttest(a * unit, b * unit, folds=10, rope=0.01 * unit)
    for got, want in [(tiny.p_a, post.p_a), (tiny.p_rope, post.p_rope), (tiny.p_b, post.p_b)]:
        assert got == pytest.approx(want, rel=1e-9)
    # and a rope of ordinary size holds all of such differences
    assert bayes_correlated_ttest(a * unit, b * unit, folds=10, rope=0.01).p_rope == 1.0
