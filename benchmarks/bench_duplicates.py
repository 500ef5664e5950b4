"""Benchmark: memory and time of reading a log of duplicates, against the same number of distinct lines.

What it measures
    Two generated long-format logs of ``--lines`` lines each (default 20,000,000, about 500 MB
    each, written once to ``/tmp/rankboard_bench/``):

    - ``distinct``: the loop order of Menzies' notes (data sets x repeats x folds x learners x criteria),
      every key once -- the baseline;
    - ``identical``: one line repeated (``iris,1,1,nb,accuracy,0.9``): every line but the last
      is replaced by the next (issue 13, item 5: this peaked at 4.7 GB for 20M lines);
    - ``rerun``: the first half of ``distinct`` written twice (a log whose whole run was
      repeated: half of the lines replaced, in long runs).

    Each read is ``stats.read_logs(path, on_error="skip")`` in a fresh subprocess, interleaved
    round-robin over ``--runs`` rounds. Memory: the peak resident set (``VmHWM``) minus the
    resident set after the imports; time: wall clock of the read. Medians are printed with the
    ratio to ``distinct``.

Bar
    Peak memory of ``identical`` and ``rerun`` within 1.5 x that of ``distinct``.

Run from the repository root::

    python benchmarks/bench_duplicates.py [--lines 20000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

FOLDER = Path("/tmp/rankboard_bench")
BAR = 1.5

CHILD = r"""
import json, sys, time
from stats.logs._read import read_logs

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
base = status("VmRSS")
t = time.perf_counter()
log = read_logs(sys.argv[1], on_error="skip")
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "peak": status("VmHWM") - base, "rows": len(log),
                  "problems": len(log.problems)}))
"""


def write_distinct(path: Path, lines: int) -> None:
    """The loop order of Menzies' notes: 20 learners x 5 criteria per (data set, repeat, fold); keys all distinct."""
    learners = [f"learner_{i:02d}" for i in range(20)]
    criteria = ("accuracy", "pd", "pf", "precision", "runtime")
    rng = np.random.default_rng(0)
    per_run = len(learners) * len(criteria)
    suffix = [f",{lrn},{c}," for lrn in learners for c in criteria]
    written = 0
    with path.open("w") as f:
        run = 0
        while written < lines:
            d, rest = divmod(run, 100)
            r, fold = divmod(rest, 10)
            values = rng.random(per_run).round(4)
            head = f"dataset_{d:05d},{r + 1},{fold + 1}"
            take = min(per_run, lines - written)
            f.write("".join(f"{head}{s}{v}\n" for s, v in zip(suffix[:take], values.tolist())))
            written += take
            run += 1


def ensure(lines: int) -> dict[str, Path]:
    FOLDER.mkdir(parents=True, exist_ok=True)
    paths = {name: FOLDER / f"dup_{name}_{lines}.dat" for name in ("distinct", "identical", "rerun")}
    if not paths["distinct"].exists():
        write_distinct(paths["distinct"], lines)
    if not paths["identical"].exists():
        with paths["identical"].open("w") as f:
            block = "iris,1,1,nb,accuracy,0.9\n" * 100_000
            for _ in range(lines // 100_000):
                f.write(block)
            f.write("iris,1,1,nb,accuracy,0.9\n" * (lines % 100_000))
    if not paths["rerun"].exists():
        half = FOLDER / "dup_half.tmp"
        write_distinct(half, lines // 2)
        data = half.read_bytes()
        paths["rerun"].write_bytes(data + data)
        half.unlink()
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=20_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    paths = ensure(args.lines)
    results: dict[str, list[dict[str, float]]] = {name: [] for name in paths}
    for _ in range(args.runs):
        for name, path in paths.items():
            out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True)
            results[name].append(json.loads(out.stdout))
    print(f"{args.lines:,} lines per log; medians of {args.runs} runs, each in a fresh process\n")
    header = f"{'log':<10} {'size MB':>8} {'rows kept':>11} {'problems':>9} {'time s':>7} {'peak MB':>8}"
    print(f"{header} {'x distinct':>11}")
    base = statistics.median(r["peak"] for r in results["distinct"])
    base_t = statistics.median(r["seconds"] for r in results["distinct"])
    for name, runs in results.items():
        peak = statistics.median(r["peak"] for r in runs)
        seconds = statistics.median(r["seconds"] for r in runs)
        size = paths[name].stat().st_size / 1e6
        print(
            f"{name:<10} {size:>8.0f} {runs[0]['rows']:>11,} {runs[0]['problems']:>9,} {seconds:>7.2f}"
            f" {peak / 1e6:>8.0f} {peak / base:>6.2f} mem {seconds / base_t:>5.2f} time"
        )
    worst = max(statistics.median(r["peak"] for r in results[n]) for n in ("identical", "rerun")) / base
    verdict = "meets" if worst <= BAR else "MISSES"
    print(f"\nbar: peak memory of duplicates <= {BAR} x distinct: {worst:.2f} x -> {verdict}")


if __name__ == "__main__":
    main()
