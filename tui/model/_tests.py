"""The ranks, tests and pairs views: every number from :mod:`stats`, arranged here."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

import stats
from stats.groupings.groups import EPS as CD_SLACK
from tui.model._effects import TWO_SAMPLE, pair_effects
from tui.model._tests_extra import tests_extra
from tui.model._types import CDView, PairsView, RanksView, Selection, TestsView

OMNIBUS = tuple(stats.OMNIBUS_NAMES)


def ranks_view(scores: stats.ScoresTable, higher: bool, ranked: stats.RankedTable | None = None) -> RanksView:
    """Medians, ranks, average ranks, the best learner(s) of each data set and the left-out data sets.

    ``ranked``: ``stats.ranked_table`` of ``scores`` (its ranks computed once for every view)."""
    data: Any = scores if ranked is None else ranked
    ranks = stats.ranks(data, higher_is_better=higher)
    average = stats.average_ranks(data, higher_is_better=higher).ranks
    low = ranks.to_numpy().min(axis=1, keepdims=True)
    cols = [str(c) for c in ranks.columns]
    best = {
        str(d): tuple(c for c, hit in zip(cols, row) if hit) for d, row in zip(ranks.index, ranks.to_numpy() == low)
    }
    excluded = {str(d): str(why) for d, why in scores.excluded.items()}
    return RanksView(medians=scores.table, ranks=ranks, average=average, best=best, excluded=excluded)


def best_ranked(average: pd.Series) -> str:
    """The learner with the lowest average rank (ties: the first in column order)."""
    return str(average.index[int(np.argmin(average.to_numpy()))])


def safety_message(scores: pd.DataFrame | stats.RankedTable, alpha: float) -> str:
    """``stats.parametric_safety``'s sentence, or why it could not be assessed (fewer than 3 data sets)."""
    ranked = isinstance(scores, stats.RankedTable)
    n = scores.n if ranked else scores.shape[0]
    if n < 3:
        return f"parametric safety not assessed: it needs at least 3 data sets, got {n}"
    higher = scores.higher_is_better if ranked else True  # (the tests do not depend on it)
    return stats.parametric_safety(scores, alpha=alpha, higher_is_better=higher).message


def pairwise_table(
    scores: stats.ScoresTable | stats.RankedTable, sel: Selection, bergmann: bool = True
) -> stats.PairwiseTest:
    """``stats.pairwise_test`` on ``sel.test`` ranks; above Bergmann-Hommel's exact limit its
    column holds Shaffer's APVs and its ``bergmann`` says so (the views name it). ``bergmann``
    False: without that column (exact Bergmann-Hommel costs up to seconds at k = 16)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.BergmannLimitWarning)
        test: Any = sel.test  # validated by Selection
        return stats.pairwise_test(scores, test=test, higher_is_better=sel.higher_is_better, bergmann=bergmann)


def with_bergmann(light: stats.PairwiseTest) -> stats.PairwiseTest:
    """:func:`pairwise_table`'s full table from one made without Bergmann-Hommel: the same test
    from its average ranks (``stats.pairwise_test_from_ranks``: the same floats, no ranking)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.BergmannLimitWarning)
        test: Any = light.test
        return stats.pairwise_test_from_ranks(light.ranks, light.n, test=test)


def replaced_note(table: stats.PairwiseTest, procedure: str) -> str | None:
    """Why ``procedure``'s column holds another procedure's APVs, or None."""
    if procedure != "bergmann" or table.bergmann == "exact":
        return None
    return f"Shaffer stands in for Bergmann-Hommel (exact up to {stats.MAX_EXACT_K} learners)"


