"""Effect sizes of two learners: Vargha-Delaney A12, Cliff's delta and the Hodges-Lehmann estimate.

A p-value says whether a difference is there; an effect size says how large it is. All three are
oriented like the rest of :mod:`stats`: *positive means ``a`` is better* (A12 above 0.5, delta
above 0, a positive shift), whatever ``higher_is_better`` says about the scores. Values are
snapped (:func:`stats.core._table.snap`) so that scores equal in decimal tie.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from stats.core import Printable, as_sample, check_bool, paired_difference, snap
from stats.twosample._walsh_select import LIST_MAX, walsh_order_statistics

#: Vargha & Delaney (2000), p. 106: |A12 - 0.5| bounds of small, medium and large (A12 = 0.56,
#: 0.64, 0.71, the equivalents of Cohen's d = 0.2, 0.5, 0.8 for two normal populations).
A12_BOUNDS = (Fraction("0.06"), Fraction("0.14"), Fraction("0.21"))
#: Romano et al. (2006): |delta| bounds of small, medium and large.
DELTA_BOUNDS = (Fraction("0.147"), Fraction("0.33"), Fraction("0.474"))
#: R's wilcox.test is exact below this many differences (when there are no ties and no zeros).
HL_EXACT_BELOW = 50


@dataclass(frozen=True)
class EffectSize(Printable):
    """A12 or Cliff's delta of ``a`` against ``b``: ``wins`` (a better), ``ties`` and ``losses``
    out of ``n`` comparisons (all m x n pairs, or the paired differences when ``paired``)."""

    measure: str
    value: float
    magnitude: str
    wins: int
    ties: int
    losses: int
    n: int
    paired: bool

    def __str__(self) -> str:
        kind = "paired differences" if self.paired else "pairs"
        return (
            f"{self.measure} = {self.value:.3f} ({self.magnitude}): a better in {self.wins},"
            f" tied in {self.ties}, worse in {self.losses} of {self.n} {kind}"
        )


@dataclass(frozen=True)
class HodgesLehmann(Printable):
    """Hodges-Lehmann estimate of the shift of ``a`` over ``b`` and its confidence interval.

    ``confidence`` is the nominal level asked for, ``attained`` the interval's own coverage
    (:func:`interval_level`), ``note`` why it falls short of ``confidence`` ("" when it does not)."""

    estimate: float
    low: float
    high: float
    confidence: float
    n: int
    n_zero: int
    method: str
    attained: float
    note: str

    def __str__(self) -> str:
        if self.note:
            level = f"{level_text(self.attained, self.confidence)} CI ({self.note})"
        else:
            level = f"{self.confidence:.0%} CI"
        return (
            f"Hodges-Lehmann shift = {self.estimate:.4g}, {level}"
            f" [{self.low:.4g}, {self.high:.4g}] (N = {self.n}, {self.method})"
        )


def level_text(level: float, below: float | None = None) -> str:
    """``level`` as a percentage with one decimal, trailing zeros dropped ("87.5%", "95%"); given
    ``below`` (a level it falls short of), with as many more decimals (up to four) as it takes
    not to print it at or above ``below``.

    >>> level_text(0.875), level_text(0.95), level_text(0.0), level_text(0.89996, below=0.9)
    ('87.5%', '95%', '0%', '89.996%')
    """
    for decimals in range(1, 5):
        text = f"{100.0 * level:.{decimals}f}"
        if below is None or float(text) < float(f"{100.0 * below:.{decimals}f}"):
            break
    return text.rstrip("0").rstrip(".") + "%"


def _label(deviation: Fraction, bounds: tuple[Fraction, ...], closed: bool) -> str:
    """negligible/small/medium/large; ``closed``: a deviation equal to the first bound is negligible."""
    small, medium, large = bounds
    if deviation < small or (closed and deviation == small):
        return "negligible"
    return "small" if deviation < medium else "medium" if deviation < large else "large"


def _counts(a: ArrayLike, b: ArrayLike, higher_is_better: bool, paired: bool) -> tuple[int, int, int]:
    """(wins, ties, losses) of ``a`` over ``b``: over all pairs, or over the paired differences."""
    check_bool("higher_is_better", higher_is_better)
    check_bool("paired", paired)
    x, y = as_sample(a, "a"), as_sample(b, "b")
    if not higher_is_better:
        x, y = -x, -y
    if paired:
        d = _paired_differences(x, y)
        return int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())
    pooled = snap(np.concatenate([x, y]))  # values equal in decimal tie
    x, y = pooled[: x.size], pooled[x.size :]
    ys = np.sort(y)
    below = np.searchsorted(ys, x, side="left")  # y < x
    not_above = np.searchsorted(ys, x, side="right")  # y <= x
    wins, ties = int(below.sum()), int((not_above - below).sum())
    return wins, ties, x.size * y.size - wins - ties


def _paired_differences(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x - y`` for paired samples, snapped at each pair's scale (as :mod:`stats.twosample.nonparametric`)."""
    if x.size != y.size:
        raise ValueError(f"a and b must have the same length (paired samples), got {x.size} and {y.size}")
    return paired_difference(x, y)


