"""How fragile each conclusion is: the fewest data sets whose removal reverses it.

Medicine reports a fragility index: how many patients' outcomes must change for a significant
trial result to lose significance (Walsh et al. 2014), and its reverse for a non-significant one
(Khan et al. 2020). Here the unit is a data set and the change is its removal: for the omnibus
test's decision at alpha and each pair's decision under a post-hoc procedure, the smallest set of
data sets whose removal reverses it (a rejection becomes a non-rejection or the other way round),
with those data sets named. A conclusion that one data set reverses is carried by that data set.

The search (:func:`fragility`) tries removals in increasing size, so the first reversal found is
a smallest one; what makes 30 data sets tractable is in :func:`_bound_search`; the procedures
that re-rank what remains are searched by :mod:`stats.groupings._reranked`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from stats.core import PROCEDURE_NAMES, Printable, as_table, pairs
from stats.core.labels import OMNIBUS_NAMES
from stats.groupings._removal import (
    Cancelled,  # noqa: F401  (stats.Cancelled: what a cancelled search raises)
    Found,
    RankSums,
    checker,
    frame,
    method,
    omnibus_rejects,
    pair_decisions,
    rule,
)
from stats.groupings._reranked import full_search

#: Up to this many data sets the search is exact unless it runs out of budget; above it, only the
#: bounds at the root of each size are tried (a proven lower bound) and a greedy removal (a
#: reversal, hence an upper bound): ``exact`` is False unless the two meet.
MAX_EXACT_DATASETS = 30
#: The default budget of one decision's search on Friedman rank sums: nodes of the search (each a
#: bound on every completion, or an analysis of one removal).
RANK_SUMS_BUDGET = 20_000
#: The non-rejected pairs on rank sums share one pool of this many times the budget of one decision.
POOL = 3
#: The default budget of the other procedures: reduced tables analysed in all (each a full
#: recomputation: every pair's Wilcoxon test, or aligned or Quade ranks); shared by all decisions.
FULL_BUDGET = 300
#: The fewest data sets an analysis keeps (a table needs two).
KEEP = 2


@dataclass(frozen=True)
class OmnibusFragility(Printable):
    """The omnibus test's decision and its fragility (as a row of :attr:`Fragility.pairs`)."""

    test: str
    rejected: bool
    fragility: int | None
    removed: tuple[Any, ...]
    exact: bool
    at_least: int | None

    def __str__(self) -> str:
        return f"{OMNIBUS_NAMES[self.test]} {'rejects' if self.rejected else 'does not reject'}: " + _reversal(
            self.fragility, self.removed, self.exact, self.at_least
        )


@dataclass(frozen=True, eq=False)
class Fragility(Printable):
    """:func:`fragility`'s result: ``pairs`` (one row per pair), ``omnibus`` and what produced them."""

    pairs: pd.DataFrame
    omnibus: OmnibusFragility
    procedure: str
    test: str
    alpha: float
    n: int
    k: int
    replaced: str | None = None

    def __str__(self) -> str:
        lines = [f"fragility at alpha = {self.alpha:g} ({PROCEDURE_NAMES[self.procedure]}): {self.omnibus}"]
        row: Any
        for row in self.pairs.itertuples(index=False):
            f = None if pd.isna(row.fragility) else int(row.fragility)
            low = None if pd.isna(row.at_least) else int(row.at_least)
            what = "rejected" if row.rejected else "not rejected"
            lines.append(f"{row.a} vs {row.b} {what}: {_reversal(f, row.removed, row.exact, low)}")
        return "\n".join(lines)


def _reversal(size: int | None, removed: tuple[Any, ...], exact: bool, at_least: int | None) -> str:
    if size is None:
        return "no removal reverses it" if exact else f"no reversal found (it takes at least {at_least} data sets)"
    text = f"reversed by removing {size} data set{'s' * (size != 1)} ({', '.join(map(str, removed))})"
    return text if exact else f"{text}; the fewest is between {at_least} and {size}"


