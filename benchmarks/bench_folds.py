"""Benchmark: ``stats.fold_comparison`` on a 1,000,000-row log, and the explorer's folds view (issue 14).

What it measures
    An in-memory log of 500 data sets x 20 learners x 10 x 10 cross-validation, one criterion
    (accuracy-like values with 3 decimals, so ties occur), in file order and with the loader's
    schema (categorical labels, int64 repeat and fold, float64 value).

    * ``fold_comparison(log, "accuracy", "L01")`` (nsamples 50,000 for the signed-rank test): the
      first call of the process (it draws the 50,000 x 501 Dirichlet weights, then kept) and the
      median over ``--reps`` later calls, wall time and process CPU time (both threads; the machine
      may be shared: CPU time is the steadier figure); the same with ``nsamples=1`` (the
      per-data-set part alone).
    * The signed-rank Monte Carlo alone, serial, over the 19 learners' differences of the call:
      the bounds with exact sums for the samples they leave open (``signed_rank_counts``, what
      ``fold_comparison`` runs), every sample summed exactly (``bounds=False``), and the previous
      implementation (``benchmarks/_previous_signed_rank.py``); the counts of all three are checked
      to be identical.
    * The explorer (``tui.viewmodel.Model`` of the same log, the default selection): a control
      toggle with the folds view on screen, i.e. what the analysis worker does (``Model.analyze``,
      the folds view, its table rows ``folds_rows``), for new controls; the same selection again
      (cached); a control toggle with the quartiles view on screen (the baseline of a toggle that
      needs no fold-level work); a toggle to a control whose view the app's idle worker has made
      ahead (``RankboardApp.warm_controls``, for a folds view of 2,000+ rows), and that idle work.
    * The folds panel on the event loop (a headless app holding only the panel): the longest
      event-loop gap (a 2 ms ticker) while the panel shows the 9,500-row view, next to a 19-row
      view (one data set: any update of the panel costs that much) and to the previous way (rich
      ``Text`` cells made on the event loop and ``DataTable.add_row`` row after row), once; the
      same for the ``/`` filter, now and the previous way (rows made again on the event loop).
    * ``--before REV``: both bars of issue 14 in this tree and in git revision REV (its ``stats/``
      and ``tui/`` exported with ``git archive`` to a temporary folder, run in a process each,
      ``--runs`` of them interleaved): (a) ``fold_comparison``, (b) a control toggle as the analysis
      worker does it (nothing made ahead; and made ahead while idle, where the tree does that).

Baselines (same run)
    A plain per-pair loop: for 50 of the data sets and the 19 learners, pivot the data set's
    rows and call ``stats.corrected_ttest`` and ``stats.bayes_correlated_ttest``; its time is
    scaled by 500 / 50 to the whole log; the ratio is for the per-data-set part (``nsamples=1``)
    against it. The previous signed-rank implementation and the previous panel fill, above.

Run from the repository root::

    python benchmarks/bench_folds.py [--reps 5] [--no-app] [--before REV [--runs 3] [--bars-only]]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import shutil
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import _trees  # noqa: E402  (benchmarks/: the script's folder)
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
# --tree-child: this file run by --before in another tree's stats/ and tui/ (that tree first)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
if "--tree-child" in sys.argv:
    sys.path.insert(0, sys.argv[sys.argv.index("--tree-child") + 1])

import _previous_signed_rank as previous  # noqa: E402

import stats  # noqa: E402
from stats.folds._dirichlet import dirichlet_by_value as cached_by_value  # noqa: E402
from stats.folds._signed_rank_engine import cached_weights, dirichlet_weights  # noqa: E402
from stats.folds.signed_rank import signed_rank_counts  # noqa: E402
from stats.folds.ttests import _paired  # noqa: E402

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


def timed(fn, reps: int) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Wall and process CPU seconds of ``reps`` calls."""
    wall, cpu = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


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


