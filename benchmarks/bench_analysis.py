"""Benchmark: the whole analysis of one view, 50 data sets x 20 learners.

What it measures
    (1) The steps of issue 16/17's bars, on a fixed random table (seed 20240601: accuracies in
    [0, 1] = a skewed per-data-set difficulty + a per-learner effect + noise, rounded to 3
    decimals, so most data sets contain ties), run as the explorer runs them: the table is
    validated and ranked once (``stats.ranked_table``, the first step, timed) and every step is
    given that ranked table, so no step ranks it again. A tree without ``stats.ranked_table``
    (``--before`` an older revision) gets the DataFrame in every step, as it did. The steps:
    ``stats.ranks``, ``stats.friedman``, ``stats.iman_davenport``, ``stats.friedman_aligned``,
    ``stats.quade``, ``stats.critical_difference``, ``stats.control_test(..., test="friedman")``
    (all eight APV procedures), ``stats.pairwise_test(..., test="friedman")`` (Nemenyi, Holm,
    Shaffer; for k = 20 its Bergmann column is Shaffer's and the BergmannLimitWarning is
    suppressed) -- the analysis before issue 16 -- then the procedures issue 16 added:
    ``stats.friedman(..., tie_correction=True)``, ``stats.scott_knott`` (ESD) of the table's
    columns, ``stats.multiple_sign_test`` against the control, ``stats.ttest_win_loss_tie`` and
    ``stats.pairwise_wilcoxon`` (Holm) with ``stats.compact_letters`` of its rejections. The
    A12 variant of Scott-Knott is timed apart. Each repetition makes a new ranked table (a
    new table, as a data set or learner toggle does).

    (2) What the explorer computes per toggle, through the real view model: ``tui.model.Model``
    of a log holding one result per cell of the same table (so its scores table is this table),
    ``Model.analyze(selection).prepare(view)`` for each view that tests the table -- tests, ranks
    (with the letters), pairs, cd -- and all four, with the model's caches emptied before each
    repetition but its scores tables (the analysis of a table not analysed before); all four
    with the scores table made again too (``stats.scores_table``: a data set or learner toggle);
    and the tests view with an alpha toggle on a table seen before. Procedures: Holm (the
    default) and Wilcoxon-Holm. This is
    what the app's analysis worker runs (``RankboardApp.analyze``: ``Model.analyze``, then
    ``prepare`` of the view on screen). It differs from (1): the app also computes the verdict,
    the parametric-safety sentence, the contrast estimation and the selected pair's Wilcoxon,
    sign test and effect sizes; and the Scott-Knott ranks of the app are those of the quartile
    view, computed on every raw result (repeats x folds) per data set and overall, not on this
    table of medians -- so step (1)'s ``stats.scott_knott`` of the table is not work the app
    does (it stays in the issue's bar as the issue defined it).

    With ``--before REV``, ``stats/`` and ``tui/`` of git revision REV are exported
    (``git archive``) and (1) and (2) run in a fresh process per tree, the processes of the two
    trees interleaved (``--runs`` each); the medians of both trees are printed side by side with
    their ratio, and every result of (1) and of the views of (2) is compared between the trees
    bit for bit (a digest of every float, label and rank).

Bars
    Issue 17 item 7: the 8 steps before issue 16 (with the ranked table's step) <= 3 ms median.
    Issue 16: the full analysis (every step of (1) but Scott-Knott A12) <= 10 ms median.

Baseline (this tree's process only)
    ``autorank.autorank(data, alpha=0.05, verbose=False)`` (autorank 1.3), median over >= 30
    repetitions interleaved with ours; autorank does different work (Shapiro-Wilk per learner,
    Levene/Bartlett, then Friedman + Nemenyi with medians, MAD, CIs and effect sizes): a reference
    point, not an equivalent computation. Its rank-table print goes to a null stream.

Run from the repository root::

    python benchmarks/bench_analysis.py [--reps 300] [--autorank-reps 30] [--before REV [--runs 3]]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import io
import json
import os
import platform
import shutil
import sys
import time
import warnings
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import _trees  # noqa: E402  (benchmarks/: the script's folder)

ROOT = Path(__file__).resolve().parents[1]
# --tree-child TREE: this file run by --before in another tree's stats/ and tui/ (that tree first)
if "--tree-child" in sys.argv:
    sys.path.insert(0, sys.argv[sys.argv.index("--tree-child") + 1])

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy  # noqa: E402

import stats  # noqa: E402
import stats.ranking.critical  # noqa: E402

BAR_MS = 10.0
BAR_BEFORE_16_MS = 3.0
DOMINANT_MS = 3.0
SEED = 20240601
N_DATASETS, N_LEARNERS = 50, 20
CONTROL = "L01"
RANKED = "stats.ranked_table (validate, rank)"
#: The steps of the analysis before issue 16 (issue 17 item 7's bar), with the ranked table's step.
BEFORE_ISSUE_16 = (
    RANKED,
    "stats.ranks",
    "stats.friedman",
    "stats.iman_davenport",
    "stats.friedman_aligned",
    "stats.quade",
    "stats.critical_difference",
    "stats.control_test (8 APVs)",
    "stats.pairwise_test (N/H/S)",
)
WILCOXON = "stats.pairwise_wilcoxon (holm)"
#: The views of the explorer that test the table, as the app's analysis worker computes them.
VIEWS = ("tests", "ranks", "pairs", "cd")

# k = 20 > 16: pairwise_test replaces Bergmann-Hommel by Shaffer and warns; expected here.
warnings.filterwarnings("ignore", category=stats.BergmannLimitWarning)


def make_table(seed: int = SEED, n: int = N_DATASETS, k: int = N_LEARNERS) -> pd.DataFrame:
    """Accuracy-like scores: skewed data-set difficulty + learner effect + noise, 3 decimals."""
    rng = np.random.default_rng(seed)
    difficulty = 1.0 - 0.4 * rng.beta(1.2, 4.0, size=(n, 1))
    learner = rng.normal(0.0, 0.03, size=(1, k))
    values = np.round(np.clip(difficulty + learner + rng.normal(0.0, 0.02, size=(n, k)), 0.0, 1.0), 3)
    return pd.DataFrame(
        values,
        index=[f"D{i + 1:02d}" for i in range(n)],
        columns=[f"L{j + 1:02d}" for j in range(k)],
    )


def analysis_steps(df: pd.DataFrame) -> list[tuple[str, Callable[[], object]]]:
    """The steps, each given the ranked table the first step makes (or, in a tree without
    ``stats.ranked_table``, the DataFrame, which each step then validates and ranks itself)."""
    n, k = df.shape
    held: dict[str, Any] = {"t": df}

    def t() -> Any:
        return held["t"]

    steps: list[tuple[str, Callable[[], object]]] = []
    if hasattr(stats, "ranked_table"):
        steps.append((RANKED, lambda: held.__setitem__("t", stats.ranked_table(df))))
    steps += [
        ("stats.ranks", lambda: stats.ranks(t())),
        ("stats.friedman", lambda: stats.friedman(t())),
        ("stats.iman_davenport", lambda: stats.iman_davenport(t())),
        ("stats.friedman_aligned", lambda: stats.friedman_aligned(t())),
        ("stats.quade", lambda: stats.quade(t())),
        ("stats.critical_difference", lambda: stats.critical_difference(k, n)),
        ("stats.control_test (8 APVs)", lambda: stats.control_test(t(), CONTROL, test="friedman")),
        ("stats.pairwise_test (N/H/S)", lambda: stats.pairwise_test(t(), test="friedman")),
        # issue 16: the procedures the views gained
        ("stats.friedman (tie-corrected)", lambda: stats.friedman(t(), tie_correction=True)),
        ("stats.scott_knott (esd, table)", lambda: stats.scott_knott(df)),
        ("stats.multiple_sign_test", lambda: stats.multiple_sign_test(t(), CONTROL)),
        ("stats.ttest_win_loss_tie", lambda: stats.ttest_win_loss_tie(t())),
        (WILCOXON, lambda: wilcoxon_letters(t())),
    ]
    return steps


def wilcoxon_letters(scores: Any) -> dict[str, str]:
    """All pairs by Wilcoxon with Holm's APVs, then the compact letters of the rejected pairs."""
    table = stats.pairwise_wilcoxon(scores).table
    rejected = table[table["wilcoxon-holm"] <= 0.05]
    order = list(stats.average_ranks(scores).ranks.sort_values(kind="stable").index)
    return stats.compact_letters(order, zip(rejected["a"], rejected["b"]))


