"""Order statistics of the Walsh averages of many paired differences, without listing them.

The Hodges-Lehmann estimate and interval (:func:`stats.hodges_lehmann`,
:func:`stats.pairwise_effects`) read three or four order statistics of the M = N(N+1)/2 Walsh
averages W_ij = snap((d_i + d_j) / 2, max(s_i, s_j)), i <= j (each snapped at the larger scale of
its two data sets). Listed, they are 5 x 10^9 values for 100,000 data sets (37 GiB of indices
alone). Here they are counted instead (Johnson & Mizoguchi 1978's selection in X + Y, by
bisection): with the differences sorted, the pairs whose raw average V_ij = (d_i + d_j) / 2 lies
below a value t are, for each i, a run of j found by binary search, so counting them costs
O(N log N). Snapping moves a value by at most half a unit of its 12th significant digit, at most
``DELTA`` = 5e-12 of the largest scale; so the k-th snapped average lies within ``DELTA`` of the
k-th raw average, which bisection brackets, and only the averages within a few ``DELTA`` of it are
listed and snapped (their count plus the count below gives the rank among them).

The value found is the k-th snapped average, exactly; a zero is returned as +0.0 (which of 0.0 and
-0.0 an ``np.partition`` of the whole list would put there is not defined without the list).

Reference: D. B. Johnson, T. Mizoguchi, "Selecting the Kth element in X + Y and X1 + X2 + ... + Xm",
SIAM J. Comput. 7(2):147-153, 1978.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stats.core import snap

#: Half a unit of the 12th significant digit (:data:`stats.core.SNAP_DIGITS`), relative to a scale.
DELTA = 5e-12
#: Above this many Walsh averages, :func:`stats.hodges_lehmann` and :func:`stats.pairwise_effects`
#: select their order statistics here (2,896 data sets and more) instead of listing them.
LIST_MAX = 2**22
#: The most averages listed near an order statistic (ties of coarse decimals): beyond, ValueError.
BAND_MAX = 2**24


def _count_below(ds: np.ndarray, t: float) -> int:
    """How many pairs i <= j of the sorted ``ds`` have ds_i + ds_j < 2 t (as floats compare)."""
    ends = np.searchsorted(ds, 2.0 * t - ds, side="left")
    return int(np.maximum(ends - np.arange(ds.size), 0).sum())


def _runs(ds: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """For each i, the j >= i with 2 low <= ds_i + ds_j <= 2 high: [first, end)."""
    i = np.arange(ds.size)
    first = np.maximum(np.searchsorted(ds, 2.0 * low - ds, side="left"), i)
    end = np.maximum(np.searchsorted(ds, 2.0 * high - ds, side="right"), first)
    return first, end


def _near(ds: np.ndarray, k: int, lo: float, hi: float, slack: float) -> float:
    """A raw average within ``slack`` of the k-th smallest (0-based), by bisection on [lo, hi]."""
    while hi - lo > slack:
        mid = lo + (hi - lo) / 2.0
        if mid <= lo or mid >= hi:
            break
        if _count_below(ds, mid) > k:
            hi = mid
        else:
            lo = mid
    return lo


def walsh_order_statistics(d: np.ndarray, scale: np.ndarray, ks: Sequence[int]) -> list[float]:
    """The k-th smallest (0-based, each of ``ks``) of the Walsh averages of ``d`` snapped at the
    pairs' larger ``scale`` (see the module's text), in the order of ``ks``.

    Raises ``ValueError`` when more than :data:`BAND_MAX` averages lie within rounding of one of
    them (many exact ties: differences of a few coarse decimals)."""
    order = np.argsort(d, kind="stable")
    ds, ss = np.asarray(d, dtype=float)[order], np.asarray(scale, dtype=float)[order]
    top = float(np.max(np.abs(ds))) if ds.size else 0.0
    delta = DELTA * float(ss.max(initial=0.0)) * (1.0 + 1e-6) + 8.0 * np.finfo(float).eps * top + 1e-300
    lo, hi = float(ds[0]) - delta, float(ds[-1]) + delta
    out = []
    for k in ks:
        t = _near(ds, int(k), lo, hi, delta)
        out.append(_select(ds, ss, int(k), t, delta))
    return out


def _select(ds: np.ndarray, ss: np.ndarray, k: int, t: float, delta: float) -> float:
    """The k-th smallest snapped average, knowing a raw one within ``delta`` of the k-th raw one:
    the averages within a widening band around ``t`` listed, snapped and sorted."""
    width = 4.0 * delta
    while True:
        first, end = _runs(ds, t - width - delta, t + width + delta)
        listed = int((end - first).sum())
        if listed > BAND_MAX:
            raise ValueError(
                f"the Hodges-Lehmann order statistics of {ds.size:,} differences: {listed:,} Walsh averages "
                f"within rounding of one another (more than {BAND_MAX:,}: too many ties to list)"
            )
        below = int((first - np.arange(ds.size)).sum())  # the pairs before each run: below the band
        if below <= k < below + listed:
            i = np.repeat(np.arange(ds.size), end - first)
            j = np.arange(listed) - np.repeat(np.cumsum(end - first) - (end - first), end - first) + first[i]
            values = np.sort(snap((ds[i] + ds[j]) / 2.0, np.maximum(ss[i], ss[j])))
            value = float(values[k - below])
            if t - width <= value <= t + width:  # inside the band: every average outside it is on its side
                return value + 0.0  # (a zero as +0.0)
        width *= 4.0
