"""The verdict of Menzies' notes (after Demsar 2006): no difference, or winners and losers."""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from stats.core import PROCEDURE_NAMES, RANKS_NAMES, Printable, check_alpha, check_choice, p_is
from stats.core.labels import OMNIBUS_NAMES
from stats.posthoc import BergmannLimitWarning, PairwiseTest, pairwise_test, pairwise_wilcoxon
from stats.ranking import critical_difference, friedman, iman_davenport

Omnibus = Literal["friedman", "iman_davenport"]
LoserRule = Literal["nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm"]
#: The rules whose APVs come from two-sample tests of each pair (:func:`stats.pairwise_wilcoxon`).
TWO_SAMPLE_RULES = {"wilcoxon-holm": "wilcoxon", "sign-holm": "sign"}
#: Slack for "at least CD apart" (average ranks are sums of halves divided by N).
_EPS = 1e-12


@dataclass(frozen=True)
class Verdict(Printable):
    """Outcome of the omnibus test and, when it rejects, the winners and losers that the
    rejected pairs of ``rule`` show (none when ``rule`` rejects no pair)."""

    outcome: Literal["no difference", "different"]
    winners: tuple[Hashable, ...]
    losers: tuple[Hashable, ...]
    best: Hashable
    alpha: float
    test: str
    pvalue: float
    rule: str
    cd: float | None
    #: The ranks behind the APVs of ``rule`` ("friedman", "aligned" or "quade"), and what
    #: stood in for Bergmann-Hommel above its exact limit (None when nothing did).
    ranks_test: str = "friedman"
    replaced: str | None = None

    @property
    def message(self) -> str:
        name = OMNIBUS_NAMES[self.test]
        if self.outcome == "no difference":
            k = len(self.winners) + len(self.losers)
            return (
                f"no significant difference among the {k} learners at alpha = {self.alpha:g} "
                f"({name} {p_is(self.pvalue)})"
            )
        procedure = PROCEDURE_NAMES[self.rule]
        on_ranks = self.cd is None and self.ranks_test != "friedman" and self.rule not in TWO_SAMPLE_RULES
        if not self.winners:  # the omnibus test rejects, the procedure rejects no pair: say both
            how = f"CD = {self.cd:.3f}" if self.cd is not None else "APVs over all pairs"
            if on_ranks:
                how += f", {RANKS_NAMES[self.ranks_test]} ranks"
            text = (
                f"{name} rejects equality ({p_is(self.pvalue)}); no pair differs under {procedure} "
                f"at alpha = {self.alpha:g} ({how})"
            )
            return text + (f"; {self.replaced}" if self.replaced else "")
        how = f"CD = {self.cd:.3f}" if self.cd is not None else f"{procedure} APVs"
        if on_ranks:
            how += f" on {RANKS_NAMES[self.ranks_test]} ranks"
        if self.replaced:
            how += f"; {self.replaced}"
        # Rank-based rules reject a pair the more readily the farther apart its average ranks, so
        # every loser is worse than the best (a winner); a two-sample test may separate a loser from
        # another winner only.
        one = self.rule not in TWO_SAMPLE_RULES or len(self.winners) == 1
        whom = f"worse than {self.best}" if one else "each worse than a winner"
        lose = ", ".join(map(str, self.losers)) if self.losers else "none"
        return (
            f"learners differ at alpha = {self.alpha:g} ({name} {p_is(self.pvalue)}): "
            f"winners {', '.join(map(str, self.winners))}; losers {lose} ({whom}, {how})"
        )

    def __str__(self) -> str:
        return self.message


