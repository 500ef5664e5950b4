"""Skillings & Mack's (1981) Friedman-type test for block designs with missing observations.

A cross-validation log is rarely complete: a learner times out on a large data set, a run
crashes. Friedman's test needs every learner on every data set, so such a data set is left out of
it, with every other learner's results on it. Skillings & Mack (1981) generalise Friedman's
statistic to blocks (data sets) in which any treatments (learners) are missing; on a complete
table it is Friedman's chi2_F without tie correction, and on a balanced incomplete block design it
is Durbin's (1951) statistic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from stats.core import Printable, check_bool, fmt_stat, magnitude, p_is, snap, table_of
from stats.ranking.omnibus import chi2_sf
from stats.ranking.ranks import row_ranks


@dataclass(frozen=True, eq=False)
class SkillingsMackResult(Printable):
    """Skillings & Mack's SM, chi2 with ``df`` = rank of its covariance matrix.

    ``n`` data sets used (those with results for at least two learners); ``dropped`` the others,
    which carry no information about the learners' order; ``missing`` the cells missing in the data
    sets used; ``sums`` the adjusted rank sums A_t (negative: better than the middle rank);
    ``k`` the learners (columns) given."""

    statistic: float
    pvalue: float
    df: int
    n: int
    dropped: tuple[Any, ...]
    missing: int
    sums: pd.Series
    k: int

    @property
    def n_dropped(self) -> int:
        """How many data sets were dropped (fewer than two results)."""
        return len(self.dropped)

    def __str__(self) -> str:
        drop = f"; {self.n_dropped} dropped with fewer than 2 results" if self.dropped else ""
        cells = f"{self.missing} missing cell{'s' * (self.missing != 1)}"
        return (
            f"Skillings-Mack chi2({self.df}) = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"
            f" (N = {self.n} data sets, {cells}{drop}; k = {self.k} learners)"
        )


def _values(scores: Any) -> tuple[np.ndarray, pd.Index, pd.Index]:
    """The table's values as floats (NaN: missing), its data sets and its learners; ``ValueError``
    for a table that is not 2-D, has fewer than 2 learners or no data set, is not numeric, holds an
    infinite value or repeats a learner."""
    scores = table_of(scores)  # a ScoresTable is its table
    if isinstance(scores, pd.DataFrame):
        frame = scores
    else:
        array = np.asarray(scores, dtype=object)
        if array.ndim != 2:
            raise ValueError(f"scores must be a 2-D table (data sets x learners), got {array.ndim} dimension(s)")
        cols = [f"L{j + 1}" for j in range(array.shape[1])]
        frame = pd.DataFrame(array, index=[f"D{i + 1}" for i in range(array.shape[0])], columns=cols)
    n, k = frame.shape
    if k < 2:
        raise ValueError(f"need at least 2 learners (columns), got {k}")
    if n < 1:
        raise ValueError("need at least 1 data set (row), got 0")
    if frame.columns.has_duplicates:
        dupes = sorted({str(x) for x in frame.columns[frame.columns.duplicated()]})
        raise ValueError(f"duplicate learner name(s): {', '.join(dupes)}")
    try:
        values = frame.to_numpy(dtype=float, na_value=np.nan)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scores must be numeric (NaN for a missing result): {exc}") from None
    if np.isinf(values).any():
        i, j = np.argwhere(np.isinf(values))[0]
        raise ValueError(
            f"scores must be finite or NaN (missing): infinite at data set {frame.index[i]!r}, "
            f"learner {frame.columns[j]!r}"
        )
    return values, pd.Index(frame.index), pd.Index(frame.columns)


def block_ranks(values: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Ranks 1..k_j of each row's observed values, 1 = the largest, ties averaged (0 where missing).

    The missing cells are put below every observed one (-inf), so that the observed values of a
    row take ranks 1..k_j exactly as if ranked alone."""
    ranks, _ = row_ranks(np.where(observed, values, -np.inf))
    return np.where(observed, ranks, 0.0)


