"""Logically related pairwise hypotheses: Shaffer's t_i and Bergmann-Hommel's exhaustive sets.

For k learners, an index set I of pairwise hypotheses "learner a = learner b"
is *exhaustive* when exactly the hypotheses in I can be true together
(Garcia & Herrera 2008, Definition 1). Equality is an equivalence relation,
so the exhaustive sets are exactly the pairs inside the blocks of a set
partition of the k learners: one per partition with at least one block of
size >= 2, Bell(k) - 1 of them (51 for k = 5, as Garcia & Herrera count). Instead of
the recursive algorithm of Garcia & Herrera (2008, Fig. 1), :func:`exhaustive_sets` generates the
partitions directly as restricted growth strings, vectorised with numpy.

Bergmann-Hommel's APVs (:func:`bergmann_apv`) do not list the sets (Bell(16) is about
1e10): a branch and bound over the partitions finds them exactly up to k = 16
(:data:`MAX_EXACT_K`).
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from itertools import combinations

import numpy as np

from stats.core import pairs
from stats.posthoc._cluster_deletion import _best_partition, _least_weight, _max_cliques_per_vertex, _packing_bound

#: Largest k for which Bergmann-Hommel is computed exactly (Bell(16) - 1 = 10,480,142,146 exhaustive
#: sets, searched by branch and bound; see :func:`bergmann_apv`).
MAX_EXACT_K = 16


_S_LOCK = threading.RLock()


@cache
def _shaffer_s(k: int) -> int:
    """S(k), the possible numbers of true pairwise hypotheses among k learners, as a bit mask
    (bit s set when exactly s hypotheses can be true together).

    S(k) = U_{j=1..k} { C(j, 2) + x : x in S(k - j) }, S(0) = S(1) = {0} (Shaffer 1986, as Garcia & Herrera 2008
    print it: j learners are equal to one another, the other k - j arrange freely). Built bottom-up: S(i)
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
    826-831; Garcia & Herrera (2008) JMLR 9, Sec. 3.2 and Table 3 (t_i of k = 5).

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


def _bergmann_apv_enumerated(p: np.ndarray, k: int) -> np.ndarray:
    """Bergmann-Hommel APVs by listing all Bell(k) partitions: the implementation used up to
    k = 12 before the branch and bound of :func:`bergmann_apv`, kept as its reference.

    For each partition, min p over its pairs is found by visiting the pairs in
    ascending p order and assigning each partition the first pair it
    contains; then each pair's APV is the largest |I| min p over the
    partitions containing it. Cost O(m * Bell(k)); k = 12 takes a few seconds.
    """
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


