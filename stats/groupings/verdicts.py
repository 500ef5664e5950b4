"""The verdict of Menzies' notes (after Demsar 2006): no difference, or winners and losers."""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from stats.core import PROCEDURE_NAMES, RANKS_NAMES, Printable, check_alpha, check_choice, p_is
from stats.posthoc import BergmannLimitWarning, PairwiseTest, pairwise_test, pairwise_wilcoxon
from stats.ranking import critical_difference, friedman, iman_davenport

Omnibus = Literal["friedman", "iman_davenport"]
LoserRule = Literal["nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm"]
#: The rules whose APVs come from two-sample tests of each pair (:func:`stats.pairwise_wilcoxon`).
TWO_SAMPLE_RULES = {"wilcoxon-holm": "wilcoxon", "sign-holm": "sign"}


@dataclass(frozen=True)
class Verdict(Printable):
    """Outcome of the omnibus test and, when it rejects, who loses to the best learner."""

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
        name = {"friedman": "Friedman", "iman_davenport": "Iman-Davenport"}[self.test]
        k = len(self.winners) + len(self.losers)
        if self.outcome == "no difference":
            return (
                f"no significant difference among the {k} learners at alpha = {self.alpha:g} "
                f"({name} {p_is(self.pvalue)})"
            )
        how = f"CD = {self.cd:.3f}" if self.cd is not None else f"{PROCEDURE_NAMES[self.rule]} APVs"
        if self.cd is None and self.ranks_test != "friedman" and self.rule not in TWO_SAMPLE_RULES:
            how += f" on {RANKS_NAMES[self.ranks_test]} ranks"
        if self.replaced:
            how += f"; {self.replaced}"
        lose = ", ".join(map(str, self.losers)) if self.losers else "none"
        return (
            f"learners differ at alpha = {self.alpha:g} ({name} {p_is(self.pvalue)}): "
            f"winners {', '.join(map(str, self.winners))}; losers {lose} (worse than {self.best}, {how})"
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
    otherwise the losers are the learners significantly worse than the best-ranked
    one and the winners are the rest.

    Parameters
    ----------
    omnibus : {"friedman", "iman_davenport"}
        The omnibus test that must reject first (``test=``, its old name, still works
        with a DeprecationWarning: elsewhere ``test`` names the ranks of a post-hoc).
    rule : {"nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm"}
        ``"nemenyi"``: the rule of Menzies' notes, a learner loses when its average rank
        is at least CD worse than the best (Demsar: "differ by at least the
        critical difference"). The others: a learner loses when the pair
        (best, learner) is rejected by that procedure's APV over all pairs
        (Friedman z statistics unless ``pairwise`` says otherwise).
        ``"wilcoxon-holm"`` and ``"sign-holm"`` take the APVs of
        :func:`stats.pairwise_wilcoxon` (each pair's own Wilcoxon signed-ranks or sign test
        across the data sets, Holm-adjusted: Benavoli, Corani & Mangili 2016); the best is
        still the learner of the best average rank.
    pairwise : PairwiseTest or PairwiseTwoSample, optional
        :func:`stats.pairwise_test`'s result for these scores, to take the APVs of
        ``rule`` from (its ``test`` names the ranks behind them: Friedman,
        aligned or Quade), or :func:`stats.pairwise_wilcoxon`'s for the two-sample rules.
        Pass the table a pairs view shows so that the verdict and the view agree;
        computed (Friedman ranks; Holm-adjusted two-sample tests) when omitted.

    Notes
    -----
    Winners and losers are listed best first. When several learners share the
    best average rank, the first in column order is the reference.

    References
    ----------
    Menzies, notes on comparing learners ("Tie if Friedman says there is no different.
    Else some are losers and the remainder are winners"); Demsar (2006) JMLR 7.
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
        lost = (order - order.iloc[0]).to_numpy() >= cd - 1e-12
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
        involved = (pw["a"] == order.index[0]) | (pw["b"] == order.index[0])
        rejected = pw.loc[involved & (pw[rule] <= a)]
        beaten = set(rejected["a"]) | set(rejected["b"])
        lost = np.array([name in beaten and name != order.index[0] for name in order.index])
    winners = tuple(n for n, x in zip(names, lost) if not x)
    losers = tuple(n for n, x in zip(names, lost) if x)
    ranks_test, replaced = "friedman", None
    if rule in TWO_SAMPLE_RULES:
        pass  # no ranks behind the APVs, and no stand-in
    elif rule != "nemenyi":
        ranks_test, note = str(pw.test), pw.bergmann
        replaced = str(note) if rule == "bergmann" and note != "exact" else None
    return Verdict("different", winners, losers, best, a, test, pvalue, rule, cd, ranks_test, replaced)