def adjusted_sums(ranks: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """A_t = sum_j sqrt(12 / (k_j + 1)) (r_tj - (k_j + 1)/2) over the blocks j where t is observed
    (Skillings & Mack 1981): each block's centred ranks weighted so that, without ties, each
    centred rank has variance k_j - 1 and two of the same block covariance -1."""
    k_j = observed.sum(axis=1, keepdims=True).astype(float)
    centred = np.where(observed, ranks - (k_j + 1.0) / 2.0, 0.0)
    return (np.sqrt(12.0 / (k_j + 1.0)) * centred).sum(axis=0)


def covariance(observed: np.ndarray) -> np.ndarray:
    """Sigma of Skillings & Mack (1981) under the null hypothesis, without tie correction:
    -lambda_st off the diagonal (lambda_st: the blocks where both s and t are observed) and
    sum_{s != t} lambda_st on it."""
    o = observed.astype(float)
    both = o.T @ o  # lambda_st; its diagonal counts the blocks where t is observed
    sigma = -both
    np.fill_diagonal(sigma, 0.0)
    np.fill_diagonal(sigma, -sigma.sum(axis=1))
    return sigma


def connected_parts(joined: np.ndarray) -> np.ndarray:
    """Each node's connected part (0, 1, ...) in the undirected graph of the boolean adjacency matrix
    ``joined``, by breadth-first search (a node without an edge is a part of its own)."""
    k = joined.shape[0]
    label = np.full(k, -1)
    part = 0
    for start in range(k):
        if label[start] >= 0:
            continue
        label[start] = part
        frontier = np.zeros(k, dtype=bool)
        frontier[start] = True
        while frontier.any():
            frontier = joined[frontier].any(axis=0) & (label < 0)
            label[frontier] = part
        part += 1
    return label


def pinv_form(sigma: np.ndarray, a: np.ndarray) -> tuple[float, int]:
    """A Sigma^+ A^T with Sigma^+ the Moore-Penrose pseudo-inverse, and the rank of Sigma.

    Sigma is the Laplacian of the graph joining two learners observed together in some block
    (weights lambda_st), so its rank is k minus the number of connected parts of that graph (a
    learner never observed is a part of its own), and its pseudo-inverse is that of each part: for
    a part of m learners, Sigma_c^+ = (Sigma_c + J/m)^-1 - J/m (J: the matrix of ones), a regular
    system instead of a numerical rank decision. A_t sums to 0 over each part (each block's centred
    ranks do), so the J/m terms vanish; A is centred within each part first so that rounding does
    not bring them back."""
    k = sigma.shape[0]
    label = connected_parts(sigma != 0.0)
    parts = int(label.max()) + 1
    total = 0.0
    for c in range(parts):
        members = np.flatnonzero(label == c)
        m = members.size
        if m < 2:
            continue
        s = sigma[np.ix_(members, members)] + 1.0 / m
        v = a[members] - a[members].mean()
        total += float(v @ np.linalg.solve(s, v))
    return max(total, 0.0), k - parts


def skillings_mack(scores: Any, *, higher_is_better: bool = True) -> SkillingsMackResult:
    """Skillings & Mack's test of equal learners on data sets with missing results.

    In each data set (block) j the k_j observed learners are ranked 1..k_j (ties averaged); a
    data set with fewer than two results carries no information and is dropped (``dropped``).
    The adjusted sums A_t = sum_j sqrt(12/(k_j + 1)) (r_tj - (k_j + 1)/2), over the data sets where
    learner t is observed, have under H0 the covariance Sigma with -lambda_st off the diagonal
    (lambda_st: the data sets where s and t are both observed) and sum_{s != t} lambda_st on it;
    SM = A Sigma^+ A^T (Sigma^+ the Moore-Penrose pseudo-inverse), chi2 with df = rank of Sigma:
    k - 1 when the design is connected, less when a learner is never observed (with another) or
    the learners split into groups never observed together.

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners; NaN (or None) marks a missing result.
    higher_is_better : bool, default True
        ``False`` when the smallest value is best. SM does not depend on it (reversing every rank
        changes the sign of every A_t), only ``sums`` does.

    Returns
    -------
    SkillingsMackResult
        ``statistic``, ``pvalue``, ``df``, ``n`` (data sets used), ``dropped`` (the data sets left
        out, with fewer than two results; ``n_dropped`` their number), ``missing`` (cells missing in
        the data sets used), ``sums`` (A_t per learner) and ``k``.

    Raises
    ------
    ValueError
        Fewer than 2 learners, no data set with two results, a non-numeric or infinite value or a
        repeated learner name.

    Notes
    -----
    On a complete table Sigma = N (k I - J), and SM is Friedman's chi2_F without tie correction
    (:func:`stats.friedman`); on a balanced incomplete block design it is Durbin's (1951) statistic
    (Skillings & Mack 1981; Conover 1999, the Durbin test). Ties are averaged and not corrected
    for, as in the R package Skillings.Mack. Values equal to 12 significant digits of their data
    set's magnitude are ties, as everywhere in :mod:`stats`. The chi2 approximation is rough for
    few data sets or many ties; Skillings & Mack discuss its accuracy.

    References
    ----------
    J. H. Skillings and G. A. Mack, "On the use of a Friedman-type statistic in balanced and
    unbalanced block designs", Technometrics 23(2):171-177, 1981 (their Table 1, p. 173: SM =
    15.493, df = 3, p = 0.0014, ``tests/test_skillings_mack.py``); P. Srisuradetchai, R package
    Skillings.Mack (2015); J. Durbin (1951), Br. J. Stat. Psychol. 4:85-90; W. J. Conover (1999),
    Practical Nonparametric Statistics, 3rd ed.

    Examples
    --------
    >>> import numpy as np, stats
    >>> t = [[1.0, 2.0, 3.0], [1.0, 3.0, np.nan], [2.0, np.nan, 3.0], [np.nan, 1.0, 2.0]]
    >>> r = stats.skillings_mack(t)
    >>> r.df, r.n, r.missing, round(r.statistic, 4)  # balanced: (7 + 4 sqrt(3)) / 3 by hand
    (2, 4, 3, 4.6427)
    """
    higher = check_bool("higher_is_better", higher_is_better)
    raw, datasets, learners = _values(scores)
    oriented = raw if higher else -raw
    values = snap(oriented, magnitude(oriented, axis=1))  # each data set at its own scale; NaN stays
    observed = ~np.isnan(values)
    used = observed.sum(axis=1) >= 2
    if not used.any():
        raise ValueError("no data set has results for at least two learners: nothing to rank")
    values, observed = values[used], observed[used]
    a = adjusted_sums(block_ranks(values, observed), observed)
    statistic, df = pinv_form(covariance(observed), a)
    return SkillingsMackResult(
        statistic=statistic,
        pvalue=chi2_sf(statistic, df),
        df=df,
        n=int(used.sum()),
        dropped=tuple(datasets[~used]),
        missing=int((~observed).sum()),
        sums=pd.Series(a, index=learners),
        k=len(learners),
    )
