"""Whole processes (issue 17): ``rankboard check``, ``rankboard report --format json`` and a DuckDB
process on the same logs, interleaved round-robin, medians, ratios to DuckDB, peak RSS.

Workloads (the logs are written once under ``/tmp/rankboard_bench`` with
:func:`bench_load.write_log`, seed 000's loop order, 4-decimal values):

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

    python benchmarks/bench_cli.py [--reps 3] [--sizes 1M,5M,1000files,gzip,parquet[,20M]]

duckdb is a benchmark dependency only (``pip install duckdb``).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
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


def run(argv: list[str]) -> tuple[float, int]:
    """Wall time and peak RSS (bytes) of one process (its output discarded).

    The peak is ``/usr/bin/time -f %M``'s: the ``ru_maxrss`` of a child forked by this (large)
    process would start from this process's own peak (Linux keeps the high-water mark across
    fork and exec), so the command is forked by ``time``, a small process.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        proc = subprocess.run(
            [TIME, "-f", "%M", "-o", rss.name, *argv], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(argv[:4])} ... failed ({proc.returncode}): {proc.stderr[-2000:]!r}")
        return elapsed, int(rss.read().split()[-1]) * 1024


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--sizes", default=DEFAULT, help=f"comma-separated, of {', '.join(SIZES)} (default {DEFAULT})")
    args = parser.parse_args()
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    unknown = set(sizes) - set(SIZES)
    if unknown:
        parser.error(f"unknown size(s) {', '.join(sorted(unknown))}")
    work: dict[str, tuple[Path, str, int]] = {}  # name -> (source, kind, bytes as text)
    notes = []
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
    for source, kind, _ in work.values():  # warm the file cache and the imports
        run(commands(source, kind)["duckdb"])
    times: dict[tuple[str, str], list[float]] = {}
    peaks: dict[tuple[str, str], list[int]] = {}
    for rep in range(args.reps):
        for name, (source, kind, _) in work.items():
            for command, argv in commands(source, kind).items():
                seconds, peak = run(argv)
                times.setdefault((name, command), []).append(seconds)
                peaks.setdefault((name, command), []).append(peak)
        print(f"round {rep + 1} of {args.reps} done", file=sys.stderr, flush=True)
    print(f"medians of {args.reps} rounds, whole processes, interleaved; ratio = rankboard / DuckDB")
    head = f"{'work':28s} {'text MB':>7s} {'check':>15s} {'report json':>15s} {'duckdb':>8s}"
    print(head + "   peak RSS check / report / duckdb (x the text log's size)")
    for name, (_, _, nbytes) in work.items():
        med = {c: statistics.median(times[(name, c)]) for c in ("check", "report json", "duckdb")}
        rss = {c: max(peaks[(name, c)]) for c in ("check", "report json", "duckdb")}
        cells = [f"{med[c]:6.2f} s ({med[c] / med['duckdb']:4.2f}x)" for c in ("check", "report json")]
        mem = " / ".join(f"{rss[c] / 1e6:,.0f} MB ({rss[c] / nbytes:.2f}x)" for c in rss)
        print(f"{name:28s} {nbytes / 1e6:7.1f} {cells[0]:>15s} {cells[1]:>15s} {med['duckdb']:6.2f} s   {mem}")
    for note in notes:
        print(note)
    print("goals (issue 17): every ratio <= 1.0, peak RSS <= 1.5 x the log's size as text")


if __name__ == "__main__":
    main()