def run_once(steps: list[tuple[str, Callable[[], object]]]) -> tuple[int, list[int], list[object], list[int]]:
    """One whole analysis: (total ns, per-step wall ns, results, per-step CPU ns of this process)."""
    per_step, results, cpu = [], [], []
    start = time.perf_counter_ns()
    for _, fn in steps:
        c0, t0 = time.process_time_ns(), time.perf_counter_ns()
        results.append(fn())
        per_step.append(time.perf_counter_ns() - t0)
        cpu.append(time.process_time_ns() - c0)
    return time.perf_counter_ns() - start, per_step, results, cpu


def digest(obj: Any, h: Any = None) -> str:
    """A hash of every float (its bits), integer, label and string of ``obj``, recursively."""
    top = h is None
    h = hashlib.sha256() if top else h
    if isinstance(obj, (pd.DataFrame, pd.Series)):
        frame = obj.to_frame() if isinstance(obj, pd.Series) else obj
        h.update(repr([str(c) for c in frame.columns]).encode())
        h.update(repr([str(i) for i in frame.index]).encode())
        for c in frame.columns:
            digest(frame[c].to_numpy(), h)
    elif isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fiub":
            h.update(np.ascontiguousarray(obj, dtype=np.float64).tobytes())
        else:
            h.update(repr([digest(x) for x in obj.tolist()]).encode())
    elif isinstance(obj, (float, np.floating)):
        h.update(float(obj).hex().encode())
    elif isinstance(obj, (bool, int, str, np.integer, np.bool_, type(None))):
        h.update(repr(obj).encode())
    elif isinstance(obj, dict):
        for key, value in obj.items():
            h.update(repr(key).encode())
            digest(value, h)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            digest(x, h)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            if not f.name.startswith("_"):
                h.update(f.name.encode())
                digest(getattr(obj, f.name), h)
    else:
        h.update(repr(obj).encode())
    return h.hexdigest() if top else ""


