"""Hostile columnar inputs (issue 30, items 3-6): Arrow bombs refused before they are decoded, a
shared dictionary judged once, text never taken for Parquet or Arrow by its first data set's
name, and a duplicate column one problem of its file while the other files load.

Every bomb is built here from a few constant buffers, compressed by pyarrow's own writers; the
reading runs in a child process under a memory limit (``RLIMIT_AS``) a little above what it has
once warmed up, well below what decoding the bomb takes: reading that decodes before it refuses
fails there (a ``malloc`` refused), instead of exhausting the machine.
"""

from __future__ import annotations

import importlib
import io
import json
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from stats import LogWatcher, log_size, read_logs
from tui.cli import main
from tui.model import Loader

ROOT = Path(__file__).resolve().parents[1]
LONG = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
#: Address space the child may take beyond what it holds once warmed up (decoding each bomb
#: takes more than twice this: 4 x 64 MB of columns, 128 MB of offsets, a 128 MB name).
MARGIN = 96 << 20
#: The child: imports and thread pools made (a small legit file read), then the limit, then the bomb.
CHILD = """
import json, resource, sys
import pandas  # read_logs imports it in a thread: imported before the limit
from stats import read_logs
small, bomb, margin = sys.argv[1], sys.argv[2], int(sys.argv[3])
read_logs(small, on_error="skip")
with open("/proc/self/statm") as f:
    held = int(f.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (held + margin, held + margin))
log = read_logs(bomb, on_error="skip")
print(json.dumps({"rows": len(log), "problems": [[p.file, p.line, p.severity, p.reason] for p in log.problems]}))
"""


def _write_ipc(path: Path, batch: pa.RecordBatch, kind: str) -> Path:
    """``batch`` as an Arrow IPC file (Feather v2, lz4: pyarrow's Feather default) or stream (zstd)."""
    options = pa.ipc.IpcWriteOptions(compression="lz4" if kind == "file" else "zstd")
    opener = pa.ipc.new_file if kind == "file" else pa.ipc.new_stream
    with pa.OSFile(str(path), "wb") as f, opener(f, batch.schema, options=options) as writer:
        writer.write_batch(batch)
    return path


def _constant(n: int, byte: int) -> pa.Array:
    """``n`` int8 values all ``byte``, one buffer (no Python list of ``n`` items)."""
    return pa.Array.from_buffers(pa.int8(), n, [None, pa.py_buffer(bytes([byte]) * n)])


def _rows_bomb(n: int) -> tuple[pa.RecordBatch, str]:
    """``n`` dictionary-encoded rows, every one the same result (the issue's Feather bomb)."""
    index, one = _constant(n, 0), _constant(n, 1)

    def names(value: str) -> pa.Array:
        return pa.DictionaryArray.from_arrays(index, pa.array([value]))

    batch = pa.record_batch([names("d"), one, one, names("nb"), names("acc"), one], names=LONG)
    return batch, f"declares {n:,} rows"


def _dictionary_bomb(n: int) -> tuple[pa.RecordBatch, str]:
    """One row whose learner's dictionary holds ``n`` (empty) entries."""
    entries = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(bytes(4 * (n + 1))), pa.py_buffer(b"")])
    learner = pa.DictionaryArray.from_arrays(pa.array([0], pa.int32()), entries)
    batch = pa.record_batch(
        [pa.array(["d"]), pa.array([1]), pa.array([1]), learner, pa.array(["acc"]), pa.array([0.5])], names=LONG
    )
    return batch, f"and {n:,} dictionary entries"


def _long_name_bomb(n: int) -> tuple[pa.RecordBatch, str]:
    """One row whose learner's name is ``n`` NUL characters: one row, ``n`` bytes once decompressed."""
    offsets = pa.py_buffer(np.array([0, n], np.int32).tobytes())
    learner = pa.Array.from_buffers(pa.string(), 1, [None, offsets, pa.py_buffer(bytes(n))])
    batch = pa.record_batch(
        [pa.array(["d"]), pa.array([1]), pa.array([1]), learner, pa.array(["acc"]), pa.array([0.5])], names=LONG
    )
    return batch, "bytes once decompressed"


