"""Post-hoc z tests on average ranks: one learner against a control, and all pairs.

z = (R_i - R_j) / SE with R the average ranks of the omnibus test (Garcia et al. 2010,
"Post-hoc Procedures"), p two-sided from the standard normal, and the APVs of
:func:`stats.adjust`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import special

from stats.core import TableResult, as_table, check_alpha, check_bool, check_choice, pairs
from stats.posthoc.apv import CONTROL_METHODS, adjust, adjust_sorted
from stats.posthoc.shaffer_bergmann import MAX_EXACT_K
from stats.ranking import AverageRanks, aligned_rank_matrix, check_average_ranks, mean_ranks, quade_components

Test = Literal["friedman", "aligned", "quade"]
TESTS = ("friedman", "aligned", "quade")


@dataclass(frozen=True, eq=False, repr=False)
class ControlTest(TableResult):
    """:func:`control_test`'s result: ``table`` (one row per other learner) and what produced it."""

    control: str
    test: str
    alpha: float
    se: float
    n: int
    ranks: pd.Series


@dataclass(frozen=True, eq=False, repr=False)
class PairwiseTest(TableResult):
    """:func:`pairwise_test`'s result: ``table`` (one row per pair) and what produced it.

    ``bergmann`` is ``"exact"``, or why the ``bergmann`` column holds Shaffer's values."""

    test: str
    se: float
    n: int
    ranks: pd.Series
    bergmann: str


class BergmannLimitWarning(UserWarning):
    """Bergmann-Hommel was replaced by Shaffer because k is above the exact limit."""


def standard_error(test: Test, k: int, n: int) -> float:
    """Standard error of a difference of two average ranks of ``test`` under H0 (Garcia et al. 2010).

    - Friedman: sqrt(k(k+1) / (6N)) (Demsar 2006, Sec. 3.2.2).
    - Aligned ranks: sqrt(k(kN+1) / 6). Garcia et al. (2010) print sqrt(k(N+1)/6), a misprint.
      Derivation: the kN aligned ranks 1..kN are, under H0, assigned to the k
      learners like ranks to k groups of N in Kruskal-Wallis, so the mean rank
      of a group has variance (kN+1)(kN-N)/(12N) and two groups' means have
      covariance -(kN+1)/12; Var(R_i - R_j) = 2(kN+1)(kN-N)/(12N) + 2(kN+1)/12
      = k(kN+1)/6. The slide's own APV table (p = 2.32777e-7 for FH-GBML) was
      computed with this value, as were scmamp's and STAC's corrected code.
    - Quade: sqrt(k(k+1)(2N+1)(k-1) / (18N(N+1))) on T_j = W_j / (N(N+1)/2).

    Examples
    --------
    >>> round(standard_error("friedman", 4, 14), 3)
    0.488
    """
    check_choice("test", test, TESTS)
    if test == "friedman":
        return math.sqrt(k * (k + 1) / (6.0 * n))
    if test == "aligned":
        return math.sqrt(k * (k * n + 1) / 6.0)
    return math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))


def rank_statistics(scores: Any, test: Test, higher_is_better: bool) -> tuple[pd.Series, int]:
    """Average ranks of ``test`` per learner (Friedman ranks, aligned ranks, or Quade's T_j) and N."""
    check_choice("test", test, TESTS)
    if isinstance(scores, AverageRanks):
        if test != "friedman":
            raise ValueError(
                f"test={test!r} needs the scores table (or control_test_from_ranks); AverageRanks serve 'friedman'"
            )
        return scores.ranks, scores.n
    table = as_table(scores, higher_is_better=higher_is_better)
    n = table.n
    if test == "friedman":
        return mean_ranks(table).ranks, n
    if test == "aligned":
        r = aligned_rank_matrix(table).mean(axis=0)
    else:
        q, within = quade_components(table)
        r = (q[:, None] * within).sum(axis=0) / (n * (n + 1) / 2.0)
    return pd.Series(r, index=table.learners), n


