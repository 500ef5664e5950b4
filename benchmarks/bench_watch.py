"""Benchmark: following a 5,000,000-line log: what the live rows hold, a poll of 1,000 appended lines, the refresh.

What it measures
    A fresh copy of the log of ``bench_load.py`` (``/tmp/rankboard_bench/long_5M.dat``,
    written by ``bench_load.generate`` if missing) at ``/tmp/watch_5M.dat``, followed as the
    app's loader follows it, in a fresh process per implementation: this tree, and with
    ``--before REV`` also the tree of git revision ``REV`` (its ``stats/`` exported with
    ``git archive`` to a temporary folder; no worktree is touched), the runs interleaved.

    - ``held``: the memory the live session keeps for its rows once ``stats.LogWatcher``'s first
      poll is in ``stats.Aggregator`` and every temporary is freed: tracemalloc's current size
      (numpy arrays, pandas indexes, label dicts; started before the watcher), over the
      5,000,000 rows, and per row; ``peak``: tracemalloc's peak during that first poll and
      build. Before the live rows had one owner, the watcher held every row batch (for
      ``LogWatcher.frame()``) beside the aggregator's copy; now it holds a key index (key and
      location, 16 bytes a row) and the aggregator the rows with their locations.
    - ``RSS``: the process's resident set above the interpreter after its imports, at the end.
    - Rounds of 1,000 appended lines (a new data set: 10 folds x 20 learners x 5 criteria),
      timed without tracemalloc: ``poll`` (``watcher.poll()``) and ``poll + refresh`` (then the
      aggregator follows: ``apply(update)``, or ``add(rows)`` in a tree without ``apply``, and
      ``.table``), median over ``--rounds``; then rounds whose 1,000 lines repeat one earlier
      result (a superseded row).

    Time: wall clock (``time.perf_counter``). MB = 10^6 bytes.

Bars
    Appending 1,000 lines: aggregates refreshed (poll + refresh) in <= 50 ms; held memory per
    row no more than before.

Run from the repository root::

    python benchmarks/bench_watch.py [--rounds 10] [--before REV] [--runs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import _trees  # noqa: E402  (benchmarks/: the script's folder)

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/tmp/rankboard_bench/long_5M.dat")
LOG = Path("/tmp/watch_5M.dat")
ROWS = 5_000_000
BAR_MS = 50.0

CHILD = r"""
import gc, json, statistics, sys, time, tracemalloc

def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))

log, rounds = sys.argv[1], int(sys.argv[2])
from stats import Aggregator, LogWatcher
follows = hasattr(Aggregator, "apply")  # the watcher's updates applied; else the rows added
CRITERIA = ("accuracy", "pd", "pf", "precision", "runtime")

def chunk(dataset):
    return "".join(f"{dataset},1,{fold},learner_{learner:02d},{criterion},0.5\n"
                   for fold in range(1, 11) for learner in range(20) for criterion in CRITERIA)

def refresh(agg, update):
    if follows:
        agg.apply(update)
    else:
        agg.add(update.rows.drop(columns=["file", "line"]))
    agg.table

base = rss()
tracemalloc.start()
start = time.perf_counter()
watcher = LogWatcher(log)
update = watcher.poll()
rows = len(update.rows)
polled = time.perf_counter()
agg = Aggregator(update.rows) if follows else Aggregator(update.rows.drop(columns=["file", "line"]))
agg.table
built = time.perf_counter()
del update
gc.collect()
held, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()

def timed(text):
    with open(log, "a") as f:
        f.write(text)
    t0 = time.perf_counter()
    update = watcher.poll()
    t1 = time.perf_counter()
    refresh(agg, update)
    t2 = time.perf_counter()
    return 1e3 * (t1 - t0), 1e3 * (t2 - t0), len(update.rows), len(update.superseded)

new, dup = [], []
for r in range(rounds):
    p, t, n, s = timed(chunk(f"dataset_new{r:03d}"))
    assert (n, s) == (1000, 0), (n, s)
    new.append((p, t))
for r in range(rounds):
    text = "".join(chunk(f"dataset_dup{r:03d}").splitlines(keepends=True)[1:])
    p, t, n, s = timed(text + f"dataset_new{r:03d},1,1,learner_00,accuracy,0.7\n")
    assert (n, s) == (1000, 1), (n, s)
    dup.append((p, t))
count = int(agg.table["count"].sum())
assert count == rows + 2 * rounds * 1000 - rounds, count
med = lambda xs, i: statistics.median(x[i] for x in xs)
print(json.dumps({"rows": rows, "first_poll": polled - start, "build": built - polled, "held": held, "peak": peak,
                  "rss": rss() - base, "poll": med(new, 0), "total": med(new, 1), "dup_poll": med(dup, 0),
                  "dup_total": med(dup, 1), "follows": follows}))
"""


def run(tree: Path, rounds: int) -> dict:
    shutil.copyfile(SOURCE, LOG)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(LOG), str(rounds)], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"the run in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def export(rev: str) -> Path:
    """``stats/`` of git revision ``rev`` in a temporary folder (``git archive``: no worktree touched)."""
    return _trees.export(rev, "stats")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1, help="runs per tree, interleaved")
    parser.add_argument("--before", metavar="REV", help="also measure the tree of this git revision")
    args = parser.parse_args()
    if not SOURCE.exists():
        sys.path.insert(0, str(Path(__file__).parent))
        from bench_load import generate

        SOURCE.parent.mkdir(parents=True, exist_ok=True)
        generate(SOURCE)
    trees = {"this tree": ROOT}
    if args.before:
        trees = {f"before ({args.before})": export(args.before), **trees}
    results: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            results[name].append(run(tree, args.rounds))
    if args.before:
        shutil.rmtree(trees[f"before ({args.before})"])
    print(f"{ROWS:,}-line log followed; {args.rounds} rounds of 1,000 appended lines; median of {args.runs} run(s)")
    head = f"{'':26s}{'held MB':>9s}{'B/row':>7s}{'peak MB':>9s}{'RSS MB':>8s}{'poll ms':>9s}{'+refresh':>10s}"
    print(head + f"{'dup poll':>10s}{'+refresh':>10s}")
    for name, runs in results.items():
        m = {k: sorted(r[k] for r in runs)[len(runs) // 2] for k in runs[0] if k != "follows"}
        print(
            f"{name:26s}{m['held'] / 1e6:9.0f}{m['held'] / m['rows']:7.1f}{m['peak'] / 1e6:9.0f}{m['rss'] / 1e6:8.0f}"
            f"{m['poll']:9.1f}{m['total']:10.1f}{m['dup_poll']:10.1f}{m['dup_total']:10.1f}"
        )
        print(f"{'':26s}first poll {m['first_poll']:.2f} s (traced), aggregator built in {m['build']:.2f} s")
    total = max(sorted(r["total"] for r in results["this tree"])[args.runs // 2], 0)
    verdict = "PASS" if total <= BAR_MS else "FAIL"
    print(f"\nbar: poll + refresh <= {BAR_MS:.0f} ms: {total:.1f} ms -> {verdict}")


if __name__ == "__main__":
    main()