def learner_differences(log: pd.DataFrame) -> list[np.ndarray]:
    """The 19 learners' oriented differences of means against L01, as fold_comparison pairs them."""
    p = stats.fold_cube(log, "accuracy").paired("L01", True)
    xm, ym = np.nanmean(np.where(p.shared, p.x, np.nan), axis=2), np.nanmean(np.where(p.shared, p.y, np.nan), axis=2)
    return [_paired(xm[:, k], ym[:, k], True) for k in range(xm.shape[1])]


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def stats_part(log: pd.DataFrame, reps: int) -> None:
    cold_wall, cold_cpu = timed(lambda: stats.fold_comparison(log, "accuracy", "L01"), 1)
    stats.fold_comparison(log, "accuracy", "L01", nsamples=1000)  # warm-up of the rest
    full, full_cpu = timed(lambda: stats.fold_comparison(log, "accuracy", "L01"), reps)
    per_set, per_set_cpu = timed(lambda: stats.fold_comparison(log, "accuracy", "L01", nsamples=1), reps)
    draw, _ = timed(lambda: dirichlet_weights(D, prior=1.0, nsamples=50000, seed=0), 1)
    # issue 26: the default prior is baycomp's 0.5, drawn as normalised gammas in the by-value
    # layout; Generator.dirichlet made into that layout (what a prior other than 1 cost before) is
    # its baseline, the two interleaved
    alpha = np.r_[0.5, np.ones(D)]
    draw_half: list[float] = []
    draw_numpy: list[float] = []
    for _ in range(max(3, reps)):
        draw_half += timed(lambda: cached_by_value(D, 50000, 0, 0.5), 1)[0]
        draw_numpy += timed(lambda: np.ascontiguousarray(np.random.default_rng(0).dirichlet(alpha, 50000).T), 1)[0]

    zs = learner_differences(log)
    w = cached_weights(D, prior=1.0, nsamples=50000, seed=0)
    blocks = previous.weight_blocks(w.T)
    small = max(1, reps // 2)
    res: dict[str, list] = {}
    new, new_cpu = timed(lambda: res.__setitem__("new", [signed_rank_counts(z, 0.01, w) for z in zs]), reps)
    exact, exact_cpu = timed(
        lambda: res.__setitem__("exact", [signed_rank_counts(z, 0.01, w, bounds=False) for z in zs]), small
    )
    old, old_cpu = timed(lambda: res.__setitem__("old", [previous.signed_rank_counts(z, 0.01, blocks) for z in zs]), 1)
    same = all(np.array_equal(a, b) and np.array_equal(a, c) for a, b, c in zip(res["new"], res["exact"], res["old"]))

    def pooled() -> None:  # the previous call's signed-rank part: one thread per CPU, as fold_comparison
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(lambda z: previous.signed_rank_counts(z, 0.01, blocks), zs))

    old_pooled, _ = timed(pooled, 1)
    base = statistics.median(baseline(log, 50) for _ in range(small)) * (D / 50)

    def row(label: str, wall: list[float], cpu: list[float] | None = None) -> str:
        extra = f"   cpu {med(cpu):6.3f} s" if cpu is not None else ""
        return f"{label:<58s} {med(wall):7.3f} s{extra}"

    print(row("fold_comparison, nsamples=50000, first call (draws)", cold_wall, cold_cpu))
    print(row(f"fold_comparison, nsamples=50000, median of {reps}", full, full_cpu))
    print(f"  runs: {', '.join(f'{x:.3f}' for x in full)}")
    print(row("fold_comparison, nsamples=1 (the per-data-set part)", per_set, per_set_cpu))
    print(row("  signed-rank: the Dirichlet draw 50000 x 501 (kept)", draw))
    print(row("  the draw with prior 0.5 (the default: gammas by value)", draw_half))
    print(row("  baseline: Generator.dirichlet with prior 0.5, transposed", draw_numpy))
    print(f"  ratio Generator.dirichlet / ours at prior 0.5: {med(draw_numpy) / med(draw_half):.1f}x")
    print(row(f"  signed-rank, {len(zs)} learners serial: bounds + exact rest", new, new_cpu))
    print(row(f"  signed-rank, {len(zs)} learners serial: every sample exact", exact, exact_cpu))
    print(row(f"  signed-rank, {len(zs)} learners serial: previous (fbc69ad)", old, old_cpu))
    print(f"  counts identical (bounds, exact, previous): {same}")
    print(
        f"  ratio previous / bounds: {med(old) / med(new):.1f}x wall, {med(old_cpu) / med(new_cpu):.1f}x cpu;"
        f" previous / exact: {med(old) / med(exact):.1f}x"
    )
    previous_call = med(per_set) + med(draw) + med(old_pooled)
    print(row("previous call (estimate: per-data-set + draw + previous signed-rank, pooled)", [previous_call]))
    print(f"ratio previous call / fold_comparison: {previous_call / med(full):.1f}x")
    print(f"baseline: per-pair loop, 50 data sets x {L - 1} learners, scaled to {D}: {base:7.3f} s")
    print(f"ratio baseline / fold_comparison(nsamples=1): {base / med(per_set):.1f}x")
    print(f"bar: the whole call under 0.5 s; CPUs: {os.cpu_count()}; load average {os.getloadavg()[0]:.2f}")


