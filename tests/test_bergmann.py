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