BOMBS: dict[str, Callable[[], tuple[pa.RecordBatch, str]]] = {
    "rows": lambda: _rows_bomb(64_000_000),
    "dictionary": lambda: _dictionary_bomb(32_000_000),
    "long name": lambda: _long_name_bomb(128 << 20),
}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child reads /proc/self/statm")
@pytest.mark.parametrize("kind", ["file", "stream"])
@pytest.mark.parametrize("bomb", sorted(BOMBS))
def test_an_arrow_bomb_is_refused_before_it_is_decoded(tmp_path: Path, kind: str, bomb: str) -> None:
    """Before: a 185 KB Feather or stream file declaring 100,000,000 dictionary-encoded rows was
    decoded whole (2.8 GB for 8-18 s) and refused after; here the child, limited to 96 MB more
    than it holds, is refused a malloc on the old reader."""
    batch, declared = BOMBS[bomb]()
    path = _write_ipc(tmp_path / f"bomb.{'feather' if kind == 'file' else 'arrows'}", batch, kind)
    del batch
    assert path.stat().st_size < 2 << 20  # a bomb: 4 kB to 1.6 MB (lz4 compresses 255:1 at most)
    [(file, line, severity, reason)] = _read_in_child(tmp_path, path)
    assert (file, line, severity) == (str(path), None, "error")
    assert declared in reason and "a Parquet/Arrow bomb? not read" in reason


def _read_in_child(tmp_path: Path, path: Path) -> list[list]:
    """The problems of reading ``path`` in the child (no result read), which must exit cleanly."""
    small = tmp_path / "small.feather"
    feather.write_feather(pa.table({c: [v] for c, v in zip(LONG, ["a", 1, 1, "nb", "acc", 0.5])}), small)
    env = {"MALLOC_ARENA_MAX": "2", "ARROW_DEFAULT_MEMORY_POOL": "system", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(small), str(path), str(MARGIN)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    got = json.loads(done.stdout)
    assert got["rows"] == 0
    return got["problems"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child reads /proc/self/statm")
@pytest.mark.parametrize("kind", ["file", "stream"])
def test_a_forged_offset_is_a_corrupt_file_not_a_crash(tmp_path: Path, kind: str) -> None:
    """Offsets that go back (``0, 3, 1``) pass pyarrow's IPC reader, which checks only the
    buffers' sizes; the reader's dictionary encoding of the column then crashed the process
    (a segfault, found by flipping bytes of Feather files). In a child, as it would kill pytest."""
    offsets = pa.py_buffer(np.array([0, 3, 1], np.int32).tobytes())
    learner = pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(b"abc")])
    columns = [pa.array(["d", "e"]), pa.array([1, 1]), pa.array([1, 1]), learner, pa.array(["acc"] * 2)]
    batch = pa.record_batch([*columns, pa.array([0.5, 0.5])], names=LONG)
    path = _write_ipc(tmp_path / f"forged.{kind}", batch, kind)
    [(file, line, severity, reason)] = _read_in_child(tmp_path, path)
    assert (file, line, severity) == (str(path), None, "error")
    assert "truncated or corrupt?" in reason and "non-monotonic offset" in reason


def _shared_dictionary_file(path: Path, names: pa.Array, batches: int, rows: int, kind: str) -> list[str]:
    """An Arrow file or stream of ``batches`` batches of ``rows`` rows whose data set column
    shares the dictionary ``names`` (a stream: sent in deltas, a slice more before each batch);
    returns the data set of each row."""
    step = len(names) // batches
    options = pa.ipc.IpcWriteOptions(emit_dictionary_deltas=True)
    opener = pa.ipc.new_file if kind == "file" else pa.ipc.new_stream
    expected: list[str] = []
    with pa.OSFile(str(path), "wb") as f:
        writer = None
        for b in range(batches):
            codes = np.arange(b * step, b * step + rows, dtype=np.int32)  # within the first (b + 1) * step
            dictionary = names if kind == "file" else names.slice(0, (b + 1) * step)
            dataset = pa.DictionaryArray.from_arrays(pa.array(codes), dictionary)
            n = len(codes)
            batch = pa.record_batch(
                [dataset, pa.array([1] * n), pa.array(np.arange(1, n + 1)), pa.array(["nb"] * n)]
                + [pa.array(["acc"] * n), pa.array(np.full(n, 0.5))],
                names=LONG,
            )
            if writer is None:
                writer = opener(f, batch.schema, options=options)
            writer.write_batch(batch)
            expected += [names[int(c)].as_py() for c in codes]
        assert writer is not None
        writer.close()
    return expected


