"""Logically related pairwise hypotheses: Shaffer's t_i and Bergmann-Hommel's exhaustive sets.

For k learners, an index set I of pairwise hypotheses "learner a = learner b"
is *exhaustive* when exactly the hypotheses in I can be true together
(Garcia & Herrera 2008, Definition 1). Equality is an equivalence relation,
so the exhaustive sets are exactly the pairs inside the blocks of a set
partition of the k learners: one per partition with at least one block of
size >= 2, Bell(k) - 1 of them (51 for k = 5, as seed 002 counts). Instead of
the recursive algorithm of seed 002 (Fig. 1), the partitions are generated
directly as restricted growth strings, vectorised with numpy.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from itertools import combinations

import numpy as np

#: Largest k for which Bergmann-Hommel is computed exactly (Bell(12) - 1 = 4,213,596 sets).
MAX_EXACT_K = 12


def pairs(k: int) -> list[tuple[int, int]]:
    """The k(k-1)/2 pairs of learners in the library's order (0,1), (0,2), ..., (1,2), ..."""
    return list(combinations(range(k), 2))


_S_LOCK = threading.RLock()


@cache
def _shaffer_s(k: int) -> int:
    """S(k), the possible numbers of true pairwise hypotheses among k learners, as a bit mask
    (bit s set when exactly s hypotheses can be true together).

    S(k) = U_{j=1..k} { C(j, 2) + x : x in S(k - j) }, S(0) = S(1) = {0} (Shaffer 1986, as seed 002
    prints it: j learners are equal to one another, the other k - j arrange freely). Built bottom-up: S(i)
    for every i < k is in the unbounded cache before S(k) is made, so each S(i) is computed once
    and there is no recursion. A bit mask turns "C(j, 2) + x for x in S" into one shift: S(k) is
    the OR of S(k - j) << C(j, 2). (A 32-entry cache of the recursion itself thrashed from k = 33 on:
    524,319 calls for k = 50.)
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if k <= 1:
        return 1  # {0}
    with _S_LOCK:  # analysis workers may ask at once; the lock keeps each S(i) computed once
        for i in range(2, k):
            _shaffer_s(i)  # in increasing order: each call finds S(0..i-1) cached
        out = 0
        for j in range(1, k + 1):
            out |= _shaffer_s(k - j) << (j * (j - 1) // 2)
    return out


def shaffer_s(k: int) -> frozenset[int]:
    """Shaffer's S(k): every number of pairwise hypotheses "a = b" among k learners that can be
    true together (the within-block pairs of a partition of the learners).

    Cost: every S(k') for k' <= k is built once per process and kept (about k^3 / 6 bits).

    Examples
    --------
    >>> sorted(shaffer_s(4))
    [0, 1, 2, 3, 6]
    """
    bits = _shaffer_s(int(k))
    return frozenset(np.flatnonzero(_members(bits, bits.bit_length())).tolist())


def _members(bits: int, size: int) -> np.ndarray:
    """The bit mask ``bits`` as ``size`` booleans, bit 0 first."""
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(bool)


@lru_cache(maxsize=64)
def _shaffer_t(k: int) -> tuple[int, ...]:
    # t_i = max{s in S(k) : s <= m - i + 1}, i = 1..m: the largest possible s at or below each bound
    m = k * (k - 1) // 2
    member = _members(_shaffer_s(k), m + 1)
    last = np.maximum.accumulate(np.where(member, np.arange(m + 1), 0))  # largest s in S(k) at or below
    return tuple(int(x) for x in last[m:0:-1])


def shaffer_t(k: int) -> np.ndarray:
    """t_i, i = 1..m: the most hypotheses that can be true given that any i - 1 are false.

    Shaffer's (1986) static procedure rejects H_i when p_i <= alpha / t_i. Cost: S(k) is built
    once per process for every k' <= k (O(k^2) shifts of k^2/2-bit masks; k = 100 in a few ms).

    References
    ----------
    Shaffer, J. P. (1986). Modified sequentially rejective multiple test procedures. JASA 81(395),
    826-831; Garcia & Herrera (2008) JMLR 9, Sec. 3.2; seed 002, Table 3 (t_i of k = 5).

    Examples
    --------
    >>> shaffer_t(5).tolist()
    [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]
    """
    return np.array(_shaffer_t(k), dtype=np.int64)  # t_i = max{s in S(k) : s <= m - i + 1}


@lru_cache(maxsize=2)
def _partitions(k: int) -> tuple[np.ndarray, np.ndarray]:
    """All set partitions of k items as restricted growth strings, shape (k, Bell(k)),
    and the number of within-block pairs |I| of each."""
    rgs = np.zeros((1, 1), dtype=np.int8)
    top = np.zeros(1, dtype=np.int8)
    for _ in range(1, k):
        choices = top.astype(np.int64) + 2  # a new item joins block 0..top or opens block top+1
        parent = np.repeat(np.arange(len(rgs)), choices)
        start = np.repeat(np.cumsum(choices) - choices, choices)
        label = (np.arange(len(parent)) - start).astype(np.int8)
        rgs = np.column_stack([rgs[parent], label])
        top = np.maximum(top[parent], label)
    table = np.ascontiguousarray(rgs.T)
    size = np.zeros(table.shape[1], dtype=np.int64)
    for a, b in pairs(k):
        size += table[a] == table[b]
    table.setflags(write=False)
    size.setflags(write=False)
    return table, size


def exhaustive_sets(k: int) -> list[frozenset[tuple[int, int]]]:
    """Every exhaustive set of the pairwise hypotheses of k learners (Bell(k) - 1 sets).

    Examples
    --------
    >>> len(exhaustive_sets(5))
    51
    """
    if k < 2 or k > 8:
        raise ValueError(f"exhaustive_sets lists sets for 2 <= k <= 8 only, got {k}")
    table, size = _partitions(k)
    out = []
    for col in np.flatnonzero(size > 0):
        labels = table[:, col]
        out.append(frozenset((a, b) for a, b in pairs(k) if labels[a] == labels[b]))
    return out


def bergmann_apv(p: np.ndarray, k: int) -> np.ndarray:
    """Bergmann-Hommel APVs for the pairs of k learners (p in :func:`pairs` order).

    APV_i = min(1, max{ |I| * min{p_j : j in I} : I exhaustive, i in I })
    (Garcia & Herrera 2008, Sec. 3.2; seed 002, "APVs for each post-hoc procedure").

    For each partition, min p over its pairs is found by visiting the pairs in
    ascending p order and assigning each partition the first pair it
    contains; then each pair's APV is the largest |I| min p over the
    partitions containing it. Cost O(m * Bell(k)); k = 12 takes a few seconds.
    """
    if k > MAX_EXACT_K:
        raise ValueError(f"exact Bergmann-Hommel is limited to k <= {MAX_EXACT_K}, got {k}")
    table, size = _partitions(k)
    plist = pairs(k)
    value = np.zeros(table.shape[1])
    open_ = np.ones(table.shape[1], dtype=bool)
    for j in np.argsort(p, kind="stable"):
        a, b = plist[j]
        member = table[a] == table[b]
        first = member & open_
        value[first] = size[first] * p[j]
        open_ &= ~member
    apv = np.empty(len(plist))
    for i, (a, b) in enumerate(plist):
        apv[i] = value[table[a] == table[b]].max()
    return np.minimum(apv, 1.0)
