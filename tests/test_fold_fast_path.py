"""The fast path of the folds view's control toggle (issue 14, bar (b)): ``stats.fold_comparison``
against any control from a kept ``FoldCube`` gives, bit for bit, what the straightforward
per-learner, per-data-set calls give (``corrected_ttest``, ``bayes_correlated_ttest`` on each
pair's results, ``bayes_signed_rank`` on each learner's means); the shared Dirichlet weights are
the draws of a fresh generator with the same seed, whichever control or learner asks first; and
the comparison of B against A is that of A against B with the signs and sides swapped."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats
from stats.folds import _signed_rank_engine as _signed_rank
from stats.folds import comparisons as fc
from stats.folds.signed_rank import bayes_signed_rank
from stats.folds.ttests import bayes_correlated_ttest, corrected_ttest

R, N = 3, 5


def _log(seed: int, datasets: int = 40, learners: int = 6) -> pd.DataFrame:
    """Accuracies with 3 decimals (ties) on even data sets and full precision on odd ones (where
    rounding at the pair's scale, not at the smaller value's, changes the 12th digit), a spread of
    scales (0.05 .. 1.0: values whose exponents differ from their pair's, so the pair's scale is
    the other value's) and learner effects from clear to close to the rope."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(datasets):
        base = rng.uniform(0.05, 0.99)
        for k in range(learners):
            for r in range(R):
                for f in range(N):
                    value = base + 0.008 * k + rng.normal(0.0, 0.04)
                    value = np.clip(round(value, 3) if d % 2 == 0 else value, 0.0, 1.0)
                    rows.append((f"d{d:02d}", r + 1, f + 1, f"l{k}", "acc", float(value)))
    return pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])


def _straightforward(log: pd.DataFrame, control: str, rope: float, higher_is_better: bool, nsamples: int) -> tuple:
    """Every (data set, learner) pair through the per-pair functions, and every learner's
    signed-rank test on its per-data-set means (the mean of the R x N results in (repeat, fold)
    order, as numpy sums them), data sets in the log's order."""
    log = log.sort_values(["repeat", "fold"], kind="stable")
    datasets = list(dict.fromkeys(log["dataset"]))
    learners = [x for x in dict.fromkeys(log["learner"]) if x != control]
    per: dict = {part: frame for part, frame in log.groupby(["dataset", "learner"], sort=False)}
    table, totals = {}, {}
    for learner in learners:
        xm, ym = [], []
        for d in datasets:
            a, b = per[(d, learner)]["value"].to_numpy(), per[(d, control)]["value"].to_numpy()
            t = corrected_ttest(a, b, folds=N, higher_is_better=higher_is_better)
            q = bayes_correlated_ttest(a, b, folds=N, rope=rope, higher_is_better=higher_is_better)
            table[(d, learner)] = (t.mean_difference, t.statistic, t.pvalue, q.p_a, q.p_rope, q.p_b)
            xm.append(a.sum() / a.size)
            ym.append(b.sum() / b.size)
        s = bayes_signed_rank(
            np.array(xm), np.array(ym), rope=rope, nsamples=nsamples, seed=0, higher_is_better=higher_is_better
        )
        totals[learner] = (s.p_a, s.p_rope, s.p_b)
    return table, totals


@pytest.mark.parametrize(("seed", "rope", "higher_is_better"), [(1, 0.01, True), (2, 0.0, False), (3, 0.02, True)])
def test_every_control_from_one_cube_equals_the_per_pair_calls_bit_for_bit(
    seed: int, rope: float, higher_is_better: bool
) -> None:
    log = _log(seed)
    cube = stats.fold_cube(log, "acc")  # made once, as the explorer keeps it, then every control
    for control in ["l0", "l3", "l5"]:
        got = stats.fold_comparison(cube, "acc", control, rope=rope, higher_is_better=higher_is_better, nsamples=3000)
        table, totals = _straightforward(log, control, rope, higher_is_better, 3000)
        assert len(got.table) == len(table)
        columns = ["mean_difference", "statistic", "pvalue", "p_better", "p_equivalent", "p_worse"]
        for key, row in zip(got.table.index, got.table[columns].itertuples(index=False)):
            assert tuple(row) == table[key], (control, key)  # ==: every bit
        for learner, row in got.totals[["p_better", "p_equivalent", "p_worse"]].iterrows():
            assert tuple(row) == totals[learner], (control, learner)


def test_the_vectorised_means_differences_equal_the_per_learner_ones() -> None:
    from stats.folds.ttests import _paired

    rng = np.random.default_rng(7)
    xm = np.round(rng.uniform(0.0, 1.2, (300, 7)), 4) + rng.choice([0.0, 1e-13, 1e3], (300, 7))
    ym = np.round(rng.uniform(0.0, 1.2, 300), 4)
    for higher in (True, False):
        z = fc._paired_means(xm, np.broadcast_to(ym[:, None], xm.shape), higher)
        for k in range(xm.shape[1]):
            assert np.array_equal(z[:, k], _paired(xm[:, k], ym, higher)), k


def test_the_cubes_row_sums_are_the_sums_of_each_learners_results() -> None:
    cube = stats.fold_cube(_log(4), "acc")
    for c in range(len(cube.lnames)):
        others = [k for k in range(len(cube.lnames)) if k != c]
        assert np.array_equal(cube.row_sums[:, others], cube.values[:, others, :].sum(axis=2))
        assert np.array_equal(cube.row_sums[:, c], cube.values[:, c, :].sum(axis=1))


