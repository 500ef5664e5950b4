"""Friedman, Iman-Davenport, aligned ranks and Quade against published figures and scipy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats as sps
from scipy.stats import rankdata

import stats

MENZIES_RANKS = [3.143, 2.000, 2.893, 1.964]


def test_menzies_figures_follow_from_the_printed_average_ranks() -> None:
    # Menzies' notes (after Demsar 2006): chi2 = 9.28, F_F = 3.69 "from the printed average ranks"
    r = stats.AverageRanks(MENZIES_RANKS, n=14)
    assert round(stats.friedman(r).statistic, 2) == 9.28
    assert round(stats.iman_davenport(r).statistic, 2) == 3.69


def test_menzies_misprint_table_values_rank_differently(c45: pd.DataFrame) -> None:
    # Known misprint (1): the printed table, rounded to three decimals, ranks to
    # 3.143, 2.000, 2.929, 1.929 (voting's 0.975 tie) and gives chi2 = 9.857, F_F = 3.987.
    fr = stats.friedman(c45)
    assert fr.ranks.round(3).tolist() == [3.143, 2.000, 2.929, 1.929]
    assert round(fr.statistic, 3) == 9.857
    assert round(stats.iman_davenport(c45).statistic, 3) == 3.987


def test_garcia_2010_24_data_sets(gh2010: pd.DataFrame) -> None:
    fr = stats.friedman(gh2010)
    assert fr.ranks.round(3).tolist() == [1.771, 2.479, 2.479, 3.271]
    assert round(fr.statistic, 3) == 16.225
    idv = stats.iman_davenport(gh2010)
    assert round(idv.statistic, 3) == 6.691
    assert idv.df == (3, 69)
    assert round(idv.pvalue, 6) == 0.000497


def test_garcia_2010_aligned_ranks_misprint(gh2010: pd.DataFrame) -> None:
    # Known misprint (2): the slide's T = 18.837 is not reproducible (scmamp's authors
    # report a bug in the original software). Treating decimal ties as ties, T = 22.267.
    res = stats.friedman_aligned(gh2010)
    assert round(res.statistic, 3) == 22.267
    assert round(res.statistic, 3) != 18.837
    assert res.df == 3
    assert res.pvalue == pytest.approx(sps.chi2.sf(res.statistic, 3))


def test_garcia_2010_quade_misprint(gh2010: pd.DataFrame) -> None:
    # Known misprint (2): T3 = 21.967; the slide's own arithmetic gives 4.58, the data 11.752.
    assert round(23 * 4068.479 / (24500 - 4068.479), 2) == 4.58
    res = stats.quade(gh2010)
    assert round(res.statistic, 3) == 11.752
    assert res.df == (3, 69)


def test_scmamp_vignette_2008(gh2008: pd.DataFrame) -> None:
    fr = stats.friedman(gh2008)
    assert round(fr.statistic, 3) == 39.647
    assert f"{fr.pvalue:.3e}" == "5.121e-08"
    assert fr.ranks.round(6).tolist() == [2.1, 3.25, 2.2, 4.333333, 3.116667]
    idv = stats.iman_davenport(gh2008)
    assert round(idv.statistic, 3) == 14.309
    assert f"{idv.pvalue:.3e}" == "1.593e-09"
    qd = stats.quade(gh2008)
    assert round(qd.statistic, 3) == 10.802
    assert f"{qd.pvalue:.3e}" == "1.772e-07"


def _aligned_t_without_decimal_ties(x: np.ndarray) -> float:
    """scmamp's arithmetic: R's rowMeans (long double accumulation), no tie snapping."""
    n, k = x.shape
    means = (x.astype(np.longdouble).sum(axis=1) / k).astype(np.float64)
    r = rankdata(-(x - means[:, None]).ravel(order="F")).reshape((n, k), order="F")
    kn = k * n
    num = (k - 1) * ((r.sum(0) ** 2).sum() - (k * n * n / 4) * (kn + 1) ** 2)
    return float(num / (kn * (kn + 1) * (2 * kn + 1) / 6 - (r.sum(1) ** 2).sum() / k))


def test_scmamp_aligned_variant_is_binary_noise(gh2008: pd.DataFrame) -> None:
    # Named variant: scmamp prints T = 41.691 (p = 1.933e-08). Reproducing R's arithmetic
    # gives exactly that: decimal ties among the aligned values are broken by the last
    # binary digit. Treating them as ties gives 41.728.
    assert round(_aligned_t_without_decimal_ties(gh2008.to_numpy()), 3) == 41.691
    assert round(stats.friedman_aligned(gh2008).statistic, 3) == 41.728


def test_stac_reference_lower_is_better(stac: pd.DataFrame) -> None:
    idv = stats.iman_davenport(stac, higher_is_better=False)
    assert idv.statistic == pytest.approx(1.2068965517, abs=1e-10)
    assert round(idv.pvalue, 4) == 0.3392
    al = stats.friedman_aligned(stac, higher_is_better=False)
    assert al.statistic == pytest.approx(3.7024551118, abs=1e-10)
    assert round(al.pvalue, 4) == 0.1570
    tie_aware = stats.quade(stac, higher_is_better=False, tie_correction=True)
    assert tie_aware.statistic == pytest.approx(2.3137417219, abs=1e-10)
    assert round(tie_aware.pvalue, 4) == 0.1493
    assert round(stats.quade(stac, higher_is_better=False).statistic, 2) == 1.72


CATALYSTS = [[84.5, 78.4, 83.1], [82.8, 79.1, 79.9], [79.1, 78.0, 77.8], [80.2, 76.0, 77.9]]
TREES = [[6, 4, 3, 3], [4, 3, 3, 2], [4, 2, 1, 1], [2, 1, 2, 1]]


def test_small_published_oracles() -> None:
    # critdd's tests (small_published_oracles.csv)
    assert stats.friedman(CATALYSTS).statistic == pytest.approx(6.5)
    assert stats.friedman(CATALYSTS).pvalue < 0.05
    res = stats.friedman(np.array(CATALYSTS).T)
    assert res.statistic == pytest.approx(7.4) and res.df == 3 and res.pvalue >= 0.05
    trees = stats.friedman(np.array(TREES).T)
    assert trees.statistic == pytest.approx(9.525) and trees.pvalue < 0.05


def test_tie_correction_equals_scipy(gh2008: pd.DataFrame) -> None:
    res = stats.friedman(gh2008, tie_correction=True)
    ref = sps.friedmanchisquare(*gh2008.to_numpy().T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert round(res.statistic, 3) == 39.913


@settings(max_examples=60, deadline=None)
@given(arrays(np.int8, st.tuples(st.integers(3, 12), st.integers(3, 7)), elements=st.integers(0, 4)))
def test_tie_correction_equals_scipy_on_tied_tables(x: np.ndarray) -> None:
    ties_everywhere = all(len(set(row)) == 1 for row in x)
    res = stats.friedman(x, tie_correction=True)
    if ties_everywhere:
        assert res.statistic == 0.0 and res.pvalue == 1.0
        return
    ref = sps.friedmanchisquare(*x.T.astype(float))
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)


TABLE = arrays(
    np.float64,
    st.tuples(st.integers(2, 10), st.integers(2, 6)),
    elements=st.sampled_from([0.5, 0.6, 0.61, 0.7, 0.75, 0.8, 0.9, 1.0]),
)


@settings(max_examples=60, deadline=None)
@given(TABLE, st.randoms(use_true_random=False))
def test_column_order_and_direction_invariance(x: np.ndarray, rnd) -> None:
    names = [f"L{j}" for j in range(x.shape[1])]
    frame = pd.DataFrame(x, columns=names)
    perm = list(names)
    rnd.shuffle(perm)
    for fn in (stats.friedman, stats.friedman_aligned, stats.quade):
        a = fn(frame)
        b = fn(frame[perm])
        c = fn(-frame, higher_is_better=False)
        assert b.statistic == pytest.approx(a.statistic, rel=1e-9, abs=1e-12)
        assert c.statistic == pytest.approx(a.statistic, rel=1e-9, abs=1e-12)
        pd.testing.assert_series_equal(b.ranks[names], a.ranks)
        pd.testing.assert_series_equal(c.ranks, a.ranks)
    assert stats.iman_davenport(frame[perm]).statistic == pytest.approx(stats.iman_davenport(frame).statistic)


def test_every_row_tied_gives_zero() -> None:
    x = np.ones((5, 4))
    for fn in (stats.friedman, stats.friedman_aligned, stats.quade):
        res = fn(x)
        assert res.statistic == 0.0 and res.pvalue == 1.0
    assert stats.iman_davenport(x).statistic == 0.0
    assert stats.quade(x, tie_correction=True).pvalue == 1.0


def test_perfect_agreement_is_defined() -> None:
    x = np.tile([0.9, 0.8, 0.7, 0.6], (6, 1)) + np.arange(6)[:, None] * 0.001
    fr = stats.friedman(x)
    assert fr.statistic == pytest.approx(6 * 3)
    idv = stats.iman_davenport(x)
    assert idv.statistic == np.inf and idv.pvalue == 0.0
    qt = stats.quade(x, tie_correction=True)
    assert qt.statistic == np.inf and qt.pvalue == 0.0


@pytest.mark.parametrize(
    ("scores", "match"),
    [
        ([[1.0], [2.0]], "at least 2 learners"),
        ([[1.0, 2.0]], "at least 2 data sets"),
        ([[1.0, np.nan], [2.0, 3.0]], "finite"),
        ([[1.0, np.inf], [2.0, 3.0]], "finite"),
        ([1.0, 2.0, 3.0], "2-D"),
        (pd.DataFrame([[1, 2], [3, 4]], columns=["a", "a"]), "duplicate learner"),
        (pd.DataFrame([["x", 2], [3, 4]], columns=["a", "b"]), "numeric"),
    ],
)
def test_bad_tables_are_rejected(scores, match: str) -> None:
    for fn in (stats.friedman, stats.iman_davenport, stats.friedman_aligned, stats.quade, stats.ranks):
        if fn is stats.ranks and match.startswith("at least"):
            continue
        with pytest.raises(ValueError, match=match):
            fn(scores)


def test_average_ranks_validation() -> None:
    with pytest.raises(ValueError, match="at least 2 learners"):
        stats.AverageRanks([1.0], n=5)
    with pytest.raises(ValueError, match="integer >= 2"):
        stats.AverageRanks([1.5, 1.5], n=1)
    with pytest.raises(ValueError, match=r"lie in \[1, 2\]"):
        stats.AverageRanks([0.5, 2.5], n=5)
    with pytest.raises(ValueError, match="needs the scores table"):
        stats.friedman(stats.AverageRanks([1.5, 1.5], n=4), tie_correction=True)
    with pytest.raises(ValueError, match="higher_is_better"):
        stats.friedman([[1, 2], [3, 4]], higher_is_better="no")  # type: ignore[arg-type]


def test_ranks_ties_average_and_direction() -> None:
    # Menzies' notes: "1,1,1,1 get ranks 1,2,3,4 ... averages to 2.5"
    assert stats.ranks([[1, 1, 1, 1]]).iloc[0].tolist() == [2.5] * 4
    assert stats.ranks([[0.1, 0.3, 0.2]], higher_is_better=False).iloc[0].tolist() == [1.0, 3.0, 2.0]
    # values equal in decimal tie even when their binary forms differ
    assert stats.ranks([[0.1 + 0.2, 0.3, 0.0]]).iloc[0].tolist() == [1.5, 1.5, 3.0]


def test_str_is_readable(gh2010: pd.DataFrame) -> None:
    assert str(stats.friedman(gh2010)).startswith("Friedman chi2(3) = 16.225, p = 0.0010")
    assert "Iman-Davenport F(3, 69) = 6.691" in str(stats.iman_davenport(gh2010))
    assert "T(3) = 22.267" in str(stats.friedman_aligned(gh2010))
    assert "Quade F(3, 69) = 11.752" in str(stats.quade(gh2010))