@pytest.mark.parametrize(("kind", "n_names", "batches"), [("file", 200_000, 1000), ("stream", 50_000, 100)])
def test_a_shared_dictionary_is_judged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, n_names: int, batches: int
) -> None:
    """Before: 200,000 names in 1,000 batches of 10 rows (a 4 MB file) took 178 s in ``check``,
    every name judged again for every batch. Each name is judged once here (a stream's delta
    dictionaries: only the new entries), counted where the reader judges names: the old reader
    fails at the first name judged twice."""
    names = pa.array([f"dataset-{i:06d}" for i in range(n_names)])
    path = tmp_path / f"shared.{'arrow' if kind == 'file' else 'arrows'}"
    expected = _shared_dictionary_file(path, names, batches, 10, kind)
    judged = 0
    for module_name in ("stats.logs._columnar", "stats.logs._dictionaries"):  # before and after
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if hasattr(module, "parse_field"):
            real = module.parse_field

            def counting(text: str, *args: object, real: Callable[..., object] = real) -> object:
                nonlocal judged
                if text.startswith("dataset-"):
                    judged += 1
                    assert judged <= len(names), "a name judged again"
                return real(text, *args)

            monkeypatch.setattr(module, "parse_field", counting)
    log = read_logs(path, on_error="skip")
    assert not log.problems
    assert log.table["dataset"].astype(str).tolist() == expected
    assert judged == len(names)


MAGIC_NAMES = ["PAR1_cohort", "PAR1", "ARROW1", "ARROW1_batch", "ARRO"]


def _text_log(path: Path, first: str) -> str:
    text = f"{first},1,1,nb,acc,0.5\n{first},1,1,tree,acc,0.25\niris,1,1,nb,acc,0.75\n"
    path.write_text(text)
    return text


@pytest.mark.parametrize("first", MAGIC_NAMES)
def test_a_text_log_named_like_a_magic_is_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str) -> None:
    """Before: a text log whose first data set is ``PAR1_cohort`` (or starts ``ARROW1``) was
    refused as an unreadable Parquet (Arrow) file, and sized as ten times its bytes."""
    path = tmp_path / "results.dat"
    text = _text_log(path, first)
    log = read_logs(path, on_error="skip")
    assert not log.problems
    assert log.table["dataset"].astype(str).tolist() == [first, first, "iris"]
    assert log_size(path) == len(text)
    assert main(["check", str(path)]) == 0
    assert "3 lines: 2 data sets" in capsys.readouterr().out


@pytest.mark.parametrize("first", [n for n in MAGIC_NAMES if n != "ARRO"])  # ARRO: was sized as Arrow only
def test_standard_input_named_like_a_magic_is_text(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, first: str) -> None:
    text = _text_log(tmp_path / "x.dat", first)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(text.encode()))))
    log = read_logs("-", on_error="skip")
    assert not log.problems and len(log) == 3


def test_a_watched_text_log_named_like_parquet_is_followed_by_appends(tmp_path: Path) -> None:
    """The watcher reads a columnar file whole at each change; a text log is followed by its
    appended lines, whatever its first data set is called."""
    path = tmp_path / "live.dat"
    _text_log(path, "PAR1_cohort")
    watcher = LogWatcher(path)
    first = watcher.poll()
    assert not first.problems and len(first.rows) == 3
    with path.open("a") as f:
        f.write("PAR1_cohort,1,2,nb,acc,0.5\n")
    update = watcher.poll()
    assert update.reloaded == [] and not update.problems
    assert update.rows["line"].tolist() == [4]


def test_bytes_that_only_start_like_an_arrow_stream_are_text(tmp_path: Path) -> None:
    """``FF FF FF FF`` then no schema message: a text log with a bad first line, not a stream."""
    path = tmp_path / "ff.dat"
    path.write_bytes(b"\xff\xff\xff\xffx,1,1,nb,acc,0.5\niris,1,1,nb,acc,0.5\n")
    log = read_logs(path, on_error="skip")
    assert [(p.line, p.severity) for p in log.problems] == [(1, "error")]
    assert log.table["dataset"].astype(str).tolist() == ["iris"]


