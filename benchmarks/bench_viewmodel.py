"""Benchmark: ``tui.model._model.Model.analyze`` on a 50 data sets x 20 learners selection.

What it measures
    A 1,000,000-line log (5 criteria x 50 data sets x 20 learners x 10 x 20
    cross-validation, accuracy-like values rounded to 3 decimals, fixed seed)
    is built in memory with categorical labels, as ``stats.read_logs`` returns
    it; ``Model(log)`` is built once (timed separately: it aggregates and
    indexes the raw values). Then ``Model.analyze`` of the default selection
    of one criterion (all 50 data sets, all 20 learners) is repeated, cycling
    the control, alpha and procedure so that nothing is served from a cache
    except the parametric-safety sentence of an already seen table and alpha.
    A second series changes the data sets each time (drops one), so the
    safety sentence is always recomputed: the cold-table figure.

Baseline (same run)
    The direct sequence of stats calls a view needs on a precomputed scores
    table: ranks, average_ranks, friedman, iman_davenport, friedman_aligned,
    quade, verdict, critical_difference, control_test, pairwise_test,
    contrast_estimation, wilcoxon, sign_test (no quartiles, no safety). The
    script prints the medians and the ratio analyze / baseline.

Bar
    median analyze (cold table) well under 100 ms.

Run from the repository root::

    python benchmarks/bench_viewmodel.py [--reps 50]
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
import pandas as pd

import stats
from tui.model import Model, default_selection

SEED = 20240601
CRITERIA, N_DATASETS, N_LEARNERS, REPEATS, FOLDS = 5, 50, 20, 10, 20


def make_log() -> pd.DataFrame:
    rng = np.random.default_rng(SEED)
    shape = (CRITERIA, N_DATASETS, N_LEARNERS, REPEATS * FOLDS)
    difficulty = rng.beta(5, 2, size=(1, N_DATASETS, 1, 1))
    effect = rng.normal(0, 0.03, size=(1, 1, N_LEARNERS, 1))
    values = np.clip(difficulty + effect + rng.normal(0, 0.05, size=shape), 0, 1).round(3)
    c, d, lrn, run = np.indices(shape).reshape(4, -1)

    def cat(codes: np.ndarray, names: list[str]) -> pd.Categorical:
        return pd.Categorical.from_codes(codes, categories=names)

    return pd.DataFrame(
        {
            "dataset": cat(d, [f"data{i:02d}" for i in range(N_DATASETS)]),
            "repeat": run // FOLDS + 1,
            "fold": run % FOLDS + 1,
            "learner": cat(lrn, [f"learner{i:02d}" for i in range(N_LEARNERS)]),
            "criterion": cat(c, ["accuracy", "pd", "precision", "f1", "auc"]),
            "value": values.reshape(-1),
        }
    )


def baseline(scores: pd.DataFrame) -> None:
    h = True
    stats.ranks(scores, higher_is_better=h)
    avg = stats.average_ranks(scores, higher_is_better=h).ranks
    for fn in (stats.friedman, stats.iman_davenport, stats.friedman_aligned, stats.quade):
        fn(scores, higher_is_better=h)
    stats.verdict(scores, higher_is_better=h)
    stats.critical_difference(*scores.shape[::-1])
    control = str(avg.idxmin())
    stats.control_test(scores, control, higher_is_better=h)
    stats.pairwise_test(scores, higher_is_better=h)
    stats.contrast_estimation(scores, higher_is_better=h)
    a, b = avg.sort_values().index[:2]
    stats.wilcoxon(scores[a], scores[b], higher_is_better=h)
    stats.sign_test(scores[a], scores[b], higher_is_better=h)


def median_ms(times: list[float]) -> float:
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()
    warnings.simplefilter("ignore", stats.BergmannLimitWarning)
    log = make_log()
    print(f"log: {len(log):,} lines; selection {N_DATASETS} data sets x {N_LEARNERS} learners")
    t0 = time.perf_counter()
    model = Model(log)
    print(f"Model(log) once: {1000 * (time.perf_counter() - t0):.0f} ms (aggregate + raw-value index)")
    sel = default_selection(log, "accuracy")
    scores = stats.scores_table(log[log["criterion"] == "accuracy"], "accuracy")
    model.analyze(sel)  # warm-up
    baseline(scores)
    warm, cold, base = [], [], []
    learners = sel.learners
    for i in range(args.reps):
        s = sel.__class__(**{**sel.__dict__, "control": learners[i % 20], "alpha": (0.05, 0.1)[i % 2]})
        t0 = time.perf_counter()
        a = model.analyze(s)
        warm.append(time.perf_counter() - t0)
        drop = sel.datasets[: i % N_DATASETS] + sel.datasets[i % N_DATASETS + 1 :]
        s = sel.__class__(**{**sel.__dict__, "datasets": drop, "procedure": ("holm", "shaffer")[i % 2]})
        t0 = time.perf_counter()
        a = model.analyze(s)
        cold.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        baseline(scores)
        base.append(time.perf_counter() - t0)
        assert a.problem is None
    b = median_ms(base)
    print(f"baseline (stats calls on a precomputed table): median {b:.1f} ms")
    for label, times in (("table seen before (safety cached)", warm), ("new table each time (cold)", cold)):
        print(f"analyze, {label:35} median {median_ms(times):6.1f} ms  ratio {median_ms(times) / b:.2f}")
    print("bar: cold analyze well under 100 ms")


if __name__ == "__main__":
    main()
