"""Benchmark: the headless app's responsiveness (issue 4) -- toggles, event-loop stalls, first paint.

What it measures
    1. Toggle latency. A 1,000,000-line log (50 data sets x 20 learners x 10 x 10 CV x 10
       criteria, 4-decimal values, fixed seed, written once to
       ``/tmp/rankboard_bench/grid_1M.dat`` in ``bench_load.py``'s format) is opened in
       ``create_app([path], live=False)`` under ``run_test(size=(120, 40))``. For each kind of
       toggle -- criterion (cursor on the next criterion in the sidebar, Enter), ``d``, ``c``
       (cursor on the next learner), ``a``, and ``space`` on a data set (cumulatively excluding
       one more data set each time, so every table is new; then re-including them, tables seen
       before) -- the time from just before the key press (``pilot.press``) to the first screen
       update composed after ``app.analysis`` was set for the new ``app.selection`` (the app's
       ``_display`` hook, which headless Textual still calls with the compositor's update).
       Medians over ``--toggles`` presses of each kind (cursor moves are not timed).
    2. Event-loop stalls. While the toggles run, a ``set_interval(0.005)`` tick in the app records
       the gap between consecutive ticks; the max and the 99th percentile are printed (and the
       same during the 5M load, for information).
    3. First paint on the 5,000,000-line log of ``bench_load.py`` (reused, or generated): from
       the app's start (``run_test`` entered) to "loading finished" (the load worker's ``Loaded``
       message reaching ``on_loaded``: read + aggregate + Model), then from there to the first
       screen update showing an analysis. Whether the load bar was shown during the load with a
       growing fraction (the distinct fractions sampled), the status line saying ``loading...``,
       and how many screen updates were composed during the load (does the bar animate?).

    4. Live updates. A copy of the 1M log (and, unless ``--skip-5m``, of the 5M log) is opened
       with ``live=True``; ``--appends`` times, 1,000 new results (a new data set) are appended
       and flushed, and the time to the first screen update showing an analysis of the model that
       holds them is taken, plus the part of it after the poll that saw them (polls come every
       0.25 s, the app's interval).

Baseline (same run)
    For 1: ``Model.analyze`` alone, on a fresh ``Model`` of the same log, replaying the app's exact
    sequence of selections in the same order (so its caches see the same hits and misses).

Bars
    1: <= 100 ms per toggle; 2: no gap > 50 ms; 3: first paint <= 1.5 s after loading finishes;
    4: appended lines on screen within a second.
    Figures are printed, never asserted.

Run from the repository root::

    python benchmarks/bench_app.py [--toggles 12] [--loads 3] [--skip-5m]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's stats/tui, not another install's

import bench_load  # noqa: E402

import stats  # noqa: E402
from stats import LogWatcher  # noqa: E402
from tests.test_app import settle as settle_test  # noqa: E402
from tui.app import RankboardApp  # noqa: E402
from tui.model import Model  # noqa: E402
from tui.widgets import LoadBar, NameList, StatusLine  # noqa: E402

GRID = Path("/tmp/rankboard_bench/grid_1M.dat")
N_DATASETS, N_LEARNERS, REPEATS, FOLDS = 50, 20, 10, 10
CRITERIA = ("accuracy", "pd", "pf", "precision", "recall", "f1", "auc", "gmean", "mcc", "runtime")
GRID_LINES = N_DATASETS * N_LEARNERS * REPEATS * FOLDS * len(CRITERIA)
SIZE = (120, 40)
TOGGLE_BAR, STALL_BAR, PAINT_BAR = 0.100, 0.050, 1.5


def generate_grid(path: Path = GRID) -> None:
    """bench_load.py's log, 50 x 20 x 10 x 10 x 10 criteria, with a learner effect per data set."""
    bench_load.write_log(path, N_DATASETS, CRITERIA, effect_sd=0.03)


def _grid_valid(path: Path = GRID) -> bool:
    return bench_load.log_complete(path, N_DATASETS, CRITERIA)


