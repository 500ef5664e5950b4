"""Whole processes (issue 17): ``rankboard check``, ``rankboard report --format json``, the app's
first view and a DuckDB process on the same logs, interleaved round-robin, medians, ratios to
DuckDB, peak RSS; the start-up of ``--help``, ``check TINY`` and ``report TINY``.

Workloads (the logs are written once under ``/tmp/rankboard_bench`` with
:func:`bench_load.write_log`, the loop order of Menzies' notes, 4-decimal values):

- ``1M``: 1,000,000 lines (100 data sets x 20 learners x 10 x 10 CV x 5 criteria), ~41 MB;
- ``5M``: 5,000,000 lines (500 data sets), ~204 MB (``bench_load.py``'s log);
- ``1000 files``: the 5M log cut into 1,000 files of 5,000 lines (a directory of ``*.dat``);
- ``5M gzip``: the 5M log gzipped (level 6);
- ``5M parquet``: the 5M log converted once with ``rankboard convert`` (its time and size are
  printed); DuckDB then reads the same Parquet file (``read_parquet``);
- ``20M``: 20,000,000 lines (~820 MB), only with ``--sizes ...,20M`` (it takes minutes).

Each command is a fresh process (``python -m tui ...`` from this tree; ``python -c`` with duckdb:
``read_csv`` with the six column types given, then ``median(value)`` grouped by criterion,
dataset, learner, fetched as Arrow). Time: wall clock from launch to exit (imports included).
Peak RSS: ``/usr/bin/time -f %M`` (``apt-get install time`` if missing), shown as MB and as a
multiple of the log's size as text (uncompressed for gzip; the text log for Parquet). The machine
is shared: read the ratios, which come from the same rounds.

The app's first view (``app``): ``python -m tui LOG`` launched in a tmux session of 80 x 24 with
``NO_COLOR=1`` on a private server socket (``tmux -L``); the time from just before the launch to
the first capture of the pane (polled every 20 ms) that shows the quartile view's header ("is
better"), i.e. the analysis painted on a real terminal; then ``q`` quits it (its peak RSS is the
whole session's). ``--no-app`` leaves it out (no tmux).

Start-up: ``--help``, ``check TINY`` and ``report TINY`` (TINY: the bundled 56-line C4.5 example),
``--startup-reps`` fresh processes each, medians.

Both trees are byte-compiled first (``compileall``), as ``pip install`` leaves an installed
rankboard: this environment sets ``PYTHONDONTWRITEBYTECODE``, so without it every process would
compile rankboard's modules again (0.1-0.15 s each, a cost no installed copy pays).

Import floors (``floor ...``): a fresh ``python -c`` that only imports what a command needs
before it reads a byte of a text log: numpy and pyarrow (csv, compute) for ``check`` (it imports no
pandas), and also pandas and ``scipy.stats`` for ``report``; and ``import duckdb`` for DuckDB.
Measured in the same rounds, they are the least any command of this design can take: a ratio to
DuckDB above 1.0 for a floor means the goal cannot be met by reading or computing faster, only by
importing less.

``--before REV`` runs every command also on the tree of git revision REV (``stats``, ``tui`` and
``sample_logs`` extracted with ``git archive`` into a temporary directory; ``python -m tui`` from
there), interleaved with this tree's in the same rounds, and prints both, each against the DuckDB
runs of the same rounds.

    python benchmarks/bench_cli.py [--reps 3] [--sizes 1M,5M,1000files,gzip,parquet[,20M]]
                                   [--before REV] [--no-app] [--startup-reps 7]

duckdb is a benchmark dependency only (``pip install duckdb``).
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _trees import export  # noqa: E402
from bench_load import CRITERIA, PATH, log_complete, write_log  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DIR = PATH.parent
COLUMNS = (
    "{'dataset': 'VARCHAR', 'repeat': 'INTEGER', 'fold': 'INTEGER', 'learner': 'VARCHAR', "
    "'criterion': 'VARCHAR', 'value': 'DOUBLE'}"
)
QUERY = "select criterion, dataset, learner, median(value) from {source} group by all"
DUCKDB = "import duckdb, sys; duckdb.sql(sys.argv[1]).fetch_arrow_table()"
SIZES = ("1M", "5M", "1000files", "gzip", "parquet", "20M")
DEFAULT = "1M,5M,1000files,gzip,parquet"


def text_log(n_datasets: int) -> Path:
    """The log of ``n_datasets`` x 10,000 lines (5M: bench_load.py's own file)."""
    path = PATH if n_datasets == 500 else DIR / f"long_{n_datasets // 100}M.dat"
    if not log_complete(path, n_datasets, CRITERIA):
        print(f"writing {path} ...", flush=True)
        write_log(path, n_datasets, CRITERIA)
    return path


def files_log(source: Path, n_files: int = 1000) -> Path:
    """``source`` cut into ``n_files`` files of equal line counts (a directory)."""
    folder = DIR / f"files_{n_files}"
    if folder.is_dir() and len(list(folder.glob("*.dat"))) == n_files:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with open(source, "rb") as f:
        lines = f.readlines()
    per = len(lines) // n_files
    for i in range(n_files):
        (folder / f"part_{i:04d}.dat").write_bytes(b"".join(lines[i * per : (i + 1) * per]))
    return folder


def gzip_log(source: Path) -> Path:
    path = source.with_name(source.name + ".gz")
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with open(source, "rb") as f, gzip.open(tmp, "wb", compresslevel=6) as out:
            shutil.copyfileobj(f, out, 1 << 22)
        tmp.replace(path)
    return path


def parquet_log(source: Path) -> tuple[Path, float]:
    """``rankboard convert`` of ``source`` (always redone: its time is a figure)."""
    path = source.with_suffix(".parquet")
    path.unlink(missing_ok=True)
    seconds, _ = run([sys.executable, "-m", "tui", "convert", str(source), "-o", str(path)])
    return path, seconds


TIME = shutil.which("time") or "/usr/bin/time"
TINY = ROOT / "sample_logs" / "c45_demsar.dat"
STARTUP = {"--help": ["--help"], "check TINY": ["check", str(TINY)], "report TINY": ["report", str(TINY)]}
#: What the quartile view's header shows once the first analysis is painted (tui/widgets).
FIRST_VIEW = "is better"
COMMANDS = ("check", "report json", "app")
_READ_IMPORTS = "import numpy, pyarrow, pyarrow.csv, pyarrow.compute"  # check's (no pandas: stats.check_logs)
#: What each command imports before it can read (see the module docstring), as fresh processes.
FLOORS = {
    "floor check": [sys.executable, "-c", _READ_IMPORTS],
    "floor report": [sys.executable, "-c", _READ_IMPORTS + ", pandas, scipy.stats"],
    "floor duckdb": [sys.executable, "-c", "import duckdb"],
}


def run(argv: list[str], cwd: Path = ROOT) -> tuple[float, int]:
    """Wall time and peak RSS (bytes) of one process (its output discarded).

    The peak is ``/usr/bin/time -f %M``'s: the ``ru_maxrss`` of a child forked by this (large)
    process would start from this process's own peak (Linux keeps the high-water mark across
    fork and exec), so the command is forked by ``time``, a small process.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        proc = subprocess.run(
            [TIME, "-f", "%M", "-o", rss.name, *argv], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(argv[:4])} ... failed ({proc.returncode}): {proc.stderr[-2000:]!r}")
        return elapsed, int(rss.read().split()[-1]) * 1024


def first_view(source: Path, cwd: Path, timeout: float = 600.0) -> tuple[float, int]:
    """Seconds from launching the app on ``source`` in tmux (80 x 24, NO_COLOR) to the first
    capture of its pane showing the first view, and the app's peak RSS (bytes, up to its exit)."""
    sock = f"bench_cli_{os.getpid()}"
    tmux = ["tmux", "-L", sock]
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        app = f"{TIME} -f %M -o {rss.name} {sys.executable} -m tui {source}"
        env = {**os.environ, "NO_COLOR": "1"}
        try:
            start = time.perf_counter()
            subprocess.run(
                [*tmux, "new-session", "-d", "-x", "80", "-y", "24", "-c", str(cwd), app], env=env, check=True
            )
            while True:
                screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
                if FIRST_VIEW in screen:
                    seconds = time.perf_counter() - start
                    break
                if time.perf_counter() - start > timeout:
                    raise SystemExit(f"the app on {source} showed no view in {timeout:.0f} s:\n{screen}")
                time.sleep(0.02)
            subprocess.run([*tmux, "send-keys", "q"], check=True)
            end = time.perf_counter() + 60
            while not rss.read().strip() and time.perf_counter() < end:
                time.sleep(0.05)
                rss.seek(0)
            rss.seek(0)
            words = rss.read().split()
        finally:
            subprocess.run([*tmux, "kill-server"], capture_output=True)
        return seconds, int(words[-1]) * 1024 if words and words[-1].isdigit() else 0


def commands(source: Path, kind: str) -> dict[str, list[str]]:
    target = str(source)
    if kind == "parquet":
        scan = f"read_parquet('{target}')"
    else:
        glob = f"{target}/*.dat" if source.is_dir() else target
        scan = f"read_csv('{glob}', header=false, columns={COLUMNS})"
    return {
        "check": [sys.executable, "-m", "tui", "check", target],
        "report json": [sys.executable, "-m", "tui", "report", target, "--format", "json"],
        "duckdb": [sys.executable, "-c", DUCKDB, QUERY.format(source=scan)],
    }


def workloads(sizes: list[str], notes: list[str]) -> dict[str, tuple[Path, str, int]]:
    """name -> (source, kind, bytes as text), the logs written if missing."""
    work: dict[str, tuple[Path, str, int]] = {}
    five = text_log(500) if {"5M", "1000files", "gzip", "parquet"} & set(sizes) else None
    for size in sizes:
        if size == "1M":
            p = text_log(100)
            work["1M lines"] = (p, "text", p.stat().st_size)
        elif size == "5M":
            work["5M lines"] = (five, "text", five.stat().st_size)  # type: ignore[union-attr]
        elif size == "20M":
            p = text_log(2000)
            work["20M lines"] = (p, "text", p.stat().st_size)
        elif size == "1000files":
            work["1,000 files x 5,000 lines"] = (files_log(five), "text", five.stat().st_size)  # type: ignore[arg-type]
        elif size == "gzip":
            g = gzip_log(five)  # type: ignore[arg-type]
            work["5M lines gzip"] = (g, "text", five.stat().st_size)  # type: ignore[union-attr]
            notes.append(f"gzip: {g.stat().st_size / 1e6:.1f} MB compressed")
        elif size == "parquet":
            pq, seconds = parquet_log(five)  # type: ignore[arg-type]
            work["5M lines parquet"] = (pq, "parquet", five.stat().st_size)  # type: ignore[union-attr]
            notes.append(f"rankboard convert 5M -> Parquet: {seconds:.2f} s once, {pq.stat().st_size / 1e6:.1f} MB")
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--sizes", default=DEFAULT, help=f"comma-separated, of {', '.join(SIZES)} (default {DEFAULT})")
    parser.add_argument("--before", metavar="REV", help="also run the tree of git revision REV, interleaved")
    parser.add_argument("--no-app", action="store_true", help="leave out the app's first view (needs tmux)")
    parser.add_argument("--startup-reps", type=int, default=7, help="fresh processes per start-up command (default 7)")
    args = parser.parse_args()
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    unknown = set(sizes) - set(SIZES)
    if unknown:
        parser.error(f"unknown size(s) {', '.join(sorted(unknown))}")
    if not args.no_app and not shutil.which("tmux"):
        parser.error("the app's first view needs tmux (or give --no-app)")
    notes: list[str] = []
    work = workloads(sizes, notes)
    ours = ("check", "report json") if args.no_app else COMMANDS
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT}
        if args.before:
            trees[args.before] = export(args.before, "stats", "tui", "sample_logs", into=Path(tmp))
        for cwd in trees.values():  # as installed: byte-compiled (see the module docstring)
            subprocess.run([sys.executable, "-m", "compileall", "-q", "stats", "tui"], cwd=cwd, check=True)
        for source, kind, _ in work.values():  # warm the file cache and the imports
            run(commands(source, kind)["duckdb"])
        times: dict[tuple[str, str, str], list[float]] = {}  # (tree, work, command) -> seconds
        peaks: dict[tuple[str, str, str], list[int]] = {}
        for rep in range(args.reps):
            for name, (source, kind, _) in work.items():
                argvs = commands(source, kind)
                for tree, cwd in trees.items():
                    for command in ours:
                        if command == "app":
                            seconds, peak = first_view(source, cwd)
                        else:
                            seconds, peak = run(argvs[command], cwd)
                        times.setdefault((tree, name, command), []).append(seconds)
                        peaks.setdefault((tree, name, command), []).append(peak)
                seconds, peak = run(argvs["duckdb"])
                times.setdefault(("duckdb", name, "duckdb"), []).append(seconds)
                peaks.setdefault(("duckdb", name, "duckdb"), []).append(peak)
            for floor, argv in FLOORS.items():
                seconds, peak = run(argv)
                times.setdefault(("floor", "", floor), []).append(seconds)
                peaks.setdefault(("floor", "", floor), []).append(peak)
            print(f"round {rep + 1} of {args.reps} done", file=sys.stderr, flush=True)
        startup: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.startup_reps):
            for command, argv in STARTUP.items():
                for tree, cwd in trees.items():
                    seconds, _ = run([sys.executable, "-m", "tui", *argv], cwd)
                    startup.setdefault((tree, command), []).append(seconds)
    report(args, work, trees, ours, times, peaks, startup, notes)


