"""ScottKnottESD 2.x and 3.0's non-parametric partitions, and Cohen's d's negligible bound decided exactly.

Both are the partition of Tantithamthavorn's R package ScottKnottESD (``Partition`` in 2.0.3,
``PartitionParametric`` / ``PartitionNonParametric`` in 3.0.0), themselves a rewrite of Jelihovschi,
Faria & Allaman's ``ScottKnott`` package's ``MaxValue``: the treatments are sorted by their
centre, best first; a segment of that order is cut where a statistic is largest (the first of
the largest), unless an effect size between the segment's *first* and *last* treatment is
negligible, in which case the segment is one group; the two parts are partitioned the same way,
the upper one first. The package keeps the pending segments in a vector (``markg``: the upper
end of the segment to return to) and, when the cut leaves the first treatment alone
(``ord1 == k``), makes it a group at once and goes on with the rest; :func:`partition` walks the
segments in that very order (a stack of pending segments), so the groups and their numbering are
the package's. Segments of one treatment are groups without a test, as there.

* 2.x ("esd"): centre = mean; statistic = the between-groups sum of squares of the treatment
  *means*, t1^2/n1 + t2^2/n2 - (t1 + t2)^2/n (t the sums of the means either side, n the numbers
  of treatments; Scott & Knott's B0, without their chi2 test); effect = Cohen's d (effsize's
  ``cohen.d`` default: pooled sd with n1 + n2 - 2 degrees of freedom), negligible when |d| < 0.2
  (0.2 itself is small). 3.0.0's default (``version = "p"``) is the same test, and returns
  "negligible" for two element-wise equal samples (as here: d = 0).
* 3.0 ("np"): centre = median; statistic = the Kruskal-Wallis H of *all* the values when the
  segment's two parts are two groups and every treatment outside the segment its own group (the
  package relabels the segment's treatments "left" and "right" in the whole data and calls
  ``kruskal.test``): the values are ranked once, and each cut's H follows from cumulative rank
  sums; effect = Cliff's delta (effsize's ``cliff.delta``), negligible when |delta| < 0.147
  (Romano et al. 2006). 3.0.0's ``diff()`` loops over pairs (i, j) of the segment but always
  compares treatments k and g: the first and the last, as here.

References: C. Tantithamthavorn, S. McIntosh, A. E. Hassan, K. Matsumoto, "The impact of
automated parameter optimization on defect prediction models", IEEE TSE 45(7):683-711, 2019
(early access 2018, doi 10.1109/TSE.2018.2794977); A. J. Scott, M. Knott, Biometrics 30(3):507-512,
1974; J. Cohen, "Statistical Power Analysis for the Behavioral Sciences", 2nd ed., 1988; J. Romano
et al., Florida AIR annual meeting, 2006; W. H. Kruskal, W. A. Wallis, JASA 47(260):583-621, 1952.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from stats.core import near
from stats.twosample import cliffs_delta

#: effsize's bound of a negligible Cohen's d (Cohen 1988): |d| < 0.2; d = 0.2 exactly is small.
NEGLIGIBLE_D = Fraction("0.2")
#: Relative margin below which a floating-point comparison of d^2 with 0.04 is redone exactly.
MARGIN = 1e-9
_EPS = float(np.finfo(float).eps)

#: One tested segment: (first, cut, end) positions in the sorted order (the parts are
#: [first, cut) and [cut, end)), the cut's statistic, the effect and whether the cut was made.
Record = tuple[int, int, int, float, float, bool]


def cohen_d(x: np.ndarray, y: np.ndarray) -> tuple[float, bool]:
    """Cohen's d = (mean x - mean y) / pooled sd (effsize's ``cohen.d`` default: the pooled
    variance is the two sums of squares over n_x + n_y - 2), and whether |d| < 0.2 (negligible).

    The bound is decided on the decimals the values stand for (the decimal rule of
    :func:`stats.core._table.snap`): |d| < 0.2 if and only if diff^2 (n_x + n_y - 2) < 0.04 SS, a
    comparison of rationals. It is made in floating point when the two sides differ by more than
    a bound of their rounding errors (and by more than :data:`MARGIN` relatively), else exactly
    with :class:`fractions.Fraction`. Two constant samples: d = 0 (negligible) if their means
    are equal, else +-inf (large), as effsize gives. Two single values (n_x + n_y - 2 = 0: no
    spread to measure a difference against): d is undefined (NaN; effsize's is NaN too and the
    package stops there) and the pair is taken as negligible -- nothing shows an effect, so a
    per-data-set chart of one result per learner is one group, not one group per learner.
    """
    dof = x.size + y.size - 2
    mx, my = x.mean(), y.mean()
    diff = float(mx - my)
    ss = float(((x - mx) ** 2).sum() + ((y - my) ** 2).sum())
    d = diff / math.sqrt(ss / dof) if dof > 0 and ss > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    if dof <= 0:
        return (0.0 if diff == 0 else math.nan), True
    lhs, rhs = diff * diff * dof, float(NEGLIGIBLE_D**2) * ss
    margin = max(_rounding_bound(x, y, diff, ss, dof), MARGIN * max(lhs, rhs))
    if lhs < rhs - margin:
        return d, True
    if lhs > rhs + margin:
        return d, False
    return d, _negligible_exactly(x, y)


def _rounding_bound(x: np.ndarray, y: np.ndarray, diff: float, ss: float, dof: int) -> float:
    """A bound of |float - exact| of diff^2 dof minus 0.04 SS, the exact values being those of the
    decimals: each value is within eps M of its decimal (M the largest |value|), a mean within
    (n + 2) eps M, a deviation within that plus 2 eps M, and sums add n eps relative."""
    n = x.size + y.size
    big = float(max(np.abs(x).max(), np.abs(y).max()))
    e_mean = (n + 2) * _EPS * big
    e_diff = 2 * e_mean + _EPS * abs(diff)
    e_lhs = dof * (2 * abs(diff) * e_diff + e_diff**2) + 3 * _EPS * diff * diff * dof
    e_dev = e_mean + 2 * _EPS * big
    e_ss = 2 * e_dev * math.sqrt(n * ss) + n * e_dev**2 + (n + 3) * _EPS * ss
    return 2 * (e_lhs + 0.04 * e_ss + 2 * _EPS * 0.04 * ss)


def _negligible_exactly(x: np.ndarray, y: np.ndarray) -> bool:
    """|d| < 0.2 in exact arithmetic on the decimals the values stand for (``Fraction(repr(v))``)."""
    sums = []
    for sample in (x, y):
        decimals = [Fraction(repr(v)) for v in sample.tolist()]
        total = sum(decimals, Fraction(0))
        squares = sum((v * v for v in decimals), Fraction(0))
        sums.append((total / len(decimals), squares - total * total / len(decimals)))
    (mx, ssx), (my, ssy) = sums
    diff, ss = mx - my, ssx + ssy
    if diff == 0:
        return True
    return diff * diff * (x.size + y.size - 2) < NEGLIGIBLE_D**2 * ss


def partition(
    size: int, cut: Callable[[int, int], tuple[int, float]], effect: Callable[[int, int], tuple[float, bool]]
) -> tuple[list[range], list[Record]]:
    """ScottKnottESD's depth-first partition of positions 0..size-1 (sorted best first).

    ``cut(first, end)`` gives the cut of the segment [first, end) (the first position of its lower
    part) and its statistic; ``effect(first, last)`` the effect size of the two treatments and
    whether it is negligible. A segment whose first and last treatments differ negligibly is a
    group; otherwise it is cut and its upper part partitioned before its lower part. Returns the
    groups, best first, and every tested segment.
    """
    groups: list[range] = []
    records: list[Record] = []
    pending = [(0, size)]
    while pending:
        first, end = pending.pop()
        if end - first == 1:
            groups.append(range(first, end))
            continue
        where, statistic = cut(first, end)
        value, negligible = effect(first, end - 1)
        records.append((first, where, end, statistic, value, not negligible))
        if negligible:
            groups.append(range(first, end))
        else:
            pending += [(where, end), (first, where)]
    return groups, records


def _first_largest(scores: np.ndarray) -> int:
    """Index of the first largest score, scores within rounding of the largest (:func:`near`)
    counting as equal (R's ``order(sqsum, decreasing = TRUE)[1]``, without the rounding noise)."""
    return int(np.flatnonzero(near(scores, scores.max()))[0])


def esd_groups(values: Sequence[np.ndarray], means: np.ndarray) -> tuple[list[range], list[Record]]:
    """ScottKnottESD 2.x: ``values`` and ``means`` in the sorted order (mean decreasing)."""

    def cut(first: int, end: int) -> tuple[int, float]:
        m = means[first:end] - means[first:end].mean()  # B0 is unchanged by a shift; centred, it is accurate
        n = end - first
        left = np.arange(1, n)
        t1 = np.cumsum(m)[:-1]
        sqsum = t1 * t1 / left + t1 * t1 / (n - left)  # t2 = -t1 around the centre
        c = _first_largest(sqsum)
        return first + c + 1, float(sqsum[c])

    return partition(len(values), cut, lambda a, b: cohen_d(values[a], values[b]))


def twice_average_ranks(pooled: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Twice the average ranks (integers) of ``pooled`` (ties share the mean of their ranks) and the
    sizes of the groups of ties."""
    order = np.argsort(pooled, kind="stable")
    ordered = pooled[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], ordered.size]
    twice = np.empty(pooled.size, dtype=np.int64)
    twice[order] = np.repeat(starts + 1 + ends, ends - starts)
    return twice, (ends - starts).tolist()


def kruskal_cuts(
    twice_sums: Sequence[int], counts: Sequence[int], first: int, end: int, ties: Sequence[int]
) -> list[Fraction]:
    """Kruskal-Wallis H (tie-corrected, as ``kruskal.test``) of the whole data for each cut of the
    segment [first, end): groups = the two parts and every treatment outside the segment.

    ``twice_sums`` and ``counts`` are each treatment's sum of twice its average ranks among *all*
    the values and its number of values (sorted order); ``ties`` the sizes of the tie groups.
    H = [12 / (N (N + 1)) sum_j R_j^2 / n_j - 3 (N + 1)] / [1 - sum (t^3 - t) / (N^3 - N)], exactly.
    One pass of cumulative sums: O(number of treatments) per segment once the data are ranked.
    """
    total = sum(counts)
    correction = 1 - Fraction(sum(t**3 - t for t in ties), total**3 - total) if total > 1 else Fraction(0)
    outside = sum(Fraction(s * s, 4 * c) for i, (s, c) in enumerate(zip(twice_sums, counts)) if not first <= i < end)
    seg_sum, seg_count = sum(twice_sums[first:end]), sum(counts[first:end])
    out, left_sum, left_count = [], 0, 0
    for i in range(first, end - 1):
        left_sum, left_count = left_sum + twice_sums[i], left_count + counts[i]
        right_sum, right_count = seg_sum - left_sum, seg_count - left_count
        between = Fraction(left_sum**2, 4 * left_count) + Fraction(right_sum**2, 4 * right_count) + outside
        h = Fraction(12, total * (total + 1)) * between - 3 * (total + 1)
        out.append(h / correction if correction else Fraction(0))
    return out


def np_groups(values: Sequence[np.ndarray], pooled: np.ndarray) -> tuple[list[range], list[Record]]:
    """ScottKnottESD 3.0 "np": ``values`` in the sorted order (median decreasing), ``pooled`` their
    concatenation (in that order)."""
    twice, ties = twice_average_ranks(pooled)
    ends = np.cumsum([v.size for v in values])
    twice_sums = [int(s) for s in np.add.reduceat(twice, np.r_[0, ends[:-1]])]
    counts = [v.size for v in values]

    def cut(first: int, end: int) -> tuple[int, float]:
        h = kruskal_cuts(twice_sums, counts, first, end, ties)
        c = h.index(max(h))  # exact: the first of the largest
        return first + c + 1, float(h[c])

    def effect(a: int, b: int) -> tuple[float, bool]:
        delta = cliffs_delta(values[a], values[b])
        return delta.value, delta.magnitude == "negligible"

    return partition(len(values), cut, effect)