def a12(a: ArrayLike, b: ArrayLike, *, higher_is_better: bool = True, paired: bool = False) -> EffectSize:
    """Vargha & Delaney's A12: the probability that ``a`` is better than ``b``, ties counting half.

    Parameters
    ----------
    a, b : array_like, 1-D
        Scores of two learners (any lengths when unpaired; the same length when ``paired``).
    higher_is_better : bool, default True
        Orientation of the scores: "better" is higher (lower when False).
    paired : bool, default False
        ``False``: A12 = [#(a_i better than b_j) + 0.5 #(a_i = b_j)] / (m n) over all m x n pairs
        (Vargha & Delaney 2000, eq. 14; the common-language effect size of the Mann-Whitney U:
        A12 = U_a / (m n)). ``True``: over the N paired differences d_i = a_i - b_i (data set
        by data set), A12 = [#(d_i > 0) + 0.5 #(d_i = 0)] / N, the probability that ``a``
        beats ``b`` on a data set drawn at random: the sign test's proportion, which ignores
        the sizes of the differences.

    Returns
    -------
    EffectSize
        ``value`` in [0, 1] (0.5: no effect), ``magnitude`` and the counts behind it.

    Notes
    -----
    Magnitudes (Vargha & Delaney 2000, p. 106: A = 0.56, 0.64, 0.71 correspond to Cohen's
    small, medium and large d), symmetric about 0.5: **negligible** when 0.44 <= A12 <= 0.56,
    **small** when 0.56 < A12 < 0.64 (or 0.36 < A12 < 0.44), **medium** when
    0.64 <= A12 < 0.71 (or 0.29 < A12 <= 0.36), **large** beyond. The comparisons are exact
    (rational), so A12 = 9/16 = 0.5625 is small and 0.44 exactly is negligible.

    References
    ----------
    .. [1] A. Vargha, H. D. Delaney, "A critique and improvement of the CL common language effect
       size statistics of McGraw and Wong", J. Educ. Behav. Stat. 25(2):101-132, 2000.

    Examples
    --------
    >>> res = a12([0.9, 0.8, 0.7], [0.8, 0.6, 0.5])
    >>> res.wins, res.ties, res.losses, round(res.value, 4), res.magnitude
    (7, 1, 1, 0.8333, 'large')
    >>> a12([1, 2, 3], [2, 2, 2], paired=True).value
    0.5
    """
    wins, ties, losses = _counts(a, b, higher_is_better, paired)
    n = wins + ties + losses
    twice = 2 * wins + ties  # A12 = twice / (2 n)
    label = _label(abs(Fraction(twice - n, 2 * n)), A12_BOUNDS, closed=True)
    return EffectSize("A12", twice / (2.0 * n), label, wins, ties, losses, n, bool(paired))


