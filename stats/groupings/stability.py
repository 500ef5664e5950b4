"""How stable each conclusion is: does it hold when one data set, or one other learner, is left out?

For the omnibus test's decision, each pair's decision and each learner's part in the verdict
(winner, loser), the analysis is repeated leaving out each data set in turn and, for the
procedures on mean ranks, each other learner: a mean-rank post-hoc compares two learners through
ranks that every other learner in the table moves (Benavoli, Corani & Mangili 2016), so a
conclusion about A and B may depend on whether C was in the comparison. A conclusion that holds in
every such analysis is not carried by any single data set or learner; the ones whose removal alone
reverses it are named.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd

from stats.core import PROCEDURE_NAMES, Printable, Table, as_table, pairs
from stats.core.labels import OMNIBUS_NAMES
from stats.groupings._removal import RankSums, Rule, checker, frame, go_on, nemenyi_rejects, pairwise, rule
from stats.groupings.verdicts import Verdict, verdict
from stats.posthoc.ztests import PairwiseTest, standard_error
from stats.ranking import AverageRanks, mean_ranks

#: A learner's part in a verdict: "winner", "loser", "neither" (when the omnibus test rejects), or
#: "tie" for every learner when it does not (Menzies' "no difference": the verdict lists them all
#: as winners, which is not a win).
ROLES = ("winner", "loser", "neither", "tie")


@dataclass(frozen=True)
class OmnibusStability(Printable):
    """The omnibus test's decision and in how many of the analyses without one data set (or
    learner) it holds; ``datasets`` and ``learners``: those whose removal alone reverses it."""

    test: str
    rejected: bool
    held: int
    analyses: int
    share: float
    datasets: tuple[Hashable, ...]
    learners: tuple[Hashable, ...]

    def __str__(self) -> str:
        what = "rejects" if self.rejected else "does not reject"
        return f"{OMNIBUS_NAMES[self.test]} {what}: {_held(self.held, self.analyses, self.datasets, self.learners)}"


@dataclass(frozen=True, eq=False)
class Stability(Printable):
    """:func:`stability`'s result: ``omnibus``, ``pairs`` and ``roles`` (tables), the ``verdict`` of
    all the data, and what produced them (``learners_left_out``: whether other learners were)."""

    omnibus: OmnibusStability
    pairs: pd.DataFrame
    roles: pd.DataFrame
    verdict: Verdict
    procedure: str
    test: str
    alpha: float
    n: int
    k: int
    learners_left_out: bool

    def __str__(self) -> str:
        lines = [f"stability at alpha = {self.alpha:g} ({PROCEDURE_NAMES[self.procedure]}): {self.omnibus}"]
        row: Any
        role: Any
        for row in self.pairs.itertuples(index=False):
            what = "rejected" if row.rejected else "not rejected"
            lines.append(f"{row.a} vs {row.b} {what}: {_held(row.held, row.analyses, row.datasets, row.learners)}")
        for name, role in zip(self.roles.index, self.roles.itertuples(index=False)):
            lines.append(f"{name} {role.role}: {_held(role.held, role.analyses, role.datasets, role.learners)}")
        return "\n".join(lines)


def _held(held: int, analyses: int, datasets: tuple[Any, ...], learners: tuple[Any, ...]) -> str:
    if analyses == 0:
        return "nothing to leave out"
    if held == analyses:
        return f"holds in all {analyses} analyses leaving one out"
    without = ", ".join(f"without {x}" for x in (*datasets, *learners))
    return f"holds in {held} of {analyses} analyses leaving one out; reverses {without}"


@dataclass(frozen=True)
class _Outcome:
    """One analysis: the omnibus decision, each pair's (``pairs`` order of its learners) and each
    learner's role."""

    omnibus: bool
    rejected: np.ndarray
    roles: dict[Hashable, str]


def _roles(v: Verdict, learners: Any) -> dict[Hashable, str]:
    if v.outcome == "no difference":
        return {x: "tie" for x in learners}
    won, lost = set(v.winners), set(v.losers)
    return {x: "winner" if x in won else "loser" if x in lost else "neither" for x in learners}