def verdict(
    scores: Any,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    omnibus: Omnibus = "friedman",
    rule: LoserRule = "nemenyi",
    pairwise: PairwiseTest | None = None,
    test: Omnibus | None = None,
) -> Verdict:
    """Menzies' verdict: "no difference" unless the omnibus test rejects at alpha;
    otherwise the winners and losers that the pairs rejected by ``rule`` show.

    Parameters
    ----------
    omnibus : {"friedman", "iman_davenport"}
        The omnibus test that must reject first (``test=``, its old name, still works
        with a DeprecationWarning: elsewhere ``test`` names the ranks of a post-hoc).
    rule : {"nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm"}
        Which pairs are rejected. ``"nemenyi"``: the rule of Menzies' notes, two learners
        differ when their average ranks are at least CD apart (Demsar 2006, Sec. 3.2.2:
        "differ by at least the critical difference"). ``"holm"``, ``"shaffer"``,
        ``"bergmann"``: a pair is rejected when that procedure's APV over all pairs is <=
        alpha (Garcia & Herrera 2008; Friedman z statistics unless ``pairwise`` says
        otherwise). ``"wilcoxon-holm"`` and ``"sign-holm"``: the APVs of
        :func:`stats.pairwise_wilcoxon` (each pair's own Wilcoxon signed-ranks or sign test
        across the data sets, Holm-adjusted: Benavoli, Corani & Mangili 2016).
    pairwise : PairwiseTest or PairwiseTwoSample, optional
        :func:`stats.pairwise_test`'s result for these scores, to take the APVs of
        ``rule`` from (its ``test`` names the ranks behind them: Friedman,
        aligned or Quade), or :func:`stats.pairwise_wilcoxon`'s for the two-sample rules.
        Pass the table a pairs view shows so that the verdict and the view agree;
        computed (Friedman ranks; Holm-adjusted two-sample tests) when omitted.

    Returns
    -------
    Verdict
        ``outcome`` "no difference" (then ``winners`` holds every learner, Menzies' tie,
        and ``losers`` none) or "different"; ``winners`` and ``losers`` best first.

    Notes
    -----
    Winners and losers come only from rejected pairs, each oriented by average ranks
    (the axis of the CD diagram; equal ranks: the two-sample test's better learner, else
    column order). A winner is a learner that no rejected pair shows worse than another;
    a loser, a learner that some rejected pair shows worse than a winner. When the
    omnibus test rejects but ``rule`` rejects no pair, there are neither (both empty) and
    the message says so: "Friedman rejects equality (p = 0.0198); no pair differs under
    Holm at alpha = 0.05 (APVs over all pairs)". The omnibus test and a post-hoc procedure
    answer different questions and may disagree: the C4.5 example of Menzies' notes, after
    Demsar (2006), is such a case (Friedman rejects; no two average ranks are CD apart).

    For the rank-based rules a pair is rejected the more readily the farther apart its
    average ranks, so the best-ranked learner is a winner, the losers are the learners
    whose pair with it is rejected and the winners the remainder ("some are losers and the
    remainder are winners"). A two-sample rule may reject a pair without the best-ranked
    learner; its losers are then each worse than some winner, not necessarily the best.

    References
    ----------
    Menzies, notes on comparing learners ("Tie if Friedman says there is no different.
    Else some are losers and the remainder are winners"); J. Demsar, "Statistical
    comparisons of classifiers over multiple data sets", JMLR 7:1-30, 2006; S. Garcia and
    F. Herrera, "An extension on 'Statistical comparisons of classifiers over multiple data
    sets' for all pairwise comparisons", JMLR 9:2677-2694, 2008; A. Benavoli, G. Corani and
    F. Mangili, "Should we really use post-hoc tests based on mean-ranks?", JMLR 17(5):1-10,
    2016.

    Examples
    --------
    Friedman rejects (p = 0.0056) but with 6 data sets no Wilcoxon test reaches p < 1/32,
    and Holm multiplies the least by the 6 pairs:

    >>> table = [[0.9, 0.8, 0.7, 0.6]] * 3 + [[0.9, 0.7, 0.8, 0.6], [0.9, 0.6, 0.7, 0.8], [0.9, 0.8, 0.6, 0.7]]
    >>> print(verdict(table, rule="wilcoxon-holm"))
    Friedman rejects equality (p = 0.0056); no pair differs under Wilcoxon-Holm at alpha = 0.05 (APVs over all pairs)
    """
    if test is not None:  # the old name: elsewhere ``test`` names the ranks of a post-hoc test
        warnings.warn("verdict(test=...) is renamed omnibus=...", DeprecationWarning, stacklevel=2)
        omnibus = test
    test = omnibus
    a = check_alpha(alpha)
    check_choice("omnibus", test, ("friedman", "iman_davenport"))
    check_choice("rule", rule, ("nemenyi", "holm", "shaffer", "bergmann", *TWO_SAMPLE_RULES))
    fr = friedman(scores, higher_is_better=higher_is_better)
    pvalue = fr.pvalue if test == "friedman" else iman_davenport(scores, higher_is_better=higher_is_better).pvalue
    order = fr.ranks.sort_values(kind="stable")
    names = tuple(order.index)  # labels as given (an integer stays an integer)
    best = names[0]
    if not pvalue <= a:
        return Verdict("no difference", names, (), best, a, test, pvalue, rule, None)
    cd: float | None = None
    if rule == "nemenyi":
        cd = critical_difference(len(order), fr.n, alpha=a)
        rejected = _cd_rejections(order, cd)
    else:
        if pairwise is None and rule in TWO_SAMPLE_RULES:
            kind: Any = TWO_SAMPLE_RULES[rule]
            pw = pairwise_wilcoxon(scores, higher_is_better=higher_is_better, test=kind)
        elif pairwise is None:
            with warnings.catch_warnings():  # the replacement is named in the verdict instead
                warnings.simplefilter("ignore", BergmannLimitWarning)
                pw = pairwise_test(scores, test="friedman", higher_is_better=higher_is_better)
        else:
            pw = pairwise
        rejected = _apv_rejections(order, pw, rule, a)
    winners, losers = _winners_losers(names, rejected)
    ranks_test, replaced = "friedman", None
    if rule in TWO_SAMPLE_RULES:
        pass  # no ranks behind the APVs, and no stand-in
    elif rule != "nemenyi":
        ranks_test, note = str(pw.test), pw.bergmann
        replaced = str(note) if rule == "bergmann" and note != "exact" else None
    return Verdict("different", winners, losers, best, a, test, pvalue, rule, cd, ranks_test, replaced)


