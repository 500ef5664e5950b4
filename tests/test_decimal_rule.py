"""The decimal rule (issue 26): on decimal data every decision -- a tie, a rope or threshold
boundary -- is the one exact decimal arithmetic makes.

Each site is checked two ways: against exact rational arithmetic (``fractions.Fraction`` of the
decimals the tables are written in), and by metamorphic relations (a decimal constant added to a
row, both samples shifted, data and rope scaled by 100) that must change nothing. Every test here
failed before the rule was applied at its site (aligned ranks: x - mean rounded at 12 digits;
the signed-rank rope: z_i + z_j against 2 rope in binary; PRED: 100 |p - a| against N |a| in
binary).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import stats
from stats.ranking.ranks import aligned_rank_matrix

# --------------------------------------------------------------------------- tables of decimals


def _decimal_table(rng: np.random.Generator) -> list[list[Fraction]]:
    """A random table of decimals of mixed kinds: accuracies with two or three decimals, some
    rows reaching 1.0 beside rows below it, rows x 1000, negative rows; k = 3..12 learners, with
    ties within rows (values on a coarse grid)."""
    n, k = int(rng.integers(2, 16)), int(rng.integers(3, 13))
    rows = []
    for _ in range(n):
        kind = int(rng.integers(0, 5))
        decimals = int(rng.choice([2, 3]))
        unit = 10**decimals
        mantissas = rng.integers(int(0.5 * unit), unit, size=k)  # 0.5 .. 0.99(9)
        mantissas = (mantissas // int(rng.choice([1, 5, 10]))) * int(rng.choice([1, 5, 10]))  # ties
        row = [Fraction(int(m), unit) for m in mantissas]
        if kind == 1:  # a row that reaches 1.0
            row[int(rng.integers(0, k))] = Fraction(1)
        elif kind == 2:  # a row x 1000 (runtimes in ms, say)
            row = [v * 1000 for v in row]
        elif kind == 3:  # negatives (a log-loss written as a negative score)
            row = [-v for v in row]
        rows.append(row)
    return rows


def _floats(rows: list[list[Fraction]]) -> np.ndarray:
    """The table as a log would hold it: each decimal read from its string (the nearest float)."""
    return np.array([[float(v) for v in row] for row in rows])


def _exact_aligned_ranks(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """Hodges & Lehmann's aligned ranks in exact arithmetic: x_ij - mean_i ranked over all cells,
    1 = the largest, ties averaged."""
    residuals = [[v - sum(row) / len(row) for v in row] for row in rows]
    cells = sorted((r for row in residuals for r in row), reverse=True)
    first: dict[Fraction, int] = {}
    count: dict[Fraction, int] = {}
    for position, r in enumerate(cells, start=1):
        first.setdefault(r, position)
        count[r] = count.get(r, 0) + 1
    return [[first[r] + Fraction(count[r] - 1, 2) for r in row] for row in residuals]


def test_aligned_ranks_equal_exact_arithmetic_on_1000_decimal_tables() -> None:
    rng = np.random.default_rng(2026)
    for case in range(1000):
        rows = _decimal_table(rng)
        got = aligned_rank_matrix(stats.ranked_table(_floats(rows)))
        want = _exact_aligned_ranks(rows)
        assert [[Fraction(float(v)) for v in row] for row in got] == want, case


def test_aligned_ranks_of_the_issue() -> None:
    # row 1 shifted by a constant (1.0 -> 0.99) must not change T (it was 0.217 against 0.202)
    first = stats.friedman_aligned([[1.0, 0.9, 0.9], [0.8, 0.7, 0.7], [0.6, 0.7, 0.8]])
    second = stats.friedman_aligned([[0.99, 0.89, 0.89], [0.8, 0.7, 0.7], [0.6, 0.7, 0.8]])
    assert first.statistic == second.statistic
    # exact: residuals (1/15, -1/30 x 2), (1/15, -1/30 x 2), (-0.1, 0, 0.1); T from the exact ranks
    decimals = (["1", ".9", ".9"], [".8", ".7", ".7"], [".6", ".7", ".8"])
    exact = _exact_aligned_ranks([[Fraction(v) for v in row] for row in decimals])
    got = aligned_rank_matrix(stats.ranked_table([[1.0, 0.9, 0.9], [0.8, 0.7, 0.7], [0.6, 0.7, 0.8]]))
    assert [[Fraction(float(v)) for v in row] for row in got] == exact


def _shift_one_row(rows: list[list[Fraction]], rng: np.random.Generator) -> list[list[Fraction]]:
    """The table with a decimal constant added to one row (every learner on that data set)."""
    i = int(rng.integers(0, len(rows)))
    c = Fraction(int(rng.integers(-300, 300)), int(rng.choice([100, 1000])))
    return [[v + c for v in row] if r == i else list(row) for r, row in enumerate(rows)]


@pytest.mark.parametrize("case", range(60))
def test_a_constant_added_to_a_row_changes_no_aligned_rank_quade_or_wilcoxon_result(case: int) -> None:
    rng = np.random.default_rng(500 + case)
    rows = _decimal_table(rng)
    shifted = _shift_one_row(rows, rng)
    x, y = _floats(rows), _floats(shifted)
    k = x.shape[1]
    learners = [f"L{j}" for j in range(k)]
    a, b = pd.DataFrame(x, columns=learners), pd.DataFrame(y, columns=learners)
    assert np.array_equal(aligned_rank_matrix(stats.ranked_table(a)), aligned_rank_matrix(stats.ranked_table(b)))
    first, second = stats.friedman_aligned(a), stats.friedman_aligned(b)
    assert (first.statistic, first.pvalue) == (second.statistic, second.pvalue)
    if x.shape[0] >= 2:
        first, second = stats.quade(a), stats.quade(b)
        assert (first.statistic, first.pvalue) == (second.statistic, second.pvalue)
        ours = stats.control_test(a, "L0", test="aligned").table
        theirs = stats.control_test(b, "L0", test="aligned").table
        pd.testing.assert_frame_equal(ours, theirs, check_exact=True)
    one, other = stats.wilcoxon(x[:, 0], x[:, 1]), stats.wilcoxon(y[:, 0], y[:, 1])
    assert (one.statistic, one.pvalue) == (other.statistic, other.pvalue)


# --------------------------------------------------------------------------- signed-rank rope


def _exact_signed_rank(z: list[Fraction], rope: Fraction, w: np.ndarray) -> tuple[float, float, float]:
    """The Bayesian signed-rank probabilities by the double sum (Benavoli et al. 2014, Sec. 3) with
    every step [z_i + z_j > 2 rope] (1/2 at the bound) decided in exact arithmetic."""
    values = [Fraction(0), *z]

    def step(s: Fraction) -> float:
        return 1.0 if s > 0 else 0.5 if s == 0 else 0.0

    above = np.array([[step(u + v - 2 * rope) for v in values] for u in values])
    below = np.array([[step(-(u + v) - 2 * rope) for v in values] for u in values])
    theta_a = np.einsum("si,ij,sj->s", w, above, w)
    theta_b = np.einsum("si,ij,sj->s", w, below, w)
    winner = np.argmax(np.column_stack([theta_a, 1.0 - theta_a - theta_b, theta_b]), axis=1)
    return tuple(np.bincount(winner, minlength=3) / len(winner))  # type: ignore[return-value]


def test_signed_rank_rope_boundary_of_the_issue() -> None:
    from stats.folds._signed_rank_engine import dirichlet_weights

    a, b = [0.511, 0.509, 0.511, 0.509, 0.53], [0.5] * 5
    z = [Fraction(x) - Fraction("0.5") for x in ("0.511", "0.509", "0.511", "0.509", "0.53")]
    for prior in (1.0, 0.5):
        w = dirichlet_weights(5, prior=prior, nsamples=4000, seed=3)
        want = _exact_signed_rank(z, Fraction("0.01"), w)
        got = stats.bayes_signed_rank(a, b, rope=0.01, prior=prior, nsamples=4000, seed=3)
        assert (got.p_a, got.p_rope, got.p_b) == want, prior
    # the figures of the issue (prior 1, 50,000 samples): 0.55 / 0.45 by the decimal rule
    got = stats.bayes_signed_rank(a, b, rope=0.01, prior=1.0)
    assert (round(got.p_a, 2), round(got.p_rope, 2), got.p_b) == (0.55, 0.45, 0.0)


@pytest.mark.parametrize("case", range(20))
def test_signed_rank_is_unchanged_by_shifts_and_by_scaling_data_and_rope(case: int) -> None:
    rng = np.random.default_rng(900 + case)
    m = int(rng.integers(3, 40))
    # two-decimal accuracies whose differences often sum exactly to +-2 rope
    b = rng.integers(50, 95, m)
    a = b + rng.choice([-2, -1, 0, 1, 2, 3], m)
    rope = Fraction(int(rng.choice([1, 2])), 100)
    base = stats.bayes_signed_rank(a / 100, b / 100, rope=float(rope), nsamples=3000, seed=case)
    shift = Fraction(int(rng.integers(-40, 40)), 100)
    moved = stats.bayes_signed_rank(
        [float(Fraction(int(v), 100) + shift) for v in a],
        [float(Fraction(int(v), 100) + shift) for v in b],
        rope=float(rope),
        nsamples=3000,
        seed=case,
    )
    scaled = stats.bayes_signed_rank(a.astype(float), b.astype(float), rope=float(rope * 100), nsamples=3000, seed=case)
    assert (base.p_a, base.p_rope, base.p_b) == (moved.p_a, moved.p_rope, moved.p_b)
    assert (base.p_a, base.p_rope, base.p_b) == (scaled.p_a, scaled.p_rope, scaled.p_b)


def test_the_folds_view_applies_the_same_rope_rule() -> None:
    """stats.fold_comparison's signed-rank totals, on per-data-set means whose differences sum to
    2 rope exactly, equal the exact double sum (the same weights: prior 0.5, as the default)."""
    from stats.folds._signed_rank_engine import dirichlet_weights

    rows = []
    means = {"A": [0.611, 0.609, 0.611, 0.609, 0.63], "B": [0.6] * 5}
    for d in range(5):
        for learner, values in means.items():
            for fold in (1, 2):
                rows.append((f"d{d}", 1, fold, learner, "acc", values[d]))
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    result = stats.fold_comparison(log, "acc", "B", rope=0.01, nsamples=4000, seed=5)
    z = [Fraction(v) - Fraction("0.6") for v in ("0.611", "0.609", "0.611", "0.609", "0.63")]
    want = _exact_signed_rank(z, Fraction("0.01"), dirichlet_weights(5, prior=0.5, nsamples=4000, seed=5))
    row = result.totals.loc["A"]
    assert (row["p_better"], row["p_equivalent"], row["p_worse"]) == want


# --------------------------------------------------------------------------- PRED(N)


def test_pred_counts_an_mre_of_exactly_n_percent_at_any_scale() -> None:
    assert stats.pred([0.3], [0.39], 30) == 1.0  # 0.0 before: 100 * 0.09000000000000002 > 9
    assert stats.pred([100], [130], 30) == 1.0
    assert stats.pred([0.3], [0.21], 30) == 1.0
    assert stats.pred([0.3], [0.3900001], 30) == 0.0
    assert stats.pred([7.77], [10.101], 30) == 1.0  # 2.331 / 7.77 = 0.3 exactly


def test_pred_equals_exact_arithmetic_on_random_two_decimal_tables() -> None:
    rng = np.random.default_rng(4)
    changed = 0
    for _ in range(400):
        actual = rng.integers(1, 400, 30)
        # predictions near actual * (1 +- N%): many MREs exactly at the threshold
        n = int(rng.choice([25, 30]))
        sign = rng.choice([-1, 1, 0], 30)
        predicted = actual + sign * (actual * n // 100) + rng.choice([0, 0, 1, -1], 30)
        want = sum(100 * abs(Fraction(int(p), 100) - Fraction(int(t), 100)) <= n * Fraction(int(t), 100)
                   for t, p in zip(actual, predicted)) / 30
        got = stats.pred(actual / 100, predicted / 100, n)
        assert got == pytest.approx(want, abs=0), (actual, predicted, n)
        naive = float(np.mean(100.0 * np.abs(predicted / 100 - actual / 100) <= n * (actual / 100)))
        changed += naive != want
    assert changed > 0  # not vacuous: binary arithmetic decides some of these tables otherwise


@pytest.mark.parametrize("case", range(20))
def test_pred_is_unchanged_by_the_units(case: int) -> None:
    """PRED(N) of the same decimals written in other units (x 1000, / 100) is the same."""
    rng = np.random.default_rng(70 + case)
    actual = rng.integers(1, 500, 30)
    n = int(rng.choice([25, 30]))
    predicted = actual + rng.choice([-1, 1], 30) * (actual * n // 100) + rng.choice([0, 0, 1], 30)
    base = stats.pred(actual / 100, predicted / 100, n)
    for scale in (Fraction(1000), Fraction(1, 100), Fraction(7, 10)):
        a = [float(Fraction(int(v), 100) * scale) for v in actual]
        p = [float(Fraction(int(v), 100) * scale) for v in predicted]
        assert stats.pred(a, p, n) == base, scale


# --------------------------------------------------------------------------- learning-curve effect bound


def test_plateau_effect_bound_is_decided_exactly_when_lower_is_better() -> None:
    """A later size whose A12 (probability of a lower value, ties half) is exactly 0.66 = 412.5 of
    625 pairs, significant by the one-sided Mann-Whitney test (p = 0.027), meets an effect bound of
    0.66: the curve is still improving. In binary, 1 - 0.34 is 0.6599999999999999 and it did not."""
    here = np.arange(25, dtype=float)
    later = np.array(
        [1.5, 6.5, 2.5, 7.5, 10.5, 10.5, 4.5, 4.5, 0.5, 21.5, 3.5, 9.5, 12.5, 7.5, 3.5, 0.5, 14.5, 4.5,
         22.5, 14.5, -0.5, 0.5, 10.5, 24.5, 2.0]
    )
    better_pairs = sum((b < a) + 0.5 * (b == a) for a in here for b in later)  # later is lower: better
    assert Fraction(better_pairs) / 625 == Fraction("0.66")
    result = stats.plateau([1] * 25 + [2] * 25, np.concatenate([here, later]), higher_is_better=False, effect=0.66)
    assert not result.reached and result.size == 2.0