class BenchApp(RankboardApp):
    """The real app plus timestamps (no behaviour changed): analysis shown, screen updates, ticks."""

    CSS_PATH = str(Path(sys.modules[RankboardApp.__module__].__file__).with_name("app.tcss"))

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.t_loaded: float | None = None
        self.t_loaded_last = 0.0  # the last Loaded handled
        self.polls: list[float] = []  # when each load (poll) started
        self.t_analysis = 0.0  # last time watch_analysis ran
        self.t_paint = 0.0  # last screen update composed
        self.t_shown: float | None = None  # the first screen update composed after watch_analysis ran
        self.paints = 0
        self.ticks: list[float] = []
        self.ticking = False

    def on_loaded(self, message) -> None:  # noqa: ANN001
        self.t_loaded_last = time.perf_counter()
        if self.t_loaded is None:
            self.t_loaded = self.t_loaded_last
        super().on_loaded(message)

    def start_load(self, *, reload: bool, quiet: bool = False) -> None:
        self.polls.append(time.perf_counter())
        super().start_load(reload=reload, quiet=quiet)

    def watch_analysis(self, analysis) -> None:  # noqa: ANN001
        super().watch_analysis(analysis)
        if analysis is not None:
            self.t_analysis = time.perf_counter()
            self.t_shown = None

    def _display(self, screen, renderable) -> None:  # noqa: ANN001
        super()._display(screen, renderable)
        if renderable is not None:
            self.t_paint = time.perf_counter()
            self.paints += 1
            if self.t_shown is None and self.t_analysis:
                self.t_shown = self.t_paint

    def tick(self) -> None:
        if self.ticking:
            self.ticks.append(time.perf_counter())


def gaps_ms(ticks: list[float]) -> list[float]:
    return [1000 * (b - a) for a, b in zip(ticks, ticks[1:])]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


async def wait_shown(app: BenchApp, before, timeout: float = 30.0) -> float:  # noqa: ANN001
    """Poll until the analysis of a selection other than ``before`` is set and painted.

    Returns the time of the *first* screen update composed after that analysis was set (recorded
    by the ``_display`` hook, not when this loop sees it: ``pilot.press`` returns only after
    later updates, so reading ``t_paint`` here would time a later one).
    """
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        a = app.analysis
        if (
            app.selection is not None
            and app.selection != before
            and a is not None
            and a.selection == app.selection
            and app.t_shown is not None
        ):
            return app.t_shown
        await asyncio.sleep(0.001)
    raise RuntimeError(f"no new analysis shown within {timeout} s (selection {app.selection})")


async def settle(pilot) -> None:  # noqa: ANN001
    """tests/test_app.py's wait for the workers and their messages, with time for large logs."""
    await settle_test(pilot, guard=600.0)


async def focus(pilot, list_id: str) -> NameList:  # noqa: ANN001
    lst = pilot.app.query_one(f"#{list_id}", NameList)
    lst.focus()
    await pilot.pause()
    return lst


async def toggles(path: Path, n: int) -> tuple[dict[str, list[float]], list, list[float], dict]:
    app = BenchApp([str(path)], live=False)
    times: dict[str, list[float]] = {}
    sequence = []  # every selection the app analysed, in order
    info: dict = {}
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        info["shape"] = (app.analysis.n_datasets, app.analysis.n_learners)
        sequence.append(app.selection)
        app.set_interval(0.005, app.tick)

        async def timed(kind: str, key: str) -> None:
            before = app.selection
            await settle(pilot)
            app.ticking = True
            t0 = time.perf_counter()
            await pilot.press(key)
            shown = await wait_shown(app, before)
            times.setdefault(kind, []).append(shown - t0)
            await settle(pilot)
            app.ticking = False
            app.ticks.append(float("nan"))  # break between toggles: gaps across it are dropped
            sequence.append(app.selection)

        crit = await focus(pilot, "criteria")
        order = list(app.model.criteria)
        for _ in range(n):
            crit.highlighted = (order.index(app.selection.criterion) + 1) % len(order)
            await pilot.pause()
            await timed("criterion (enter)", "enter")
        for _ in range(n):
            await timed("direction (d)", "d")
        learners = await focus(pilot, "learners")
        for i in range(n):
            names = list(app.model.learners)
            j = i % len(names)
            if names[j] == app.selection.control:
                j = (j + 1) % len(names)
            learners.highlighted = j
            await pilot.pause()
            await timed("control (c)", "c")
        for _ in range(n):
            await timed("alpha (a)", "a")
        datasets = await focus(pilot, "datasets")
        for i in range(n):
            datasets.highlighted = i
            await pilot.pause()
            await timed("data set off (space, new table)", "space")
        for i in reversed(range(n)):
            datasets.highlighted = i
            await pilot.pause()
            await timed("data set on (space, seen table)", "space")
        info["final"] = (app.analysis.n_datasets, app.analysis.n_learners, app.analysis.problem)
        ticks = app.ticks
    gaps = [g for g in gaps_ms(ticks) if not np.isnan(g)]
    return times, sequence, gaps, info


def baseline(path: Path, sequence: list) -> tuple[float, dict[int, float]]:
    t0 = time.perf_counter()
    watcher = LogWatcher([str(path)])
    log = watcher.poll().rows.drop(columns=["file", "line"])  # the first poll's rows: the whole log
    model = Model(log)
    build = time.perf_counter() - t0
    per = {}
    for i, sel in enumerate(sequence):
        t = time.perf_counter()
        model.analyze(sel)
        per[i] = time.perf_counter() - t
    return build, per