def _analysis(scores: pd.DataFrame, r: Rule) -> tuple[_Outcome, Verdict]:
    """The analysis of ``scores`` by the public functions: the verdict of ``r`` (:func:`stats.verdict`
    given the APV table of :func:`stats.groupings._removal.pairwise`, as the views pass it) and the
    pairs' decisions it rests on."""
    table = pairwise(scores, r)
    v = verdict(
        scores,
        alpha=r.alpha,
        higher_is_better=r.higher_is_better,
        omnibus=r.omnibus,  # type: ignore[arg-type]
        rule=r.procedure,  # type: ignore[arg-type]
        pairwise=table,
    )
    if table is None:  # Nemenyi: the verdict's CD on Friedman ranks
        ranked = as_table(scores, higher_is_better=r.higher_is_better)
        rejected = nemenyi_rejects(mean_ranks(ranked).ranks.to_numpy(), ranked.n, r.alpha)
    else:
        rejected = table[r.procedure].to_numpy(np.float64) <= r.alpha
    return _Outcome(v.outcome == "different", rejected, _roles(v, scores.columns)), v


def _without_each_data_set(table: Table, r: Rule, check: Callable[[], None] = go_on) -> list[_Outcome]:
    """The analyses without each data set in turn (``check`` called before each). On Friedman rank
    sums (:class:`RankSums`) they are computed together: every average rank without data set i is
    (N R - r_i) / (N - 1), every z at once (:meth:`RankSums.apvs`); the verdict of each is
    :func:`stats.verdict` of those ranks and APVs."""
    if not r.on_rank_sums:
        return [_checked(check, _analysis, frame(table, np.delete(np.arange(table.n), i)), r) for i in range(table.n)]
    rs = RankSums(table, r, check)
    n = table.n - 1
    average = (rs.total[None, :] - rs.twice) / (2.0 * n)  # row i: without data set i
    apvs = None if r.procedure == "nemenyi" else rs.apvs(average, n)
    out = []
    for i in range(table.n):
        check()
        ranks = AverageRanks(pd.Series(average[i], index=table.learners), n)
        pw = None if apvs is None else _pairwise_test(rs, average[i], apvs[i], n)
        v = verdict(ranks, alpha=r.alpha, omnibus=r.omnibus, rule=r.procedure, pairwise=pw)  # type: ignore[arg-type]
        rejected = nemenyi_rejects(average[i], n, r.alpha) if apvs is None else apvs[i] <= r.alpha
        out.append(_Outcome(rs.omnibus(rs.twice[i], 1), rejected, _roles(v, table.learners)))
    return out


def _checked(check: Callable[[], None], analysis: Callable[..., tuple[_Outcome, Verdict]], *args: Any) -> _Outcome:
    """``analysis(*args)``'s outcome, after ``check()`` (which raises to stop)."""
    check()
    return analysis(*args)[0]


def _pairwise_test(rs: RankSums, average: np.ndarray, apv: np.ndarray, n: int) -> PairwiseTest:
    """The table :func:`stats.verdict` reads (``a``, ``b`` and the procedure's APVs), as a
    :class:`stats.PairwiseTest` of Friedman ranks."""
    columns = {"a": rs.learners[rs.ia].tolist(), "b": rs.learners[rs.ib].tolist(), rs.rule.procedure: apv}
    note = "exact" if rs.method == rs.rule.procedure else "Shaffer's APVs above the exact limit"
    ranks = pd.Series(average, index=rs.learners)
    se = standard_error("friedman", rs.k, n)
    return PairwiseTest(pd.DataFrame(columns), test="friedman", se=se, n=n, ranks=ranks, bergmann=note)