def tests_view(
    scores: stats.ScoresTable,
    sel: Selection,
    average: pd.Series,
    safety: str,
    pairwise: Callable[[], stats.PairwiseTest],
    ranked: stats.RankedTable | None = None,
    incomplete: Incomplete | None = None,
) -> TestsView:
    """Verdict, omnibus tests, CD and the control table (``stats.control_test``).

    The verdict follows ``sel.procedure``: Nemenyi's CD rule, or the procedure's APVs from
    ``pairwise()`` (the very table of the pairs view), so that it agrees with that view. Its
    winners and losers come only from that procedure's rejected pairs (``stats.verdict``): when
    the omnibus test rejects and the procedure rejects no pair, the sentence says so and both
    lists are empty. Every report format and the panel print ``verdict`` as it is.

    ``incomplete`` (:func:`incomplete_tests`): Skillings-Mack's test when selected data sets miss
    results. The verdict stays Friedman's on the complete data sets, the data of every procedure
    that names winners and losers, and then says so and what Skillings-Mack finds with the others.
    """
    higher, alpha = sel.higher_is_better, sel.alpha
    n, k = scores.shape
    data: Any = scores if ranked is None else ranked  # ranked: ranked once for every statistic
    results: dict[str, Any] = {
        "friedman": stats.friedman(data, higher_is_better=higher),
        "iman_davenport": stats.iman_davenport(data, higher_is_better=higher),
        "aligned": stats.friedman_aligned(data, higher_is_better=higher),
        "quade": stats.quade(data, higher_is_better=higher),
    }
    omnibus = pd.DataFrame(
        {
            "statistic": [float(results[t].statistic) for t in OMNIBUS],
            "pvalue": [float(results[t].pvalue) for t in OMNIBUS],
            "df": pd.Series([results[t].df for t in OMNIBUS], dtype=object).to_numpy(),
        },
        index=pd.Index(OMNIBUS, name="test"),
    )
    rule: Any = sel.procedure
    table_ = None if rule == "nemenyi" else pairwise()
    v = stats.verdict(data, alpha=alpha, higher_is_better=higher, rule=rule, pairwise=table_)
    message = v.message if incomplete is None else v.message + "; " + tested_with(incomplete, v.pvalue, alpha)
    control = sel.control if sel.control is not None and sel.control in scores.columns else best_ranked(average)
    test: Any = sel.test  # validated by Selection
    table = stats.control_test(data, control, test=test, alpha=alpha, higher_is_better=higher)
    return TestsView(
        alpha=alpha,
        verdict=message,
        outcome=v.outcome,
        winners=v.winners,
        losers=v.losers,
        omnibus=omnibus,
        cd=float(stats.critical_difference(k, n, alpha=alpha)),
        control=str(control),
        control_table=table.table,
        safety=safety,
        extra=tests_extra(data, str(control), best_ranked(average), alpha, higher),
        incomplete=incomplete,
    )


@dataclass(frozen=True, eq=False)
class Incomplete:
    """Skillings & Mack's (1981) test beside Friedman's when selected data sets miss some learners'
    results (issue 31): ``result`` (``stats.skillings_mack`` on the complete data sets and those),
    ``complete`` the data sets Friedman and every other test of the view use, ``kept`` the data sets
    with missing results that Skillings-Mack uses too, and ``dropped`` those it leaves out (a
    single result: nothing to rank)."""

    result: stats.SkillingsMackResult
    complete: int
    kept: tuple[str, ...]
    dropped: tuple[str, ...]


def partial_rows(scores: stats.ScoresTable, cells: pd.DataFrame) -> pd.DataFrame:
    """The left-out data sets (``scores.excluded``) that have a result for some selected learner, as
    rows of the table (the same summary, NaN where a result is missing), in the selection's order.
    ``cells``: the aggregate of the criterion, indexed by data set and learner."""
    names = [str(d) for d in scores.excluded]
    column = cells[scores.statistic]
    wide = column[column.index.get_level_values("dataset").isin(names)].unstack()
    rows = wide.reindex(index=[d for d in names if d in wide.index], columns=scores.columns)
    return rows[rows.notna().any(axis=1)].astype(float)