async def live_updates(source: Path, appends: int) -> list[tuple[float, float]]:
    """Append 1,000 new results to a copy of ``source`` while the app runs live, ``appends`` times.

    Each time: from the append (written and flushed) to the first screen update showing an
    analysis of the model that holds them; and the part of it spent after the poll that saw them
    (the poll comes every ``interval`` = 0.25 s). Returns (total, after the poll) per append.
    """
    copy = source.with_name("live_" + source.name)
    shutil.copyfile(source, copy)
    app = BenchApp([str(copy)], live=True)
    out = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            for i in range(appends):
                lines = app.query_one(StatusLine).lines
                text = "".join(
                    f"live_{i:02d},{r + 1},{f + 1},learner_{lrn:02d},accuracy,0.{(r * 7 + f * 3 + lrn) % 10}\n"
                    for r in range(5)
                    for f in range(10)
                    for lrn in range(20)
                )
                polls_before = len(app.polls)
                t0 = time.perf_counter()
                with copy.open("a") as f:
                    f.write(text)
                end = t0 + 30
                while time.perf_counter() < end:
                    a = app.analysis
                    done = app.query_one(StatusLine).lines == lines + 1000 and app.t_shown is not None
                    if done and a is not None and a.selection == app.selection and app.t_shown > app.t_loaded_last:
                        break
                    await asyncio.sleep(0.002)
                else:
                    raise RuntimeError("the appended lines did not show within 30 s")
                seen = [t for t in app.polls[polls_before:] if t >= t0]
                poll = seen[0] if seen else t0
                out.append((app.t_shown - t0, app.t_shown - poll))
                await pilot.pause(0.3)
    finally:
        copy.unlink(missing_ok=True)
    return out