def explorer_part(log: pd.DataFrame, reps: int) -> None:
    from tui.model import Model, default_selection
    from tui.views.folds.panel import folds_rows

    model = Model(log)
    sel = default_selection(log, "accuracy")
    folds_rows(model.analyze(sel).prepare("folds").folds)  # warm: the fold results of the criterion are cached

    made: dict[int, object] = {}

    from tui.app._rendered import Ahead, Rendered

    def worker(control: str) -> None:  # what the analysis worker does for the view on screen
        view = model.analyze(replace(sel, control=control)).prepare("folds").folds
        if id(view) not in made:  # the app reuses the rows of a view it has shown (tui.rendered)
            made.clear()
            made[id(view)] = folds_rows(view)

    def first(control: str) -> Rendered:  # the analysis worker: the view's first part and its rows
        analysis = model.analyze(replace(sel, control=control)).prepare("folds_early")
        return Rendered(analysis).build("folds")

    def finish(early: Rendered) -> None:  # finish_view: the whole view, the same rows
        early.analysis.prepare("folds")
        Rendered(early.analysis).build("folds", early)

    controls = [f"L{i:02d}" for i in range(2, 2 + reps)]
    shown_first, finished = [], []
    for c in controls:
        t, p = time.perf_counter(), time.process_time()
        early = first(c)
        shown_first.append((time.perf_counter() - t, time.process_time() - p))
        t, p = time.perf_counter(), time.process_time()
        finish(early)
        finished.append((time.perf_counter() - t, time.process_time() - p))
    rest = [f"L{i:02d}" for i in range(2 + 3 * reps, 2 + 4 * reps)]
    toggle = [timed(lambda c=c: worker(c), 1) for c in rest]
    wall, cpu = [t[0][0] for t in toggle], [t[1][0] for t in toggle]
    seen, _ = timed(lambda: worker(controls[0]), reps)
    quart = [timed(lambda c=c: model.analyze(replace(sel, control=c)).prepare("quartiles"), 1)[0][0] for c in controls]

    warm = Ahead()
    later = [f"L{i:02d}" for i in range(2 + reps, 2 + 2 * reps)]

    def ahead_of(control: str) -> None:  # what the app's idle worker does (RankboardApp.warm_controls)
        view = model.analyze(replace(sel, control=control)).prepare("folds").folds
        warm.put(view, folds_rows(view))

    ahead, ahead_cpu = timed(lambda: [ahead_of(c) for c in later], 1)

    def shown(control: str) -> None:  # the analysis worker, the other control's view made ahead
        analysis = model.analyze(replace(sel, control=control))
        analysis.prepare("folds")
        Rendered(analysis).build("folds", None, None, warm)

    hot = [timed(lambda c=c: shown(c), 1)[0][0] for c in later]
    print(
        f"explorer: control toggle, folds view on screen (first part)  median {med([x[0] for x in shown_first]):7.3f} s"
        f"   cpu {med([x[1] for x in shown_first]):.3f} s"
    )
    print(
        f"explorer: ... then the signed-rank sentence (whole view)   + median {med([x[0] for x in finished]):7.3f} s"
        f"   cpu {med([x[1] for x in finished]):.3f} s"
    )
    print(f"explorer: control toggle, the whole view at once (before) median {med(wall):7.3f} s  cpu {med(cpu):.3f} s")
    print(f"explorer: the same, its view made ahead while idle       median {med(hot) * 1000:7.1f} ms")
    print(
        f"explorer: the idle work per control (view and rows)      {ahead[0] / len(later):7.3f} s"
        f"   cpu {ahead_cpu[0] / len(later):.3f} s"
    )
    print(f"explorer: the same selection again (cached)              median {med(seen) * 1000:7.1f} ms")
    print(f"explorer: control toggle with the quartiles on screen    median {med(quart) * 1000:7.1f} ms (baseline)")
    print("bar: a toggle under 100 ms")


