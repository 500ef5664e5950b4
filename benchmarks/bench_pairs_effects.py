"""Benchmark: issue 16's pairs parts on one 50 x 20 view (bench_analysis.py's table).

What it measures
    The median wall time of each part the explorer and the reports add for issue 16, next to
    the whole analysis of bench_analysis.py (ranks, four omnibus tests, CD, control and pairs
    tables) measured in the same run as the baseline:

    * the compact letters of Holm's rejections (``stats.compact_letters`` on a pairs table
      already computed: what the ranks view adds with the default procedure);
    * ``stats.pairwise_wilcoxon`` (wilcoxon-holm, 190 exact Wilcoxon tests of 50 data sets) and
      its sign-test form (sign-holm): the pairs table of the two-sample procedures;
    * the effect sizes of the selected pair (what the pairs view adds: Mann-Whitney, A12,
      Cliff's delta, Hodges-Lehmann with its interval) and of every pair (the reports' table).

    External baseline for wilcoxon-holm: scikit-posthocs' ``posthoc_wilcoxon(p_adjust="holm")``
    on the same columns, interleaved (it computes scipy's Wilcoxon per pair, without the exact
    distribution of tied mid-ranks that stats uses).

Run from the repository root::

    python benchmarks/bench_pairs_effects.py [--reps 20]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_analysis import analysis_steps, make_table, run_once  # noqa: E402

import stats  # noqa: E402
from tui.model import effects_table, pair_effects, rejected_pairs  # noqa: E402

warnings.filterwarnings("ignore", category=stats.BergmannLimitWarning)


def median_ms(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return float(np.median(times)) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20, help="timed repetitions of each part (>= 10)")
    args = parser.parse_args()
    reps = max(args.reps, 10)
    df = make_table()
    n, k = df.shape
    steps = analysis_steps(df)
    table = stats.pairwise_test(df)
    order = list(stats.average_ranks(df).ranks.sort_values(kind="stable").index)
    parts: list[tuple[str, Callable[[], object]]] = [
        (
            "letters of Holm (compact_letters)",
            lambda: stats.compact_letters(order, rejected_pairs(table, "holm", 0.05)),
        ),
        ("pairwise_wilcoxon (wilcoxon-holm)", lambda: stats.pairwise_wilcoxon(df)),
        ("pairwise_wilcoxon (sign-holm)", lambda: stats.pairwise_wilcoxon(df, test="sign")),
        ("effect sizes of one pair", lambda: pair_effects(df, ("L01", "L02"), True)),
        (f"effect sizes of all {k * (k - 1) // 2} pairs", lambda: effects_table(df, True)),
    ]
    for _, fn in parts:  # warm-up
        fn()
    for _ in range(20):
        run_once(steps)
    try:
        import scikit_posthocs as sp

        columns = [df[c].to_numpy() for c in df.columns]
        parts.append(("baseline scikit-posthocs wilcoxon", lambda: sp.posthoc_wilcoxon(columns, p_adjust="holm")))
        parts[-1][1]()
    except ImportError:
        pass
    base, results = [], {name: [] for name, _ in parts}
    for _ in range(reps):  # interleaved: every part sees the same machine load
        base.append(float(np.median([run_once(steps)[0] for _ in range(5)])) / 1e6)
        for name, fn in parts:
            results[name].append(median_ms(fn, 1))
    base_ms = float(np.median(base))
    print(f"bench_pairs_effects: issue 16's pairs parts, {n} data sets x {k} learners (bench_analysis' table)")
    print(f"{'part':<40}{'median ms':>10}{'x analysis':>12}")
    print(f"{'baseline: bench_analysis whole view':<40}{base_ms:>10.3f}{1.0:>12.2f}")
    for name, _ in parts:
        m = float(np.median(results[name]))
        print(f"{name:<40}{m:>10.3f}{m / base_ms:>12.2f}")
    print(f"({reps} reps, interleaved; the baseline is the median of 5 analyses per rep)")


if __name__ == "__main__":
    main()
