"""Benchmark: exact Bergmann-Hommel APVs, ``stats.adjust(p, "bergmann")``, for k = 6..16.

What it measures
    1. k = 6, 7, 8: ours against a straightforward, non-vectorised Python implementation of the
       definition (Garcia & Herrera 2008, "APVs for each post-hoc procedure"): the exhaustive sets as frozensets
       of pair indices, one per set partition of the k learners with a block of size >= 2, and
           APV_i = min(1, max{|I| * min{p_j : j in I} : I exhaustive, i in I}).
       Cold = building the sets + one APV computation, warm = APVs from the prebuilt sets.
    2. k = 8..12: ours (the branch and bound of ``stats.posthoc.shaffer_bergmann.bergmann_apv``) against the
       enumeration of all Bell(k) set partitions that was the implementation to k = 12 before
       issue 17 (``stats.posthoc.shaffer_bergmann._bergmann_apv_enumerated``). Cold = the first call for that k,
       which builds the partitions (``_partitions.cache_clear()`` before each of 3 cold runs);
       warm = median of 5 later calls with new p-values. Ours keeps no cache, so its cold and warm
       times are both per call. Every pair of APV vectors must be equal bit for bit.
    3. k = 13..16 (enumeration out of reach: Bell(16) - 1 = 10,480,142,146 sets): ours on several
       kinds of p-values, 3 vectors each, the worst and the median time per kind:
       - uniform: p ~ U(0, 1);
       - small: U(0, 1)^5 (many p below 0.05, so few APVs are capped at 1);
       - scaled: U(0, 0.01) (no APV capped at 1 and p-values within a factor of ~100: the
         hardest random kind found while building the search);
       - ties: U(0, 0.05) rounded to 3 decimals;
       - equal: all p = 0.003;
       - friedman: the p-values of ``stats.pairwise_test`` on a simulated accuracy table of 30 data
         sets (the table of ``bench_analysis.py``: per-data-set difficulty + learner effect + noise,
         rounded to 3 decimals, so with ties), each vector from a new table;
       - flat (adversarial): a random order of the pairs with p chosen so that t * F(t), the bound
         the search prunes thresholds with, is the same at every threshold, so that none can be
         skipped early (built with the search itself; same vector 3 times).
    4. Peak memory (tracemalloc, untimed) of a k = 16 call and of a cold k = 12 enumeration.

Bars
    k = 16: worst time over all kinds < 10 s (issue 17). k = 10 < 1 s and k = 12 < 10 s (cold)
    still hold.

Run from the repository root::

    python benchmarks/bench_bergmann.py

(with ``PYTHONPATH=.`` when another checkout of rankboard is installed in editable mode).
"""

from __future__ import annotations

import platform
import sys
import time
import tracemalloc
import warnings
from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pandas as pd

import stats
import stats.posthoc.shaffer_bergmann

SEED = 20240602
BASELINE_KS = (6, 7, 8)
ENUM_KS = (8, 9, 10, 11, 12)
NEW_KS = (13, 14, 15, 16)
KIND_REPS = 3
BARS_S = {10: 1.0, 12: 10.0, 16: 10.0}
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


# --- p-values of k = 13..16 --------------------------------------------------------------------


