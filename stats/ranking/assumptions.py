"""Conditions for the safe use of parametric tests (Garcia & Herrera's tutorial, 2008, 2010).

A hypothesis is rejected when p <= alpha.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType, SimpleNamespace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from stats.core import Printable, as_sample, as_table, check_alpha, check_choice, fmt_stat, p_is

#: Seed of the Monte Carlo null distribution of the Lilliefors test.
LILLIEFORS_SEED = 1967
#: Default number of Monte Carlo samples of the Lilliefors test.
LILLIEFORS_MC_SAMPLES = 9999


def _sps() -> Any:
    """``scipy.stats``, imported by the tests that need it (Shapiro-Wilk, D'Agostino-Pearson,
    Lilliefors, Levene: only scipy.stats has them), not with this module: importing ``stats``'s
    ranking for the first view must not cost the 0.5-0.9 s of ``import scipy.stats`` (issue 32)."""
    from scipy import stats as sps

    return sps


def _rng_keyword() -> str:
    """scipy >= 1.15 takes ``rng``, older versions ``random_state``; both accept a Generator (same stream)."""
    return "rng" if "rng" in inspect.signature(_sps().goodness_of_fit).parameters else "random_state"


@dataclass(frozen=True)
class NormalityTest(Printable):
    """One normality test; None values when not computable, ``note`` says why (or a caveat)."""

    statistic: float | None
    pvalue: float | None
    test: str
    rejected: bool | None
    note: str | None = None

    @property
    def computable(self) -> bool:
        return self.pvalue is not None

    def __str__(self) -> str:
        if self.statistic is None or self.pvalue is None:
            return f"{self.test}: not computable ({self.note})"
        verdict = ("normality rejected" if self.rejected else "normality not rejected") + (
            f"; {self.note}" if self.note else ""
        )
        return f"{self.test}: statistic = {fmt_stat(self.statistic)}, {p_is(self.pvalue)} ({verdict})"


@dataclass(frozen=True)
class NormalityResult(Printable):
    """Three normality tests of one sample of size ``n`` at level ``alpha``."""

    n: int
    alpha: float
    shapiro_wilk: NormalityTest
    dagostino_pearson: NormalityTest
    kolmogorov_smirnov: NormalityTest

    @property
    def tests(self) -> tuple[NormalityTest, ...]:
        return (self.shapiro_wilk, self.dagostino_pearson, self.kolmogorov_smirnov)

    @property
    def rejected_by(self) -> tuple[str, ...]:
        """Names of the tests that reject normality."""
        return tuple(t.test for t in self.tests if t.rejected)

    def __str__(self) -> str:
        head = f"Normality (n = {self.n}, alpha = {self.alpha:g})"
        return "\n".join([head] + [f"  {t}" for t in self.tests])


@dataclass(frozen=True)
class LeveneResult(Printable):
    """Levene's test of equal variances; None when every group is constant."""

    statistic: float | None
    pvalue: float | None
    center: str
    k: int
    n: int
    note: str | None = None

    def __str__(self) -> str:
        head = f"Levene ({self.center}-based, k = {self.k}, N = {self.n})"
        if self.statistic is None or self.pvalue is None:
            return f"{head}: not computable ({self.note})"
        return f"{head}: W = {fmt_stat(self.statistic)}, {p_is(self.pvalue)}"


@dataclass(frozen=True)
class SafetyResult(Printable):
    """Whether a parametric test looks safe for a scores table, and why."""

    safe: bool
    message: str
    alpha: float
    normality: Mapping[str, NormalityResult]
    levene: LeveneResult
    rejected: tuple[str, ...]

    def __str__(self) -> str:
        return self.message


def _outcome(name: str, res: Any, alpha: float, note: str | None = None) -> NormalityTest:
    p = float(res.pvalue)
    return NormalityTest(float(res.statistic), p, name, p <= alpha, note)


