"""Benchmark: loading a 5,000,000-line long-format log, against DuckDB, pandas and pyarrow.

What it measures
    A generated log (written once to ``/tmp/rankboard_bench/long_5M.dat``,
    about 204 MB; regenerated if missing or of the wrong size): 500 data sets
    (``dataset_000`` ...) x 10 repeats x 10 folds x 20 learners (``learner_00``
    ...) x 5 criteria (accuracy, pd, pf, precision, runtime), in the order of
    the loop of Menzies' notes, values with 4 decimals (``dataset_042,3,7,learner_07,pd,0.8123``).

    Each variant runs in a fresh Python subprocess, several times, interleaved
    round-robin so that every variant sees the same machine load:

    - ``rankboard``: ``stats.read_logs(path)`` (imported from ``stats.logs._read``) (on_error="raise"), then
      ``aggregate(df)`` (``stats.cells._aggregate``: count, quartiles, mean and sd per
      criterion x data set x learner) when it exists; load and aggregate are
      timed separately and together;
    - ``duckdb``: ``read_csv(path, header=false, columns={...})`` with the six
      column types given (no sniffing), then ``select criterion, dataset,
      learner, median(value) ... group by all``, result fetched as Arrow (the bar);
    - ``pandas``: ``pandas.read_csv(path, header=None, names=[...])``, C parser,
      default dtypes (the parse alone, no checks, no aggregate);
    - ``pyarrow``: ``pyarrow.csv.read_csv(path, ReadOptions(column_names=[...]))``,
      threads on, inferred types (the parse alone).

    Time: wall clock of the work only (imports excluded). Memory: the
    subprocess's peak resident set (``VmHWM`` in ``/proc/self/status``) minus its
    resident set just before the work, after the imports (the interpreter
    baseline, column "base MB"); ``ru_maxrss`` is the fallback where /proc is
    absent. rankboard's "load only" peak is read before the aggregate runs;
    its full row's peak includes the aggregate. MB = 10^6 bytes.

Bars
    rankboard's load + aggregate median <= DuckDB's median (same run);
    rankboard's peak memory <= 1.5 x the file size.

Run from the repository root::

    python benchmarks/bench_load.py [--runs 5] [--only rankboard,duckdb]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

PATH = Path("/tmp/rankboard_bench/long_5M.dat")
N_DATASETS, N_LEARNERS, REPEATS, FOLDS = 500, 20, 10, 10
CRITERIA = ("accuracy", "pd", "pf", "precision", "runtime")
LINES = N_DATASETS * N_LEARNERS * REPEATS * FOLDS * len(CRITERIA)
MEMORY_BAR = 1.5

_PRELUDE = """
import json, resource, sys, time
def _rss(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
path = sys.argv[1]
"""

VARIANTS = {
    "rankboard": """
from stats.logs._read import read_logs
try:
    from stats.cells._aggregate import aggregate
except ImportError:
    aggregate = None
base = _rss("VmRSS")
t0 = time.perf_counter()
df = read_logs(path)
t1 = time.perf_counter()
peak_load = _rss("VmHWM") - base
if aggregate is not None:
    table = aggregate(df)
t2 = time.perf_counter()
assert len(df) == int(sys.argv[2]) and not df.problems, (len(df), df.problems[:3])
print(json.dumps({"load": t1 - t0, "aggregate": t2 - t1 if aggregate else None, "time": t2 - t0,
                  "base": base, "peak": _rss("VmHWM") - base, "peak_load": peak_load}))
""",
    "duckdb": """
import duckdb
con = duckdb.connect()
base = _rss("VmRSS")
t0 = time.perf_counter()
sql = ("select criterion, dataset, learner, median(value) from read_csv(?, header=false, columns={"
       "'dataset': 'VARCHAR', 'repeat': 'BIGINT', 'fold': 'BIGINT', 'learner': 'VARCHAR', "
       "'criterion': 'VARCHAR', 'value': 'DOUBLE'}) group by all")
result = con.execute(sql, [path]).to_arrow_table()
t1 = time.perf_counter()
assert result.num_rows == 500 * 20 * 5, result.num_rows
print(json.dumps({"time": t1 - t0, "base": base, "peak": _rss("VmHWM") - base}))
""",
    "pandas": """
import pandas as pd
base = _rss("VmRSS")
t0 = time.perf_counter()
df = pd.read_csv(path, header=None, names=["dataset", "repeat", "fold", "learner", "criterion", "value"], engine="c")
t1 = time.perf_counter()
print(json.dumps({"time": t1 - t0, "base": base, "peak": _rss("VmHWM") - base}))
""",
    "pyarrow": """
import pyarrow.csv as pv
base = _rss("VmRSS")
t0 = time.perf_counter()
table = pv.read_csv(path, read_options=pv.ReadOptions(
    column_names=["dataset", "repeat", "fold", "learner", "criterion", "value"]))
t1 = time.perf_counter()
print(json.dumps({"time": t1 - t0, "base": base, "peak": _rss("VmHWM") - base}))
""",
}


def write_log(
    path: Path,
    n_datasets: int,
    criteria: tuple[str, ...],
    *,
    effect_sd: float = 0.0,
    n_learners: int = N_LEARNERS,
    repeats: int = REPEATS,
    folds: int = FOLDS,
) -> None:
    """A synthetic log in the loop order of Menzies' notes (data set, repeat, fold, learner, criterion).

    Per data set a base score, plus per learner an effect (normal, ``effect_sd``; none when 0),
    plus noise, clipped to [0, 1]; the last criterion is a runtime (exponential). 4 decimals.
    """
    rng = np.random.default_rng(20240601)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    k = len(criteria)
    with open(tmp, "w", encoding="utf-8") as out:
        for d in range(n_datasets):
            name = f"dataset_{d:03d}"
            base = rng.uniform(0.5, 0.95)
            effect = rng.normal(0, effect_sd, (1, 1, n_learners, 1)) if effect_sd else 0.0
            scores = np.clip(base + effect + rng.normal(0, 0.05, (repeats, folds, n_learners, k - 1)), 0, 1)
            runtime = rng.exponential(0.05, (repeats, folds, n_learners, 1))
            values = np.concatenate([scores, runtime], axis=3)
            lines = [
                f"{name},{r + 1},{n + 1},learner_{l:02d},{c},{values[r, n, l, i]:.4f}\n"
                for r in range(repeats)
                for n in range(folds)
                for l in range(n_learners)  # noqa: E741
                for i, c in enumerate(criteria)
            ]
            out.write("".join(lines))
    tmp.replace(path)


def log_complete(path: Path, n_datasets: int, criteria: tuple[str, ...]) -> bool:
    """Whether :func:`write_log` finished ``path`` (its last line is there)."""
    if not path.exists():
        return False
    with open(path, "rb") as f:
        f.seek(-64, os.SEEK_END)
        tail = f.read()
    last = f"dataset_{n_datasets - 1:03d},{REPEATS},{FOLDS},learner_{N_LEARNERS - 1:02d},{criteria[-1]},"
    return tail.endswith(b"\n") and last.encode() in tail


def generate(path: Path = PATH) -> None:
    """The 5,000,000-line log: 500 data sets x 20 learners x 10 x 10 CV x 5 criteria."""
    write_log(path, N_DATASETS, CRITERIA)


def _valid(path: Path) -> bool:
    return log_complete(path, N_DATASETS, CRITERIA)


def run(variant: str, path: Path) -> dict[str, float]:
    code = _PRELUDE + VARIANTS[variant]
    done = subprocess.run(
        [sys.executable, "-c", code, str(path), str(LINES)], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"{variant} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _versions() -> str:
    from importlib import metadata

    names = ("numpy", "pandas", "pyarrow", "duckdb")
    return ", ".join(f"{n} {metadata.version(n)}" for n in names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per variant (>= 3)")
    parser.add_argument("--only", default=",".join(VARIANTS), help="comma-separated variants")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs must be >= 3")
    variants = [v for v in args.only.split(",") if v]
    if not _valid(PATH):
        t = time.perf_counter()
        generate()
        print(f"generated {PATH} in {time.perf_counter() - t:.1f} s")
    size = PATH.stat().st_size
    print(f"log: {PATH}, {LINES:,} lines, {size / 1e6:.1f} MB")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f}; Python {platform.python_version()}; {_versions()}"
    )
    for variant in variants:  # warm the page cache and each library's first-touch costs
        run(variant, PATH)
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    for _ in range(args.runs):
        for variant in variants:
            results[variant].append(run(variant, PATH))
    print(f"\nmedians over {args.runs} runs, interleaved, each in a fresh subprocess (after 1 warm-up run)\n")
    print(f"{'variant':<28}{'time s':>9}{'min s':>8}{'/duckdb':>9}{'peak MB':>9}{'/file':>7}{'base MB':>9}")
    duck = statistics.median(r["time"] for r in results["duckdb"]) if "duckdb" in results else None
    rows = []
    for variant, runs in results.items():
        rows.append((variant, [r["time"] for r in runs], runs))
        if variant == "rankboard" and runs[0].get("aggregate") is not None:
            load_peaks = [{**r, "peak": r["peak_load"]} for r in runs]
            rows.append(("  rankboard load only", [r["load"] for r in runs], load_peaks))
            rows.append(("  rankboard aggregate only", [r["aggregate"] for r in runs], runs))
    for label, times, runs in rows:
        med = statistics.median(times)
        peak = statistics.median(r["peak"] for r in runs) / 1e6
        base = statistics.median(r["base"] for r in runs) / 1e6
        ratio = f"{med / duck:9.2f}" if duck else f"{'':9}"
        print(f"{label:<28}{med:9.3f}{min(times):8.3f}{ratio}{peak:9.0f}{peak * 1e6 / size:7.2f}{base:9.0f}")
    if "rankboard" in results:
        ours = results["rankboard"]
        if ours[0].get("aggregate") is None:
            print("\nstats.aggregate does not exist yet: rankboard's time is the load alone")
        med = statistics.median(r["time"] for r in ours)
        peak = statistics.median(r["peak"] for r in ours)
        if duck:
            verdict = "meets" if med <= duck else "misses"
            print(f"\ntime bar (rankboard <= duckdb): {verdict} ({med:.3f} s vs {duck:.3f} s)")
        verdict = "meets" if peak <= MEMORY_BAR * size else "misses"
        print(
            f"memory bar (peak <= {MEMORY_BAR} x file = {MEMORY_BAR * size / 1e6:.0f} MB): {verdict} "
            f"({peak / 1e6:.0f} MB)"
        )


if __name__ == "__main__":
    main()