def friedman_p(rng: np.random.Generator, k: int, n: int = 30) -> np.ndarray:
    """p-values of stats.pairwise_test (Friedman) on a simulated accuracy table with ties."""
    difficulty = 1.0 - 0.4 * rng.beta(1.2, 4.0, size=(n, 1))
    learner = rng.normal(0.0, 0.03, size=(1, k))
    values = np.round(np.clip(difficulty + learner + rng.normal(0.0, 0.02, size=(n, k)), 0.0, 1.0), 3)
    table = pd.DataFrame(values, columns=[f"L{j:02d}" for j in range(k)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.BergmannLimitWarning)
        return stats.pairwise_test(table)["p"].to_numpy()


def flat_p(rng: np.random.Generator, k: int, level: float = 1e-3) -> np.ndarray:
    """Adversarial: pairs in random order, each pair's p = level / F, F the largest number of
    pairs inside the blocks of a partition into cliques of the pairs so far (so that t * F(t) is
    level at every threshold t)."""
    plist = stats.posthoc.shaffer_bergmann.pairs(k)
    p = np.empty(len(plist))
    adj = [0] * k
    for i in rng.permutation(len(plist)):
        a, b = plist[i]
        adj[a] |= 1 << b
        adj[b] |= 1 << a
        omega = stats.posthoc.shaffer_bergmann._max_cliques_per_vertex(adj, k)
        best = stats.posthoc.shaffer_bergmann._best_partition(adj, omega, k, [], 1)
        assert best is not None
        p[i] = level / best[0]
    return p


KINDS = {
    "uniform": lambda rng, m, k: rng.uniform(size=m),
    "small": lambda rng, m, k: rng.uniform(size=m) ** 5,
    "scaled": lambda rng, m, k: rng.uniform(size=m) * 0.01,
    "ties": lambda rng, m, k: np.round(rng.uniform(size=m) * 0.05, 3),
    "equal": lambda rng, m, k: np.full(m, 0.003),
    "friedman": lambda rng, m, k: friedman_p(rng, k),
}


# --- timing helpers ---------------------------------------------------------------------------


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def enum_cold(p: np.ndarray, k: int) -> tuple[float, np.ndarray]:
    stats.posthoc.shaffer_bergmann._partitions.cache_clear()
    return timed(stats.posthoc.shaffer_bergmann._bergmann_apv_enumerated, p, k)


def fmt_s(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    rng = np.random.default_rng(SEED)
    print('bench_bergmann: exact Bergmann-Hommel, stats.adjust(p, "bergmann")')
    print(
        f"python {platform.python_version()}, numpy {np.__version__}; seed {SEED}; "
        f"cold = median of {COLD_REPS}, warm = median of {WARM_REPS}"
    )
    print()
    failed = False

    # 1. Plain-Python definition (small k), against ours on the same p-values.
    print("1. ours vs the plain-Python definition, p ~ U(0, 1)")
    print(
        f"{'k':>3}{'m':>5}{'sets':>7}{'baseline cold':>15}{'ours':>12}{'ratio':>8}"
        f"{'baseline warm':>15}{'ours':>12}{'ratio':>8}  same APVs"
    )
    for k in BASELINE_KS:
        m = k * (k - 1) // 2
        b_cold, o_cold, b_warm, o_warm, same = [], [], [], [], True
        for _ in range(COLD_REPS):
            p = rng.uniform(size=m)
            t_sets, sets = timed(baseline_exhaustive_sets, k)
            t_apv, b = timed(baseline_apv, p.tolist(), sets)
            b_cold.append(t_sets + t_apv)
            t, o = timed(stats.adjust, p, "bergmann")
            o_cold.append(t)
            same &= bool(np.array_equal(b, o))
        if len(sets) != bell(k) - 1:
            raise RuntimeError(f"baseline built {len(sets)} exhaustive sets for k = {k}, not Bell(k) - 1")
        for _ in range(WARM_REPS):
            p = rng.uniform(size=m)
            t, b = timed(baseline_apv, p.tolist(), sets)
            b_warm.append(t)
            t, o = timed(stats.adjust, p, "bergmann")
            o_warm.append(t)
            same &= bool(np.array_equal(b, o))
        failed |= not same
        bc, oc, bw, ow = (float(np.median(x)) for x in (b_cold, o_cold, b_warm, o_warm))
        print(
            f"{k:>3}{m:>5}{len(sets):>7}{fmt_s(bc):>15}{fmt_s(oc):>12}{bc / oc:>7.1f}x"
            f"{fmt_s(bw):>15}{fmt_s(ow):>12}{bw / ow:>7.1f}x  {'yes' if same else 'NO'}"
            f" ({COLD_REPS + WARM_REPS} p vectors)"
        )
    print("ratio = baseline time / our time (how many times faster ours is)")
    print()

    # 2. The Bell(k) enumeration (the implementation to k = 12 before issue 17) against ours.
    print("2. ours (branch and bound) vs the Bell(k) enumeration it replaces, p ~ U(0, 1)")
    print(
        f"{'k':>3}{'m':>5}{'Bell(k)-1':>11}{'enum cold':>11}{'enum warm':>11}{'ours':>11}"
        f"{'cold ratio':>12}{'warm ratio':>12}  same bits   bar (ours; enum cold)"
    )
    for k in ENUM_KS:
        m = k * (k - 1) // 2
        e_cold, e_warm, ours, same = [], [], [], True
        for _ in range(COLD_REPS):
            p = rng.uniform(size=m)
            t, e = enum_cold(p, k)
            e_cold.append(t)
            t, o = timed(stats.adjust, p, "bergmann")
            ours.append(t)
            same &= bool(np.array_equal(e, o))
        for _ in range(WARM_REPS):
            p = rng.uniform(size=m)
            t, e = timed(stats.posthoc.shaffer_bergmann._bergmann_apv_enumerated, p, k)
            e_warm.append(t)
            t, o = timed(stats.adjust, p, "bergmann")
            ours.append(t)
            same &= bool(np.array_equal(e, o))
        failed |= not same
        ec, ew, oc = (float(np.median(x)) for x in (e_cold, e_warm, ours))
        worst = max(ours)
        bar = ""
        if k in BARS_S:
            ok = worst < BARS_S[k] and ec < BARS_S[k]
            failed |= not ok
            bar = f"< {BARS_S[k]:g} s: {'PASS' if ok else 'FAIL'}"
        print(
            f"{k:>3}{m:>5}{bell(k) - 1:>11,}{fmt_s(ec):>11}{fmt_s(ew):>11}{fmt_s(oc):>11}"
            f"{ec / oc:>11.1f}x{ew / oc:>11.1f}x  {'yes' if same else 'NO':>9}   {bar}".rstrip()
        )
    print("ours = median over all 8 vectors; ratio = enumeration time / our time")
    print()

    # 3. k = 13..16: ours alone, by kind of p-values.
    print(f"3. ours for k = 13..16 (enumeration out of reach), {KIND_REPS} p vectors per kind: worst / median")
    names = list(KINDS) + ["flat"]
    print(f"{'k':>3}{'Bell(k)-1':>16}" + "".join(f"{n:>22}" for n in names) + "   bar (worst)")
    for k in NEW_KS:
        m = k * (k - 1) // 2
        cells, worst = [], 0.0
        flat = flat_p(rng, k)
        for name in names:
            times = []
            for _ in range(KIND_REPS):
                p = flat if name == "flat" else KINDS[name](rng, m, k)
                t, o = timed(stats.adjust, p, "bergmann")
                shaffer = stats.adjust(p, "shaffer")
                if not (np.all(o >= p) and np.all(o <= shaffer)):
                    raise RuntimeError(f"k = {k}, {name}: an APV outside [p, Shaffer's APV]")
                times.append(t)
            worst = max(worst, max(times))
            cells.append(f"{fmt_s(max(times))} / {fmt_s(float(np.median(times)))}")
        bar = ""
        if k in BARS_S:
            ok = worst < BARS_S[k]
            failed |= not ok
            bar = f"< {BARS_S[k]:g} s: {'PASS' if ok else 'FAIL'}"
        print(f"{k:>3}{bell(k) - 1:>16,}" + "".join(f"{c:>22}" for c in cells) + f"   {bar}".rstrip())
    print()

    # 4. Memory, untimed (tracemalloc slows allocation-heavy code).
    p = rng.uniform(size=120) ** 5
    tracemalloc.start()
    stats.adjust(p, "bergmann")
    _, peak16 = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    stats.posthoc.shaffer_bergmann._partitions.cache_clear()
    tracemalloc.start()
    stats.posthoc.shaffer_bergmann._bergmann_apv_enumerated(rng.uniform(size=66), 12)
    _, peak12 = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    stats.posthoc.shaffer_bergmann._partitions.cache_clear()
    print(
        f"peak traced memory (tracemalloc): ours at k = 16 {peak16 / 2**20:.1f} MiB; "
        f"the enumeration at k = 12 (cold) {peak12 / 2**20:.0f} MiB"
    )
    print(
        f"bars: {'all PASS' if not failed else 'FAIL'} (k = 16 worst < 10 s; k = 10 < 1 s and k = 12 < 10 s "
        "cold; same APVs as the baselines)"
    )
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
