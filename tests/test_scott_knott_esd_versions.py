"""ScottKnott-ESD as its users know it: stats.scott_knott against the groups the R package
ScottKnottESD itself computed (Tantithamthavorn; 1.2.2, 2.0.3 and 3.0.0 under R 4.2.2, on its own
data sets ``example`` and ``maven``: tests/data/reference/scott_knott_esd/), against a
statement-by-statement transcription of the package's ``Partition`` (its depth-first bookkeeping
with ``markg``), and at Cohen's d's bound 0.2 in exact decimal arithmetic.

Methods: "esd" = 2.x (Tantithamthavorn et al., IEEE TSE 45(7), 2019), "esd-v1" = 1.x as written
(Tantithamthavorn et al., IEEE TSE 43(1), 2017), "np" = 3.0.0's ``version = "np"``.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

from stats import scott_knott
from stats.groupings._scott_knott_esd import cohen_d, kruskal_cuts, twice_average_ranks
from tests.conftest import REFERENCE

ESD = REFERENCE / "scott_knott_esd"
VERSIONS = {"esd": "2.x-p", "esd-v1": "1.x", "np": "3.0-np"}


def reference(design: str, version: str) -> dict[str, Any]:
    return json.loads(Path(ESD / f"{design}_groups_{version}.json").read_text())


def data(design: str) -> pd.DataFrame:
    return pd.read_csv(ESD / f"{design}.csv")


# ---------------------------------------------------------------- the package's own outputs


@pytest.mark.parametrize("design", ["example", "maven"])
@pytest.mark.parametrize("method", ["esd", "esd-v1"])
def test_groups_are_the_packages(design: str, method: str) -> None:
    ref = reference(design, VERSIONS[method])
    assert ref["higher_is_better"] is True
    res = scott_knott(data(design), method=method)
    assert res.ranks == ref["groups"]
    assert list(res.centres) == list(data(design).columns)
    assert sorted(res.centres, key=lambda t: -res.centres[t]) == ref["order"]  # R's mean order
    for name, mean in ref["means"].items():  # R prints 15 digits; centres keep 12 of the data's scale
        assert res.centres[name] == pytest.approx(mean, rel=1e-9)


@pytest.mark.parametrize("design", ["example", "maven"])
def test_np_groups_are_those_of_the_packages_partition(design: str) -> None:
    # 3.0.0's version = "np" partitions in median order; groups_if_labelled_by_median gives the
    # groups its partition made, each learner with its own group.
    ref = reference(design, "3.0-np")
    res = scott_knott(data(design), method="np")
    assert res.ranks == ref["groups_if_labelled_by_median"]
    assert [t for group in res.groups for t in group] == ref["median_order"]
    assert res.centres == pytest.approx(data(design).median().to_dict(), rel=1e-9)


@pytest.mark.parametrize("design", ["example", "maven"])
def test_where_the_packages_np_names_its_groups_in_mean_order(design: str) -> None:
    # 3.0.0 returns the group numbers of its median-ordered partition under the names sorted by
    # mean (names(sk$groups) <- rownames(sk$m.inf)): position i of the mean order gets the group
    # of position i of the median order. Where the orders differ, its ranks land on other learners.
    ref = reference(design, "3.0-np")
    res = scott_knott(data(design), method="np")
    median_order = [t for group in res.groups for t in group]
    as_the_package_names_them = {ref["order"][i]: res.ranks[median_order[i]] for i in range(len(median_order))}
    assert as_the_package_names_them == ref["groups"]
    wrong = {t for t in ref["groups"] if ref["groups"][t] != res.ranks[t]}
    assert ref["label_mismatch"] == bool(wrong)
    if design == "maven":  # the orders differ at 13 positions; the ranks differ for two learners
        assert wrong == {"Avg_NewFeatureCommitCount", "Avg_CloneLineCount"}
        assert (ref["groups"]["Avg_NewFeatureCommitCount"], res.ranks["Avg_NewFeatureCommitCount"]) == (3, 4)
    else:
        assert wrong == set() and ref["order"] == ref["median_order"]


@pytest.mark.parametrize("design", ["example", "maven"])
def test_v1_before_its_merge_is_plain_scott_knott(design: str) -> None:
    # The 1.x files also hold ScottKnott::SK's own groups (sk_original): the partition by the chi2
    # test alone, before the Cohen's d merge. The accepted cuts of "esd-v1" make those groups.
    ref = reference(design, "1.x")
    res = scott_knott(data(design), method="esd-v1")
    order = ref["order"]
    cuts = {order.index(s.worse[0]) for s in res.splits if s.accepted}
    sk, rank = {}, 0
    for i, name in enumerate(order):
        rank += i == 0 or i in cuts
        sk[name] = rank
    assert sk == ref["sk_original"]


# ---------------------------------------------------------------- the package's bookkeeping


def partition_as_in_r(size: int, sqsum_of: Any, negligible: Any) -> list[int]:
    """ScottKnottESD's Partition (2.0.3; 3.0.0's PartitionParametric and PartitionNonParametric
    are the same walk), statement by statement, positions 1-based, its tail recursion a loop:
    sqsum[k1] for k1 in k..g-1 in a vector of g zeros, ord1 = order(sqsum, decreasing = TRUE)[1],
    the ``diff(k, g) | ord1 == k`` branch, markg and the ``while (k == g)`` loop."""
    group, markg = [0] * (size + 1), [0] * (size + 1)
    ngroup, k, g = 0, 1, size
    while True:
        sqsum = [0.0] * (g + 1)
        for k1 in range(k, g):
            sqsum[k1] = sqsum_of(k, k1, g)
        ord1 = max(range(1, g + 1), key=lambda i: (sqsum[i], -i))  # the first of the largest
        if negligible(k, g) or ord1 == k:
            if not negligible(k, g):
                ngroup += 1
                group[k] = ngroup
                k = ord1 + 1
            if negligible(k, g):
                ngroup += 1
                group[k : g + 1] = [ngroup] * (g + 1 - k)
                if all(group[1:]):
                    return group[1:]
                k, g = g + 1, markg[g]
            while k == g:
                ngroup += 1
                group[g] = ngroup
                if all(group[1:]):
                    return group[1:]
                k, g = g + 1, markg[g]
        else:
            markg[ord1] = g
            g = ord1


def _design(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    k, n = int(rng.integers(2, 9)), int(rng.integers(5, 41))
    return {f"T{i}": np.round(rng.uniform(0, 1.5) + rng.normal(size=n), 2) for i in range(k)}


@pytest.mark.parametrize("seed", range(60))
def test_esd_is_the_packages_partition(seed: int) -> None:
    samples = _design(seed)
    names = list(samples)
    means = {t: float(np.mean(x)) for t, x in samples.items()}
    order = sorted(names, key=lambda t: -means[t])  # stable, as R's order(decreasing = TRUE)
    m = [0.0] + [means[t] for t in order]

    def sqsum_of(k: int, k1: int, g: int) -> float:
        t1, t2 = sum(m[k : k1 + 1]), sum(m[k1 + 1 : g + 1])
        return t1**2 / (k1 - k + 1) + t2**2 / (g - k1) - (t1 + t2) ** 2 / (g - k + 1)

    def negligible(k: int, g: int) -> bool:  # effsize's cohen.d: pooled sd, |d| < 0.2
        if k == g:
            return True
        a, b = samples[order[k - 1]], samples[order[g - 1]]
        sd = math.sqrt(((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1)) / (a.size + b.size - 2))
        return abs(a.mean() - b.mean()) / sd < 0.2

    expected = dict(zip(order, partition_as_in_r(len(order), sqsum_of, negligible)))
    res = scott_knott(samples)
    assert res.ranks == expected
    assert scott_knott({t: -x for t, x in samples.items()}, higher_is_better=False).ranks == expected


@pytest.mark.parametrize("seed", range(60))
def test_np_is_the_packages_partition(seed: int) -> None:
    samples = _design(100 + seed)
    names = list(samples)
    medians = {t: float(np.median(x)) for t, x in samples.items()}
    order = sorted(names, key=lambda t: medians[t])[::-1]  # rev(sort(medians))

    def sqsum_of(k: int, k1: int, g: int) -> float:  # kruskal.test on all values, the segment relabelled
        left = np.concatenate([samples[t] for t in order[k - 1 : k1]])
        right = np.concatenate([samples[t] for t in order[k1:g]])
        others = [samples[t] for t in order[: k - 1] + order[g:]]
        return float(sps.kruskal(left, right, *others).statistic)

    def negligible(k: int, g: int) -> bool:  # effsize's cliff.delta of treatments k and g, |delta| < 0.147
        a, b = samples[order[k - 1]], samples[order[g - 1]]
        return abs(np.sign(a[:, None] - b[None, :]).mean()) < 0.147

    expected = dict(zip(order, partition_as_in_r(len(order), sqsum_of, negligible)))
    assert scott_knott(samples, method="np").ranks == expected


def test_the_first_learner_alone_then_the_rest() -> None:
    # The package's ord1 == k branch: the best cut leaves the first learner alone; it becomes a
    # group and the rest is tested again. A: mean 10; B, C: means 2 and 1.9 with sd 1 (d = 0.1).
    rng = np.random.default_rng(3)
    z = rng.normal(size=50)
    z = (z - z.mean()) / z.std(ddof=1)
    res = scott_knott({"A": 10 + z, "B": 2 + z, "C": 1.9 + rng.permutation(z)})
    assert res.groups == (("A",), ("B", "C"))
    first, second = res.splits
    assert (first.better, first.worse, first.accepted, first.test) == (("A",), ("B", "C"), True, "cohen-d")
    # B0 on the means 10, 2, 1.9: cut after A: 10^2 + 3.9^2 / 2 - 13.9^2 / 3
    assert first.statistic == pytest.approx(10**2 + 3.9**2 / 2 - 13.9**2 / 3, rel=1e-9)
    assert first.effect == pytest.approx(8.1, rel=1e-9) and math.isnan(first.pvalue)
    assert (second.better, second.worse, second.accepted) == (("B",), ("C",), False)
    assert second.effect == pytest.approx(0.1, rel=1e-9)


def test_np_equal_medians_in_reverse_input_order() -> None:
    # R's rev(sort(medians)): equal medians come in reverse input order; here A and B share the
    # median 5 and a group (Cliff's delta of B and A: 0).
    res = scott_knott({"A": [4.0, 5.0, 6.0], "B": [4.0, 5.0, 6.0], "C": [0.0, 0.5, 1.0]}, method="np")
    assert res.groups == (("B", "A"), ("C",))


# ---------------------------------------------------------------- Kruskal-Wallis per cut


def test_kruskal_per_cut_is_scipys() -> None:
    # Each cut's H from cumulative rank sums (the values ranked once, ties averaged) is
    # scipy.stats.kruskal of the whole data with the segment's two parts as two groups.
    rng = np.random.default_rng(11)
    samples = [np.round(rng.normal(rng.uniform(0, 2), 1, size=int(rng.integers(3, 30))), 1) for _ in range(7)]
    pooled = np.concatenate(samples)
    twice, ties = twice_average_ranks(pooled)
    assert np.array_equal(twice, (2 * sps.rankdata(pooled)).astype(np.int64))
    ends = np.cumsum([s.size for s in samples])
    sums = [int(s) for s in np.add.reduceat(twice, np.r_[0, ends[:-1]])]
    counts = [s.size for s in samples]
    for first, end in [(0, 7), (2, 6), (3, 5), (5, 7)]:
        h = kruskal_cuts(sums, counts, first, end, ties)
        assert len(h) == end - first - 1
        for c, value in enumerate(h, start=first + 1):
            left, right = np.concatenate(samples[first:c]), np.concatenate(samples[c:end])
            want = sps.kruskal(left, right, *samples[:first], *samples[end:]).statistic
            assert float(value) == pytest.approx(want, rel=1e-12)


# ---------------------------------------------------------------- Cohen's d at 0.2


def _decimals(values: tuple[int, ...], scale: str, shift: str) -> list[float]:
    return [float(Decimal(v) * Decimal(scale) + Decimal(shift)) for v in values]


BOUNDARY = [("1", "0"), ("100", "0"), ("0.01", "0"), ("0.1", "0.7"), ("0.3", "0"), ("0.001", "1234.567"), ("1", "0.1")]


@pytest.mark.parametrize(("scale", "shift"), BOUNDARY)
def test_cohen_d_of_exactly_0_2_is_small(scale: str, shift: str) -> None:
    # x = 10 + (-5, 0, 5), y = 9 + (-5, 0, 5): means 10 and 9, sums of squares 50 + 50 on
    # 3 + 3 - 2 = 4 df, pooled sd 5: d = 1/5 = 0.2 exactly, "small" for effsize (not negligible),
    # and so for every decimal scaling and shift of the values. "esd" cuts them apart.
    x, y = _decimals((5, 10, 15), scale, shift), _decimals((4, 9, 14), scale, shift)
    assert cohen_d(np.array(x), np.array(y))[1] is False and cohen_d(np.array(y), np.array(x))[1] is False
    res = scott_knott({"x": x, "y": y})
    assert res.groups == (("x",), ("y",)) and res.splits[0].effect == pytest.approx(0.2, rel=1e-9)
    low = scott_knott({"x": [-v for v in x], "y": [-v for v in y]}, higher_is_better=False)
    assert low.groups == (("x",), ("y",))
    # y 0.01 higher (before scaling): d = 0.99 / 5 = 0.198, negligible: one group
    y_near = _decimals((4, 9, 14), scale, shift)
    y_near = [float(Decimal(str(v)) + Decimal("0.01") * Decimal(scale)) for v in y_near]
    assert scott_knott({"x": x, "y": y_near}).groups == (("x", "y"),)


def test_floating_point_alone_would_call_some_of_them_negligible() -> None:
    # Why the bound is decided exactly: the floating-point d of some of these decimal copies is
    # below 0.2 (0.1999999999999996 for the values times 0.3).
    below = []
    for scale, shift in BOUNDARY:
        a, b = np.array(_decimals((5, 10, 15), scale, shift)), np.array(_decimals((4, 9, 14), scale, shift))
        d = (a.mean() - b.mean()) / math.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
        below.append(abs(d) < 0.2)
    assert any(below) and not all(below)
