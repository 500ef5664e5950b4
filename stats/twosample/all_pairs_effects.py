"""The effect sizes of all pairs of learners at once: A12, Cliff's delta, Hodges-Lehmann, Mann-Whitney.

:func:`pairwise_effects` gives, for each of the k(k-1)/2 pairs, what :func:`stats.a12`,
:func:`stats.cliffs_delta` (the two columns as unpaired samples), :func:`stats.hodges_lehmann`
(paired, 95%) and :func:`stats.mann_whitney` give for its two columns, the same floats digit for
digit, computed for all pairs together (one array of comparisons, of Walsh averages, one
Mann-Whitney U test of all columns, :mod:`stats.twosample._mann_whitney`) instead of a call per pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from stats.core import EFFECT_COLUMNS as EFFECT_COLUMNS  # the table's columns after a and b
from stats.core import SNAP_DIGITS, TableResult, as_table, order_statistics, pairs, snap, snap_at, snap_digits
from stats.twosample._mann_whitney import mannwhitneyu_asymptotic_columns, mannwhitneyu_two_sided
from stats.twosample._walsh_select import LIST_MAX, walsh_order_statistics
from stats.twosample.effect_size import A12_BOUNDS, DELTA_BOUNDS, HL_EXACT_BELOW, _label, interval_level, interval_rank

#: ``scipy.stats.mannwhitneyu``'s exact method is used (``method="auto"``) only up to this many
#: values per sample, and only without ties (:func:`stats.mann_whitney`).
MW_EXACT_MAX = 8


@dataclass(frozen=True, eq=False, repr=False)
class PairwiseEffects(TableResult):
    """:func:`pairwise_effects`' result: ``table`` (one row per pair), the interval's nominal level
    ``confidence`` (each pair's attained level is the table's ``hl_confidence``) and ``n``."""

    confidence: float
    n: int


def _unpaired_counts(oriented: np.ndarray, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(wins, ties) of column ``first`` over column ``second`` for every pair, over all n x n
    pairs of values (:func:`stats.twosample.effect_size._counts`, unpaired): each value snapped at its own
    magnitude, as the pooled sample is."""
    values = snap(oriented)
    x, y = values[:, first], values[:, second]
    wins = np.zeros(first.size, dtype=np.int64)
    ties = np.zeros(first.size, dtype=np.int64)
    if values.shape[0] > first.size:  # more values than pairs (100,000 data sets): each pair sorted
        for p in range(first.size):  # and searched, O(n log n), not n passes over n values
            ys = np.sort(y[:, p])
            below, not_above = np.searchsorted(ys, x[:, p], side="left"), np.searchsorted(ys, x[:, p], side="right")
            wins[p], ties[p] = int(below.sum()), int((not_above - below).sum())
        return wins, ties
    for row in range(values.shape[0]):  # x[row] against every y: n x pairs at a time
        wins += (y < x[row]).sum(axis=0)
        ties += (y == x[row]).sum(axis=0)
    return wins, ties


