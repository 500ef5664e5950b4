"""Post-hoc z tests (control and all pairs) against Garcia & Herrera's (2008, 2010) and scmamp's published
figures."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import rankdata

import stats
from tests.conftest import scmamp_pairs
from tests.printed import matches_printed


def test_garcia_herrera_tutorial_c45_holm_table() -> None:
    # Garcia & Herrera's tutorial (2008, 2010): SE = 0.488; z = 2.416, 2.342, 0.512; p = 0.016, 0.019, 0.607
    # with C4.5 as the reference (z = (R_0 - R_i) / SE, so the signs are opposite to ours).
    ranks = stats.AverageRanks([3.143, 2.000, 2.893, 1.964], n=14, learners=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    table = stats.control_test(ranks, "C4.5", test="friedman")
    assert round(table.se, 3) == 0.488
    assert table.index.tolist() == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    assert (-table["z"]).round(2).tolist() == [2.42, 2.34, 0.51]  # the slide divides by the rounded 0.488
    assert table["p"].round(3).tolist()[:2] == [0.016, 0.019]
    # The slide prints 0.607 for z = 0.512; 2 * sf(0.512) = 0.6087 and the exact ranks give
    # 0.6085: the printed third p is off in its last digit.
    assert table["p"].iloc[2] == pytest.approx(0.607, abs=2e-3)
    # Holm: reject the first two at 0.05 (0.016 < 0.017, 0.019 < 0.025), keep the third.
    assert (table["holm"] <= 0.05).tolist() == [True, True, False]


ALL_PAIRS = [  # Garcia & Herrera (2008): 30 data sets, 5 learners, ordered by p
    ("C4.5", "Kernel", 5.471, "4.487e-8", "4.487e-7", "4.487e-7", "4.487e-7", "4.487e-7"),
    ("NaiveBayes", "Kernel", 5.226, "1.736e-7", "1.736e-6", "1.563e-6", "1.042e-6", "1.042e-6"),
    ("Kernel", "CN2", 2.98, "0.0029", "0.0288", "0.023", "0.0173", "0.0115"),
    ("C4.5", "k-NN(k=1)", 2.817, "0.0048", "0.0485", "0.0339", "0.0291", "0.0291"),
    ("k-NN(k=1)", "Kernel", 2.654, "0.008", "0.0796", "0.0478", "0.0478", "0.0319"),
    ("k-NN(k=1)", "NaiveBayes", 2.572, "0.0101", "0.1011", "0.0506", "0.0478", None),
    ("C4.5", "CN2", 2.49, "0.0128", "0.1276", "0.0511", "0.0511", "0.0383"),
    ("NaiveBayes", "CN2", 2.245, "0.0247", "0.2474", "0.0742", "0.0742", "0.0383"),
    ("k-NN(k=1)", "CN2", 0.327, "0.744", "1.0", "1.0", "1.0", "1.0"),
    ("C4.5", "NaiveBayes", 0.245, "0.8065", "1.0", "1.0", "1.0", "1.0"),
]


def _row(table: pd.DataFrame, a: str, b: str) -> pd.Series:
    hit = table[((table.a == a) & (table.b == b)) | ((table.a == b) & (table.b == a))]
    assert len(hit) == 1
    return hit.iloc[0]


def test_garcia_herrera_2008_all_pairs_table(gh2008: pd.DataFrame) -> None:
    table = stats.pairwise_test(gh2008)
    for a, b, z, p, nm, hm, sh, bh in ALL_PAIRS:
        row = _row(table, a, b)
        assert round(abs(row.z), 3) == pytest.approx(z, abs=1.01e-3)
        for column, printed in (("p", p), ("nemenyi", nm), ("holm", hm), ("shaffer", sh), ("bergmann", bh)):
            if printed is not None:
                assert matches_printed(row[column], printed), (a, b, column, row[column], printed)
    # Named variant: the printed Bergmann-Hommel APV of 1NN vs NaiveBayes (0.0319) is the
    # cumulative maximum over the rows above it. The definition (max |I| min p_I over the
    # exhaustive sets containing the pair) gives 3 x 0.010112 = 0.0303 (I = {1NN, NB, CN2}).
    row = _row(table, "k-NN(k=1)", "NaiveBayes")
    assert row.bergmann == pytest.approx(3 * row.p)
    assert matches_printed(max(row.bergmann, _row(table, "k-NN(k=1)", "Kernel").bergmann), "0.0319")


def test_garcia_herrera_2008_all_pairs_from_printed_average_ranks() -> None:
    ranks = pd.Series([2.100, 3.250, 2.200, 4.333, 3.117], index=["C4.5", "k-NN(k=1)", "NaiveBayes", "Kernel", "CN2"])
    table = stats.pairwise_test_from_ranks(ranks, 30)
    # from ranks rounded to three decimals z = 5.4697; the slide prints 5.471
    assert abs(_row(table, "C4.5", "Kernel").z) == pytest.approx(5.471, abs=2e-3)
    assert matches_printed(_row(table, "Kernel", "CN2").p, "0.0029")


def test_scmamp_friedman_all_pairs(gh2008: pd.DataFrame, scmamp: pd.DataFrame) -> None:
    table = stats.pairwise_test(gh2008)
    for (a, b), p in scmamp_pairs(scmamp, "friedmanPost_allpairs").items():
        assert _row(table, a, b).p == pytest.approx(p, rel=1e-6)


def test_scmamp_quade_all_pairs(gh2008: pd.DataFrame, scmamp: pd.DataFrame) -> None:
    table = stats.pairwise_test(gh2008, test="quade")
    for (a, b), p in scmamp_pairs(scmamp, "quadePost_allpairs").items():
        assert _row(table, a, b).p == pytest.approx(p, rel=1e-6)


def _r_aligned_ranks(x: pd.DataFrame) -> pd.Series:
    """Average aligned ranks computed with R's arithmetic (scmamp): no decimal ties."""
    v = x.to_numpy()
    n, k = v.shape
    means = (v.astype(np.longdouble).sum(axis=1) / k).astype(np.float64)
    r = rankdata(-(v - means[:, None]).ravel(order="F")).reshape((n, k), order="F")
    return pd.Series(r.mean(axis=0), index=x.columns)