async def first_paint(path: Path) -> dict:
    t_start = time.perf_counter()
    app = BenchApp([str(path)], live=False)
    seen = {"load bar": False, "status loading...": False}
    fractions: set[float] = set()  # distinct fractions the bar showed
    samples = 0
    async with app.run_test(size=SIZE):
        t_entered = time.perf_counter()
        app.ticking = True
        app.set_interval(0.005, app.tick)
        paints_at_start = app.paints
        bar = app.query_one(LoadBar)
        while app.t_loaded is None:
            samples += 1
            if not bar.has_class("-hidden"):
                seen["load bar"] = True
                if bar.bar.percentage is not None:
                    fractions.add(round(bar.bar.percentage, 3))
            if "loading..." in str(app.query_one("#status").render()):
                seen["status loading..."] = True
            await asyncio.sleep(0.01)
            if time.perf_counter() - t_start > 300:
                raise RuntimeError("load did not finish in 300 s")
        paints_during_load = app.paints - paints_at_start
        load_gaps = gaps_ms(app.ticks)
        app.ticking = False
        shown = await wait_shown(app, None, timeout=120)
        info = (app.analysis.n_datasets, app.analysis.n_learners, app.analysis.problem)
    return {
        "start_to_loaded": app.t_loaded - t_start,
        "entered": t_entered - t_start,
        "loaded_to_paint": shown - app.t_loaded,
        "seen": seen,
        "fractions": sorted(fractions),
        "samples": samples,
        "paints_during_load": paints_during_load,
        "load_gap_max": max(load_gaps) if load_gaps else float("nan"),
        "load_gap_p99": pct(load_gaps, 99),
        "shape": info,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--toggles", type=int, default=12, help="timed presses of each kind (>= 10)")
    parser.add_argument("--loads", type=int, default=3, help="app starts on the 5M log")
    parser.add_argument("--appends", type=int, default=5, help="live appends timed (1M log; 5M too)")
    parser.add_argument("--skip-5m", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore", stats.BergmannLimitWarning)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}")

    # -- 1 and 2: toggles ----------------------------------------------------------------------
    if not _grid_valid():
        t = time.perf_counter()
        generate_grid()
        print(f"generated {GRID} in {time.perf_counter() - t:.1f} s")
    print(f"log: {GRID}, {GRID_LINES:,} lines, {GRID.stat().st_size / 1e6:.1f} MB; app size {SIZE}")
    times, sequence, gaps, info = asyncio.run(toggles(GRID, args.toggles))
    build, per = baseline(GRID, sequence)
    print(
        f"initial table {info['shape'][0]} data sets x {info['shape'][1]} learners; "
        f"after the toggles {info['final']}; baseline Model(log) built in {build:.2f} s"
    )
    print(
        f"\n1. toggle latency, key press -> new analysis painted "
        f"(median over {args.toggles} each; bar {1000 * TOGGLE_BAR:.0f} ms)"
    )
    print(f"{'toggle':<34}{'app ms':>9}{'max ms':>9}{'analyze ms':>12}{'overhead':>10}{'ratio':>7}  bar")
    i = 1
    worst = []
    for kind, ts in times.items():
        base = [per[j] for j in range(i, i + len(ts))]
        i += len(ts)
        app_ms, base_ms = 1000 * statistics.median(ts), 1000 * statistics.median(base)
        ok = app_ms <= 1000 * TOGGLE_BAR
        worst.append((kind, app_ms, base_ms, ok))
        print(
            f"{kind:<34}{app_ms:9.1f}{1000 * max(ts):9.1f}{base_ms:12.1f}{app_ms - base_ms:10.1f}"
            f"{app_ms / base_ms:7.2f}  {'meets' if ok else f'MISSES by {app_ms - 1000 * TOGGLE_BAR:.0f} ms'}"
        )
    print("   (analyze ms = Model.analyze alone on a fresh Model, same selections in the same order)")

    print(f"\n2. event-loop gaps during the toggles (5 ms interval tick; bar {1000 * STALL_BAR:.0f} ms)")
    gmax, g99 = max(gaps), pct(gaps, 99)
    print(
        f"   {len(gaps)} gaps: median {statistics.median(gaps):.1f} ms, p99 {g99:.1f} ms, max {gmax:.1f} ms; "
        f"gaps > 50 ms: {sum(g > 1000 * STALL_BAR for g in gaps)}  "
        f"{'meets' if gmax <= 1000 * STALL_BAR else f'MISSES (max {gmax - 1000 * STALL_BAR:.0f} ms over)'}"
    )

    # -- 4 (printed before 3): live updates -----------------------------------------------------
    print(f"\n4. live: 1,000 results appended to a copy of {GRID.name} while the app runs (polls every 0.25 s)")
    res = asyncio.run(live_updates(GRID, args.appends))
    total, after = [1000 * t for t, _ in res], [1000 * a for _, a in res]
    print(
        f"   append -> shown: median {statistics.median(total):.0f} ms, max {max(total):.0f} ms "
        f"(bar 1000 ms: {'meets' if max(total) <= 1000 else 'MISSES'}); of it after the poll: "
        f"median {statistics.median(after):.0f} ms ({len(res)} appends)"
    )

    # -- 3: first paint on 5M -------------------------------------------------------------------
    if args.skip_5m:
        return
    if not bench_load._valid(bench_load.PATH):
        t = time.perf_counter()
        bench_load.generate()
        print(f"generated {bench_load.PATH} in {time.perf_counter() - t:.1f} s")
    print(
        f"\n3. first paint, log {bench_load.PATH} ({bench_load.LINES:,} lines, "
        f"{bench_load.PATH.stat().st_size / 1e6:.0f} MB); {args.loads} app starts (bar {PAINT_BAR} s after loading)"
    )
    runs = []
    for r in range(args.loads):
        res = asyncio.run(first_paint(bench_load.PATH))
        runs.append(res)
        print(
            f"   run {r + 1}: start -> loading finished {res['start_to_loaded']:.2f} s "
            f"(run_test entered at {res['entered']:.2f} s); loading finished -> first analysis painted "
            f"{res['loaded_to_paint']:.2f} s; table {res['shape']}"
        )
        print(
            f"          seen: {res['seen']} ({res['samples']} samples); the bar showed "
            f"{len(res['fractions'])} fractions from {min(res['fractions'], default=0):.0%} to "
            f"{max(res['fractions'], default=0):.0%}; "
            f"{res['paints_during_load']} screen updates during the load; "
            f"event-loop gap during the load max {res['load_gap_max']:.0f} ms, p99 {res['load_gap_p99']:.0f} ms"
        )
    load = statistics.median(r["start_to_loaded"] for r in runs)
    paint = statistics.median(r["loaded_to_paint"] for r in runs)
    indicator = all(r["seen"]["load bar"] and len(r["fractions"]) >= 3 for r in runs)
    print(
        f"   median: start -> loading finished {load:.2f} s; loading finished -> first paint {paint:.2f} s  "
        f"{'meets' if paint <= PAINT_BAR else f'MISSES by {paint - PAINT_BAR:.2f} s'}"
    )
    res = asyncio.run(live_updates(bench_load.PATH, args.appends))
    total, after = [1000 * t for t, _ in res], [1000 * a for _, a in res]
    print(
        f"   live on the 5M log: append -> shown median {statistics.median(total):.0f} ms, max {max(total):.0f} ms "
        f"(bar 1000 ms: {'meets' if max(total) <= 1000 else 'MISSES'}); after the poll: median "
        f"{statistics.median(after):.0f} ms ({len(res)} appends)"
    )
    animated = all(r["paints_during_load"] >= 2 * r["start_to_loaded"] for r in runs)
    print(
        f"   progress bar with a growing fraction during the load: {'yes' if indicator else 'NO'}; "
        f"animated (>= 2 screen updates per second of load): {'yes' if animated else 'no'}"
    )


if __name__ == "__main__":
    main()
