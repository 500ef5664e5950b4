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

Open in a blink (issue 32), ``--blink-reps`` interleaved rounds, medians (``--no-blink`` leaves it out):

- the first view of the bundled logs (``python -m tui sample_logs/cv``, 6,250 lines, as the app
  opens without a path) in tmux, as above, against the first frame of a bare Textual app (a
  ``Static`` and a ``Footer``, its text polled the same way): goal <= 2.5x;
- ``report TINY6 --format json`` (every view) and ``report TINY6 --view ranks --format json`` on a
  6-line log (2 data sets x 3 learners, written under ``/tmp/rankboard_bench``) against a bare
  ``python -c pass``, with peak RSS: goal within 0.6 s of bare Python and under 120 MB;
- what each import costs alone (a fresh ``python -c "import X"`` minus bare Python, its peak RSS):
  numpy, pyarrow.csv, pandas, scipy.special, scipy.stats, textual.app; ``scipy.special`` again as
  the ``rankboard`` command imports it (numpy.f2py and numpy.testing deferred, ``tui.numpy_tools``);
  and together what ``report`` imports on a text log (numpy, pyarrow.csv, pandas, scipy.special,
  deferred likewise): the floor under the report of a tiny log.

Both trees are byte-compiled first (``compileall``), as ``pip install`` leaves an installed
rankboard: this environment sets ``PYTHONDONTWRITEBYTECODE``, so without it every process would
compile rankboard's modules again (0.1-0.15 s each, a cost no installed copy pays).

