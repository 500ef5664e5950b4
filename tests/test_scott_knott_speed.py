"""The pieces stats.scott_knott computes faster are the very floats it computed before: a mean of
a slice of the pooled values is np.mean of the concatenated samples, ``_mean`` is ``ndarray.mean``,
``_chi2_sf`` is ``scipy.stats.chi2.sf`` (bit for bit, on many shapes and values)."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from stats.groupings import scott_knott as sk


def test_mean_of_a_slice_is_the_mean_of_the_concatenation() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        parts = [
            rng.normal(rng.uniform(-3, 3), rng.uniform(1e-3, 10), rng.integers(1, 300))
            for _ in range(rng.integers(2, 12))
        ]
        pooled = np.concatenate(parts)
        ends = np.cumsum([p.size for p in parts]).tolist()
        for c in range(1, len(parts)):
            left, right = np.concatenate(parts[:c]), np.concatenate(parts[c:])
            assert sk._mean(pooled[: ends[c - 1]]).tobytes() == left.mean().tobytes()
            assert sk._mean(pooled[ends[c - 1] :]).tobytes() == right.mean().tobytes()
            assert sk._mean(left).tobytes() == np.mean(left).tobytes()


def test_chi2_sf_is_scipys() -> None:
    rng = np.random.default_rng(6)
    xs = [0.0, 1e-300, 0.5, 1.0, 3.84, 50.0, 1e3, math.inf, *rng.exponential(5.0, 200).tolist()]
    for k in range(2, 25):
        df = k / (math.pi - 2)
        for x in xs:
            assert sk._chi2_sf(x, df) == float(sps.chi2.sf(x, df)), (x, df)
