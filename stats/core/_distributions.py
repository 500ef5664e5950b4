"""Distribution functions computed from ``scipy.special``, the same floats as ``scipy.stats``'s.

``import scipy.stats`` takes 0.5-0.9 s (most of it scipy building its distributions and parsing
their docstrings), ``import scipy.special`` 0.2-0.3 s. The tests that the first view and the
report's ranks, tests and pairs views compute need only a few distribution functions, and
``scipy.stats`` computes those with ufuncs that ``scipy.special`` holds: the normal cdf is
``ndtr`` (``scipy.stats.norm.cdf``), the binomial pmf, cdf and survival function are Boost's
(``scipy.stats.binom``, the Boost Math Toolkit's binomial). Called here directly, with the
argument rules of ``scipy.stats``' wrappers (``rv_discrete``: 0 or 1 outside the support, the
values clipped to [0, 1]), they give the same floats, bit for bit, without the import of
``scipy.stats``; where a scipy does not hold those ufuncs, ``scipy.stats`` is imported, only then.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np


def _binomial() -> tuple[Any, Any, Any]:
    """The binomial pmf, cdf and sf ufuncs of ``scipy.stats.binom`` (Boost's): from
    ``scipy.special._ufuncs`` (where scipy keeps them), else ``scipy.stats.binom``'s methods
    (which then add nothing to the wrappers below: the same values)."""
    from scipy.special import _ufuncs

    funcs = [getattr(_ufuncs, f"_binom_{name}", None) for name in ("pmf", "cdf", "sf")]
    if all(f is not None for f in funcs):
        return funcs[0], funcs[1], funcs[2]
    from scipy import stats as sps  # pragma: no cover - a scipy without Boost's ufuncs in scipy.special

    binom = sps.binom  # pragma: no cover
    return binom.pmf, binom.cdf, binom.sf  # pragma: no cover


def _binomial_args(k: Any, n: Any, p: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, ...]]:
    k, n, q = np.broadcast_arrays(np.asarray(k), np.asarray(n), np.asarray(p, dtype=float))
    return k, n, q, k.shape


def _result(out: np.ndarray) -> Any:
    return out[()] if out.ndim == 0 else out


def binom_pmf(k: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.pmf(k, n, p)`` for integer ``k`` and ``n >= 0``, ``0 <= p <= 1``: 0
    outside 0..n, Boost's pmf clipped to [0, 1] inside (``rv_discrete.pmf``)."""
    pmf, _, _ = _binomial()
    k, n, q, shape = _binomial_args(k, n, p)
    out = np.zeros(shape)
    inside = (k >= 0) & (k <= n)
    if inside.any():
        out[inside] = np.clip(pmf(k[inside], n[inside], q[inside]), 0, 1)
    return _result(out)


def binom_cdf(k: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.cdf(k, n, p)`` for integer ``k`` and ``n >= 0``, ``0 <= p <= 1``: 0
    below 0, 1 from n on, Boost's cdf clipped to [0, 1] between (``rv_discrete.cdf``)."""
    _, cdf, _ = _binomial()
    k, n, q, shape = _binomial_args(k, n, p)
    out = np.where(k >= n, 1.0, 0.0).reshape(shape)
    inside = (k >= 0) & (k < n)
    if inside.any():
        out[inside] = np.clip(cdf(np.floor(k[inside]), n[inside], q[inside]), 0, 1)
    return _result(out)


def binom_sf(k: Any, n: Any, p: Any) -> Any:
    """``scipy.stats.binom.sf(k, n, p)`` for integer ``k`` and ``n >= 0``, ``0 <= p <= 1``: 1
    below 0, 0 from n on, Boost's sf clipped to [0, 1] between (``rv_discrete.sf``)."""
    _, _, sf = _binomial()
    k, n, q, shape = _binomial_args(k, n, p)
    out = np.where(k < 0, 1.0, 0.0).reshape(shape)
    inside = (k >= 0) & (k < n)
    if inside.any():
        out[inside] = np.clip(sf(np.floor(k[inside]), n[inside], q[inside]), 0, 1)
    return _result(out)


@lru_cache(maxsize=1024)
def binomtest_half_pvalues(n: int) -> np.ndarray:
    """``scipy.stats.binomtest(k, n, 0.5).pvalue`` for k = 0..n (read-only), computed as scipy
    does (the same binary search over the pmf for the other tail, the same pmf/cdf/sf floats)
    for all k at once: the two-sided exact binomial test of the sign test (Dixon and Mood 1946)."""
    cdf, sf = binom_cdf, binom_sf
    p = 0.5
    k = np.arange(n + 1)
    pmf = np.asarray(binom_pmf(k, n, p), dtype=float)
    rerr = 1 + 1e-7
    other = np.zeros(n + 1, dtype=np.int64)  # y of scipy's binomtest

    def at(x: int) -> float:  # binom.pmf(x, n, p): 0 outside 0..n
        return float(pmf[x]) if 0 <= x <= n else 0.0

    low = k < p * n
    for j in k.tolist():
        d = float(pmf[j])
        if j == p * n:
            continue
        if j < p * n:
            ix = _search(lambda x: -at(x), -d * rerr, int(np.ceil(p * n)), n)
            other[j] = n - ix + int(d * rerr == at(ix))
        else:
            other[j] = _search(at, d * rerr, 0, int(np.floor(p * n))) + 1
    lower = cdf(k, n, p) + sf(n - other, n, p)
    upper = cdf(other - 1, n, p) + sf(k - 1, n, p)
    out = np.minimum(1.0, np.where(low, lower, upper))
    out[k == p * n] = 1.0
    out.setflags(write=False)
    return out


def binomtest_half_pvalue(k: int, n: int) -> float:
    """``scipy.stats.binomtest(k, n, 0.5).pvalue`` (two-sided), computed as scipy does for one
    ``k`` (the other tail found by a binary search over the pmf: O(log n) pmf calls, not n)."""
    pmf, cdf, sf = binom_pmf, binom_cdf, binom_sf
    p = 0.5
    d = float(pmf(k, n, p))
    rerr = 1 + 1e-7
    if k == p * n:
        return 1.0
    if k < p * n:
        ix = _search(lambda x: -float(pmf(x, n, p)), -d * rerr, int(np.ceil(p * n)), n)
        y = n - ix + int(d * rerr == float(pmf(ix, n, p)))
        return min(1.0, float(cdf(k, n, p) + sf(n - y, n, p)))
    ix = _search(lambda x: float(pmf(x, n, p)), d * rerr, 0, int(np.floor(p * n)))
    return min(1.0, float(cdf(ix, n, p) + sf(k - 1, n, p)))


def _search(a: Callable[[int], float], d: float, lo: int, hi: int) -> int:
    """scipy's ``_binary_search_for_binom_tst``: the i in lo..hi with a(i) <= d < a(i + 1)."""
    while lo < hi:
        mid = lo + (hi - lo) // 2
        midval = a(mid)
        if midval < d:
            lo = mid + 1
        elif midval > d:
            hi = mid - 1
        else:
            return mid
    return lo if a(lo) <= d else lo - 1


def twice_midranks(x: np.ndarray) -> np.ndarray:
    """Twice the mid-rank of each value of the 1-D ``x`` (ties share the mean of their ranks), as
    integers: ``rint(2 * scipy.stats.rankdata(x))``, exactly (a mid-rank is a multiple of 1/2)."""
    values = np.asarray(x, dtype=float)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    before = np.concatenate([[0], np.cumsum(counts)[:-1]])  # values below each distinct one
    twice = 2 * before + counts + 1  # ranks before+1 .. before+count: twice their mean
    return twice[inverse.reshape(-1)].astype(np.int64)


def column_midranks(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Twice the mid-rank of each value of the 2-D ``a`` within its column (an integer), the size
    of its tie group, both in the shape of ``a`` (``scipy.stats.rankdata(a, axis=0)``'s ranks,
    doubled), and each column's twice mid-ranks in ascending order. Every column at once: the
    paired tests of many pairs of learners and the U tests of many columns rank this way."""
    n = a.shape[0]
    order = np.argsort(a, axis=0, kind="stable")
    s = np.take_along_axis(a, order, axis=0)
    idx = np.broadcast_to(np.arange(n)[:, None], a.shape)
    first = np.ones(a.shape, dtype=bool)
    first[1:] = s[1:] != s[:-1]
    last = np.ones(a.shape, dtype=bool)
    last[:-1] = first[1:]
    start = np.maximum.accumulate(np.where(first, idx, 0), axis=0)  # each sorted value's tie group
    end = np.minimum.accumulate(np.where(last, idx, n - 1)[::-1], axis=0)[::-1]
    ascending = start + end + 2  # ranks start+1 .. end+1
    twice, size = np.empty(a.shape, dtype=np.int64), np.empty(a.shape, dtype=np.int64)
    np.put_along_axis(twice, order, ascending, axis=0)
    np.put_along_axis(size, order, end - start + 1, axis=0)
    return twice, size, ascending


def norm_cdf(x: Any) -> Any:
    """``scipy.stats.norm.cdf(x)``: ``scipy.special.ndtr``, the ufunc it calls (the same floats)."""
    from scipy.special import ndtr

    return ndtr(x)


def norm_isf(q: Any) -> Any:
    """``scipy.stats.norm.isf(q)``: ``-scipy.special.ndtri(q)``, as it computes it (the same floats)."""
    from scipy.special import ndtri

    return -ndtri(q)
