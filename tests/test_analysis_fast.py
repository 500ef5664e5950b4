"""The fast analysis changes no digit (issue 17 item 7, issue 16's bar).

Two checks on random tables with ties (k = 3..20 learners, N = 2..60 data sets, values rounded so
that most data sets hold ties, lower- and higher-is-better):

* the fast path -- one ``stats.ranked_table`` given to every statistic, so that the table is
  validated and ranked once -- against the straightforward path, each statistic given the
  DataFrame and ranking it itself: every statistic, p-value, APV and rank equal bit for bit;
* the pieces that were rewritten for speed against independent computations written here: the
  ranks and tie groups (scipy's ``rankdata`` and ``np.unique``), the p-values (scipy.stats'
  distribution objects), Hommel's APVs (Wright's loop, Fig. 2 of Garcia et al. 2010), the compact letters
  (Piepho's insert-absorb on sets), the contrasts (pair by pair), the win/loss/tie t-tests
  (``scipy.stats.ttest_rel`` pair by pair), Friedman's tie correction (its formula).
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import special
from scipy import stats as sps
from scipy.stats import rankdata

import stats
from stats.core._table import as_table, snap
from stats.posthoc import apv
from stats.ranking.ranks import aligned_rank_matrix, quade_components, rank_matrix, row_ranks

SHAPES = [(3, 2), (3, 60), (4, 14), (5, 24), (7, 9), (10, 30), (12, 5), (15, 40), (17, 3), (20, 50), (20, 2), (6, 60)]


def table(k: int, n: int, seed: int, decimals: int = 2) -> pd.DataFrame:
    """Scores with ties in most data sets (2 decimals), a learner effect, one all-tied data set."""
    rng = np.random.default_rng(seed)
    values = np.round(
        rng.beta(5, 2, size=(n, 1)) + rng.normal(0, 0.03, size=(1, k)) + rng.normal(0, 0.03, (n, k)), decimals
    )
    if n > 2:
        values[1] = values[1, 0]  # a data set where every learner ties
    return pd.DataFrame(values, index=[f"D{i}" for i in range(n)], columns=[f"L{j:02d}" for j in range(k)])


def bits(obj: Any) -> Any:
    """``obj`` as nested plain values, every float by its bits (-0.0 differs from 0.0, NaN equals NaN)."""
    if isinstance(obj, pd.DataFrame):
        return (
            "frame",
            list(map(str, obj.columns)),
            list(map(str, obj.index)),
            [str(t) for t in obj.dtypes],
            [bits(obj[c].to_numpy()) for c in obj.columns],
        )
    if isinstance(obj, pd.Series):
        return ("series", list(map(str, obj.index)), str(obj.dtype), bits(obj.to_numpy()))
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f":
            return ("floats", obj.shape, np.ascontiguousarray(obj).view(np.int64).tolist())
        return ("array", str(obj.dtype), [bits(x) for x in obj.tolist()])
    if isinstance(obj, (float, np.floating)):
        return ("float", float(obj).hex())
    if isinstance(obj, dict):
        return {str(key): bits(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [bits(x) for x in obj]
    if dataclasses.is_dataclass(obj):
        return {f.name: bits(getattr(obj, f.name)) for f in dataclasses.fields(obj) if not f.name.startswith("_")}
    return obj


def analysis(scores: Any, higher: bool, control: str) -> dict[str, Any]:
    """Every statistic of the views on ``scores`` (a DataFrame or a ranked table)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.BergmannLimitWarning)
        pairwise = {
            t: stats.pairwise_test(scores, test=t, higher_is_better=higher) for t in ("friedman", "aligned", "quade")
        }
    n, k = (scores.n, scores.k) if isinstance(scores, stats.RankedTable) else scores.shape
    out: dict[str, Any] = {
        "ranks": stats.ranks(scores, higher_is_better=higher),
        "average": stats.average_ranks(scores, higher_is_better=higher),
        "friedman": stats.friedman(scores, higher_is_better=higher),
        "friedman_ties": stats.friedman(scores, higher_is_better=higher, tie_correction=True),
        "iman_davenport": stats.iman_davenport(scores, higher_is_better=higher),
        "iman_davenport_ties": stats.iman_davenport(scores, higher_is_better=higher, tie_correction=True),
        "aligned": stats.friedman_aligned(scores, higher_is_better=higher),
        "quade": stats.quade(scores, higher_is_better=higher),
        "quade_ties": stats.quade(scores, higher_is_better=higher, tie_correction=True),
        "cd": stats.critical_difference(k, n),
        "win_loss_tie": stats.ttest_win_loss_tie(scores, higher_is_better=higher),
        "multiple_sign": stats.multiple_sign_test(scores, control, higher_is_better=higher),
        "contrast": stats.contrast_estimation(scores, higher_is_better=higher),
        "wilcoxon_holm": stats.pairwise_wilcoxon(scores, higher_is_better=higher),
        "sign_holm": stats.pairwise_wilcoxon(scores, higher_is_better=higher, test="sign"),
    }
    for t in ("friedman", "aligned", "quade"):
        out[f"control_{t}"] = stats.control_test(scores, control, test=t, alpha=0.05, higher_is_better=higher)
        out[f"pairwise_{t}"] = pairwise[t]
    for rule in ("nemenyi", "holm", "shaffer", "bergmann"):
        out[f"verdict_{rule}"] = stats.verdict(
            scores, higher_is_better=higher, rule=rule, pairwise=pairwise["friedman"]
        )
    if n >= 3:
        out["safety"] = stats.parametric_safety(scores, higher_is_better=higher).message
    return out