def panel_part(log: pd.DataFrame, reps: int) -> None:
    from rich.text import Text
    from textual.app import App, ComposeResult

    from stats import fmt_p
    from tui.model import Model, default_selection
    from tui.views.folds.panel import MARK_STYLE, TABLE_COLUMNS, FoldsPanel, folds_rows, prob_bar
    from tui.widgets import VimTable, literal

    model = Model(log)
    sel = default_selection(log, "accuracy")
    view = model.analyze(sel).folds
    one = model.analyze(replace(sel, datasets=sel.datasets[:1])).folds
    t = time.perf_counter()
    big = folds_rows(view)
    built = time.perf_counter() - t
    small = folds_rows(one)

    def previous_fill(table: VimTable) -> None:  # the panel's fill before the rows were made in the worker
        table.clear(columns=True)
        for label in TABLE_COLUMNS:
            table.add_column(Text(label), key=label)
        for r in view.table.itertuples():
            mark = str(r.mark)
            table.add_row(
                literal(r.Index[0]),
                literal(r.Index[1]),
                Text(f"{r.mean_difference:+.3g}", justify="right"),
                Text(fmt_p(r.pvalue), justify="right"),
                Text(mark or " ", style=MARK_STYLE.get(mark, "")),
                Text(prob_bar(r.p_better, r.p_equivalent, r.p_worse)),
                key=f"{r.Index[0]}\0{r.Index[1]}",
            )

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield FoldsPanel(id="folds")

    gaps: list[float] = []
    out: dict[str, list[float]] = {
        "big": [],
        "small": [],
        "previous": [],
        "filter": [],
        "filter_previous": [],
        "unfilter": [],
    }

    async def run() -> None:
        app = One()
        async with app.run_test(size=(120, 40)) as pilot:
            panel = app.query_one(FoldsPanel)

            async def ticker() -> None:
                last = time.perf_counter()
                while True:
                    await asyncio.sleep(0.002)
                    now = time.perf_counter()
                    gaps.append(now - last)
                    last = now

            async def measure(name: str, change) -> None:  # type: ignore[no-untyped-def]
                await pilot.pause()
                gaps.clear()
                change()
                for _ in range(3):
                    await pilot.pause()
                out[name].append(max(gaps))

            task = asyncio.create_task(ticker())
            for _ in range(reps):
                await measure("big", lambda: setattr(panel, "rows", big))
                await measure("small", lambda: setattr(panel, "rows", small))
            # the / filter on the 9,500 rows: now (names matched once, rows taken from those made)
            # and the previous way (every key split and matched, the rows made again on the loop)
            await measure("big", lambda: setattr(panel, "rows", big))
            for needle in ("d00", "l0", "d00", "l0")[: max(2, reps)]:
                await measure("filter", lambda n=needle: panel.set_filter(n))
                await measure("unfilter", lambda: panel.set_filter(""))
            for needle in ("d00", "l0", "d00", "l0")[: max(2, reps)]:
                with _previous_filter():
                    await measure("filter_previous", lambda n=needle: panel.set_filter(n))
                await measure("unfilter", lambda: panel.set_filter(""))
            await measure("previous", lambda: previous_fill(app.query_one("#folds-table", VimTable)))
            task.cancel()

    gc.disable()  # as the app does during an interaction (tui.gcpolicy)
    try:
        asyncio.run(run())
    finally:
        gc.enable()
    n = len(view.table)
    lines = [
        (f"folds panel: rows made in the worker (folds_rows, {n} rows)", built, ""),
        (f"folds panel: longest event-loop gap showing {n} rows, median", med(out["big"]), ""),
        ("folds panel: longest event-loop gap showing 19 rows, median", med(out["small"]), " (baseline)"),
        (f"folds panel: previous fill ({n} rows, add_row per row), once", med(out["previous"]), ""),
        ("folds panel: / filter (d00: 190 rows, l0: 4,750), longest gap, median", med(out["filter"]), ""),
        ("folds panel: / filter the previous way (rows made again), median", med(out["filter_previous"]), ""),
    ]
    for label, seconds, note in lines:
        print(f"{label:<66s} {seconds * 1000:7.1f} ms{note}")
    print("bar: an event-loop gap under ~50 ms beyond the baseline")