def normality(
    values: ArrayLike,
    *,
    alpha: float = 0.05,
    n_mc_samples: int = LILLIEFORS_MC_SAMPLES,
    lilliefors: bool = True,
    seed: int = LILLIEFORS_SEED,
) -> NormalityResult:
    """Test one sample for normality with three tests (Garcia et al. 2010).

    Parameters
    ----------
    values : array_like
        One-dimensional, finite sample.
    alpha : float, default 0.05
        Level; a test rejects normality when p <= alpha.
    lilliefors : bool, default True
        ``False`` skips the Monte Carlo Kolmogorov-Smirnov (Lilliefors) test,
        the slow one (about 35 ms per sample of 50); it is then reported as not run.
    n_mc_samples, seed : int, default 9999 and 1967
        Monte Carlo samples of the Lilliefors null distribution, and their seed.

    Returns
    -------
    NormalityResult
        ``shapiro_wilk`` (scipy.stats.shapiro, n >= 3), ``dagostino_pearson``
        (scipy.stats.normaltest, n >= 8) and ``kolmogorov_smirnov`` (Lilliefors,
        n >= 4); a test below its minimum n, or any test of a constant sample,
        is reported as not computable with the reason in ``note``.

    Notes
    -----
    With mean and sd estimated from the sample, the KS p-value must come from
    Lilliefors' null distribution, not the KS table: here
    ``scipy.stats.goodness_of_fit(norm, values, statistic="ks")``, a seeded
    (reproducible) Monte Carlo p-value of resolution 1 / (n_mc_samples + 1).
    Its statistic equals statsmodels' ``lilliefors``. D'Agostino's kurtosis
    test is a poor approximation for n < 20; ``note`` says so.

    References
    ----------
    Garcia & Herrera's tutorial (2008, 2010), safe use of parametric tests.
    Shapiro & Wilk (1965), Biometrika 52; D'Agostino & Pearson (1973),
    Biometrika 60; Lilliefors (1967), J. Amer. Statist. Assoc. 62.

    Examples
    --------
    >>> res = normality([2.1, 2.5, 1.9, 2.2, 2.8, 2.0, 2.4, 2.3, 2.6, 1.8])
    >>> res.shapiro_wilk.rejected, res.dagostino_pearson.computable
    (False, True)
    """
    alpha = check_alpha(alpha)
    if isinstance(n_mc_samples, bool) or not isinstance(n_mc_samples, (int, np.integer)) or n_mc_samples < 1:
        raise ValueError(f"n_mc_samples must be a positive integer, got {n_mc_samples!r}")
    return _normality(as_sample(values, "values"), alpha, int(n_mc_samples), lilliefors, seed)


def _normality(
    x: np.ndarray, alpha: float, n_mc_samples: int, lilliefors: bool, seed: int, dagostino: Any = None
) -> NormalityResult:
    """:func:`normality` of a checked sample; ``dagostino``: its ``sps.normaltest`` result if already known."""
    n = int(x.size)
    sps = _sps()
    names = ("Shapiro-Wilk", "D'Agostino-Pearson", "Kolmogorov-Smirnov (Lilliefors)")
    constant = n > 1 and np.ptp(x) == 0.0
    tests = []
    for name, need in zip(names, (3, 8, 4), strict=True):
        if constant or n < need:
            why = "all values are equal (zero variance)" if constant else f"needs n >= {need}, got n = {n}"
            tests.append(NormalityTest(None, None, name, None, why))
        elif need == 3:
            tests.append(_outcome(name, sps.shapiro(x), alpha))
        elif need == 8:
            caveat = "kurtosis test approximate for n < 20" if n < 20 else None
            tests.append(_outcome(name, sps.normaltest(x) if dagostino is None else dagostino, alpha, caveat))
        elif not lilliefors:
            tests.append(NormalityTest(None, None, name, None, "not run (lilliefors=False)"))
        else:
            rng = {_rng_keyword(): np.random.default_rng(seed)}
            gof = sps.goodness_of_fit(sps.norm, x, statistic="ks", n_mc_samples=int(n_mc_samples), **rng)
            note = f"Monte Carlo p-value, {n_mc_samples} samples, seed {seed}"
            tests.append(_outcome(name, gof, alpha, note))
    return NormalityResult(n, alpha, *tests)


def levene(groups: Sequence[ArrayLike] | Mapping[Any, ArrayLike], *, center: str = "mean") -> LeveneResult:
    """Levene's test that k groups have equal variances (scipy.stats.levene).

    Parameters
    ----------
    groups : sequence or mapping of array_like
        At least two finite samples (a mapping's values are used).
    center : {"mean", "median", "trimmed"}, default "mean"
        "mean" is Levene's test as in Garcia et al. (2010) ("based on means"); "median"
        is Brown-Forsythe (scipy's default).

    Returns
    -------
    LeveneResult
        ``statistic`` W and ``pvalue``; None (with ``note``) when every group
        is constant (W = 0/0).

    References
    ----------
    Garcia et al. (2010), Inf. Sci. 180. Levene (1960), Contributions to
    Probability and Statistics, Stanford University Press, 278-292.

    Examples
    --------
    >>> res = levene([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0]])
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (2.4, 0.1723)
    """
    check_choice("center", center, ("mean", "median", "trimmed"))
    items = list(groups.values()) if isinstance(groups, Mapping) else list(groups)
    if len(items) < 2:
        raise ValueError(f"groups must hold at least 2 samples, got {len(items)}")
    samples = [as_sample(g, f"groups[{i}]") for i, g in enumerate(items)]
    k, n = len(samples), sum(s.size for s in samples)
    if all(np.ptp(s) == 0.0 for s in samples):
        return LeveneResult(None, None, center, k, n, "every group is constant (W = 0/0)")
    res = _sps().levene(*samples, center=center)
    return LeveneResult(float(res.statistic), float(res.pvalue), center, k, n)


