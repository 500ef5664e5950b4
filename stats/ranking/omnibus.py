"""Omnibus tests over a block design: Friedman, Iman-Davenport, aligned ranks, Quade.

Each function is a short pipeline: validate -> statistic -> p-value -> result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from stats.core import Printable, Table, as_table, check_bool, fmt_stat, p_is
from stats.ranking.ranks import AverageRanks, aligned_rank_matrix, mean_ranks, quade_components, tie_sum

# The p-values below call the functions scipy.stats' distributions call (chi2.sf is chdtrc,
# f.sf is fdtrc), without the distribution objects' argument handling, which costs ~0.1 ms a
# call: the same floats (tests/test_analysis_fast.py checks them against scipy.stats).


@dataclass(frozen=True, eq=False)
class FriedmanResult(Printable):
    """Friedman's chi2_F with k - 1 degrees of freedom."""

    statistic: float
    pvalue: float
    df: int
    ranks: pd.Series
    n: int
    tie_correction: bool
    k: int = 0

    def __str__(self) -> str:
        return (
            f"Friedman chi2({self.df}) = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"
            f" (N = {self.n} data sets, k = {len(self.ranks)} learners)"
        )


@dataclass(frozen=True, eq=False)
class ImanDavenportResult(Printable):
    """Iman-Davenport's F_F with (k - 1, (k - 1)(N - 1)) degrees of freedom."""

    statistic: float
    pvalue: float
    df: tuple[int, int]
    chi2: float
    ranks: pd.Series | None = None
    n: int = 0
    k: int = 0

    def __str__(self) -> str:
        return f"Iman-Davenport F({self.df[0]}, {self.df[1]}) = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"


@dataclass(frozen=True, eq=False)
class AlignedRanksResult(Printable):
    """Friedman aligned-ranks T, chi2 with k - 1 degrees of freedom."""

    statistic: float
    pvalue: float
    df: int
    ranks: pd.Series
    n: int = 0
    k: int = 0

    def __str__(self) -> str:
        return f"Friedman aligned ranks T({self.df}) = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"


@dataclass(frozen=True, eq=False)
class QuadeResult(Printable):
    """Quade's T3 with (k - 1, (k - 1)(N - 1)) degrees of freedom."""

    statistic: float
    pvalue: float
    df: tuple[int, int]
    ranks: pd.Series
    tie_correction: bool
    n: int = 0
    k: int = 0

    def __str__(self) -> str:
        return f"Quade F({self.df[0]}, {self.df[1]}) = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"


def _rank_input(scores: Any, higher_is_better: bool) -> tuple[AverageRanks, Table | None]:
    if isinstance(scores, AverageRanks):
        return scores, None
    table = as_table(scores, higher_is_better=higher_is_better)
    return mean_ranks(table), table


def _tie_factor(table: Table) -> float:
    """1 - sum(t^3 - t) / (N k (k^2 - 1)) over tie groups t within each data set."""
    n, k = table.values.shape
    return 1.0 - float(tie_sum(table)) / (n * k * (k * k - 1))


def chi2_sf(x: float, df: int) -> float:
    """``scipy.stats.chi2.sf(x, df)`` for x >= 0: the same float."""
    return float(special.chdtrc(df, x))


def f_sf(x: float, df1: int, df2: int) -> float:
    """``scipy.stats.f.sf(x, df1, df2)`` for finite x >= 0: the same float."""
    return float(special.fdtrc(df1, df2, x))


def friedman(scores: Any, *, higher_is_better: bool = True, tie_correction: bool = False) -> FriedmanResult:
    """Friedman's test of equal average ranks.

    chi2_F = 12N / (k(k+1)) * [sum_j R_j^2 - k(k+1)^2 / 4], chi2 with k - 1 df.

    Parameters
    ----------
    scores : DataFrame, 2-D array or AverageRanks
        Rows are data sets, columns are learners; or the average ranks and N.
    higher_is_better : bool, default True
        ``False`` when the smallest value is best (pf, runtime).
    tie_correction : bool, default False
        Divide by 1 - sum(t^3 - t) / (N k (k^2 - 1)) as ``scipy.stats.friedmanchisquare``
        and R's ``friedman.test`` do. Demsar's (2006) formula (default) has no tie correction.

    Returns
    -------
    FriedmanResult
        ``statistic``, ``pvalue``, ``df`` (k - 1), ``ranks`` (average rank per learner), ``n``.

    Notes
    -----
    Every data set tied throughout gives chi2 = 0 and p = 1 (with the tie
    correction the factor is 0/0 there; the result is defined as 0 too).

    References
    ----------
    Friedman (1937) JASA 32, 675-701; Demsar (2006) JMLR 7, Eq. after (1);
    Menzies' notes on comparing learners; Garcia & Herrera (2008) JMLR 9 ("Friedman's test").

    Examples
    --------
    >>> import stats
    >>> r = stats.AverageRanks([3.143, 2.000, 2.893, 1.964], n=14)
    >>> round(stats.friedman(r).statistic, 2)
    9.28
    """
    avg, table = _rank_input(scores, higher_is_better)
    n, k = avg.n, avg.k
    r = avg.ranks.to_numpy()
    chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(r**2)) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)
    if check_bool("tie_correction", tie_correction):
        if table is None:
            raise ValueError("tie_correction=True needs the scores table, not average ranks")
        factor = _tie_factor(table)
        chi2 = 0.0 if factor <= 1e-12 else chi2 / factor
    pvalue = chi2_sf(chi2, k - 1)
    return FriedmanResult(chi2, pvalue, k - 1, avg.ranks, n, tie_correction, k)


