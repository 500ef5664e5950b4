"""Benchmark: exact Bergmann-Hommel APVs, ``stats.adjust(p, "bergmann")``, for k = 8..12.

What it measures
    For k = 8, 9, 10, 11, 12 learners, with p = uniform random p-values for all
    m = k(k-1)/2 pairs (fixed seed):
    - cold time: the first call for that k, which builds the Bell(k) set
      partitions (``stats.bergmann._partitions.cache_clear()`` before each cold
      run; median of 3 cold runs);
    - warm time: median of 5 later calls with new p-values (partitions cached);
    - the number of exhaustive sets, Bell(k) - 1;
    - the peak memory of a cold k = 12 call (tracemalloc, in a separate
      untimed run, and the memory the partition cache keeps afterwards), and the
      process's peak RSS (``resource.getrusage().ru_maxrss``).

Bars (cold time, the worst case a user meets)
    k = 10: < 1 s;  k = 12: < 10 s.

Baseline (same run)
    A straightforward, non-vectorised Python implementation of the same
    definition (seed 002, "APVs for each post-hoc procedure"): the exhaustive
    sets as frozensets of pair indices, one per set partition of the k learners
    with a block of size >= 2, and
        APV_i = min(1, max{|I| * min{p_j : j in I} : I exhaustive, i in I}).
    Run for k = 6, 7, 8 only (it grows as Bell(k)); cold = building the sets +
    one APV computation, warm = APVs from the prebuilt sets. Every baseline APV
    vector is checked against ours with ``np.allclose`` and the speed ratio
    baseline / ours is printed.

Run from the repository root::

    python benchmarks/bench_bergmann.py
"""

from __future__ import annotations

import platform
import resource
import sys
import time
import tracemalloc
from collections.abc import Iterator
from itertools import combinations

import numpy as np

import stats
import stats.bergmann

SEED = 20240602
KS = (8, 9, 10, 11, 12)
BASELINE_KS = (6, 7, 8)
BARS_S = {10: 1.0, 12: 10.0}
COLD_REPS, WARM_REPS = 3, 5


def bell(k: int) -> int:
    """Bell number by the Bell triangle (independent of the code under test)."""
    row = [1]
    for _ in range(k - 1):
        nxt = [row[-1]]
        for x in row:
            nxt.append(nxt[-1] + x)
        row = nxt
    return row[-1]


# --- baseline: plain Python, straight from the definition -----------------------------------


def _set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        yield [[first]] + part  # first alone
        for b in range(len(part)):  # or first joins block b
            yield part[:b] + [[first] + part[b]] + part[b + 1 :]


def baseline_exhaustive_sets(k: int) -> list[frozenset[int]]:
    """Every exhaustive set as a frozenset of pair indices (pairs in stats' order)."""
    index = {pair: i for i, pair in enumerate(combinations(range(k), 2))}
    sets = []
    for partition in _set_partitions(list(range(k))):
        s = frozenset(index[pair] for block in partition for pair in combinations(sorted(block), 2))
        if s:
            sets.append(s)
    return sets


def baseline_apv(p: list[float], sets: list[frozenset[int]]) -> list[float]:
    """APV_i = min(1, max over exhaustive I containing i of |I| * min p_I)."""
    value = {s: len(s) * min(p[j] for j in s) for s in sets}
    return [min(1.0, max(value[s] for s in sets if i in s)) for i in range(len(p))]


# --- timing helpers ---------------------------------------------------------------------------


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def ours_cold(p: np.ndarray) -> tuple[float, np.ndarray]:
    stats.bergmann._partitions.cache_clear()
    return timed(stats.adjust, p, "bergmann")