def bars(log: pd.DataFrame, reps: int) -> dict:
    """The two bars of issue 14 in the tree on ``sys.path`` (this one, or ``--before``'s): medians.

    (a) ``stats.fold_comparison(log, "accuracy", "L01")`` after a first call (wall and CPU);
    (b) a control toggle as the explorer's analysis worker does it (``Model.analyze``, the folds
    view, its rows ``folds_rows``) for controls not shown before, nothing made ahead; and, where
    the tree has the idle worker (``tui.app._rendered.WarmRows``), after it has made the other
    controls' views (what the app does while idle: ``RankboardApp.warm_controls``)."""
    from tui.app import _rendered
    try:
        from tui.views.folds.panel import folds_rows
    except ImportError:  # a tree before the registry of views
        from tui.app.widgets._folds import folds_rows  # type: ignore[no-redef]
    try:
        from tui.model import Model, default_selection
    except ImportError:  # a tree before tui.view became tui.model
        from tui.view import Model, default_selection  # type: ignore[no-redef]

    gc.collect()
    stats.fold_comparison(log, "accuracy", "L01")
    wall, cpu = timed(lambda: stats.fold_comparison(log, "accuracy", "L01"), reps)
    model = Model(log)
    sel = default_selection(log, "accuracy")
    folds_rows(model.analyze(sel).prepare("folds").folds)
    gc.collect()
    gc.freeze()  # as the app does once started (tui.gcpolicy)

    from tui.model import Analysis

    two_steps = hasattr(Analysis, "folds_early")  # this tree; a --before tree may show the whole view only
    firsts: list[tuple[float, float]] = []

    def toggle(control: str, warm: object = None) -> None:
        analysis = model.analyze(replace(sel, control=control))
        if warm is None and two_steps:  # the first part on screen, then the whole view (its rows reused)
            t, c = time.perf_counter(), time.process_time()
            analysis.prepare("folds_early")
            early = _rendered.Rendered(analysis).build("folds")
            firsts.append((time.perf_counter() - t, time.process_time() - c))
            analysis.prepare("folds")
            _rendered.Rendered(analysis).build("folds", early)
            return
        analysis.prepare("folds")
        if warm is not None:
            _rendered.Rendered(analysis).build("folds", None, None, warm)
        else:
            folds_rows(analysis.folds)

    controls = [f"L{i:02d}" for i in range(2, 2 + reps)]
    cold = [timed(lambda c=c: toggle(c), 1) for c in controls]
    out = {
        "call_wall": med(wall),
        "call_cpu": med(cpu),
        "toggle_wall": med([t[0][0] for t in cold]),
        "toggle_cpu": med([t[1][0] for t in cold]),
    }
    # the view on screen: its first part where the tree shows one (else the whole view)
    out["first_wall"] = med([f[0] for f in firsts]) if firsts else out["toggle_wall"]
    out["first_cpu"] = med([f[1] for f in firsts]) if firsts else out["toggle_cpu"]
    if hasattr(_rendered, "WarmRows") or hasattr(_rendered, "Ahead"):
        warm = _rendered.Ahead() if hasattr(_rendered, "Ahead") else _rendered.WarmRows()
        later = [f"L{i:02d}" for i in range(2 + reps, 2 + 2 * reps)]
        t = time.perf_counter()
        for c in later:  # the idle worker's work, ahead of the toggles
            view = model.analyze(replace(sel, control=c)).prepare("folds").folds
            rows = folds_rows(view)
            warm.put(view, rows) if hasattr(_rendered, "Ahead") else warm.put(rows)  # type: ignore[call-arg]
        out["warm_each"] = (time.perf_counter() - t) / len(later)
        hot = [timed(lambda c=c: toggle(c, warm), 1) for c in later]
        out["warm_toggle_wall"] = med([t[0][0] for t in hot])
    gc.unfreeze()
    return out


def export(rev: str) -> Path:
    """``stats/`` and ``tui/`` of git revision ``rev`` in a temporary folder (``git archive``: no
    worktree touched)."""
    return _trees.export(rev, "stats", "tui")