def _rank_powers(scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``scale`` (finite, >= 0): each value's dense rank in its row (equal values,
    equal ranks), and the power of ten by which :func:`stats.core._table.snap` rounds at the value of
    each rank, ``10.0**d`` with d = SNAP_DIGITS - 1 - floor(log10(value)) (NaN where it rounds
    otherwise: a zero scale, or d outside 0..300)."""
    order = np.argsort(scale, axis=1, kind="stable")
    ordered = np.take_along_axis(scale, order, axis=1)
    ranks = np.cumsum(np.diff(ordered, axis=1, prepend=ordered[:, :1]) > 0, axis=1)
    dense = np.empty(scale.shape, dtype=np.int32)
    np.put_along_axis(dense, order, ranks, axis=1)
    at_rank = np.zeros(scale.shape)
    np.put_along_axis(at_rank, ranks, ordered, axis=1)
    powers = np.full(scale.shape, np.nan)
    usable = at_rank > 0.0
    exponent = np.floor(np.log10(at_rank[usable])).astype(np.int64)  # as stats.core._table._decimals
    found, where = np.unique(exponent, return_inverse=True)  # a few distinct exponents
    power = [
        10.0 ** np.int64(SNAP_DIGITS - 1 - e) if 0 <= SNAP_DIGITS - 1 - e <= 300 else np.nan for e in found.tolist()
    ]
    powers[usable] = np.array(power)[where]
    return dense, powers


def _hodges_lehmann(raw: np.ndarray, first: np.ndarray, second: np.ndarray, higher: bool, level: float) -> tuple:
    """(estimate, low, high, attained) of :func:`stats.hodges_lehmann` for every pair (arrays).

    Pair by pair (a row of Walsh averages that stays in cache), each average snapped as
    :func:`stats.hodges_lehmann` snaps it -- at the larger scale of its two data sets, i.e. with
    the power of ten of the larger one's rank (:func:`_rank_powers`, no log10 per average) -- and
    only the order statistics read (:func:`stats.core._order_statistics.order_statistics`: the values
    ``np.partition`` puts there, from the few values near them). Below :data:`FEW_WALSH` averages a
    pair, many pairs a numpy call (:func:`_walsh_order_block`, the same floats); above
    :data:`stats.twosample._walsh_select.LIST_MAX`, the averages are not listed at all
    (:func:`stats.twosample._walsh_select.walsh_order_statistics`: 100,000 data sets).
    """
    x, y = raw[:, first], raw[:, second]
    if not higher:
        x, y = y, x
    scale = np.maximum(np.abs(x), np.abs(y))
    digits = snap_digits(scale, x.shape)
    d = snap_at(snap_at(x, digits) - snap_at(y, digits), digits)
    n = d.shape[0]
    m = n * (n + 1) // 2
    half = m // 2  # np.median of the sorted Walsh averages (its mean of the middle two when m is even)
    magnitudes = np.sort(np.abs(d), axis=0)
    distinct = (magnitudes[1:] != magnitudes[:-1]).all(axis=0)
    exact = (n < HL_EXACT_BELOW) & (d != 0).all(axis=0) & distinct
    # C depends on N and on being exact only: asked once for each kind present (the exact C of a
    # large N would take long, and is never used there)
    rank_of = {e: interval_rank(n, e, level) for e in np.unique(exact).tolist()}
    c = np.where(exact, rank_of.get(True, 1), rank_of.get(False, 1)).astype(np.intp)
    level_of = {e: interval_level(n, r) for e, r in rank_of.items()}
    attained = np.where(exact, level_of.get(True, 0.0), level_of.get(False, 0.0)).astype(np.float64)
    middle = [half] if m % 2 else [half - 1, half]
    dt, st = np.ascontiguousarray(d.T), np.ascontiguousarray(scale.T)
    dense, powers = _rank_powers(st)
    estimate, low, high = np.empty(d.shape[1]), np.empty(d.shape[1]), np.empty(d.shape[1])
    if m > LIST_MAX:  # 2,896 data sets and more: each pair's order statistics selected, not listed
        for p in range(d.shape[1]):
            values = walsh_order_statistics(dt[p], st[p], [*middle, int(c[p]) - 1, m - int(c[p])])
            estimate[p] = values[0] if m % 2 else (values[0] + values[1]) / 2.0
            low[p], high[p] = values[-2], values[-1]
        return estimate, low, high, attained
    i, j = np.triu_indices(n)
    if m < FEW_WALSH:  # few Walsh averages a pair (N < 90): many pairs a numpy call
        for chunk in _chunks(d.shape[1], m):
            _walsh_order_block(chunk, dt, st, dense, powers, (i, j), middle, c, (estimate, low, high))
        return estimate, low, high, attained
    for p in range(d.shape[1]):
        row = dt[p]
        walsh = row.take(i)
        walsh += row.take(j)
        walsh /= 2.0  # (dt[p, i] + dt[p, j]) / 2.0, in place
        used = powers[p, : int(dense[p].max()) + 1]  # every rank is the larger of its own pair (i == j)
        if np.isnan(used).any():  # a zero scale, or digits stats.core._table rounds otherwise: its own way
            walsh = snap(walsh, np.maximum(st[p, i], st[p, j]))
        else:  # snap_at's arithmetic, np.rint(x * 10.0**d) / 10.0**d, with each value's own 10.0**d
            one = used[0] if (used == used[0]).all() else None  # one power for all: no gather
            power = one if one is not None else used[np.maximum(dense[p, i], dense[p, j])]
            walsh *= power
            np.rint(walsh, out=walsh)
            walsh /= power
        ks = [*middle, int(c[p]) - 1, m - int(c[p])]
        values = order_statistics(walsh, ks)
        estimate[p] = values[0] if m % 2 else (values[0] + values[1]) / 2.0
        low[p], high[p] = values[-2], values[-1]
    return estimate, low, high, attained


#: Below this many Walsh averages a pair (N < 90 data sets), :func:`_hodges_lehmann` takes its pairs
#: a block at a time (:func:`_walsh_order_block`); above, one at a time (the work of a pair then
#: outweighs a numpy call). Either way each order statistic is the value ``np.partition`` puts there.
FEW_WALSH = 4096
#: Walsh averages held at a time by :func:`_walsh_order_block` (pairs x averages, 8 MB of floats).
_BLOCK_VALUES = 1 << 20


def _chunks(count: int, m: int) -> list[np.ndarray]:
    """The pairs ``0..count-1`` in blocks of about :data:`_BLOCK_VALUES` / ``m`` pairs."""
    step = max(1, _BLOCK_VALUES // m)
    return [np.arange(start, min(start + step, count)) for start in range(0, count, step)]


def _walsh_order_block(
    rows: np.ndarray,
    dt: np.ndarray,
    st: np.ndarray,
    dense: np.ndarray,
    powers: np.ndarray,
    walsh_pairs: tuple[np.ndarray, np.ndarray],
    middle: list[int],
    c: np.ndarray,
    out: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """:func:`_hodges_lehmann`'s loop body for the pairs ``rows`` at once (a 2-D array of their Walsh
    averages), the same floats: the same sums and snaps element by element, and each row partitioned
    by ``np.partition`` along the rows with the kth values the loop gives it (rows grouped by their
    C), which is what the loop's :func:`order_statistics` does below its sampling size. A row whose
    powers of ten are not all usable is snapped by :func:`stats.core._table.snap`, as in the loop.

    Pair by pair, 1,000 learners (499,500 pairs) took over a minute of numpy calls; a block of pairs
    a call takes a second."""
    i, j = walsh_pairs
    m = i.size
    walsh = dt[rows][:, i]
    walsh += dt[rows][:, j]
    walsh /= 2.0
    top = dense[rows].max(axis=1)
    odd = np.isnan(np.where(np.arange(powers.shape[1])[None, :] <= top[:, None], powers[rows], 0.0)).any(axis=1)
    plain = np.flatnonzero(~odd)
    if plain.size:
        at = np.maximum(dense[rows[plain]][:, i], dense[rows[plain]][:, j])
        power = np.take_along_axis(powers[rows[plain]], at, axis=1)
        part = walsh[plain]
        part *= power
        np.rint(part, out=part)
        part /= power
        walsh[plain] = part
    for r in np.flatnonzero(odd).tolist():
        p = int(rows[r])
        walsh[r] = snap(walsh[r], np.maximum(st[p, i], st[p, j]))
    estimate, low, high = out
    for rank in np.unique(c[rows]).tolist():
        which = np.flatnonzero(c[rows] == rank)
        ks = [*middle, rank - 1, m - rank]
        block = np.partition(walsh[which], sorted(set(ks)), axis=1)
        values = [block[:, k] for k in ks]
        estimate[rows[which]] = values[0] if m % 2 else (values[0] + values[1]) / 2.0
        low[rows[which]], high[rows[which]] = values[-2], values[-1]


def _mann_whitney_p(oriented: np.ndarray, first: np.ndarray, second: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """:func:`stats.mann_whitney`'s p (``method="auto"``) of column ``first`` against ``second``.

    The exact p of a pair without ties depends only on its U = ``wins`` (of :func:`_unpaired_counts`,
    on the same snapped values) and the sample sizes: it is computed once per distinct U, for
    the first pair with it (a call per pair took minutes for 1,000 learners: 499,500 calls)."""
    values = snap(oriented)  # the pooled sample's snap is value by value
    x, y = values[:, first], values[:, second]
    n = values.shape[0]
    pooled = np.sort(np.concatenate([x, y]), axis=0)
    ties = (pooled[1:] == pooled[:-1]).any(axis=0)
    approx = ties | (n > MW_EXACT_MAX)
    p = np.empty(first.size)
    if approx.any():
        p[approx] = mannwhitneyu_asymptotic_columns(x[:, approx], y[:, approx])
    exact = np.flatnonzero(~approx)
    _, firsts, which = np.unique(wins[exact], return_index=True, return_inverse=True)
    once = [mannwhitneyu_two_sided(x[:, c], y[:, c], "exact")[1] for c in exact[firsts].tolist()]
    p[exact] = np.array(once, dtype=np.float64)[which.reshape(-1)] if exact.size else p[exact]
    return p


def _labels(deviations: np.ndarray, denominator: int, bounds: tuple[Fraction, ...], closed: bool) -> list[str]:
    """``_label(abs(Fraction(x, denominator)), bounds, closed)`` for each integer ``x`` of
    ``deviations``, judged once per distinct value (a few: counts out of n x n comparisons), not
    once per pair (a million exact fractions for 1,000 learners)."""
    found, where = np.unique(deviations, return_inverse=True)
    labels = np.array([_label(abs(Fraction(int(x), denominator)), bounds, closed=closed) for x in found.tolist()])
    return labels[where.reshape(-1)].tolist() if deviations.size else []


def pairwise_effects(scores: Any, *, higher_is_better: bool = True, confidence: float = 0.95) -> PairwiseEffects:
    """The effect sizes of all k(k-1)/2 pairs of learners (each pair ``a`` against ``b``).

    Parameters
    ----------
    scores : DataFrame or 2-D array
        Rows are data sets, columns are learners (as :func:`stats.pairwise_test` takes).
    higher_is_better : bool, default True
    confidence : float, default 0.95
        The Hodges-Lehmann interval's nominal coverage.

    Returns
    -------
    PairwiseEffects
        ``.table`` has one row per pair in the order of :func:`stats.pairwise_test`, columns
        ``a``, ``b`` and, positive (A12 above 0.5) meaning that ``a`` is better:

        * ``a12``, ``a12_magnitude``: :func:`stats.a12` of the two columns as unpaired samples
          (Vargha & Delaney 2000, eq. 14: A12 = [#(a_i better than b_j) + 0.5 #(a_i = b_j)] / n^2,
          magnitudes at |A12 - 0.5| = 0.06, 0.14, 0.21);
        * ``delta``, ``delta_magnitude``: :func:`stats.cliffs_delta`, unpaired (Cliff 1993:
          delta = 2 A12 - 1; magnitudes of Romano et al. 2006 at 0.147, 0.33, 0.474);
        * ``hl_estimate``, ``hl_low``, ``hl_high``, ``hl_confidence``: :func:`stats.hodges_lehmann`
          of the paired differences (Hodges & Lehmann 1963: the median of the Walsh averages;
          interval of Hollander & Wolfe 1999, eq. 3.24, exact or eq. 3.27) and the interval's
          attained level (its ``attained``: below ``confidence`` only where the nominal level
          cannot be reached, e.g. 0.875 for every pair with N = 4 at 95%);
        * ``mann_whitney_p``: :func:`stats.mann_whitney`'s two-sided p (Mann & Whitney 1947),
          the two columns' scores negated first when lower is better.

        Each value is the one the per-pair function returns for the raw columns, to the last
        digit (the tests compare with a loop over the pairs).

    References
    ----------
    .. [1] A. Vargha, H. D. Delaney, J. Educ. Behav. Stat. 25(2):101-132, 2000.
    .. [2] N. Cliff, Psychological Bulletin 114(3):494-509, 1993.
    .. [3] J. L. Hodges, E. L. Lehmann, Ann. Math. Statist. 34(2):598-611, 1963.
    .. [4] H. B. Mann, D. R. Whitney, Ann. Math. Statist. 18(1):50-60, 1947.

    Examples
    --------
    >>> res = pairwise_effects([[0.9, 0.8], [0.8, 0.6], [0.7, 0.5]])
    >>> row = res.loc[0]
    >>> row["a"], row["b"], round(float(row["a12"]), 4), row["a12_magnitude"], float(row["hl_estimate"])
    ('L1', 'L2', 0.8333, 'large', 0.175)
    """
    level = float(confidence)
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence must be between 0 and 1 (exclusive), got {confidence!r}")
    table = as_table(scores, higher_is_better=higher_is_better)
    first, second = (np.array(side, dtype=np.intp) for side in zip(*pairs(table.k)))
    raw = table.raw
    oriented = raw if higher_is_better else -raw
    wins, ties = _unpaired_counts(oriented, first, second)
    total = table.n * table.n
    losses = total - wins - ties
    twice = 2 * wins + ties
    a12 = twice / (2.0 * total)
    delta = (wins - losses) / total
    a12_labels = _labels(twice - total, 2 * total, A12_BOUNDS, closed=True)
    delta_labels = _labels(wins - losses, total, DELTA_BOUNDS, closed=False)
    estimate, low, high, attained = _hodges_lehmann(raw, first, second, bool(higher_is_better), level)
    mw_p = _mann_whitney_p(oriented, first, second, wins)
    names = list(table.learners)
    out = pd.DataFrame(
        {
            "a": [names[i] for i in first.tolist()],
            "b": [names[j] for j in second.tolist()],
            "a12": a12,
            "a12_magnitude": a12_labels,
            "delta": delta,
            "delta_magnitude": delta_labels,
            "hl_estimate": estimate,
            "hl_low": low,
            "hl_high": high,
            "hl_confidence": attained,
            "mann_whitney_p": mw_p,
        }
    )
    return PairwiseEffects(out, confidence=level, n=table.n)
