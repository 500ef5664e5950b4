"""Tests of two learners on one data set from the fold-level results the logs hold (issue 14).

* :func:`corrected_ttest`: Nadeau & Bengio's corrected resampled t-test of two learners on one
  data set (Weka's "Paired T-Tester (corrected)"), from their R x N cross-validation results.
* :func:`bayes_correlated_ttest`: the Bayesian correlated t-test on one data set (Corani &
  Benavoli 2015): the posterior probabilities that ``a`` is practically better, that the two
  are practically equivalent (their difference lies within the rope), or that ``b`` is.

Across data sets (one value per data set), the Bayesian signed-rank test is
:func:`stats.folds.signed_rank.bayes_signed_rank`, on the pairing and the probabilities defined here.

``a`` and ``b`` are paired: the same (repeat, fold) order on one data set, or the same data sets.
Differences are taken as ``a - b`` oriented so that positive means ``a`` is better (for a
lower-is-better criterion, ``b - a``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from stats.core import Printable, as_sample, check_bool, fmt_stat, p_is, paired_difference


def _paired(a: Any, b: Any, higher_is_better: bool) -> np.ndarray:
    """``a - b`` (``b - a`` when lower is better): positive where ``a`` is better."""
    check_bool("higher_is_better", higher_is_better)
    x, y = as_sample(a, "a"), as_sample(b, "b")
    if x.size != y.size:
        raise ValueError(f"a and b must have the same length (paired results), got {x.size} and {y.size}")
    d = paired_difference(x, y)  # decimal ties at the pair's scale
    return d if higher_is_better else -d


def _folds(n: int, folds: Any) -> tuple[int, int]:
    """(R, N) for ``n`` results of R repeats x ``folds`` folds; ValueError when impossible."""
    if isinstance(folds, bool) or int(folds) != folds or folds < 2:
        raise ValueError(f"folds must be an integer >= 2 (the N of N-fold cross-validation), got {folds!r}")
    k = int(folds)
    if n % k:
        raise ValueError(f"{n} results are not R repeats x {k} folds")
    return n // k, k


def _moments(d: np.ndarray) -> tuple[float, float]:
    """Mean and variance (ddof 1) of the differences; exactly (d_1, 0) when they are all equal
    (the summation's rounding would make a constant look variable)."""
    if np.ptp(d) == 0.0:
        return float(d[0]), 0.0
    return float(np.mean(d)), float(np.var(d, ddof=1))


def _spread(d: np.ndarray, factor: float) -> tuple[float, float, float, float]:
    """(mean, unit, mean / unit, sqrt(factor * variance) / unit) of the differences: unit 1 unless
    the variance underflows (differences below ~1e-154: their squares are subnormal or 0), then the
    largest |d|, in which units the moments are exact again. A t statistic is a ratio, the same in
    any unit: without this, results of 1e-300 read as t = inf, "significant", on any noise."""
    mean, var = _moments(d)
    if var >= np.finfo(np.float64).tiny or np.ptp(d) == 0.0:
        return mean, 1.0, mean, float(np.sqrt(factor * var))
    unit = float(np.max(np.abs(d)))
    mean_u, var_u = _moments(d / unit)
    return mean, unit, mean_u, float(np.sqrt(factor * var_u))


def _rope(rope: Any) -> float:
    r = float(rope)
    if not np.isfinite(r) or r < 0:
        raise ValueError(f"rope must be a finite number >= 0, got {rope!r}")
    return r


@dataclass(frozen=True)
class CorrectedTTest(Printable):
    """Nadeau & Bengio's corrected resampled t: ``statistic``, two-sided ``pvalue``, ``df`` and
    ``mean_difference`` (positive: ``a`` better)."""

    statistic: float
    pvalue: float
    df: int
    mean_difference: float

    def __str__(self) -> str:
        return (
            f"corrected resampled t({self.df}) = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"
            f" (mean difference {self.mean_difference:+.4g})"
        )


def corrected_ttest(a: Any, b: Any, *, folds: int, higher_is_better: bool = True) -> CorrectedTTest:
    """Corrected resampled t-test of two learners' R x N cross-validation results on one data set.

    With d_j the J = R*N paired differences, mean d and variance s^2 (ddof 1),

        t = mean d / sqrt((1/J + n_test/n_train) s^2),  df = J - 1,

    where n_test/n_train = 1/(N - 1) for N-fold cross-validation. The term n_test/n_train
    corrects the variance for the overlap of the training sets, which makes the plain paired
    t-test (1/J alone) too liberal (Nadeau & Bengio 2003, Eq. of the "corrected resampled
    t-test"; Bouckaert & Frank 2004; Weka's PairedCorrectedTTester).

    Degenerate input: when every difference is equal, t is 0 (p = 1) if they are 0, and
    +-inf (p = 0) otherwise.

    References
    ----------
    Nadeau & Bengio (2003) "Inference for the generalization error", Machine Learning 52,
    239-281; Menzies' lecture notes (win-loss tables after Hall & Holmes, Weka's Experimenter).

    Examples
    --------
    d = 0.02, 0.02, -0.01, 0.04: mean 0.0175, s^2 = 4.25e-4, J = 4, N = 2, so
    t = 0.0175 / sqrt((1/4 + 1/1) 4.25e-4) = 0.7593:

    >>> r = corrected_ttest([0.8, 0.82, 0.79, 0.81], [0.78, 0.8, 0.8, 0.77], folds=2)
    >>> r.df, round(r.statistic, 4), round(r.mean_difference, 4)
    (3, 0.7593, 0.0175)
    """
    d = _paired(a, b, higher_is_better)
    _, n_folds = _folds(d.size, folds)
    j = d.size
    mean, _, mean_u, scale = _spread(d, 1.0 / j + 1.0 / (n_folds - 1))
    if scale == 0.0:
        t = 0.0 if mean == 0.0 else float(np.copysign(np.inf, mean))
        return CorrectedTTest(t, 1.0 if mean == 0.0 else 0.0, j - 1, mean)
    t = mean_u / scale
    p = float(2 * special.stdtr(j - 1, -abs(t)))  # 2 scipy.stats.t.sf(|t|, j - 1): the ufunc it calls
    return CorrectedTTest(float(t), p, j - 1, mean)


@dataclass(frozen=True)
class BayesProbabilities(Printable):
    """Posterior probabilities that ``a`` is practically better (``p_a``), that the two are
    practically equivalent (``p_rope``: the difference lies within the rope) and that ``b`` is
    (``p_b``); they sum to 1."""

    p_a: float
    p_rope: float
    p_b: float
    rope: float

    def __str__(self) -> str:
        return (
            f"P(a better) = {self.p_a:.4f}, P(equivalent, rope {self.rope:g}) = {self.p_rope:.4f}, "
            f"P(b better) = {self.p_b:.4f}"
        )


@dataclass(frozen=True)
class CorrelatedPosterior(BayesProbabilities):
    """:class:`BayesProbabilities` of the Bayesian correlated t-test, with its Student posterior
    of the mean difference: ``location``, ``scale`` and ``df``."""

    location: float = 0.0
    scale: float = 0.0
    df: int = 0


def bayes_correlated_ttest(
    a: Any, b: Any, *, folds: int, rope: float = 0.0, higher_is_better: bool = True
) -> CorrelatedPosterior:
    """Bayesian correlated t-test of two learners on one data set (Corani & Benavoli 2015).

    The posterior of the mean difference is Student with J - 1 degrees of freedom, location
    the mean difference and scale sqrt((1/J + 1/(N - 1)) s^2): the correlation of the
    cross-validation results (rho = 1/N) enters as Nadeau & Bengio's correction
    (Corani & Benavoli 2015, Eq. 8; Benavoli et al. 2017, Sec. 4). Then

        p_a = P(mu > rope), p_rope = P(-rope <= mu <= rope), p_b = P(mu < -rope).

    With ``rope = 0``, ``p_rope`` is 0. Degenerate input (every difference equal): the
    posterior is a point mass at the mean difference; a mean of exactly 0 with ``rope = 0`` is
    split 1/2 - 1/2 between ``p_a`` and ``p_b``, as baycomp does.

    References
    ----------
    Corani & Benavoli (2015) "A Bayesian approach for comparing cross-validated algorithms on
    multiple data sets", Machine Learning 100, 285-304; Benavoli, Corani, Demsar & Zaffalon
    (2017) "Time for a change", JMLR 18(77).

    Examples
    --------
    >>> r = bayes_correlated_ttest([0.8, 0.82, 0.79, 0.81], [0.78, 0.8, 0.8, 0.77], folds=2, rope=0.01)
    >>> round(r.p_a + r.p_rope + r.p_b, 12), r.df
    (1.0, 3)
    """
    d = _paired(a, b, higher_is_better)
    _, n_folds = _folds(d.size, folds)
    r = _rope(rope)
    j = d.size
    mean, unit, mean_u, scale_u = _spread(d, 1.0 / j + 1.0 / (n_folds - 1))
    scale = unit * scale_u  # (0 only when the differences are all equal, or in units below ~1e-308)
    if scale_u == 0.0:
        if r == 0.0 and mean == 0.0:
            p_a = p_b = 0.5
        else:
            p_a, p_b = float(mean > r), float(mean < -r)
    else:
        # scipy.stats.t.sf(r, j - 1, loc=mean, scale=scale) and .cdf(-r, ...): the ufunc they call,
        # in units of `unit` (1 but for differences whose variance underflows: _spread)
        r_u = r / unit
        p_a = float(special.stdtr(j - 1, -((r_u - mean_u) / scale_u)))
        p_b = float(special.stdtr(j - 1, (-r_u - mean_u) / scale_u))
    p_rope = max(0.0, 1.0 - p_a - p_b) if r > 0 or scale_u == 0.0 else 0.0
    if r == 0.0 and scale_u > 0.0:
        p_b = 1.0 - p_a
    return CorrelatedPosterior(p_a, p_rope, p_b, r, mean, scale, j - 1)