@pytest.mark.parametrize(("k", "n"), SHAPES)
@pytest.mark.parametrize("higher", [True, False])
def test_a_ranked_table_gives_the_same_digits_as_the_dataframe(k: int, n: int, higher: bool) -> None:
    df = table(k, n, seed=1000 * k + n)
    control = df.columns[k // 2]
    plain = analysis(df, higher, control)
    ranked = stats.ranked_table(df, higher_is_better=higher)
    fast = analysis(ranked, higher, control)
    again = analysis(ranked, higher, control)  # served from the ranked table's caches
    for name in plain:
        assert bits(fast[name]) == bits(plain[name]), name
        assert bits(again[name]) == bits(plain[name]), name


def test_a_ranked_table_refuses_another_direction_and_is_read_only() -> None:
    ranked = stats.ranked_table(table(4, 6, seed=1), higher_is_better=False)
    with pytest.raises(ValueError, match="higher_is_better=False"):
        stats.friedman(ranked)
    assert (
        stats.friedman(ranked, higher_is_better=False).statistic
        == stats.friedman(table(4, 6, seed=1), higher_is_better=False).statistic
    )
    with pytest.raises(ValueError, match="read-only"):
        ranked.values[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        rank_matrix(ranked)[0, 0] = 1.0
    with pytest.raises(ValueError, match="at least 3 data sets"):
        stats.parametric_safety(stats.ranked_table(table(4, 2, seed=1)))


@pytest.mark.parametrize("seed", range(40))
def test_ranks_and_tie_groups_equal_scipy_and_unique(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 61)), int(rng.integers(1, 21))
    values = np.round(rng.normal(size=(n, k)), int(rng.integers(0, 3)))
    values[rng.uniform(size=(n, k)) < 0.1] = -0.0
    got, ties = row_ranks(values)
    want = rankdata(-values, axis=1, method="average")
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    assert ties == sum(int(np.sum(c**3 - c)) for c in (np.unique(row, return_counts=True)[1] for row in values))


@pytest.mark.parametrize(("k", "n"), SHAPES)
def test_omnibus_p_values_and_tie_factor_equal_the_distributions(k: int, n: int) -> None:
    df = table(k, n, seed=k + 7 * n)
    t = as_table(df)
    ranks = rankdata(-t.values, axis=1, method="average").mean(axis=0)
    chi2 = max(12.0 * n / (k * (k + 1)) * (float(np.sum(ranks**2)) - k * (k + 1) ** 2 / 4.0), 0.0)
    fr = stats.friedman(df)
    assert fr.statistic == chi2 and fr.pvalue == float(sps.chi2.sf(chi2, k - 1))
    total = 0.0  # Friedman's tie correction as it was computed, data set by data set
    for row in t.values:
        _, counts = np.unique(row, return_counts=True)
        total += float(np.sum(counts.astype(float) ** 3 - counts))
    factor = 1.0 - total / (n * k * (k * k - 1))
    assert stats.friedman(df, tie_correction=True).statistic == (0.0 if factor <= 1e-12 else chi2 / factor)
    iman = stats.iman_davenport(df)
    if math.isfinite(iman.statistic):
        assert iman.pvalue == float(sps.f.sf(iman.statistic, k - 1, (k - 1) * (n - 1)))
    aligned = stats.friedman_aligned(df)
    assert aligned.pvalue == float(sps.chi2.sf(aligned.statistic, k - 1))
    quade = stats.quade(df)
    if 0.0 < quade.statistic < math.inf:
        assert quade.pvalue == float(sps.f.sf(quade.statistic, k - 1, (k - 1) * (n - 1)))
    z = stats.pairwise_test(df)["z"].to_numpy() if k <= stats.MAX_EXACT_K else None
    if z is not None:
        assert np.array_equal(stats.pairwise_test(df)["p"].to_numpy(), 2.0 * sps.norm.sf(np.abs(z)))


def test_special_functions_are_the_distributions_bit_for_bit() -> None:
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.exponential(20, 3000), rng.uniform(0, 1e-3, 300), [0.0, 1e-300, 1e300, np.inf]])
    for df in (1, 2, 3, 19, 7 / (math.pi - 2), 2.5):
        assert np.array_equal(special.chdtrc(df, xs), sps.chi2.sf(xs, df))
    finite = xs[np.isfinite(xs)]
    for d1, d2 in ((19, 931), (3, 69), (1, 1), (5, 400)):
        assert np.array_equal(special.fdtrc(d1, d2, finite), sps.f.sf(finite, d1, d2))
    z = np.concatenate([-xs, xs])
    assert np.array_equal(special.ndtr(-np.abs(z)), sps.norm.sf(np.abs(z)))
    assert np.array_equal(special.ndtr(z), sps.norm.cdf(z))