def report(args, work, trees, ours, times, peaks, startup, notes) -> None:  # noqa: ANN001, PLR0913
    """Print the tables and which goals are met (this tree's figures)."""
    med = {key: statistics.median(v) for key, v in times.items()}
    print(f"medians of {args.reps} rounds, whole processes, interleaved; ratio = rankboard / DuckDB of the same rounds")
    print(f"{'work':28s} {'tree':10s} " + " ".join(f"{c:>15s}" for c in ours) + f" {'duckdb':>8s}")
    failed: list[str] = []
    for name in work:
        duck = med[("duckdb", name, "duckdb")]
        for tree in trees:
            cells = [f"{med[(tree, name, c)]:6.2f} s ({med[(tree, name, c)] / duck:4.2f}x)" for c in ours]
            print(f"{name:28s} {tree:10s} " + " ".join(f"{c:>15s}" for c in cells) + f" {duck:6.2f} s")
            if tree == "this tree":
                failed += [
                    f"{name} {c} {med[(tree, name, c)] / duck:.2f}x"
                    for c in ours
                    if c != "app"
                    if med[(tree, name, c)] > duck
                ]
                if "app" in ours and name == "5M lines" and med[(tree, name, "app")] > duck + 0.5:
                    view = med[(tree, name, "app")]
                    failed.append(f"5M first view {view:.2f} s > DuckDB + 0.5 s = {duck + 0.5:.2f} s")
    print("\npeak RSS (max over rounds), MB and x the log's size as text")
    print(f"{'work':28s} {'tree':10s} " + " ".join(f"{c:>15s}" for c in ours) + f" {'duckdb':>15s}")
    for name, (_, _, nbytes) in work.items():
        for tree in trees:
            cols = [(tree, name, c) for c in ours] + [("duckdb", name, "duckdb")]
            cells = [f"{max(peaks[k]) / 1e6:,.0f} MB ({max(peaks[k]) / nbytes:.2f}x)" for k in cols]
            print(f"{name:28s} {tree:10s} " + " ".join(f"{c:>15s}" for c in cells))
            if tree == "this tree":
                failed += [
                    f"{name} {c} RSS {max(peaks[(tree, name, c)]) / nbytes:.2f}x"
                    for c in ("check",)
                    if max(peaks[(tree, name, c)]) > 1.5 * nbytes
                ]
    floors = {f: med[("floor", "", f)] for f in FLOORS}
    print(f"\nimport floors, medians of {args.reps} fresh processes (peak RSS): the least a command can take")
    for floor in FLOORS:
        print(f"{floor:14s} {floors[floor]:6.2f} s  {max(peaks[('floor', '', floor)]) / 1e6:6.0f} MB")
    print(f"{'work':28s} {'floor check / DuckDB':>22s} {'floor report / DuckDB':>22s} {'1.5 x text':>11s}")
    for name, (_, _, nbytes) in work.items():
        duck = med[("duckdb", name, "duckdb")]
        cells = [f"{floors[f] / duck:.2f}x" for f in ("floor check", "floor report")]
        print(f"{name:28s} {cells[0]:>22s} {cells[1]:>22s} {1.5 * nbytes / 1e6:8.0f} MB")
    print(f"\nstart-up, medians of {args.startup_reps} fresh processes")
    print(f"{'command':14s} " + " ".join(f"{t:>10s}" for t in trees))
    for command in STARTUP:
        print(f"{command:14s} " + " ".join(f"{statistics.median(startup[(t, command)]):9.3f}s" for t in trees))
    goals = {"--help": 0.3, "check TINY": 0.6}
    failed += [
        f"{c} {statistics.median(startup[('this tree', c)]):.3f} s > {g} s"
        for c, g in goals.items()
        if statistics.median(startup[("this tree", c)]) > g
    ]
    for note in notes:
        print(note)
    print(
        "\ngoals (issue 17): every ratio to DuckDB <= 1.0 (check, report json), peak RSS of check <= 1.5 x the "
        "log's size as text, --help <= 0.3 s, check TINY <= 0.6 s, first view of 5M lines <= DuckDB + 0.5 s"
    )
    print("this tree: all met" if not failed else "this tree, not met: " + "; ".join(failed))


if __name__ == "__main__":
    main()