Import floors (``floor ...``): a fresh ``python -c`` that only imports what a command needs
before it reads a byte of a text log: numpy and pyarrow (csv, compute) for ``check`` (it imports no
pandas), and also pandas and ``scipy.special`` (numpy's f2py and testing deferred, as the command
does) for ``report`` (``scipy.stats`` only for the tests
view's parametric notice and the other views of a table of 3 data sets or more); and ``import
duckdb`` for DuckDB.
Measured in the same rounds, they are the least any command of this design can take: a ratio to
DuckDB above 1.0 for a floor means the goal cannot be met by reading or computing faster, only by
importing less.

``--before REV`` runs every command also on the tree of git revision REV (``stats``, ``tui`` and
``sample_logs`` extracted with ``git archive`` into a temporary directory; ``python -m tui`` from
there), interleaved with this tree's in the same rounds, and prints both, each against the DuckDB
runs of the same rounds.

    python benchmarks/bench_cli.py [--reps 3] [--sizes 1M,5M,1000files,gzip,parquet[,20M] | none]
                                   [--before REV] [--no-app] [--startup-reps 7]
                                   [--blink-reps 7] [--no-blink]

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
#: What the rankboard command does first (tui.numpy_tools): numpy.f2py and numpy.testing, which scipy's
#: array-API layer imports with scipy.special, load on first use (issue 32).
_DEFERRED = "from tui.numpy_tools import defer_numpy_tools; defer_numpy_tools(); "
#: What each command imports before it can read (see the module docstring), as fresh processes.
FLOORS = {
    "floor check": [sys.executable, "-c", _READ_IMPORTS],
    "floor report": [sys.executable, "-c", _DEFERRED + _READ_IMPORTS + ", pandas, scipy.special"],
    "floor duckdb": [sys.executable, "-c", "import duckdb"],
}
#: A bare Textual app: its first frame is the floor of the app's first view (issue 32).
BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Static


class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Static("a bare first frame")
        yield Footer()


Bare().run()
"""
BARE_FRAME = "a bare first frame"
#: The 6-line log of issue 32's report goal: 2 data sets x 3 learners, one fold each.
TINY6 = "".join(
    f"{d},1,1,{learner},acc,{v}\n"
    for d, row in (("d1", (0.81, 0.79, 0.75)), ("d2", (0.66, 0.71, 0.62)))
    for learner, v in zip("ABC", row)
)
#: What each import costs alone: fresh processes, less bare Python (issue 32, item 2). "deferred":
#: after :data:`_DEFERRED`, as the rankboard command imports them.
IMPORTS = {
    "numpy": "import numpy",
    "pyarrow.csv": "import pyarrow.csv",
    "pandas": "import pandas",
    "scipy.special": "import scipy.special",
    "scipy.special deferred": _DEFERRED + "import scipy.special",
    "scipy.stats": "import scipy.stats",
    "textual.app": "import textual.app",
    "report's (text log)": _DEFERRED + "import numpy, pyarrow.csv, pyarrow.compute, pandas, scipy.special",
}
#: Issue 32's goals: the first view within this many times a bare Textual app's first frame;
#: report of the 6-line log within this many seconds of bare Python, under this peak RSS.
BLINK_RATIO, TINY_EXTRA, TINY_RSS = 2.5, 0.6, 120e6


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
    return first_frame(f"{sys.executable} -m tui {source}", FIRST_VIEW, cwd, timeout)


_SESSIONS = iter(range(1 << 30))


def first_frame(command: str, marker: str, cwd: Path, timeout: float = 600.0) -> tuple[float, int]:
    """Seconds from launching ``command`` in tmux (80 x 24, NO_COLOR) to the first capture of its
    pane showing ``marker``, then ``q``; and its peak RSS (bytes, up to its exit). Each launch has a
    server socket of its own (one killed just before could still hold the name)."""
    sock = f"bench_cli_{os.getpid()}_{next(_SESSIONS)}"
    tmux = ["tmux", "-L", sock]
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        app = f"{TIME} -f %M -o {rss.name} {command}"
        env = {**os.environ, "NO_COLOR": "1"}
        try:
            start = time.perf_counter()
            subprocess.run(
                [*tmux, "new-session", "-d", "-x", "80", "-y", "24", "-c", str(cwd), app], env=env, check=True
            )
            while True:
                screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
                if marker in screen:
                    seconds = time.perf_counter() - start
                    break
                if time.perf_counter() - start > timeout:
                    raise SystemExit(f"{command} showed no {marker!r} in {timeout:.0f} s:\n{screen}")
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


def blink(trees: dict[str, Path], reps: int, app: bool) -> dict[tuple[str, str], list[tuple[float, int]]]:
    """Issue 32's rounds, interleaved: (tree or "bare", what) -> [(seconds, peak RSS bytes)]."""
    DIR.mkdir(parents=True, exist_ok=True)
    tiny = DIR / "tiny6.dat"
    tiny.write_text(TINY6)
    bare_app = DIR / "bare_textual_app.py"
    bare_app.write_text(BARE_APP)
    reports = {
        "report json TINY6": ["report", str(tiny), "--format", "json"],
        "report ranks TINY6": ["report", str(tiny), "--view", "ranks", "--format", "json"],
    }
    out: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for rep in range(reps):
        out.setdefault(("bare", "python"), []).append(run([sys.executable, "-c", "pass"]))
        for name, modules in IMPORTS.items():
            out.setdefault(("import", name), []).append(run([sys.executable, "-c", modules]))
        if app:
            out.setdefault(("bare", "textual"), []).append(
                first_frame(f"{sys.executable} {bare_app}", BARE_FRAME, ROOT)
            )
        for tree, cwd in trees.items():
            if app:
                out.setdefault((tree, "first view"), []).append(first_view(Path("sample_logs") / "cv", cwd))
            for name, argv in reports.items():
                out.setdefault((tree, name), []).append(run([sys.executable, "-m", "tui", *argv], cwd))
        print(f"blink round {rep + 1} of {reps} done", file=sys.stderr, flush=True)
    return out


def report_blink(runs: dict[tuple[str, str], list[tuple[float, int]]], trees: dict[str, Path], reps: int) -> list[str]:
    """Print issue 32's figures; the goals this tree misses."""
    med = {key: statistics.median(s for s, _ in v) for key, v in runs.items()}
    peak = {key: max(p for _, p in v) for key, v in runs.items()}
    failed: list[str] = []
    print(f"\nopen in a blink (issue 32): medians of {reps} interleaved rounds, whole processes")
    if ("bare", "textual") in med:
        bare = med[("bare", "textual")]
        print(f"{'bare Textual app, first frame':44s} {bare:6.2f} s")
        for tree in trees:
            view = med[(tree, "first view")]
            print(f"{'first view of sample_logs/cv, ' + tree:44s} {view:6.2f} s  {view / bare:5.2f}x the bare app")
            if tree == "this tree" and view > BLINK_RATIO * bare:
                failed.append(f"first view {view / bare:.2f}x a bare Textual app > {BLINK_RATIO}x")
    python = med[("bare", "python")]
    print(f"{'bare python -c pass':44s} {python:6.2f} s  {peak[('bare', 'python')] / 1e6:6.0f} MB")
    for name in ("report json TINY6", "report ranks TINY6"):
        for tree in trees:
            t, rss = med[(tree, name)], peak[(tree, name)]
            print(f"{name + ', ' + tree:44s} {t:6.2f} s  {rss / 1e6:6.0f} MB  (+{t - python:.2f} s over bare Python)")
            if tree == "this tree" and name == "report json TINY6":
                if t - python > TINY_EXTRA:
                    failed.append(f"report json TINY6 +{t - python:.2f} s over bare Python > {TINY_EXTRA} s")
                if rss > TINY_RSS:
                    failed.append(f"report json TINY6 peak RSS {rss / 1e6:.0f} MB > {TINY_RSS / 1e6:.0f} MB")
    tiny = med[("this tree", "report json TINY6")] - python
    pandas, floor = (med[("import", name)] - python for name in ("pandas", "report's (text log)"))
    print(
        f"of report json TINY6's {tiny:.2f} s over bare Python (this tree), importing pandas takes {pandas:.2f} s "
        f"({peak[('import', 'pandas')] / 1e6:.0f} MB peak) and all the report's imports {floor:.2f} s"
    )
    print("each import alone (a fresh process, less bare Python; its peak RSS):")
    for name, modules in IMPORTS.items():
        t = med[("import", name)] - python
        print(f"  {name:22s} {t:6.2f} s  {peak[('import', name)] / 1e6:6.0f} MB   ({modules.split('; ')[-1]})")
    print(
        f"goals (issue 32): first view <= {BLINK_RATIO}x a bare Textual app's first frame; report json of a "
        f"6-line log <= bare Python + {TINY_EXTRA} s and <= {TINY_RSS / 1e6:.0f} MB peak RSS"
    )
    return failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--sizes", default=DEFAULT, help=f"comma-separated, of {', '.join(SIZES)} (default {DEFAULT})")
    parser.add_argument("--before", metavar="REV", help="also run the tree of git revision REV, interleaved")
    parser.add_argument("--no-app", action="store_true", help="leave out the app's first view (needs tmux)")
    parser.add_argument("--startup-reps", type=int, default=7, help="fresh processes per start-up command (default 7)")
    parser.add_argument("--blink-reps", type=int, default=7, help="rounds of issue 32's figures (default 7)")
    parser.add_argument("--no-blink", action="store_true", help="leave out issue 32's figures (first view, tiny log)")
    args = parser.parse_args()
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip() and s.strip() != "none"]
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
        blinks = {} if args.no_blink else blink(trees, args.blink_reps, not args.no_app)
    failed = report(args, work, trees, ours, times, peaks, startup, notes)
    if blinks:
        failed += report_blink(blinks, trees, args.blink_reps)
    print("this tree: all met" if not failed else "this tree, not met: " + "; ".join(failed))


def report(args, work, trees, ours, times, peaks, startup, notes) -> list[str]:  # noqa: ANN001, PLR0913
    """Print the tables; the goals of issue 17 this tree misses."""
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
    return failed


if __name__ == "__main__":
    main()
