"""Exhaustive sets and Shaffer's t_i, checked against Garcia & Herrera's (2008) own algorithm and table."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import stats
from stats.core import pairs
from stats.posthoc import shaffer_bergmann as bergmann
from stats.posthoc.shaffer_bergmann import bergmann_apv

BELL = [1, 1, 2, 5, 15, 52, 203, 877, 4140]


def _obtain_exhaustive(classifiers: tuple[int, ...]) -> set[frozenset[tuple[int, int]]]:
    """Garcia & Herrera (2008), Fig. 1 ("Algorithm for obtaining all exhaustive sets"), written from the slide."""
    e: set[frozenset[tuple[int, int]]] = set()
    everything = frozenset(combinations(classifiers, 2))
    if not everything:
        return e
    e.add(everything)
    last = classifiers[-1]
    rest = classifiers[:-1]
    # all divisions of C into C1 and C2 with c_k in C2 and C1 non-empty
    for size in range(1, len(rest) + 1):
        for c1 in combinations(rest, size):
            c2 = tuple(c for c in classifiers if c not in c1)
            e1, e2 = _obtain_exhaustive(c1), _obtain_exhaustive(c2)
            e |= e1 | e2
            e |= {a | b for a in e1 for b in e2}
    assert last in classifiers
    return e


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_exhaustive_sets_equal_the_slides_algorithm(k: int) -> None:
    ours = set(stats.exhaustive_sets(k))
    assert ours == _obtain_exhaustive(tuple(range(k)))
    assert len(ours) == BELL[k] - 1  # 51 for k = 5, as the slide counts


def test_garcia_herrera_2008_k5_listing_sizes() -> None:
    # Garcia & Herrera (2008) list the 51 sets of k = 5 by size: 10 of size 1, 15 of size 2, 10 of size 3,
    # 9 of size 4 (written (12,13,23,45) etc.) and 7 of size >= 6 (one of 10, 6 of 6).
    sizes = sorted(len(s) for s in stats.exhaustive_sets(5))
    assert [sizes.count(n) for n in (1, 2, 3, 4, 6, 10)] == [10, 15, 10, 10, 5, 1]


def test_shaffer_t_from_the_seed_table() -> None:
    # Garcia & Herrera (2008), Table 3: alpha_SH = 0.05 / t_i = .005, .0083 x4, .0125 x2, .0167, .025, .05
    t = stats.shaffer_t(5)
    assert np.round(0.05 / t, 4).tolist() == [
        0.005,
        0.0083,
        0.0083,
        0.0083,
        0.0083,
        0.0125,
        0.0125,
        0.0167,
        0.025,
        0.05,
    ]


def _brute_apv(p: np.ndarray, k: int) -> np.ndarray:
    index = {pair: i for i, pair in enumerate(pairs(k))}
    sets = [[index[x] for x in s] for s in _obtain_exhaustive(tuple(range(k)))]
    return np.array([min(1.0, max(len(s) * p[s].min() for s in sets if i in s)) for i in range(len(p))])


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_bergmann_apv_equals_brute_force(k: int) -> None:
    rng = np.random.default_rng(k)
    for _ in range(10):
        p = rng.uniform(size=k * (k - 1) // 2) ** 2
        assert np.allclose(bergmann_apv(p, k), _brute_apv(p, k), rtol=0, atol=1e-15)


# -- exact Bergmann-Hommel to k = 16 (issue 17): the branch and bound against the enumeration --------


def _p_vectors(k: int, seed: int) -> list[np.ndarray]:
    """Random p-values of the k(k-1)/2 pairs: continuous, small, tied (with 0 and 1), some p = 1,
    all equal, the p-values of a Friedman table's average ranks (ties between rank gaps), and a few
    levels only (many pairs share each threshold)."""
    rng = np.random.default_rng(seed)
    m = k * (k - 1) // 2
    ones = rng.uniform(size=m) ** 2
    ones[rng.uniform(size=m) < 0.3] = 1.0
    ranks = rng.integers(1, 2 * k, size=k) / 2  # average ranks on a half-rank grid
    gaps = np.array([abs(ranks[a] - ranks[b]) for a, b in pairs(k)])
    return [
        rng.uniform(size=m),
        rng.uniform(size=m) ** 6,
        np.round(rng.uniform(size=m), 1),  # ties, and p = 0 and p = 1
        ones,
        np.full(m, 0.003),
        np.round(np.exp(-gaps), 12),
        rng.choice(rng.uniform(size=3) ** 2, size=m),
    ]


# k: how many of _p_vectors' kinds to run (the enumeration takes about a second a call at k = 12)
ENUMERATED_KS = {3: 6, 4: 6, 5: 6, 6: 6, 7: 6, 8: 6, 9: 6, 10: 6, 11: 3, 12: 2}


@pytest.mark.parametrize("k", sorted(ENUMERATED_KS))
def test_bergmann_search_equals_the_enumeration_bit_for_bit(k: int) -> None:
    # The enumeration of all Bell(k) partitions was the implementation to k = 12: its values are the
    # known truth, and the branch and bound must give the same floating-point numbers.
    kinds = _p_vectors(k, seed=100 + k)
    rng = np.random.default_rng(k)
    for p in [kinds[i] for i in rng.permutation(len(kinds))[: ENUMERATED_KS[k]]] + kinds[4:5] + kinds[6:]:
        ours = bergmann_apv(p, k)
        truth = bergmann._bergmann_apv_enumerated(p, k)
        assert np.array_equal(ours, truth), (k, p.tolist(), ours.tolist(), truth.tolist())


def test_bergmann_search_equals_the_enumeration_on_few_levels() -> None:
    # Many pairs on one threshold: F(t) must consider every pair new at t (a search that held only
    # the first of them gave wrong APVs on 2 of the first 44 such vectors).
    rng = np.random.default_rng(17)
    for _ in range(300):
        k = int(rng.integers(5, 10))
        levels = rng.uniform(size=int(rng.integers(2, 6))) ** 2
        p = rng.choice(levels, size=k * (k - 1) // 2)
        assert np.array_equal(bergmann_apv(p, k), bergmann._bergmann_apv_enumerated(p, k)), (k, p.tolist())


def _set_partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for part in _set_partitions(rest):
        out.append([[first]] + part)
        for b in range(len(part)):
            out.append(part[:b] + [[first] + part[b]] + part[b + 1 :])
    return out


def _definition_apv(p: np.ndarray, k: int) -> list[float]:
    """APV_i = min(1, max over exhaustive I containing i of |I| * min p_I), in plain Python."""
    index = {pair: i for i, pair in enumerate(pairs(k))}
    best = [0.0] * len(p)
    for partition in _set_partitions(list(range(k))):
        inside = [index[pair] for block in partition for pair in combinations(sorted(block), 2)]
        if inside:
            value = len(inside) * min(float(p[i]) for i in inside)
            for i in inside:
                best[i] = max(best[i], value)
    return [min(1.0, v) for v in best]


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7, 8])
def test_bergmann_search_equals_the_plain_definition(k: int) -> None:
    for p in _p_vectors(k, seed=200 + k):
        assert bergmann_apv(p, k).tolist() == _definition_apv(p, k), (k, p.tolist())


@pytest.mark.parametrize("k", [13, 16])
def test_bergmann_k12_embedded_in_more_learners(k: int) -> None:
    # Learners whose pairs all have p = 0 add only sets of value 0: the APVs of the 12 others are
    # the enumeration's, whatever the labels of the added learners.
    rng = np.random.default_rng(k)
    p12 = _p_vectors(12, seed=300 + k)[0]
    old = rng.permutation(k)[:12]
    old.sort()
    where = {(int(old[a]), int(old[b])): i for i, (a, b) in enumerate(pairs(12))}
    p = np.array([p12[where[pair]] if pair in where else 0.0 for pair in pairs(k)])
    apv = bergmann_apv(p, k)
    inner = np.array([apv[i] for i, pair in enumerate(pairs(k)) if pair in where])
    assert np.array_equal(inner, bergmann._bergmann_apv_enumerated(p12, 12))
    assert all(apv[i] == 0.0 for i, pair in enumerate(pairs(k)) if pair not in where)


def _threshold_dp_apv(p: np.ndarray, k: int) -> np.ndarray:
    """An independent exact computation for few distinct p-values: for each threshold t, the best
    partition of the learners into cliques of {pairs with p >= t} holding each pair, by dynamic
    programming over all 2^k subsets; APV_i = min(1, max_t t * best_i(t))."""
    plist = pairs(k)
    apv = np.array(p, dtype=float)
    for t in sorted({float(x) for x in p if x > 0}):
        adj = [0] * k
        for i, (a, b) in enumerate(plist):
            if p[i] >= t:
                adj[a] |= 1 << b
                adj[b] |= 1 << a

        def cliques(base: int, cand: int, adj: list[int] = adj) -> list[int]:
            out = [base]
            while cand:
                low = cand & -cand
                cand ^= low
                out += cliques(base | low, cand & adj[low.bit_length() - 1], adj)
            return out

        g = [0] * (1 << k)  # g[S]: best sum C(|B|, 2) over the partitions of S into cliques
        for s in range(1, 1 << k):
            v = (s & -s).bit_length() - 1
            g[s] = max(c.bit_count() * (c.bit_count() - 1) // 2 + g[s & ~c] for c in cliques(1 << v, s & adj[v]))
        full = (1 << k) - 1
        for i, (a, b) in enumerate(plist):
            if p[i] >= t:
                base = (1 << a) | (1 << b)
                w = max(c.bit_count() * (c.bit_count() - 1) // 2 + g[full & ~c] for c in cliques(base, adj[a] & adj[b]))
                apv[i] = max(apv[i], w * t)
    return np.minimum(apv, 1.0)


def test_bergmann_search_equals_subset_dp_at_k13() -> None:
    rng = np.random.default_rng(13)
    m = 13 * 12 // 2
    for levels in ([0.001, 0.002, 0.004], [1e-4, 3e-4, 0.02, 1.0]):
        p = rng.choice(levels, size=m)
        assert np.array_equal(bergmann_apv(p, 13), _threshold_dp_apv(p, 13)), p.tolist()


@pytest.mark.parametrize("k", [13, 14, 15, 16])
def test_bergmann_properties_to_k16(k: int) -> None:
    m = k * (k - 1) // 2
    rng = np.random.default_rng(400 + k)
    # all equal: the set of all pairs is the best for every pair
    for x in (0.003, 0.0001, 0.2):
        assert np.array_equal(bergmann_apv(np.full(m, x), k), np.minimum(1.0, np.full(m, m * x)))
    p = rng.uniform(size=m) ** 2
    apv = bergmann_apv(p, k)
    shaffer = stats.adjust(p, "shaffer")
    assert np.all(apv >= p) and np.all(apv <= shaffer) and np.all(apv <= 1.0)
    assert np.any(apv < shaffer)  # the logical structure is used: not Shaffer's values again
    # relabelling the learners relabels the APVs (the search's vertex order changes)
    perm = rng.permutation(k)
    where = {pair: i for i, pair in enumerate(pairs(k))}
    moved = [where[tuple(sorted((int(perm[a]), int(perm[b]))))] for a, b in pairs(k)]
    q = np.empty(m)
    q[moved] = p
    assert np.array_equal(bergmann_apv(q, k)[moved], apv)
    # smaller p-values never give larger APVs
    assert np.all(bergmann_apv(p * rng.uniform(0.5, 1.0, size=m), k) <= apv)


def test_bergmann_apv_limit_and_size() -> None:
    assert stats.MAX_EXACT_K == 16
    with pytest.raises(ValueError, match="limited to k <= 16"):
        bergmann_apv(np.full(136, 0.1), 17)
    with pytest.raises(ValueError, match="all 6 pairs of 4 learners"):
        bergmann_apv(np.full(5, 0.1), 4)
    assert bergmann_apv(np.array([0.3]), 2).tolist() == [0.3]


def test_garcia_herrera_2008_k5_sizes_are_bell_minus_one_up_to_8() -> None:
    for k in range(2, 9):
        assert len(stats.exhaustive_sets(k)) == BELL[k] - 1


# -- Shaffer's S(k) and t_i (Shaffer 1986; Garcia & Herrera 2008, "Detecting all pairwise differences") --


def _s_recursive(k: int) -> set[int]:
    """Garcia & Herrera's (2008) formula as printed, without any cache: S(k) = U_j {C(j,2) + x : x in S(k-j)}."""
    if k <= 1:
        return {0}
    return {j * (j - 1) // 2 + x for j in range(1, k + 1) for x in _s_recursive(k - j)}


def _integer_partitions(k: int, largest: int | None = None) -> list[list[int]]:
    largest = k if largest is None else largest
    if k == 0:
        return [[]]
    return [[b, *rest] for b in range(min(k, largest), 0, -1) for rest in _integer_partitions(k - b, b)]


def _s_partitions(k: int) -> set[int]:
    """The definition behind the formula: the true hypotheses are the pairs inside the blocks of a
    partition of the k learners into groups of equal ones, so S(k) = {sum C(b, 2) : b a block size}."""
    return {sum(b * (b - 1) // 2 for b in blocks) for blocks in _integer_partitions(k)}


# Listed by hand from the integer partitions of k (for k = 5, the t_i of Garcia & Herrera's (2008) Table 3 use exactly
# these: 10, 6 x4, 4 x2, 3, 2, 1).
KNOWN_S = {
    2: {0, 1},
    3: {0, 1, 3},
    4: {0, 1, 2, 3, 6},
    5: {0, 1, 2, 3, 4, 6, 10},
    6: {0, 1, 2, 3, 4, 6, 7, 10, 15},
    7: {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 15, 21},
}


@pytest.mark.parametrize("k", range(0, 10))
def test_shaffer_s_equals_the_recursive_formula_and_the_partitions(k: int) -> None:
    ours = stats.shaffer_s(k)
    assert ours == _s_recursive(k) == _s_partitions(k)
    if k in KNOWN_S:
        assert ours == KNOWN_S[k]


@pytest.mark.parametrize("k", range(2, 9))
def test_shaffer_s_is_the_sizes_of_the_exhaustive_sets(k: int) -> None:
    assert stats.shaffer_s(k) == {0} | {len(s) for s in stats.exhaustive_sets(k)}


@pytest.mark.parametrize("k", range(2, 10))
def test_shaffer_t_is_the_largest_possible_count_below_each_bound(k: int) -> None:
    m = k * (k - 1) // 2
    possible = _s_recursive(k)
    expected = [max(s for s in possible if s <= m - i + 1) for i in range(1, m + 1)]
    assert stats.shaffer_t(k).tolist() == expected


def test_shaffer_t_known_sequences() -> None:
    assert stats.shaffer_t(3).tolist() == [3, 1, 1]
    assert stats.shaffer_t(4).tolist() == [6, 3, 3, 3, 2, 1]


@pytest.mark.parametrize("k", [10, 13, 20, 33, 34, 50, 75, 100])
def test_shaffer_t_properties_up_to_k_100(k: int) -> None:
    m = k * (k - 1) // 2
    s = stats.shaffer_s(k)
    t = stats.shaffer_t(k)
    assert len(t) == m and t.dtype == np.int64
    assert 0 in s and 1 in s and max(s) == m
    assert m - 1 not in s  # one false pair forces another: C(k-1, 2) is the most below m
    assert t[0] == m and t[1] == (k - 1) * (k - 2) // 2 and t[-1] == 1  # Shaffer (1986): t_2 = C(k-1, 2)
    assert np.all(np.diff(t) <= 0)
    assert all(int(x) in s for x in t)
    assert np.all(t <= m - np.arange(m))  # never above Holm's m - i + 1
    if k <= 34:  # p(34) = 12,310 partitions; beyond that the brute force is slow
        assert s == _s_partitions(k)


def test_shaffer_t_computes_each_s_once() -> None:
    # A 32-entry lru_cache on the recursion evicted what it needed from k = 33 on: shaffer_t(50)
    # made 524,319 calls (issue 13, item 4). Each S(0..50) must be computed once, then reused.
    from stats.posthoc import shaffer_bergmann as bergmann

    bergmann._shaffer_s.cache_clear()
    bergmann._shaffer_t.cache_clear()
    bergmann.shaffer_t(50)
    assert bergmann._shaffer_s.cache_info().misses == 51
    bergmann.shaffer_t(40)
    bergmann.shaffer_t(50)
    assert bergmann._shaffer_s.cache_info().misses == 51


def test_shaffer_s_rejects_negative_k() -> None:
    with pytest.raises(ValueError, match="k must be >= 0"):
        stats.shaffer_s(-1)


@pytest.mark.parametrize("seed", range(6))
def test_one_pairs_decision_is_its_apvs_to_the_last_bit(seed: int) -> None:
    # bergmann_exceeds(p, h, k, alpha) is bergmann_apv(p, k)[h] > alpha, for alphas at the APVs
    # themselves and one float below them (the boundary), on random, rounded (tied) and equal p
    from stats.posthoc.shaffer_bergmann import bergmann_exceeds

    rng = np.random.default_rng(seed)
    for trial in range(30):
        k = int(rng.integers(3, 11))
        m = k * (k - 1) // 2
        p = rng.random(m) ** int(rng.integers(1, 6))
        if trial % 3 == 1:
            p = np.round(p, 2)
        elif trial % 3 == 2:
            p[:] = p[0]
        apv = bergmann_apv(p, k)
        for alpha in (0.01, 0.05, float(apv[trial % m]), float(np.nextafter(apv[trial % m], 0)), 1.0):
            got = [bergmann_exceeds(p, h, k, alpha) for h in range(m)]
            assert got == [bool(a > alpha) for a in apv], (k, alpha)