def hommel_loop(p: np.ndarray) -> np.ndarray:
    """Wright (1992), Fig. 2 of Garcia et al. (2010), step by step (the loop the vectorised form replaced)."""
    m = len(p)
    out = p.copy()
    idx = np.arange(1, m + 1)
    for j in range(m, 1, -1):
        tail = idx > m - j
        c_min = float(np.min(j * p[tail] / (j + idx[tail] - m)))
        out[tail] = np.maximum(out[tail], c_min)
        out[~tail] = np.maximum(out[~tail], np.minimum(c_min, j * p[~tail]))
    return np.minimum(out, 1.0)


@pytest.mark.parametrize("seed", range(30))
def test_hommel_equals_wrights_loop(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 300))
    p = np.sort(np.round(rng.uniform(size=m) ** rng.uniform(0.2, 5), int(rng.integers(2, 17))))
    p[: m // 3] = p[0]  # ties
    assert np.array_equal(apv._hommel(p, 0.05).view(np.int64), hommel_loop(p).view(np.int64))
    unsorted = rng.permutation(p)
    order = np.argsort(unsorted, kind="stable")
    want = np.empty(m)
    want[order] = hommel_loop(unsorted[order])
    assert np.array_equal(stats.adjust(unsorted, "hommel"), want)


def letters_with_sets(names: list[str], rejected: list[tuple[str, str]]) -> dict[str, str]:
    """Piepho's insert-absorb on sets of positions, as written before the bitmasks."""
    position = {name: i for i, name in enumerate(names)}
    columns = [frozenset(range(len(names)))]
    for a, b in rejected:
        i, j = position[a], position[b]
        grown: list[frozenset[int]] = []
        for col in columns:
            grown.extend([col - {i}, col - {j}] if i in col and j in col else [col])
        unique = list(dict.fromkeys(grown))
        columns = [c for c in unique if not any(c < other for other in unique)]
    columns.sort(key=lambda c: sorted(c))
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return {name: "".join(letters[c] for c, col in enumerate(columns) if i in col) for i, name in enumerate(names)}


@pytest.mark.parametrize("seed", range(60))
def test_compact_letters_equal_the_set_algorithm(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 21))
    names = [f"L{i}" for i in range(k)]
    all_pairs = [(names[i], names[j]) for i in range(k) for j in range(i + 1, k)]
    share = rng.uniform(0.05, 0.9)
    rejected = [pair if rng.uniform() < 0.5 else pair[::-1] for pair in all_pairs if rng.uniform() < share]
    rejected = [rejected[i] for i in rng.permutation(len(rejected))]
    try:
        want = letters_with_sets(names, rejected)
    except IndexError:  # more than 52 letters: refused
        with pytest.raises(ValueError, match="letters needed"):
            stats.compact_letters(names, rejected)
        return
    assert stats.compact_letters(names, rejected) == want


