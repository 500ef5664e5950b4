"""Within-data-set ranks and average ranks (Friedman 1937; Demsar 2006, Eq. 1), aligned ranks
(Hodges & Lehmann 1962) and Quade's weights (Quade 1979): each computed once per validated table
(:func:`ranked_table`) and shared by every statistic given that table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from stats.core import Table, as_table, snap

#: What :func:`ranked_table` returns: a validated scores table that computes its ranks once.
RankedTable = Table

#: How far printed average ranks may be from possible ones: rounding to 2 decimals moves each by
#: at most 0.005, so their sum by at most k * 0.005.
RANK_ROUNDING = 0.005


def check_average_ranks(ranks: np.ndarray, *, cells: int | None = None) -> None:
    """Raise ``ValueError`` unless ``ranks`` are possible average ranks of k learners over some
    data sets: each in [1, m] and summing to k(m + 1)/2, where m = ``cells`` is the largest rank
    (k for ranks within data sets; kN for aligned ranks, which rank all kN cells together),
    allowing printed rounding (:data:`RANK_ROUNDING` per rank).

    Without it, ``AverageRanks([3, 3, 3], n=30)`` gave chi2 = 450 and "learners differ", and
    ``[1, 1, 3]`` silently chi2 = 0.
    """
    r = np.asarray(ranks, dtype=float)
    k = r.size
    m = k if cells is None else int(cells)
    if not np.isfinite(r).all():
        raise ValueError("average ranks must be finite")
    slack = RANK_ROUNDING + 1e-9
    if ((r < 1.0 - slack) | (r > m + slack)).any():
        raise ValueError(f"average ranks must lie in [1, {m}] for {k} learners, got {r.round(4).tolist()}")
    total, expected = float(r.sum()), k * (m + 1) / 2.0
    if abs(total - expected) > k * RANK_ROUNDING + 1e-9:
        raise ValueError(
            f"average ranks of {k} learners must sum to {expected:g} (k(m+1)/2, m = {m}), got {total:g}: "
            "these are not the average ranks of one table"
        )


@dataclass(frozen=True, eq=False)
class AverageRanks:
    """Average ranks plus the number of data sets, as papers print them.

    The rank-based statistics (Friedman, Iman-Davenport, the critical
    difference and the Friedman post-hoc z tests) depend on the table only
    through the average ranks R_j and N, so they accept this instead of a
    table. Menzies' chi2 = 9.28 (after Demsar 2006) comes from the notes' printed average ranks
    (3.143, 2.000, 2.893, 1.964; N = 14); their table, rounded to three decimals,
    ranks differently (see ``tests/test_omnibus.py``).

    Note: the tie correction of the Friedman statistic needs the table, so
    ``friedman(AverageRanks(...), tie_correction=True)`` raises.
    """

    ranks: pd.Series
    n: int

    def __init__(self, ranks: Any, n: int, learners: Sequence[str] | None = None) -> None:
        series = (
            ranks
            if isinstance(ranks, pd.Series)
            else pd.Series(
                np.asarray(ranks, dtype=float),
                index=list(learners) if learners is not None else None,
            )
        )
        if learners is None and not isinstance(ranks, pd.Series):
            series.index = [f"L{j + 1}" for j in range(len(series))]
        series = series.astype(float)
        k = len(series)
        if k < 2:
            raise ValueError(f"need at least 2 learners, got {k}")
        if series.index.has_duplicates:
            raise ValueError("duplicate learner name(s) in average ranks")
        if int(n) != n or n < 2:
            raise ValueError(f"n (number of data sets) must be an integer >= 2, got {n!r}")
        check_average_ranks(series.to_numpy())
        object.__setattr__(self, "ranks", series)
        object.__setattr__(self, "n", int(n))

    @property
    def k(self) -> int:
        return len(self.ranks)

    @classmethod
    def _of_table(cls, ranks: np.ndarray, n: int, learners: pd.Index) -> AverageRanks:
        """The average ranks of a validated table (possible by construction: not checked again)."""
        out = cls.__new__(cls)
        object.__setattr__(out, "ranks", pd.Series(ranks, index=learners, dtype=float))
        object.__setattr__(out, "n", int(n))
        return out


def row_ranks(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Ranks within each row, 1 = the largest, ties averaged -- ``scipy.stats.rankdata(-values,
    axis=1, method="average")``, the same floats (halves of integers, exact) -- and sum(t^3 - t)
    over the groups of t tied values of each row, from one sort."""
    n, k = values.shape
    order = np.argsort(-values, axis=1, kind="stable")
    s = np.take_along_axis(values, order, axis=1)
    start = np.ones((n, k), dtype=bool)  # a run of equal values starts where a row starts or a value changes
    start[:, 1:] = s[:, 1:] != s[:, :-1]
    first = np.flatnonzero(start.ravel())
    size = np.diff(np.append(first, n * k))  # each run's length (runs never span rows)
    run = np.cumsum(start.ravel()) - 1  # the run of each sorted cell
    lo = first - (first // k) * k  # each run's first position within its row (0-based)
    average = ((2 * lo + size + 1) / 2.0)[run]  # (lo + 1 + lo + size) / 2: exact
    ranks = np.empty((n, k))
    np.put_along_axis(ranks, order, average.reshape(n, k), axis=1)
    t = size.astype(np.int64)
    return ranks, int(np.sum(t**3 - t))


def _ranked(table: Table) -> tuple[np.ndarray, int]:
    return table.derived("row_ranks", lambda: row_ranks(table.values))


def rank_matrix(table: Table) -> np.ndarray:
    """Ranks within each row of an oriented table: 1 = best (largest), ties averaged (read-only,
    computed once per table)."""
    return _ranked(table)[0]


def mean_ranks(table: Table) -> AverageRanks:
    """The average rank of each learner (Demsar 2006, Eq. 1) and N, once per table."""
    return table.derived(
        "average", lambda: AverageRanks._of_table(rank_matrix(table).mean(axis=0), table.n, table.learners)
    )


def tie_sum(table: Table) -> int:
    """sum(t^3 - t) over the groups of t tied values within each data set (Friedman's tie
    correction, :func:`stats.friedman`), an exact integer, once per table."""
    return _ranked(table)[1]


def aligned_rank_matrix(table: Table) -> np.ndarray:
    """Aligned ranks: x_ij - mean_i ranked over all kN cells, 1 = best (Hodges & Lehmann 1962);
    read-only, once per table.

    The residuals ranked are k x_ij - sum_j x_ij = k (x_ij - mean_i): the same order, and an
    exact decimal with the row's own decimals, so snapping it at the row's scale recovers it
    exactly (the decimal rule of :func:`stats.core._table.snap`). x_ij - mean_i itself is a
    repeating decimal when k is 3, 6, 7, 9, ... and rounding it at 12 digits broke ties that
    are exact (issue 26: a row shifted by a constant changed T)."""

    def make() -> np.ndarray:
        v = table.values
        aligned = snap(v.shape[1] * v - v.sum(axis=1, keepdims=True), table.scale)  # at the row's scale
        # rankdata(-aligned.ravel(), method="average"): all kN cells as one row, 1 = the largest
        return row_ranks(aligned.reshape(1, -1))[0].reshape(aligned.shape)

    return table.derived("aligned", make)


def quade_components(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """Quade's data-set weights Q_i (ranks of the ranges) and within-set ranks r_ij (1 = best);
    read-only, once per table."""

    def make() -> np.ndarray:
        ranges = snap(table.values.max(axis=1) - table.values.min(axis=1), table.scale[:, 0])  # at the row's scale
        return row_ranks(-ranges.reshape(1, -1))[0][0]  # rankdata(ranges, method="average"): 1 = the smallest

    return table.derived("quade", make), rank_matrix(table)


def ranked_table(scores: Any, *, higher_is_better: bool = True) -> Table:
    """A scores table validated, oriented and snapped once, whose ranks are computed once.

    Every statistic of :mod:`stats` that takes a scores table takes this too, and then neither
    validates it nor ranks it again: the within-data-set ranks, the average ranks, Friedman's
    tie groups, the aligned ranks and Quade's weights are computed when first needed and shared
    by :func:`friedman`, :func:`iman_davenport`, :func:`friedman_aligned`, :func:`quade`,
    :func:`control_test`, :func:`pairwise_test`, :func:`verdict` and the others. The results are
    the same floats as from the table itself.

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners (at least one of each; each statistic checks
        its own minimum).
    higher_is_better : bool, default True
        The table's direction, fixed here: a statistic given the ranked table with another
        ``higher_is_better`` raises ``ValueError``.

    Returns
    -------
    RankedTable
        Read-only: ``values`` (oriented, snapped), ``raw``, ``datasets``, ``learners``,
        ``higher_is_better``, ``n`` and ``k``.

    References
    ----------
    Demsar (2006) JMLR 7, Eq. 1 (average ranks); Friedman (1937); Hodges & Lehmann (1962);
    Quade (1979) JASA 74 -- the ranks this object computes once.

    Examples
    --------
    >>> import stats
    >>> t = stats.ranked_table([[0.9, 0.8, 0.8], [0.7, 0.9, 0.8]])
    >>> stats.friedman(t).statistic == stats.friedman([[0.9, 0.8, 0.8], [0.7, 0.9, 0.8]]).statistic
    True
    """
    return as_table(scores, higher_is_better=higher_is_better, min_learners=1, min_datasets=1)


def ranks(scores: Any, *, higher_is_better: bool = True) -> pd.DataFrame:
    """Rank the learners within each data set: 1 = best, ties get the average rank.

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners, one value per cell.
    higher_is_better : bool, default True
        ``False`` for error-like criteria (pf, runtime): the smallest value gets rank 1.

    Returns
    -------
    DataFrame
        Same shape and labels as ``scores``.

    Notes
    -----
    Values equal to 12 significant digits are ties (see :func:`stats.core._table.snap`).

    References
    ----------
    Menzies, notes on comparing learners ("1,1,1,1 get ranks 1,2,3,4 ... averages to 2.5");
    Demsar (2006), JMLR 7, Sec. 3.2.2.

    Examples
    --------
    >>> import stats
    >>> stats.ranks([[0.9, 0.8, 0.8], [1, 1, 1]]).to_numpy().tolist()
    [[1.0, 2.5, 2.5], [2.0, 2.0, 2.0]]
    """
    table = as_table(scores, higher_is_better=higher_is_better, min_learners=1, min_datasets=1)
    return pd.DataFrame(rank_matrix(table), index=table.datasets, columns=table.learners)


def average_ranks(scores: Any, *, higher_is_better: bool = True) -> AverageRanks:
    """Average rank of each learner over the data sets (Demsar 2006, Eq. 1)."""
    return mean_ranks(as_table(scores, higher_is_better=higher_is_better))
