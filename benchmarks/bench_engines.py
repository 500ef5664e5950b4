"""``rankboard aggregate --engine duckdb|dask|spark`` beside rankboard's own reading (issue 33):
time and peak memory of each, on the same million-line log, in the same rounds.

The log is ``bench_cli.py``'s ``1M``: 1,000,000 lines (100 data sets x 20 learners x 10 x 10 CV x
5 criteria, 4-decimal values, ~41 MB), written once under ``/tmp/rankboard_bench`` with
:func:`bench_load.write_log`. Each command is a fresh process (``python -m tui ...`` from this
tree), interleaved round-robin, ``--reps`` rounds; the medians are printed:

- ``report``: ``rankboard report LOG --format json --view ranks`` (rankboard reads the whole log);
- ``report --memory 16M``: the same in bounded memory (the log is aggregated by blocks);
- ``aggregate duckdb`` / ``dask`` / ``spark``: ``rankboard aggregate LOG --engine E -o FILE --force``
  (Dask on its local threads, Spark on ``local[*]``: one node here; the figures are what the engine
  costs on one node, not a cluster's speed-up);
- ``report medians``: ``rankboard report`` of the medians file (the second half of the engine path).

Time: wall clock from launch to exit (imports and, for Spark, the JVM's start included). Peak
memory: the largest sum of the resident set sizes of the process and all its descendants (the
JVM that pyspark starts is one), sampled every 20 ms with psutil; a peak shorter than that may be
missed. The machine is shared: read the ratios of the same rounds.

    python benchmarks/bench_engines.py [--reps 3] [--engines duckdb,dask,spark]

Needs psutil (installed with distributed) and the engines' extras (pip install "rankboard[duckdb,dask,spark]");
an engine that is missing is left out, said.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import CRITERIA, PATH, log_complete, write_log  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LOG = PATH.parent / "long_1M.dat"
OUT = PATH.parent / "engines"
NEEDS = {"duckdb": "duckdb", "dask": "distributed", "spark": "pyspark"}


def the_log() -> Path:
    if not log_complete(LOG, 100, CRITERIA):
        print(f"writing {LOG} ...", flush=True)
        write_log(LOG, 100, CRITERIA)
    return LOG


def measure(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB (the process tree) of one command, which must succeed."""
    import psutil

    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parent = psutil.Process(proc.pid)
    peak = 0
    while proc.poll() is None:
        try:
            tree = [parent, *parent.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err[-2000:]}")
    return seconds, peak / 1e6


def commands(log: Path, engines: list[str]) -> dict[str, list[str]]:
    tui = [sys.executable, "-m", "tui"]
    out = {
        "report": [*tui, "report", str(log), "--format", "json", "--view", "ranks"],
        "report --memory 16M": [*tui, "report", str(log), "--format", "json", "--view", "ranks", "--memory", "16M"],
    }
    for engine in engines:
        target = OUT / f"{engine}.parquet"
        out[f"aggregate {engine}"] = [*tui, "aggregate", str(log), "--engine", engine, "-o", str(target), "--force"]
    if engines:
        out["report medians"] = [
            *tui,
            "report",
            str(OUT / f"{engines[0]}.parquet"),
            "--format",
            "json",
            "--view",
            "ranks",
        ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--engines", default="duckdb,dask,spark")
    args = parser.parse_args()
    engines = []
    for engine in args.engines.split(","):
        if importlib.util.find_spec(NEEDS[engine]) is None or (engine == "spark" and not shutil.which("java")):
            print(f"{engine}: not installed here (pip install 'rankboard[{engine}]'; spark also needs Java): left out")
        else:
            engines.append(engine)
    log = the_log()
    OUT.mkdir(parents=True, exist_ok=True)
    todo = commands(log, engines)
    if engines:  # the medians file exists before "report medians" first runs
        measure(todo[f"aggregate {engines[0]}"])
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in todo}
    for rep in range(args.reps):
        for name, argv in todo.items():
            runs[name].append(measure(argv))
        print(f"round {rep + 1}/{args.reps} done", flush=True)
    size = log.stat().st_size / 1e6
    base = statistics.median(s for s, _ in runs["report"])
    print(f"\n{log.name}: 1,000,000 lines, {size:.0f} MB; medians of {args.reps} rounds")
    print(f"{'command':<22} {'seconds':>8} {'x report':>9} {'peak MB':>8}")
    for name, results in runs.items():
        seconds = statistics.median(s for s, _ in results)
        peak = statistics.median(m for _, m in results)
        print(f"{name:<22} {seconds:>8.2f} {seconds / base:>9.2f} {peak:>8.0f}")


if __name__ == "__main__":
    main()
