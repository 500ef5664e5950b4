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
      needs no fold-level work).
    * The folds panel on the event loop (a headless app holding only the panel): the longest
      event-loop gap (a 2 ms ticker) while the panel shows the 9,500-row view, next to a 19-row
      view (one data set: any update of the panel costs that much) and to the previous way (rich
      ``Text`` cells made on the event loop and ``DataTable.add_row`` row after row), once.

Baselines (same run)
    A plain per-pair loop: for 50 of the data sets and the 19 learners, pivot the data set's
    rows and call ``stats.corrected_ttest`` and ``stats.bayes_correlated_ttest``; its time is
    scaled by 500 / 50 to the whole log; the ratio is for the per-data-set part (``nsamples=1``)
    against it. The previous signed-rank implementation and the previous panel fill, above.

Run from the repository root::

    python benchmarks/bench_folds.py [--reps 5] [--no-app]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _previous_signed_rank as previous  # noqa: E402

import stats  # noqa: E402
from stats._signed_rank import cached_weights, dirichlet_weights, signed_rank_counts  # noqa: E402
from stats.folds_tests import _paired  # noqa: E402

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
    from tui.app.widgets import folds_rows
    from tui.view import Model, default_selection

    model = Model(log)
    sel = default_selection(log, "accuracy")
    folds_rows(model.analyze(sel).prepare("folds").folds)  # warm: the fold results of the criterion are cached

    made: dict[int, object] = {}

    def worker(control: str) -> None:  # what the analysis worker does for the view on screen
        view = model.analyze(replace(sel, control=control)).prepare("folds").folds
        if id(view) not in made:  # the app reuses the rows of a view it has shown (tui.rendered)
            made.clear()
            made[id(view)] = folds_rows(view)

    controls = [f"L{i:02d}" for i in range(2, 2 + reps)]
    toggle = [timed(lambda c=c: worker(c), 1) for c in controls]
    wall, cpu = [t[0][0] for t in toggle], [t[1][0] for t in toggle]
    seen, _ = timed(lambda: worker(controls[0]), reps)
    quart = [timed(lambda c=c: model.analyze(replace(sel, control=c)).prepare("quartiles"), 1)[0][0] for c in controls]
    print(f"explorer: control toggle with the folds view on screen   median {med(wall):7.3f} s   cpu {med(cpu):.3f} s")
    print(f"explorer: the same selection again (cached)              median {med(seen) * 1000:7.1f} ms")
    print(f"explorer: control toggle with the quartiles on screen    median {med(quart) * 1000:7.1f} ms (baseline)")
    print("bar: a toggle under 100 ms")


def panel_part(log: pd.DataFrame, reps: int) -> None:
    from rich.text import Text
    from textual.app import App, ComposeResult

    from stats import fmt_p
    from tui.app.widgets import literal
    from tui.app.widgets._folds import MARK_STYLE, TABLE_COLUMNS, FoldsPanel, folds_rows, prob_bar
    from tui.app.widgets._ranks import VimTable
    from tui.view import Model, default_selection

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
    out: dict[str, list[float]] = {"big": [], "small": [], "previous": []}

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
    ]
    for label, seconds, note in lines:
        print(f"{label:<66s} {seconds * 1000:7.1f} ms{note}")
    print("bar: an event-loop gap under ~50 ms beyond the baseline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--no-app", action="store_true", help="skip the explorer and the panel")
    args = parser.parse_args()

    log = make_log()
    print(f"log: {len(log):,} rows ({D} data sets x {L} learners x {R} x {N} CV, one criterion)")
    stats_part(log, args.reps)
    if not args.no_app:
        explorer_part(log, args.reps)
        panel_part(log, args.reps)


if __name__ == "__main__":
    main()
