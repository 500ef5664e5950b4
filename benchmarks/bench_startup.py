"""Start-up of the ``rankboard`` command: whole processes, this tree against an older one.

Times ``rankboard --help``, ``rankboard check TINY`` and ``rankboard report TINY`` (TINY is the
bundled C4.5 example, 56 lines) as fresh processes (``python -m tui ...``), interleaved round-robin
between this tree and the tree of ``--before REV`` (extracted with ``git archive``), and prints the
medians and the ratio. The machine is shared and noisy: read the ratios.

    python benchmarks/bench_startup.py [--before REV] [--reps N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _trees  # noqa: E402  (benchmarks/: the script's folder)

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "sample_logs" / "c45_demsar.dat"
COMMANDS = {
    "--help": ["--help"],
    "check TINY": ["check", str(TINY)],
    "report TINY": ["report", str(TINY)],
}


def run_once(tree: Path, args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tui", *args], cwd=tree, capture_output=True, check=True)
    return time.perf_counter() - start


def extract(rev: str, into: Path) -> Path:
    return _trees.export(rev, "stats", "tui", "sample_logs", into=into)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="fbc69ad", help="the git revision to compare with (default fbc69ad)")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT, args.before: extract(args.before, Path(tmp))}
        times: dict[tuple[str, str], list[float]] = {(t, c): [] for t in trees for c in COMMANDS}
        for tree in trees.values():  # warm the file cache once per tree
            run_once(tree, COMMANDS["--help"])
        for _ in range(args.reps):
            for command, argv in COMMANDS.items():
                for tree_name, tree in trees.items():
                    times[(tree_name, command)].append(run_once(tree, argv))
    print(f"{'command':14s} {'this tree':>10s} {args.before:>10s}  ratio   (medians of {args.reps} fresh processes)")
    for command in COMMANDS:
        now = statistics.median(times[("this tree", command)])
        before = statistics.median(times[(args.before, command)])
        print(f"{command:14s} {now:9.3f}s {before:9.3f}s  {now / before:5.2f}x")
    print("goals (issue 17): --help <= 0.3 s, check TINY <= 0.6 s")


if __name__ == "__main__":
    main()
