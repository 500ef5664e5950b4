"""The Bayesian signed-rank counts as ``stats.folds.signed_rank`` computed them before the bounds (commit
fbc69ad): every sample summed exactly, the weights in transposed blocks of 1,024 samples. Kept for
``bench_folds.py`` only, as the baseline it times in the same run (and checks the counts against).
"""

from __future__ import annotations

from typing import Any

import numpy as np

_BLOCK = 1024


def weight_blocks(w: np.ndarray) -> list[np.ndarray]:
    """``w`` (samples x (m + 1)) as transposed contiguous blocks of :data:`_BLOCK` samples."""
    return [np.ascontiguousarray(w[start : start + _BLOCK].T) for start in range(0, w.shape[0], _BLOCK)]


def _first_true(predicate: Any, rows: int, size: int) -> np.ndarray:
    """For each row i, the first j in 0..size at which the monotone (False ... False, True ...
    True) ``predicate(i, j)`` holds (``size`` when it never does): a vectorised binary search."""
    lo = np.zeros(rows, dtype=np.intp)
    hi = np.full(rows, size, dtype=np.intp)
    i = np.arange(rows)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        holds = predicate(i, np.minimum(mid, size - 1))
        hi = np.where(active & holds, mid, hi)
        lo = np.where(active & ~holds, mid + 1, lo)


def signed_rank_counts(z: np.ndarray, rope: float, w: np.ndarray | list[np.ndarray]) -> np.ndarray:
    """The fractions of samples in which "a better", "equivalent" and "b better" win (the
    ``p_a, p_rope, p_b`` of :func:`bayes_signed_rank`) for the oriented differences ``z`` and
    the weights ``w`` (``nsamples x (m + 1)``, :func:`dirichlet_weights`, or its
    :func:`weight_blocks`).

    With v = (0, z_1, ..., z_m) sorted, the step [v_i + v_j - 2 rope > 0] is, for each i,
    False then True as j increases (floating-point addition is monotone), so
    sum_j w_j [.] is a suffix sum of the sorted weights, read from their cumulative sum P; a sum
    exactly at the bound counts 1/2 (between the first j with ``>= 0`` and the first with
    ``> 0``). Likewise [-(v_i + v_j) - 2 rope > 0] is a prefix. The predicates are evaluated
    exactly as the double sum does, only the additions of the weights are reordered. Cost
    O(nsamples * m).
    """
    blocks = weight_blocks(w) if isinstance(w, np.ndarray) else w
    values = np.concatenate([[0.0], z])
    order = np.argsort(values, kind="stable")
    v = values[order]
    size = v.size
    r2 = 2 * rope

    def up(cmp: Any) -> np.ndarray:
        return _first_true(lambda i, j: cmp((v[i] + v[j]) - r2), size, size)

    def down(cmp: Any) -> np.ndarray:
        return _first_true(lambda i, j: cmp(-(v[i] + v[j]) - r2), size, size)

    # per sorted i, columns of P (P[k] = sum of the k smallest values' weights):
    # a1/ah: start of the "> 0" / ">= 0" suffix; b1/bh: end of the "> 0" / ">= 0" prefix
    a1, ah = up(lambda x: x > 0), up(lambda x: x >= 0)
    b1, bh = down(lambda x: x <= 0), down(lambda x: x < 0)
    position = np.empty(size, dtype=np.intp)
    position[order] = np.arange(size)  # weight o (data order) is the position[o]-th smallest
    # theta_a = sum_i u_i (P[size] - P[a1_i]) (u: the sorted weights; sum_i u_i = P[size]),
    # written over the weights in data order: u_i P[a1_i] = w_o P[a1[position[o]]]
    # a sum exactly at a bound counts 1/2: with such sums, 1/2 (P[a1_i] + P[ah_i]) for P[a1_i]
    ones_a = [a1] if np.array_equal(a1, ah) else [a1, ah]
    ones_b = ([b1] if np.array_equal(b1, bh) else [b1, bh]) if rope > 0 else []
    sets = ones_a + ones_b
    cols = np.concatenate([c[position] for c in sets])
    wins = np.zeros(3, dtype=np.int64)
    nsamples = 0
    width = max(block.shape[1] for block in blocks)
    # buffers reused from block to block (fresh large arrays would cost a page fault per page)
    p_buffer, g_buffer = np.empty((size + 1, width)), np.empty((len(sets) * size, width))
    for block in blocks:
        n = block.shape[1]
        nsamples += n
        p = p_buffer[:, :n] if n < width else p_buffer
        p[0] = 0.0
        rows, sources = list(p), [block[o] for o in order]
        for k in range(size):  # cumulative sums of the sorted weights, n samples at a time
            np.add(rows[k], sources[k], out=rows[k + 1])
        # mode "clip": the indices are valid, and "raise" would copy through a buffer
        g = np.take(p, cols, axis=0, out=g_buffer if n == width else None, mode="clip")
        dots = np.einsum("kis,is->ks", g.reshape(len(sets), size, n), block)  # sum_o w_o P[col_o]
        total = p[size]
        theta_a = total * total - (dots[0] if len(ones_a) == 1 else 0.5 * (dots[0] + dots[1]))
        if rope > 0:
            k = len(ones_a)
            theta_b = dots[k] if len(ones_b) == 1 else 0.5 * (dots[k] + dots[k + 1])
            theta = np.column_stack([theta_a, 1.0 - theta_a - theta_b, theta_b])
        else:
            theta = np.column_stack([theta_a, np.full_like(theta_a, -np.inf), 1.0 - theta_a])
        wins += np.bincount(np.argmax(theta, axis=1), minlength=3)
    return wins / nsamples