def fmt_s(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    rng = np.random.default_rng(SEED)
    print('bench_bergmann: exact Bergmann-Hommel, stats.adjust(p, "bergmann"), p ~ U(0, 1) for all pairs')
    print(
        f"python {platform.python_version()}, numpy {np.__version__}; seed {SEED}; "
        f"cold = median of {COLD_REPS} (partition cache cleared), warm = median of {WARM_REPS}"
    )
    print()

    # Baseline first (small k), against ours on the same p-values.
    print(
        f"{'k':>3}{'m':>5}{'sets':>7}{'baseline cold':>15}{'ours cold':>12}{'ratio':>8}"
        f"{'baseline warm':>15}{'ours warm':>12}{'ratio':>8}  same APVs"
    )
    for k in BASELINE_KS:
        m = k * (k - 1) // 2
        b_cold, o_cold, b_warm, o_warm, same = [], [], [], [], True
        for _ in range(COLD_REPS):
            p = rng.uniform(size=m)
            t_sets, sets = timed(baseline_exhaustive_sets, k)
            t_apv, b = timed(baseline_apv, p.tolist(), sets)
            b_cold.append(t_sets + t_apv)
            t, o = ours_cold(p)
            o_cold.append(t)
            same &= bool(np.allclose(b, o, rtol=1e-12, atol=0.0))
        if len(sets) != bell(k) - 1:
            raise RuntimeError(f"baseline built {len(sets)} exhaustive sets for k = {k}, not Bell(k) - 1")
        for _ in range(WARM_REPS):
            p = rng.uniform(size=m)
            t, b = timed(baseline_apv, p.tolist(), sets)
            b_warm.append(t)
            t, o = timed(stats.adjust, p, "bergmann")
            o_warm.append(t)
            same &= bool(np.allclose(b, o, rtol=1e-12, atol=0.0))
        bc, oc, bw, ow = (float(np.median(x)) for x in (b_cold, o_cold, b_warm, o_warm))
        print(
            f"{k:>3}{m:>5}{len(sets):>7}{fmt_s(bc):>15}{fmt_s(oc):>12}{bc / oc:>7.1f}x"
            f"{fmt_s(bw):>15}{fmt_s(ow):>12}{bw / ow:>7.1f}x  {'yes' if same else 'NO'}"
            f" ({COLD_REPS + WARM_REPS} p vectors)"
        )
    print("ratio = baseline time / our time (how many times faster ours is)")
    print()

    # Ours, k = 8..12.
    print(f"{'k':>3}{'m':>5}{'Bell(k)-1':>11}{'cold':>11}{'warm':>11}   bar (cold)")
    maxrss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    failed = False
    for k in KS:
        m = k * (k - 1) // 2
        cold = float(np.median([ours_cold(rng.uniform(size=m))[0] for _ in range(COLD_REPS)]))
        warm = float(np.median([timed(stats.adjust, rng.uniform(size=m), "bergmann")[0] for _ in range(WARM_REPS)]))
        bar = ""
        if k in BARS_S:
            ok = cold < BARS_S[k]
            failed |= not ok
            bar = f"< {BARS_S[k]:g} s: {'PASS' if ok else 'FAIL'}"
        print(f"{k:>3}{m:>5}{bell(k) - 1:>11,}{fmt_s(cold):>11}{fmt_s(warm):>11}   {bar}".rstrip())
    maxrss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print()

    # Memory of a cold k = 12 call, untimed (tracemalloc slows allocation-heavy code).
    k = 12
    p = rng.uniform(size=k * (k - 1) // 2)
    stats.bergmann._partitions.cache_clear()
    tracemalloc.start()
    stats.adjust(p, "bergmann")
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    kib = 1 if sys.platform != "darwin" else 1024  # ru_maxrss: KiB on Linux, bytes on macOS
    print(
        f"k = 12 cold call, peak traced memory (tracemalloc): {peak / 2**20:.0f} MiB; "
        f"kept by the partition cache afterwards: {current / 2**20:.0f} MiB"
    )
    print(
        f"process peak RSS (ru_maxrss): {maxrss_before / kib / 1024:.0f} MiB before k = 8..12, "
        f"{maxrss_after / kib / 1024:.0f} MiB after"
    )
    print(f"bars: {'all PASS' if not failed else 'FAIL'} (k = 10 cold < 1 s, k = 12 cold < 10 s)")


if __name__ == "__main__":
    main()