def cliffs_delta(a: ArrayLike, b: ArrayLike, *, higher_is_better: bool = True, paired: bool = False) -> EffectSize:
    """Cliff's delta = [#(a better than b) - #(b better than a)] / n comparisons = 2 A12 - 1.

    Parameters and pairing are those of :func:`a12` (``paired=True``: over the paired
    differences, (#wins - #losses) / N).

    Returns
    -------
    EffectSize
        ``value`` in [-1, 1] (0: no effect) and its ``magnitude`` by Romano et al. (2006):
        **negligible** |delta| < 0.147, **small** < 0.33, **medium** < 0.474, **large** otherwise.

    References
    ----------
    .. [1] N. Cliff, "Dominance statistics: ordinal analyses to answer ordinal questions",
       Psychological Bulletin 114(3):494-509, 1993.
    .. [2] J. Romano, J. D. Kromrey, J. Coraggio, J. Skowronek, "Appropriate statistics for ordinal
       level data: should we really be using t-test and Cohen's d for evaluating group differences
       on the NSSE and other surveys?", Florida AIR annual meeting, 2006.

    Examples
    --------
    >>> res = cliffs_delta([0.9, 0.8, 0.7], [0.8, 0.6, 0.5])
    >>> round(res.value, 4), res.magnitude
    (0.6667, 'large')
    >>> cliffs_delta([3, 2], [1, 4], higher_is_better=False).value
    0.0
    """
    wins, ties, losses = _counts(a, b, higher_is_better, paired)
    n = wins + ties + losses
    label = _label(abs(Fraction(wins - losses, n)), DELTA_BOUNDS, closed=False)
    return EffectSize("Cliff's delta", (wins - losses) / n, label, wins, ties, losses, n, bool(paired))


def signed_rank_null_counts(n: int) -> list[int]:
    """Number of the 2^n sign assignments giving each V = 0..n(n+1)/2 (no ties): the null
    distribution of the Wilcoxon signed-rank statistic, as exact integers."""
    counts = [1]
    for r in range(1, n + 1):
        grown = counts + [0] * r
        for v in range(r, len(grown)):
            grown[v] += counts[v - r]
        counts = grown
    return counts