def incomplete_tests(scores: stats.ScoresTable, cells: pd.DataFrame, higher: bool) -> Incomplete | None:
    """Skillings-Mack's test on the complete data sets and the left-out ones with at least two
    results (``stats.skillings_mack``); None when there are none (nothing to add to Friedman's)."""
    if not scores.excluded:  # (the common case: no work at all)
        return None
    extra = partial_rows(scores, cells)
    kept = extra.notna().sum(axis=1) >= 2
    if not kept.any():
        return None
    result = stats.skillings_mack(pd.concat([scores.table, extra]), higher_is_better=higher)
    return _incomplete(result, scores, extra)


def _incomplete(result: stats.SkillingsMackResult, scores: stats.ScoresTable, extra: pd.DataFrame) -> Incomplete:
    """``result`` of the complete data sets of ``scores`` and the left-out ``extra`` (:func:`partial_rows`)
    with the data sets it keeps (two results or more) and those it drops."""
    kept = extra.notna().sum(axis=1) >= 2
    names = tuple(str(d) for d in extra.index)
    return Incomplete(
        result=result,
        complete=int(scores.shape[0]),
        kept=tuple(d for d, k in zip(names, kept) if k),
        dropped=tuple(d for d, k in zip(names, kept) if not k),
    )


def tested_with(incomplete: Incomplete, friedman_p: float, alpha: float) -> str:
    """The verdict's last words when data sets miss results: the test it used (Friedman on the complete
    data sets) and what Skillings-Mack says with the incomplete ones."""
    sm = incomplete.result
    rejects, friedman_rejects = sm.pvalue <= alpha, friedman_p <= alpha
    says = {
        (True, True): "also rejects",
        (True, False): "rejects",
        (False, True): "does not reject",
        (False, False): "does not reject either",
    }[(rejects, friedman_rejects)]
    return (
        f"test: Friedman on the {incomplete.complete} complete data sets (Skillings-Mack, adding the "
        f"{len(incomplete.kept)} with missing results: {says}, {stats.p_is(sm.pvalue)})"
    )


def _two_sample(fn: Any, a: np.ndarray, b: np.ndarray, higher: bool) -> Any:
    try:
        return fn(a, b, higher_is_better=higher)
    except ValueError as exc:
        return f"not computable: {exc}"


def default_pair(average: pd.Series, requested: Sequence[str] | None) -> tuple[str, str]:
    """``requested`` when both are selected and distinct, else the best versus the second best."""
    names = [str(x) for x in average.index]
    if requested is not None and len(requested) == 2 and requested[0] != requested[1]:
        if requested[0] in names and requested[1] in names:
            return (str(requested[0]), str(requested[1]))
    order = average.sort_values(kind="stable").index
    return (str(order[0]), str(order[1]))


def _cd_rule(
    names: list[Any], average: pd.Series, n: int, alpha: float, tukey: pd.DataFrame | None
) -> tuple[pd.DataFrame, float, pd.DataFrame]:
    """Nemenyi as Demsar (2006, Sec. 3.2.2) tests it: the matrix of Tukey's p-values on Friedman's
    average ranks (``tukey``, else ``stats.nemenyi_tukey_p``), the critical difference, and the
    pairs it separates, |R_a - R_b| >= CD (the slack of ``stats.cd_groups``): the decision of the
    CD diagram, the verdict and the fragility, which the p-values' own p <= alpha equals but
    within rounding of the CD."""
    r = average.reindex(names)
    p = (stats.nemenyi_tukey_p(r, n) if tukey is None else tukey).reindex(index=names, columns=names)
    m = p.to_numpy(np.float64, copy=True)
    np.fill_diagonal(m, np.nan)  # (no pair: "-", as the other procedures' matrices)
    index = pd.Index(names)
    cd = float(stats.critical_difference(len(names), n, alpha=alpha))
    v = r.to_numpy(np.float64)
    apart = np.abs(v[:, None] - v[None, :]) >= cd - CD_SLACK
    np.fill_diagonal(apart, False)
    return pd.DataFrame(m, index=index, columns=index), cd, pd.DataFrame(apart, index=index, columns=index)


