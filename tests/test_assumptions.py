"""Tests of stats.ranking.assumptions against scipy, statsmodels, the conditions of Garcia & Herrera's tutorial
(2008, 2010) and the win/loss/tie table of Menzies' lecture notes."""

from __future__ import annotations

import doctest
import importlib
import itertools

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from statsmodels.stats.diagnostic import lilliefors

from stats.ranking.assumptions import (
    LILLIEFORS_SEED,
    LeveneResult,
    NormalityResult,
    levene,
    normality,
    parametric_safety,
)
from stats.twosample.win_loss_tie import ttest_win_loss_tie
from tests.conftest import REFERENCE


def garcia_2010() -> pd.DataFrame:
    return pd.read_csv(REFERENCE / "garcia_2010_accuracy.csv", index_col=0)


def garcia_herrera_2008() -> pd.DataFrame:
    return pd.read_csv(REFERENCE / "garcia_herrera_2008_accuracy.csv", index_col=0)


def samples() -> list[np.ndarray]:
    """Real accuracy columns plus normal, exponential and uniform draws of several sizes."""
    out = [garcia_2010()[c].to_numpy() for c in garcia_2010()]
    out += [garcia_herrera_2008()[c].to_numpy() for c in garcia_herrera_2008()]
    rng = np.random.default_rng(20100)
    for n in (5, 10, 20, 50):
        out += [rng.normal(size=n), rng.exponential(size=n), rng.uniform(size=n)]
    return out


# Blom's normal scores: a sample as normal-looking as a sample can be.
N = 20
BLOM = sps.norm.ppf((np.arange(1, N + 1) - 0.375) / (N + 0.25))
EXPO = sps.expon.ppf((np.arange(1, N + 1) - 0.5) / N)


def test_doctests() -> None:
    assert doctest.testmod(importlib.import_module("stats.ranking.assumptions")).failed == 0


# --------------------------------------------------------------------------- normality


@pytest.mark.parametrize("x", samples(), ids=lambda x: f"n{len(x)}")
def test_normality_against_scipy_and_statsmodels(x: np.ndarray) -> None:
    res = normality(x)
    assert isinstance(res, NormalityResult) and res.n == len(x) and res.alpha == 0.05
    sw = sps.shapiro(x)
    assert (res.shapiro_wilk.statistic, res.shapiro_wilk.pvalue) == (sw.statistic, sw.pvalue)
    assert res.shapiro_wilk.rejected == (sw.pvalue <= 0.05)
    if len(x) >= 8:
        dp = sps.normaltest(x)
        assert (res.dagostino_pearson.statistic, res.dagostino_pearson.pvalue) == (dp.statistic, dp.pvalue)
    # Lilliefors: the same statistic as statsmodels; Monte Carlo p close to its approximation.
    stat, p = lilliefors(x, dist="norm", pvalmethod="approx")
    assert res.kolmogorov_smirnov.statistic == pytest.approx(stat, abs=1e-10)
    assert res.kolmogorov_smirnov.pvalue == pytest.approx(p, abs=0.02)
    gof = sps.goodness_of_fit(sps.norm, x, statistic="ks", rng=LILLIEFORS_SEED)
    assert res.kolmogorov_smirnov.pvalue == gof.pvalue


def test_lilliefors_is_reproducible_and_corrected() -> None:
    x = garcia_2010()["FH_GBML"].to_numpy()
    a, b = normality(x).kolmogorov_smirnov, normality(x).kolmogorov_smirnov
    assert a == b
    other = normality(x, seed=7).kolmogorov_smirnov
    assert other.statistic == a.statistic and other.pvalue != a.pvalue
    # Without Lilliefors' correction (the KS table with estimated parameters) p is far too large.
    naive = sps.kstest(x, "norm", args=(x.mean(), x.std(ddof=1))).pvalue
    assert a.pvalue < naive / 2
    few = normality(x, n_mc_samples=99).kolmogorov_smirnov
    assert few.pvalue * 100 == pytest.approx(round(few.pvalue * 100))  # resolution 1 / (99 + 1)
    assert "99 samples, seed 1967" in few.note