def test_scmamp_aligned_all_pairs_and_control(gh2008: pd.DataFrame, scmamp: pd.DataFrame) -> None:
    # Named variant: scmamp's aligned ranks break decimal ties by binary noise (see
    # test_omnibus). Fed the ranks it computes, our z test reproduces its figures.
    ranks = _r_aligned_ranks(gh2008)
    table = stats.pairwise_test_from_ranks(ranks, 30, test="aligned")
    for (a, b), p in scmamp_pairs(scmamp, "friedmanAlignedRanksPost_allpairs").items():
        assert _row(table, a, b).p == pytest.approx(p, rel=1e-6)
    control = stats.control_test_from_ranks(ranks, 30, "NaiveBayes", test="aligned")
    for (_, learner), p in scmamp_pairs(scmamp, "friedmanAlignedRanksPost_control_NaiveBayes").items():
        assert control.loc[learner, "p"] == pytest.approx(p, rel=1e-6)


def test_scmamp_shaffer_and_bergmann_on_its_p_values(scmamp: pd.DataFrame) -> None:
    raw = scmamp_pairs(scmamp, "friedmanAlignedRanksPost_allpairs")
    names = ["C4.5", "k-NN(k=1)", "NaiveBayes", "Kernel", "CN2"]
    order = [(names[i], names[j]) for i in range(5) for j in range(i + 1, 5)]
    p = np.array([raw[pair] for pair in order])
    shaffer = stats.adjust(p, "shaffer")
    bergmann = stats.adjust(p, "bergmann")
    printed_sh = scmamp_pairs(scmamp, "adjustShaffer_on_alignedRanksPost")
    printed_bh = scmamp_pairs(scmamp, "adjustBergmannHommel_on_alignedRanksPost")
    for pair, s, b in zip(order, shaffer, bergmann):
        assert s == pytest.approx(printed_sh[pair], rel=1e-6)
        assert b == pytest.approx(printed_bh[pair], rel=1e-6), pair


