"""Scott-Knott ranking of learners into groups: ScottKnott-ESD (2.x, 1.x, 3.0's non-parametric
form) and Menzies' A12 variant.

All sort the learners by a centre (mean or median), cut the sorted list in two where the halves
differ most, keep the cut only if a test or an effect size says the halves differ, and recurse
into each half. Groups are therefore contiguous in the sorted order; rank 1 is the best group.
ScottKnottESD 2.x and 3.0's partitions are in :mod:`stats.groupings._scott_knott_esd`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import chdtrc

from stats.core import Printable, as_sample, check_alpha, check_bool, check_choice, magnitude, p_is, snap, table_of
from stats.groupings._scott_knott_esd import NEGLIGIBLE_D, cohen_d, esd_groups, np_groups
from stats.twosample import a12

#: "esd": ScottKnottESD 2.x (the default); "esd-v1": 1.x; "np": 3.0's non-parametric form;
#: "a12": Menzies' variant.
METHODS = ("esd", "esd-v1", "np", "a12")
#: The test of each method's cuts, as :class:`Split` names it.
TESTS = {"esd": "cohen-d", "esd-v1": "chi2", "np": "cliff-delta", "a12": "bootstrap"}
__all__ = ["METHODS", "NEGLIGIBLE_D", "ScottKnottResult", "Split", "bootstrap_pvalue", "scott_knott"]


@dataclass(frozen=True)
class Split(Printable):
    """One cut tried: ``better`` and ``worse`` halves, the ``test``, its ``statistic`` and ``pvalue``,
    the ``effect`` and whether the cut was made (``accepted``).

    * "cohen-d" (esd, 2.x): statistic = the between-groups sum of squares of the learners' means
      at the cut (no p-value: NaN); effect = Cohen's d of the segment's first and last learner,
      which decides (not negligible: cut).
    * "chi2" (esd-v1): Scott-Knott's lambda and its p-value; effect = Cohen's d of the halves,
      shown only (the 1.x merge compares the learners either side of a boundary).
    * "cliff-delta" (np): statistic = Kruskal-Wallis H at the cut (no p-value: NaN); effect =
      Cliff's delta of the segment's first and last learner, which decides.
    * "bootstrap" (a12): |t| and the fraction of resamples as extreme; effect = A12 of the
      better half.
    """

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
        p = "" if math.isnan(self.pvalue) else f" {p},"
        return (
            f"{', '.join(self.better)} | {', '.join(self.worse)}: {self.test} statistic {self.statistic:.3f},"
            f"{p} effect {self.effect:.3f}: {verdict}"
        )


@dataclass(frozen=True)
class ScottKnottResult(Printable):
    """Groups of learners, best first; ``ranks`` maps each learner to its group's rank (1 = best);
    ``centres`` are the means (esd, esd-v1) or medians (np, a12) in the scores' own direction."""

    ranks: dict[str, int]
    groups: tuple[tuple[str, ...], ...]
    centres: dict[str, float]
    method: str
    splits: tuple[Split, ...]

    def __str__(self) -> str:
        centre = "mean" if self.method in ("esd", "esd-v1") else "median"
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
    """Rank learners into distinct groups by Scott-Knott partitioning.

    Parameters
    ----------
    samples : mapping learner -> 1-D values, or DataFrame (columns = learners; NaN dropped)
        Each learner's results (folds, runs or data sets; lengths may differ).
    higher_is_better : bool, default True
    method : {"esd", "esd-v1", "np", "a12"}
        ``"esd"`` -- ScottKnott-ESD 2.x, the test of Tantithamthavorn et al. (TSE 2019; R package
        ScottKnottESD 2.0.3, ``sk_esd``, and 3.0.0's default ``version = "p"``). No chi2 test:

        1. Sort the learners by mean, decreasing (equal means keep the input order, as R's
           ``order``).
        2. For a segment of that order, the cut is the first that maximises the between-groups
           sum of squares of the *means*, t1^2/n1 + t2^2/n2 - (t1 + t2)^2/n (t the sums of the
           means either side, n the numbers of learners; each learner weighs one, whatever its
           number of values).
        3. The segment is one group if Cohen's d between its first (highest mean) and its last
           (lowest mean) learner is negligible, |d| < 0.2 (pooled sd on n1 + n2 - 2 degrees of
           freedom, effsize's ``cohen.d``; d = 0.2 is small); else it is cut there, and the upper
           part, then the lower, are partitioned the same way, starting from all learners.

        The package's bookkeeping (``markg``; a cut that leaves the first learner alone makes it
        a group at once) is this depth-first walk, and its group numbers are the walk's order.
        Differences: cuts whose sums of squares agree to 12 significant digits count as equal
        (the first is taken; R's order decides them by rounding), and |d| < 0.2 is decided on
        the decimals (R decides in floating point).

        ``"esd-v1"`` -- ScottKnott-ESD 1.x as written (Tantithamthavorn et al., TSE 2017; R
        package ScottKnottESD 1.x, ``SK.ESD``: ScottKnott's ``SK``, then the effect-size
        correction):

        1. Sort by mean (stable). For each cut between two different means, the between-groups
           sum of squares B = N_1 (M_1 - M)^2 + N_2 (M_2 - M)^2 of the values (N_g values with
           mean M_g on each side, mean M); take the first cut of largest B (Scott & Knott 1974,
           B_0; with n values per learner, B = n B_0).
        2. Keep it if lambda = pi / (2 (pi - 2)) B / sigma0^2 exceeds the 1 - alpha quantile of
           chi2 with k / (pi - 2) degrees of freedom, where k is the number of learners being
           cut, sigma0^2 = [sum_i n_i (ybar_i - M)^2 + v MSE] / (k + v), MSE the pooled
           within-learner variance of all learners and v = N - K its degrees of freedom
           (Scott & Knott 1974, Sec. 3; with equal n_i this is their statistic exactly).
        3. Recurse into both halves. Then, at each boundary between two groups, best first,
           merge them when Cohen's d between the two learners either side of it -- the last of
           the upper group and the first of the lower -- is negligible, |d| < 0.2.

        Deliberate differences from that package: B and sigma0^2 weight each learner by its
        number of values (the package takes equal columns; with equal numbers the test is the
        same); a cut never falls between two equal means; the values are not transformed (one
        1.x release took log(1 + x) first). From effsize 0.6.1 (2016) on, the package's merge
        test never held (it compares a factor with a string), so CRAN 1.x returned plain
        Scott-Knott groups; this is the algorithm as written (with effsize 0.5.4).

        ``"np"`` -- ScottKnott-ESD 3.0's non-parametric form (ScottKnottESD 3.0.0 on GitHub,
        ``sk_esd(x, version = "np")``): as ``"esd"``, but the learners are sorted by median,
        decreasing (equal medians in reverse input order: R's ``rev(sort(medians))``); the cut
        maximises the Kruskal-Wallis H of all the values with the segment's two parts as two
        groups and each learner outside the segment as its own (what the package computes:
        ``kruskal.test`` on the whole data, the segment relabelled); and the segment is one group
        when Cliff's delta between its first and last learner is negligible, |delta| < 0.147
        (Romano et al. 2006; effsize's ``cliff.delta``). Groups are numbered in the median
        order of the partition (group 1 holds the best medians). Difference: 3.0.0 partitions
        in median order but names the positions of its result in *mean* order, so where the
        two orders differ its ranks land on the wrong learners; these are the groups its
        partition made.

        ``"a12"`` -- Menzies' variant (Menzies' course notes; the ``sk.py`` of his group):
        sort by median; the cut maximises the expected squared difference of means
        N_1/N (M_1 - M)^2 + N_2/N (M_2 - M)^2, only between different medians; keep it only if
        the halves differ both by the two-sided bootstrap test of :func:`bootstrap_pvalue`
        (p < alpha) and by A12 (not negligible: |A12 - 0.5| > 0.06 exactly, Vargha & Delaney
        2000: :func:`stats.a12`'s label); recurse. Menzies' code used alpha = 0.01 and refused
        halves of 3 values or fewer; here alpha is a parameter and no size rule applies.

        Cohen's d against 0.2 is decided on the decimals the values stand for (|d| < 0.2 if
        and only if diff^2 (n1 + n2 - 2) < 0.04 SS, exactly near the bound), A12 and Cliff's
        delta from exact counts. Two single values, or two constant learners, have d = 0 when
        their means are equal (the packages fail there), else |d| = inf.
    alpha : float, default 0.05
        Level of the chi2 test (esd-v1) or of the bootstrap test (a12); unused by esd and np.
    resamples, seed : int
        Bootstrap resamples and the seed of their generator (a12 only): the result is
        reproducible and does not depend on the order or the names of the learners.

    Returns
    -------
    ScottKnottResult
        ``ranks``, ``groups`` (best first; within a group in the sorted order), ``centres``,
        ``method`` and ``splits`` (every segment tested, depth first).

    References
    ----------
    .. [1] A. J. Scott, M. Knott, "A cluster analysis method for grouping means in the analysis
       of variance", Biometrics 30(3):507-512, 1974.
    .. [2] C. Tantithamthavorn, S. McIntosh, A. E. Hassan, K. Matsumoto, "An empirical comparison
       of model validation techniques for defect prediction models", IEEE TSE 43(1):1-18, 2017
       (ScottKnott-ESD 1.x).
    .. [3] C. Tantithamthavorn, S. McIntosh, A. E. Hassan, K. Matsumoto, "The impact of automated
       parameter optimization on defect prediction models", IEEE TSE 45(7):683-711, 2019, early
       access 2018, doi 10.1109/TSE.2018.2794977 (ScottKnott-ESD 2.x). R package ScottKnottESD
       (C. Tantithamthavorn, github.com/klainfo/ScottKnottESD): 1.2.2, 2.0.3 (CRAN), 3.0.0.
    .. [4] J. Cohen, "Statistical Power Analysis for the Behavioral Sciences", 2nd ed., 1988.
    .. [5] J. Romano, J. D. Kromrey, J. Coraggio, J. Skowronek, "Appropriate statistics for ordinal
       level data", Florida AIR annual meeting, 2006.
    .. [6] B. Efron, R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993,
       Sec. 16.4.
    .. [7] A. Vargha, H. D. Delaney, J. Educ. Behav. Stat. 25(2):101-132, 2000.

    Examples
    --------
    >>> res = scott_knott({"x1": [0.34, 0.49, 0.51, 0.6], "x2": [6, 7, 8, 9], "x3": [0.1, 0.2, 0.3, 0.4]})
    >>> res.groups
    (('x2',), ('x1',), ('x3',))
    >>> scott_knott({"x1": [0.34, 0.49, 0.51, 0.6], "x2": [6, 7, 8, 9], "x3": [0.1, 0.2, 0.3, 0.4]},
    ...             method="esd-v1").ranks
    {'x1': 2, 'x2': 1, 'x3': 2}
    """
    check_choice("method", method, METHODS)
    level = check_alpha(alpha)
    names, values, pooled = _samples(samples, higher_is_better)
    means = np.array([_mean(v) for v in values])
    by_mean = method in ("esd", "esd-v1")
    centre = snap(
        np.array([float(m) for m in means] if by_mean else [float(np.median(v)) for v in values]),
        magnitude(pooled).max(),
    )
    if method == "np":  # R's rev(sort(medians)): equal medians in reverse input order
        order = sorted(range(len(names)), key=lambda i: (-centre[i], -i))
    else:  # stable: ties keep input order
        order = sorted(range(len(names)), key=lambda i: -centre[i])
    if method in ("esd", "np"):
        groups, splits = _esd_partition(method, names, values, means, order)
    else:
        groups, splits = _tested_partition(method, names, values, means, centre, order, level, resamples, seed)
    ranks = {names[i]: r for r, group in enumerate(groups, start=1) for i in group}
    sign = 1.0 if higher_is_better else -1.0
    return ScottKnottResult(
        ranks={name: ranks[name] for name in names},
        groups=tuple(tuple(names[i] for i in group) for group in groups),
        centres={name: sign * float(centre[i]) for i, name in enumerate(names)},
        method=method,
        splits=tuple(splits),
    )


