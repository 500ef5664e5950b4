"""A few order statistics of a large array, the values ``np.partition`` puts at those positions,
read from the few values between two bounds instead of partitioning the whole array.

Hodges-Lehmann (:func:`stats.twosample.all_pairs_effects._hodges_lehmann`) reads three or four order
statistics near the middle of 125,000 Walsh averages per pair of learners (500 data sets);
``np.partition`` with those kth spends most of the effect table's time. Here a strided sample
(every :data:`_STEP`-th value) is partitioned to bound them: ``lo`` and ``hi`` such that, counted
in the whole array, fewer than the smallest k values lie below ``lo`` and more than the largest k
lie at or below ``hi`` (one pass of two comparisons). The k-th smallest value is then the
(k - #below)-th of the values in [lo, hi] (a few thousand), exactly (order statistics of a
multiset). When the sample misjudges the bounds, the whole array is partitioned as before.

One thing partitioning a subset cannot promise: which of two equal values lands at a position.
Equal floats are the same bits except 0.0 and -0.0, so when a value read is a zero, the whole
array is partitioned (``np.partition``'s own choice, as before).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: One value in this many makes the sample that bounds the order statistics.
_STEP = 32
#: Below this size, the array is partitioned whole.
_SMALL = 4096
#: Sample positions kept either side of the estimated ones (the sample's k-th value is off by
#: about sqrt(k) positions; 16 standard deviations of a sample of 4,000 leave room to spare).
_MARGIN = 64


def order_statistics(x: np.ndarray, ks: Sequence[int]) -> list[float]:
    """The values ``np.partition(x, ks)`` holds at the positions ``ks`` (0-based, in range), in
    the order of ``ks``; ``x`` (1-D float64) may be reordered in place."""
    m = x.size
    wanted = sorted(set(ks))
    if m >= _SMALL:
        sample = x[::_STEP].copy()
        s = sample.size
        lo_at = max(wanted[0] * s // m - _MARGIN, 0)
        hi_at = min(wanted[-1] * s // m + _MARGIN, s - 1)
        sample.partition([lo_at, hi_at])
        lo, hi = sample[lo_at], sample[hi_at]
        below = int(np.count_nonzero(x < lo))
        middle = x[(x >= lo) & (x <= hi)]
        if below <= wanted[0] and wanted[-1] < below + middle.size:
            middle.partition([k - below for k in wanted])
            found = {k: float(middle[k - below]) for k in wanted}
            if all(v != 0.0 for v in found.values()):
                return [found[k] for k in ks]
    x.partition(wanted)
    return [float(x[k]) for k in ks]
