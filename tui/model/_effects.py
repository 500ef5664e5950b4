"""The two-sample pairs procedures, the effect sizes of the pairs and the letters of the ranks.

Every number comes from :mod:`stats`: :func:`stats.pairwise_wilcoxon` (Wilcoxon-Holm and
sign-Holm, Benavoli, Corani & Mangili 2016), :func:`stats.mann_whitney`, :func:`stats.a12`,
:func:`stats.cliffs_delta`, :func:`stats.hodges_lehmann` and :func:`stats.compact_letters`;
here they are arranged for the views (no textual, no rich).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

import stats
from stats.core import pairs
from stats.core.labels import EFFECT_COLUMNS, HL_CONFIDENCE
from stats.groupings.groups import EPS
from stats.twosample.effect_size import level_text

#: The pairs procedures whose APVs come from each pair's own two-sample test, and that test.
TWO_SAMPLE = {"wilcoxon-holm": "wilcoxon", "sign-holm": "sign"}


def two_sample_table(
    scores: stats.ScoresTable | stats.RankedTable, procedure: str, higher: bool
) -> stats.PairwiseTwoSample:
    """:func:`stats.pairwise_wilcoxon` of ``procedure`` ("wilcoxon-holm" or "sign-holm"): its column
    named ``procedure`` holds the Holm APVs."""
    test: Any = TWO_SAMPLE[procedure]
    return stats.pairwise_wilcoxon(scores, higher_is_better=higher, method="holm", test=test)


@dataclass(frozen=True)
class PairEffects:
    """How much ``a`` beats ``b`` across the data sets (each a string saying why when stats
    cannot compute it): Mann-Whitney U, A12 and Cliff's delta of the two columns as unpaired
    samples, and the Hodges-Lehmann shift of ``a`` over ``b`` (the median of the Walsh averages
    of the paired differences) with its 95% interval (:data:`~stats.core.labels.HL_CONFIDENCE`; its
    attained level where 95% cannot be reached). Positive means ``a`` is better."""

    a: str
    b: str
    mann_whitney: Any
    a12: Any
    delta: Any
    hodges_lehmann: Any

    def lines(self) -> tuple[str, ...]:
        """Three short lines for the pairs view (at most 58 cells whatever the numbers: they fit
        the pane at 80 columns); "delta" is Cliff's; the interval's method is in the reports. A
        fourth gives the interval's attained level when it falls short of the nominal one
        (N <= 5 at 95%: "the CI's level: 87.5% (95% not attainable with N = 4)")."""
        mw, a12, delta, hl = self.mann_whitney, self.a12, self.delta, self.hodges_lehmann
        if isinstance(mw, str):
            first = f"Mann-Whitney U: {mw}"
        else:
            first = f"Mann-Whitney U = {mw.statistic:g}, {stats.p_is(mw.pvalue)}"
        sizes = []
        for name, res in (("A12", a12), ("delta", delta)):
            sizes.append(f"{name}: {res}" if isinstance(res, str) else f"{name} = {res.value:.3f} ({res.magnitude})")
        if isinstance(hl, str):
            last = f"Hodges-Lehmann: {hl}"
        else:
            last = f"Hodges-Lehmann {hl.estimate:.4g}, {hl.confidence:.0%} CI [{hl.low:.4g}, {hl.high:.4g}]"
            if hl.note:  # the level moves to a line of its own (the first would pass 58 cells)
                level = level_text(hl.attained, hl.confidence)
                last = f"Hodges-Lehmann {hl.estimate:.4g}, CI [{hl.low:.4g}, {hl.high:.4g}]"
                return (first, ", ".join(sizes), last, f"the CI's level: {level} ({hl.note})")
        return (first, ", ".join(sizes), last)


def _safe(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        return f"not computable: {exc}"


def pair_effects(scores: pd.DataFrame, pair: tuple[str, str], higher: bool) -> PairEffects:
    """:class:`PairEffects` of ``pair[0]`` over ``pair[1]`` (their columns of ``scores``)."""
    a = scores[pair[0]].to_numpy(np.float64)
    b = scores[pair[1]].to_numpy(np.float64)
    # Mann-Whitney's U is not oriented: with lower-is-better scores, negate both (A12 = U / mn).
    sign = 1.0 if higher else -1.0
    return PairEffects(
        a=str(pair[0]),
        b=str(pair[1]),
        mann_whitney=_safe(stats.mann_whitney, sign * a, sign * b),
        a12=_safe(stats.a12, a, b, higher_is_better=higher),
        delta=_safe(stats.cliffs_delta, a, b, higher_is_better=higher),
        hodges_lehmann=_safe(stats.hodges_lehmann, a, b, higher_is_better=higher, confidence=HL_CONFIDENCE),
    )


def effects_table(scores: pd.DataFrame, higher: bool, ranked: stats.RankedTable | None = None) -> pd.DataFrame:
    """One row per pair (in :func:`stats.pairwise_test`'s order): ``a``, ``b`` and
    :data:`EFFECT_COLUMNS` (NaN, or "" for a label, where stats cannot compute one).

    All pairs at once by :func:`stats.pairwise_effects` (the same numbers as the per-pair
    functions, 14x faster on 190 pairs); pair by pair when it refuses the table (non-finite values).
    """
    try:
        table = stats.pairwise_effects(
            scores if ranked is None else ranked, higher_is_better=higher, confidence=HL_CONFIDENCE
        ).table
    except ValueError:
        return _effects_by_pair(scores, higher)
    return table.assign(a=table["a"].astype(str), b=table["b"].astype(str)).reset_index(drop=True)


def _effects_by_pair(scores: pd.DataFrame, higher: bool) -> pd.DataFrame:
    names = [str(c) for c in scores.columns]
    rows = []
    for i, j in pairs(len(names)):
        e = pair_effects(scores, (scores.columns[i], scores.columns[j]), higher)

        def value(res: Any, attr: str) -> Any:
            return getattr(res, attr) if not isinstance(res, str) else (np.nan if attr != "magnitude" else "")

        rows.append(
            (
                names[i],
                names[j],
                value(e.a12, "value"),
                value(e.a12, "magnitude"),
                value(e.delta, "value"),
                value(e.delta, "magnitude"),
                value(e.hodges_lehmann, "estimate"),
                value(e.hodges_lehmann, "low"),
                value(e.hodges_lehmann, "high"),
                value(e.hodges_lehmann, "attained"),
                value(e.mann_whitney, "pvalue"),
            )
        )
    return pd.DataFrame(rows, columns=["a", "b", *EFFECT_COLUMNS])


def rejected_pairs(table: pd.DataFrame, column: str, alpha: float) -> list[tuple[str, str]]:
    """The pairs (a, b) of ``table`` whose APV in ``column`` is <= ``alpha``."""
    rows = np.flatnonzero(table[column].to_numpy(np.float64) <= alpha)  # the column at once, not row by row
    a, b = table["a"].to_numpy(dtype=object)[rows], table["b"].to_numpy(dtype=object)[rows]
    return [(str(x), str(y)) for x, y in zip(a, b)]


def nemenyi_rejected(average: pd.Series, cd: float) -> list[tuple[str, str]]:
    """The pairs whose average ranks differ by at least ``cd`` (as :func:`stats.cd_groups`)."""
    names, v = [str(x) for x in average.index], average.to_numpy(np.float64)
    i, j = np.triu_indices(len(names), 1)  # pairs(k)'s order, every pair at once
    hit = np.flatnonzero(np.abs(v[i] - v[j]) >= cd - EPS)
    return [(names[x], names[y]) for x, y in zip(i[hit].tolist(), j[hit].tolist())]


@dataclass(frozen=True)
class Letters:
    """Compact letters (Piepho 2004) of ``procedure``'s rejections at ``alpha``: ``letters`` maps
    each learner (in the ranks' column order) to its letters; ``basis`` is the line saying so."""

    procedure: str
    alpha: float
    letters: dict[str, str]
    basis: str


def rank_letters(
    average: pd.Series, n: int, procedure: str, test: str, alpha: float, table: Callable[[], pd.DataFrame]
) -> Letters:
    """Piepho's compact letters of ``procedure``'s rejections (learners best first by average
    rank: the best gets "a"). ``table()`` is the procedure's APV table (not called for Nemenyi,
    whose rejections are the CD's); ``test`` names the ranks behind a rank procedure's APVs."""
    if procedure == "nemenyi":
        cd = float(stats.critical_difference(len(average), n, alpha=alpha))
        rejected = nemenyi_rejected(average, cd)
    else:
        rejected = rejected_pairs(table(), procedure, alpha)
    order = [str(x) for x in average.sort_values(kind="stable").index]
    letters = stats.compact_letters(order, rejected)
    name = stats.PROCEDURE_NAMES[procedure]
    ranks = "" if test == "friedman" or procedure in TWO_SAMPLE or procedure == "nemenyi" else f", {test} ranks"
    basis = f"letters: a shared letter = no significant difference ({name}{ranks}, alpha = {alpha:g})"
    return Letters(procedure, alpha, {str(x): letters[str(x)] for x in average.index}, basis)