def fragility(
    scores: Any,
    *,
    procedure: str = "holm",
    alpha: float = 0.05,
    higher_is_better: bool = True,
    test: str = "friedman",
    omnibus: str = "friedman",
    budget: int | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Fragility:
    """The fewest data sets whose removal reverses each decision: the omnibus test's and each pair's.

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners.
    procedure : {"nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm"}
        How a pair is decided, as :func:`stats.verdict`'s ``rule``: Nemenyi by Demsar's critical
        difference on Friedman ranks (the verdict's, CD diagram's and letters' rule; the pairs
        table's ``nemenyi`` column, Bonferroni's m p, is not it); Holm, Shaffer and Bergmann-Hommel
        by their APVs of :func:`stats.pairwise_test` on the ranks of ``test`` (Shaffer's above
        Bergmann-Hommel's exact limit, as there); Wilcoxon-Holm and sign-Holm by
        :func:`stats.pairwise_wilcoxon`. A pair is rejected when its APV is <= alpha, whatever the
        omnibus test says (as the pairs view marks it).
    alpha : float, default 0.05
    higher_is_better : bool, default True
    test : {"friedman", "aligned", "quade"}
        The ranks behind the z of Holm, Shaffer and Bergmann-Hommel (ignored by the others).
    omnibus : {"friedman", "iman_davenport"}
        The omnibus test (p <= alpha rejects), as :func:`stats.verdict`'s.
    budget : int, optional
        How far a search may go before it settles for bounds. On Friedman rank sums, in steps (a
        node of the search; one exact Bergmann-Hommel computation counts
        :data:`stats.groupings._removal.BERGMANN_COST`): :data:`RANK_SUMS_BUDGET` by default for
        the omnibus decision and for each rejected pair, and one pool of :data:`POOL` times as many
        for all the non-rejected pairs (their searches are the longest and their answer the least asked). For
        the procedures that re-rank, reduced tables analysed, shared by all pairs:
        :data:`FULL_BUDGET` by default (every removal from up to 8 data sets), fewer above 10
        learners (as many pair tests in all as 10 learners' budget).
    cancelled : callable, optional
        A function of no argument, called between units of work (each node of a search, each APV
        computation, each reduced table analysed: a few milliseconds of work apart at most, at
        50 x 20 under Wilcoxon-Holm); once it returns True the search stops and raises
        :class:`stats.Cancelled`, keeping nothing. For a caller that runs this in a thread it may
        have to give up (a user interface whose selection changed): a thread cannot be stopped
        from outside. Without it (or while it returns False) the result is the same.

    Returns
    -------
    Fragility
        ``pairs``: one row per pair (the order of :func:`stats.pairwise_test`) with ``a``, ``b``,
        ``rejected`` (bool), ``fragility`` (nullable Int64: the fewest data sets whose removal
        reverses the decision; <NA> where no removal found does), ``removed`` (a tuple of those
        data sets' names, in the table's order), ``exact`` (bool) and ``at_least`` (Int64: the
        fewest that could, proven). ``omnibus``: the same for the omnibus test
        (:class:`OmnibusFragility`). Every analysis keeps at least two data sets.

    Raises
    ------
    Cancelled
        ``cancelled()`` returned True (:class:`stats.Cancelled`).

    Notes
    -----
    **What is exact.** Where ``exact`` is True, removing ``removed`` reverses the decision and no
    removal of fewer data sets does; with <NA>, no removal that leaves at least two data sets
    reverses it. Every smaller removal was analysed, or excluded by a bound that is a proof. Where
    ``exact`` is False, the search stopped (out of budget, or more than
    :data:`MAX_EXACT_DATASETS` data sets): ``fragility`` is then an upper bound, a removal found
    greedily that does reverse the decision (<NA> when none was found), and ``at_least`` a lower
    bound, the smallest size not excluded; the fewest lies between the two.

    **The search.** Sizes are tried in increasing order, so the first reversal found is a smallest
    one. Nemenyi, and Holm, Shaffer and Bergmann-Hommel on Friedman ranks, depend on the table only
    through N and the rank sums; so does the omnibus test, whatever the procedure. Removing data
    sets S turns the average ranks into (N R - sum_{i in S} r_i) / (N - |S|), so a pair's z is its
    rank-sum difference without S over sqrt((N - |S|) k (k + 1) / 6) (:mod:`stats.groupings._removal`).
    Each size is a branch and bound over the data sets (:func:`_bound_search`): whatever the
    remaining c data sets to remove are, each pair's rank-sum difference moves by between the sum
    of its c smallest and its c largest contributions there, which bounds every z (and Friedman's
    chi2); Holm, Shaffer and Bergmann-Hommel never raise an APV when a p-value falls, so APVs at
    the bounds bound the decision. Branches that cannot reverse it are cut, and a branch state is
    searched once (memoised by the removed rank sums). A greedy removal first gives an upper
    bound, so only smaller sizes are searched. The 30 x 10 case takes a tenth to a few tenths of
    a second with Holm (``benchmarks/bench_fragility.py``); Bergmann-Hommel's exact APVs cost
    milliseconds each, and seconds in all. The two-sample rules and aligned or Quade ranks re-rank
    what remains, so no sum decides them: every removal of 1, 2, ... data sets is analysed in
    full until the budget ends (all of them up to 8 data sets), then a greedy removal bounds the rest.

    Removing data sets changes N and every average rank (and so every pair's z), which is why a
    pair may be reversed by data sets on which the pair itself hardly differs. Removing learners
    also changes mean-rank decisions (Benavoli, Corani & Mangili 2016): :func:`stats.stability`
    reports that; fragility removes data sets only.

    References
    ----------
    M. Walsh et al., "The statistical significance of randomized controlled trial results is
    frequently fragile: a case for a Fragility Index", J. Clin. Epidemiol. 67(6):622-628, 2014;
    M. S. Khan et al., "Application of the reverse fragility index to statistically nonsignificant
    randomized clinical trial results", JAMA Netw. Open 3(8):e2012469, 2020; J. Demsar, JMLR 7:1-30,
    2006; A. Benavoli, G. Corani and F. Mangili, JMLR 17(5):1-10, 2016.

    Examples
    --------
    L1 wins on all six data sets; L2 and L3 take turns at second place. Friedman rejects (chi2 = 9,
    p = 0.011) until three data sets are gone; Nemenyi rejects L1 vs L2 (average ranks 1 and 2.5,
    CD = 1.353), but without D2, where L2 is last, they are 1.4 apart and the CD is 1.482:

    >>> import stats
    >>> table = [[0.9, 0.8, 0.7], [0.9, 0.7, 0.8]] * 3
    >>> res = stats.fragility(table, procedure="nemenyi")
    >>> res.omnibus.fragility, res.pairs["fragility"].tolist(), res.pairs.loc[0, "removed"]
    (3, [1, 1, <NA>], ('D2',))
    """
    r = rule(procedure, test, omnibus, alpha, higher_is_better)
    table = as_table(scores, higher_is_better=higher_is_better)
    check = checker(cancelled)
    check()
    whole = frame(table)
    targets = [omnibus_rejects(whole, r), *map(bool, pair_decisions(whole, r))]
    limit = table.n - KEEP
    steps = RANK_SUMS_BUDGET if budget is None else int(budget)
    # the omnibus test is on Friedman rank sums whatever the procedure
    rs = RankSums(table, r if r.on_rank_sums else replace(r, procedure="nemenyi"), check)
    found = [_rank_sums_search(rs, -1, targets[0], steps, limit)]
    if r.on_rank_sums:
        found += _pair_searches(rs, targets[1:], steps, limit)
    else:
        full = _full_budget(table) if budget is None else int(budget)
        found += full_search(table, r, targets[1:], full, limit, check)
    names = table.datasets

    def removed(f: Found) -> tuple[Any, ...]:
        return tuple(names[sorted(f.rows)])

    ia, ib = np.array(pairs(table.k), dtype=np.intp).reshape(-1, 2).T
    rows = found[1:]
    pairs_table = pd.DataFrame(
        {
            "a": table.learners[ia].tolist(),
            "b": table.learners[ib].tolist(),
            "rejected": np.array(targets[1:], dtype=bool),
            "fragility": pd.array([f.size for f in rows], dtype="Int64"),
            "removed": pd.Series([removed(f) for f in rows], dtype=object),
            "exact": np.array([f.exact for f in rows], dtype=bool),
            "at_least": pd.array([f.at_least for f in rows], dtype="Int64"),
        }
    )
    head = found[0]
    om = OmnibusFragility(r.omnibus, targets[0], head.size, removed(head), head.exact, head.at_least)
    replaced = None
    if method(r.procedure, table.k) != r.procedure:
        replaced = "Shaffer stands in for Bergmann-Hommel above its exact limit"
    return Fragility(pairs_table, om, r.procedure, r.test, r.alpha, table.n, table.k, replaced)


def _full_budget(table: Any) -> int:
    """:data:`FULL_BUDGET` reduced tables up to 10 learners (45 pairs); above, as many pair tests
    in all (an analysis tests every pair), but every removal of one data set."""
    m = table.k * (table.k - 1) // 2
    return min(FULL_BUDGET, max(table.n, FULL_BUDGET * 45 // max(m, 1)))


def _pair_searches(rs: RankSums, targets: list[bool], budget: int, limit: int) -> list[Found]:
    """Each pair's search on rank sums: a rejection with ``budget`` steps of its own, the
    non-rejections sharing one pool of :data:`POOL` times ``budget`` steps, each given an equal
    share of what is left.

    A rejection's fragility is what a reader asks of a significant difference (Walsh et al. 2014);
    how many removals would make a non-rejection significant (Khan et al. 2020) is told too, but it
    is most often large and its search the longest (a 30 x 10 table's took 25-37 s under
    Bergmann-Hommel with a budget each, before its one-pair decision). The pool bounds the whole;
    a search it cuts short is a bound (``exact`` False), labelled as such."""
    found: list[Found | None] = [None] * len(targets)
    waiting = [h for h, d in enumerate(targets) if not d]
    for h, d in enumerate(targets):
        if d:
            found[h] = _rank_sums_search(rs, h, d, budget, limit)
    pool = budget * POOL
    for i, h in enumerate(waiting):
        share = pool // (len(waiting) - i)
        steps = [share]
        found[h] = _rank_sums_search(rs, h, False, share, limit, steps)
        pool -= share - max(steps[0], 0)
    return [f for f in found if f is not None]


def _reverses(rs: RankSums, target: int, current: bool, removed: np.ndarray, s: int) -> bool:
    decided = rs.omnibus(removed, s) if target < 0 else rs.rejects_pair(removed, s, target)
    return decided != current


def _kept_bounds(
    rs: RankSums, target: int, removed: np.ndarray, chosen: int, low: np.ndarray, high: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Bounds on what decides ``target`` once ``removed`` (``chosen`` data sets) is out and a
    completion whose features lie in [low, high] too: each pair's kept doubled rank-sum
    difference, or the kept centred rank sums u (:meth:`RankSums.omnibus_sure`)."""
    if target < 0:
        u = rs.spread - (removed - chosen * (rs.k + 1))
        centre = np.concatenate([u, u @ rs.basis])
    else:
        centre = rs.totals - (removed[rs.ia] - removed[rs.ib])
    return centre - high, centre - low


def _sure(rs: RankSums, target: int, current: bool, bounds: tuple[np.ndarray, np.ndarray], s: int) -> int:
    """+1: every completion reverses the decision; -1: none does; 0: the bounds do not tell."""
    verdict = rs.omnibus_sure(*bounds, s) if target < 0 else rs.pair_sure(target, *bounds, s)
    return 0 if verdict == 0 else (1 if (verdict > 0) != current else -1)


def _features(rs: RankSums, target: int) -> np.ndarray:
    """What a data set adds to the bounded quantities of ``target`` (rows: data sets)."""
    return rs.omnibus_features() if target < 0 else rs.diffs


def _gain(rs: RankSums, target: int, current: bool, removed: np.ndarray, s: int) -> np.ndarray:
    """For each data set, how far its removal (after ``removed``) moves ``target`` towards a reversal:
    a pair's |kept rank-sum difference| or the omnibus test's sum of squared centred rank sums,
    lowered for a rejection, raised for a non-rejection."""
    if target < 0:
        kept = rs.total - removed - rs.twice - (rs.n - s - 1) * (rs.k + 1)
        size = np.sum(kept.astype(float) ** 2, axis=1)
    else:
        kept = rs.totals[target] - (removed[rs.ia[target]] - removed[rs.ib[target]])
        size = np.abs(kept - rs.diffs[:, target])
    return -size if current else size.astype(float)


def _greedy(rs: RankSums, target: int, current: bool, limit: int) -> tuple[int, ...] | None:
    """Remove, one at a time, the data set that moves ``target`` most towards a reversal (:func:`_gain`)
    until the decision reverses: a reversal (an upper bound on the fragility), or None."""
    removed = np.zeros(rs.k, dtype=np.int64)
    left = np.ones(rs.n, dtype=bool)
    rows: list[int] = []
    for s in range(1, limit + 1):
        rs.check()
        gain = np.where(left, _gain(rs, target, current, removed, s - 1), -np.inf)
        i = int(np.argmax(gain))
        rows.append(i)
        left[i] = False
        removed = removed + rs.twice[i]
        if _reverses(rs, target, current, removed, s):
            return tuple(rows)
    return None


class _Suffix:
    """For the data sets ``order[i:]``: the sums of the c smallest and of the c largest of each
    feature (every completion's features lie between them), made once per start i."""

    def __init__(self, features: np.ndarray) -> None:
        self.features = features
        self._made: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __call__(self, i: int, c: int) -> tuple[np.ndarray, np.ndarray]:
        made = self._made.get(i)
        if made is None:
            ordered = np.sort(self.features[i:], axis=0)
            zero = np.zeros((1, ordered.shape[1]), dtype=ordered.dtype)
            made = (np.vstack([zero, np.cumsum(ordered, axis=0)]), np.vstack([zero, np.cumsum(ordered[::-1], axis=0)]))
            self._made[i] = made
        return made[0][c], made[1][c]


def _rank_sums_search(
    rs: RankSums, target: int, current: bool, budget: int, limit: int, steps: list[int] | None = None
) -> Found:
    """The fragility of ``target`` (-1: the omnibus test; else a pair's position) on rank sums.

    A greedy removal first gives an upper bound U; then each size s < U, in increasing order, is
    searched by :func:`_bound_search`. The first size with a reversal is the fragility; if none
    below U has one, U is. Above :data:`MAX_EXACT_DATASETS`, only the root bound of each size is
    tried (no search), which may still prove sizes impossible or every removal of a size a reversal."""
    greedy = _greedy(rs, target, current, limit)
    upper = len(greedy) if greedy is not None else None
    exhaustive = rs.n <= MAX_EXACT_DATASETS
    steps = [budget] if steps is None else steps  # (what is left of it when the search ends)
    order = np.argsort(-_gain(rs, target, current, np.zeros(rs.k, dtype=np.int64), 0), kind="stable")
    suffix = _Suffix(_features(rs, target)[order])
    for s in range(1, (limit if upper is None else upper - 1) + 1):
        outcome = _bound_search(rs, target, current, s, order, suffix, steps if exhaustive else [0])
        if outcome is None:
            continue  # no removal of s data sets reverses it
        if outcome == ():  # the budget ran out (or no search above the limit): s is the least not excluded
            return Found(upper, greedy or (), False, s)
        return Found(s, outcome, True, s)
    return Found(upper, greedy or (), True, upper)


def _bound_search(
    rs: RankSums, target: int, current: bool, s: int, order: np.ndarray, suffix: _Suffix, steps: list[int]
) -> tuple[int, ...] | None:
    """A removal of exactly ``s`` data sets that reverses ``target`` (its rows), None when there is
    none, () when ``steps`` ran out first.

    Depth first over the data sets in ``order`` (those that move the decision most towards a
    reversal first), each either removed or kept. At each node every completion (c more data sets
    from the rest) adds to each feature between the sum of its c smallest and c largest values
    there (:class:`_Suffix`); with the removed rank sums so far that bounds each pair's z, or the
    Friedman statistic, and the monotone procedures turn those bounds into bounds on the decision
    (:meth:`RankSums.pair_sure`): a node where no completion can reverse it is cut, one where every
    completion does ends the search. A node is fixed by (next data set, c, removed rank sums), since
    what follows depends on nothing else: nodes met again are skipped (memoised), and analyses of a
    removal are cached by its rank sums."""
    stack: list[tuple[int, int, np.ndarray, tuple[int, ...]]] = [(0, s, np.zeros(rs.k, dtype=np.int64), ())]
    seen: set[tuple[int, int, bytes]] = set()
    twice = rs.twice[order]
    while stack:
        rs.check()  # (between two nodes: tens of microseconds apart, or an APV computation)
        i, c, removed, rows = stack.pop()
        spent = rs.spent
        if c == 0:
            if _reverses(rs, target, current, removed, s):
                return rows
            steps[0] -= rs.spent - spent
            continue
        key = (i, c, removed.tobytes())
        if key in seen:
            continue
        seen.add(key)
        sure = _sure(rs, target, current, _kept_bounds(rs, target, removed, s - c, *suffix(i, c)), s)
        steps[0] -= 1 + rs.spent - spent
        if sure < 0:
            continue
        if sure > 0:  # every completion reverses it: the first one will do
            done = removed + twice[i : i + c].sum(axis=0)
            if _reverses(rs, target, current, done, s):
                return rows + tuple(int(x) for x in order[i : i + c])
        if steps[0] < 0:
            return ()
        if rs.n - i - 1 >= c:
            stack.append((i + 1, c, removed, rows))
        stack.append((i + 1, c - 1, removed + twice[i], rows + (int(order[i]),)))
    return None
