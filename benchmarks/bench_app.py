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

Before and after (``--before REV``)
    Parts 1 and 2 also on the tree of git revision REV (its ``stats/`` and ``tui/`` extracted with
    ``_trees.export``, no worktree touched), in the same run: ``--rounds`` rounds (default 4), each
    a fresh interpreter per tree (this script with a hidden ``--tree-child TREE``, that tree first
    on ``sys.path``, printing its figures as JSON), the order of the two trees alternating from
    round to round (REV first in odd rounds, this tree first in even ones), so that a change of the
    machine's load during the run falls on both. The presses of all rounds are pooled per tree;
    printed: per kind of toggle, the median in this tree and in REV's and their ratio (this / REV:
    above 1 is slower now), against the bar; the same for ``Model.analyze`` alone; the event-loop
    gaps of each tree. The machine may be shared: read the ratios, not the absolute figures.
    ``--only-toggles`` leaves out parts 3 and 4 (with or without ``--before``).

Run from the repository root::

    python benchmarks/bench_app.py [--toggles 12] [--loads 3] [--skip-5m] [--only-toggles]
                                   [--before REV [--rounds 4]]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's stats/tui, not another install's
# --tree-child TREE: this file run by --before in another tree's stats/ and tui/ (that tree first)
if "--tree-child" in sys.argv:
    sys.path.insert(0, sys.argv[sys.argv.index("--tree-child") + 1])

import _trees  # noqa: E402
import bench_load  # noqa: E402

import stats  # noqa: E402
import tui  # noqa: E402
from stats import LogWatcher  # noqa: E402
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


async def settle(pilot, guard: float = 600.0) -> None:  # noqa: ANN001
    """Wait until the workers (loading, analysis) are done and their messages handled.

    The same wait as ``tests/test_app.py``'s ``settle``, with time for large logs; a copy, so that
    a ``--before`` tree's app needs nothing of the tests (which follow this tree's app).
    """
    app = pilot.app
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        busy = app.loading is not None or any(not w.is_finished for w in app.workers)
        current = app.selection is None or (app.analysis is not None and app.analysis.selection == app.selection)
        if not busy and current:
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise RuntimeError("the app did not settle")


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


def measure_toggles(path: Path, n: int) -> dict[str, Any]:
    """Parts 1 and 2 in the tree on ``sys.path``, as plain data (seconds; JSON for ``--tree-child``).

    ``times`` and ``analyze``: per kind of toggle, the app's latency of each press and
    ``Model.analyze`` alone for the same selection (the baseline's replay of the app's sequence);
    ``gaps``: the event-loop gaps (ms) during the toggles; ``tui``: the folder ``tui`` came from.
    """
    times, sequence, gaps, info = asyncio.run(toggles(path, n))
    build, per = baseline(path, sequence)
    analyze, i = {}, 1  # sequence[0] is the first selection, before any toggle
    for kind, ts in times.items():
        analyze[kind] = [per[j] for j in range(i, i + len(ts))]
        i += len(ts)
    n_datasets, n_learners, problem = info["final"]
    return {
        "times": times,
        "analyze": analyze,
        "gaps": gaps,
        "build": build,
        "shape": [int(x) for x in info["shape"]],
        "final": [int(n_datasets), int(n_learners), None if problem is None else str(problem)],
        "tui": str(Path(tui.__file__).resolve().parent),
    }


