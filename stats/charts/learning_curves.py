"""Where a learning curve stops improving: the "plateau" of Menzies' sequence studies.

Menzies' lecture notes on evaluation bias ("Incremental M*N-way"): "Learn on more and more of
the data; report 'plateau' (where learning improvement stops)", and "in many of the
standard UCI data sets, learning plateaus long before data is exhausted. Often, 200
instances are enough". :func:`plateau` makes "stops improving" a test: a size is the
plateau when no larger training size is significantly *and* non-negligibly better.
:func:`learning_curve` takes the (size, value) pairs out of a :func:`stats.run_sequence` log.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from stats.core import exact_decimal, snap
from stats.core.criteria import TRAINING_SIZE
from stats.posthoc import adjust

__all__ = ["Plateau", "learning_curve", "plateau"]


@dataclass(frozen=True)
class Plateau:
    """The result of :func:`plateau`.

    Attributes
    ----------
    size : float
        The plateau: the smallest training size that no larger size improves on. When
        ``reached`` is False, the largest size (the curve never flattened).
    reached : bool
        True when some larger size was compared with ``size`` and none improved on it;
        False when every size up to the largest was improved on by a later one.
    sizes : tuple of float
        The distinct training sizes, ascending.
    medians : tuple of float
        The median value at each size.
    counts : tuple of int
        The number of values at each size.
    """

    size: float
    reached: bool
    sizes: tuple[float, ...]
    medians: tuple[float, ...]
    counts: tuple[int, ...]

    def __str__(self) -> str:
        where = f"plateau at {self.size:g}" if self.reached else f"no plateau up to {self.size:g} (still improving)"
        return f"{where}; {len(self.sizes)} sizes from {self.sizes[0]:g}"


def _better(later: np.ndarray, here: np.ndarray, higher_is_better: bool) -> tuple[float, Fraction]:
    """One-sided Mann-Whitney p-value that ``later`` is better than ``here``, and A12 of ``later``
    as an exact fraction (U is a multiple of 1/2: A12 = 2U / 2mn, compared with the effect bound in
    exact arithmetic, the decimal rule of :func:`stats.core.snap`)."""
    pooled = snap(np.concatenate([later, here]))
    a, b = pooled[: later.size], pooled[later.size :]
    if np.ptp(pooled) == 0:  # all equal: no evidence, no effect (scipy would divide 0 by 0)
        return 1.0, Fraction(1, 2)
    res = sps.mannwhitneyu(a, b, alternative="greater" if higher_is_better else "less")
    share = Fraction(round(2 * float(res.statistic)), 2 * a.size * b.size)  # P(a > b) + P(a = b) / 2
    return float(res.pvalue), share if higher_is_better else 1 - share


def plateau(
    sizes: Any, values: Any, *, higher_is_better: bool = True, alpha: float = 0.05, effect: float = 0.56
) -> Plateau:
    """The smallest training size after which the criterion stops improving.

    Parameters
    ----------
    sizes : array_like, 1-D
        Training size of each observation (e.g. the ``train`` lines of a sequence log).
    values : array_like, 1-D
        The criterion of each observation, same length; finite.
    higher_is_better : bool, default True
        False for error-like criteria (mmre, pf, runtime).
    alpha : float, default 0.05
        Family-wise level of the tests made for one candidate size.
    effect : float, default 0.56
        Smallest Vargha-Delaney A12 that counts as an improvement, in [0.5, 1]. The
        default is the lower bound of a "small" effect (Vargha & Delaney 2000: negligible
        below 0.56, small from 0.56, medium from 0.64, large from 0.71).

    Returns
    -------
    Plateau
        The plateau size, whether it was reached, and the sizes, medians and counts.

    Raises
    ------
    ValueError
        Lengths differ, non-finite numbers, fewer than two distinct sizes, bad alpha/effect.

    Notes
    -----
    Let s_1 < ... < s_k be the distinct sizes and V_j the values at s_j. A larger size s_m
    *improves on* s_j when both hold:

    - the one-sided Mann-Whitney (Wilcoxon rank-sum) test that V_m is stochastically better
      than V_j (``scipy.stats.mannwhitneyu``, ``alternative="greater"``, or ``"less"`` for
      lower-is-better) rejects at ``alpha`` after Holm's adjustment over the k - j larger
      sizes (so a flat tail of many sizes does not find a spurious improvement 1 time in 20
      per size);
    - A12 = P(V_m better than V_j) + P(tie) / 2 is at least ``effect`` (a significant but
      negligible gain, e.g. with many repeats, does not count).

    The plateau is the smallest s_j that no larger size improves on: "where learning
    improvement stops". The largest size trivially qualifies; if only it does, the curve
    is still improving and ``reached`` is False. With few values per size the tests have
    little power and the plateau comes early: with M values at each of two sizes the
    smallest one-sided p-value is 1 / C(2M, M) (0.05 needs M >= 4 for two sizes, more
    under Holm). Values are compared as Mann-Whitney compares them (decimal ties kept by
    :func:`stats.core._table.snap`); a size whose values and the candidate's are all equal is
    no improvement.

    Examples
    --------
    >>> sizes = np.repeat([50, 100, 150, 200, 250], 8)
    >>> rng = np.random.default_rng(0)
    >>> accuracy = np.minimum(sizes, 150) / 200 + rng.normal(0, 0.01, sizes.size)
    >>> result = plateau(sizes, accuracy)
    >>> result.size, result.reached
    (150.0, True)
    """
    s, v = np.asarray(sizes, dtype=float), np.asarray(values, dtype=float)
    if s.ndim != 1 or v.ndim != 1 or s.size != v.size:
        raise ValueError(f"sizes and values must be 1-D of the same length, got shapes {s.shape} and {v.shape}")
    if not (np.all(np.isfinite(s)) and np.all(np.isfinite(v))):
        raise ValueError("sizes and values must be finite")
    if not isinstance(alpha, (int, float)) or not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if not isinstance(effect, (int, float)) or not 0.5 <= effect <= 1.0:
        raise ValueError(f"effect (an A12) must be in [0.5, 1], got {effect!r}")
    distinct = np.unique(s)
    if distinct.size < 2:
        raise ValueError(f"a learning curve needs at least two distinct training sizes, got {distinct.tolist()}")
    groups = [v[s == size] for size in distinct]
    summary = {
        "sizes": tuple(float(x) for x in distinct),
        "medians": tuple(float(np.median(g)) for g in groups),
        "counts": tuple(int(g.size) for g in groups),
    }
    bound = exact_decimal(effect)  # A12 = 0.56 exactly (14 of 25 pairs) meets a bound of 0.56
    for j in range(distinct.size - 1):
        tests = [_better(groups[m], groups[j], higher_is_better) for m in range(j + 1, distinct.size)]
        pvalues = adjust(np.array([p for p, _ in tests]), "holm")
        if not any(p < alpha and a12 >= bound for p, (_, a12) in zip(pvalues, tests)):
            return Plateau(size=float(distinct[j]), reached=True, **summary)
    return Plateau(size=float(distinct[-1]), reached=False, **summary)


def learning_curve(log: pd.DataFrame, *, dataset: Any, learner: Any, criterion: Any) -> tuple[np.ndarray, np.ndarray]:
    """(training sizes, values) of one criterion of one learner on one data set of a sequence log.

    Each value is paired with the ``train`` line of its unit (dataset, repeat, fold, learner),
    the encoding of :func:`stats.run_sequence`; ``ValueError`` when no unit has both.

    Examples
    --------
    >>> log = pd.DataFrame({"dataset": "d", "repeat": 1, "fold": [2, 2, 3, 3], "learner": "nb",
    ...                     "criterion": ["accuracy", "train", "accuracy", "train"], "value": [0.6, 10, 0.7, 20]})
    >>> learning_curve(log, dataset="d", learner="nb", criterion="accuracy")
    (array([10., 20.]), array([0.6, 0.7]))
    """
    keys = ["repeat", "fold"]
    mine = log[(log["dataset"] == dataset) & (log["learner"] == learner)]
    train = mine[mine["criterion"] == TRAINING_SIZE][[*keys, "value"]]
    scores = mine[mine["criterion"] == criterion][[*keys, "value"]]
    both = scores.merge(train, on=keys, suffixes=("", "_train"), validate="one_to_one")
    if both.empty:
        raise ValueError(f"no unit of {dataset!r} x {learner!r} has both a {criterion!r} and a 'train' line")
    both = both.sort_values(keys, kind="stable")
    return both["value_train"].to_numpy(dtype=float), both["value"].to_numpy(dtype=float)
