"""The paired two-sample tests of :mod:`stats.twosample.nonparametric` on many pairs of columns at once.

:func:`stats.pairwise_wilcoxon` compares k(k-1)/2 pairs of learners; calling
:func:`stats.wilcoxon` or :func:`stats.sign_test` per pair costs a millisecond of overhead
each. Here the differences of every pair form one (data sets x pairs) array, ranked column
by column, and every rule of the per-pair functions is reproduced on it so that each
statistic and p-value is the same float, digit for digit:

* differences snapped at each pair's scale (:func:`stats.twosample.nonparametric._differences`);
* the ranks of the kept |d| (Demsar's zero split, zsplit, Pratt or Wilcox's zero drop), the
  rank sums R+ and R-, the tie-corrected normal approximation term by term;
* the exact permutation p of R+ (Wilcoxon 1945) for N <= :data:`stats.twosample.nonparametric.EXACT_MAX_N`:
  its null distribution, over the 2^m sign assignments of the m non-zero mid-ranks, counts
  k / 2^m exactly in float64 (m <= 53), so every tail sum is exact whatever the order of
  the additions; by the symmetry of that distribution, min(P(R+ <= r), P(R+ >= r)) is the
  lower tail at min(r, total - r), counted exactly with integers and cached per set of ranks;
* the sign test's binomial p of :func:`scipy.stats.binomtest`, replicated for all k of one N
  at once and cached per N.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

from stats.core import binomtest_half_pvalues as _binomtest_pvalues
from stats.core import column_midranks, snap_at, snap_digits


def paired_differences(values: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``values[:, second] - values[:, first]`` snapped as :func:`stats.twosample.nonparametric._differences`
    does for one pair (higher is better): both columns and their difference at the pair's scale
    max(|a|, |b|), data set by data set. Rows are data sets, columns the pairs."""
    x = np.asarray(values, dtype=float)[:, first]
    y = np.asarray(values, dtype=float)[:, second]
    scale = np.maximum(np.abs(x), np.abs(y))
    digits = snap_digits(scale, x.shape)
    return snap_at(snap_at(y, digits) - snap_at(x, digits), digits)


@lru_cache(maxsize=8192)
def _lower_tail_count(ranks: bytes, t: int) -> int:
    """The number of subsets of the (twice mid-)ranks ``ranks`` (int64 bytes, ascending) whose sum
    is at most ``t``: the sum of the coefficients 0..t of prod (1 + x^r).

    The polynomial is packed into one Python integer, a field of m + 1 bits per power (every
    coefficient is below 2^m: no carries), and multiplied by each (1 + x^r) with a shift and an
    addition, dropping the powers above t. The sum of the fields is the integer modulo
    2^(m + 1) - 1 (as 2^(m + 1) = 1 there), exactly, since the sum is below 2^m."""
    values = np.frombuffer(ranks, dtype=np.int64).tolist()
    field = len(values) + 1
    mask = (1 << ((t + 1) * field)) - 1
    poly, top = 1, 0  # top: the degree of poly
    for r in values:
        if r > t:
            break  # ascending: no larger rank fits under t
        poly += poly << (r * field)
        top += r
        if top > t:  # drop the powers above t
            poly &= mask
            top = t
    return poly % ((1 << field) - 1)


def exact_signed_rank_p(twice_nonzero: np.ndarray, pos2: int) -> float:
    """:func:`stats.twosample.nonparametric._exact_pvalue` (``twice``, ``observed``) for the twice mid-ranks of
    the m non-zero differences and twice their positive rank sum: min(1, 2 min(lower, upper))
    with both tails exact multiples of 2^-m, equal to the lower tail at min(r, total - r)."""
    ranks = np.sort(np.asarray(twice_nonzero, dtype=np.int64))
    total = int(ranks.sum())
    t = min(int(pos2), total - int(pos2))
    count = _lower_tail_count(ranks.tobytes(), t)
    return min(1.0, 2.0 * math.ldexp(float(count), -int(ranks.size)))


