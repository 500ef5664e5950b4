"""Groups of learners not significantly different: the bars of a critical-difference diagram.

A diagram (Demsar 2006, Fig. 1 and 2) joins with a heavy bar each maximal run of
learners, consecutive in average-rank order, among which no pair is significantly
different. Nemenyi's test decides "different" by the critical difference (two
learners differ when their average ranks differ by at least CD); an all-pairs
procedure of Garcia & Herrera (2008) decides it by its adjusted p-values (a pair
differs when its APV is <= alpha), which is how scmamp and autorank draw diagrams
for Holm, Shaffer and Bergmann-Hommel. One function builds the bars from either
rule, so the diagram, the verdict and the pairs matrix agree by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import pandas as pd

from stats.core import check_alpha

#: Slack for "less than CD" (average ranks are sums of halves divided by N).
EPS = 1e-12


def _order(ranks: Any) -> pd.Series:
    r = pd.Series(ranks, dtype=float)
    if r.index.has_duplicates:
        raise ValueError("learner names must be distinct")
    if r.isna().any():
        raise ValueError("average ranks must not be NaN")
    return r.sort_values(kind="stable")


#: Rows of the "differ" matrix made at a time (:func:`_last_differing`): 256 x k booleans.
_BLOCK = 256


def _last_differing(n: int, differ_rows: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """For each position c of ``n``, the last m < c whose pair (m, c) differs, else -1.

    ``differ_rows(cols)`` gives the rows ``cols`` of the n x n "differ" matrix (row c, column m);
    they are asked for a block at a time, so that no n x n matrix is made for :func:`cd_groups`."""
    last = np.full(n, -1, dtype=np.int64)
    before = np.arange(n)
    for start in range(0, n, _BLOCK):
        cols = np.arange(start, min(start + _BLOCK, n))
        block = differ_rows(cols) & (before[None, :] < cols[:, None])
        found = block.any(axis=1)
        last[cols] = np.where(found, n - 1 - np.argmax(block[:, ::-1], axis=1), -1)
    return last


def _runs(names: list[Hashable], last: np.ndarray) -> tuple[tuple[Hashable, ...], ...]:
    """Maximal runs ``names[i..j]`` (two or more) with no pair inside that differs, given ``last``
    (:func:`_last_differing`: ``names[j + 1]`` joins the run from ``i`` when its last differing
    position is before ``i``).

    Two pointers, linear in the names: a run's end never moves back as its start moves on (a run
    without a differing pair stays one when its first name is dropped), and a run is inside an
    earlier one exactly when it ends no later than the last run kept. (Checking every pair of each
    run again, and each run against every run kept, was cubic: 1,000 learners took minutes.)"""
    spans: list[tuple[int, int]] = []
    n, j = len(names), 0
    for i in range(n):
        j = max(j, i)
        while j + 1 < n and last[j + 1] < i:
            j += 1
        if j > i and (not spans or j > spans[-1][1]):
            spans.append((i, j))
    return tuple(tuple(names[a : b + 1]) for a, b in spans)


def cd_groups(ranks: Any, cd: float) -> tuple[tuple[Hashable, ...], ...]:
    """Maximal groups, consecutive in rank order, whose average ranks span less than ``cd``.

    Parameters
    ----------
    ranks : Series or mapping
        Average rank per learner (any order; equal ranks keep their given order).
    cd : float
        Nemenyi's critical difference (:func:`stats.critical_difference`).

    Returns
    -------
    tuple of tuples
        Each group lists its learners best first; groups are ordered by their best
        member. A learner alone is not a group, and a group inside a larger one is
        dropped (Demsar 2006, Sec. 3.2.2: "groups of classifiers that are not
        significantly different are connected").

    Examples
    --------
    >>> cd_groups({"a": 1.0, "b": 1.5, "c": 3.0}, 1.2)
    (('a', 'b'),)
    """
    if not np.isfinite(cd) or cd <= 0:
        raise ValueError(f"cd must be a positive number, got {cd!r}")
    r = _order(ranks)
    v = r.to_numpy(np.float64)
    return _runs(list(r.index), _last_differing(v.size, lambda c: np.abs(v[c, None] - v[None, :]) >= cd - EPS))


def apv_groups(
    ranks: Any, table: pd.DataFrame, procedure: str, *, alpha: float = 0.05
) -> tuple[tuple[Hashable, ...], ...]:
    """Maximal groups, consecutive in rank order, with no pair rejected by ``procedure``.

    Parameters
    ----------
    ranks : Series or mapping
        Average rank per learner.
    table : DataFrame
        :func:`stats.pairwise_test`'s table (columns ``a``, ``b`` and one column of
        APVs per procedure), covering every pair of the learners in ``ranks``.
    procedure : str
        The column of APVs: ``"nemenyi"``, ``"holm"``, ``"shaffer"`` or ``"bergmann"``.
    alpha : float, default 0.05
        A pair is rejected (significantly different) when its APV is <= alpha.

    Returns
    -------
    tuple of tuples
        As :func:`cd_groups`.

    Examples
    --------
    Holm's APV of b vs c is 0.0507 (> 0.05), a vs c 0.0004:

    >>> import stats
    >>> r = pd.Series([1.2, 1.9, 2.9], index=["a", "b", "c"])
    >>> apv_groups(r, stats.pairwise_test_from_ranks(r, 10), "holm")
    (('a', 'b'), ('b', 'c'))
    """
    a = check_alpha(alpha)
    if procedure not in table.columns or procedure in ("a", "b", "z", "p"):
        raise ValueError(f"procedure {procedure!r} is not a column of APVs of the pairs table")
    r = _order(ranks)
    names = list(r.index)
    n = len(names)
    where = pd.Index(names)
    i = where.get_indexer(pd.Index(table["a"], dtype=object))
    j = where.get_indexer(pd.Index(table["b"], dtype=object))
    differ = table[procedure].to_numpy(np.float64) <= a  # (NaN: not rejected)
    known = (i >= 0) & (j >= 0)
    i, j, differ = i[known], j[known], differ[known]
    low, high = np.minimum(i, j), np.maximum(i, j)
    _, last_row = np.unique((low * n + high)[::-1], return_index=True)  # a pair given twice: its last row
    keep = np.sort(i.size - 1 - last_row)
    rejected = np.zeros((n, n), dtype=bool)
    seen = np.zeros_like(rejected)
    rejected[i[keep], j[keep]] = rejected[j[keep], i[keep]] = differ[keep]
    seen[i, j] = seen[j, i] = True
    missing = np.argwhere(np.triu(~seen, 1))
    if missing.size:
        raise ValueError(f"the pairs table has no row for {names[missing[0][0]]!r} vs {names[missing[0][1]]!r}")
    return _runs(names, _last_differing(n, lambda c: rejected[c]))