def test_small_samples_not_computable_with_reason() -> None:
    res = normality([0.1, 0.4, 0.2, 0.9, 0.5, 0.3, 0.8])  # n = 7
    dp = res.dagostino_pearson
    assert not dp.computable and dp.statistic is None and dp.pvalue is None and dp.rejected is None
    assert dp.note == "needs n >= 8, got n = 7"
    assert str(dp) == "D'Agostino-Pearson: not computable (needs n >= 8, got n = 7)"
    assert res.shapiro_wilk.computable and res.kolmogorov_smirnov.computable
    res = normality([0.1, 0.4, 0.2])
    assert res.kolmogorov_smirnov.note == "needs n >= 4, got n = 3"
    assert res.shapiro_wilk.computable
    res = normality([0.1, 0.4])
    assert res.shapiro_wilk.note == "needs n >= 3, got n = 2"
    assert res.rejected_by == ()
    caveat = normality(BLOM[:12]).dagostino_pearson
    assert caveat.computable and caveat.note == "kurtosis test approximate for n < 20"
    assert normality(BLOM).dagostino_pearson.note is None


def test_constant_sample_not_computable() -> None:
    res = normality([0.9] * 10)
    assert all(not t.computable and t.note == "all values are equal (zero variance)" for t in res.tests)
    assert "Shapiro-Wilk: not computable (all values are equal (zero variance))" in str(res)


def test_normality_rejections() -> None:
    assert normality(BLOM).rejected_by == ()
    skewed = normality(EXPO**2)
    assert skewed.rejected_by == ("Shapiro-Wilk", "D'Agostino-Pearson", "Kolmogorov-Smirnov (Lilliefors)")
    assert "normality rejected" in str(skewed.shapiro_wilk)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ([], {}, "values is empty"),
        ([1.0, np.nan, 2.0], {}, "values must be finite, got 1 NaN or infinite value"),
        ([[1.0, 2.0]], {}, r"values must be 1-D, got 2 dimension\(s\)"),
        (["x"], {}, "values must be numeric"),
        ([1.0, 2.0, 3.0], {"alpha": 1.5}, "alpha must be between 0 and 1"),
        ([1.0, 2.0, 3.0], {"n_mc_samples": 0}, "n_mc_samples must be a positive integer, got 0"),
    ],
)
def test_normality_rejects(args: list, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        normality(args, **kwargs)


# --------------------------------------------------------------------------- levene


def test_levene_by_hand() -> None:
    # Deviations from the group means: [1.5, .5, .5, 1.5] (mean 1) and [3, 1, 1, 3] (mean 2);
    # between = 4 * .25 + 4 * .25 = 2 on 1 df, within = (4 * .25 + 4 * 1) / 6 = 5 / 6: W = 2.4.
    res = levene([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0]])
    assert res.statistic == pytest.approx(2.4, abs=1e-12)
    assert res.pvalue == pytest.approx(sps.f.sf(2.4, 1, 6), abs=1e-12)
    assert (res.center, res.k, res.n) == ("mean", 2, 8)
    assert str(res).startswith("Levene (mean-based, k = 2, N = 8): W = 2.400, p = ")


@pytest.mark.parametrize("center", ["mean", "median", "trimmed"])
def test_levene_against_scipy(center: str) -> None:
    frame = garcia_herrera_2008()
    res = levene({c: frame[c] for c in frame}, center=center)
    ref = sps.levene(*(frame[c].to_numpy() for c in frame), center=center)
    assert (res.statistic, res.pvalue) == (ref.statistic, ref.pvalue)


def test_levene_default_is_based_on_means() -> None:
    # Garcia & Herrera's tutorial (2008, 2010) uses Levene "based on means"; scipy's default is the median
    # (Brown-Forsythe).
    groups = [EXPO, 2 * BLOM, BLOM]
    assert levene(groups).pvalue == sps.levene(*groups, center="mean").pvalue
    assert levene(groups).pvalue != sps.levene(*groups).pvalue