def iman_davenport(scores: Any, *, higher_is_better: bool = True, tie_correction: bool = False) -> ImanDavenportResult:
    """Iman and Davenport's F_F = (N - 1) chi2_F / (N(k - 1) - chi2_F).

    F distribution with k - 1 and (k - 1)(N - 1) degrees of freedom.

    Notes
    -----
    Perfect agreement (every data set ranks the learners identically, so
    chi2_F = N(k - 1)) makes the denominator 0: the result is F = inf, p = 0.

    References
    ----------
    Iman & Davenport (1980) Commun. Stat. 9, 571-595; Demsar (2006) JMLR 7;
    Menzies' notes (after Demsar): F_F = 3.69 for the C4.5 example.

    Examples
    --------
    >>> import stats
    >>> r = stats.AverageRanks([1.771, 2.479, 2.479, 3.271], n=24)
    >>> round(stats.iman_davenport(r).statistic, 3)
    6.691
    """
    fr = friedman(scores, higher_is_better=higher_is_better, tie_correction=tie_correction)
    n, k = fr.n, len(fr.ranks)
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denominator = n * (k - 1) - fr.statistic
    if denominator <= 1e-9 * n * (k - 1):
        return ImanDavenportResult(float("inf"), 0.0, (df1, df2), fr.statistic, fr.ranks, n, k)
    f_f = (n - 1) * fr.statistic / denominator
    return ImanDavenportResult(f_f, f_sf(f_f, df1, df2), (df1, df2), fr.statistic, fr.ranks, n, k)


def friedman_aligned(scores: Any, *, higher_is_better: bool = True) -> AlignedRanksResult:
    """Friedman aligned-ranks test.

    T = (k-1) [sum_j R_j^2 - (k N^2 / 4)(kN + 1)^2] /
        ([kN(kN + 1)(2kN + 1)] / 6 - (1/k) sum_i R_i^2),
    with R_j, R_i the totals of the aligned ranks of learner j and data set i;
    chi2 with k - 1 df.

    Notes
    -----
    Aligned values equal in decimal are tied (:func:`stats.core._table.snap`);
    without that, the 24-data-set case of Garcia et al. (2010) gives a different T.
    Garcia et al. print T = 18.837 for that case; the value is not reproducible
    (scmamp's authors report a bug in the original software): the correct
    value is T = 22.267.

    References
    ----------
    Hodges & Lehmann (1962) Ann. Math. Stat. 33, 482-497; Garcia et al. (2010)
    Inf. Sci. 180, 2044-2064 ("Aligned Ranks Friedman's test").
    """
    table = as_table(scores, higher_is_better=higher_is_better)
    n, k = table.n, table.k
    r = aligned_rank_matrix(table)
    col = r.sum(axis=0)
    row = r.sum(axis=1)
    kn = k * n
    numerator = (k - 1) * (float(np.sum(col**2)) - (k * n**2 / 4.0) * (kn + 1) ** 2)
    denominator = kn * (kn + 1) * (2 * kn + 1) / 6.0 - float(np.sum(row**2)) / k
    t = max(numerator / denominator, 0.0)
    ranks = pd.Series(col / n, index=table.learners)
    return AlignedRanksResult(t, chi2_sf(t, k - 1), k - 1, ranks, n, k)


def quade(scores: Any, *, higher_is_better: bool = True, tie_correction: bool = False) -> QuadeResult:
    """Quade's test: ranks weighted by the rank of each data set's range.

    S_ij = Q_i (r_ij - (k + 1)/2), S_j = sum_i S_ij, B = (1/N) sum_j S_j^2,
    T3 = (N - 1) B / (A2 - B), F with k - 1 and (k - 1)(N - 1) df.
    ``ranks`` are T_j = W_j / (N(N + 1)/2) with W_j = sum_i Q_i r_ij.

    Parameters
    ----------
    tie_correction : bool, default False
        ``False``: the closed form A2 = N(N+1)(2N+1) k(k+1)(k-1) / 72 of Garcia et al. (2010);
        ``True``: A2 = sum_ij S_ij^2 (Quade 1979, exact under ties).

    Notes
    -----
    Garcia et al. (2010) print T3 = 21.967 for their 24-data-set case; their own arithmetic
    does not add up (23 * 4068.479 / (24500 - 4068.479) is 4.58) and the
    correct value is 11.752. A2 = B (every data set ranks the learners the same
    way, with the tie-aware A2) gives T3 = inf, p = 0; all-tied data gives 0, p = 1.

    References
    ----------
    Quade (1979) JASA 74, 680-683; Garcia et al. (2010) Inf. Sci. 180
    ("Quade test").
    """
    table = as_table(scores, higher_is_better=higher_is_better)
    n, k = table.n, table.k
    q, r = quade_components(table)
    s = q[:, None] * (r - (k + 1) / 2.0)
    s_j = s.sum(axis=0)
    b = float(np.sum(s_j**2)) / n
    if check_bool("tie_correction", tie_correction):
        a2 = float(np.sum(s**2))
    else:
        a2 = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72.0
    df = (k - 1, (k - 1) * (n - 1))
    w = (q[:, None] * r).sum(axis=0)
    ranks = pd.Series(w / (n * (n + 1) / 2.0), index=table.learners)
    if b <= 1e-12 * max(a2, 1.0):
        return QuadeResult(0.0, 1.0, df, ranks, tie_correction, n, k)
    if a2 - b <= 1e-9 * a2:
        return QuadeResult(float("inf"), 0.0, df, ranks, tie_correction, n, k)
    t3 = (n - 1) * b / (a2 - b)
    return QuadeResult(t3, f_sf(t3, *df), df, ranks, tie_correction, n, k)
