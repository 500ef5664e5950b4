"""Scott-Knott ranking of learners into groups: ScottKnott-ESD and Menzies' A12 variant.

Both sort the learners by a centre (mean or median), cut the sorted list in two where the halves
differ most, keep the cut only if a test says the halves differ, and recurse into each half.
Groups are therefore contiguous in the sorted order; rank 1 is the best group.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import chdtrc

from stats._format import Printable, p_is
from stats._result import table_of
from stats._table import as_sample, check_alpha, check_bool, check_choice, magnitude, snap
from stats.effect_size import A12_BOUNDS, a12

METHODS = ("esd", "a12")
#: Cohen's d below which ScottKnott-ESD merges two adjacent groups (Cohen 1988: negligible).
NEGLIGIBLE_D = 0.2


@dataclass(frozen=True)
class Split(Printable):
    """One cut tried: ``better`` and ``worse`` halves, the ``test`` ("chi2": Scott-Knott's lambda;
    "bootstrap": |t| and the fraction of resamples as extreme), its ``statistic`` and ``pvalue``,
    the ``effect`` (Cohen's d of the halves for esd, shown only: the ESD merge compares the
    learners either side of a boundary; A12 of the better half for a12) and whether it was kept."""

    better: tuple[str, ...]
    worse: tuple[str, ...]
    test: str
    statistic: float
    pvalue: float
    effect: float
    accepted: bool

    def __str__(self) -> str:
        verdict = "split" if self.accepted else "kept together"
        p = "p = 0 (no resample as extreme)" if self.test == "bootstrap" and self.pvalue == 0 else p_is(self.pvalue)
        return (
            f"{', '.join(self.better)} | {', '.join(self.worse)}: {self.test} statistic {self.statistic:.3f},"
            f" {p}, effect {self.effect:.3f}: {verdict}"
        )


@dataclass(frozen=True)
class ScottKnottResult(Printable):
    """Groups of learners, best first; ``ranks`` maps each learner to its group's rank (1 = best);
    ``centres`` are the means (esd) or medians (a12) in the scores' own direction."""

    ranks: dict[str, int]
    groups: tuple[tuple[str, ...], ...]
    centres: dict[str, float]
    method: str
    splits: tuple[Split, ...]

    def __str__(self) -> str:
        centre = "mean" if self.method == "esd" else "median"
        lines = [f"Scott-Knott ({self.method}): {len(self.groups)} group(s)"]
        for rank, group in enumerate(self.groups, start=1):
            body = ", ".join(f"{name} ({centre} {self.centres[name]:.4g})" for name in group)
            lines.append(f"  {rank}: {body}")
        return "\n".join(lines)


def _samples(samples: Any, higher_is_better: bool) -> tuple[list[str], list[np.ndarray], np.ndarray]:
    """The names, each learner's values (oriented, snapped) and those values pooled (the samples
    are views of it, in order)."""
    check_bool("higher_is_better", higher_is_better)
    samples = table_of(samples)
    if isinstance(samples, pd.DataFrame):
        if samples.columns.has_duplicates:
            raise ValueError("duplicate learner name(s) in the columns")
        if all(t.kind in "fiu" for t in samples.dtypes):  # numbers: no Series per column
            array = samples.to_numpy(dtype=float)
            items = [(str(c), array[:, j][~np.isnan(array[:, j])]) for j, c in enumerate(samples.columns)]
        else:
            items = [(str(c), samples[c].dropna().to_numpy()) for c in samples.columns]
    elif isinstance(samples, Mapping):
        items = [(str(k), v) for k, v in samples.items()]
    else:
        raise ValueError(f"samples must be a mapping learner -> values or a DataFrame, got {type(samples).__name__}")
    if len(items) < 1 or len({name for name, _ in items}) != len(items):
        raise ValueError("need at least 1 learner, with distinct names")
    names = [name for name, _ in items]
    # Float64 vectors (what the views pass) are checked all at once; anything else, or a bad
    # value, goes through as_sample, which converts and says which learner is at fault.
    plain = all(type(v) is np.ndarray and v.dtype == np.float64 and v.ndim == 1 and v.size for _, v in items)
    values = [v for _, v in items] if plain else [as_sample(v, f"samples[{name!r}]") for name, v in items]
    joined = np.concatenate(values)
    if plain and not np.isfinite(joined).all():
        values = [as_sample(v, f"samples[{name!r}]") for name, v in items]  # raises, naming the learner
    sign = 1.0 if higher_is_better else -1.0
    pooled = snap(sign * joined)  # values equal in decimal tie
    ends = np.cumsum([v.size for v in values]).tolist()
    return names, [pooled[a:b] for a, b in zip([0, *ends[:-1]], ends)], pooled


