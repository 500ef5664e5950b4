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


def _runs(names: list[Hashable], differ: Callable[[int, int], bool]) -> tuple[tuple[Hashable, ...], ...]:
    """Maximal runs ``names[i..j]`` (two or more) with no pair inside that ``differ``."""
    spans: list[tuple[int, int]] = []
    for i in range(len(names)):
        j = i
        while j + 1 < len(names) and not any(differ(m, j + 1) for m in range(i, j + 1)):
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in spans):
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
    v = r.to_numpy()
    return _runs(list(r.index), lambda i, j: abs(v[j] - v[i]) >= cd - EPS)


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
    pos = {name: i for i, name in enumerate(names)}
    rejected = np.zeros((len(names), len(names)), dtype=bool)
    seen = np.zeros_like(rejected)
    for x, y, apv in zip(table["a"], table["b"], table[procedure].to_numpy(np.float64)):
        if x in pos and y in pos:
            i, j = pos[x], pos[y]
            rejected[i, j] = rejected[j, i] = bool(apv <= a)
            seen[i, j] = seen[j, i] = True
    missing = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names)) if not seen[i, j]]
    if missing:
        raise ValueError(f"the pairs table has no row for {missing[0][0]!r} vs {missing[0][1]!r}")
    return _runs(names, lambda i, j: bool(rejected[i, j]))
