"""Ties at each value's own scale (issue 9): results must not change with a row's magnitude or an
offset; impossible average ranks are refused; an underflowed p-value is printed as a bound.

Expected values come from the issue (computed there with scipy on the same data) and from scipy
here, never from this package's own output."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import stats
from stats.core._format import fmt_p

# --- issue 9, item 1: a row of small values next to a row of huge ones -----------------------

MSE = pd.DataFrame(
    {
        "ridge": [2.41e9, 0.0123, 0.0210, 0.0098, 0.0150, 0.0301],
        "rf": [2.18e9, 0.0131, 0.0224, 0.0105, 0.0162, 0.0322],
        "gbm": [2.05e9, 0.0140, 0.0236, 0.0111, 0.0171, 0.0339],
    },
    index=[f"d{i}" for i in range(6)],
)


def test_small_rows_next_to_a_huge_one_keep_their_ranks() -> None:
    r = stats.ranks(MSE, higher_is_better=False)
    assert r.iloc[1:].to_numpy().tolist() == [[1.0, 2.0, 3.0]] * 5  # was 2, 2, 2 on every small row
    assert r.iloc[0].tolist() == [3.0, 2.0, 1.0]
    fr = stats.friedman(MSE, higher_is_better=False)
    expected = sps.friedmanchisquare(*(MSE[c].to_numpy() for c in MSE.columns))
    assert fr.statistic == pytest.approx(5.333333333333, abs=1e-9)  # was 0.333 (p = 0.8465)
    assert fr.statistic == pytest.approx(expected.statistic, abs=1e-12)
    assert fr.pvalue == pytest.approx(expected.pvalue, abs=1e-12)
    assert round(fr.pvalue, 4) == 0.0695
    alone = stats.friedman(MSE.iloc[1:], higher_is_better=False)
    assert round(alone.pvalue, 4) == 0.0067


def test_wilcoxon_sign_test_and_contrasts_see_the_small_rows() -> None:
    w = stats.wilcoxon(MSE["ridge"], MSE["gbm"], higher_is_better=False)
    assert w.pvalue == pytest.approx(0.4375, abs=1e-12)  # was 1.0: five differences counted as zeros
    d = MSE["gbm"] - MSE["ridge"]
    assert w.pvalue == pytest.approx(sps.wilcoxon(d, method="exact").pvalue, abs=1e-12)
    s = stats.sign_test(MSE["ridge"], MSE["gbm"], higher_is_better=False)
    assert s.pvalue == pytest.approx(sps.binomtest(5, 6).pvalue, abs=1e-12)  # 5 of 6 for ridge, no ties
    c = stats.contrast_estimation(MSE.iloc[1:], higher_is_better=False)
    assert c.loc["ridge", "rf"] < 0 and c.loc["rf", "gbm"] < 0  # real differences, not zeros
    wlt = stats.ttest_win_loss_tie(MSE.iloc[1:], higher_is_better=False)
    assert wlt.loc["ridge", "win"] == 2  # ridge significantly better than both (t-test over data sets)


# --- issue 9, item 2: an offset must not change a tie -----------------------------------------


def test_wilcoxon_is_unchanged_by_an_offset() -> None:
    a, b = np.array([1000.54, 1000.54, 1000.66]), np.array([1000.49, 1000.59, 1000.71])
    shifted = stats.wilcoxon(a - 1000, b - 1000).pvalue
    assert stats.wilcoxon(a, b).pvalue == pytest.approx(shifted, abs=1e-12)  # was 0.5 against 1.0
    # d = -0.05, 0.05, 0.05: |d| all tied (mid-rank 2), R+ = 4. The exact permutation distribution
    # of R+ over the 8 sign patterns is 0, 2, 2, 2, 4, 4, 4, 6: every pattern is at least as
    # extreme as min(R+, R-) = 2, so p = 1 (scipy's "exact" ignores ties and says 0.75).
    assert shifted == 1.0


def test_quade_and_aligned_ranks_are_unchanged_by_an_offset() -> None:
    q = np.array([[0.7, 0.68, 0.61], [0.75, 0.71, 0.78], [0.63, 0.56, 0.6]])
    assert stats.quade(q + 1000).pvalue == pytest.approx(stats.quade(q).pvalue, abs=1e-12)  # 0.2999 vs 0.3906
    a = np.array([[0.64, 0.74, 0.7], [0.53, 0.68, 0.54]])
    assert stats.friedman_aligned(a + 1000).statistic == pytest.approx(stats.friedman_aligned(a).statistic, abs=1e-12)
    # the ranges 0.09 and 0.07 of q are exact in decimal; Quade's weights rank them 2, 3, 1
    assert stats.quade(q).pvalue == pytest.approx(stats.quade(np.round(q * 100)).pvalue, abs=1e-12)


# --- issue 9, item 3: impossible average ranks ------------------------------------------------


@pytest.mark.parametrize(
    "ranks",
    [[3, 3, 3], [1, 1, 3], [0.5, 2.0, 3.5], [1.2, 2.2, 3.2]],
    ids=["all-worst", "sum-too-small", "out-of-range", "sum-off-by-0.6"],
)
def test_impossible_average_ranks_are_refused(ranks: list[float]) -> None:
    with pytest.raises(ValueError, match="average ranks"):
        stats.friedman(stats.AverageRanks(ranks, n=30))


def test_control_test_from_impossible_ranks_is_refused() -> None:
    with pytest.raises(ValueError, match=r"average ranks must lie in \[1, 3\]"):
        stats.control_test_from_ranks([10, 2, 3], 30, "L1")  # gave p = 8.9e-211
    with pytest.raises(ValueError, match="must sum to"):
        stats.pairwise_test_from_ranks([1, 1, 1], 30)


def test_printed_average_ranks_are_accepted() -> None:
    # Menzies' notes print 3.143, 2.000, 2.893, 1.964 (sum 10.000) and Demsar's tables two decimals
    stats.AverageRanks([3.143, 2.000, 2.893, 1.964], n=14)
    stats.AverageRanks([3.14, 2.0, 2.9, 1.97], n=14)  # sum 10.01: printed rounding
    # aligned ranks rank all kN cells: average ranks lie in [1, kN] and sum to k(kN + 1)/2
    stats.pairwise_test_from_ranks([25.0, 30.0, 36.5], 20, test="aligned")  # 3 (60 + 1) / 2 = 91.5
    with pytest.raises(ValueError, match="must sum to 91.5"):
        stats.pairwise_test_from_ranks([25.0, 30.0, 40.0], 20, test="aligned")


# --- issue 9, items 4 and 5: tiny magnitudes, underflow --------------------------------------


def test_tiny_magnitudes_rank_like_any_others() -> None:
    t = np.array([[0.3, 0.1, 0.2], [0.5, 0.6, 0.4], [0.9, 0.7, 0.8]])
    expected = stats.ranks(t)
    for factor in (1e-300, 1e-305, 1e-310):
        pd.testing.assert_frame_equal(stats.ranks(t * factor), expected)
    assert stats.friedman(t * 1e-300).statistic == pytest.approx(stats.friedman(t).statistic, abs=1e-12)


def test_an_underflowed_p_value_is_printed_as_a_bound() -> None:
    n, k = 2000, 5
    table = np.tile(np.arange(k, dtype=float), (n, 1))  # the same order on every data set
    fr = stats.friedman(table)
    assert fr.pvalue == 0.0  # chi2(4) = 8000: the true p is about 1e-1700, below any double
    assert "p < 1e-300" in str(fr) and "p = 0" not in str(fr)
    assert fmt_p(0.0) == "<1e-300" and fmt_p(1e-301) == "<1e-300" and fmt_p(2e-300) == "2.000e-300"
    assert "p < 1e-300" in stats.verdict(table).message


# --- properties -------------------------------------------------------------------------------

# Tables of 4-decimal values (ties happen), 4-8 data sets x 3-5 learners.
tables = st.integers(4, 8).flatmap(
    lambda n: st.integers(3, 5).flatmap(
        lambda k: st.lists(st.lists(st.integers(0, 30), min_size=k, max_size=k), min_size=n, max_size=n)
    )
)


def _with_row_scaled(t: list[list[int]], row: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    x = np.array(t, dtype=float) / 1000.0 + 0.5
    y = x.copy()
    y[row % len(y)] *= 10.0**m
    return x, y


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(tables, st.integers(0, 100), st.integers(-12, 12), st.booleans())
def test_row_scaling_leaves_within_row_procedures_unchanged(t, row, m, higher) -> None:  # noqa: ANN001
    x, y = _with_row_scaled(t, row, m)
    pd.testing.assert_frame_equal(stats.ranks(x, higher_is_better=higher), stats.ranks(y, higher_is_better=higher))
    for test in (stats.friedman, stats.iman_davenport):
        a, b = test(x, higher_is_better=higher), test(y, higher_is_better=higher)
        assert a.statistic == pytest.approx(b.statistic, abs=1e-12, nan_ok=True)
        assert a.pvalue == pytest.approx(b.pvalue, abs=1e-12, nan_ok=True)
    pd.testing.assert_frame_equal(
        stats.pairwise_test(x, higher_is_better=higher).table,
        stats.pairwise_test(y, higher_is_better=higher).table,
        atol=1e-12,
    )
    a, b = stats.sign_test(x[:, 0], x[:, 1]), stats.sign_test(y[:, 0], y[:, 1])
    assert (a.statistic, a.pvalue) == pytest.approx((b.statistic, b.pvalue), abs=1e-12)
    ms_a = stats.multiple_sign_test(x, "L1", higher_is_better=higher)
    ms_b = stats.multiple_sign_test(y, "L1", higher_is_better=higher)
    assert str(ms_a) == str(ms_b)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(tables, st.sampled_from([1.0, 10.0, 1000.0, 1e5, -1000.0]))
def test_an_offset_leaves_every_procedure_unchanged(t, offset) -> None:  # noqa: ANN001
    x = np.array(t, dtype=float) / 1000.0 + 0.5
    y = x + offset
    for test in (stats.friedman, stats.iman_davenport, stats.friedman_aligned, stats.quade):
        a, b = test(x), test(y)
        assert a.statistic == pytest.approx(b.statistic, abs=1e-12, nan_ok=True), test.__name__
        assert a.pvalue == pytest.approx(b.pvalue, abs=1e-12, nan_ok=True), test.__name__
    for test in (stats.wilcoxon, stats.sign_test):
        a, b = test(x[:, 0], x[:, 1]), test(y[:, 0], y[:, 1])
        assert a.pvalue == pytest.approx(b.pvalue, abs=1e-12), test.__name__
    # contrasts are means of medians (thirds, sixths): rounded at 12 digits of the scores' scale,
    # 1e-8 at 1000.5 and 1e-6 at 1e5
    pd.testing.assert_frame_equal(stats.contrast_estimation(x), stats.contrast_estimation(y), atol=1e-6, rtol=0)
    pd.testing.assert_frame_equal(stats.ttest_win_loss_tie(x), stats.ttest_win_loss_tie(y))


# 4-decimal values, distinct within a data set (no within-row ties).
continuous = st.integers(5, 9).flatmap(
    lambda n: st.lists(st.lists(st.integers(1, 9999), min_size=3, max_size=3, unique=True), min_size=n, max_size=n)
)


@settings(max_examples=100, deadline=None)
@given(continuous)
def test_without_decimal_ties_the_results_equal_scipys(t) -> None:  # noqa: ANN001
    x = np.array(t) / 1e4
    d = x[:, 1] - x[:, 0]
    pooled = np.round(x[:, :2].ravel(), 9)
    # no decimal tie among |d| or the pooled sample (scipy would break it by binary noise)
    assume(len(np.unique(np.round(np.abs(d), 9))) == len(d) and len(np.unique(pooled)) == len(pooled))
    fr = stats.friedman(x)
    ref = sps.friedmanchisquare(*x.T)
    assert fr.statistic == pytest.approx(ref.statistic, abs=1e-10)
    assert fr.pvalue == pytest.approx(ref.pvalue, abs=1e-12)
    assert stats.wilcoxon(x[:, 0], x[:, 1], method="exact").pvalue == pytest.approx(
        sps.wilcoxon(d, method="exact").pvalue, abs=1e-12
    )
    u = stats.mann_whitney(x[:, 0], x[:, 1], method="exact")
    assert u.pvalue == pytest.approx(sps.mannwhitneyu(x[:, 0], x[:, 1], method="exact").pvalue, abs=1e-12)
    wins = int((d > 0).sum())
    assert stats.sign_test(x[:, 0], x[:, 1]).pvalue == pytest.approx(sps.binomtest(wins, len(d)).pvalue, abs=1e-12)


# --- issue 9, item 6: library manners ---------------------------------------------------------


def test_verdict_keeps_labels_as_given() -> None:
    t = pd.DataFrame(np.tile([[0.1, 0.5, 0.9]], (12, 1)) + np.arange(12)[:, None] * 0.001, columns=[0, 1, 2])
    v = stats.verdict(t, rule="nemenyi")
    assert v.outcome == "different" and v.losers == (1, 0) and v.best == 2  # were ("1", "0") and "2"
    assert all(isinstance(x, int) for x in v.winners + v.losers)


def test_verdicts_old_test_keyword_still_works_with_a_warning() -> None:
    t = np.tile([[0.1, 0.5, 0.9]], (12, 1))
    with pytest.warns(DeprecationWarning, match="omnibus"):
        old = stats.verdict(t, test="iman_davenport")
    assert old.message == stats.verdict(t, omnibus="iman_davenport").message


def test_multiple_sign_test_takes_multiindex_columns() -> None:
    cols = pd.MultiIndex.from_tuples([("a", "x"), ("b", "y"), ("c", "z")])
    t = pd.DataFrame(np.random.default_rng(0).uniform(size=(8, 3)), columns=cols)
    res = stats.multiple_sign_test(t, ("a", "x"))  # "Names should be list-like for a MultiIndex"
    assert list(res.table.index) == [("b", "y"), ("c", "z")]


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_booleans_are_strict(value: object) -> None:
    t = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match="tie_correction must be True or False"):
        stats.friedman(t, tie_correction=value)  # "yes" was taken as True
    with pytest.raises(ValueError, match="tie_correction must be True or False"):
        stats.quade(t, tie_correction=value)
    with pytest.raises(ValueError, match="higher_is_better must be True or False"):
        stats.wilcoxon([1.0, 2.0], [2.0, 3.0], higher_is_better=value)


def test_a_ragged_table_is_named_as_such() -> None:
    with pytest.raises(ValueError, match="rectangular table"):
        stats.friedman([[1, 2, 3], [1, 2]])  # was numpy's "inhomogeneous shape after 1 dimensions"


def test_omnibus_results_share_their_fields() -> None:
    t = np.random.default_rng(1).uniform(size=(7, 4))
    for result in (stats.friedman(t), stats.iman_davenport(t), stats.friedman_aligned(t), stats.quade(t)):
        assert (result.n, result.k) == (7, 4), type(result).__name__
        assert result.ranks is not None and len(result.ranks) == 4
        assert np.isfinite(result.statistic) and 0 <= result.pvalue <= 1 and result.df is not None


def test_results_print_themselves_in_notebooks() -> None:
    class Pretty:  # IPython's printer protocol: text()
        def __init__(self) -> None:
            self.out = ""

        def text(self, s: str) -> None:
            self.out += s

    t = np.random.default_rng(2).uniform(size=(7, 4))
    for result in (stats.friedman(t), stats.wilcoxon(t[:, 0], t[:, 1]), stats.verdict(t)):
        p = Pretty()
        result._repr_pretty_(p, False)
        assert p.out == str(result)
        assert result._repr_html_().startswith("<pre>") and "Series" not in result._repr_html_()
    ms = stats.multiple_sign_test(t, "L1")
    assert "<table" in ms._repr_html_()  # a result with a table shows it
