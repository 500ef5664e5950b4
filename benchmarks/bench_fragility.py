"""Benchmark: ``stats.stability`` and ``stats.fragility`` (issue 31: a 30 x 10 selection within 1 s).

What it measures
    Three accuracy-like tables made as ``bench_analysis.py`` makes its table (skewed data-set
    difficulty, learner effects, noise, three decimals): 10 data sets x 5 learners, 30 x 10 and
    50 x 20. For each, and for each procedure asked for (Holm by default, the explorer's):

    * baseline: one plain analysis, the procedure's APVs once (``stats.pairwise_test`` without
      Bergmann-Hommel's column for Nemenyi, Holm and Shaffer, with it for Bergmann-Hommel;
      ``stats.pairwise_wilcoxon`` for the two-sample rules);
    * stability: ``stats.stability`` (the analyses without each data set and each other learner);
    * fragility: ``stats.fragility`` (the omnibus test and every pair), with the share of its
      decisions that are exact (the rest are bounds: above 30 data sets, or out of budget);
    * both: the two, as a view computing both would.

    Timings are medians (and IQR) over ``--reps`` repetitions, each variant interleaved with the
    baseline so that both see the same machine load; the last column is the ratio both / baseline.
    Nothing is cached between repetitions but what ``stats`` itself keeps (Shaffer's t, Rom's and
    the exact Wilcoxon tails).

Run from the repository root::

    python benchmarks/bench_fragility.py [--reps 7] [--procedures holm nemenyi]

(with ``PYTHONPATH=.`` when another checkout of rankboard is installed in editable mode).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from bench_analysis import make_table  # noqa: E402

import stats  # noqa: E402

SIZES = ((10, 5), (30, 10), (50, 20))
SEED = 20261128


def baseline(df: pd.DataFrame, procedure: str) -> Callable[[], object]:
    """One plain analysis: the procedure's APVs once."""
    if procedure in ("wilcoxon-holm", "sign-holm"):
        return lambda: stats.pairwise_wilcoxon(df, test=procedure.split("-")[0])

    def run() -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", stats.BergmannLimitWarning)
            return stats.pairwise_test(df, bergmann=procedure == "bergmann")

    return run


def _variants(df: pd.DataFrame, procedure: str) -> dict[str, Callable[[], object]]:
    return {
        "stability": lambda: stats.stability(df, procedure=procedure),
        "fragility": lambda: stats.fragility(df, procedure=procedure),
        "both": lambda: (stats.stability(df, procedure=procedure), stats.fragility(df, procedure=procedure)),
    }


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def summary(times: list[float]) -> str:
    q1, med, q3 = np.percentile(np.array(times) * 1000.0, [25, 50, 75])
    return f"{med:9.1f} ms (IQR {q3 - q1:6.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--procedures", nargs="+", default=["holm"])
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, reps {args.reps}")
    for procedure in args.procedures:
        for n, k in SIZES:
            df = make_table(SEED, n, k)
            variants = _variants(df, procedure)
            times: dict[str, list[float]] = {"baseline": [], **{name: [] for name in variants}}
            plain = baseline(df, procedure)
            for _ in range(args.reps):
                for name, fn in variants.items():  # each interleaved with the baseline
                    times["baseline"].append(timed(plain))
                    times[name].append(timed(fn))
            res = stats.fragility(df, procedure=procedure)
            decisions = [res.omnibus.exact, *res.pairs["exact"]]
            ratio = np.median(times["both"]) / np.median(times["baseline"])
            print(f"\n{procedure}, {n} data sets x {k} learners ({len(decisions) - 1} pairs)")
            for name in ("baseline", *variants):
                print(f"  {name:10s} {summary(times[name])}")
            print(f"  exact: {sum(decisions)} of {len(decisions)} decisions; both / baseline = {ratio:.0f}x")


if __name__ == "__main__":
    main()