def _as_rank_series(ranks: Any, n: int, test: str) -> pd.Series:
    """``ranks`` as a Series (names ``L1..Lk`` for a sequence), checked to be possible average
    ranks of ``test`` for k learners and ``n`` data sets (:func:`stats.ranking.ranks.check_average_ranks`)."""
    series = ranks.astype(float) if isinstance(ranks, pd.Series) else pd.Series(np.asarray(ranks, float))
    if not isinstance(ranks, pd.Series):
        series.index = [f"L{j + 1}" for j in range(len(series))]
    check_average_ranks(series.to_numpy(), cells=len(series) * int(n) if test == "aligned" else len(series))
    return series


def _two_sided(z: np.ndarray) -> np.ndarray:
    # scipy.stats.norm.sf(x) is special.ndtr(-x): the same floats without the distribution's overhead
    return 2.0 * special.ndtr(-np.abs(z))


def control_test(
    scores: Any,
    control: str,
    *,
    test: Test = "friedman",
    alpha: float = 0.05,
    higher_is_better: bool = True,
) -> ControlTest:
    """Compare every learner with a control: z, raw p and eight APVs (1 x N comparison).

    Parameters
    ----------
    scores : DataFrame, 2-D array or AverageRanks
        Rows are data sets, columns are learners (average ranks serve ``test="friedman"``).
    control : str
        The control learner (usually the proposal).
    test : {"friedman", "aligned", "quade"}
        Whose average ranks and standard error give z.
    alpha : float, default 0.05
        Rom's APVs depend on it; kept as ``alpha`` for the views.
    higher_is_better : bool, default True

    Returns
    -------
    ControlTest
        ``.table`` is indexed by the other learners, sorted by raw p (most
        significant first), with columns ``z``, ``p``, ``bonferroni``, ``holm``,
        ``hochberg``, ``hommel``, ``holland``, ``rom``, ``finner``, ``li``.
        z = (R_other - R_control) / SE: positive when the control ranks better.
        The result reads like its table (``res["holm"]``, ``res.loc[...]``) and
        holds ``control``, ``test``, ``alpha``, ``se``, ``n`` and ``ranks``.

    References
    ----------
    Garcia et al. (2010) Inf. Sci. 180, 2044-2064 ("Post-hoc Procedures", "Adjusted P-Values"); Demsar (2006) JMLR 7.
    """
    r, n = rank_statistics(scores, test, higher_is_better)
    return control_test_from_ranks(r, n, control, test=test, alpha=alpha)


def control_test_from_ranks(
    ranks: Any, n: int, control: str, *, test: Test = "friedman", alpha: float = 0.05
) -> ControlTest:
    """:func:`control_test` from average ranks as papers print them (Friedman ranks,
    average aligned ranks, or Quade's T_j) and the number of data sets N."""
    a = check_alpha(alpha)
    r = _as_rank_series(ranks, n, test)
    if len(r) < 2 or r.index.has_duplicates:
        raise ValueError("need at least 2 learners with distinct names")
    se = standard_error(test, len(r), int(n))
    if control not in r.index:
        raise ValueError(f"control {control!r} is not a learner; learners are: {', '.join(map(str, r.index))}")
    c = r.index.get_loc(control)
    keep = np.delete(np.arange(len(r)), c)  # the other learners' positions
    values = r.to_numpy()
    z = (values[keep] - values[c]) / se
    p = _two_sided(z)
    order = np.argsort(p, kind="stable")  # most significant first
    columns = {"z": z[order], "p": p[order]}
    # each procedure's APVs (stats.adjust) from one sort of p, in the rows' order (p ascending)
    columns.update(adjust_sorted(p[order], CONTROL_METHODS, alpha=a))
    index = r.index.take(keep[order])
    index.name = "learner"
    out = pd.DataFrame(columns, index=index)
    return ControlTest(out, control=control, test=test, alpha=a, se=se, n=int(n), ranks=r)