def pairs_view(
    scores: stats.ScoresTable,
    sel: Selection,
    average: pd.Series,
    table: stats.PairwiseTest,
    two_sample: stats.PairwiseTwoSample | None = None,
    ranked: stats.RankedTable | None = None,
    tukey: pd.DataFrame | None = None,
) -> PairsView:
    """The k x k matrix of ``sel.procedure`` APVs (``table``, on ``sel.test`` ranks; ``two_sample``'s
    for the two-sample procedures), two-sample tests, effect sizes, contrasts. Under Nemenyi the
    matrix is Tukey's p-values on Friedman's ranks and its marks the CD's (:func:`_cd_rule`;
    ``tukey``: ``stats.nemenyi_tukey_p`` of ``average``, when made already)."""
    higher = sel.higher_is_better
    names = list(scores.columns)
    cd = rejected = None
    if sel.procedure == "nemenyi":
        matrix, cd, rejected = _cd_rule(names, average, int(scores.shape[0]), sel.alpha, tukey)
    else:
        pos = {name: i for i, name in enumerate(names)}
        m = np.full((len(names), len(names)), np.nan)
        apvs = table if two_sample is None else two_sample
        ia, ib = apvs["a"].map(pos).to_numpy(int), apvs["b"].map(pos).to_numpy(int)
        m[ia, ib] = m[ib, ia] = apvs[sel.procedure].to_numpy(np.float64)
        matrix = pd.DataFrame(m, index=pd.Index(names), columns=pd.Index(names))
    pair = default_pair(average, sel.pair)
    a, b = scores[pair[0]].to_numpy(np.float64), scores[pair[1]].to_numpy(np.float64)
    return PairsView(
        alpha=sel.alpha,
        procedure=sel.procedure,
        replaced=replaced_note(table, sel.procedure),
        matrix=matrix,
        table=table,
        pair=pair,
        wilcoxon=_two_sample(stats.wilcoxon, a, b, higher),
        sign=_two_sample(stats.sign_test, a, b, higher),
        contrast=stats.contrast_estimation(scores if ranked is None else ranked, higher_is_better=higher),
        two_sample=two_sample,
        effects=pair_effects(scores, (pair[1], pair[0]), higher),  # as the view names it: b vs a
        cd=cd,
        rejected=rejected,
    )


def cd_view(average: pd.Series, n: int, sel: Selection, pairwise: Callable[[], stats.PairwiseTest]) -> CDView:
    """Average ranks best first, Nemenyi's CD (``stats.critical_difference``, the tests view's
    CD), the bars of ``sel.procedure`` (:mod:`stats.groupings.groups`) and the drawn diagram.

    ``basis`` says what a bar means, never that nothing is rejected: a bar joins learners among
    which no pair is rejected (Demsar 2006, Sec. 3.2.2, for Nemenyi's CD; Garcia & Herrera 2008
    for the all-pairs APVs; Benavoli, Corani & Mangili 2016 for Wilcoxon-Holm), while pairs
    across bars may be, which is where the verdict's losers come from."""
    ordered = average.sort_values(kind="stable")
    cd = float(stats.critical_difference(len(ordered), n, alpha=sel.alpha))
    replaced = None
    if sel.procedure == "nemenyi":
        cliques = stats.cd_groups(ordered, cd)
        basis = "bars join learners whose average ranks are closer than the CD (Nemenyi)"
    else:
        table = pairwise()
        cliques = stats.apv_groups(ordered, table, sel.procedure, alpha=sel.alpha)
        plain = sel.test == "friedman" or sel.procedure in TWO_SAMPLE  # two-sample APVs use no ranks
        ranks = "" if plain else f", {stats.RANKS_NAMES[sel.test]} ranks"
        name = stats.PROCEDURE_NAMES[sel.procedure]
        basis = f"bars join learners that {name} does not separate (alpha = {sel.alpha:g}{ranks})"
        if sel.procedure in TWO_SAMPLE:
            basis += "; axis: average ranks"
        replaced = replaced_note(table, sel.procedure)
    names = tuple(tuple(str(x) for x in c) for c in cliques)
    return CDView(ordered, cd, names, sel.procedure, basis, replaced)


