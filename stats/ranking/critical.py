"""Critical values and critical differences for average ranks (Demsar 2006, Sec. 3.2.2)."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from stats.core import check_alpha, check_choice, norm_isf
from stats.ranking._nemenyi_q import K_MAX, K_MIN, Q_NEMENYI

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