def hodges_lehmann(
    a: ArrayLike, b: ArrayLike, *, higher_is_better: bool = True, confidence: float = 0.95
) -> HodgesLehmann:
    """Hodges-Lehmann estimate of the shift between paired samples, with its Wilcoxon interval.

    The N paired differences d_i = a_i - b_i (``b_i - a_i`` when ``higher_is_better`` is False,
    so a positive shift always means ``a`` is better) give M = N(N+1)/2 Walsh averages
    (d_i + d_j) / 2, i <= j. The estimate is their median (Hodges & Lehmann 1963), the value of
    R's ``wilcox.test(a, b, paired=TRUE, conf.int=TRUE)$estimate`` in its exact case. The
    interval is [W_(C), W_(M+1-C)], the C-th smallest and largest Walsh averages (Hollander &
    Wolfe 1999, Sec. 3.3, eq. 3.24; Bauer 1972):

    * ``method="exact"`` when N < 50 and the differences have no zero and no tied magnitude
      (R's condition): C is the smallest q with P(V <= q) >= alpha/2 under the exact
      signed-rank null (R's ``qsignrank(alpha/2, N)``; 1 if that is 0), alpha = 1 - confidence.
      This is R's exact interval, to the digit.
    * ``method="approx"`` otherwise: C = round(M/2 - z_{1-alpha/2} sqrt(N(N+1)(2N+1)/24))
      (Hollander & Wolfe eq. 3.27), at least 1, from all N differences, zeros included; the
      ends are Walsh averages and the estimate is still their median.

    **How the approximate case differs from R.** R's ``wilcox.test(a, b, paired = TRUE,
    conf.int = TRUE)`` (``correct = TRUE``, R 4.2.2) does not take order statistics there: it
    drops the zero differences (its N counts the nonzero ones only), and finds each bound as the
    shift mu at which the signed-rank z of the nonzero d_i - mu, with the tie-corrected variance
    N(N+1)(2N+1)/24 - sum(t^3 - t)/48 (t: sizes of the groups of tied |d_i - mu|) and a
    continuity correction of 1/2 toward 0, crosses -/+ z_{1-alpha/2}, inverted numerically
    (``uniroot`` between min d and max d, tolerance 1e-4; when z at min d or max d does not reach
    the quantile, R doubles alpha until it does and warns "requested conf.level not
    achievable"), so its bounds are generally not Walsh averages and are accurate to about 1e-4;
    its estimate is the root of the same z without the continuity correction, not the Walsh
    median. With tied magnitudes but no zero the two
    are usually close; zeros, which rankboard keeps, pull its interval and estimate towards 0:
    with a third of 6 to 20 differences zero, the ends typically differ by a fifth of max |d_i|,
    and more when few nonzero differences are left. These are two conventions, not an error.

    **Attained level.** Under the null of continuous, symmetric differences the interval covers
    the true shift with probability 1 - 2 P(V <= C - 1) (:func:`interval_level`), which is not
    ``confidence``: the exact C makes it at least ``confidence`` (0.951 for N = 10 at 95%)
    unless even C = 1, the widest interval [min d_i, max d_i], falls short: 1 - 2^(1-N), i.e.
    for N <= 5 at 95% (0.875 at N = 4, 0.9375 at N = 5). ``attained`` holds that level and
    ``note`` says "95% not attainable with N = 4"; ``str`` prints the attained level then. R gives
    the same interval but relabels it only when its achieved alpha exceeds 1.5 alpha (a warning,
    "requested conf.level not achievable", and conf.level 1 - signif(achieved alpha, 2): 0.88 at
    N = 4); at N = 5 it keeps 95%. For ``method="approx"`` the level is that of the same C for
    untied data (ties and zeros, which chose the method, make the true coverage differ): exact
    for N < 50, where the rounded C can fall a little short of levels other than 95% (79.7% at
    N = 9 for 80%; the note says so), and its normal approximation for N >= 50, never below the
    nominal level there (:func:`interval_level`).

    Parameters
    ----------
    a, b : array_like, 1-D, same length
        Scores of two learners on the same data sets.
    higher_is_better : bool, default True
    confidence : float, default 0.95
        Nominal coverage, strictly between 0 and 1.

    Returns
    -------
    HodgesLehmann
        ``estimate``, ``low``, ``high``, ``confidence`` (nominal), ``attained`` (the interval's
        coverage), ``note`` ("" when ``attained`` reaches ``confidence``), ``n`` differences,
        ``n_zero`` of them zero, ``method`` ("exact" or "approx").

    References
    ----------
    .. [1] J. L. Hodges, E. L. Lehmann, "Estimates of location based on rank tests",
       Ann. Math. Statist. 34(2):598-611, 1963.
    .. [2] M. Hollander, D. A. Wolfe, "Nonparametric Statistical Methods", 2nd ed., Wiley, 1999,
       Sec. 3.2-3.3.
    .. [3] D. F. Bauer, "Constructing confidence sets using rank statistics", J. Amer. Statist.
       Assoc. 67(339):687-690, 1972.

    Examples
    --------
    >>> res = hodges_lehmann([1.0, 2.5, 4.0, 7.5, 9.0], [0.0, 0.0, 0.0, 0.0, 0.0], confidence=0.8)
    >>> res.estimate, res.low, res.high, res.method, res.attained, res.note
    (5.0, 2.5, 7.5, 'exact', 0.8125, '')
    >>> print(hodges_lehmann([1.0, 2.5, 4.0, 9.0], [0.0, 0.0, 0.0, 0.0]))
    Hodges-Lehmann shift = 3.625, 87.5% CI (95% not attainable with N = 4) [1, 9] (N = 4, exact)
    """
    check_bool("higher_is_better", higher_is_better)
    level = float(confidence)
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence must be between 0 and 1 (exclusive), got {confidence!r}")
    x, y = as_sample(a, "a"), as_sample(b, "b")
    d = _paired_differences(x, y) if higher_is_better else _paired_differences(y, x)
    n = d.size
    scale = np.maximum(np.abs(x), np.abs(y))
    m = n * (n + 1) // 2
    n_zero = int((d == 0).sum())
    magnitudes = np.abs(d[d != 0])
    exact = bool(n < HL_EXACT_BELOW and n_zero == 0 and np.unique(magnitudes).size == n)
    c = interval_rank(n, exact, level)
    method = "exact" if exact else "approx"
    attained = interval_level(n, c)
    note = level_note(level, attained, n, c)
    if m > LIST_MAX:  # 2,896 differences and more: selected, not listed (5e9 averages for 100,000)
        middle = [m // 2] if m % 2 else [m // 2 - 1, m // 2]
        values = walsh_order_statistics(d, scale, [*middle, c - 1, m - c])
        estimate = values[0] if m % 2 else (values[0] + values[1]) / 2.0
        return HodgesLehmann(estimate, values[-2], values[-1], level, n, n_zero, method, attained, note)
    i, j = np.triu_indices(n)
    walsh = np.sort(snap((d[i] + d[j]) / 2.0, np.maximum(scale[i], scale[j])))
    low, high = float(walsh[c - 1]), float(walsh[m - c])
    return HodgesLehmann(float(np.median(walsh)), low, high, level, n, n_zero, method, attained, note)


@lru_cache(maxsize=1024)
def interval_rank(n: int, exact: bool, confidence: float) -> int:
    """C of :func:`hodges_lehmann`'s interval [W_(C), W_(M+1-C)] for N = ``n`` differences:
    from the exact signed-rank null when ``exact`` (R's ``qsignrank``), else Hollander & Wolfe's
    normal approximation (eq. 3.27); between 1 and (M + 1) // 2, M = N(N+1)/2."""
    m = n * (n + 1) // 2
    alpha = 1.0 - confidence
    if exact:
        cumulative = np.cumsum(signed_rank_null_counts(n), dtype=float) / 2.0**n
        c = int(np.searchsorted(cumulative, alpha / 2.0 - 10 * np.finfo(float).eps))  # qsignrank
        c = max(c, 1)
    else:
        # scipy.special's ndtri (scipy.stats.norm.ppf's floats), imported here: A12 (the quartile
        # view's Scott-Knott ranks, the app's first view) needs no scipy at all
        from scipy.special import ndtri

        approx = m / 2.0 - float(ndtri(1.0 - alpha / 2.0)) * math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)
        c = max(int(math.floor(approx + 0.5)), 1)
    return min(c, (m + 1) // 2)


@lru_cache(maxsize=1024)
def interval_level(n: int, c: int) -> float:
    """Coverage of [W_(C), W_(M+1-C)] for N = ``n`` untied differences and C = ``c``:
    1 - 2 P(V <= C - 1), V the signed-rank statistic under its null (Hollander & Wolfe 1999,
    Sec. 3.3). Exact (from :func:`signed_rank_null_counts`) when N < :data:`HL_EXACT_BELOW`; else the
    normal approximation with continuity correction, 1 - 2 Phi((C - 1/2 - M/2) / sigma),
    sigma^2 = N(N+1)(2N+1)/24, which is at least the nominal level of eq. 3.27's C (rounding moves
    C by at most 1/2, the correction's size) unless C was raised to 1.

    >>> interval_level(4, 1), interval_level(5, 1), round(interval_level(10, 9), 4)
    (0.875, 0.9375, 0.9512)
    """
    if n < HL_EXACT_BELOW:
        below = sum(signed_rank_null_counts(n)[:c])  # sign assignments with V <= C - 1
        return float(1 - Fraction(2 * below, 2**n))
    m = n * (n + 1) / 2.0
    sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)
    z = (m / 2.0 + 0.5 - c) / sigma  # P(V <= C - 1) = Phi(-z) = erfc(z / sqrt 2) / 2
    return 1.0 - math.erfc(z / math.sqrt(2.0))


def level_note(confidence: float, attained: float, n: int, c: int) -> str:
    """Why the interval of rank C = ``c`` for N = ``n`` differences attains less than
    ``confidence`` ("" when it does not): even the widest interval (C = 1) falls short, or the
    approximate C was rounded up."""
    if attained >= confidence:
        return ""
    if c == 1:
        return f"{level_text(confidence)} not attainable with N = {n}"
    return f"{level_text(confidence)} not reached by the rounded normal-approximation C = {c}"