def _esd_partition(
    method: str, names: list[str], values: list[np.ndarray], means: np.ndarray, order: list[int]
) -> tuple[list[list[int]], list[Split]]:
    """ScottKnottESD 2.x ("esd") or 3.0's "np" partition of the learners in ``order``."""
    ordered = [values[i] for i in order]
    if method == "esd":
        parts, records = esd_groups(ordered, means[order])
    else:
        parts, records = np_groups(ordered, np.concatenate(ordered))
    splits = [
        Split(
            tuple(names[order[i]] for i in range(first, where)),
            tuple(names[order[i]] for i in range(where, end)),
            TESTS[method],
            statistic,
            math.nan,
            effect,
            accepted,
        )
        for first, where, end, statistic, effect, accepted in records
    ]
    return [[order[i] for i in part] for part in parts], splits


def _tested_partition(
    method: str,
    names: list[str],
    values: list[np.ndarray],
    means: np.ndarray,
    centre: np.ndarray,
    order: list[int],
    level: float,
    resamples: int,
    seed: int,
) -> tuple[list[list[int]], list[Split]]:
    """ScottKnott-ESD 1.x ("esd-v1": chi2 test, then the merge) or Menzies' A12 variant."""
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
        if method == "esd-v1":
            k = len(part)
            sigma2 = (float((counts[part] * (means[part] - grand) ** 2).sum()) + dof * mse) / (k + dof)
            lam = math.pi / (2 * (math.pi - 2)) * best / sigma2 if sigma2 > 0 else math.inf
            p = _chi2_sf(lam, k / (math.pi - 2))
            effect, accepted = cohen_d(left, right)[0], p < level
        else:
            lam = float(_t(np.array(left.mean() - right.mean()), np.array(_var(left) + _var(right)), 0.0))
            p = bootstrap_pvalue(left, right, resamples=resamples, seed=seed)
            size = a12(left, right)  # exact label: A12 = 0.56 is negligible
            effect, accepted = size.value, p < level and size.magnitude != "negligible"
        better, worse = tuple(names[i] for i in part[:where]), tuple(names[i] for i in part[where:])
        splits.append(Split(better, worse, TESTS[method], lam, p, effect, accepted))
        return cut(part[:where]) + cut(part[where:]) if accepted else [part]

    groups = cut(order)
    if method == "esd-v1":  # ScottKnottESD 1.x: the two learners either side of each boundary
        merged = [groups[0]]
        for group in groups[1:]:
            x, y = values[merged[-1][-1]], values[group[0]]
            # two single values: merged only when equal (d = 0), as this variant always did
            if cohen_d(x, y)[1] if x.size + y.size > 2 else x[0] == y[0]:
                merged[-1] = merged[-1] + group
            else:
                merged.append(group)
        groups = merged
    return groups, splits
