"""The two-sided Mann-Whitney U test of :func:`scipy.stats.mannwhitneyu`, without importing ``scipy.stats``.

The pairs view shows the U test of the pair it compares; ``import scipy.stats`` (0.5-0.9 s) for
that one test would double the import time of ``rankboard report --view pairs`` (issue 32). Here
is scipy's own computation, step for step, on ``scipy.special`` alone, so that the statistic and
the p-value are the same floats (tests/test_special_distributions.py checks them against
``scipy.stats``):

* U of the first sample from the mid-ranks of the pooled values (Mann and Whitney 1947);
* ``"asymptotic"``: the tie-corrected normal approximation with the continuity correction,
  p = 2 Phi(-z) (``scipy.special.ndtr``);
* ``"exact"``: the null distribution of U counted by Loeffler's recurrence over the sum of
  divisors (Loeffler 1983; scipy's ``_MWU``), in integers, then divided by C(n1 + n2, n1).
"""

from __future__ import annotations

import numpy as np
from scipy import special

from stats.core import column_midranks, twice_midranks


def mannwhitneyu_two_sided(x: np.ndarray, y: np.ndarray, method: str) -> tuple[float, float]:
    """``scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method=method)``'s statistic (U
    of ``x``) and p-value, for 1-D float samples without NaN and ``method`` "exact" or
    "asymptotic"."""
    n1, n2 = int(x.size), int(y.size)
    pooled = np.concatenate([np.asarray(x, dtype=float), np.asarray(y, dtype=float)])
    ranks = twice_midranks(pooled) / 2.0
    u1 = float(np.sum(ranks[:n1])) - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    if method == "exact":
        p = _exact_sf(int(u), n1, n2)
    else:
        _, counts = np.unique(pooled, return_counts=True)
        p = float(special.ndtr(-_z(u, n1, n2, counts.astype(float))))
    return u1, float(np.clip(2.0 * p, 0.0, 1.0))


def _z(u: float, n1: int, n2: int, ties: np.ndarray) -> float:
    """The standardized U with the tie correction and the continuity correction (scipy's ``_get_mwu_z``)."""
    n = n1 + n2
    tie_term = float(np.sum(ties**3 - ties))
    s = np.sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(u - n1 * n2 / 2 - 0.5) / s)


def _exact_sf(u: int, n1: int, n2: int) -> float:
    """P(U >= u) under the null hypothesis, by symmetry from the lower tail: scipy's ``_MWU.sf``."""
    n1, n2 = min(n1, n2), max(n1, n2)
    kc = n1 * n2 - u
    if u < kc:
        pmfs = _frequencies(u, n1, n2)
        return float(1.0 - np.cumsum(pmfs)[u] + pmfs[u])
    return float(np.cumsum(_frequencies(kc, n1, n2))[kc])


def _frequencies(maxu: int, n1: int, n2: int) -> np.ndarray:
    """P(U = u) for u = 0..maxu (n1 <= n2, maxu <= n1 n2 / 2): the counts of Loeffler's
    recurrence u f(u) = sum_{i < u} f(i) sigma(u - i), in uint64 while they fit, over C(n1 + n2, n1)."""
    total = special.binom(n1 + n2, n1)
    sigma = np.zeros(maxu + 1, dtype=int)
    for d in np.arange(1, n1 + 1):
        sigma[np.arange(d, maxu + 1, d)] += d
    for d in np.arange(n2 + 1, n2 + n1 + 1):
        sigma[np.arange(d, maxu + 1, d)] -= d
    s_array = sigma[1:]
    counts = np.zeros(maxu + 1, dtype=np.uint64)
    is_uint, uint_max = True, np.iinfo(np.uint64).max
    counts[0] = 1
    for u in np.arange(1, maxu + 1):
        new = np.dot(counts[:u], s_array[u - 1 :: -1]) / u
        if new > uint_max and is_uint:
            counts, is_uint = counts.astype(float), False
        counts[u] = new
    return counts / total


def mannwhitneyu_asymptotic_columns(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic", axis=0).pvalue``
    of the 2-D ``x`` and ``y`` (float, without NaN, as many columns): each column of ``x`` against
    the same column of ``y``, all at once (the mid-ranks and tie groups of each pooled column)."""
    n1, n2 = int(x.shape[0]), int(y.shape[0])
    pooled = np.concatenate([np.asarray(x, dtype=float), np.asarray(y, dtype=float)], axis=0)
    n = pooled.shape[0]
    twice, size, _ = column_midranks(pooled)
    ranks = twice / 2.0  # the mid-ranks
    tie_term = (size**2 - 1).sum(axis=0).astype(float)  # each group of c values: c (c^2 - 1) = c^3 - c
    u1 = ranks[:n1].sum(axis=0) - n1 * (n1 + 1) / 2
    u = np.maximum(u1, n1 * n2 - u1)
    sd = np.sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (u - n1 * n2 / 2 - 0.5) / sd
    return np.clip(2.0 * special.ndtr(-z), 0.0, 1.0)
