"""stats.scott_knott's intake (issue 17): float64 vectors, checked all at once, give the very
result of the same values passed as lists (converted one by one by as_sample), and the same
errors; the per-learner samples are slices of the pooled values."""

from __future__ import annotations

import numpy as np
import pytest

from stats import scott_knott
from stats.groupings.scott_knott import _samples


def _result_bits(res):  # type: ignore[no-untyped-def]
    return (
        res.ranks,
        res.groups,
        {k: np.float64(v).tobytes() for k, v in res.centres.items()},
        [
            (s.better, s.worse, np.float64(s.statistic).tobytes(), np.float64(s.pvalue).tobytes(), s.accepted)
            for s in res.splits
        ],
    )


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("method", ["esd", "a12"])
def test_arrays_as_lists(seed: int, method: str) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 9))
    arrays = {
        f"L{j}": np.round(rng.normal(rng.choice([0.7, 0.75, 0.8]), 0.05, size=int(rng.integers(1, 40))), 3)
        for j in range(k)
    }
    lists = {name: v.tolist() for name, v in arrays.items()}
    higher = bool(seed % 2)
    if method == "a12" and seed % 3:
        return  # the bootstrap is slow: a third of the seeds
    got = scott_knott(arrays, higher_is_better=higher, method=method)
    want = scott_knott(lists, higher_is_better=higher, method=method)
    assert _result_bits(got) == _result_bits(want)


def test_samples_are_slices_of_the_pooled_values() -> None:
    names, values, pooled = _samples({"a": np.array([1.0, 2.0]), "b": [3, 4, 5]}, True)
    assert names == ["a", "b"]
    assert np.array_equal(np.concatenate(values), pooled)
    assert all(v.base is pooled or v.base is pooled.base for v in values)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_errors_name_the_learner(bad: float) -> None:
    arrays = {"a": np.array([1.0, 2.0]), "b": np.array([1.0, bad]), "c": np.array([bad])}
    with pytest.raises(ValueError) as got:
        scott_knott(arrays)
    with pytest.raises(ValueError) as want:
        scott_knott({k: v.tolist() for k, v in arrays.items()})
    assert str(got.value) == str(want.value) and "samples['b']" in str(got.value)
    with pytest.raises(ValueError, match="empty"):
        scott_knott({"a": np.array([1.0]), "b": np.array([], dtype=float)})