def bergmann_apv(p: np.ndarray, k: int) -> np.ndarray:
    """Bergmann-Hommel APVs for the pairs of k learners (p in :func:`pairs` order), exact for
    k <= :data:`MAX_EXACT_K` (16).

    APV_i = min(1, max{ |I| * min{p_j : j in I} : I exhaustive, i in I })
    (Bergmann & Hommel 1988; Garcia & Herrera 2008, Sec. 3.2, "APVs for each post-hoc
    procedure"), with no further step: the same numbers, to the last bit, as listing all Bell(k) - 1
    exhaustive sets (:func:`_bergmann_apv_enumerated`, the implementation to k = 12 before).

    Bell(16) - 1 is about 1e10 sets, so they are not listed. The search:

    1. Thresholds. For a value t among the p-values let G_t be the graph on the learners with an
       edge for each pair with p >= t. An exhaustive set with min p >= t is a partition of the
       learners into cliques of G_t (the pairs inside its blocks), and |I| = sum C(|B|, 2). With
       F_i(t) the largest |I| over those partitions that hold pair i = (a, b) in one block,
       ``max{|I| min p_I : I exhaustive, i in I} = max{t * F_i(t) : t a p-value <= p_i}``, and the
       same in floating point (W * x rounds monotonically in x): the set attaining the maximum has
       min p = t* and is counted at t = t*; at any t every counted set has min p >= t.
    2. Branch and bound (:func:`stats.posthoc._cluster_deletion._best_partition`). F_i(t) is a
       cluster deletion problem (keep the most edges of G_t while turning it into disjoint
       cliques), NP-hard in general (Shamir,
       Sharan & Tsur 2004), solved by a depth-first search over the partitions with the packing
       bound of :func:`stats.posthoc._cluster_deletion._packing_bound`.
    3. Pruning. L_i, the best value found for pair i, starts at p_i (the set {i} alone) and grows
       with every partition found: a partition of weight W and least p-value x gives W * x to every
       pair inside its blocks. Pair i searches threshold t only while t * U(t) > L_i, and asks only
       for W with W * t > L_i. U(t) bounds every F_j(t): first the packing bound of G_t (and of
       every smaller threshold's, since F grows as t falls); from the second pair that would search
       t on, F(t) itself, the largest |I| at t, found threshold by threshold from the largest: a
       partition heavier than F at the previous threshold holds a pair with p = t (else it was a
       partition there), so F(t) = max(F(previous), the heaviest partition holding a new pair),
       and searches holding a pair are small. A pair's own F_i(t) <= W also holds at every
       larger threshold. Thresholds go in decreasing order of t * U(t); pair i stops at L_i >= 1,
       since APVs are capped at 1.

    Every pair's value is the maximum over all thresholds that could exceed it, so it is exact.
    Cost (benchmarks/bench_bergmann.py): milliseconds for k <= 10, well under a second for
    k = 12 (the enumeration took 2 s cold), and at k = 16 up to a few seconds for p-values that
    are random, tied, all equal, of a Friedman table, or chosen so that no threshold can be
    skipped early.

    References
    ----------
    Bergmann, B. & Hommel, G. (1988). Improvements of general multiple test procedures for
    redundant systems of hypotheses. In Multiple Hypothesenprufung, 100-115, Springer.
    Garcia, S. & Herrera, F. (2008). An extension on "Statistical comparisons of classifiers over
    multiple data sets" for all pairwise comparisons. JMLR 9, 2677-2694.
    Shamir, R., Sharan, R. & Tsur, D. (2004). Cluster graph modification problems. Discrete
    Applied Mathematics 144(1-2), 173-182.
    """
    if k > MAX_EXACT_K:
        raise ValueError(f"exact Bergmann-Hommel is limited to k <= {MAX_EXACT_K}, got {k}")
    plist = pairs(k)
    pv = [float(x) for x in np.asarray(p, dtype=float)]
    if len(pv) != len(plist):
        raise ValueError(f"need the p-values of all {len(plist)} pairs of {k} learners, got {len(pv)}")
    index = {pair: i for i, pair in enumerate(plist)}
    best = list(pv)  # L_i: |I| = 1 for the set of pair i alone

    def credit(weight: int, blocks: list[int]) -> None:
        inside = []
        for block in blocks:
            members = [u for u in range(k) if block >> u & 1]
            inside.extend(index[pair] for pair in combinations(members, 2))
        value = weight * min(pv[i] for i in inside)
        for i in inside:
            if value > best[i]:
                best[i] = value

    thresholds = sorted({x for x in pv if x > 0}, reverse=True)  # position j: G_t grows with j
    graphs: list[tuple[list[int], list[int]]] = []
    upper: list[int] = []  # U(t): F_i(t) <= U(t) for every pair i
    for t in thresholds:
        adj = [0] * k
        for i, (a, b) in enumerate(plist):
            if pv[i] >= t:
                adj[a] |= 1 << b
                adj[b] |= 1 << a
        omega = _max_cliques_per_vertex(adj, k)
        graphs.append((adj, omega))
        upper.append(_packing_bound([min(x.bit_count() + 1, o) for x, o in zip(adj, omega)]))
    # F never shrinks as t falls (G_t gains edges): a bound at t holds at every larger threshold.
    for j in range(len(upper) - 2, -1, -1):
        upper[j] = min(upper[j], upper[j + 1])
    # F(t) exactly, threshold by threshold from the largest, when a second pair would search t:
    # a partition heavier than F at the previous threshold holds one of the pairs with p = t
    # (without them it was a partition there), so F(t) = max(F(previous), the heaviest partition
    # holding a new pair). Searches holding a pair are far smaller than searches holding none.
    new_pairs: list[list[int]] = [[] for _ in thresholds]
    position = {t: j for j, t in enumerate(thresholds)}
    for i, x in enumerate(pv):
        if x > 0:
            a, b = plist[i]
            new_pairs[position[x]].append((1 << a) | (1 << b))
    exact = [0]  # F is exact at the thresholds before position exact[0]
    visits = [0] * len(thresholds)

    def make_exact(upto: int) -> None:
        for j in range(exact[0], upto + 1):
            adj, omega = graphs[j]
            weight = upper[j - 1] if j else 0
            for held in new_pairs[j]:
                hit = _best_partition(adj, omega, k, [held], weight + 1)
                if hit is not None:
                    weight = hit[0]
                    credit(*hit)
            upper[j] = weight
        exact[0] = max(exact[0], upto + 1)

    for i in sorted(range(len(pv)), key=lambda j: -pv[j]):
        if best[i] >= 1.0:
            continue
        a, b = plist[i]
        held = [(1 << a) | (1 << b)]
        ceiling: list[tuple[int, int]] = []  # (j, W): F_i <= W at threshold j and every larger one
        order = sorted(((thresholds[j] * upper[j], j) for j, t in enumerate(thresholds) if t <= pv[i]), reverse=True)
        for reach, j in order:
            if best[i] >= 1.0 or not reach > best[i]:
                break  # U(t) never grows, so no later threshold can reach best[i] either
            t = thresholds[j]
            need = _least_weight(t, best[i])
            if need > min([upper[j]] + [w for jj, w in ceiling if jj >= j]):
                continue
            visits[j] += 1
            if visits[j] >= 2 and j >= exact[0]:
                make_exact(j)
                need = _least_weight(t, best[i])
                if need > upper[j]:
                    continue
            adj, omega = graphs[j]
            hit = _best_partition(adj, omega, k, held, need)
            if hit is None:
                ceiling.append((j, need - 1))
            else:
                credit(*hit)
                ceiling.append((j, hit[0]))
    return np.minimum(np.array(best, dtype=float), 1.0)