def _write_duplicate(path: Path, names: list[str], kind: str) -> None:
    columns = [pa.array(["d"]), pa.array([1]), pa.array([1]), pa.array(["nb"]), pa.array(["acc"])]
    columns += [pa.array([0.5])] * (len(names) - len(columns))
    table = pa.table(columns, names=names)
    if kind == "parquet":
        pq.write_table(table, path)
    elif kind == "feather":
        feather.write_feather(table, path)
    else:
        with pa.OSFile(str(path), "wb") as f, pa.ipc.new_stream(f, table.schema) as w:
            w.write_table(table)


DUPLICATES = [
    ([*LONG, "value"], "column 'value' appears 2 times: which one to read is unclear"),
    (
        [*LONG[:5], "Value", "value"],
        "columns 'Value', 'value' all name the 'value' column: which one to read is unclear",
    ),
]


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.dat"
    path.write_text("iris,1,1,nb,acc,0.5\niris,1,1,tree,acc,0.25\nwine,1,1,nb,acc,0.75\nwine,1,1,tree,acc,0.5\n")
    return path


@pytest.mark.parametrize("kind", ["parquet", "feather", "stream"])
@pytest.mark.parametrize(("names", "reason"), DUPLICATES)
def test_a_duplicate_column_is_one_problem_and_the_other_files_load(
    tmp_path: Path, good: Path, kind: str, names: list[str], reason: str
) -> None:
    """Before: a KeyError traceback, and nothing loaded, the good file included."""
    path = tmp_path / f"dup.{kind}"
    _write_duplicate(path, names, kind)
    log = read_logs(path, good, on_error="skip")
    assert [(p.file, p.line, p.severity, p.reason) for p in log.problems] == [(str(path), None, "error", reason)]
    assert log.table["dataset"].astype(str).tolist() == ["iris", "iris", "wine", "wine"]


def test_a_duplicate_column_in_check_report_and_convert(
    tmp_path: Path, good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "dup.parquet"
    _write_duplicate(path, DUPLICATES[0][0], "parquet")
    problem = f"{path}: {DUPLICATES[0][1]}"
    assert main(["check", str(path), str(good)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == problem and "4 lines: 2 data sets, 2 learners" in out
    assert main(["report", str(path), str(good), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert problem in err.splitlines()
    assert json.loads(out)  # the good file's report
    target = tmp_path / "out.parquet"
    assert main(["convert", str(path), str(good), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert problem in err.splitlines() and "Traceback" not in err
    assert not target.exists()


@pytest.mark.parametrize("memory", [None, "1K"])
def test_a_duplicate_column_in_the_apps_loader(tmp_path: Path, good: Path, memory: str | None) -> None:
    """The app's loader (and its bounded mode, by blocks): the good file's results, the bad
    file's one problem."""
    path = tmp_path / "dup.feather"
    _write_duplicate(path, DUPLICATES[1][0], "feather")
    result = Loader([str(path), str(good)], memory=memory).load(reload=True)
    assert result is not None and result.lines == 4
    assert any(str(path) in p and DUPLICATES[1][1] in p for p in result.problems)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child reads /proc/self/statm")
def test_a_negative_length_is_a_corrupt_file_not_a_traceback(tmp_path: Path) -> None:
    """A dictionary whose field node says -2 entries (found by flipping bytes of a stream): pyarrow
    made an array of negative length, and the reader died on it (IndexError, SystemError)."""
    learner = pa.DictionaryArray.from_arrays(pa.array([0, 6], pa.int32()), pa.array([f"l{i}" for i in range(7)]))
    columns = [pa.array(["d", "e"]), pa.array([1, 1]), pa.array([1, 1]), learner, pa.array(["acc"] * 2)]
    batch = pa.record_batch([*columns, pa.array([0.5, 0.5])], names=LONG)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    data = sink.getvalue().to_pybytes()
    node = struct.pack("<qq", 7, 0)  # the dictionary's field node: 7 entries, no null
    assert data.count(node) == 1
    path = tmp_path / "negative.arrows"
    path.write_bytes(data.replace(node, struct.pack("<qq", -2, 0)))
    [(file, line, severity, reason)] = _read_in_child(tmp_path, path)
    assert (file, line, severity) == (str(path), None, "error")
    assert "truncated or corrupt?" in reason and "negative length" in reason
