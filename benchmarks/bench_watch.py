"""Benchmark: following a 5,000,000-line log: a poll of 1,000 appended lines, and the aggregate refresh.

What it measures
    A fresh copy of the log of ``bench_load.py`` (``/tmp/rankboard_bench/long_5M.dat``,
    written by ``python benchmarks/bench_load.py`` if missing) at ``/tmp/watch_5M.dat``.
    ``stats.LogWatcher`` polls it once (5,000,000 rows held) and ``stats.Aggregator`` is
    built from those rows. Then, round after round, 1,000 lines are appended (a new data
    set: 10 folds x 20 learners x 5 criteria) and timed:

    - ``poll``: ``watcher.poll()`` (the new rows' keys are checked against the index of
      the held rows' keys);
    - ``poll + aggregate``: the poll, then ``aggregator.add(update.rows)`` and
      ``aggregator.table``: the aggregates refreshed, end to end;
    - ``baseline``: the same rounds with the previous implementation's duplicate check
      (``LogWatcher._resolve_all``: every held batch concatenated and
      ``stats.logs._duplicates.resolve`` over all the rows held), interleaved with the others in the
      same run, on the same watcher (its index is rebuilt after each, untimed);
    - ``duplicate``: rounds whose 1,000 lines repeat one earlier result (the index finds
      it, and the poll falls back to resolving over all the rows held, as before), each
      followed by an indexed and a baseline round: once the held keys no longer only
      increase, the previous full check takes its slower (hashing) path.

    Time: wall clock, median over the rounds (``time.perf_counter``).

Bar
    Appending 1,000 lines: aggregates refreshed (poll + aggregate) in <= 50 ms.

Run from the repository root::

    python benchmarks/bench_watch.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from stats import Aggregator, LogWatcher

SOURCE = Path("/tmp/rankboard_bench/long_5M.dat")
LOG = Path("/tmp/watch_5M.dat")
CRITERIA = ("accuracy", "pd", "pf", "precision", "runtime")
BAR_MS = 50.0
LABELS = {
    "indexed": "new: indexed check",
    "baseline": "baseline: previous (resolve over all rows)",
    "duplicate": "new, a duplicate: fallback (resolve all)",
    "indexed after": "new, after duplicates (keys out of order)",
    "baseline after": "baseline, after duplicates",
}


def chunk(dataset: str, repeat: int = 1) -> str:
    """1,000 lines: one data set, one repeat, 10 folds x 20 learners x 5 criteria (seed 000's order)."""
    return "".join(
        f"{dataset},{repeat},{fold},learner_{learner:02d},{criterion},0.5\n"
        for fold in range(1, 11)
        for learner in range(20)
        for criterion in CRITERIA
    )


def append(text: str) -> None:
    with LOG.open("a") as f:
        f.write(text)


def timed(watcher: LogWatcher, aggregator: Aggregator, text: str) -> tuple[float, float, int, int]:
    """Append, then time the poll and the aggregate refresh: (poll ms, total ms, rows, superseded)."""
    append(text)
    start = time.perf_counter()
    update = watcher.poll()
    polled = time.perf_counter()
    aggregator.add(update.rows)
    _ = aggregator.table
    done = time.perf_counter()
    return 1e3 * (polled - start), 1e3 * (done - start), len(update.rows), len(update.superseded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    if not SOURCE.exists():
        subprocess.run(
            [sys.executable, str(Path(__file__).with_name("bench_load.py")), "--runs", "3", "--only", "rankboard"],
            check=True,
        )
    shutil.copyfile(SOURCE, LOG)

    watcher = LogWatcher(LOG)
    start = time.perf_counter()
    first = watcher.poll()
    print(
        f"first poll: {len(first.rows):,} rows in {time.perf_counter() - start:.2f} s "
        f"(index: {len(watcher._runs or [])} run(s))"
    )
    start = time.perf_counter()
    aggregator = Aggregator(first.rows)
    _ = aggregator.table
    print(f"Aggregator built in {time.perf_counter() - start:.2f} s")
    del first

    times: dict[str, list[tuple[float, float]]] = {k: [] for k in LABELS}

    def new_round(tag: str, r: int, indexed: bool) -> None:
        """1,000 lines of a new data set: no duplicates."""
        if not indexed:  # the previous implementation: resolve over all the rows held
            watcher._resolve = watcher._resolve_all  # type: ignore[method-assign]
        try:
            poll_ms, total_ms, n, superseded = timed(watcher, aggregator, chunk(f"dataset_{tag}{r:03d}"))
        finally:
            if not indexed:
                del watcher._resolve
                watcher._reindex()  # untimed: the index did not see that poll
        assert n == 1000 and superseded == 0, (n, superseded)
        times[f"{'indexed' if indexed else 'baseline'}{' after' if tag[0] == 'x' else ''}"].append((poll_ms, total_ms))

    for r in range(args.rounds):  # the held keys only increase (as seed 000's loop writes them)
        new_round("new", r, True)
        new_round("old", r, False)
    for r in range(args.rounds):
        # 999 new lines, then fold 1 of learner_00 / accuracy of dataset_new{r} again (the last line).
        text = chunk(f"dataset_dup{r:03d}").splitlines(keepends=True)[1:]
        last = f"dataset_new{r:03d},1,1,learner_00,accuracy,0.7\n"
        poll_ms, total_ms, n, superseded = timed(watcher, aggregator, "".join(text) + last)
        assert n == 1000 and superseded == 1, (n, superseded)
        times["duplicate"].append((poll_ms, total_ms))
        new_round("xnew", r, True)  # the held keys no longer increase: the previous check costs more
        new_round("xold", r, False)

    held = len(watcher.frame())
    print(f"rows held at the end: {held:,}; index runs: {len(watcher._runs or [])}; batches: {len(watcher._batches)}")
    print(f"\n{args.rounds} rounds of 1,000 appended lines each, median ms:")
    print(f"{'':44s}{'poll':>10s}{'poll + aggregate':>20s}")
    for name, values in times.items():
        polls, totals = zip(*values)
        print(f"{LABELS[name]:44s}{statistics.median(polls):10.1f}{statistics.median(totals):20.1f}")
    total = max(statistics.median(t for _, t in times[k]) for k in ("indexed", "indexed after"))
    verdict = "PASS" if total <= BAR_MS else "FAIL"
    print(f"\nbar: poll + aggregate <= {BAR_MS:.0f} ms: {total:.1f} ms -> {verdict}")


if __name__ == "__main__":
    main()
