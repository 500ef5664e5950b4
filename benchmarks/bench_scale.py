"""Benchmark: the scale of a table (issue 30, item 9) -- ``rankboard report`` on 3 learners x
100,000 data sets and on 1,000 learners x 3 data sets, every view and the JSON report.

What it measures
    Two logs are written once into a temporary folder (seed 20240601, one criterion ``acc``, one
    repeat of 2 folds, 4-decimal values: a base per data set, an effect per learner, noise):
    ``tall`` (3 learners x 100,000 data sets, 600,000 lines) and ``wide`` (1,000 learners x 3
    data sets, 6,000 lines). For each log, ``python -m tui report LOG --view V`` runs in a new
    process for every view of the registry and ``all`` (text), and ``--view all --format json``;
    the output goes to a file. Per run: the wall time and the child's peak RSS (``os.wait4``'s
    ``ru_maxrss``, the process itself, not its siblings). Medians over ``--reps`` runs.

Baseline (same run, ``--before REV``)
    The same runs on git revision REV's ``stats/`` and ``tui/`` (``_trees.export``: ``git archive``,
    no worktree touched), interleaved with this tree's (REV first in odd rounds, this tree first
    in even ones). A baseline run is stopped after ``--timeout`` seconds (printed as ``>T``, its
    ratio as a lower bound) and limited to ``--memory`` of address space (``RLIMIT_AS``: a
    MemoryError instead of swapping; printed as ``MemoryError``), so that the old quadratic and
    cubic steps cannot hold the machine.

Bar (issue 30)
    Every view, ``all`` and the JSON report of each log within 60 s and 2 GB on this 2-core
    machine. Figures are printed, never asserted; the machine may be shared (read the ratios).

Run from the repository root::

    python benchmarks/bench_scale.py [--reps 1] [--before REV] [--timeout 120] [--memory 6G]
                                     [--only tall|wide] [--views ranks,pairs]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]  # this checkout's stats/tui, not another install's

import _trees  # noqa: E402

from tui.registry import names  # noqa: E402

SEED = 20240601
#: name -> (data sets, learners)
LOGS = {"tall": (100_000, 3), "wide": (3, 1_000)}
REPEATS, FOLDS = 1, 2
BAR_SECONDS, BAR_BYTES = 60.0, 2 * 10**9


def write_log(path: Path, n_datasets: int, n_learners: int, seed: int = SEED) -> None:
    """A log of ``n_datasets`` x ``n_learners`` x REPEATS x FOLDS results of ``acc``: a base per
    data set, an effect per learner, noise; 4 decimals (fixed seed: the same bytes every time)."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.5, 0.95, n_datasets)
    effect = rng.normal(0.0, 0.03, n_learners)
    noise = rng.normal(0.0, 0.05, (n_datasets, REPEATS, FOLDS, n_learners))
    values = np.clip(base[:, None, None, None] + effect + noise, 0.0, 1.0)
    with open(path, "w", encoding="utf-8") as out:
        for d in range(n_datasets):
            out.write(
                "".join(
                    f"ds_{d:06d},{r + 1},{f + 1},learner_{x:04d},acc,{values[d, r, f, x]:.4f}\n"
                    for r in range(REPEATS)
                    for f in range(FOLDS)
                    for x in range(n_learners)
                )
            )


def run_report(tree: Path, log: Path, view: str, fmt: str, out: Path, timeout: float, memory: int | None) -> dict:
    """``python -m tui report LOG --view VIEW --format FMT > OUT`` with ``tree`` first on the path:
    wall seconds, peak RSS bytes (``os.wait4``) and how it ended ("ok", "timeout", "MemoryError",
    "exit N")."""

    def limits() -> None:  # (in the child, before exec)
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "100"}
    command = [sys.executable, "-m", "tui", "report", str(log), "--view", view, "--format", fmt]
    with open(out, "wb") as sink, tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=tree, env=env, stdout=sink, stderr=errors, preexec_fn=limits)
        deadline, status, usage, killed = start + timeout, None, None, False
        while status is None:
            pid, status_now, usage_now = os.wait4(child.pid, os.WNOHANG)
            if pid:
                status, usage = status_now, usage_now
            elif time.perf_counter() > deadline and not killed:
                child.kill()
                killed = True
            else:
                time.sleep(0.02)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        said = errors.read().decode("utf-8", "replace")
    if killed:
        how = "timeout"
    elif child.returncode == 0:
        how = "ok"
    else:
        how = "MemoryError" if "MemoryError" in said else f"exit {child.returncode}"
    return {"wall": wall, "rss": usage.ru_maxrss * 1024, "how": how}


