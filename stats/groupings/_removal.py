"""What leaving out data sets (or a learner) does to the decisions of one analysis: the omnibus
test's rejection at alpha and each pair's rejection under one post-hoc procedure.

Shared by :mod:`stats.groupings.fragility` and :mod:`stats.groupings.stability`. Every decision
is the one the public functions make on the reduced table; nothing here is a second copy of a
procedure:

* :func:`omnibus_rejects` and :func:`pair_decisions` run them on a reduced table: :func:`stats.friedman`
  or :func:`stats.iman_davenport` for the omnibus test, Demsar's critical difference
  (:func:`stats.critical_difference`, the rule of :func:`stats.verdict` and
  :func:`stats.cd_groups`) for Nemenyi, the APV column of :func:`stats.pairwise_test` (Holm,
  Shaffer, Bergmann-Hommel on the ranks of ``test``) or of :func:`stats.pairwise_wilcoxon`
  (Wilcoxon-Holm, sign-Holm) otherwise: a pair is rejected when its APV is <= alpha.
* :class:`RankSums` makes the same decisions faster where they depend on the table only through
  N and the average Friedman ranks (Nemenyi; Holm, Shaffer and Bergmann-Hommel on Friedman ranks):
  ranks within a data set do not change when other data sets leave, so without the data sets S
  the average ranks are (N R - sum_{i in S} r_i) / (N - |S|) (Demsar 2006, Eq. 1). It keeps twice
  the rank sums (exact integers) and makes the public functions' decisions: the z and p of
  :func:`stats.pairwise_test_from_ranks` and the APVs of :func:`stats.adjust` (the same floats);
  Friedman's statistic from the exact sums, :func:`stats.friedman` itself deciding wherever its p
  is within rounding of alpha. It also bounds every decision over the ways of completing a partial
  removal (:meth:`RankSums.pair_sure`, :meth:`RankSums.omnibus_sure`): the search of
  :mod:`stats.groupings.fragility` prunes with them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from stats.core import Table, as_table, check_alpha, check_choice, pairs
from stats.groupings.groups import EPS
from stats.groupings.verdicts import TWO_SAMPLE_RULES
from stats.posthoc import BergmannLimitWarning, adjust, pairwise_test, pairwise_wilcoxon
from stats.posthoc.shaffer_bergmann import MAX_EXACT_K, bergmann_exceeds
from stats.posthoc.ztests import standard_error
from stats.ranking import AverageRanks, critical_difference, friedman, iman_davenport, mean_ranks
from stats.ranking.omnibus import chi2_sf, f_sf
from stats.ranking.ranks import rank_matrix

#: The procedures on mean ranks (Benavoli, Corani & Mangili 2016): a pair's decision depends on
#: the other learners too.
RANK_RULES = ("nemenyi", "holm", "shaffer", "bergmann")
PROCEDURES = (*RANK_RULES, *TWO_SAMPLE_RULES)
OMNIBUS_TESTS = ("friedman", "iman_davenport")
RANK_TESTS = ("friedman", "aligned", "quade")
#: The steps of a search one exact Bergmann-Hommel computation counts for (milliseconds at k = 10,
#: against tens of microseconds for a node of the search or Holm's or Shaffer's APVs), and one
#: pair's Bergmann-Hommel decision (:func:`stats.posthoc.shaffer_bergmann.bergmann_exceeds`).
BERGMANN_COST = 100
EXCEEDS_COST = 3
#: A bound decides only when it clears alpha by more than floating-point rounding could explain;
#: otherwise the search looks closer (a bound is never trusted at the boundary itself).
SLACK = 1e-9


class Cancelled(Exception):
    """Raised by :func:`stats.fragility` and :func:`stats.stability` when their ``cancelled`` hook
    returns True: the computation stopped between two units of work, and nothing of it is kept
    (the caches it filled were its own). Unlike :class:`stats.LoadCancelled`, which a load's
    ``progress`` callback raises itself, this one is raised by :mod:`stats` on the hook's answer.

    Examples
    --------
    >>> import stats
    >>> stats.fragility([[0.9, 0.8, 0.7], [0.9, 0.7, 0.8]] * 3, cancelled=lambda: True)
    Traceback (most recent call last):
    ...
    stats.groupings._removal.Cancelled: cancelled by the caller's hook
    """


def checker(cancelled: Callable[[], bool] | None) -> Callable[[], None]:
    """What a search calls between two units of work (a node of a search, one APV computation, one
    reduced table analysed): nothing without a hook, else raise :class:`Cancelled` once
    ``cancelled()`` returns True. A cooperative stop (as a thread cannot be stopped from outside)."""
    if cancelled is None:
        return go_on

    def check() -> None:
        if cancelled():
            raise Cancelled("cancelled by the caller's hook")

    return check


def go_on() -> None:
    """The check without a hook."""


@dataclass(frozen=True)
class Found:
    """One decision's fragility as a search found it: the fewest data sets (None: none found), their
    rows, whether that is exact, and the fewest not excluded (None when nothing reverses it)."""

    size: int | None
    rows: tuple[int, ...]
    exact: bool
    at_least: int | None


@dataclass(frozen=True)
class Rule:
    """One analysis: the omnibus test, the post-hoc procedure, the ranks behind its z (``test``:
    Friedman, aligned or Quade; Nemenyi's CD and the two-sample rules have none) and alpha."""

    procedure: str
    test: str
    omnibus: str
    alpha: float
    higher_is_better: bool

    @property
    def mean_rank(self) -> bool:
        """A procedure on mean ranks: leaving out another learner may change a pair's decision."""
        return self.procedure in RANK_RULES

    @property
    def on_rank_sums(self) -> bool:
        """Decisions depend on the table only through N and the Friedman rank sums (:class:`RankSums`)."""
        return self.procedure == "nemenyi" or (self.mean_rank and self.test == "friedman")


def rule(procedure: str, test: str, omnibus: str, alpha: float, higher_is_better: bool) -> Rule:
    """The checked :class:`Rule`."""
    check_choice("procedure", procedure, PROCEDURES)
    check_choice("test", test, RANK_TESTS)
    check_choice("omnibus", omnibus, OMNIBUS_TESTS)
    return Rule(procedure, test, omnibus, check_alpha(alpha), bool(higher_is_better))


def method(procedure: str, k: int) -> str:
    """The APV column that stands for ``procedure`` among k learners: Shaffer's for Bergmann-Hommel
    above its exact limit, as :func:`stats.pairwise_test` and :func:`stats.verdict` do."""
    return "shaffer" if procedure == "bergmann" and k > MAX_EXACT_K else procedure


def frame(table: Table, rows: Any = slice(None), columns: Any = slice(None)) -> pd.DataFrame:
    """The scores of ``rows`` x ``columns`` in their own direction, as a user would pass them."""
    return pd.DataFrame(table.raw[rows][:, columns], index=table.datasets[rows], columns=table.learners[columns])


def pairwise(scores: Any, r: Rule) -> Any:
    """The APV table behind ``r.procedure`` (None for Nemenyi, whose rejections are the CD's)."""
    if r.procedure == "nemenyi":
        return None
    if r.procedure in TWO_SAMPLE_RULES:
        kind: Any = TWO_SAMPLE_RULES[r.procedure]
        return pairwise_wilcoxon(scores, higher_is_better=r.higher_is_better, test=kind)
    with warnings.catch_warnings():  # above the limit the column holds Shaffer's APVs (:func:`method`)
        warnings.simplefilter("ignore", BergmannLimitWarning)
        test: Any = r.test
        return pairwise_test(scores, test=test, higher_is_better=r.higher_is_better, bergmann=r.procedure == "bergmann")


def omnibus_rejects(scores: Any, r: Rule) -> bool:
    """The omnibus test of ``r`` rejects equality at alpha (p <= alpha, as :func:`stats.verdict`)."""
    test = friedman if r.omnibus == "friedman" else iman_davenport
    return bool(test(scores, higher_is_better=r.higher_is_better).pvalue <= r.alpha)


def nemenyi_rejects(average: np.ndarray, n: int, alpha: float) -> np.ndarray:
    """Each pair (in :func:`stats.core.pairs` order) whose average ranks are at least Demsar's CD
    apart (Demsar 2006, Sec. 3.2.2; the slack of :func:`stats.cd_groups`)."""
    ia, ib = _pair_index(len(average))
    cd = critical_difference(len(average), n, alpha=alpha)
    return np.abs(average[ia] - average[ib]) >= cd - EPS


def pair_decisions(scores: pd.DataFrame, r: Rule) -> np.ndarray:
    """Each pair's decision (pairs order) on ``scores``, by the public functions."""
    if r.procedure == "nemenyi":
        table = as_table(scores, higher_is_better=r.higher_is_better)
        return nemenyi_rejects(mean_ranks(table).ranks.to_numpy(), table.n, r.alpha)
    return pairwise(scores, r)[r.procedure].to_numpy(np.float64) <= r.alpha


def _pair_index(k: int) -> tuple[np.ndarray, np.ndarray]:
    index = np.array(pairs(k), dtype=np.intp).reshape(-1, 2)
    return index[:, 0], index[:, 1]


def _two_sided(z: np.ndarray) -> np.ndarray:
    """The two-sided normal p of :func:`stats.pairwise_test_from_ranks`: the same floats."""
    return 2.0 * special.ndtr(-np.abs(z))


class RankSums:
    """The decisions of a Friedman-rank analysis (:attr:`Rule.on_rank_sums`) after removing data
    sets, from twice their rank sums (exact integers): ``removed`` is the sum of twice the ranks
    of the data sets left out (a k-vector), ``s`` how many they are."""

    def __init__(self, table: Table, r: Rule, check: Callable[[], None] = go_on) -> None:
        self.rule = r
        #: Called before each APV computation and each node of a search (:func:`checker`).
        self.check = check
        self.twice = np.rint(2.0 * rank_matrix(table)).astype(np.int64)  # N x k, halves are exact
        self.total = self.twice.sum(axis=0)
        self.n, self.k = self.twice.shape
        self.learners = table.learners
        self.ia, self.ib = _pair_index(self.k)
        self.diffs = self.twice[:, self.ia] - self.twice[:, self.ib]  # N x m: each pair's d_i, doubled
        self.method = method(r.procedure, self.k)
        self.totals = self.diffs.sum(axis=0)  # each pair's doubled rank-sum difference over all data sets
        self.centred = self.twice - (self.k + 1)  # each data set's doubled ranks minus their mean
        self.spread = self.total - self.n * (self.k + 1)  # u of all data sets (:meth:`omnibus_sure`)
        self.basis = _basis(self.spread)
        self._omnibus: dict[bytes, bool] = {}
        self._pairs: dict[bytes, np.ndarray] = {}
        #: What the APVs computed so far cost, in steps of a search (:data:`BERGMANN_COST` each for
        #: Bergmann-Hommel, 1 for the others): a search's budget counts them.
        self.spent = 0
        self._cost = BERGMANN_COST if self.method == "bergmann" else 1

    def average(self, removed: np.ndarray, s: int) -> np.ndarray:
        """Average ranks without the data sets: (N R - sum of their ranks) / (N - s), exactly
        rounded as the mean of the kept ranks is (the sums are exact)."""
        return (self.total - removed) / (2.0 * (self.n - s))

    def omnibus(self, removed: np.ndarray, s: int) -> bool:
        """The omnibus test rejects without the data sets (cached per ``removed``, which fixes ``s``:
        each data set adds k(k + 1) to its sum).

        chi2_F from the exact sums (:meth:`omnibus_sure`'s form); where its p is within rounding of
        alpha, :func:`stats.friedman` (or :func:`stats.iman_davenport`) of the average ranks decides."""
        key = removed.tobytes()
        hit = self._omnibus.get(key)
        if hit is None:
            n, k = self.n - s, self.k
            u = (self.total - removed - n * (k + 1)).astype(float)
            p = self._omnibus_p(3.0 * float(u @ u) / (n * k * (k + 1)), n)
            if abs(p - self.rule.alpha) <= SLACK * self.rule.alpha:
                test = friedman if self.rule.omnibus == "friedman" else iman_davenport
                p = test(AverageRanks(pd.Series(self.average(removed, s), index=self.learners), n)).pvalue
            hit = self._omnibus[key] = bool(p <= self.rule.alpha)
        return hit

    def rejects(self, removed: np.ndarray, s: int) -> np.ndarray:
        """Each pair's decision without the data sets (cached per ``removed``)."""
        key = removed.tobytes()
        hit = self._pairs.get(key)
        if hit is None:
            hit = self._pairs[key] = self.pair_rejects(self.average(removed, s)[None, :], self.n - s)[0]
        return hit

    def pair_rejects(self, average: np.ndarray, n: int) -> np.ndarray:
        """Each pair's decision for each row of average ranks over ``n`` data sets (rows x pairs)."""
        if self.rule.procedure == "nemenyi":
            return np.array([nemenyi_rejects(row, n, self.rule.alpha) for row in average])
        return self.apvs(average, n) <= self.rule.alpha

    def apvs(self, average: np.ndarray, n: int) -> np.ndarray:
        """The APVs of the procedure for each row of average ranks over ``n`` data sets (rows x
        pairs): z = (R_a - R_b) / SE for every row and pair at once (the z and p of
        :func:`stats.pairwise_test_from_ranks`), then :func:`stats.adjust` row by row."""
        z = (average[:, self.ia] - average[:, self.ib]) / standard_error("friedman", self.k, n)
        return np.array([self._apv(p) for p in _two_sided(z)]).reshape(len(average), -1)

    def z_factor(self, s: int) -> float:
        """z of a pair per unit of its doubled rank-sum difference over N - s data sets."""
        n = self.n - s
        return 1.0 / (2.0 * n * standard_error("friedman", self.k, n))

    def pair_sure(self, h: int, low: np.ndarray, high: np.ndarray, s: int) -> int:
        """+1 when pair ``h`` is rejected, -1 when it is not, for every removal of ``s`` data sets
        whose pairs' doubled rank-sum differences lie within [low, high] (each pair on its own);
        0 when the bounds do not decide.

        Nemenyi decides on |R_a - R_b| alone. Holm, Shaffer (static) and Bergmann-Hommel are
        monotone: lowering any p-value never raises an APV (a step-down with non-decreasing
        critical values; Bergmann-Hommel's APV is a maximum over exhaustive sets of |I| min p),
        so the APVs at every pair's smallest |z| bound each APV from above, those at every pair's
        largest |z| from below."""
        least = np.where((low <= 0) & (high >= 0), 0, np.minimum(np.abs(low), np.abs(high)))
        most = np.maximum(np.abs(low), np.abs(high))
        zf, a = self.z_factor(s), self.rule.alpha
        if self.rule.procedure == "nemenyi":
            n = self.n - s
            cd = critical_difference(self.k, n, alpha=a) - EPS
            scale = 1.0 / (2.0 * n)
            if least[h] * scale >= cd * (1 + SLACK):
                return 1
            return -1 if most[h] * scale < cd * (1 - SLACK) else 0
        # p_h <= APV_h <= m p_h for every one of them: the pair's own p often decides without the others
        m = least.size
        p_high, p_low = (float(_two_sided(np.array(v * zf))) for v in (least[h], most[h]))
        if m * p_high <= a * (1 - SLACK):
            return 1
        if p_low > a * (1 + SLACK):
            return -1
        if p_high <= a and not self._above(_two_sided(least * zf), h, a * (1 - SLACK)):
            return 1
        if m * p_low > a and self._above(_two_sided(most * zf), h, a * (1 + SLACK)):
            return -1
        return 0

    def _apv(self, p: np.ndarray) -> np.ndarray:
        self.check()  # (Bergmann-Hommel's cost milliseconds each)
        self.spent += self._cost
        return adjust(p, self.method)  # type: ignore[arg-type]  # (a procedure name checked by the caller)

    def _above(self, p: np.ndarray, h: int, level: float) -> bool:
        """Pair h's APV exceeds ``level``. Bergmann-Hommel's from its one-pair decision
        (:func:`stats.posthoc.shaffer_bergmann.bergmann_exceeds`: the same decision as its APV,
        at a fraction of the cost of all pairs' APVs), the others' from their APVs."""
        if self.method == "bergmann":
            self.check()
            self.spent += EXCEEDS_COST
            return bergmann_exceeds(p, h, self.k, level)
        return bool(self._apv(p)[h] > level)

    def rejects_pair(self, removed: np.ndarray, s: int, h: int) -> bool:
        """Pair h's decision without the data sets: :meth:`rejects`, unless p_h <= APV_h <= m p_h
        already decides it; Bergmann-Hommel's by its one-pair decision (:meth:`_above`)."""
        hit = self._pairs.get(removed.tobytes())
        if hit is not None or self.rule.procedure == "nemenyi":
            return bool(self.rejects(removed, s)[h])
        n = self.n - s
        average = self.average(removed, s)
        z = (average[self.ia] - average[self.ib]) / standard_error("friedman", self.k, n)
        p = _two_sided(z)
        a = self.rule.alpha
        if p[h] > a:
            return False
        if p[h] * p.size <= a:
            return True
        if self.method == "bergmann":
            return not self._above(p, h, a)
        return bool(self.rejects(removed, s)[h])

    def omnibus_features(self) -> np.ndarray:
        """What each data set adds to u (:meth:`omnibus_sure`): its centred doubled ranks, on the
        learners' axes and on :attr:`basis` (data sets x 2k)."""
        return np.hstack([self.centred, self.centred @ self.basis])

    def omnibus_sure(self, low: np.ndarray, high: np.ndarray, s: int) -> int:
        """As :meth:`pair_sure` for the omnibus test, given bounds on the kept doubled rank sums
        centred at their expectation, u_j = 2 T_j - n(k + 1), on the learners' axes (the first k)
        and on the orthonormal :attr:`basis` (the last k): chi2_F = 3 |u|^2 / (n k (k + 1))
        (Demsar 2006, Eq. 2), |u|^2 is the sum of the squares of u's coordinates in either, and
        the p of Friedman's and Iman-Davenport's tests falls as chi2_F grows. The basis's first
        axis is the direction of u over all data sets, where one interval bounds most of |u|."""
        n, k = self.n - s, self.k
        least = np.where((low <= 0) & (high >= 0), 0.0, np.minimum(np.abs(low), np.abs(high))) ** 2
        most = np.maximum(np.abs(low), np.abs(high)) ** 2
        scale = 3.0 / (n * k * (k + 1))
        lo = scale * max(float(least[:k].sum()), float(least[k:].sum()))
        hi = scale * min(float(most[:k].sum()), float(most[k:].sum()))
        a = self.rule.alpha
        if self._omnibus_p(lo, n) <= a * (1 - SLACK):
            return 1
        return -1 if self._omnibus_p(hi, n) > a * (1 + SLACK) else 0

    def _omnibus_p(self, chi2: float, n: int) -> float:
        k = self.k
        if self.rule.omnibus == "friedman":
            return chi2_sf(chi2, k - 1)
        denominator = n * (k - 1) - chi2  # Iman & Davenport (1980): F = (n - 1) chi2 / (n (k - 1) - chi2)
        if denominator <= 1e-9 * n * (k - 1):
            return 0.0
        return f_sf((n - 1) * chi2 / denominator, k - 1, (k - 1) * (n - 1))


def _basis(direction: np.ndarray) -> np.ndarray:
    """An orthonormal basis (columns) whose first vector is along ``direction`` (any, if it is 0)."""
    k = direction.size
    q, _ = np.linalg.qr(np.column_stack([direction.astype(float), np.eye(k)]))
    return q[:, :k] if np.any(direction) else np.eye(k)
