"""Two-learner tests: sign test and Wilcoxon signed-ranks (paired), Mann-Whitney U (unpaired).

Paired tests work on ``d = b - a`` (``a - b`` when ``higher_is_better=False``),
so a positive difference always means that ``b`` is better. ``a`` and ``b`` are
snapped together and ``d`` is snapped again (see :func:`stats.core._table.snap`), so
that scores equal in decimal give a zero difference and differences equal in
decimal tie. All p-values are two-sided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from stats.core import (
    Printable,
    as_sample,
    binomtest_half_pvalue,
    check_bool,
    check_choice,
    fmt_stat,
    norm_cdf,
    p_is,
    paired_difference,
    snap,
    twice_midranks,
)
from stats.twosample._mann_whitney import mannwhitneyu_two_sided

ZERO_METHODS = ("demsar", "zsplit", "pratt", "wilcox")
#: What each zero method does with the zero differences, in words (the results print it).
ZERO_WORDS = {
    "demsar": "zeros split, one dropped if odd (Demšar 2006)",
    "zsplit": "zeros split",
    "pratt": "zeros ranked, then dropped (Pratt 1959)",
    "wilcox": "zeros dropped",
}
METHODS = ("auto", "exact", "approx")
#: ``method="auto"`` is exact up to this many pairs used.
EXACT_MAX_N = 50


@dataclass(frozen=True)
class SignTestResult(Printable):
    """Sign test: ``statistic`` wins of ``b`` (ties split) out of ``n``."""

    statistic: int
    pvalue: float
    wins: int
    losses: int
    ties: int
    n: int

    def __str__(self) -> str:
        # the ties split between the two (Demsar 2006, Sec. 3.1.3; an odd one dropped): said, so that
        # "6 wins of 13 (5 wins, 6 losses, 3 ties)" does not read as a contradiction
        if not self.ties:
            split = ""
        elif self.n == self.wins + self.losses:  # ties="discard" (or a single tie, which split drops)
            split = " with the ties dropped"
        else:
            split = " with ties split (one dropped)" if self.ties % 2 else " with ties split"
        return (
            f"Sign test: {_count(self.statistic, 'win')} of {self.n}{split}, {p_is(self.pvalue)}"
            f" ({_count(self.wins, 'win')}, {_count(self.losses, 'loss', 'losses')}, {_count(self.ties, 'tie')})"
        )


def _count(n: float, one: str, many: str | None = None) -> str:
    """``1 win``, ``2 wins``, ``0 losses``, ``2.5 wins`` (a split tie's half)."""
    return f"{n:g} {one if n == 1 else many or one + 's'}"


@dataclass(frozen=True)
class WilcoxonResult(Printable):
    """Wilcoxon signed-ranks test: ``statistic`` is T = min(R+, R-)."""

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    n_zero: int
    zscore: float
    zero_method: str
    method: str

    def __str__(self) -> str:
        return (
            f"Wilcoxon T = {fmt_stat(self.statistic)} (R+ = {self.r_plus:g}, R- = {self.r_minus:g},"
            f" N = {self.n}), z = {fmt_stat(self.zscore)}, {p_is(self.pvalue)}"
            f" ({self.method}, {ZERO_WORDS.get(self.zero_method, 'zeros: ' + self.zero_method)})"
        )


@dataclass(frozen=True)
class MannWhitneyResult(Printable):
    """Mann-Whitney U test: ``statistic`` is U of ``a``."""

    statistic: float
    pvalue: float
    method: str

    def __str__(self) -> str:
        return f"Mann-Whitney U = {fmt_stat(self.statistic)}, {p_is(self.pvalue)} ({self.method})"


def _differences(a: ArrayLike, b: ArrayLike, higher_is_better: bool) -> np.ndarray:
    check_bool("higher_is_better", higher_is_better)
    x, y = as_sample(a, "a"), as_sample(b, "b")
    if x.size != y.size:
        raise ValueError(f"a and b must have the same length (paired samples), got {x.size} and {y.size}")
    d = paired_difference(y, x)  # each pair is one data set: at that pair's scale
    return d if higher_is_better else -d


def sign_test(a: ArrayLike, b: ArrayLike, *, ties: str = "split", higher_is_better: bool = True) -> SignTestResult:
    """Sign test (count of wins, losses and ties) of ``b`` against ``a``, two-sided.

    Parameters
    ----------
    a, b : array_like, 1-D, same length
        Scores of two learners on the same data sets.
    ties : {"split", "discard"}
        ``"split"`` (Garcia & Herrera; Demsar 2006): ties are split evenly
        between the two learners; if their number is odd, one is ignored.
        ``"discard"``: ties are dropped.
    higher_is_better : bool
        Orientation of the scores; a win of ``b`` is ``b > a`` (``b < a`` if False).

    Returns
    -------
    SignTestResult
        ``statistic`` = wins (+ ties // 2 if split) of ``n`` trials; ``pvalue`` =
        ``scipy.stats.binomtest(statistic, n, 0.5).pvalue``, 1.0 when ``n`` is 0.

    Notes
    -----
    The table of critical wins printed in Garcia & Herrera's tutorial (2008, 2010) is not
    reproduced by any single rule, so no function for it is provided. For
    N = 5..25, row w_0.05 differs from ceil(N/2 + 1.96 sqrt(N)/2)
    at N = 13, 18, 24 (rule: 11, 14, 17; printed: 10, 13, 18); from the
    smallest w with exact P(X >= w) <= 0.05 at N = 23, 24 (rule: 16, 17;
    printed: 17, 18); from the smallest w with exact two-sided p <= 0.05 at
    N = 5, 8, 11, 13, 14, 16, 18, 19, 21, 22. Row w_0.10 equals the smallest w
    with exact P(X >= w) <= 0.10 at every N (a one-sided level).

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
       data sets", JMLR 7:1-30, 2006, sec. 3.1.3.
    .. [2] S. Garcia, F. Herrera, "Statistical Analysis of Experiments in Data
       Mining and Computational Intelligence" (tutorial
       slides, after JMLR 9, 2008 and Inf. Sci. 180, 2010), sign test example C4.5 vs C4.5m.

    Examples
    --------
    >>> c45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1., .940, .619, .972, .957]
    >>> c45m = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1., .962, .666, .981, .978]
    >>> res = sign_test(c45, c45m)
    >>> res.wins, res.losses, res.ties, res.statistic, res.n
    (10, 2, 2, 11, 14)
    """
    check_choice("ties", ties, ("split", "discard"))
    d = _differences(a, b, higher_is_better)
    wins, losses, n_ties = int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())
    half = n_ties // 2 if ties == "split" else 0
    statistic, n = wins + half, wins + losses + 2 * half
    # Known discrepancy: the printed table gives w_0.05 = 11 for N = 14 and the
    # seed calls C4.5m's 11 of 14 significant, but the exact two-sided binomial
    # p for 11 of 14 is 940/16384 = 0.0574 > 0.05.
    # scipy.stats.binomtest(statistic, n, 0.5).pvalue, bit for bit, without importing scipy.stats
    pvalue = binomtest_half_pvalue(statistic, n) if n else 1.0
    return SignTestResult(statistic, pvalue, wins, losses, n_ties, n)