def _mean(x: np.ndarray) -> np.floating:
    """``x.mean()`` of a float64 array, the same float: numpy's mean is ``np.add.reduce(x) / x.size``."""
    return np.add.reduce(x) / x.size


def _chi2_sf(x: float, df: float) -> float:
    """``scipy.stats.chi2.sf(x, df)`` for x >= 0 (inf included) and df > 0: the function it calls
    (``scipy.special.chdtrc``), without the distribution's argument handling."""
    return float(chdtrc(df, x))


def _cohen_d(x: np.ndarray, y: np.ndarray) -> float:
    """(mean x - mean y) / pooled sd (effsize::cohen.d's default); 0 for two equal constants."""
    diff = float(x.mean() - y.mean())
    dof = x.size + y.size - 2
    ss = float(((x - x.mean()) ** 2).sum() + ((y - y.mean()) ** 2).sum())
    if dof <= 0 or ss == 0.0:
        return 0.0 if diff == 0.0 else math.copysign(math.inf, diff)
    return diff / math.sqrt(ss / dof)


def _t(diff: np.ndarray, var: np.ndarray, tol: float) -> np.ndarray:
    """|diff| / sqrt(var), with differences and variances below the rounding ``tol`` of the data
    taken as zero: two constant samples give inf if their means differ, else 0."""
    diff = np.where(np.abs(diff) > tol, np.abs(diff), 0.0)
    var = np.where(var > tol * tol, var, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(var > 0, diff / np.sqrt(var), np.where(diff > 0, np.inf, 0.0))


def _var(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Sample variance (ddof = 1) divided by the sample size; 0 for a single value."""
    n = x.shape[axis]
    return x.var(axis=axis, ddof=1) / n if n > 1 else np.zeros(x.shape[:axis] if axis else ())


def bootstrap_pvalue(x: np.ndarray, y: np.ndarray, *, resamples: int = 1000, seed: int = 0) -> float:
    """Two-sided bootstrap test of equal means (Efron & Tibshirani 1993, Algorithm 16.2, p. 224).

    The statistic is t = (mean x - mean y) / sqrt(s_x^2 / n + s_y^2 / m) (their eq. 16.13).
    Both samples are shifted to the pooled mean (the null), resampled ``resamples`` times with
    replacement, and the p-value is the fraction of resamples with |t*| >= |t| (Efron and
    Tibshirani's one-sided ASL counts t* >= t). The samples are sorted first so that the result
    does not depend on the order of the values.
    """
    x, y = np.sort(np.asarray(x, dtype=float)), np.sort(np.asarray(y, dtype=float))
    tol = 1e-12 * max(1e-300, float(magnitude(np.concatenate([x, y])).max()))
    observed = float(_t(np.array(x.mean() - y.mean()), np.array(_var(x) + _var(y)), tol))
    centre = np.concatenate([x, y]).mean()
    xs, ys = x - x.mean() + centre, y - y.mean() + centre
    rng = np.random.default_rng(seed)
    bx = xs[rng.integers(0, x.size, size=(resamples, x.size))]
    by = ys[rng.integers(0, y.size, size=(resamples, y.size))]
    t = _t(bx.mean(axis=1) - by.mean(axis=1), _var(bx, 1) + _var(by, 1), tol)
    return float(np.mean(t >= observed))


def scott_knott(
    samples: Any,
    *,
    higher_is_better: bool = True,
    method: str = "esd",
    alpha: float = 0.05,
    resamples: int = 1000,
    seed: int = 0,
) -> ScottKnottResult:
    """Rank learners into statistically distinct groups by Scott-Knott partitioning.

    Parameters
    ----------
    samples : mapping learner -> 1-D values, or DataFrame (columns = learners; NaN dropped)
        Each learner's results (folds, runs or data sets; lengths may differ).
    higher_is_better : bool, default True
    method : {"esd", "a12"}
        ``"esd"`` -- ScottKnott-ESD in its first published form (Tantithamthavorn et al. 2017;
        the R package ScottKnottESD 1.x, ``SK.ESD``: ScottKnott's ``SK``, then the effect-size
        correction). No published example prints both its data and its groups; the tests
        check it against a step-by-step transcription of that algorithm:

        1. Sort the learners by mean (equal means keep the input order, as R's ``order``).
           For each cut between two different means, the between-groups sum of squares
           B = N_1 (M_1 - M)^2 + N_2 (M_2 - M)^2 of the values (N_g values with mean M_g on
           each side, mean M); take the first cut of largest B (Scott & Knott 1974, B_0;
           with n values per learner, B = n B_0).
        2. Keep it if lambda = pi / (2 (pi - 2)) B / sigma0^2 exceeds the 1 - alpha quantile of
           chi2 with k / (pi - 2) degrees of freedom, where k is the number of learners being
           cut, sigma0^2 = [sum_i n_i (ybar_i - M)^2 + v MSE] / (k + v), MSE the pooled
           within-learner variance of all learners and v = N - K its degrees of freedom
           (Scott & Knott 1974, Sec. 3; with equal n_i this is their statistic exactly).
        3. Recurse into both halves. Then, at each boundary between two groups, best first,
           merge them when Cohen's d (pooled sd, as effsize's ``cohen.d``) between the two
           learners either side of it -- the last of the upper group and the first of the
           lower -- is negligible, |d| < 0.2 (Cohen 1988): ScottKnottESD 1.x's correction.

        Deliberate differences from that package: B and sigma0^2 weight each learner by its
        number of values, so learners may have different numbers of values (the package takes
        a table of equal columns; with equal numbers the test is the same); a cut never falls
        between two equal means; the values are not transformed (one 1.x release took
        log(1 + x) first, the paper's correction of non-normal data: transform the scores
        before if wanted); two constant learners have d = 0 if their means are equal (the
        package fails there), else |d| = inf. Not implemented: ScottKnottESD 2.x
        (Tantithamthavorn et al. 2019), which drops the chi2 test and splits a group while
        Cohen's d between its highest and its lowest mean is not negligible, nor 3.x, whose
        default is non-parametric.

        ``"a12"`` -- Menzies' variant (Menzies' course notes; the ``sk.py`` of his group):
        sort by median; the cut maximises the expected squared difference of means
        N_1/N (M_1 - M)^2 + N_2/N (M_2 - M)^2, only between different medians; keep it only if
        the halves differ both by the two-sided bootstrap test of :func:`bootstrap_pvalue`
        (p < alpha) and by A12 (not negligible: |A12 - 0.5| > 0.06, Vargha & Delaney 2000);
        recurse. Menzies' code used alpha = 0.01 and refused halves of 3 values or fewer;
        here alpha is a parameter and no size rule applies.
    alpha : float, default 0.05
        Level of the chi2 test (esd) or of the bootstrap test (a12).
    resamples, seed : int
        Bootstrap resamples and the seed of their generator (a12 only): the result is
        reproducible and does not depend on the order or the names of the learners.

    Returns
    -------
    ScottKnottResult
        ``ranks``, ``groups`` (best first; within a group by centre, best first), ``centres``,
        ``method`` and ``splits`` (every cut tested, depth first).

    References
    ----------
    .. [1] A. J. Scott, M. Knott, "A cluster analysis method for grouping means in the analysis
       of variance", Biometrics 30(3):507-512, 1974.
    .. [2] C. Tantithamthavorn, S. McIntosh, A. E. Hassan, K. Matsumoto, "An empirical comparison
       of model validation techniques for defect prediction models", IEEE TSE 43(1):1-18, 2017;
       "The impact of automated parameter optimization on defect prediction models", IEEE TSE
       45(7):683-711, 2019 (ScottKnott-ESD v2: effect sizes in place of the chi2 test).
       R package ScottKnottESD (github.com/klainfo/ScottKnottESD), 1.x: ``SK.ESD``.
    .. [3] B. Efron, R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993,
       Sec. 16.4.
    .. [4] A. Vargha, H. D. Delaney, J. Educ. Behav. Stat. 25(2):101-132, 2000.

    Examples
    --------
    >>> res = scott_knott({"x1": [0.34, 0.49, 0.51, 0.6], "x2": [6, 7, 8, 9], "x3": [0.1, 0.2, 0.3, 0.4]})
    >>> res.groups
    (('x2',), ('x1', 'x3'))
    >>> res.ranks
    {'x1': 2, 'x2': 1, 'x3': 2}
    """
    check_choice("method", method, METHODS)
    level = check_alpha(alpha)
    names, values, pooled_all = _samples(samples, higher_is_better)
    means = np.array([_mean(v) for v in values])
    scale = magnitude(pooled_all).max()
    centre = snap(
        np.array([float(m) for m in means] if method == "esd" else [float(np.median(v)) for v in values]), scale
    )
    order = sorted(range(len(names)), key=lambda i: -centre[i])  # stable: ties keep input order
    counts = np.array([v.size for v in values])
    dof = int(counts.sum() - len(values))
    within = sum(float(((v - m) ** 2).sum()) for v, m in zip(values, means))
    mse = within / dof if dof > 0 else 0.0
    splits: list[Split] = []

    def cut(part: list[int]) -> list[list[int]]:
        best, where = -1.0, 0
        pooled = np.concatenate([values[i] for i in part])
        grand = pooled.mean()
        # The values of part[:c] are pooled[:ends[c - 1]] (the same values in the same order as
        # their concatenation); a mean is np.mean's own sum / count, without its Python overhead.
        ends = np.cumsum([values[i].size for i in part]).tolist()
        for c in range(1, len(part)):
            if centre[part[c - 1]] == centre[part[c]]:
                continue
            left, right = pooled[: ends[c - 1]], pooled[ends[c - 1] :]
            b = left.size * (_mean(left) - grand) ** 2 + right.size * (_mean(right) - grand) ** 2
            if b > best:
                best, where = b, c
        if where == 0:
            return [part]
        left, right = pooled[: ends[where - 1]], pooled[ends[where - 1] :]
        if method == "esd":
            k = len(part)
            sigma2 = (float((counts[part] * (means[part] - grand) ** 2).sum()) + dof * mse) / (k + dof)
            lam = math.pi / (2 * (math.pi - 2)) * best / sigma2 if sigma2 > 0 else math.inf
            p = _chi2_sf(lam, k / (math.pi - 2))
            effect, accepted = _cohen_d(left, right), p < level
        else:
            lam = float(_t(np.array(left.mean() - right.mean()), np.array(_var(left) + _var(right)), 0.0))
            p = bootstrap_pvalue(left, right, resamples=resamples, seed=seed)
            effect = a12(left, right).value
            accepted = p < level and abs(effect - 0.5) > A12_BOUNDS[0]
        splits.append(
            Split(
                tuple(names[i] for i in part[:where]),
                tuple(names[i] for i in part[where:]),
                "chi2" if method == "esd" else "bootstrap",
                lam,
                p,
                effect,
                accepted,
            )
        )
        return cut(part[:where]) + cut(part[where:]) if accepted else [part]

    groups = cut(order)
    if method == "esd":  # ScottKnottESD 1.x: the two learners either side of each boundary
        merged = [groups[0]]
        for group in groups[1:]:
            d = _cohen_d(values[merged[-1][-1]], values[group[0]])
            if abs(d) < NEGLIGIBLE_D:
                merged[-1] = merged[-1] + group
            else:
                merged.append(group)
        groups = merged
    ranks = {names[i]: r for r, group in enumerate(groups, start=1) for i in group}
    sign = 1.0 if higher_is_better else -1.0
    return ScottKnottResult(
        ranks={name: ranks[name] for name in names},
        groups=tuple(tuple(names[i] for i in group) for group in groups),
        centres={name: sign * float(centre[i]) for i, name in enumerate(names)},
        method=method,
        splits=tuple(splits),
    )
