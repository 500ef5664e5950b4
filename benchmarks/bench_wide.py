"""Benchmark: wide tables (issue 13, item 4) -- Shaffer's t_i, the first view of 20 x 50 and 50 x 100.

What it measures
    1. ``stats.shaffer_t(k)`` from a cold cache (``_shaffer_s`` and ``_shaffer_t`` cleared), median
       of ``--reps`` runs, for k = 20 .. 100; next to the previous implementation (a recursion
       memoised with ``lru_cache(maxsize=32)``, copied below as ``old_shaffer_t``) for k = 20 .. 40
       (it grows about 4x per 5 learners from k = 33 on: k = 50 took minutes), checked equal.
    2. In process, for each table (20 data sets x 50 learners, 50 x 100; 5 x 2 CV, one criterion,
       written once to ``/tmp/rankboard_bench/``): loading (``read_logs`` + ``Model``), then the
       first view = ``render_report(model, selection, view=V)`` on a fresh ``Model`` (nothing
       cached), median of ``--reps``, for V = quartiles, ranks, tests, pairs, cd; next to the
       eager baseline, the previous behaviour of ``Model.analyze``: every view computed
       (``analysis.prepare(*VIEWS)``), then V rendered.
    3. ``rankboard report LOG --view ranks|pairs`` as a user runs it (a new interpreter each time,
       ``python -m tui``), median of ``--cli-reps``; the same on the bundled 14 x 4 example gives the
       fixed cost (interpreter, imports). Baseline: the previous revision (``--baseline``, default
       d05e7e2, unpacked with ``git archive``) on the 20 x 50 log restricted to 40 learners (the
       50 learners would take minutes), next to this revision on the same 40.
    4. The app (unless ``--skip-app``): ``bench_app.BenchApp`` under ``run_test(120x40)`` on each
       log: from "loading finished" to the first view (quartiles) painted, then ``2`` (ranks) and
       ``4`` (pairs) from the key press to the panel showing the new view; next to an eager app
       whose analysis worker computes every view, as before.

Bar
    the first view of 20 x 50 and 50 x 100 within 1 s (in process; the command adds its fixed cost).
    Figures are printed, never asserted.

Run from the repository root::

    python benchmarks/bench_wide.py [--reps 5] [--cli-reps 3] [--baseline REV] [--skip-app]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import warnings
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]  # this checkout's stats/tui, not another install's

import bench_load  # noqa: E402

import stats  # noqa: E402
import stats.posthoc.shaffer_bergmann  # noqa: E402
from tui.model import Model  # noqa: E402
from tui.registry import names  # noqa: E402
from tui.render import render_report  # noqa: E402

VIEWS = names()

DIR = Path("/tmp/rankboard_bench")
TABLES = ((20, 50), (50, 100))  # data sets x learners
REPEATS, FOLDS = 5, 2
BAR = 1.0


def log_path(n: int, k: int) -> Path:
    return DIR / f"wide_{n}x{k}.dat"


def make_logs() -> None:
    for n, k in TABLES:
        path = log_path(n, k)
        if not bench_load.log_complete(path, n, ("accuracy",)):
            bench_load.write_log(path, n, ("accuracy",), effect_sd=0.03, n_learners=k, repeats=REPEATS, folds=FOLDS)


# -- 1. Shaffer's t_i ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _old_shaffer_s(k: int) -> frozenset[int]:
    # The previous stats.posthoc.shaffer_bergmann._shaffer_s, verbatim: S(k) = U_j {C(j,2) + x : x in S(k-j)}.
    if k <= 1:
        return frozenset({0})
    out: set[int] = set()
    for j in range(1, k + 1):
        out.update(j * (j - 1) // 2 + x for x in _old_shaffer_s(k - j))
    return frozenset(out)


def old_shaffer_t(k: int) -> np.ndarray:
    m = k * (k - 1) // 2
    possible = np.array(sorted(_old_shaffer_s(k)))
    return np.array([int(possible[possible <= m - i].max()) for i in range(m)], dtype=np.int64)


def new_shaffer_t(k: int) -> np.ndarray:
    return stats.shaffer_t(k)


def cold(fn: Callable[[int], np.ndarray], k: int, clear: Callable[[], None], reps: int) -> float:
    times = []
    for _ in range(reps):
        clear()
        t = time.perf_counter()
        fn(k)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def clear_new() -> None:
    stats.posthoc.shaffer_bergmann._shaffer_s.cache_clear()
    stats.posthoc.shaffer_bergmann._shaffer_t.cache_clear()


def bench_shaffer(reps: int) -> None:
    print("1. Shaffer's t_i from a cold cache (median ms)")
    print(f"{'k':>5}{'new ms':>10}{'old ms':>12}{'ratio':>10}  calls of S (new / old)")
    for k in (20, 30, 35, 40, 50, 75, 100):
        new = cold(new_shaffer_t, k, clear_new, reps)
        new_calls = stats.posthoc.shaffer_bergmann._shaffer_s.cache_info().misses
        if k <= 40:
            old = cold(old_shaffer_t, k, _old_shaffer_s.cache_clear, min(reps, 3))
            old_calls = _old_shaffer_s.cache_info().misses
            assert np.array_equal(old_shaffer_t(k), new_shaffer_t(k)), k
            print(f"{k:>5}{1000 * new:10.2f}{1000 * old:12.1f}{old / new:10.0f}  {new_calls} / {old_calls:,}")
        else:
            print(f"{k:>5}{1000 * new:10.2f}{'-':>12}{'-':>10}  {new_calls} / (minutes)")


# -- 2. the first view, in process ----------------------------------------------------------------


def first_view(log, view: str, eager: bool) -> float:  # noqa: ANN001
    model = Model(log)  # fresh: nothing cached
    sel = model.default_selection()
    t = time.perf_counter()
    if eager:
        model.analyze(sel).prepare(*VIEWS)  # what analyze computed before: every view
    render_report(model, sel, view=view)
    return time.perf_counter() - t


def bench_in_process(reps: int) -> None:
    print(f"\n2. first view in process: render_report on a fresh Model (median of {reps}; bar {BAR:.0f} s)")
    for n, k in TABLES:
        path = log_path(n, k)
        t = time.perf_counter()
        log = stats.read_logs(str(path))
        Model(log)
        load = time.perf_counter() - t
        print(f"   {n} x {k} ({path.name}, {len(log):,} lines): read_logs + Model {1000 * load:.0f} ms")
        print(f"   {'view':<10}{'lazy ms':>10}{'eager ms':>10}{'ratio':>8}  bar")
        for view in VIEWS:
            lazy, eager = [], []
            for _ in range(reps):  # interleaved: both see the same machine load
                lazy.append(first_view(log, view, eager=False))
                eager.append(first_view(log, view, eager=True))
            a, b = statistics.median(lazy), statistics.median(eager)
            print(f"   {view:<10}{1000 * a:10.0f}{1000 * b:10.0f}{b / a:8.1f}  {'meets' if a <= BAR else 'MISSES'}")


# -- 3. the command -----------------------------------------------------------------------------


def run_cli(pythonpath: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "PYTHONWARNINGS": "ignore"}
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "tui", "report", *args],
        env=env,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    took = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"report {args} failed: {out.stderr[-500:]}")
    return took


def unpack(rev: str) -> Path | None:
    """The tree of revision ``rev`` in a temporary folder (``git archive``), or None."""
    dest = Path(tempfile.mkdtemp(prefix="rankboard_base_"))
    archive = dest / "tree.tar"
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev], capture_output=True)
    if done.returncode != 0:
        shutil.rmtree(dest)
        return None
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    return dest


def bench_cli(reps: int, rev: str) -> None:
    print(f"\n3. the command, `python -m tui report LOG --view V` (median of {reps}, wall time, new interpreter)")
    fixed = statistics.median(run_cli(ROOT, ["--view", "ranks"]) for _ in range(reps))
    print(f"   fixed cost (the bundled 14 x 4 example, --view ranks): {fixed:.2f} s")
    for n, k in TABLES:
        for view in ("ranks", "pairs"):
            t = statistics.median(run_cli(ROOT, [str(log_path(n, k)), "--view", view]) for _ in range(reps))
            print(f"   {n} x {k:<4} --view {view:<6} {t:6.2f} s  ({t - fixed:+.2f} s over the fixed cost)")
    base = unpack(rev)
    if base is None:
        print(f"   baseline: revision {rev} not found (git archive failed); skipped")
        return
    try:
        learners = [f"learner_{j:02d}" for j in range(40)]
        args = [str(log_path(20, 50)), "--learners", *learners, "--view", "ranks"]
        old = run_cli(base, args)  # once: it takes seconds
        new = statistics.median(run_cli(ROOT, args) for _ in range(reps))
        print(
            f"   20 x 40 (the 20 x 50 log, 40 learners) --view ranks: revision {rev} {old:.2f} s (1 run), "
            f"this revision {new:.2f} s, ratio {old / new:.1f}"
        )
    finally:
        shutil.rmtree(base)


# -- 4. the app ----------------------------------------------------------------------------------


def bench_app(reps: int) -> None:
    import bench_app as ba

    async def run(path: Path) -> dict[str, float]:
        app = ba.BenchApp([str(path)], live=False)
        out: dict[str, float] = {}
        async with app.run_test(size=ba.SIZE) as pilot:
            t_start = time.perf_counter()
            while app.t_loaded is None:
                await asyncio.sleep(0.005)
                if time.perf_counter() - t_start > 120:
                    raise RuntimeError("load did not finish")
            shown = await ba.wait_shown(app, None, timeout=600)
            out["first view"] = shown - app.t_loaded
            await ba.settle(pilot)
            for key, view in (("2", "ranks"), ("4", "pairs")):
                t0 = time.perf_counter()
                await pilot.press(key)
                while view in app._stale_views:  # the app fills a view's panel, then drops it from the set
                    await asyncio.sleep(0.001)
                    if time.perf_counter() - t0 > 600:
                        raise RuntimeError(f"{view} not shown")
                filled = time.perf_counter()
                # The first screen update after the panel was filled. It may already have happened
                # between the fill and `filled` (then t_paint is after t0): waiting for a later one
                # hung the benchmark (nothing changes on screen any more).
                while app.t_paint < filled and app.t_paint < t0 and time.perf_counter() - filled < 5:
                    await asyncio.sleep(0.001)
                out[view] = (app.t_paint if app.t_paint >= t0 else filled) - t0
                await ba.settle(pilot)
        return out

    print(f"\n4. the app (120x40): loading finished -> first view painted; key -> view painted (median of {reps})")
    print("   eager: the same app with Model.analyze computing every view at once, as before")
    print(f"   {'table':<10}{'step':<24}{'lazy s':>8}{'eager s':>9}  bar")
    real_analyze = Model.analyze

    def analyze_all(model: Model, selection):  # noqa: ANN001, ANN202
        return real_analyze(model, selection).prepare(*VIEWS)

    for n, k in TABLES:
        lazy, eager = [], []
        for _ in range(reps):
            lazy.append(asyncio.run(run(log_path(n, k))))
            Model.analyze = analyze_all  # type: ignore[method-assign]
            try:
                eager.append(asyncio.run(run(log_path(n, k))))
            finally:
                Model.analyze = real_analyze  # type: ignore[method-assign]
        for step, label in (("first view", "first view (quartiles)"), ("ranks", "2 -> ranks"), ("pairs", "4 -> pairs")):
            a = statistics.median(r[step] for r in lazy)
            b = statistics.median(r[step] for r in eager)
            print(f"   {f'{n} x {k}':<10}{label:<24}{a:8.2f}{b:9.2f}  {'meets' if a <= BAR else 'MISSES'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--cli-reps", type=int, default=3)
    parser.add_argument("--baseline", default="d05e7e2", help="git revision of the baseline command (part 3)")
    parser.add_argument("--skip-app", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore", stats.BergmannLimitWarning)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}")
    make_logs()
    bench_shaffer(args.reps)
    bench_in_process(args.reps)
    bench_cli(args.cli_reps, args.baseline)
    if not args.skip_app:
        bench_app(max(1, args.reps // 2))


if __name__ == "__main__":
    main()
