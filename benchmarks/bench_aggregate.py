"""Benchmark: per-cell summaries of a 5,000,000-line log, at once and refreshed after appends.

What it measures
    The log is the long format of Menzies' notes, 500 data sets x 20 learners x 10 x 10
    cross-validation x 5 criteria = 5,000,000 results in 50,000 cells of 100,
    in file order (data set, repeat, fold, learner, criterion), values with 4
    decimals (ties), built in memory with the loader's schema (categorical
    labels, int64 repeat and fold, float64 value).

    1. ``stats.cells._aggregate.aggregate(log)``: median of ``--reps`` runs after a
       warm-up, the extra memory it allocates (tracemalloc peak), and the same
       on a ragged log (10% of the rows dropped at random, and 2% of the cells
       cut to 40 results: unequal sizes, two size classes).
    2. Loader + aggregation from a file (written to a temporary folder, ~170
       MB): ``stats.logs._read.read_logs``, or a stand-in loader (pyarrow.csv with
       dictionary-encoded labels) when it cannot be imported; times and the
       RSS above the imports (after loading, peak while loading, peak with
       the aggregation) in a fresh process, as a multiple of the file size.
    3. Refresh: ``Aggregator(log)`` once, then ``add(rows)`` + ``.table`` for
       1,000 appended lines, median over ``--adds`` successive appends, in
       three shapes: log order (the next data set's lines, new labels), 1,000
       new results scattered over 1,000 cells, and 1,000 rewritten results
       (last wins). At the end the incremental table is checked against a full
       re-aggregation of everything appended.

Bars
    aggregation of 5,000,000 rows <= 0.2 s; loader + aggregation <= DuckDB's
    read + median group by of the same file; peak memory of the load <= 1.5 x
    the file; refresh after 1,000 appended lines <= 50 ms.

Baselines (same run)
    DuckDB on the in-memory frame (same statistics: count, min,
    quantile_cont 0.25/0.5/0.75, max, avg, stddev_samp; and median only);
    pandas groupby (agg count/min/median/max/mean/std + quantile 0.25, 0.75);
    DuckDB ``read_csv`` + median group by on the file; a full re-aggregation of
    the grown log (``aggregate``, concatenation not timed) for the refresh.
    DuckDB is skipped when it is not installed.

Run from the repository root::

    python benchmarks/bench_aggregate.py [--reps 7] [--adds 20] [--no-file]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from stats.cells import KEYS, Aggregator, aggregate

FIELDS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
CRITERIA = ["accuracy", "auc", "f1", "pd", "pf"]
SEED = 20240601

LOAD_CHILD = r"""
import sys, time
import numpy as np, pandas as pd, pyarrow as pa, pyarrow.csv
import stats
from stats.cells import aggregate
sys.path.insert(0, sys.argv[2])
from bench_aggregate import load
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
before = rss("VmRSS:")
t0 = time.perf_counter()
log, how = load(sys.argv[1])
t1 = time.perf_counter()
loaded, load_peak = rss("VmRSS:"), rss("VmHWM:")
agg = aggregate(log)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, rss("VmHWM:") - before, load_peak - before, loaded - before, len(agg), how)
"""


def make_log(n_datasets: int = 500, first: int = 0, repeats: range = range(1, 11), seed: int = SEED) -> pd.DataFrame:
    """A 10 x 10 CV log in file order (data set, repeat, fold, learner, criterion)."""
    rng = np.random.default_rng(seed)
    shape = (n_datasets, len(repeats), 10, 20, len(CRITERIA))
    d, r, f, lrn, c = np.indices(shape).reshape(5, -1)
    return pd.DataFrame(
        {
            "dataset": pd.Categorical.from_codes(d, [f"data{i:03d}" for i in range(first, first + n_datasets)]),
            "repeat": np.asarray(repeats)[r].astype(np.int64),
            "fold": (f + 1).astype(np.int64),
            "learner": pd.Categorical.from_codes(lrn, [f"learner{i:02d}" for i in range(20)]),
            "criterion": pd.Categorical.from_codes(c, CRITERIA),
            "value": np.round(rng.beta(8, 2, d.size), 4),
        }
    )


def load(path: str) -> tuple[pd.DataFrame, str]:
    """The project's loader ``read_logs`` when there is one, else a stand-in pyarrow loader."""
    try:
        from stats.logs import read_logs

        return read_logs(path), "stats.logs._read.read_logs"
    except Exception as exc:  # the loader is work in progress elsewhere; say so and fall back
        print(f"  (stats.logs._read.read_logs unavailable: {exc!r}; using the stand-in loader)", file=sys.stderr)
    import pyarrow as pa
    import pyarrow.csv as pcsv

    label = pa.dictionary(pa.int32(), pa.string())
    types = {
        "dataset": label,
        "learner": label,
        "criterion": label,
        "repeat": pa.int64(),
        "fold": pa.int64(),
        "value": pa.float64(),
    }
    table = pcsv.read_csv(
        path,
        read_options=pcsv.ReadOptions(column_names=FIELDS),
        convert_options=pcsv.ConvertOptions(column_types=types),
    )
    log = table.to_pandas(split_blocks=True, self_destruct=True)
    del table
    pa.default_memory_pool().release_unused()  # else the pool's retained pages slow the next pass 2x
    return log, "stand-in loader (pyarrow.csv, dictionary labels, pool released)"


