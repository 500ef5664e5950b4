"""Critical values and critical differences for average ranks (Demsar 2006, Sec. 3.2.2), and the
p-values of the same rule (:func:`nemenyi_tukey_p`): Tukey's studentized range on Friedman's ranks."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import pandas as pd

from stats.core import check_alpha, check_choice, norm_cdf, norm_isf
from stats.ranking._nemenyi_q import K_MAX, K_MIN, Q_NEMENYI
from stats.ranking.ranks import AverageRanks

CDMethod = Literal["nemenyi", "bonferroni_dunn"]


@lru_cache(maxsize=256)
def _q(k: int, alpha: float, method: str, df: float) -> float:
    """Bonferroni-Dunn's from ``scipy.special`` (``norm_isf``); Nemenyi's from the table of
    :mod:`stats.ranking._nemenyi_q` (alpha 0.10, 0.05, 0.01, k up to 100, df infinite), else from
    ``scipy.stats.studentized_range``, imported only then (0.5-0.9 s: not on the tests view's path)."""
    if method != "nemenyi":
        return float(norm_isf(alpha / (2.0 * (k - 1))))
    table = Q_NEMENYI.get(alpha)
    if table is not None and df == math.inf and K_MIN <= k <= K_MAX:
        return table[k - K_MIN]
    from scipy import stats as sps

    return float(sps.studentized_range.ppf(1.0 - alpha, k, df)) / math.sqrt(2.0)


def q_alpha(k: int, *, alpha: float = 0.05, method: CDMethod = "nemenyi", df: float = math.inf) -> float:
    """Critical value q_alpha of Demsar's Table 5.

    Nemenyi: the studentized range quantile for k groups and ``df`` degrees of
    freedom divided by sqrt(2) (Demsar uses df = infinity). Bonferroni-Dunn:
    the two-sided normal quantile at alpha / (k - 1).

    Examples
    --------
    >>> round(q_alpha(4), 3), round(q_alpha(4, method="bonferroni_dunn"), 3)
    (2.569, 2.394)
    """
    check_choice("method", method, ("nemenyi", "bonferroni_dunn"))
    a = check_alpha(alpha)
    if int(k) != k or k < 2:
        raise ValueError(f"k (number of learners) must be an integer >= 2, got {k!r}")
    if not df > 0:
        raise ValueError(f"df must be positive, got {df!r}")
    return _q(int(k), a, method, float(df))


def critical_difference(
    k: int,
    n: int,
    *,
    alpha: float = 0.05,
    method: CDMethod = "nemenyi",
    df: float = math.inf,
) -> float:
    """Critical difference CD = q_alpha * sqrt(k (k + 1) / (6 N)).

    Two learners' average ranks that differ by at least CD are significantly
    different (Nemenyi, all pairs) or, for Bonferroni-Dunn, a learner differs
    from the control.

    Parameters
    ----------
    k, n : int
        Number of learners and of data sets.
    alpha : float, default 0.05
    method : {"nemenyi", "bonferroni_dunn"}
    df : float, default inf
        Degrees of freedom of the studentized range (Nemenyi only). Demsar's
        definition is df = infinity; scmamp uses df = k (N - 1), which gives
        1.1277 instead of 1.1136 for k = 5, N = 30.

    Notes
    -----
    q_alpha is computed from the distributions for any k rather than copied
    from Demsar's printed table: its Bonferroni-Dunn value for k = 9 (2.724) is a
    typo for 2.734. Nemenyi's q for alpha 0.10, 0.05, 0.01 and k <= 100 comes from
    scipy's own values stored with their every digit (:mod:`stats.ranking._nemenyi_q`).

    References
    ----------
    Nemenyi (1963), PhD thesis, Princeton; Dunn (1961) JASA 56, 52-64;
    Demsar (2006) JMLR 7, Sec. 3.2.2 and Table 5; Menzies' notes on comparing learners
    (CD = 1.25 for k = 4, N = 14).

    Examples
    --------
    >>> round(critical_difference(4, 14), 2)
    1.25
    """
    if int(n) != n or n < 1:
        raise ValueError(f"n (number of data sets) must be an integer >= 1, got {n!r}")
    q = q_alpha(k, alpha=alpha, method=method, df=df)
    return q * math.sqrt(k * (k + 1) / (6.0 * n))


#: Below this, :func:`nemenyi_tukey_p` gives Bonferroni's m p instead of ``scipy.stats``' value:
#: scipy computes the studentized range's tail as 1 - cdf (an absolute error near 1e-16, so 0 or
#: 2.2e-16 for any q past about 12), while m p, the bound it approaches, is within 0.1% of it
#: below 1e-10 (k = 2 to 1,000).
TUKEY_TAIL = 1e-10


def nemenyi_tukey_p(ranks: Any, n: int | None = None) -> pd.DataFrame:
    """Nemenyi's p-value of every pair of learners as Demsar (2006) tests them: Tukey's single-step
    studentized range on Friedman's average ranks, whose rejections are the critical difference's.

    p_ij = P(Q_{k,inf} >= |R_i - R_j| sqrt(2) / sqrt(k (k + 1) / (6 N))), with Q_{k,inf} the
    range of k independent standard normals (Tukey's studentized range at df = infinity; Nemenyi
    1963). Since q_alpha of :func:`critical_difference` is that range's 1 - alpha quantile over
    sqrt(2), p_ij <= alpha exactly when |R_i - R_j| >= CD (Demsar 2006, Sec. 3.2.2: the
    performance of two classifiers is significantly different if the corresponding average ranks
    differ by at least the critical difference), up to the rounding of the two computations
    (the views decide by the CD itself). ``scikit_posthocs.posthoc_nemenyi_friedman`` computes
    the same p.

    Garcia & Herrera (2008) call "Nemenyi" another rule: the APV min(1, m p) with p the two-sided
    normal p of z = (R_i - R_j) / SE and m = k (k - 1) / 2 (the ``nemenyi`` column of
    :func:`stats.pairwise_test`; also KEEL's and STAC's): Bonferroni's bound on this p
    (p_z <= p_ij <= m p_z), equal to it for k = 2 and larger for k > 2, so it rejects some
    pairs at least CD apart less readily.

    Parameters
    ----------
    ranks : AverageRanks, Series or sequence
        Friedman's average ranks (1 = best; the orientation does not matter, only differences
        do), named by their index (``L1..Lk`` for a sequence).
    n : int, optional
        The number of data sets N, at least 2 (from ``ranks`` when it is an :class:`AverageRanks`).

    Returns
    -------
    DataFrame
        k x k, symmetric, indexed and labelled by the learners, 1 on the diagonal.

    Notes
    -----
    ``scipy.stats.studentized_range.sf`` (df = infinity) computes it, imported only here
    (0.5-0.9 s), once per distinct difference of ranks (halves of integers over N, so few);
    below :data:`TUKEY_TAIL`, where scipy's 1 - cdf has lost its digits, the value is m p_z,
    which the range's tail approaches.

    References
    ----------
    Tukey (1953), "The problem of multiple comparisons", unpublished manuscript, Princeton;
    Nemenyi (1963), "Distribution-free multiple comparisons", PhD thesis, Princeton; Demsar (2006)
    JMLR 7, Sec. 3.2.2; Garcia & Herrera (2008) JMLR 9, 2677-2694.

    Examples
    --------
    Ranks 0.5 apart, less than CD = 0.605 (k = 3, N = 30), and 1.0 apart:

    >>> p = nemenyi_tukey_p([1.5, 2.0, 2.5], 30)
    >>> round(critical_difference(3, 30), 3), round(float(p.loc["L1", "L2"]), 4), round(float(p.loc["L1", "L3"]), 6)
    (0.605, 0.1285, 0.000317)
    """
    if n is None and not isinstance(ranks, AverageRanks):
        raise ValueError("n (number of data sets) is needed unless ranks are AverageRanks")
    # named L1..Lk when a sequence, checked as every average ranks are (AverageRanks)
    ranked = AverageRanks(getattr(ranks, "ranks", ranks), ranks.n if n is None else n)
    series, k = ranked.ranks, ranked.k
    r = series.to_numpy()
    se = math.sqrt(k * (k + 1) / (6.0 * ranked.n))
    i, j = np.triu_indices(k, 1)
    out = np.ones((k, k))
    out[i, j] = out[j, i] = _studentized_p(np.abs(r[i] - r[j]) / se, k)
    return pd.DataFrame(out, index=series.index, columns=series.index)


def _studentized_p(z: np.ndarray, k: int) -> np.ndarray:
    """P(Q_{k,inf} >= z sqrt(2)) for each |z| of ``z`` (once per distinct value), or Bonferroni's
    min(1, m 2 Phi(-z)) below :data:`TUKEY_TAIL`."""
    from scipy import stats as sps  # 0.5-0.9 s: only when these p-values are asked for

    values, where = np.unique(z, return_inverse=True)
    p = np.asarray(sps.studentized_range.sf(values * math.sqrt(2.0), k, math.inf), dtype=float)
    bonferroni = np.minimum(1.0, k * (k - 1) / 2.0 * 2.0 * norm_cdf(-values))
    p = np.clip(np.where(p < TUKEY_TAIL, bonferroni, p), 0.0, 1.0)
    return p[where.ravel()]