def skillings_mack_alone(scores: stats.ScoresTable, cells: pd.DataFrame, higher: bool) -> Incomplete | str | None:
    """Skillings & Mack's (1981) test when fewer than 2 data sets of the selection are complete (Friedman
    and the post-hoc procedures need 2): ``stats.skillings_mack`` on the complete data sets and the
    left-out ones with results (:func:`partial_rows`), or why it cannot test them either (its
    ``ValueError``'s message); None when no left-out data set has a result (nothing to add: e.g. a
    criterion measured on some data sets only). Like Friedman's, it needs at least 2 data sets with
    two results: on one, it is Friedman's statistic on a single data set, which the views refuse
    (:func:`untestable`). ``cells``: the aggregate of the criterion, indexed by data set and learner."""
    extra = partial_rows(scores, cells)
    if extra.empty:
        return None
    try:
        result = stats.skillings_mack(pd.concat([scores.table, extra]), higher_is_better=higher)
    except ValueError as exc:
        return str(exc)
    if result.n < 2:
        return "it needs at least 2 data sets with two results; 1 has them"
    return _incomplete(result, scores, extra)


def alone_verdict(alone: Incomplete, alpha: float) -> str:
    """The verdict when Skillings-Mack's test is the only one (:func:`skillings_mack_alone`): the
    procedure, the data sets it uses, its decision, and why no post-hoc procedure follows (each
    compares learners on complete data sets), so that no learner is called a winner or a loser."""
    r, m = alone.result, len(alone.kept)
    if alone.complete:
        used = f"the complete data set and {m} with missing results (only 1 is complete)"
    else:
        used = f"{m} data set{'s' * (m != 1)} with missing results (no data set is complete)"
    decision = "rejects" if r.pvalue <= alpha else "does not reject"
    return (
        f"Skillings-Mack (Skillings & Mack 1981) on {used}: {decision} at alpha = {alpha:g} "
        f"({stats.p_is(r.pvalue)}); no post-hoc procedure: they need complete data sets"
    )


def alone_view(alone: Incomplete, alpha: float) -> TestsView:
    """The tests view of a selection only Skillings-Mack can test (:func:`skillings_mack_alone`): its
    verdict (:func:`alone_verdict`, outcome "different" when it rejects) and ``incomplete``; no
    omnibus test of complete data sets, CD, control table, safety notice nor winners and losers
    (``TestsView.skillings_mack_only``)."""
    omnibus = pd.DataFrame(
        {"statistic": pd.Series(dtype=float), "pvalue": pd.Series(dtype=float), "df": pd.Series(dtype=object)},
        index=pd.Index([], name="test", dtype=object),
    )
    return TestsView(
        alpha=alpha,
        verdict=alone_verdict(alone, alpha),
        outcome="different" if alone.result.pvalue <= alpha else "no difference",
        winners=(),
        losers=(),
        omnibus=omnibus,
        cd=float("nan"),
        control="",
        control_table=pd.DataFrame(),
        safety="",
        incomplete=alone,
    )


def untestable(n: int, k: int, excluded: dict[Any, str], alone: Incomplete | str | None = None) -> str | None:
    """Why a table of ``n`` data sets x ``k`` learners cannot be tested, or None.

    ``alone``: what :func:`skillings_mack_alone` made of a table of fewer than 2 complete data sets
    (None: not tried). Its test: the tests view shows it, and the message names the views that
    still need complete data sets; its reason: added to the message (it was tried too)."""
    if k < 2:
        return f"the tests need at least 2 learners; {k} {'is' if k == 1 else 'are'} selected"
    if n < 2:
        left = f" after leaving out {len(excluded)} with missing results" if excluded else ""
        remain = f"{n} remain{'s' * (n == 1)}{left}"
        if isinstance(alone, Incomplete):
            return f"the ranks, pairs and CD need at least 2 complete data sets; {remain} (tests: Skillings-Mack)"
        tried = f"; Skillings-Mack cannot either ({alone})" if isinstance(alone, str) else ""
        return f"the tests need at least 2 complete data sets; {remain}{tried}"
    return None