def parametric_safety(
    scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True, lilliefors: bool = False
) -> SafetyResult:
    """Check normality of each learner's scores and equal variances across learners.

    Parameters
    ----------
    scores : DataFrame or 2-D array_like
        Rows = data sets (at least 3), columns = learners.
    alpha : float, default 0.05
        Level of every test.
    higher_is_better : bool, default True
        Accepted for a uniform API; the tests are invariant to negation.

    Returns
    -------
    SafetyResult
        ``safe``: Shapiro-Wilk rejects normality for no learner, each could be
        assessed, and Levene (means) does not reject equal variances.
        ``message``: why, in one sentence. ``normality``: learner ->
        NormalityResult (Shapiro-Wilk and D'Agostino-Pearson; the Lilliefors
        Monte Carlo too with ``lilliefors=True`` - the verdict does not use it,
        so it is skipped by default). ``rejected``: learners whose
        normality Shapiro-Wilk rejects. ``levene``: the LeveneResult.

    Notes
    -----
    Independence, the third condition of Garcia et al. (2010), cannot be tested from a table.

    References
    ----------
    Garcia & Herrera (2008), JMLR 9; Garcia et al. (2010), Inf. Sci. 180.

    Examples
    --------
    >>> table = [[0.80, 0.70], [0.82, 0.75], [0.79, 0.69], [0.85, 0.74], [0.81, 0.72]]
    >>> parametric_safety(table).safe
    True
    """
    alpha = check_alpha(alpha)
    table = as_table(scores, higher_is_better=higher_is_better, min_datasets=3)
    learners = [str(c) for c in table.learners]
    raw = table.raw
    # D'Agostino-Pearson for every column in one vectorized call (scipy's per-call overhead is
    # most of its cost on 20 columns); the same numbers as one call per column (tested).
    testable = [j for j in range(table.k) if raw.shape[0] >= 8 and np.ptp(raw[:, j]) > 0]
    dagostino: dict[int, Any] = {}
    if testable:
        batch = _sps().normaltest(raw[:, testable], axis=0)
        dagostino = {
            j: SimpleNamespace(statistic=batch.statistic[i], pvalue=batch.pvalue[i]) for i, j in enumerate(testable)
        }
    results = {
        name: _normality(raw[:, j], alpha, LILLIEFORS_MC_SAMPLES, lilliefors, LILLIEFORS_SEED, dagostino.get(j))
        for j, name in enumerate(learners)
    }
    rejected = tuple(name for name in learners if results[name].shapiro_wilk.rejected)
    unassessed = [name for name in learners if not results[name].shapiro_wilk.computable]
    lev = levene([table.raw[:, j] for j in range(table.k)], center="mean")
    k, problems, fine = table.k, [], []
    sw = f"(Shapiro-Wilk, alpha = {alpha:g})"
    if rejected:
        problems.append(f"normality rejected for {len(rejected)} of {k} learners {sw}")
    else:
        fine.append(f"normality not rejected for any of {k} learners {sw}")
    if unassessed:
        problems.append(f"normality not assessable for {len(unassessed)} of {k} learners (constant scores)")
    if lev.pvalue is None:
        problems.append("Levene not computable (every learner's scores are constant)")
    else:
        p = "p < 0.001" if lev.pvalue < 0.001 else f"p = {lev.pvalue:.3f}"
        if lev.pvalue <= alpha:
            problems.append(f"Levene rejects equal variances ({p})")
        else:
            fine.append(f"Levene does not reject equal variances ({p})")
    head = "a parametric test would be unsafe: " if problems else "a parametric test looks safe: "
    message = head + " and ".join(problems or fine)
    return SafetyResult(not problems, message, alpha, MappingProxyType(results), lev, rejected)