def make_log(df: pd.DataFrame) -> pd.DataFrame:
    """A log of one result per cell of ``df`` (criterion accuracy): its scores table is ``df``."""
    n, k = df.shape
    d, j = np.indices((n, k)).reshape(2, -1)
    return pd.DataFrame(
        {
            "dataset": pd.Categorical.from_codes(d, categories=[str(x) for x in df.index]),
            "repeat": np.ones(n * k, dtype=np.int64),
            "fold": np.ones(n * k, dtype=np.int64),
            "learner": pd.Categorical.from_codes(j, categories=[str(x) for x in df.columns]),
            "criterion": pd.Categorical.from_codes(np.zeros(n * k, dtype=np.int64), categories=["accuracy"]),
            "value": df.to_numpy().reshape(-1),
        }
    )


def view_cases() -> list[tuple[str, tuple[str, ...], str, str]]:
    """(label, views, procedure, toggle) of part (2). Toggles: "ranks" -- every cache of the model
    emptied but its scores tables (the analysis of a table not analysed before: the first look, a
    direction toggle); "table" -- every cache emptied (a data set or learner toggle: the scores
    table is made again too, ``stats.scores_table``); "alpha" -- alpha toggled on a table seen."""
    cases = []
    for procedure in ("holm", "wilcoxon-holm"):
        for view in VIEWS:
            cases.append((f"{view} view, {procedure}", (view,), procedure, "ranks"))
        cases.append((f"all four views, {procedure}", VIEWS, procedure, "ranks"))
    cases.append(("all four, holm, + new scores table", VIEWS, "holm", "table"))
    cases.append(("tests view, holm, alpha toggle", ("tests",), "holm", "alpha"))
    return cases