def bergmann_exceeds(p: np.ndarray, h: int, k: int, alpha: float) -> bool:
    """Whether pair ``h``'s Bergmann-Hommel APV exceeds ``alpha``: ``bergmann_apv(p, k)[h] > alpha``,
    the same decision to the last bit, without the other pairs' APVs.

    By step 1 of :func:`bergmann_apv`, APV_h > alpha (alpha < 1) exactly when some threshold t, a
    p-value in (0, p_h], has F_h(t) >= W_t, the least integer W with W * t > alpha in floating
    point: a partition of G_t into cliques holding pair h in one block with sum C(|B|, 2) >= W_t.
    Thresholds go from the largest down (W_t grows as t falls, so the search stops once W_t exceeds
    C(k, 2)), and the first partition found answers. A search that is to decide many pairs'
    rejections one removal at a time (:func:`stats.fragility`) needs only this: it costs a
    fraction of the APVs of all pairs.
    """
    if not alpha < 1.0:
        return False  # APVs are capped at 1
    plist = pairs(k)
    pv = [float(x) for x in np.asarray(p, dtype=float)]
    if pv[h] > alpha:
        return True  # the set {h} alone
    a, b = plist[h]
    held = [(1 << a) | (1 << b)]
    m = len(plist)
    for t in sorted({x for x in pv if 0 < x <= pv[h]}, reverse=True):
        need = _least_weight(t, alpha)
        if need > m:
            return False
        adj = [0] * k
        for i, (u, v) in enumerate(plist):
            if pv[i] >= t:
                adj[u] |= 1 << v
                adj[v] |= 1 << u
        if not (adj[a] >> b & 1):
            continue
        omega = _max_cliques_per_vertex(adj, k)
        if _packing_bound([min(x.bit_count() + 1, o) for x, o in zip(adj, omega)]) < need:
            continue
        if _best_partition(adj, omega, k, held, need) is not None:
            return True
    return False
