"""The engine of the Bayesian signed-rank test's Monte Carlo (:mod:`stats.folds.signed_rank`):
Dirichlet weights drawn once and kept, the thetas of each sample as step sums over the sorted
differences, and exact bounds that decide most samples without them.

Benavoli, Corani, Mangili, Zaffalon & Ruggeri (2014) "A Bayesian Wilcoxon signed-rank test based
on the Dirichlet process", ICML; Benavoli, Corani, Demsar & Zaffalon (2017) JMLR 18(77), Sec. 5.
(About 400 lines, one unit: the exact path and the bounds share the sorted steps; the loop that
runs them over the samples is :func:`stats.folds.signed_rank.signed_rank_counts`.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from stats.core import exact_decimal, near
from stats.folds._dirichlet import dirichlet_by_value

#: Bytes of Dirichlet weights :func:`cached_weights` keeps (the most recent draw is kept even
#: when it is larger than this alone).
WEIGHT_CACHE_BYTES = 256 * 2**20
_weight_cache: OrderedDict[tuple[int, float, int, int], np.ndarray] = OrderedDict()
_weight_lock = threading.Lock()


def dirichlet_weights(m: int, *, prior: float, nsamples: int, seed: int) -> np.ndarray:
    """The ``nsamples x (m + 1)`` Dirichlet(prior, 1, ..., 1) weights of :func:`stats.bayes_signed_rank`
    (first column: the prior pseudo-observation at 0), drawn from ``numpy.random.default_rng(seed)``
    (:func:`stats.folds._dirichlet.dirichlet_by_value`; with ``prior == 1`` bit for bit
    ``Generator.dirichlet``). They depend on m, not on the data: one draw serves every comparison
    over m data sets."""
    return dirichlet_by_value(m + 1, nsamples, seed, prior).T


def weights_by_value(w: np.ndarray) -> np.ndarray:
    """``w`` (samples x (m + 1), :func:`dirichlet_weights`) transposed and contiguous: a row per
    value (the prior's first), the layout :func:`stats.folds.signed_rank.signed_rank_counts` reads (a value's weights in
    consecutive samples are adjacent)."""
    return np.ascontiguousarray(np.asarray(w, dtype=float).T)


def cached_weights(m: int, *, prior: float, nsamples: int, seed: int) -> np.ndarray:
    """:func:`weights_by_value` of :func:`dirichlet_weights`, kept for the next call with the same
    (m, prior, nsamples, seed) (read-only; the least recently used draws beyond
    :data:`WEIGHT_CACHE_BYTES` are dropped).

    The draw is the same every time (``default_rng(seed)``), so a kept draw gives exactly the
    results of a new one; it saves drawing 50,000 x 501 variates (0.2 to 0.4 s) when the
    explorer recomputes the folds view for another control or rope on the same data sets. The
    draw is made in this layout (:func:`stats.folds._dirichlet.dirichlet_by_value`), not transposed
    afterwards.
    """
    key = (int(m), float(prior), int(nsamples), int(seed))
    with _weight_lock:
        if key in _weight_cache:
            _weight_cache.move_to_end(key)
            return _weight_cache[key]
    w = dirichlet_by_value(key[0] + 1, key[2], key[3], key[1])
    w.setflags(write=False)
    with _weight_lock:
        w = _weight_cache.setdefault(key, w)  # one drawn meanwhile by another thread wins
        _weight_cache.move_to_end(key)
        while len(_weight_cache) > 1 and sum(x.nbytes for x in _weight_cache.values()) > WEIGHT_CACHE_BYTES:
            _weight_cache.popitem(last=False)
    return w


def _first_true(predicate: Any, i: np.ndarray, size: int) -> np.ndarray:
    """For each row i, the first j in 0..size at which the monotone (False ... False, True ...
    True) ``predicate(i, j)`` holds (``size`` when it never does): a vectorised binary search."""
    lo = np.zeros(i.size, dtype=np.intp)
    hi = np.full(i.size, size, dtype=np.intp)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        holds = predicate(i, np.minimum(mid, size - 1))
        hi = np.where(active & holds, mid, hi)
        lo = np.where(active & ~holds, mid + 1, lo)


def _sum_signs(x: np.ndarray, y: np.ndarray, target: float, exact_target: Fraction) -> np.ndarray:
    """sign(X + Y - T) element by element, for the decimals X, Y that the floats ``x``, ``y``
    stand for and T = ``exact_target`` (``target`` its float): the decimal rule of
    :func:`stats.core._table.snap`. In floating point where x + y and T are far apart; exactly
    (:func:`stats.core._table.exact_decimal`) where they are within rounding (0.011 + 0.009 is 0.02,
    a sum at the bound 2 rope = 0.02, though the floats' sum is 0.019999999999999997)."""
    total = x + y
    out = np.sign(total - target)
    for k in np.flatnonzero(near(total, target)).tolist():
        difference = exact_decimal(x[k]) + exact_decimal(y[k]) - exact_target
        out[k] = (difference > 0) - (difference < 0)
    return out


def _first_sum(x: np.ndarray, y: np.ndarray, holds_for: Any, guess: np.ndarray) -> np.ndarray:
    """For each i, the first j at which ``holds_for(x[i], y[j])`` holds (y ascending, the
    predicate False then True in j; ``y.size`` when never). ``guess`` (``numpy.searchsorted`` of
    the real-number threshold) is checked, and where it is wrong the binary search
    :func:`_first_true` decides."""
    size = y.size
    g = np.clip(np.asarray(guess, dtype=np.intp), 0, size)
    if size == 0:
        return g

    def holds(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return np.asarray(holds_for(x[i], y[j]), dtype=bool)

    i = np.arange(x.size)
    ok = ((g == size) | holds(i, np.minimum(g, size - 1))) & ((g == 0) | ~holds(i, np.maximum(g - 1, 0)))
    if not ok.all():
        g[~ok] = _first_true(holds, i[~ok], size)
    return g


def _predicates(rope: float) -> tuple[Any, Any, Any, Any]:
    """The four monotone predicates of a pair (v_i, v_j) that :func:`_steps` searches, decided
    by the decimal rule (:func:`_sum_signs`): v_i + v_j > 2 rope, >= 2 rope (the suffixes of
    theta_a, strict and with the bound), and not v_i + v_j < -2 rope, v_i + v_j > -2 rope (the
    ends of the prefixes of theta_b, with and without the bound)."""
    r2, exact_r2 = 2 * rope, 2 * exact_decimal(rope)
    return (
        lambda x, y: _sum_signs(x, y, r2, exact_r2) > 0,
        lambda x, y: _sum_signs(x, y, r2, exact_r2) >= 0,
        lambda x, y: _sum_signs(x, y, -r2, -exact_r2) >= 0,
        lambda x, y: _sum_signs(x, y, -r2, -exact_r2) > 0,
    )


@dataclass(frozen=True, eq=False)
class _Steps:
    """The step structure of one comparison: v = (0, z_1, ..., z_m) sorted (``order``: the data
    positions in sorted order), and for each sorted i the columns of P (P[k] = the sum of the k
    smallest values' weights) where the steps of theta_a and theta_b change: ``a1`` / ``ah`` the
    start of the suffix of j with (v_i + v_j) - 2 rope ``> 0`` / ``>= 0``, ``b1`` / ``bh`` the
    end of the prefix with -(v_i + v_j) - 2 rope ``> 0`` / ``>= 0`` (empty when rope is 0)."""

    v: np.ndarray
    order: np.ndarray
    rope: float
    a1: np.ndarray
    ah: np.ndarray
    b1: np.ndarray
    bh: np.ndarray


def _steps(z: np.ndarray, rope: float) -> _Steps:
    values = np.concatenate([[0.0], z])
    order = np.argsort(values, kind="stable")
    v = values[order]
    r2 = 2 * rope
    none = np.zeros(0, dtype=np.intp)
    above, at_or_above, not_below, above_low = _predicates(rope)
    # the first j with v_i + v_j > 2 rope (>= 2 rope): about where v_j passes 2 rope - v_i
    a1 = _first_sum(v, v, above, np.searchsorted(v, r2 - v, side="right"))
    ah = _first_sum(v, v, at_or_above, np.searchsorted(v, r2 - v, side="left"))
    if rope == 0:
        return _Steps(v, order, rope, a1, ah, none, none)
    # the end of the prefix with v_i + v_j < -2 rope (<= -2 rope): about where v_j passes -2 rope - v_i
    b1 = _first_sum(v, v, not_below, np.searchsorted(v, -r2 - v, side="left"))
    bh = _first_sum(v, v, above_low, np.searchsorted(v, -r2 - v, side="right"))
    return _Steps(v, order, rope, a1, ah, b1, bh)


def _argmax3(theta_a: np.ndarray, theta_rope: np.ndarray | None, theta_b: np.ndarray) -> np.ndarray:
    """0, 1 or 2: which of theta_a, theta_rope (None: no rope) and theta_b is the largest, the
    first on a tie (``numpy.argmax``)."""
    if theta_rope is None:
        return np.where(theta_a >= theta_b, 0, 2)
    return np.where((theta_a >= theta_rope) & (theta_a >= theta_b), 0, np.where(theta_rope >= theta_b, 1, 2))


def _step_sum(u: np.ndarray, p: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """sum_i u_i P[cols_i] for each sample (column): ``cols`` is non-increasing in i, so the rows
    with ``cols == size`` (a prefix: u_i P[size]) add up to P[k] P[size], those with 0 (a suffix)
    add nothing, and only the rows between need P's rows gathered."""
    size = u.shape[0]
    full = int(np.searchsorted(-cols, -size, side="right"))  # cols[:full] == size
    zero = int(np.searchsorted(-cols, 0, side="left"))  # cols[zero:] == 0
    out = p[full] * p[size]
    if zero > full:
        out += np.einsum("is,is->s", u[full:zero], p[cols[full:zero]])
    return out


def _exact_outcomes(steps: _Steps, block: np.ndarray) -> np.ndarray:
    """The winner (0: a, 1: rope, 2: b) of each sample (column) of ``block`` (weights in data
    order, (m + 1) x samples), from the suffix and prefix sums of the sorted weights."""
    u = block[steps.order]  # the weights of the sorted values
    size, n = u.shape
    p = np.empty((size + 1, n))
    p[0] = 0.0
    rows, sources = list(p), list(u)
    for k in range(size):  # cumulative sums of the sorted weights, n samples at a time
        np.add(rows[k], sources[k], out=rows[k + 1])
    total = p[size]
    # theta_a = sum_i u_i (P[size] - P[a1_i]) + 1/2 sum_i u_i (P[a1_i] - P[ah_i]): a sum exactly
    # at the bound (j in ah_i .. a1_i - 1) counts 1/2
    theta_a = total * total - _step_sum(u, p, steps.a1)
    half = np.flatnonzero(steps.a1 != steps.ah)
    if half.size:
        theta_a += 0.5 * np.einsum("is,is->s", u[half], p[steps.a1[half]] - p[steps.ah[half]])
    if steps.rope == 0:
        return _argmax3(theta_a, None, 1.0 - theta_a)
    # theta_b = sum_i u_i P[b1_i] + 1/2 sum_i u_i (P[bh_i] - P[b1_i])
    theta_b = _step_sum(u, p, steps.b1)
    half = np.flatnonzero(steps.b1 != steps.bh)
    if half.size:
        theta_b += 0.5 * np.einsum("is,is->s", u[half], p[steps.bh[half]] - p[steps.b1[half]])
    return _argmax3(theta_a, 1.0 - theta_a - theta_b, theta_b)


#: Below this many values (m + 1), :func:`stats.folds.signed_rank.signed_rank_counts` computes every sample exactly.
_BOUNDS_MIN = 24
#: Most blocks of sorted values in the bounds of :func:`_bounds_plan`.
_BOUNDS_BLOCKS = 24
#: The margin, at equal weights, by which the bounds should separate the winner from the others.
_BOUNDS_GAP = 0.15
#: A sample is decided by its bounds only when they separate the thetas by more than this: far
#: above the rounding errors of the bounds and of the exact thetas (about 1e-13 for m = 500).
_BOUNDS_EPS = 1e-9


@dataclass(frozen=True, eq=False)
class _Bounds:
    """Blocks of consecutive sorted values (:func:`_bounds_plan`) and, for each block I, the
    columns of C (C[k] = the weight of the blocks before k) where the block pairs (I, J) that
    count start and end: J >= ``a_full[I]`` lie wholly in the region of theta_a, J >= ``a_part[I]``
    partly; J < ``b_full[I]`` wholly in that of theta_b, J < ``b_part[I]`` partly."""

    rows: np.ndarray  # the data positions of the blocks summed, block after block
    slices: tuple[tuple[int, int, int], ...]  # (block, first, end) in ``rows``
    big: int  # the block not summed: its weight is 1 - the others'
    cols: np.ndarray  # a_full, a_part (, b_full, b_part) stacked: (2 or 4) x blocks

    @property
    def blocks(self) -> int:
        return int(self.cols.shape[1])


def _block_cols(steps: _Steps, cuts: np.ndarray) -> np.ndarray:
    """:attr:`_Bounds.cols` for the blocks [cuts[k], cuts[k + 1]) of sorted values: every pair of
    blocks I, J counts fully in theta_a when (lo_I + lo_J) - 2 rope > 0 and partly when
    (hi_I + hi_J) - 2 rope >= 0 (lo, hi: a block's smallest and largest value; the decimal sums
    are monotone, so these decide for every pair of values of the two blocks); in theta_b
    fully when -(hi_I + hi_J) - 2 rope > 0 and partly when -(lo_I + lo_J) - 2 rope >= 0. The
    blocks J that count form a suffix (theta_a) or a prefix (theta_b).

    The first such J is read from the values' own steps (:func:`_steps`): the predicate of
    lo_I + v_j holds exactly for j from ``a1[start_I]`` on, so J counts fully when its first value
    lies there (and likewise with ``ah``, ``b1``, ``bh`` at the blocks' last values), the same
    columns as evaluating the block sums (:func:`_block_cols_by_sums`) without a search each."""
    starts, lasts = cuts[:-1], cuts[1:] - 1
    cols = [
        np.searchsorted(starts, steps.a1[starts], side="left"),
        np.searchsorted(lasts, steps.ah[lasts], side="left"),
    ]
    if steps.rope > 0:
        cols += [
            np.searchsorted(lasts, steps.b1[lasts], side="left"),
            np.searchsorted(starts, steps.bh[starts], side="left"),
        ]
    return np.array(cols, dtype=np.intp)


def _block_cols_by_sums(steps: _Steps, cuts: np.ndarray) -> np.ndarray:
    """:func:`_block_cols` from the blocks' smallest and largest values, summed and compared by
    the decimal rule (:func:`_sum_signs`; the definition, kept for the tests)."""
    lo, hi = steps.v[cuts[:-1]], steps.v[cuts[1:] - 1]
    r2 = 2 * steps.rope
    above, at_or_above, not_below, above_low = _predicates(steps.rope)
    cols = [
        _first_sum(lo, lo, above, np.searchsorted(lo, r2 - lo, side="right")),
        _first_sum(hi, hi, at_or_above, np.searchsorted(hi, r2 - hi, side="left")),
    ]
    if steps.rope > 0:
        cols += [
            _first_sum(hi, hi, not_below, np.searchsorted(hi, -r2 - hi, side="left")),
            _first_sum(lo, lo, above_low, np.searchsorted(lo, -r2 - lo, side="right")),
        ]
    return np.array(cols, dtype=np.intp)


def _bounds(cols: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Lower and upper bounds of theta_a (and theta_b), rows of the result, for the block weights
    ``w`` (blocks x samples): sum_I w_I (C[blocks] - C[cols_I]) for theta_a and sum_I w_I C[cols_I]
    for theta_b, with C the cumulative sums of the block weights."""
    nb, n = w.shape
    c = np.empty((nb + 1, n))
    c[0] = 0.0
    for k in range(nb):
        np.add(c[k], w[k], out=c[k + 1])
    if n < _BOUNDS_LOOP_MIN:  # a few samples (the plan's trials): one gather, one einsum
        q = np.einsum("kis,is->ks", c[cols], w)
    else:  # many: term after term, each a row of samples (no 4 x blocks x samples gather), and
        # none for the columns 0 (C[0] = 0)
        q = np.zeros((cols.shape[0], n))
        term = np.empty(n)
        for r in range(cols.shape[0]):
            for i in np.flatnonzero(cols[r]).tolist():
                np.multiply(w[i], c[cols[r, i]], out=term)
                q[r] += term
    q[:2] = c[nb] * c[nb] - q[:2]
    return q


def _decide(rope: float, q: np.ndarray) -> np.ndarray:
    """The winner (0, 1, 2) of each sample that its bounds decide, -1 for the others."""
    eps = _BOUNDS_EPS
    if rope == 0:
        low_a, high_a = q
        return np.where(low_a > 0.5 + eps, 0, np.where(high_a < 0.5 - eps, 2, -1))
    low_a, high_a, low_b, high_b = q
    low_r, high_r = 1.0 - high_a - high_b, 1.0 - low_a - low_b
    out = np.full(low_a.shape, -1)
    out[low_a > np.maximum(high_r, high_b) + eps] = 0
    out[low_r > np.maximum(high_a, high_b) + eps] = 1
    out[low_b > np.maximum(high_a, high_r) + eps] = 2
    return out


def _gap(rope: float, q: np.ndarray) -> float:
    """How far the winner's lower bound lies above the others' upper bounds (<= 0: undecided),
    for one sample's bounds ``q``."""
    if rope == 0:
        low_a, high_a = q
        return float(max(2 * low_a - 1, 1 - 2 * high_a))
    low_a, high_a, low_b, high_b = q
    low_r, high_r = 1.0 - high_a - high_b, 1.0 - low_a - low_b
    return float(max(low_a - max(high_r, high_b), low_r - max(high_a, high_b), low_b - max(high_a, high_r)))


def _bounds_plan(steps: _Steps) -> _Bounds | None:
    """Blocks of sorted values whose weights bound the thetas tightly enough to decide most
    samples, or None when they would not (then every sample is computed exactly).

    The blocks start at the values 0 (rope 0) or -rope and rope, where the regions of theta_a,
    theta_b and theta_rope change, and the block with the largest share of pairs that count
    partly is halved until, with every weight 1/(m + 1), the winner's lower bound exceeds the
    others' upper bounds by :data:`_BOUNDS_GAP`. The largest block is not summed (its weight is
    1 minus the others'): for a clear verdict the others are the few values in the tails.
    """
    v, size = steps.v, steps.v.size
    if size < _BOUNDS_MIN:
        return None
    edges = [0.0] if steps.rope == 0 else [-steps.rope, steps.rope]
    cuts = {0, size}
    for edge in edges:
        cuts.update(int(np.searchsorted(v, edge, side=side)) for side in ("left", "right"))
    while True:
        c = np.array(sorted(cuts))
        cols = _block_cols(steps, c)
        share = (np.diff(c) / size)[:, None]
        gap = _gap(steps.rope, _bounds(cols, share)[:, 0])
        if gap >= _BOUNDS_GAP or c.size - 1 >= _BOUNDS_BLOCKS:
            break
        # the share of each block's pairs that count partly (the bounds' slack)
        before = np.concatenate([[0.0], np.cumsum(share[:, 0])])
        slack = before[cols[0]] - before[cols[1]]
        if steps.rope > 0:
            slack += before[cols[3]] - before[cols[2]]
        slack *= share[:, 0]
        slack[v[c[:-1]] == v[c[1:] - 1]] = 0.0  # a block of equal values: halving it changes nothing
        k = int(np.argmax(slack))
        if slack[k] <= 0.0:
            break
        cuts.add(int((c[k] + c[k + 1]) // 2))
    if gap <= 0:
        return None
    sizes = np.diff(c)
    big = int(np.argmax(sizes))
    summed = [k for k in range(sizes.size) if k != big]
    rows = [steps.order[c[k] : c[k + 1]] for k in summed]
    ends = np.cumsum([r.size for r in rows], dtype=np.intp)
    slices = tuple((k, int(e - r.size), int(e)) for k, r, e in zip(summed, rows, ends))
    return _Bounds(np.concatenate(rows) if rows else np.zeros(0, dtype=np.intp), slices, big, cols)


#: From this many samples on, :func:`_bounds` adds its terms one at a time.
_BOUNDS_LOOP_MIN = 4096
#: Weights gathered at a time by :func:`_bounded_outcomes` (0.5 MB: within the CPU's L2 cache);
#: :func:`stats.folds.signed_rank.signed_rank_counts` bounds 16 times as many values at a time (over the blocks: all
#: 50,000 samples at once for a plan of up to 20 blocks).
_GATHER = 2**16


def _bounded_outcomes(plan: _Bounds, rope: float, w: np.ndarray) -> np.ndarray:
    """The winner of each sample (column) of ``w`` that the bounds decide, -1 for the others."""
    n = w.shape[1]
    sums = np.empty((plan.blocks, n))
    rest = np.ones(n)
    step = _GATHER // n
    for k, first, end in plan.slices:
        rows, acc = plan.rows[first:end], sums[k]
        if step < 2:  # many samples: add row after row into the block's sum
            np.copyto(acc, w[rows[0]])
            for row in rows[1:].tolist():
                np.add(acc, w[row], out=acc)
        else:  # a few rows at a time: they stay in the cache
            for start in range(0, rows.size, step):
                part = np.add.reduce(w[rows[start : start + step]], axis=0)
                if start:
                    acc += part
                else:
                    acc[:] = part
        rest -= acc
    sums[plan.big] = rest
    return _decide(rope, _bounds(plan.cols, sums))