def test_levene_constant_groups() -> None:
    res = levene([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
    assert res == LeveneResult(None, None, "mean", 2, 6, "every group is constant (W = 0/0)")
    assert "not computable" in str(res)
    assert levene([[1.0, 1.0, 1.0], [2.0, 2.5, 2.0]]).pvalue is not None


def test_levene_rejects() -> None:
    with pytest.raises(ValueError, match="center must be one of 'mean', 'median', 'trimmed'; got 'mode'"):
        levene([[1, 2], [3, 4]], center="mode")
    with pytest.raises(ValueError, match="groups must hold at least 2 samples, got 1"):
        levene([[1, 2, 3]])
    with pytest.raises(ValueError, match=r"groups\[1\] must be finite"):
        levene([[1, 2, 3], [1, np.inf]])


# --------------------------------------------------------------------------- parametric_safety


def test_parametric_safety_safe() -> None:
    table = pd.DataFrame({"a": 0.8 + 0.02 * BLOM, "b": 0.7 + 0.02 * BLOM[::-1], "c": 0.75 + 0.02 * BLOM})
    res = parametric_safety(table)
    assert res.safe and res.rejected == ()
    p = sps.levene(*(table[c] for c in table), center="mean").pvalue
    assert p > 0.999
    assert res.message == (
        "a parametric test looks safe: normality not rejected for any of 3 learners "
        "(Shapiro-Wilk, alpha = 0.05) and Levene does not reject equal variances (p = 1.000)"
    )
    assert str(res) == res.message


def test_parametric_safety_unsafe() -> None:
    table = pd.DataFrame(
        {
            "a": 0.8 + 0.02 * BLOM,
            "skewed": 0.6 + 0.01 * EXPO**2,
            "wide": 0.7 + 0.1 * BLOM,
            "c": 0.75 + 0.02 * BLOM,
        }
    )
    res = parametric_safety(table)
    shapiro_p = {c: sps.shapiro(table[c]).pvalue for c in table}
    assert [c for c in table if shapiro_p[c] <= 0.05] == ["skewed"]
    lev = sps.levene(*(table[c] for c in table), center="mean").pvalue
    assert lev < 0.001
    assert not res.safe and res.rejected == ("skewed",)
    assert res.message == (
        "a parametric test would be unsafe: normality rejected for 1 of 4 learners "
        "(Shapiro-Wilk, alpha = 0.05) and Levene rejects equal variances (p < 0.001)"
    )
    assert list(res.normality) == ["a", "skewed", "wide", "c"]
    assert res.normality["skewed"].shapiro_wilk.pvalue == shapiro_p["skewed"]
    assert res.levene.pvalue == lev
    # Orientation does not change any of it.
    flipped = parametric_safety(table, higher_is_better=False)
    assert (flipped.safe, flipped.rejected, flipped.message) == (res.safe, res.rejected, res.message)


def test_parametric_safety_garcia_2010_against_scipy() -> None:
    frame = garcia_2010()
    res = parametric_safety(frame, alpha=0.1)
    expected = tuple(c for c in frame if sps.shapiro(frame[c]).pvalue <= 0.1)
    assert res.rejected == expected and res.alpha == 0.1
    lev = sps.levene(*(frame[c] for c in frame), center="mean").pvalue
    assert res.levene.pvalue == lev
    assert res.safe == (not expected and lev > 0.1)
    assert f"{len(expected)} of 4 learners (Shapiro-Wilk, alpha = 0.1)" in res.message


def test_parametric_safety_normality_equals_one_call_per_learner() -> None:
    # parametric_safety runs D'Agostino-Pearson on every column in one call; each learner's result
    # must be scipy's normaltest of that learner alone (and normality() of that column).
    rng = np.random.default_rng(3)
    table = pd.DataFrame(rng.normal(size=(30, 6)), columns=list("abcdef"))
    table["flat"] = 0.5
    table["skewed"] = rng.exponential(size=30)
    res = parametric_safety(table)
    for c in table:
        dp = res.normality[c].dagostino_pearson
        if c == "flat":
            assert not dp.computable
            continue
        expected = sps.normaltest(table[c].to_numpy())
        assert dp.statistic == pytest.approx(expected.statistic, rel=1e-13)
        assert dp.pvalue == pytest.approx(expected.pvalue, rel=1e-12, abs=1e-300)
        assert res.normality[c].shapiro_wilk.pvalue == sps.shapiro(table[c].to_numpy()).pvalue
    assert normality(table["skewed"], lilliefors=False) == res.normality["skewed"]


def test_parametric_safety_constant_column() -> None:
    table = pd.DataFrame({"a": 0.8 + 0.02 * BLOM, "flat": np.full(N, 0.5)})
    res = parametric_safety(table)
    assert not res.safe
    assert "normality not assessable for 1 of 2 learners (constant scores)" in res.message


def test_parametric_safety_rejects() -> None:
    with pytest.raises(ValueError, match="need at least 3 data sets"):
        parametric_safety([[0.1, 0.2], [0.3, 0.4]])
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        parametric_safety(garcia_2010(), alpha=0)
    with pytest.raises(ValueError, match="higher_is_better must be True or False"):
        parametric_safety(garcia_2010(), higher_is_better="yes")


# --------------------------------------------------------------------------- ttest_win_loss_tie


def scipy_win_loss_tie(frame: pd.DataFrame, alpha: float) -> dict[str, tuple[int, int, int]]:
    """The winLossTie of Menzies' lecture notes with scipy's paired t-test, written out pair by pair."""
    counts = {c: [0, 0, 0] for c in frame}
    for a, b in itertools.combinations(frame.columns, 2):
        res = sps.ttest_rel(frame[a], frame[b])
        if res.pvalue > alpha:
            counts[a][2] += 1
            counts[b][2] += 1
        elif (frame[a] - frame[b]).mean() > 0:
            counts[a][0] += 1
            counts[b][1] += 1
        else:
            counts[b][0] += 1
            counts[a][1] += 1
    return {c: tuple(v) for c, v in counts.items()}


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
@pytest.mark.parametrize("loader", [garcia_2010, garcia_herrera_2008])
def test_win_loss_tie_against_scipy(loader, alpha: float) -> None:
    frame = loader()
    out = ttest_win_loss_tie(frame, alpha=alpha)
    expected = scipy_win_loss_tie(frame, alpha)
    assert {c: tuple(int(v) for v in out.loc[c]) for c in out.index} == expected
    assert list(out.columns) == ["win", "loss", "tie"]
    key = (out["win"] - out["loss"]).tolist()
    assert key == sorted(key, reverse=True)
    assert (out.sum(axis=1) == frame.shape[1] - 1).all()
    assert out["win"].sum() == out["loss"].sum()


def test_win_loss_tie_obvious() -> None:
    i = np.arange(10)
    base = 0.5 + 0.03 * np.sin(i)
    noise = 0.002 * np.cos(3 * i)
    table = pd.DataFrame({"C": base, "A": base + 0.10 + noise, "B": base + 0.05 - noise, "D": base.copy()})
    out = ttest_win_loss_tie(table)
    # A beats B, C, D; B beats C, D; C and D are identical (tie), C listed first (stable sort).
    assert out.index.tolist() == ["A", "B", "C", "D"]
    assert out.to_dict("index") == {
        "A": {"win": 3, "loss": 0, "tie": 0},
        "B": {"win": 2, "loss": 1, "tie": 0},
        "C": {"win": 0, "loss": 2, "tie": 1},
        "D": {"win": 0, "loss": 2, "tie": 1},
    }
    assert out.index.name == "learner"
    lower = ttest_win_loss_tie(table, higher_is_better=False)
    assert lower.index.tolist() == ["C", "D", "B", "A"]
    assert ttest_win_loss_tie(table, alpha=1e-300)["tie"].tolist() == [3, 3, 3, 3]


def test_win_loss_tie_constant_difference_wins() -> None:
    # x + 0.1 on every data set: the differences are all 0.1 (t = inf), a significant win.
    table = pd.DataFrame({"x": [0.5, 0.6, 0.7], "y": [0.6, 0.7, 0.8], "z": [0.5, 0.6, 0.7]})
    out = ttest_win_loss_tie(table)
    assert out.to_dict("index") == {
        "y": {"win": 2, "loss": 0, "tie": 0},
        "x": {"win": 0, "loss": 1, "tie": 1},
        "z": {"win": 0, "loss": 1, "tie": 1},
    }


def test_win_loss_tie_lower_is_better_is_negation() -> None:
    frame = garcia_herrera_2008()
    lower = ttest_win_loss_tie(frame, higher_is_better=False)
    pd.testing.assert_frame_equal(lower, ttest_win_loss_tie(-frame))


def test_win_loss_tie_rejects() -> None:
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        ttest_win_loss_tie(garcia_2010(), alpha=1)
    with pytest.raises(ValueError, match="need at least 2 learners"):
        ttest_win_loss_tie(garcia_2010()[["PDFC"]])
    with pytest.raises(ValueError, match="scores must be finite"):
        ttest_win_loss_tie([[0.1, np.nan], [0.2, 0.3]])