def app_part(df: pd.DataFrame, reps: int) -> tuple[dict[str, list[int]], dict[str, str]]:
    """Part (2): per case, the ns of ``Model.analyze(selection).prepare(*views)``; and a digest of
    each view's content (every view with each procedure)."""
    from tui.model import Model, default_selection

    log = make_log(df)
    model = Model(log)
    base = dataclasses.replace(default_selection(log, "accuracy"), control=CONTROL)

    def clear(scores_too: bool = True) -> None:
        for kind, cache in model._cache.items():  # nothing of the table analysed before
            if scores_too or kind != "scores":
                cache.clear()

    times: dict[str, list[int]] = {}
    for label, views, procedure, toggle in view_cases():
        sel = dataclasses.replace(base, procedure=procedure)
        model.analyze(sel).prepare(*views)  # warm-up (imports, q_alpha)
        out = times.setdefault(label, [])
        for i in range(reps):
            if toggle == "alpha":
                sel = dataclasses.replace(sel, alpha=(0.05, 0.1)[i % 2])
            else:
                clear(scores_too=toggle == "table")
            t0 = time.perf_counter_ns()
            model.analyze(sel).prepare(*views)
            out.append(time.perf_counter_ns() - t0)
    digests = {}
    for procedure in ("holm", "wilcoxon-holm"):
        clear()
        analysis = model.analyze(dataclasses.replace(base, procedure=procedure)).prepare(*VIEWS, "letters")
        for view in (*VIEWS, "letters"):
            part = analysis.parts.get(view)
            if view == "cd":
                part = dataclasses.replace(part, lines=())  # drawn text: not a statistic
            digests[f"{view} view, {procedure}"] = digest(part)
    return times, digests