def pairwise_test(
    scores: Any,
    *,
    test: Test = "friedman",
    higher_is_better: bool = True,
    bergmann: bool = True,
) -> PairwiseTest:
    """All k(k-1)/2 pairwise comparisons with Nemenyi, Holm, Shaffer and Bergmann-Hommel APVs.

    Parameters
    ----------
    scores : DataFrame, 2-D array, RankedTable or AverageRanks
        Rows are data sets, columns are learners (average ranks serve ``test="friedman"``).
    test : {"friedman", "aligned", "quade"}
        Whose average ranks and standard error give z.
    higher_is_better : bool, default True
    bergmann : bool, default True
        ``False`` leaves out the ``bergmann`` column (and ``.bergmann`` says "not computed"):
        exact Bergmann-Hommel takes from milliseconds (k = 10) to seconds (k = 16), which a
        caller showing another procedure need not pay (the explorer computes it when its
        column is shown or exported).

    Returns
    -------
    PairwiseTest
        ``.table`` has one row per pair in column order (a before b), columns
        ``a``, ``b``, ``z`` = (R_a - R_b) / SE (negative when ``a`` ranks better),
        ``p``, ``nemenyi``, ``holm``, ``shaffer``, ``bergmann``. The result reads
        like its table and holds ``test``, ``se``, ``n``, ``ranks`` and
        ``bergmann`` ("exact" or the reason it was replaced).

    Notes
    -----
    Bergmann-Hommel is exact for k <= 16 (a branch and bound over the Bell(k) - 1
    exhaustive sets, :func:`stats.posthoc.shaffer_bergmann.bergmann_apv`). Above that the ``bergmann``
    column holds Shaffer's APVs (valid, slightly less powerful), a
    :class:`BergmannLimitWarning` is issued and ``.bergmann`` says so.

    References
    ----------
    Garcia & Herrera (2008) JMLR 9, 2677-2694 ("Detecting all pairwise
    differences").
    """
    r, n = rank_statistics(scores, test, higher_is_better)
    return pairwise_test_from_ranks(r, n, test=test, bergmann=bergmann)


#: What ``PairwiseTest.bergmann`` says when the column was left out (``bergmann=False``).
NOT_COMPUTED = "not computed (bergmann=False)"


def pairwise_test_from_ranks(ranks: Any, n: int, *, test: Test = "friedman", bergmann: bool = True) -> PairwiseTest:
    """:func:`pairwise_test` from average ranks as papers print them and N."""
    check_bool("bergmann", bergmann)
    r = _as_rank_series(ranks, n, test)
    if len(r) < 2 or r.index.has_duplicates:
        raise ValueError("need at least 2 learners with distinct names")
    se = standard_error(test, len(r), int(n))
    k = len(r)
    idx = pairs(k)
    ia = np.array([i for i, _ in idx])
    ib = np.array([j for _, j in idx])
    values = r.to_numpy()
    z = (values[ia] - values[ib]) / se
    p = _two_sided(z)
    order = np.argsort(p, kind="stable")
    columns = {"a": r.index.take(ia), "b": r.index.take(ib), "z": z, "p": p}
    for method, apv in adjust_sorted(p[order], ("nemenyi", "holm", "shaffer"), alpha=0.05, k=k).items():
        columns[method] = np.empty_like(apv)
        columns[method][order] = apv  # stats.adjust's: in the pairs' order
    if not bergmann:
        note = NOT_COMPUTED
    elif k <= MAX_EXACT_K:
        columns["bergmann"] = adjust(p, "bergmann")
        note = "exact"
    else:
        note = f"Shaffer's APVs: exact Bergmann-Hommel is limited to k <= {MAX_EXACT_K} learners (k = {k})"
        warnings.warn(note, BergmannLimitWarning, stacklevel=2)
        columns["bergmann"] = columns["shaffer"].copy()
    out = pd.DataFrame(columns)  # one frame, built once
    return PairwiseTest(out, test=test, se=se, n=int(n), ranks=r, bergmann=note)