def timed(fn: Callable[[], Any], reps: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), times


def peak_mb(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def ragged(log: pd.DataFrame) -> pd.DataFrame:
    rng = np.random.default_rng(SEED + 1)
    keep = rng.random(len(log)) >= 0.1
    c, d, lrn = (log[k].cat.codes.to_numpy().astype(np.int64) for k in ("criterion", "dataset", "learner"))
    cell = (c * 500 + d) * 20 + lrn
    short = rng.random(50_000) < 0.02
    keep &= ~(short[cell] & (log["repeat"].to_numpy() > 4))
    return log[keep].reset_index(drop=True)


def baselines(log: pd.DataFrame, reps: int) -> None:
    try:
        import duckdb
    except ImportError:
        print("  DuckDB not installed: DuckDB baselines skipped")
    else:
        con = duckdb.connect()
        con.register("log", log)
        full = (
            "SELECT criterion, dataset, learner, count(*), min(value), quantile_cont(value, [0.25, 0.5, 0.75]), "
            "max(value), avg(value), stddev_samp(value) FROM log GROUP BY ALL"
        )
        con.execute(full).fetchnumpy()
        t, _ = timed(lambda: con.execute(full).fetchnumpy(), reps)
        print(f"  baseline DuckDB {duckdb.__version__}, in memory, same statistics   {t:8.3f} s")
        median = "SELECT criterion, dataset, learner, median(value) FROM log GROUP BY ALL"
        t, _ = timed(lambda: con.execute(median).fetchnumpy(), reps)
        print(f"  baseline DuckDB, in memory, median only                    {t:8.3f} s")
    g = log.groupby(list(KEYS), observed=True, sort=False)["value"]
    t, _ = timed(lambda: (g.agg(["count", "min", "median", "max", "mean", "std"]), g.quantile([0.25, 0.75])), 2)
    print(f"  baseline pandas {pd.__version__} groupby agg + quantile                {t:8.3f} s")


def from_file(log: pd.DataFrame) -> None:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.dat")
        table = pa.Table.from_pandas(log[FIELDS], preserve_index=False)
        pcsv.write_csv(table, path, pcsv.WriteOptions(include_header=False, quoting_style="none"))
        size = os.path.getsize(path)
        print(f"\nloader + aggregation from a {size / 1e6:.0f} MB file (fresh process each run, median of 3)")
        runs = []
        for _ in range(3):
            out = subprocess.run(
                [sys.executable, "-c", LOAD_CHILD, path, str(Path(__file__).parent)],
                capture_output=True,
                text=True,
                check=True,
                cwd=Path(__file__).parents[1],
            )
            *numbers, cells, how = out.stdout.split(maxsplit=6)
            runs.append([float(x) for x in numbers])
        t_load, t_agg, peak, load_peak, loaded = np.median(runs, axis=0)
        print(f"  loader: {how.strip()}")
        print(f"  load {t_load:.3f} s + aggregate {t_agg:.3f} s = {t_load + t_agg:.3f} s ({cells} cells)")
        print(
            f"  RSS above the imports: {loaded / 1e6:.0f} MB after loading, peak {load_peak / 1e6:.0f} MB while "
            f"loading, peak {peak / 1e6:.0f} MB with aggregate = {peak / size:.2f} x the file (bar 1.5)"
        )
        try:
            import duckdb
        except ImportError:
            return
        query = (
            f"SELECT column0, column3, column4, median(column5) FROM read_csv('{path}', header = false) GROUP BY ALL"
        )
        con = duckdb.connect()
        t, _ = timed(lambda: con.execute(query).fetchnumpy(), 3)
        print(f"  baseline DuckDB read_csv + median group by: {t:.3f} s; ours / DuckDB = {(t_load + t_agg) / t:.2f}")


def refresh(log: pd.DataFrame, n_adds: int) -> None:
    print("\nrefresh after appending 1,000 lines (add(rows) + .table; median over successive appends)")
    t0 = time.perf_counter()
    agg = Aggregator(log)
    print(
        f"  Aggregator(log) build: {time.perf_counter() - t0:.3f} s, "
        f"peak extra memory {peak_mb(lambda: Aggregator(log)):.0f} MB (tracemalloc)"
    )
    rng = np.random.default_rng(SEED + 2)
    appended: list[pd.DataFrame] = []
    next_sets = make_log(n_datasets=n_adds // 10 + 1, first=500, seed=SEED + 3)
    scattered_at = rng.choice(len(log), (n_adds, 1000))
    shapes = {
        "log order (next data set, new labels)": [next_sets.iloc[i * 1000 : (i + 1) * 1000] for i in range(n_adds)],
        "1,000 new results in 1,000 cells": [log.iloc[at].assign(repeat=11 + i) for i, at in enumerate(scattered_at)],
        "1,000 rewritten results (last wins)": [
            log.iloc[at].assign(value=rng.random(1000).round(4)) for at in rng.choice(len(log), (n_adds, 1000))
        ],
    }
    medians = {}
    for name, batches in shapes.items():
        times = []
        for rows in batches:
            t0 = time.perf_counter()
            touched = agg.add(rows)
            assert len(agg.table) >= len(touched)  # the view reads the refreshed table
            times.append(time.perf_counter() - t0)
            appended.append(rows)
        medians[name] = float(np.median(times))
        print(
            f"  {name:40s} median {medians[name] * 1e3:6.1f} ms, max {max(times) * 1e3:6.1f} ms ({len(touched)} cells)"
        )
    grown = pd.concat([log, *appended[:n_adds]], ignore_index=True)
    t_full, _ = timed(lambda: aggregate(grown), 3)
    print(
        f"  baseline full re-aggregation of {len(grown):,} rows: {t_full:.3f} s; ratios full / refresh: "
        + ", ".join(f"{t_full / m:.0f}x" for m in medians.values())
    )
    everything = pd.concat([log, *appended], ignore_index=True)
    everything = everything.drop_duplicates(["dataset", "repeat", "fold", "learner", "criterion"], keep="last")
    want = aggregate(everything).reset_index()
    got = agg.table.reset_index()
    for frame in (want, got):
        frame[list(KEYS)] = frame[list(KEYS)].astype(str)
    want, got = (f.sort_values(list(KEYS)).reset_index(drop=True) for f in (want, got))
    same = want[list(KEYS)].equals(got[list(KEYS)]) and np.allclose(want.iloc[:, 3:], got.iloc[:, 3:], rtol=1e-12)
    print(f"  check: incremental table == full re-aggregation of everything appended: {'yes' if same else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--adds", type=int, default=20)
    parser.add_argument("--no-file", action="store_true", help="skip the loader + aggregation from a file")
    args = parser.parse_args()
    print(
        f"rankboard aggregate benchmark: Python {platform.python_version()}, numpy {np.__version__}, "
        f"pandas {pd.__version__}, {os.cpu_count()} CPUs"
    )
    log = make_log()
    print(
        f"log: {len(log):,} rows = 500 data sets x 20 learners x 10 x 10 CV x 5 criteria (50,000 cells of 100), "
        f"frame {log.memory_usage(deep=True).sum() / 1e6:.0f} MB\n"
    )
    aggregate(log)
    t, times = timed(lambda: aggregate(log), args.reps)
    q1, q3 = np.percentile(times, [25, 75])
    print(
        f"  aggregate(log)               median {t:.3f} s (IQR {q1:.3f}-{q3:.3f}, {args.reps} runs), "
        f"peak extra memory {peak_mb(lambda: aggregate(log)):.0f} MB   bar 0.2 s"
    )
    rag = ragged(log)
    t_rag, _ = timed(lambda: aggregate(rag), args.reps)
    print(
        f"  aggregate(ragged log)        median {t_rag:.3f} s ({len(rag):,} rows, cells of 38 to 100), "
        f"peak extra memory {peak_mb(lambda: aggregate(rag)):.0f} MB"
    )
    baselines(log, args.reps)
    if not args.no_file:
        from_file(log)
    refresh(log, args.adds)


if __name__ == "__main__":
    main()
