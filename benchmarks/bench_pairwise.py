"""Benchmark: ``stats.pairwise_wilcoxon`` (all 190 pairs of 20 learners over 50 data sets).

What it measures
    The table of ``bench_analysis.py`` (50 data sets x 20 learners, accuracies rounded to 3
    decimals, so most pairs have zero differences and tied |d|; with N = 50 every Wilcoxon p is
    exact). For ``test="wilcoxon"`` (Demsar's zero split, the default, and ``"wilcox"``) and
    ``test="sign"`` (ties split):

    * baseline: the per-pair loop that ``pairwise_wilcoxon`` was until issue 16 (one
      ``stats.wilcoxon`` / ``stats.sign_test`` call per pair, then ``stats.adjust``), run in the
      same process, interleaved with ours so that both see the same machine load;
    * ours cold: the vectorised function with its caches emptied before each call (the exact
      signed-rank tails, cached per set of ranks, and the binomial p-values, cached per N);
    * ours warm: the same call again (the explorer recomputes a view on the same table).

    And ``stats.pairwise_effects`` (A12, Cliff's delta, Hodges-Lehmann with its 95% interval and
    the Mann-Whitney p of all 190 pairs; no cache but the interval's rank per N) against the loop
    over ``stats.a12`` / ``stats.cliffs_delta`` / ``stats.hodges_lehmann`` / ``stats.mann_whitney``
    that the pairs view ran (``tui/model/_effects.py``'s ``effects_table``).

    Prints the median (and IQR) of each over ``--reps`` repetitions and the ratios loop / ours.
    Before timing, each variant's table is checked equal to the loop's, bit for bit.

Run from the repository root::

    python benchmarks/bench_pairwise.py [--reps 15]

(with ``PYTHONPATH=.`` when another checkout of rankboard is installed in editable mode).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from bench_analysis import make_table  # noqa: E402

import stats  # noqa: E402
import stats.twosample.all_pairs_effects  # noqa: E402
from stats.core._table import as_table  # noqa: E402
from stats.posthoc import _paired_columns  # noqa: E402

VARIANTS = (("wilcoxon", "demsar"), ("wilcoxon", "wilcox"), ("sign", "split"))


def loop(scores: pd.DataFrame, test: str, option: str) -> pd.DataFrame:
    """The per-pair loop (pairwise_wilcoxon before issue 16's speed-up)."""
    table = as_table(scores)
    rows = []
    for i, j in combinations(range(table.k), 2):
        a, b = table.values[:, i], table.values[:, j]
        if test == "wilcoxon":
            res = stats.wilcoxon(a, b, zero_method=option)
            edge, statistic, p = np.sign(res.r_plus - res.r_minus), res.statistic, res.pvalue
        else:
            sres = stats.sign_test(a, b, ties=option)
            edge, statistic, p = np.sign(sres.wins - sres.losses), float(sres.statistic), sres.pvalue
        better = table.learners[j] if edge > 0 else table.learners[i] if edge < 0 else ""
        rows.append((table.learners[i], table.learners[j], statistic, better, p))
    out = pd.DataFrame(rows, columns=["a", "b", "statistic", "better", "p"])
    out[f"{test}-holm"] = stats.adjust(out["p"].to_numpy(), "holm")
    return out


def ours(scores: pd.DataFrame, test: str, option: str) -> pd.DataFrame:
    if test == "wilcoxon":
        return stats.pairwise_wilcoxon(scores, zero_method=option).table
    return stats.pairwise_wilcoxon(scores, test="sign", ties=option).table


def effects_loop(scores: pd.DataFrame) -> pd.DataFrame:
    """One call per pair and per effect size (the pairs view's loop before pairwise_effects)."""
    rows = []
    for i, j in combinations(range(scores.shape[1]), 2):
        a, b = scores.iloc[:, i].to_numpy(np.float64), scores.iloc[:, j].to_numpy(np.float64)
        a12, delta = stats.a12(a, b), stats.cliffs_delta(a, b)
        hl, mw = stats.hodges_lehmann(a, b), stats.mann_whitney(a, b)
        rows.append(
            (scores.columns[i], scores.columns[j], a12.value, a12.magnitude, delta.value, delta.magnitude)
            + (hl.estimate, hl.low, hl.high, hl.attained, mw.pvalue)
        )
    return pd.DataFrame(rows, columns=["a", "b", *stats.twosample.all_pairs_effects.EFFECT_COLUMNS])


def clear() -> None:
    _paired_columns._lower_tail_count.cache_clear()
    _paired_columns._binomtest_pvalues.cache_clear()


def timed(fn: Callable[[], object], before: Callable[[], None] | None = None) -> float:
    if before is not None:
        before()
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def summary(ms: list[float]) -> str:
    q1, med, q3 = np.percentile(ms, [25, 50, 75])
    return f"{med:8.2f} ms (IQR {q1:.2f}-{q3:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=15)
    args = parser.parse_args()
    df = make_table()
    print(f"python {platform.python_version()}, numpy {np.__version__}, table {df.shape[0]} x {df.shape[1]}")
    print(f"{df.shape[1] * (df.shape[1] - 1) // 2} pairs; median over {args.reps} repetitions, interleaved\n")
    for test, option in VARIANTS:
        clear()
        pd.testing.assert_frame_equal(ours(df, test, option), loop(df, test, option), check_exact=True)
        base, cold, warm = [], [], []

        def run_loop(test: str = test, option: str = option) -> object:
            return loop(df, test, option)

        def run_ours(test: str = test, option: str = option) -> object:
            return ours(df, test, option)

        for _ in range(args.reps):
            base.append(timed(run_loop))
            cold.append(timed(run_ours, clear))
            warm.append(timed(run_ours))
        b, c, w = (float(np.median(x)) for x in (base, cold, warm))
        print(f"{test} ({option})")
        print(f"  per-pair loop (baseline) {summary(base)}")
        print(f"  vectorised, cold         {summary(cold)}   loop / cold = {b / c:6.1f}x")
        print(f"  vectorised, warm         {summary(warm)}   loop / warm = {b / w:6.1f}x")
    pd.testing.assert_frame_equal(stats.pairwise_effects(df).table, effects_loop(df), check_exact=True)
    base, vec = [], []
    for _ in range(args.reps):
        base.append(timed(lambda: effects_loop(df)))
        vec.append(timed(lambda: stats.pairwise_effects(df)))
    print("effect sizes (A12, Cliff's delta, Hodges-Lehmann 95%, Mann-Whitney p)")
    print(f"  per-pair loop (baseline) {summary(base)}")
    print(f"  pairwise_effects         {summary(vec)}   loop / ours = {np.median(base) / np.median(vec):6.1f}x")


if __name__ == "__main__":
    main()
