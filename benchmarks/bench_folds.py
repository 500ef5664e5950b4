"""Benchmark: ``stats.fold_comparison`` on a 1,000,000-row log (issue 14).

What it measures
    An in-memory log of 500 data sets x 20 learners x 10 x 10 cross-validation, one criterion
    (accuracy-like values with 3 decimals, so ties occur), in file order and with the loader's
    schema (categorical labels, int64 repeat and fold, float64 value). After a warm-up, the
    median wall time of ``fold_comparison(log, "accuracy", "L01")`` over ``--reps`` runs
    (default nsamples = 50,000 for the signed-rank test), and the median of the same call with
    ``nsamples=1`` (which leaves out nearly all of the signed-rank Monte Carlo: the per-data-set
    part alone). Also the signed-rank part on its own: drawing the 50,000 x 501 Dirichlet
    weights once, and one learner's counts (serial; fold_comparison runs the learners in a
    thread pool, one thread per CPU).

Baseline (same run)
    A plain per-pair loop: for 50 of the data sets and the 19 learners, pivot the data set's
    rows and call ``stats.corrected_ttest`` and ``stats.bayes_correlated_ttest``; its time is
    scaled by 500 / 50 to the whole log. The loop does not include the signed-rank test, so the
    ratio is for the per-data-set part (``nsamples=1``) against it.

Run from the repository root::

    python benchmarks/bench_folds.py [--reps 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import stats  # noqa: E402
from stats.folds_tests import dirichlet_weights, signed_rank_counts, weight_blocks  # noqa: E402

D, L, R, N = 500, 20, 10, 10


def make_log(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.95, D)[:, None, None, None]
    skill = rng.normal(0.0, 0.02, L)[None, :, None, None]
    noise = rng.normal(0.0, 0.03, (D, L, R, N))
    value = np.clip(np.round(base + skill + noise, 3), 0.0, 1.0)
    # file order: data set, repeat, fold, learner
    value = value.transpose(0, 2, 3, 1)
    d, r, f, l_ = np.meshgrid(np.arange(D), np.arange(R), np.arange(N), np.arange(L), indexing="ij")
    datasets = [f"D{i:03d}" for i in range(D)]
    learners = [f"L{i:02d}" for i in range(L)]
    return pd.DataFrame(
        {
            "dataset": pd.Categorical.from_codes(d.ravel(), datasets),
            "repeat": r.ravel().astype(np.int64) + 1,
            "fold": f.ravel().astype(np.int64) + 1,
            "learner": pd.Categorical.from_codes(l_.ravel(), learners),
            "criterion": pd.Categorical.from_codes(np.zeros(d.size, dtype=np.int64), ["accuracy"]),
            "value": value.ravel(),
        }
    )


def timed(fn, reps: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def baseline(log: pd.DataFrame, n_datasets: int) -> float:
    t = time.perf_counter()
    names = log["dataset"].cat.categories[:n_datasets]
    part = log[log["dataset"].isin(names)]
    for _, rows in part.groupby("dataset", observed=True):
        wide = rows.pivot_table(index=["repeat", "fold"], columns="learner", values="value", observed=True)
        control = wide["L01"].to_numpy()
        for learner in wide.columns:
            if learner == "L01":
                continue
            a = wide[learner].to_numpy()
            stats.corrected_ttest(a, control, folds=N)
            stats.bayes_correlated_ttest(a, control, folds=N, rope=0.01)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()

    log = make_log()
    print(f"log: {len(log):,} rows ({D} data sets x {L} learners x {R} x {N} CV, one criterion)")
    stats.fold_comparison(log, "accuracy", "L01", nsamples=1000)  # warm-up

    full = timed(lambda: stats.fold_comparison(log, "accuracy", "L01"), args.reps)
    per_set = timed(lambda: stats.fold_comparison(log, "accuracy", "L01", nsamples=1), args.reps)
    draw = timed(lambda: dirichlet_weights(D, prior=1.0, nsamples=50000, seed=0), max(1, args.reps // 2))
    w = dirichlet_weights(D, prior=1.0, nsamples=50000, seed=0)
    blocks = weight_blocks(w)
    z = np.round(np.random.default_rng(1).normal(0.0, 0.02, D), 3)
    counts = timed(lambda: signed_rank_counts(z, 0.01, blocks), max(1, args.reps // 2))

    base_reps = max(1, args.reps // 2)
    base = statistics.median(baseline(log, 50) for _ in range(base_reps)) * (D / 50)

    med = statistics.median
    print(f"fold_comparison, nsamples=50000   median {med(full):7.3f} s  (runs: {', '.join(f'{x:.3f}' for x in full)})")
    print(f"fold_comparison, nsamples=1       median {med(per_set):7.3f} s  (the per-data-set part)")
    print(f"  signed-rank: Dirichlet draw 50000 x {D + 1} (once per call)  {med(draw):7.3f} s")
    print(f"  signed-rank: one learner's counts, serial ({L - 1} per call){med(counts):7.3f} s")
    print(f"baseline: per-pair loop (corrected_ttest + bayes_correlated_ttest), 50 data sets x {L - 1} learners,")
    print(f"          scaled to {D} data sets                            {base:7.3f} s")
    print(f"ratio baseline / fold_comparison(nsamples=1): {base / med(per_set):.1f}x")
    print(f"bar: the whole call under 0.5 s; CPUs: {os.cpu_count()}")

    # The explorer: a tui.view._model.Model of the same log; the folds view of a selection (what the
    # app's worker computes when view 6 is on screen), then a control toggle (a new comparison)
    # and an alpha toggle seen before (the cache), each next to the quartiles view of the same
    # selection as the baseline of a toggle that needs no fold-level work.
    from dataclasses import replace

    from tui.view import Model, default_selection

    model = Model(log)
    sel = default_selection(log, "accuracy")
    model.analyze(sel).prepare("folds")  # warm: the fold results of the criterion are cached
    controls = [f"L{i:02d}" for i in range(2, 2 + args.reps)]
    toggle = [timed(lambda c=c: model.analyze(replace(sel, control=c)).prepare("folds"), 1)[0] for c in controls]
    seen = timed(lambda: model.analyze(replace(sel, control=controls[0])).prepare("folds"), args.reps)
    quart = [timed(lambda c=c: model.analyze(replace(sel, control=c)).prepare("quartiles"), 1)[0] for c in controls]
    print(f"explorer: control toggle with the folds view on screen  median {med(toggle):7.3f} s")
    print(f"explorer: the same selection again (cached)             median {med(seen) * 1000:7.1f} ms")
    print(f"explorer: control toggle with the quartiles on screen   median {med(quart) * 1000:7.1f} ms (baseline)")
    print("bar: a toggle under 100 ms")


if __name__ == "__main__":
    main()