def _exact_pvalue(twice: np.ndarray, observed: int) -> float:
    """Two-sided p of sum(s_i * twice_i), s_i ~ Bernoulli(1/2), at ``observed``."""
    pmf = np.zeros(int(twice.sum()) + 1)
    pmf[0], top = 1.0, 0
    for r in twice:  # pmf values are k / 2^j: exact in float64 up to 53 pairs
        pmf[r : top + r + 1] += pmf[: top + 1]  # ufuncs buffer overlapping operands
        top += int(r)
        pmf[: top + 1] *= 0.5
    return min(1.0, 2.0 * min(float(pmf[: observed + 1].sum()), float(pmf[observed:].sum())))


def wilcoxon(
    a: ArrayLike,
    b: ArrayLike,
    *,
    zero_method: str = "demsar",
    method: str = "auto",
    higher_is_better: bool = True,
) -> WilcoxonResult:
    """Wilcoxon signed-ranks test for paired samples, two-sided.

    Parameters
    ----------
    a, b : array_like, 1-D, same length
        Scores of two learners on the same data sets; ``d = b - a``
        (``a - b`` if ``higher_is_better`` is False), so R+ sums the ranks of
        the data sets where ``b`` is better.
    zero_method : {"demsar", "zsplit", "pratt", "wilcox"}
        ``"demsar"`` (Demsar 2006; Garcia & Herrera): zeros are ranked with
        the other |d| and their ranks split evenly between R+ and R-; with an
        odd number of zeros one is removed first. ``"zsplit"``: the same
        without removal (scipy's zsplit). ``"pratt"`` (Pratt 1959): zeros
        are ranked, then dropped. ``"wilcox"``: zeros are dropped before ranking.
    method : {"auto", "exact", "approx"}
        ``"exact"``: the permutation distribution of R+ over the 2^m sign
        assignments of the m non-zero differences with their actual
        (mid-)ranks, by dynamic programming; the split zero ranks are a
        constant. p = min(1, 2 min(P(R+ <= r+), P(R+ >= r+))).
        ``"approx"``: normal approximation without continuity correction,
        with the tie-corrected variance computed as scipy does (``"demsar"``
        uses the zsplit formula on its pairs; for zsplit/demsar this variance
        counts the zero ranks as if their signs were random).
        ``"auto"``: exact when ``n <= 50``, else approx.
    higher_is_better : bool
        Orientation of the scores.

    Returns
    -------
    WilcoxonResult
        ``statistic`` T = min(R+, R-); ``r_plus``, ``r_minus``; ``n`` pairs
        ranked (all but dropped zeros); ``n_zero`` zero differences in the
        input; ``zscore`` = (T - E T) / sd (for exact, informational);
        ``method`` ("exact" or "approx"). When no difference is non-zero the
        result is statistic = r_plus = r_minus = zscore = 0, n = 0, pvalue = 1.

    References
    ----------
    .. [1] F. Wilcoxon, "Individual comparisons by ranking methods",
       Biometrics Bulletin 1(6):80-83, 1945.
    .. [2] J. Demsar, "Statistical comparisons of classifiers over multiple
       data sets", JMLR 7:1-30, 2006, sec. 3.1.3.
    .. [3] S. Garcia, F. Herrera, "Statistical Analysis of Experiments in Data
       Mining and Computational Intelligence" (tutorial
       slides, after JMLR 9, 2008 and Inf. Sci. 180, 2010), Wilcoxon example C4.5 vs C4.5m.
    .. [4] J. W. Pratt, "Remarks on zeros and ties in the Wilcoxon signed rank
       procedures", JASA 54(287):655-667, 1959.

    Examples
    --------
    >>> c45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1., .940, .619, .972, .957]
    >>> c45m = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1., .962, .666, .981, .978]
    >>> res = wilcoxon(c45, c45m)
    >>> res.r_plus, res.r_minus, res.statistic, res.n
    (93.0, 12.0, 12.0, 14)
    >>> bool(res.pvalue < 0.05)
    True
    """
    check_choice("zero_method", zero_method, ZERO_METHODS)
    check_choice("method", method, METHODS)
    d = _differences(a, b, higher_is_better)
    n_zero = int((d == 0).sum())
    nonzero = d[d != 0]
    kept = {"wilcox": 0, "demsar": n_zero - n_zero % 2}.get(zero_method, n_zero)
    absd = np.concatenate([np.zeros(kept), np.abs(nonzero)])
    n = int(absd.size)
    if nonzero.size == 0:
        return WilcoxonResult(
            0.0, 1.0, 0.0, 0.0, 0, n_zero, 0.0, zero_method, "approx" if method == "approx" else "exact"
        )
    twice = twice_midranks(absd)  # mid-ranks are k/2: rint(2 * scipy.stats.rankdata(absd))
    twice_nz = twice[kept:]
    zero_share = int(twice[:kept].sum()) // 2 if zero_method in ("demsar", "zsplit") else 0
    pos2 = int(twice_nz[nonzero > 0].sum())
    neg2 = int(twice_nz[nonzero < 0].sum())
    r_plus, r_minus = (pos2 + zero_share) / 2, (neg2 + zero_share) / 2
    statistic = min(r_plus, r_minus)

    # Normal approximation, term by term as scipy.stats.wilcoxon computes it.
    mean, var = n * (n + 1.0) * 0.25, n * (n + 1.0) * (2.0 * n + 1.0)
    _, counts = np.unique(absd, return_counts=True)
    if zero_method == "pratt" and kept:
        mean -= kept * (kept + 1.0) * 0.25
        var -= kept * (kept + 1.0) * (2.0 * kept + 1.0)
        counts = counts[1:]  # the zeros' tie group is left out of the correction
    tie = float(np.sum(counts.astype(float) ** 3 - counts))
    zscore = float((statistic - mean) / math.sqrt((var - tie / 2) / 24))

    used = "exact" if method == "exact" or (method == "auto" and n <= EXACT_MAX_N) else "approx"
    if used == "exact":
        pvalue = _exact_pvalue(twice_nz, pos2)
    else:
        pvalue = min(1.0, float(2.0 * norm_cdf(zscore)))
    return WilcoxonResult(statistic, pvalue, r_plus, r_minus, n, n_zero, zscore, zero_method, used)