def test_scmamp_holland_finner_li_on_quade_control(gh2008: pd.DataFrame, scmamp: pd.DataFrame) -> None:
    table = stats.control_test(gh2008, "k-NN(k=1)", test="quade")
    for column, obj in (("holland", "adjustHolland"), ("finner", "adjustFinner"), ("li", "adjustLi")):
        printed = {b: v for (_, b), v in scmamp_pairs(scmamp, f"{obj}_on_quadePost_control_kNN").items()}
        for learner, value in printed.items():
            assert table.loc[learner, column] == pytest.approx(value, rel=1e-6), (column, learner)


def test_bergmann_limit_falls_back_to_shaffer() -> None:
    # The exact limit was 12 learners (enumeration of Bell(k) partitions); since issue 17 it is 16.
    rng = np.random.default_rng(3)
    scores = rng.uniform(size=(30, 17)) + np.linspace(0, 0.8, 17)  # learners differ
    with pytest.warns(stats.BergmannLimitWarning, match="k <= 16"):
        table = stats.pairwise_test(scores)
    assert (table["bergmann"] == table["shaffer"]).all()
    assert "Shaffer" in table.bergmann
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exact = stats.pairwise_test(scores[:, :16])
    assert exact.bergmann == "exact"
    # exact for 13..16 learners: never above Shaffer's APVs, and below them somewhere here
    assert (exact["bergmann"] <= exact["shaffer"]).all() and (exact["bergmann"] < exact["shaffer"]).any()


def test_validation(gh2010: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="control 'SVM' is not a learner; learners are: PDFC, NNEP"):
        stats.control_test(gh2010, "SVM")
    with pytest.raises(ValueError, match="test must be one of"):
        stats.control_test(gh2010, "PDFC", test="wilcoxon")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs the scores table"):
        stats.pairwise_test(stats.AverageRanks([1.5, 1.5], 4), test="aligned")
    with pytest.raises(ValueError, match="alpha"):
        stats.control_test(gh2010, "PDFC", alpha=0)


TABLES = arrays(
    np.float64,
    st.tuples(st.integers(3, 9), st.integers(3, 6)),
    elements=st.sampled_from([0.1, 0.2, 0.25, 0.3, 0.5, 0.7, 0.9]),
)


@settings(max_examples=40, deadline=None)
@given(TABLES, st.sampled_from(["friedman", "aligned", "quade"]), st.randoms(use_true_random=False))
def test_invariance(x: np.ndarray, test: str, rnd) -> None:
    names = [f"L{j}" for j in range(x.shape[1])]
    frame = pd.DataFrame(x, columns=names)
    perm = list(names)
    rnd.shuffle(perm)
    base = stats.control_test(frame, "L0", test=test)
    shuffled = stats.control_test(frame[perm], "L0", test=test)
    negated = stats.control_test(-frame, "L0", test=test, higher_is_better=False)
    cols = ["z", "p", "holm", "hochberg", "hommel", "rom", "li"]
    pd.testing.assert_frame_equal(shuffled.loc[base.index, cols], base[cols], check_exact=False, rtol=1e-9)
    pd.testing.assert_frame_equal(negated.loc[base.index, cols], base[cols], check_exact=False, rtol=1e-9)
    pw = stats.pairwise_test(frame, test=test).set_index(["a", "b"])
    pw2 = stats.pairwise_test(-frame, test=test, higher_is_better=False).set_index(["a", "b"])
    pd.testing.assert_frame_equal(pw, pw2, check_exact=False, rtol=1e-9)