def test_shared_weights_are_the_draws_of_the_seed_whoever_asks_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """One draw per (m, prior, nsamples, seed) serves every learner and every control: the kept
    weights equal a fresh draw of the seed, so a control compared after another gives the
    digits it gives in a fresh process (the cache emptied before each call)."""
    log = _log(5)
    cube = stats.fold_cube(log, "acc")
    m = len(cube.dnames)
    monkeypatch.setattr(_signed_rank, "_weight_cache", type(_signed_rank._weight_cache)())
    kept = _signed_rank.cached_weights(m, prior=1.0, nsamples=2000, seed=0)
    fresh = _signed_rank.weights_by_value(_signed_rank.dirichlet_weights(m, prior=1.0, nsamples=2000, seed=0))
    assert np.array_equal(kept, fresh)
    in_turn = [stats.fold_comparison(cube, "acc", c, nsamples=2000).totals for c in ("l1", "l4", "l1")]
    alone = []
    for c in ("l1", "l4"):
        _signed_rank._weight_cache.clear()
        alone.append(stats.fold_comparison(cube, "acc", c, nsamples=2000).totals)
    pd.testing.assert_frame_equal(in_turn[0], alone[0], check_exact=True)
    pd.testing.assert_frame_equal(in_turn[1], alone[1], check_exact=True)
    pd.testing.assert_frame_equal(in_turn[2], alone[0], check_exact=True)


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_b_against_a_is_a_against_b_swapped(rope: float) -> None:
    """The per-data-set results of the pair are antisymmetric: the mean difference and t change
    sign and the p-value stays, exactly (the rounded differences are exact negatives: rint is
    symmetric; so are the moments); P(better) and P(worse) swap, exactly with a rope; P(equivalent)
    stays to an ulp. (So a toggle from A to B could reuse the pair (A, B): one learner of the
    19; the other learners' pairs with B are new.)"""
    cube = stats.fold_cube(_log(6), "acc")
    ab = stats.fold_comparison(cube, "acc", "l0", rope=rope, nsamples=1).table.xs("l2", level="learner")
    ba = stats.fold_comparison(cube, "acc", "l2", rope=rope, nsamples=1).table.xs("l0", level="learner")
    assert np.array_equal(ba["mean_difference"], -ab["mean_difference"])
    assert np.array_equal(ba["statistic"], -ab["statistic"])
    assert np.array_equal(ba["pvalue"], ab["pvalue"])
    assert list(ba["mark"]) == [{"v": "*", "*": "v", "": ""}[m] for m in ab["mark"]]
    if rope > 0:  # P(mu > rope) of -mu is P(mu < -rope): the same Student cdf at the same point
        assert np.array_equal(ba["p_better"], ab["p_worse"]) and np.array_equal(ba["p_worse"], ab["p_better"])
    else:  # P(worse) is 1 - P(better): swapped within the rounding of that subtraction
        np.testing.assert_allclose(ba["p_better"], ab["p_worse"], rtol=0, atol=1e-15)
        np.testing.assert_allclose(ba["p_worse"], ab["p_better"], rtol=0, atol=1e-15)
    # 1 - p_a - p_b summed in the other order: within an ulp
    np.testing.assert_allclose(ba["p_equivalent"], ab["p_equivalent"], rtol=0, atol=1e-15)


@pytest.mark.parametrize("case", range(8))
def test_block_columns_from_the_values_steps_equal_those_from_the_block_sums(case: int) -> None:
    """The bounds' block columns read from the per-value steps equal those found by summing the
    blocks' smallest and largest values in floating point, on values one ulp apart, ties, sums
    that round across 2 rope, and random cuts."""
    rng = np.random.default_rng(900 + case)
    m = int(rng.integers(2, 400))
    rope = float(rng.choice([0.0, 0.005, 0.01, 0.1]))
    base = rng.choice([0.0, 0.1, 0.2, 0.3, 0.005, 0.01, 0.015, -0.01, -0.1, -0.2], m)
    if case % 2:
        base = base + rng.normal(0.0, 0.02, m)
    z = base + rng.choice([0.0, 0.0, 1.0, -1.0], m) * np.spacing(np.abs(base) + 1e-300)
    steps = _signed_rank._steps(z, rope)
    for _ in range(20):
        k = int(rng.integers(1, min(30, m + 1) + 1))
        cuts = np.unique(np.concatenate([[0, m + 1], rng.integers(1, m + 1, k - 1)]))
        assert np.array_equal(_signed_rank._block_cols(steps, cuts), _signed_rank._block_cols_by_sums(steps, cuts)), (
            cuts
        )


def test_a_forked_child_compares_with_its_own_pool() -> None:
    """The kept thread pool's threads do not survive a fork: a child process gets the same results
    instead of waiting forever (it makes its own pool; and the caller runs any job no thread has
    started, so either guard alone keeps it from hanging)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    cube = stats.fold_cube(_log(8, datasets=12, learners=3), "acc")
    here = stats.fold_comparison(cube, "acc", "l0", nsamples=2000).totals
    with multiprocessing.get_context("fork").Pool(1) as pool:
        there = pool.apply_async(_totals_in_child, (cube,)).get(timeout=120)
    pd.testing.assert_frame_equal(there, here, check_exact=True)


def _totals_in_child(cube: stats.FoldCube) -> pd.DataFrame:
    return stats.fold_comparison(cube, "acc", "l0", nsamples=2000).totals