def print_toggles(res: dict[str, Any], n: int) -> None:
    """Parts 1 and 2 of one tree (``measure_toggles``'s figures), with the bars."""
    print(
        f"initial table {res['shape'][0]} data sets x {res['shape'][1]} learners; "
        f"after the toggles {tuple(res['final'])}; baseline Model(log) built in {res['build']:.2f} s"
    )
    print(
        f"\n1. toggle latency, key press -> new analysis painted (median over {n} each; bar {1000 * TOGGLE_BAR:.0f} ms)"
    )
    print(f"{'toggle':<34}{'app ms':>9}{'max ms':>9}{'analyze ms':>12}{'overhead':>10}{'ratio':>7}  bar")
    for kind, ts in res["times"].items():
        app_ms, base_ms = 1000 * statistics.median(ts), 1000 * statistics.median(res["analyze"][kind])
        print(
            f"{kind:<34}{app_ms:9.1f}{1000 * max(ts):9.1f}{base_ms:12.1f}{app_ms - base_ms:10.1f}"
            f"{app_ms / base_ms:7.2f}  {verdict(app_ms, TOGGLE_BAR)}"
        )
    print("   (analyze ms = Model.analyze alone on a fresh Model, same selections in the same order)")

    gaps = res["gaps"]
    print(f"\n2. event-loop gaps during the toggles (5 ms interval tick; bar {1000 * STALL_BAR:.0f} ms)")
    gmax, g99 = max(gaps), pct(gaps, 99)
    print(
        f"   {len(gaps)} gaps: median {statistics.median(gaps):.1f} ms, p99 {g99:.1f} ms, max {gmax:.1f} ms; "
        f"gaps > 50 ms: {sum(g > 1000 * STALL_BAR for g in gaps)}  "
        f"{'meets' if gmax <= 1000 * STALL_BAR else f'MISSES (max {gmax - 1000 * STALL_BAR:.0f} ms over)'}"
    )


def verdict(ms: float, bar: float) -> str:
    return "meets" if ms <= 1000 * bar else f"MISSES by {ms - 1000 * bar:.0f} ms"


def run_tree(tree: Path, n: int) -> dict[str, Any]:
    """``measure_toggles`` in a fresh interpreter with ``tree`` first on ``sys.path``; checks that
    its app was that tree's."""
    res = _trees.run_child(tree, [str(Path(__file__).resolve()), "--tree-child", str(tree), "--toggles", str(n)])
    if not Path(res["tui"]).is_relative_to(tree.resolve()):
        raise RuntimeError(f"the run for {tree} imported tui from {res['tui']}")
    return res


def pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The presses and gaps of one tree's processes, pooled; each process's median and max kept."""
    kinds = runs[0]["times"]
    return {
        "times": {k: [t for r in runs for t in r["times"][k]] for k in kinds},
        "analyze": {k: [t for r in runs for t in r["analyze"][k]] for k in kinds},
        "gaps": [g for r in runs for g in r["gaps"]],
        "round_median": [1000 * statistics.median([t for ts in r["times"].values() for t in ts]) for r in runs],
        "round_max_gap": [max(r["gaps"]) for r in runs],
        "final": {tuple(r["final"]) for r in runs},
        "tui": runs[0]["tui"],
    }


def compare(rev: str, n: int, rounds: int) -> None:
    """Parts 1 and 2 in this tree and in ``rev``'s, a fresh process each, the order alternating."""
    this = "this tree"
    trees = {rev: _trees.export(rev, "stats", "tui"), this: HERE.parent}
    got: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    load_start = os.getloadavg()[0]
    try:
        for r in range(rounds):
            order = [rev, this] if r % 2 == 0 else [this, rev]
            for name in order:
                got[name].append(run_tree(trees[name], n))
            print(f"round {r + 1} of {rounds} done ({order[0]} first)", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(trees[rev])
    new, old = pooled(got[this]), pooled(got[rev])
    w = max(len(rev), 9) + 2
    print(
        f"\n{this} ({new['tui']}) and {rev} (git archive: {old['tui']}):\n"
        f"{rounds} round(s), a fresh process per tree each, {rev} first in rounds 1, 3, ...; {n} presses of each "
        f"kind per process; load average {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
    )
    if new["final"] != old["final"]:
        print(f"   NOTE: the trees ended on different tables: {sorted(new['final'])} vs {sorted(old['final'])}")
    print(
        f"\n1. toggle latency, key press -> new analysis painted: median ms over {rounds} x {n} presses per tree; "
        f"ratio = {this} / {rev} (above 1: slower now)"
    )
    print(f"{'toggle':<34}{this:>{w}}{rev:>{w}}{'ratio':>7}  bar {1000 * TOGGLE_BAR:.0f} ms: {this}; {rev}")
    for kind in new["times"]:
        a, b = 1000 * statistics.median(new["times"][kind]), 1000 * statistics.median(old["times"][kind])
        print(f"{kind:<34}{a:{w}.1f}{b:{w}.1f}{a / b:7.2f}  {verdict(a, TOGGLE_BAR)}; {verdict(b, TOGGLE_BAR)}")
    print(f"{'  Model.analyze alone (baseline)':<34}{this:>{w}}{rev:>{w}}{'ratio':>7}")
    for kind in new["analyze"]:
        a, b = 1000 * statistics.median(new["analyze"][kind]), 1000 * statistics.median(old["analyze"][kind])
        print(f"{kind:<34}{a:{w}.2f}{b:{w}.2f}{a / b:7.2f}")
    print(
        "   (Model.analyze on a fresh Model of the tree, the app's selections in the same order)\n"
        f"   per process, median of all its presses (ms): {this} "
        + ", ".join(f"{x:.1f}" for x in new["round_median"])
        + f"; {rev} "
        + ", ".join(f"{x:.1f}" for x in old["round_median"])
    )

    print(f"\n2. event-loop gaps during the toggles (5 ms interval tick; bar {1000 * STALL_BAR:.0f} ms)")
    print(f"{'':<34}{this:>{w}}{rev:>{w}}{'ratio':>7}")
    rows = (
        ("gaps (count)", len(new["gaps"]), len(old["gaps"]), False),
        ("median gap ms", statistics.median(new["gaps"]), statistics.median(old["gaps"]), True),
        ("p99 gap ms", pct(new["gaps"], 99), pct(old["gaps"], 99), True),
        (
            "max gap ms, median of processes",
            statistics.median(new["round_max_gap"]),
            statistics.median(old["round_max_gap"]),
            True,
        ),
        ("max gap ms, all processes", max(new["gaps"]), max(old["gaps"]), True),
        (
            "gaps > 50 ms",
            sum(g > 1000 * STALL_BAR for g in new["gaps"]),
            sum(g > 1000 * STALL_BAR for g in old["gaps"]),
            False,
        ),
    )
    for label, a, b, ratio in rows:
        cells = f"{a:{w}.1f}{b:{w}.1f}{a / b:7.2f}" if ratio else f"{a:{w}d}{b:{w}d}"
        print(f"{label:<34}{cells}")
    gmax, omax = max(new["gaps"]), max(old["gaps"])
    print(
        f"   bar (no gap > {1000 * STALL_BAR:.0f} ms): {this} "
        f"{'meets' if gmax <= 1000 * STALL_BAR else f'MISSES (max {gmax - 1000 * STALL_BAR:.0f} ms over)'}; {rev} "
        f"{'meets' if omax <= 1000 * STALL_BAR else f'MISSES (max {omax - 1000 * STALL_BAR:.0f} ms over)'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--toggles", type=int, default=12, help="timed presses of each kind (>= 10)")
    parser.add_argument("--loads", type=int, default=3, help="app starts on the 5M log")
    parser.add_argument("--appends", type=int, default=5, help="live appends timed (1M log; 5M too)")
    parser.add_argument("--skip-5m", action="store_true")
    parser.add_argument("--only-toggles", action="store_true", help="parts 1 and 2 only (no live updates, no 5M)")
    parser.add_argument("--before", metavar="REV", help="parts 1 and 2 also in git revision REV's tree, same run")
    parser.add_argument("--rounds", type=int, default=4, help="processes per tree with --before, alternating")
    parser.add_argument("--tree-child", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    warnings.simplefilter("ignore", stats.BergmannLimitWarning)
    if args.tree_child:  # parts 1 and 2 in that tree, as JSON on the last line (_trees.run_child)
        print(json.dumps(measure_toggles(GRID, args.toggles)))
        return
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}")

    # -- 1 and 2: toggles ----------------------------------------------------------------------
    if not _grid_valid():
        t = time.perf_counter()
        generate_grid()
        print(f"generated {GRID} in {time.perf_counter() - t:.1f} s")
    print(f"log: {GRID}, {GRID_LINES:,} lines, {GRID.stat().st_size / 1e6:.1f} MB; app size {SIZE}")
    if args.before:
        compare(args.before, args.toggles, max(args.rounds, 1))
    else:
        print_toggles(measure_toggles(GRID, args.toggles), args.toggles)
    if args.only_toggles:
        return

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