def _seconds(runs: list[dict], timeout: float) -> str:
    if any(r["how"] != "ok" for r in runs):
        bad = next(r for r in runs if r["how"] != "ok")
        return f">{timeout:.0f} s" if bad["how"] == "timeout" else bad["how"]
    return f"{statistics.median(r['wall'] for r in runs):.2f} s"


def _memory(runs: list[dict]) -> str:
    return f"{max(r['rss'] for r in runs) / 1e9:.2f} GB"


def _ratio(now: list[dict], before: list[dict], timeout: float) -> str:
    """before / now of the median wall times (above 1: faster now); a lower bound when the
    baseline did not finish."""
    if any(r["how"] != "ok" for r in now):
        return "-"
    mine = statistics.median(r["wall"] for r in now)
    if any(r["how"] != "ok" for r in before):
        wall = max(r["wall"] for r in before)
        return f">{wall / mine:.1f}x"
    return f"{statistics.median(r['wall'] for r in before) / mine:.1f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=1, help="runs per view and tree (default 1)")
    parser.add_argument("--before", metavar="REV", help="also run git revision REV's tree, interleaved")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is stopped (default 120)")
    parser.add_argument("--memory", default="6G", help="address-space limit of a baseline run (default 6G)")
    parser.add_argument("--only", choices=sorted(LOGS), help="one of the two logs")
    parser.add_argument("--views", help="comma-separated views (default: every view and all)")
    args = parser.parse_args(argv)
    memory = int(float(args.memory[:-1]) * 2**30) if args.memory[-1] in "Gg" else int(args.memory)
    runs = [(v, "text") for v in (args.views.split(",") if args.views else [*names(), "all"])]
    runs.append(("all", "json"))
    folder = Path(tempfile.mkdtemp(prefix="rankboard_scale_"))
    trees = {"now": ROOT}
    try:
        if args.before:
            (folder / "before").mkdir()
            trees["before"] = _trees.export(args.before, "stats", "tui", into=folder / "before")
        for name, (n_datasets, n_learners) in LOGS.items():
            if args.only and name != args.only:
                continue
            log = folder / f"{name}.dat"
            started = time.perf_counter()
            write_log(log, n_datasets, n_learners)
            print(
                f"\n{name}: {n_learners:,} learners x {n_datasets:,} data sets x {REPEATS} x {FOLDS} folds "
                f"({log.stat().st_size / 1e6:.1f} MB, written in {time.perf_counter() - started:.1f} s)"
            )
            head = f"{'view':>10} {'format':>6}  {'now':>10} {'peak RSS':>9}"
            head += f"  {'before':>12} {'peak RSS':>9}  {'ratio':>7}" if args.before else ""
            print(head + "   bar: 60 s, 2 GB")
            for view, fmt in runs:
                measured: dict[str, list[dict]] = {t: [] for t in trees}
                for rep in range(args.reps):
                    order = list(trees) if rep % 2 else list(trees)[::-1]  # REV first in odd rounds
                    for t in order:
                        limit = memory if t == "before" else None
                        out = folder / f"{name}_{view}_{fmt}_{t}.out"
                        measured[t].append(run_report(trees[t], log, view, fmt, out, args.timeout, limit))
                now = measured["now"]
                line = f"{view:>10} {fmt:>6}  {_seconds(now, args.timeout):>10} {_memory(now):>9}"
                if args.before:
                    before = measured["before"]
                    line += f"  {_seconds(before, args.timeout):>12} {_memory(before):>9}  "
                    line += f"{_ratio(now, before, args.timeout):>7}"
                    same = all(r["how"] == "ok" for r in before) and (
                        (folder / f"{name}_{view}_{fmt}_now.out").read_bytes()
                        == (folder / f"{name}_{view}_{fmt}_before.out").read_bytes()
                    )
                    line += "   same bytes" if same else ""
                ok = all(r["how"] == "ok" and r["wall"] <= BAR_SECONDS and r["rss"] <= BAR_BYTES for r in now)
                print(line + ("" if ok else "   (over the bar)"), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