def measure(reps: int) -> dict[str, Any]:
    """Parts (1) and (2) in the tree on ``sys.path``: per-step ns, per-case ns, digests."""
    df = make_table()
    steps = analysis_steps(df)
    stats.ranking.critical._q.cache_clear()
    cold_ns = run_once(steps)[0]
    for _ in range(20):
        run_once(steps)
    per_step: list[list[int]] = []
    cpu: list[list[int]] = []
    for _ in range(reps):
        _, wall, _, used = run_once(steps)
        per_step.append(wall)
        cpu.append(used)
    results = run_once(steps)[2]
    names = [name for name, _ in steps]
    app_times, app_digests = app_part(df, max(reps // 4, 30))
    return {
        "names": names,
        "per_step": per_step,
        "cpu": cpu,
        "cold": cold_ns,
        "digests": {name: digest(r) for name, r in zip(names, results) if name != RANKED},
        "app": app_times,
        "app_digests": app_digests,
    }


def totals(m: dict[str, Any], key: str = "per_step") -> dict[str, np.ndarray]:
    """Per repetition (ms): the 8 steps before issue 16, the full analysis, without Wilcoxon-Holm
    (``key``: "per_step", wall time, or "cpu", the process's CPU time)."""
    ns = np.asarray(m[key], dtype=float) / 1e6
    names = m["names"]
    before = [i for i, x in enumerate(names) if x in BEFORE_ISSUE_16]
    return {
        "before16": ns[:, before].sum(axis=1),
        "full": ns.sum(axis=1),
        "without_wilcoxon": ns[:, [i for i, x in enumerate(names) if x != WILCOXON]].sum(axis=1),
    }


def iqr(x: Any) -> tuple[float, float, float]:
    q1, med, q3 = np.percentile(np.asarray(x, dtype=float), [25, 50, 75])
    return float(q1), float(med), float(q3)


def export(rev: str) -> Path:
    """``stats/`` and ``tui/`` of git revision ``rev`` in a temporary folder (no worktree touched)."""
    return _trees.export(rev, "stats", "tui")


def run_child(tree: Path, reps: int) -> dict[str, Any]:
    return _trees.run_child(tree, [__file__, "--tree-child", str(tree), "--reps", str(reps)])


def merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The repetitions of several processes of one tree, pooled."""
    out = dict(runs[0])
    out["per_step"] = [row for r in runs for row in r["per_step"]]
    out["cpu"] = [row for r in runs for row in r["cpu"]]
    out["app"] = {case: [t for r in runs for t in r["app"][case]] for case in runs[0]["app"]}
    return out


def compare(before: str, reps: int, runs: int) -> None:
    """Parts (1) and (2) in this tree and in ``before``'s, a process each, interleaved."""
    trees = {"before": export(before), "this tree": ROOT}
    got: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    try:
        for _ in range(runs):
            for name, tree in trees.items():
                got[name].append(run_child(tree, reps))
    finally:
        shutil.rmtree(trees["before"])
    old, new = merge(got["before"]), merge(got["this tree"])
    print(
        f"before ({before}) and this tree: {runs} process(es) each x {reps} reps, interleaved; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(f"{'step (median ms)':<40}{'before':>9}{'this tree':>11}{'ratio':>8}  same results")
    o_steps = np.median(np.asarray(old["per_step"], dtype=float), axis=0) / 1e6
    n_steps = np.median(np.asarray(new["per_step"], dtype=float), axis=0) / 1e6
    o_by = dict(zip(old["names"], o_steps))
    for name, ms in zip(new["names"], n_steps):
        was = o_by.get(name)
        same = "" if name == RANKED else ("yes" if old["digests"].get(name) == new["digests"][name] else "NO")
        if was is None:
            print(f"{name:<40}{'-':>9}{ms:>11.3f}{'':>8}  {same}")
        else:
            print(f"{name:<40}{was:>9.3f}{ms:>11.3f}{was / ms:>7.1f}x  {same}")
    ot, nt = totals(old), totals(new)
    for key, label, bar in (
        ("before16", "total before issue 16 (8 steps)", BAR_BEFORE_16_MS),
        ("full", "total, full analysis", BAR_MS),
        ("without_wilcoxon", "total without Wilcoxon-Holm", None),
    ):
        (oq1, om, oq3), (nq1, nm, nq3) = iqr(ot[key]), iqr(nt[key])
        verdict = "" if bar is None else f"  bar <= {bar:g} ms: {'PASS' if nm <= bar else 'FAIL'}"
        spread = f"IQR {oq1:.2f}-{oq3:.2f} / {nq1:.2f}-{nq3:.2f}"
        print(f"{label:<40}{om:>9.3f}{nm:>11.3f}{om / nm:>7.1f}x  {spread}{verdict}")
    oc, nc = totals(old, "cpu"), totals(new, "cpu")
    for key, label in (("before16", "CPU, before issue 16 (8 steps)"), ("full", "CPU, full analysis")):
        om, nm = float(np.median(oc[key])), float(np.median(nc[key]))
        print(f"{label:<40}{om:>9.3f}{nm:>11.3f}{om / nm:>7.1f}x  (process CPU time, medians)")
    print()
    print(f"{'the app: Model.analyze + prepare (ms)':<40}{'before':>9}{'this tree':>11}{'ratio':>8}")
    for case in new["app"]:
        om, nm = float(np.median(old["app"][case])) / 1e6, float(np.median(new["app"][case])) / 1e6
        print(f"{case:<40}{om:>9.3f}{nm:>11.3f}{om / nm:>7.1f}x")
    same = [k for k in new["app_digests"] if old["app_digests"].get(k) == new["app_digests"][k]]
    differ = [k for k in new["app_digests"] if k not in same]
    print(f"views' content identical to before's, bit for bit: {len(same)}/{len(new['app_digests'])}", end="")
    print(f" (differ: {', '.join(differ)})" if differ else "")
    print()


def run_autorank(df: pd.DataFrame, sink: io.StringIO) -> tuple[int, Any]:
    from autorank import autorank

    with contextlib.redirect_stdout(sink):  # autorank 1.3 prints its rank table regardless of verbose
        t0 = time.perf_counter_ns()
        result = autorank(df, alpha=0.05, verbose=False)
        elapsed = time.perf_counter_ns() - t0
    sink.seek(0)
    sink.truncate()
    return elapsed, result


def this_tree(reps: int, a_reps: int) -> None:
    """Parts (1) and (2) in this process, with autorank interleaved and Scott-Knott A12 apart."""
    df = make_table()
    n, k = df.shape
    tied = int(sum(len(np.unique(row)) < k for row in df.to_numpy()))
    steps = analysis_steps(df)
    sink = io.StringIO()
    stats.ranking.critical._q.cache_clear()
    cold_ns = run_once(steps)[0]
    for _ in range(20):
        run_once(steps)
    _, ar_result = run_autorank(df, sink)
    run_autorank(df, sink)

    per_step: list[list[int]] = []
    cpu: list[list[int]] = []
    ar_times: list[int] = []
    block = -(-reps // a_reps)  # ceil
    while len(per_step) < reps or len(ar_times) < a_reps:
        for _ in range(min(block, reps - len(per_step))):
            _, wall, _, used = run_once(steps)
            per_step.append(wall)
            cpu.append(used)
        if len(ar_times) < a_reps:
            ar_times.append(run_autorank(df, sink)[0])
    a12_ns = []
    for _ in range(20):
        t0 = time.perf_counter_ns()
        stats.scott_knott(df, method="a12")
        a12_ns.append(time.perf_counter_ns() - t0)
    names = [name for name, _ in steps]
    m = {"names": names, "per_step": per_step, "cpu": cpu}
    tot, tot_cpu = totals(m), totals(m, "cpu")
    q1, med, q3 = iqr(tot["full"])
    aq1, amed, aq3 = iqr(np.asarray(ar_times, dtype=float) / 1e6)
    ns = np.asarray(per_step, dtype=float) / 1e6
    step_ms, step_iqr = np.median(ns, axis=0), np.subtract(*np.percentile(ns, [75, 25], axis=0))

    ours_ranks = stats.average_ranks(df).ranks
    theirs = ar_result.rankdf["meanrank"].reindex(ours_ranks.index).astype(float)
    ranks_agree = bool(np.allclose(ours_ranks.to_numpy(), theirs.to_numpy()))

    print(f"bench_analysis: the whole analysis of one view, {n} data sets x {k} learners")
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
        f"pandas {pd.__version__}, autorank {metadata.version('autorank')}; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"table: seed {SEED}, accuracies rounded to 3 decimals, {tied}/{n} data sets contain ties")
    print(f"control_test: control = {CONTROL}; pairwise_test: BergmannLimitWarning suppressed")
    print(f"  ({stats.pairwise_test(df).bergmann})")
    print()
    print(
        f"off the timed view: stats.scott_knott(method='a12') {iqr(np.asarray(a12_ns) / 1e6)[1]:.3f} ms median "
        f"({len(a12_ns)} calls; bootstrap 1000 resamples per cut; the view's default is esd)"
    )
    print()
    print("(1) the steps of the bars, given one ranked table (this process)")
    print(f"{'step':<40}{'median ms':>10}{'IQR ms':>9}{'share':>8}")
    for name, sm, si in zip(names, step_ms, step_iqr):
        print(f"{name:<40}{sm:>10.3f}{si:>9.3f}{sm / med:>8.1%}")
    bq1, bmed, bq3 = iqr(tot["before16"])
    print(f"{'total before issue 16 (8 steps)':<40}{bmed:>10.3f}{bq3 - bq1:>9.3f}   (same repetitions)")
    print(f"{'total, full analysis':<40}{med:>10.3f}{q3 - q1:>9.3f}   (IQR {q1:.3f}-{q3:.3f}, {reps} reps)")
    print(f"{'total without Wilcoxon-Holm':<40}{float(np.median(tot['without_wilcoxon'])):>10.3f}   (same repetitions)")
    print(
        f"{'CPU time: 8 steps / full':<40}{float(np.median(tot_cpu['before16'])):>10.3f}"
        f"{float(np.median(tot_cpu['full'])):>9.3f}   (process CPU, medians: less sensitive to load)"
    )
    print(f"{'bar: 8 steps <= 3 ms (issue 17 item 7)':<40}{'PASS' if bmed <= BAR_BEFORE_16_MS else 'FAIL':>10}")
    print(f"{'bar: full <= 10 ms (issue 16)':<40}{'PASS' if med <= BAR_MS else 'FAIL':>10}")
    print(f"{'first call in process (cold)':<40}{cold_ns / 1e6:>10.3f}   (one-off q_alpha(k=20), then cached)")
    print()
    print(
        f"{'baseline autorank(alpha=0.05)':<40}{amed:>10.3f}{aq3 - aq1:>9.3f}   "
        f"(IQR {aq1:.3f}-{aq3:.3f}, {a_reps} reps, interleaved)"
    )
    print(f"{'ratio ours / autorank':<40}{med / amed:>10.3f}   (autorank {amed / med:.1f}x our time)")
    print(
        f"autorank does different work: Shapiro-Wilk x {k}, {ar_result.homogeneity_test} test, then "
        f"{ar_result.omnibus} + {ar_result.posthoc}, medians, MAD, CIs, effect sizes; mean ranks equal ours: "
        f"{'yes' if ranks_agree else 'NO'}"
    )
    top = int(np.argmax(step_ms))
    print(f"largest step: {names[top]} {float(step_ms[top]):.3f} ms median = {float(step_ms[top]) / med:.0%}")
    print()
    app, _ = app_part(df, max(reps // 4, 30))
    print("(2) the app: Model.analyze(selection).prepare(views), 50 x 20 (this process)")
    print(f"{'case':<40}{'median ms':>10}{'IQR ms':>9}")
    for case, ns_list in app.items():
        c1, cm, c3 = iqr(np.asarray(ns_list) / 1e6)
        print(f"{case:<40}{cm:>10.3f}{c3 - c1:>9.3f}")
    print(
        "  (the app computes one view per toggle, the one on screen; the verdict, safety, contrasts,\n"
        "   the pair's tests and effect sizes are in these views; Scott-Knott ranks the raw results\n"
        "   in the quartile view, not this table: (1)'s scott_knott step is not work the app does)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=300, help="timed repetitions of our analysis")
    parser.add_argument("--autorank-reps", type=int, default=30, help="timed autorank calls (>= 30)")
    parser.add_argument("--before", metavar="REV", help="also run in git revision REV's tree (git archive)")
    parser.add_argument("--runs", type=int, default=1, help="processes per tree with --before, interleaved")
    parser.add_argument("--tree-child", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    reps = max(args.reps, 50)
    if args.tree_child:
        print(json.dumps(measure(reps)))
        return
    if args.before:
        compare(args.before, reps, max(args.runs, 1))
    this_tree(reps, max(args.autorank_reps, 30))


if __name__ == "__main__":
    main()