def mann_whitney(a: ArrayLike, b: ArrayLike, *, method: str = "auto") -> MannWhitneyResult:
    """Mann-Whitney U (Wilcoxon rank-sum) test for unpaired samples, two-sided.

    Wraps ``scipy.stats.mannwhitneyu(a, b, alternative="two-sided")`` with its
    default continuity correction, after snapping the pooled values so that
    values equal in decimal tie.

    Parameters
    ----------
    a, b : array_like, 1-D
        Two independent samples (at least one value each).
    method : {"auto", "exact", "approx"}
        ``"exact"``: scipy's exact null distribution of U (not corrected for
        ties); ``"approx"``: scipy's "asymptotic" (tie-corrected normal);
        ``"auto"``: scipy's rule, exact when a sample has at most 8 values and
        there are no ties, else approx. The result reports the method used.

    Returns
    -------
    MannWhitneyResult
        ``statistic`` U of ``a`` = R_a - n_a (n_a + 1) / 2, ``pvalue``, ``method``.

    References
    ----------
    .. [1] H. B. Mann, D. R. Whitney, "On a test of whether one of two random
       variables is stochastically larger than the other", Ann. Math. Statist.
       18(1):50-60, 1947.

    Examples
    --------
    >>> mann_whitney([5, 7, 2, 0, 4], [4, 8, 2, 3, 6, 7]).statistic
    10.5
    """
    check_choice("method", method, METHODS)
    x, y = as_sample(a, "a"), as_sample(b, "b")
    pooled = snap(np.concatenate([x, y]))
    x, y = pooled[: x.size], pooled[x.size :]
    if method == "auto":
        ties = np.unique(pooled).size < pooled.size
        method = "approx" if (x.size > 8 and y.size > 8) or ties else "exact"
    # scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method=...)'s floats, without scipy.stats
    statistic, pvalue = mannwhitneyu_two_sided(x, y, "asymptotic" if method == "approx" else "exact")
    return MannWhitneyResult(statistic, pvalue, method)