def wilcoxon_columns(d: np.ndarray, zero_method: str, exact_max_n: int) -> dict[str, np.ndarray]:
    """:func:`stats.wilcoxon` (``method="auto"``) of every column of the snapped differences ``d``
    (data sets x pairs): arrays ``statistic``, ``pvalue``, ``r_plus``, ``r_minus``, ``n``,
    ``n_zero`` and ``zscore``, each entry equal to the per-pair function's."""
    d = np.asarray(d, dtype=float)
    rows, cols = d.shape
    zero, pos, neg = d == 0, d > 0, d < 0
    n_zero = zero.sum(axis=0)
    nonzero = rows - n_zero
    kept = {"wilcox": np.zeros_like(n_zero), "demsar": n_zero - n_zero % 2}.get(zero_method, n_zero)
    n = kept + nonzero
    twice_all, tie_size, ascending = column_midranks(np.abs(d))
    # a non-zero |d| ranks above all zeros: among the kept values its rank moves by kept - n_zero
    twice = twice_all + 2 * (kept - n_zero)
    pos2 = np.where(pos, twice, 0).sum(axis=0)
    neg2 = np.where(neg, twice, 0).sum(axis=0)
    zero_share = kept * (kept + 1) // 2 if zero_method in ("demsar", "zsplit") else np.zeros_like(kept)
    r_plus, r_minus = (pos2 + zero_share) / 2, (neg2 + zero_share) / 2
    statistic = np.minimum(r_plus, r_minus)

    nf, kf = n.astype(float), kept.astype(float)
    mean, var = nf * (nf + 1.0) * 0.25, nf * (nf + 1.0) * (2.0 * nf + 1.0)
    tie = np.where(~zero, tie_size * tie_size - 1, 0).sum(axis=0)  # sum over groups of c^3 - c
    if zero_method == "pratt":
        dropped = kept > 0
        mean = np.where(dropped, mean - kf * (kf + 1.0) * 0.25, mean)
        var = np.where(dropped, var - kf * (kf + 1.0) * (2.0 * kf + 1.0), var)
    else:
        tie = tie + kept**3 - kept  # the kept zeros' tie group
    some = nonzero > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        zscore = np.where(some, (statistic - mean) / np.sqrt((var - tie.astype(float) / 2) / 24), 0.0)
    pvalue = np.minimum(1.0, 2.0 * special.ndtr(zscore))  # scipy.stats.norm.cdf's floats, without its overhead
    exact = np.flatnonzero(some & (n <= exact_max_n))
    if exact.size:  # exact_signed_rank_p for each of these columns
        ranks = np.ascontiguousarray((ascending[:, exact] + 2 * (kept - n_zero)[exact]).T)
        t = np.minimum(pos2, neg2)[exact].tolist()  # min(r, total - r): total = pos2 + neg2
        skip = n_zero[exact].tolist()  # the zeros rank first
        count = [_lower_tail_count(ranks[e, skip[e] :].tobytes(), t[e]) for e in range(exact.size)]
        pvalue[exact] = np.minimum(1.0, 2.0 * np.ldexp(np.array(count, dtype=float), -nonzero[exact]))
    pvalue[~some] = 1.0
    return {
        "statistic": np.where(some, statistic, 0.0),
        "pvalue": pvalue,
        "r_plus": np.where(some, r_plus, 0.0),
        "r_minus": np.where(some, r_minus, 0.0),
        "n": np.where(some, n, 0),
        "n_zero": n_zero,
        "zscore": zscore,
    }


def sign_columns(d: np.ndarray, ties: str) -> dict[str, np.ndarray]:
    """:func:`stats.sign_test` of every column of the snapped differences ``d``: arrays
    ``statistic``, ``pvalue``, ``wins``, ``losses``, ``ties`` and ``n``."""
    d = np.asarray(d, dtype=float)
    wins, losses, n_ties = (d > 0).sum(axis=0), (d < 0).sum(axis=0), (d == 0).sum(axis=0)
    half = n_ties // 2 if ties == "split" else np.zeros_like(n_ties)
    statistic, n = wins + half, wins + losses + 2 * half
    pvalue = np.ones(d.shape[1])
    for size in np.unique(n[n > 0]).tolist():
        where = n == size
        pvalue[where] = _binomtest_pvalues(int(size))[statistic[where]]
    return {"statistic": statistic, "pvalue": pvalue, "wins": wins, "losses": losses, "ties": n_ties, "n": n}