Rejection = tuple[Hashable, Hashable]  # (better, worse)


def _cd_rejections(order: pd.Series, cd: float) -> list[Rejection]:
    """The pairs whose average ranks are at least ``cd`` apart (Demsar 2006, Sec. 3.2.2), best first."""
    v = order.to_numpy()
    names = list(order.index)
    i, j = np.triu_indices(len(v), 1)  # every pair i < j at once, in the order of the loops over i, then j
    hit = np.flatnonzero(v[j] - v[i] >= cd - _EPS)
    return [(names[x], names[y]) for x, y in zip(i[hit].tolist(), j[hit].tolist())]


def _apv_rejections(order: pd.Series, pw: Any, rule: str, alpha: float) -> list[Rejection]:
    """The pairs of ``pw`` whose ``rule`` APV is <= alpha, each as (better, worse) by average rank."""
    position = {name: i for i, name in enumerate(order.index)}
    rank = order.to_dict()
    # only the rows rejected are read one by one (a row at a time over all pairs took seconds for
    # 1,000 learners); the others are skipped by one comparison of the column
    rows = np.flatnonzero(pw[rule].to_numpy(np.float64) <= alpha)
    a, b = pw["a"].to_numpy(dtype=object)[rows], pw["b"].to_numpy(dtype=object)[rows]
    better = pw["better"].to_numpy(dtype=object)[rows] if "better" in pw.columns else [""] * rows.size
    out = []
    for x, y, edge in zip(a, b, better):
        if x not in position or y not in position:
            continue
        if rank[x] == rank[y]:  # equal average ranks: the two-sample test's direction, else column order
            first = y if edge == y else x if edge == x else min((x, y), key=position.__getitem__)
        else:
            first = x if rank[x] < rank[y] else y
        out.append((first, y if first == x else x))
    return out


def _winners_losers(
    names: tuple[Hashable, ...], rejected: list[Rejection]
) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...]]:
    """Winners: no rejection shows them worse; losers: a rejection shows them worse than a winner.
    Both empty when nothing is rejected; listed in ``names``' order (best first)."""
    if not rejected:
        return (), ()
    worse = {w for _, w in rejected}
    winners = tuple(n for n in names if n not in worse)
    won = set(winners)
    beaten = {w for b, w in rejected if b in won}
    return winners, tuple(n for n in names if n in beaten)
