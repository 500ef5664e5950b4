"""Exhaustive sets and Shaffer's t_i, checked against seed 002's own algorithm and table."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import stats
from stats.bergmann import bergmann_apv, pairs

BELL = [1, 1, 2, 5, 15, 52, 203, 877, 4140]


def _obtain_exhaustive(classifiers: tuple[int, ...]) -> set[frozenset[tuple[int, int]]]:
    """Seed 002, Fig. 1 ("Algorithm for obtaining all exhaustive sets"), written from the slide."""
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


def test_seed002_k5_listing_sizes() -> None:
    # Seed 002 lists the 51 sets of k = 5 by size: 10 of size 1, 15 of size 2, 10 of size 3,
    # 9 of size 4 (written (12,13,23,45) etc.) and 7 of size >= 6 (one of 10, 6 of 6).
    sizes = sorted(len(s) for s in stats.exhaustive_sets(5))
    assert [sizes.count(n) for n in (1, 2, 3, 4, 6, 10)] == [10, 15, 10, 10, 5, 1]


def test_shaffer_t_from_the_seed_table() -> None:
    # seed 002, Table 3: alpha_SH = 0.05 / t_i = .005, .0083 x4, .0125 x2, .0167, .025, .05
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


def test_seed002_k5_sizes_are_bell_minus_one_up_to_8() -> None:
    for k in range(2, 9):
        assert len(stats.exhaustive_sets(k)) == BELL[k] - 1


# -- Shaffer's S(k) and t_i (Shaffer 1986; seed 002, "Detecting all pairwise differences") -------


def _s_recursive(k: int) -> set[int]:
    """Seed 002's formula as printed, without any cache: S(k) = U_j {C(j,2) + x : x in S(k-j)}."""
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


# Listed by hand from the integer partitions of k (for k = 5, seed 002 Table 3's t_i use exactly
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
    from stats import bergmann

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
