"""The Scott-Knott ranks of many charts at once: :func:`scott_knott_ranks`.

The quartile view ranks the learners of every data set's chart (:func:`stats.scott_knott`); a
log of 100,000 data sets has 100,000 charts of a few learners, and a call per chart (some fifty
small numpy calls each) took minutes. For the default method (ScottKnott-ESD 2.x, "esd"), the
charts whose learners have the same numbers of values are ranked together: every step of
:func:`stats.scott_knott` -- the snap, the means, the stable sort, the first cut of largest
between-groups sum of squares, Cohen's d against 0.2 -- is the same arithmetic on a row of a
2-D array, one numpy call for all the charts (and all the segments of one length), and Cohen's
d is decided exactly (:func:`stats.groupings._scott_knott_esd.cohen_d` itself) for the few
segments whose floating-point decision is within rounding. The partition's groups are
contiguous in the sorted order and come out in that order (:func:`~stats.groupings._scott_knott_esd.partition`
walks the upper part first), so a learner's rank is one plus the number of cuts made before
its position, whatever order the segments are tested in: each segment is tested once, in
waves. The other methods call :func:`stats.scott_knott` chart by chart.

References: C. Tantithamthavorn, S. McIntosh, A. E. Hassan, K. Matsumoto, IEEE TSE 45(7):683-711,
2019 (ScottKnott-ESD 2.x); J. Cohen, "Statistical Power Analysis for the Behavioral Sciences",
2nd ed., 1988.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from stats.core import near, snap
from stats.groupings._scott_knott_esd import MARGIN, NEGLIGIBLE_D, cohen_d
from stats.groupings.scott_knott import scott_knott

__all__ = ["scott_knott_ranks"]

_EPS = float(np.finfo(float).eps)
_D2 = float(NEGLIGIBLE_D**2)  # 0.04, as cohen_d compares


def scott_knott_ranks(
    charts: Sequence[Mapping[str, np.ndarray]], *, higher_is_better: bool = True, method: str = "esd"
) -> list[dict[str, int] | None]:
    """``scott_knott(chart, higher_is_better=..., method=...).ranks`` of each chart, in order, or
    None for a chart :func:`stats.scott_knott` refuses (``ValueError``).

    "esd" (the default) ranks the charts whose samples are non-empty float64 vectors of finite
    values together, grouped by their numbers of values (see the module's text); the same ranks
    as a call per chart. Any other chart, and every chart of another method, is one call."""
    out: list[dict[str, int] | None] = [None] * len(charts)
    groups: dict[tuple[int, ...], list[int]] = {}
    for c, chart in enumerate(charts):
        if method == "esd" and _plain(chart):
            groups.setdefault(tuple(v.size for v in chart.values()), []).append(c)
        else:
            out[c] = _one(chart, higher_is_better, method)
    for sizes, members in groups.items():
        for c, ranks in zip(members, _esd_ranks([charts[c] for c in members], sizes, higher_is_better)):
            out[c] = ranks
    return out


def _one(chart: Mapping[str, np.ndarray], higher: bool, method: str) -> dict[str, int] | None:
    try:
        return scott_knott(chart, higher_is_better=higher, method=method).ranks
    except ValueError:
        return None


def _plain(chart: Mapping[str, np.ndarray]) -> bool:
    """Whether every sample is a non-empty 1-D float64 vector of finite values, under str names."""
    return (
        bool(chart)
        and all(
            type(k) is str and type(v) is np.ndarray and v.dtype == np.float64 and v.ndim == 1 and v.size
            for k, v in chart.items()
        )
        and all(np.isfinite(v).all() for v in chart.values())
    )


def _esd_ranks(charts: list[Mapping[str, np.ndarray]], sizes: tuple[int, ...], higher: bool) -> list[dict[str, int]]:
    """The "esd" ranks of ``charts``, every one with samples of ``sizes`` values (in order)."""
    k = len(sizes)
    ends = np.cumsum(sizes)
    starts = ends - np.array(sizes)
    joined = np.stack([np.concatenate(list(chart.values())) for chart in charts])
    pooled = snap((1.0 if higher else -1.0) * joined)  # element by element, as each chart's
    means = np.stack(  # scott_knott's _mean: np.add.reduce(x) / x.size, a contiguous row each
        [np.add.reduce(np.ascontiguousarray(pooled[:, a:b]), axis=1) / (b - a) for a, b in zip(starts, ends)], axis=1
    )
    centre = snap(means, np.abs(pooled).max(axis=1, keepdims=True))
    order = np.argsort(-centre, axis=1, kind="stable")  # stable: equal means keep the input order
    sorted_means = np.take_along_axis(means, order, axis=1)
    cuts = np.zeros((len(charts), k), dtype=bool)  # cuts[c, p]: a group starts at sorted position p > 0
    pending = [(np.arange(len(charts)), np.zeros(len(charts), dtype=np.intp), np.full(len(charts), k, np.intp))]
    while pending:
        chart, first, end = (np.concatenate(parts) for parts in zip(*pending))
        pending = []
        for length in np.unique(end - first).tolist():
            if length < 2:
                continue
            at = np.flatnonzero(end - first == length)
            c, f = chart[at], first[at]
            where = f + _cut(sorted_means[c[:, None], f[:, None] + np.arange(length)])
            split = ~_negligible(pooled, order, starts, ends, c, f, f + length - 1)
            if split.any():
                cuts[c[split], where[split]] = True
                pending += [(c[split], f[split], where[split]), (c[split], where[split], f[split] + length)]
    rank_at = 1 + np.cumsum(cuts, axis=1)  # the rank of each sorted position
    ranks = np.empty_like(rank_at)
    np.put_along_axis(ranks, order, rank_at, axis=1)
    names = [list(chart) for chart in charts]
    return [dict(zip(n, r)) for n, r in zip(names, ranks.tolist())]


def _cut(m: np.ndarray) -> np.ndarray:
    """The cut of each row of segment means (:func:`stats.groupings._scott_knott_esd.esd_groups`'
    ``cut``): 1 + the first position of the largest between-groups sum of squares, sums within
    :func:`stats.core.near` the largest counting as equal."""
    n = m.shape[1]
    centred = m - m.mean(axis=1, keepdims=True)
    left = np.arange(1, n)
    t1 = np.cumsum(centred, axis=1)[:, :-1]
    sqsum = t1 * t1 / left + t1 * t1 / (n - left)
    return np.argmax(near(sqsum, sqsum.max(axis=1, keepdims=True)), axis=1) + 1


def _negligible(
    pooled: np.ndarray,
    order: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    chart: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
) -> np.ndarray:
    """Whether Cohen's d of the learners at sorted positions ``first`` and ``last`` of each
    ``chart`` is negligible (:func:`stats.groupings._scott_knott_esd.cohen_d`'s decision), the
    pairs of samples of equal sizes a 2-D array at a time."""
    x_of, y_of = order[chart, first], order[chart, last]
    out = np.zeros(chart.size, dtype=bool)
    sizes = ends - starts
    for sx in np.unique(sizes[x_of]).tolist():
        for sy in np.unique(sizes[y_of]).tolist():
            at = np.flatnonzero((sizes[x_of] == sx) & (sizes[y_of] == sy))
            if at.size:
                out[at] = _negligible_block(pooled, chart[at], starts[x_of[at]], starts[y_of[at]], sx, sy)
    return out


def _negligible_block(
    pooled: np.ndarray, chart: np.ndarray, x0: np.ndarray, y0: np.ndarray, sx: int, sy: int
) -> np.ndarray:
    """:func:`_negligible` for pairs of samples of ``sx`` and ``sy`` values starting at ``x0``, ``y0``."""
    x = pooled[chart[:, None], x0[:, None] + np.arange(sx)]
    y = pooled[chart[:, None], y0[:, None] + np.arange(sy)]
    dof = sx + sy - 2
    if dof <= 0:  # two single values: taken as negligible
        return np.ones(chart.size, dtype=bool)
    mx, my = x.mean(axis=1), y.mean(axis=1)
    diff = mx - my
    ss = ((x - mx[:, None]) ** 2).sum(axis=1) + ((y - my[:, None]) ** 2).sum(axis=1)
    lhs, rhs = diff * diff * dof, _D2 * ss
    margin = np.maximum(_rounding_bound(x, y, diff, ss, dof), MARGIN * np.maximum(lhs, rhs))
    negligible = lhs < rhs - margin
    unsure = np.flatnonzero(~negligible & ~(lhs > rhs + margin))
    for r in unsure.tolist():  # within rounding: cohen_d's own (exact) decision
        negligible[r] = cohen_d(x[r], y[r])[1]
    return negligible


def _rounding_bound(x: np.ndarray, y: np.ndarray, diff: np.ndarray, ss: np.ndarray, dof: int) -> np.ndarray:
    """:func:`stats.groupings._scott_knott_esd._rounding_bound` of each row, the same operations."""
    n = x.shape[1] + y.shape[1]
    big = np.maximum(np.abs(x).max(axis=1), np.abs(y).max(axis=1))
    e_mean = (n + 2) * _EPS * big
    e_diff = 2 * e_mean + _EPS * np.abs(diff)
    e_lhs = dof * (2 * np.abs(diff) * e_diff + e_diff**2) + 3 * _EPS * diff * diff * dof
    e_dev = e_mean + 2 * _EPS * big
    e_ss = 2 * e_dev * np.sqrt(n * ss) + n * e_dev**2 + (n + 3) * _EPS * ss
    return 2 * (e_lhs + 0.04 * e_ss + 2 * _EPS * 0.04 * ss)
