"""stats.core._order_statistics and the Hodges-Lehmann loop that reads it (issue 17): the same bits as
``np.partition`` and as the previous loop (kept below as the reference), ties and signed zeros
included, on arrays large enough to take the bounded path."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats.core import _order_statistics, pairs
from stats.core._order_statistics import order_statistics
from stats.core._table import snap, snap_at, snap_digits
from stats.twosample.all_pairs_effects import _hodges_lehmann, _rank_powers
from stats.twosample.effect_size import HL_EXACT_BELOW, interval_rank


def _bits(values: list[float] | np.ndarray) -> list[int]:
    return np.asarray(values, dtype=np.float64).view(np.int64).tolist()


def _partitioned(x: np.ndarray, ks: list[int]) -> list[float]:
    y = x.copy()
    y.partition(sorted(set(ks)))
    return [float(y[k]) for k in ks]


def _array(rng: np.random.Generator, m: int, kind: int) -> np.ndarray:
    if kind == 0:
        return rng.normal(size=m)
    if kind == 1:  # heavy ties, signed zeros
        x = np.round(rng.normal(scale=0.01, size=m), 3)
        x[rng.random(m) < 0.3] = -0.0
        return x
    if kind == 2:  # sorted, reversed: a sample at a fixed stride sees a trend
        return np.sort(rng.random(m))[:: 1 if m % 2 else -1].copy()
    if kind == 3:  # a few NaN (np.partition puts them last)
        x = rng.random(m)
        x[rng.integers(0, m, size=5)] = np.nan
        return x
    return np.repeat(rng.random(m // 50 + 1), 50)[:m].copy()  # runs of equal values


@pytest.mark.parametrize("seed", range(40))
def test_as_np_partition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m = int(rng.choice([10, 4095, 4096, 5000, 125_250, 40_000]))
    x = _array(rng, m, seed % 5)
    centre = int(rng.integers(0, m))
    ks = sorted({max(0, centre - 2000), centre, min(m - 1, centre + 1), min(m - 1, centre + 3000)})
    if seed % 7 == 0:
        ks = [0, m // 2, m - 1]  # the extremes: the sample cannot bound them, the whole array is used
    expected = _partitioned(x, ks)
    assert _bits(order_statistics(x.copy(), ks)) == _bits(expected)


def test_the_bounded_path_is_taken() -> None:
    x = np.random.default_rng(1).normal(size=125_250)
    ks = [56_000, 62_624, 62_625, 69_000]
    calls: list[int] = []
    original = np.ndarray.partition

    class Counting(np.ndarray):
        def partition(self, kth, *args, **kwargs):  # type: ignore[override]
            calls.append(self.size)
            return original(self, kth, *args, **kwargs)

    got = order_statistics(x.view(Counting), ks)
    assert _bits(got) == _bits(_partitioned(x, ks))
    assert calls and max(calls) < x.size // 4  # the sample and the values between the bounds only


def test_zero_read_partitions_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.zeros(10_000)
    x[::2] = -0.0
    x[:100] = -1.0
    x[-100:] = 1.0
    for ks in ([5000], [4999, 5000], [100, 9899]):
        assert _bits(order_statistics(x.copy(), ks)) == _bits(_partitioned(x, ks))
    monkeypatch.setattr(_order_statistics, "_SMALL", 10**9)  # the whole array always: the same
    assert _bits(order_statistics(x.copy(), [5000])) == _bits(_partitioned(x, [5000]))


def _previous_hodges_lehmann(raw: np.ndarray, first: np.ndarray, second: np.ndarray, higher: bool, level: float):
    """stats.twosample.all_pairs_effects._hodges_lehmann before issue 17 (np.partition of every average)."""
    x, y = raw[:, first], raw[:, second]
    if not higher:
        x, y = y, x
    scale = np.maximum(np.abs(x), np.abs(y))
    digits = snap_digits(scale, x.shape)
    d = snap_at(snap_at(x, digits) - snap_at(y, digits), digits)
    n = d.shape[0]
    i, j = np.triu_indices(n)
    m = i.size
    half = m // 2
    magnitudes = np.sort(np.abs(d), axis=0)
    distinct = (magnitudes[1:] != magnitudes[:-1]).all(axis=0)
    exact = (n < HL_EXACT_BELOW) & (d != 0).all(axis=0) & distinct
    c = np.array([interval_rank(n, bool(e), level) for e in exact.tolist()], dtype=np.intp)
    middle = [half] if m % 2 else [half - 1, half]
    dt, st = np.ascontiguousarray(d.T), np.ascontiguousarray(scale.T)
    dense, powers = _rank_powers(st)
    estimate, low, high = np.empty(d.shape[1]), np.empty(d.shape[1]), np.empty(d.shape[1])
    for p in range(d.shape[1]):
        walsh = (dt[p, i] + dt[p, j]) / 2.0
        power = powers[p, np.maximum(dense[p, i], dense[p, j])]
        if np.isnan(power).any():
            walsh = snap(walsh, np.maximum(st[p, i], st[p, j]))
        else:
            walsh = np.rint(walsh * power)
            walsh /= power
        walsh.partition(sorted({*middle, c[p] - 1, m - c[p]}))
        estimate[p] = walsh[half] if m % 2 else (walsh[half - 1] + walsh[half]) / 2.0
        low[p], high[p] = walsh[c[p] - 1], walsh[m - c[p]]
    return estimate, low, high


@pytest.mark.parametrize("seed", range(8))
def test_hodges_lehmann_as_before(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.choice([95, 140, 250])), 6
    values = np.round(rng.normal(0.8, 0.05, size=(n, k)), 4)  # one scale: one power per pair
    if seed % 2:  # mixed scales, zeros (no rounding), values at every digit
        values *= 10.0 ** rng.integers(-3, 3, size=(n, 1))
        values[rng.random((n, k)) < 0.05] = 0.0
        values[:, 1] = np.where(rng.random(n) < 0.5, values[:, 1], rng.random(n))
    values[:, 2] = values[:, 3]  # a pair whose every difference is 0: an estimate of 0
    values[:, 4] = values[:, 5] + np.where(rng.random(n) < 0.6, 0.0, 1e-4)  # mostly ties: zeros near the middle
    first, second = (np.array(side, dtype=np.intp) for side in zip(*pairs(k)))
    for higher in (True, False):
        for level in (0.95, 0.8):
            got = _hodges_lehmann(values, first, second, higher, level)
            want = _previous_hodges_lehmann(values, first, second, higher, level)
            for g, w in zip(got, want):
                assert _bits(g) == _bits(w)


def test_pairwise_effects_on_a_large_table_as_before() -> None:
    import stats

    rng = np.random.default_rng(5)
    values = np.round(rng.normal(0.85, 0.03, size=(300, 5)), 4)
    table = stats.pairwise_effects(pd.DataFrame(values, columns=list("abcde"))).table
    first, second = (np.array(side, dtype=np.intp) for side in zip(*pairs(5)))
    want = _previous_hodges_lehmann(values, first, second, True, 0.95)
    for column, w in zip(("hl_estimate", "hl_low", "hl_high"), want):
        assert _bits(table[column].to_numpy()) == _bits(w)