@pytest.mark.parametrize(("k", "n"), SHAPES)
def test_contrasts_and_win_loss_tie_equal_the_pair_by_pair_computation(k: int, n: int) -> None:
    df = table(k, n, seed=3 * k + n, decimals=3)
    raw = df.to_numpy()
    rows = np.abs(raw).max(axis=1, keepdims=True)
    z = np.zeros((k, k))
    for u in range(k):
        for v in range(u + 1, k):
            z[u, v] = float(np.median(snap(raw[:, u] - raw[:, v], rows[:, 0])))
            z[v, u] = -z[u, v]
    m = z.mean(axis=1)
    want = snap(m[:, None] - m[None, :], float(np.median(rows))) + 0.0
    got = stats.contrast_estimation(df).to_numpy()
    assert np.array_equal(got.view(np.int64), want.view(np.int64))

    t = as_table(df)
    win, loss, tie = np.zeros(k, int), np.zeros(k, int), np.zeros(k, int)
    for u in range(k):
        for v in range(u + 1, k):
            d = snap(t.values[:, u] - t.values[:, v], t.scale[:, 0])
            if d.max() == d.min():
                better, significant = d[0], d[0] != 0.0
            else:
                better = d.mean()
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    significant = sps.ttest_rel(t.values[:, u], t.values[:, v]).pvalue <= 0.05
            if significant and better != 0.0:
                win[u if better > 0 else v] += 1
                loss[v if better > 0 else u] += 1
            else:
                tie[u] += 1
                tie[v] += 1
    wlt = stats.ttest_win_loss_tie(df).reindex(df.columns)
    assert wlt["win"].tolist() == win.tolist()
    assert wlt["loss"].tolist() == loss.tolist()
    assert wlt["tie"].tolist() == tie.tolist()


def test_control_and_pairwise_apvs_equal_stats_adjust() -> None:
    df = table(9, 30, seed=5)
    for test in ("friedman", "aligned", "quade"):
        res = stats.control_test(df, "L03", test=test, alpha=0.05)
        for method in stats.CONTROL_METHODS:
            assert np.array_equal(res[method].to_numpy(), stats.adjust(res["p"].to_numpy(), method, alpha=0.05)), method
        pw = stats.pairwise_test(df, test=test)
        for method in ("nemenyi", "holm", "shaffer", "bergmann"):
            assert np.array_equal(pw[method].to_numpy(), stats.adjust(pw["p"].to_numpy(), method)), method


@pytest.mark.parametrize(("k", "n"), SHAPES)
def test_aligned_ranks_and_quade_weights_equal_scipys_rankdata(k: int, n: int) -> None:
    t = stats.ranked_table(table(k, n, seed=11 * k + n))
    # k x - sum x: the order of x - mean, exact at the row's scale (issue 26's decimal rule)
    aligned = snap(k * t.values - t.values.sum(axis=1, keepdims=True), np.abs(t.values).max(axis=1, keepdims=True))
    want = rankdata(-aligned.ravel(), method="average").reshape(aligned.shape)
    assert np.array_equal(aligned_rank_matrix(t).view(np.int64), want.view(np.int64))
    ranges = snap(t.values.max(axis=1) - t.values.min(axis=1), np.abs(t.values).max(axis=1))
    q, within = quade_components(t)
    assert np.array_equal(q.view(np.int64), rankdata(ranges, method="average").view(np.int64))
    assert np.array_equal(within.view(np.int64), rankdata(-t.values, axis=1, method="average").view(np.int64))