def stability(
    scores: Any,
    *,
    procedure: str = "holm",
    alpha: float = 0.05,
    higher_is_better: bool = True,
    test: str = "friedman",
    omnibus: str = "friedman",
    cancelled: Callable[[], bool] | None = None,
) -> Stability:
    """Leave-one-out stability of the omnibus decision, each pair's decision and the verdict.

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners.
    procedure, alpha, higher_is_better, test, omnibus
        The analysis, as :func:`stats.fragility` takes it (a pair is rejected when its APV, or
        Nemenyi's CD on Friedman ranks, says so; the verdict is :func:`stats.verdict`'s with
        ``rule=procedure``).
    cancelled : callable, optional
        As :func:`stats.fragility`'s: called before each analysis leaving one out; once it
        returns True, :class:`stats.Cancelled` is raised and nothing is kept.

    Returns
    -------
    Stability
        ``omnibus`` (:class:`OmnibusStability`); ``pairs``: one row per pair (the order of
        :func:`stats.pairwise_test`) with ``a``, ``b``, ``rejected`` (all the data), ``held`` and
        ``analyses`` (in how many of the analyses leaving one out the decision is the same),
        ``share`` (held / analyses), ``datasets`` and ``learners`` (tuples: those whose removal
        alone reverses it); ``roles``: one row per learner (index) with ``role`` (winner, loser,
        neither, or tie when the omnibus test does not reject: :data:`ROLES`) and the same
        columns for that role; ``verdict``: the verdict of all the data.

    Notes
    -----
    The analyses: without each data set (N of them, when at least two remain), and for the
    procedures on mean ranks (Nemenyi, Holm, Shaffer, Bergmann-Hommel, on any ranks) without each
    other learner: a pair's decision is recomputed without each of the k - 2 other learners, a
    learner's role without each of the k - 1 others, the omnibus decision without each of the k
    (when at least two learners remain). The two-sample rules (Wilcoxon-Holm, sign-Holm) test each
    pair on its own two columns, so other learners are not left out for them. Every analysis is
    the public functions' on the reduced table, so a share counts exactly what a reader would get
    by deleting the row or column and running the analysis again.

    References
    ----------
    A. Benavoli, G. Corani and F. Mangili, "Should we really use post-hoc tests based on
    mean-ranks?", JMLR 17(5):1-10, 2016; J. Demsar, JMLR 7:1-30, 2006 (average ranks, Eq. 1).

    Examples
    --------
    L1 wins on all six data sets; L2 and L3 take turns at second place. Nemenyi's rejection of
    L1 vs L2 does not survive leaving out any of the three data sets where L2 is last, and
    Friedman's rejection does not survive leaving out L1:

    >>> import stats
    >>> table = [[0.9, 0.8, 0.7], [0.9, 0.7, 0.8]] * 3
    >>> res = stats.stability(table, procedure="nemenyi")
    >>> row = res.pairs.iloc[0]
    >>> f"{row.a} vs {row.b}: {row.held} of {row.analyses}", row.datasets, res.omnibus.learners
    ('L1 vs L2: 4 of 7', ('D2', 'D4', 'D6'), ('L1',))
    """
    r = rule(procedure, test, omnibus, alpha, higher_is_better)
    table = as_table(scores, higher_is_better=higher_is_better)
    check = checker(cancelled)
    check()
    full, v = _analysis(frame(table), r)
    k, names = table.k, table.learners
    by_data = list(zip(table.datasets, _without_each_data_set(table, r, check) if table.n > 2 else []))
    left_out = r.mean_rank and k > 2
    keep = [np.delete(np.arange(k), y) for y in range(k)] if left_out else []
    by_learner = [(names[y], _checked(check, _analysis, frame(table, columns=cols), r)) for y, cols in enumerate(keep)]

    def tally(full_decision: Any, decided: Any, leave: Any = ()) -> tuple[int, int, float, tuple, tuple]:
        """Held, analyses, share and the data sets and learners whose removal reverses it;
        ``decided(outcome, learner left out or None)`` is the decision of one analysis."""
        data = [(d, decided(o, None)) for d, o in by_data]
        learners = [(y, decided(o, y)) for y, o in by_learner if y not in leave]
        held = [name for name, x in data + learners if x == full_decision]
        n = len(data) + len(learners)
        return (len(held), n, _share(len(held), n), _reversed(full_decision, data), _reversed(full_decision, learners))

    omnibus_row = OmnibusStability(r.omnibus, full.omnibus, *tally(full.omnibus, lambda o, y: o.omnibus))
    pair_rows = []
    for h, (a, b) in enumerate(pairs(k)):

        def decided(o: _Outcome, y: Any, h: int = h, a: int = a, b: int = b) -> bool:
            return bool(o.rejected[h if y is None else _reduced_pair(a, b, cast(int, names.get_loc(y)), k)])

        rejected = bool(full.rejected[h])
        pair_rows.append((names[a], names[b], rejected, *tally(rejected, decided, (names[a], names[b]))))
    role_rows = [(full.roles[x], *tally(full.roles[x], lambda o, y, x=x: o.roles[x], (x,))) for x in names]
    columns = ["held", "analyses", "share", "datasets", "learners"]
    pairs_table = pd.DataFrame(pair_rows, columns=["a", "b", "rejected", *columns])
    roles = pd.DataFrame(role_rows, columns=["role", *columns], index=pd.Index(names, name="learner"))
    return Stability(omnibus_row, pairs_table, roles, v, r.procedure, r.test, r.alpha, table.n, k, left_out)


def _reversed(full_decision: Any, decided: list[tuple[Hashable, Any]]) -> tuple[Hashable, ...]:
    return tuple(name for name, x in decided if x != full_decision)


def _share(held: int, analyses: int) -> float:
    return held / analyses if analyses else float("nan")


def _reduced_pair(a: int, b: int, y: int, k: int) -> int:
    """The position of pair (a, b) among the pairs of the k - 1 learners left without learner y."""
    a2, b2 = a - (a > y), b - (b > y)
    return pairs(k - 1).index((a2, b2))
