"""All pairs of learners compared by a paired two-sample test over data sets, with adjusted p-values.

Each pair's p-value comes from its own two columns only (:func:`stats.wilcoxon` or
:func:`stats.sign_test` across the data sets), unlike the rank post-hocs of
:mod:`stats.posthoc.ztests`, whose z uses every learner's ranks. The family of k(k-1)/2 p-values is then
adjusted with :func:`stats.adjust` (Holm by default). All pairs are computed at once
(:mod:`stats.posthoc._paired_columns`: one array of differences, ranked column by column), with the
same floats, digit for digit, as calling the per-pair functions in a loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from stats.core import TableResult, as_table, check_choice, pairs
from stats.posthoc._paired_columns import paired_differences, sign_columns, wilcoxon_columns
from stats.posthoc.apv import Method, adjust
from stats.posthoc.shaffer_bergmann import MAX_EXACT_K
from stats.twosample import EXACT_MAX_N, ZERO_METHODS

Test = Literal["wilcoxon", "sign"]
TESTS = ("wilcoxon", "sign")
ADJUST_METHODS = ("bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "shaffer", "bergmann")


@dataclass(frozen=True, eq=False, repr=False)
class PairwiseTwoSample(TableResult):
    """:func:`pairwise_wilcoxon`'s result: ``table`` (one row per pair) and what produced it."""

    test: str
    method: str
    n: int
    option: str


def pairwise_wilcoxon(
    scores: Any,
    *,
    higher_is_better: bool = True,
    method: Method = "holm",
    test: Test = "wilcoxon",
    zero_method: str = "demsar",
    ties: str = "split",
) -> PairwiseTwoSample:
    """All k(k-1)/2 pairs compared by the Wilcoxon signed-ranks (or sign) test, with adjusted p-values.

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners (as :func:`stats.pairwise_test` takes).
    higher_is_better : bool, default True
    method : str, default "holm"
        The adjustment of the k(k-1)/2 p-values by :func:`stats.adjust`: ``"holm"``,
        ``"bonferroni"``, ``"hochberg"``, ``"hommel"``, ``"holland"``, ``"finner"``, or the
        all-pairs procedures ``"shaffer"`` and ``"bergmann"`` (exact for k <= 16; their logical
        constraints hold for any test of the pairs' equality).
    test : {"wilcoxon", "sign"}
        :func:`stats.wilcoxon` (exact up to 50 data sets, normal approximation above) or
        :func:`stats.sign_test` (exact binomial), on the columns ``a`` and ``b`` of each pair.
    zero_method : {"demsar", "zsplit", "pratt", "wilcox"}, default "demsar"
        Zero differences in the Wilcoxon test (see :func:`stats.wilcoxon`); ``"wilcox"`` drops
        them as scipy's and scikit-posthocs' default does.
    ties : {"split", "discard"}, default "split"
        Ties in the sign test (see :func:`stats.sign_test`).

    Returns
    -------
    PairwiseTwoSample
        ``.table`` has one row per pair in the order of :func:`stats.pairwise_test` ((0,1), (0,2), ..., (1,2),
        ...), columns ``a``, ``b``, ``statistic`` (Wilcoxon's T = min(R+, R-), or the sign
        test's wins of ``b``), ``better`` (the learner with the larger rank sum R+ / R-, or
        more wins; "" when equal), ``p`` (two-sided, unadjusted) and the adjusted p-values in a
        column named ``f"{test}-{method}"`` (e.g. ``"wilcoxon-holm"``, ``"sign-holm"``).
        The result reads like its table and holds ``test``, ``method``, ``n`` and ``option``
        (the ``zero_method`` of the Wilcoxon test, or the sign test's ``ties``).

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple data sets", JMLR
       7:1-30, 2006, sec. 3.1.3 (Wilcoxon and sign test for two classifiers).
    .. [2] S. Holm, "A simple sequentially rejective multiple test procedure", Scand. J.
       Statist. 6:65-70, 1979.
    .. [3] A. Benavoli, G. Corani, F. Mangili, "Should we really use post-hoc tests based on
       mean-ranks?", JMLR 17(5):1-10, 2016 (pairwise Wilcoxon with Holm instead of mean ranks).

    Examples
    --------
    >>> table = [[0.9, 0.8, 0.7], [0.8, 0.7, 0.6], [0.95, 0.9, 0.5], [0.7, 0.6, 0.65], [0.85, 0.8, 0.7]]
    >>> res = pairwise_wilcoxon(table)
    >>> res[["a", "b", "statistic", "better"]].values.tolist()
    [['L1', 'L2', 0.0, 'L1'], ['L1', 'L3', 0.0, 'L1'], ['L2', 'L3', 1.0, 'L2']]
    >>> res["wilcoxon-holm"].round(4).tolist()
    [0.1875, 0.1875, 0.1875]
    """
    check_choice("test", test, TESTS)
    check_choice("method", method, ADJUST_METHODS)
    if test == "wilcoxon":
        check_choice("zero_method", zero_method, ZERO_METHODS)
    else:
        check_choice("ties", ties, ("split", "discard"))
    table = as_table(scores, higher_is_better=higher_is_better)
    k = table.k
    if method == "bergmann" and k > MAX_EXACT_K:
        raise ValueError(f"exact Bergmann-Hommel is limited to k <= {MAX_EXACT_K} learners; got k = {k}: use 'shaffer'")
    first, second = (np.array(side, dtype=np.intp) for side in zip(*pairs(k)))
    # table.values is oriented (higher is better) and snapped row by row; every pair's
    # differences at once, each column what stats.wilcoxon / stats.sign_test compute for it.
    d = paired_differences(table.values, first, second)
    if test == "wilcoxon":
        res = wilcoxon_columns(d, zero_method, EXACT_MAX_N)
        edge = np.sign(res["r_plus"] - res["r_minus"])  # R+ sums the data sets where b is better
        statistic = res["statistic"]
    else:
        res = sign_columns(d, ties)
        edge = np.sign(res["wins"] - res["losses"])
        statistic = res["statistic"].astype(float)
    names = np.asarray([*table.learners, ""], dtype=object)  # "": neither is better
    better = names[np.where(edge > 0, second, np.where(edge < 0, first, len(names) - 1))].tolist()
    pvalue = np.asarray(res["pvalue"], dtype=float)
    columns = {
        "a": names[first].tolist(),
        "b": names[second].tolist(),
        "statistic": np.asarray(statistic, dtype=float),
        "better": better,
        "p": pvalue,
        f"{test}-{method}": adjust(pvalue, method),
    }
    out = pd.DataFrame(columns)  # one frame, built once from its columns
    option = zero_method if test == "wilcoxon" else ties
    return PairwiseTwoSample(out, test=test, method=method, n=table.n, option=option)