def run_bars(tree: Path, reps: int) -> dict:
    return _trees.run_child(tree, [__file__, "--tree-child", str(tree), "--reps", str(reps)])


def bars_part(before: str, reps: int, runs: int) -> None:
    """Both bars in this tree and in ``before``'s, each in its own process, the runs interleaved."""
    trees = {f"before ({before})": export(before), "this tree": ROOT}
    results: dict[str, list[dict]] = {name: [] for name in trees}
    try:
        for _ in range(runs):
            for name, tree in trees.items():
                results[name].append(run_bars(tree, reps))
    finally:
        shutil.rmtree(trees[f"before ({before})"])
    m = {name: {k: med([r[k] for r in rs]) for k in rs[0]} for name, rs in results.items()}
    old, new = m[f"before ({before})"], m["this tree"]
    print(f"bars, median of {runs} process(es) x {reps} reps per tree; load average {os.getloadavg()[0]:.2f}")
    print(f"{'':34s}{'before':>10s}{'this tree':>11s}{'ratio':>8s}")
    for label, key in (
        ("(a) fold_comparison, wall s", "call_wall"),
        ("(a) fold_comparison, cpu s", "call_cpu"),
        ("(b) toggle, view on screen, s", "first_wall"),
        ("(b) toggle, view on screen, cpu s", "first_cpu"),
        ("(b) toggle, whole view, s", "toggle_wall"),
        ("(b) toggle, whole view, cpu s", "toggle_cpu"),
    ):
        if key not in old:  # (a tree before the two steps: its view on screen is the whole view)
            old[key] = old[key.replace("first", "toggle")]
        print(f"{label:34s}{old[key]:10.3f}{new[key]:11.3f}{old[key] / new[key]:7.1f}x")
    if "warm_toggle_wall" in new:
        print(
            f"{'(b) toggle, made ahead while idle, s':34s}{'':10s}{new['warm_toggle_wall']:11.4f}"
            f"{old['toggle_wall'] / new['warm_toggle_wall']:7.0f}x  (idle work per control {new['warm_each']:.3f} s)"
        )
    print("bars: (a) under 0.5 s; (b) under 0.1 s (the view on screen; the signed-rank sentence follows it)")


@contextlib.contextmanager
def _previous_filter() -> Iterator[None]:
    """The folds panel's / filter as it was: every row's key split and matched, and the kept rows
    made again (``prepare_rows``) on the event loop."""
    try:
        from tui.views.folds import panel as _folds
    except ImportError:  # a tree before the registry of views
        from tui.app.widgets import _folds  # type: ignore[no-redef]
    from tui.widgets._base import matches
    from tui.widgets._table import prepare_rows

    def filtered(view, needle):  # type: ignore[no-untyped-def]
        keys = [f"{d}\0{x}" for d, x in view.table.index]
        return [i for i, key in enumerate(keys) if matches(needle, *key.split("\0", 1))]

    def subset(prepared, keep):  # type: ignore[no-untyped-def]
        cells, keys = [prepared.cells[i] for i in keep], [prepared.keys[i] for i in keep]
        return prepare_rows(prepared.columns, cells, keys, prepared.widths)

    saved = _folds.filtered, _folds.subset_rows
    _folds.filtered, _folds.subset_rows = filtered, subset
    try:
        yield
    finally:
        _folds.filtered, _folds.subset_rows = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--no-app", action="store_true", help="skip the explorer and the panel")
    parser.add_argument("--before", metavar="REV", help="also both bars in git revision REV (git archive)")
    parser.add_argument("--runs", type=int, default=1, help="processes per tree for --before, interleaved")
    parser.add_argument("--bars-only", action="store_true", help="only the bars (with --before)")
    parser.add_argument("--tree-child", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()

    log = make_log()
    if args.tree_child:
        print(json.dumps(bars(log, args.reps)))
        return
    if args.before:
        bars_part(args.before, args.reps, args.runs)
        if args.bars_only:
            return
    print(f"log: {len(log):,} rows ({D} data sets x {L} learners x {R} x {N} CV, one criterion)")
    stats_part(log, args.reps)
    if not args.no_app:
        explorer_part(log, args.reps)
        panel_part(log, args.reps)


if __name__ == "__main__":
    main()
