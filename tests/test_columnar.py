"""Parquet and Arrow IPC logs (issue 17, item 4): read as the text logs are, found by magic bytes.

Every table is built here with pyarrow from rows written in the test; the expected frame is the
text reader's reading of the same rows written as a text log (an independent path: pyarrow's CSV
parser and the line judge), or the rows themselves.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from stats import Decompression, LogWatcher, read_logs
from stats.logs._formats import LogError

LONG = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
ROWS = [
    ("iris", 1, 1, "nb", "accuracy", 0.9),
    ("iris", 1, 1, "tree", "accuracy", 0.8),
    ("wine", 1, 2, "tree", "accuracy", 0.75),
    ("wine", 1, 2, "nb", "accuracy", 0.5),
    ("iris", 1, 1, "nb", "pd", 0.25),
]


def long_table(rows: list[tuple] = ROWS) -> pa.Table:
    return pa.table({c: [r[i] for r in rows] for i, c in enumerate(LONG)})


def text_of(rows: list[tuple]) -> str:
    return "".join(",".join(str(v) for v in r) + "\n" for r in rows)


def write_stream(table: pa.Table, path: Path) -> Path:
    with pa.OSFile(str(path), "wb") as f, pa.ipc.new_stream(f, table.schema) as w:
        w.write_table(table)
    return path


WRITERS = {
    "parquet": lambda t, p: pq.write_table(t, p),
    "feather": lambda t, p: feather.write_feather(t, p),
    "stream": write_stream,
}


def frames_equal(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_categorical=True)
    for c in ("dataset", "learner", "criterion"):
        assert list(a[c].cat.categories) == list(b[c].cat.categories)


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_long_table_reads_as_the_same_text_log(tmp_path: Path, kind: str) -> None:
    text = tmp_path / "log.dat"
    text.write_text(text_of(ROWS))
    # a name that suggests another format: the magic bytes decide, not the suffix
    columnar = tmp_path / "log.dat.bin"
    WRITERS[kind](long_table(), columnar)
    got, want = read_logs(columnar), read_logs(text)
    frames_equal(got.table, want.table)
    assert got.problems == () and got.lines == len(ROWS) == want.lines


def test_column_names_in_any_case_order_and_types(tmp_path: Path) -> None:
    """Dictionary (categorical) names, int8 / uint16 numbers, float32 values, other column order."""
    t = long_table()
    table = pa.table(
        {
            "Value": pa.array([r[5] for r in ROWS], pa.float32()),
            "LEARNER": pa.array([r[3] for r in ROWS]).dictionary_encode(),
            "criterion": [r[4] for r in ROWS],
            "fold": pa.array([r[2] for r in ROWS], pa.uint16()),
            "repeat": pa.array([r[1] for r in ROWS], pa.int8()),
            "dataset": t["dataset"],
        }
    )
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    got = read_logs(path).table
    assert [tuple(r) for r in got[LONG].astype(object).itertuples(index=False)] == [
        (d, r, f, lrn, c, float(np.float32(v))) for d, r, f, lrn, c, v in ROWS
    ]
    assert got["repeat"].dtype == np.int64 and got["value"].dtype == np.float64


def test_categories_in_order_of_first_appearance_not_the_dictionary_order(tmp_path: Path) -> None:
    learners = pa.DictionaryArray.from_arrays(pa.array([1, 0, 1, 0, 1], pa.int32()), pa.array(["zz", "aa", "unused"]))
    t = long_table().set_column(3, "learner", learners)
    path = tmp_path / "t.feather"
    feather.write_feather(t, path)
    assert list(read_logs(path).table["learner"].cat.categories) == ["aa", "zz"]


def test_wide_table_reads_as_the_same_wide_text_log(tmp_path: Path) -> None:
    header = "#data, learner, goal, train, test, repeats, bin, accuracy, pd\n"
    lines = [
        ("sonar", "bayes", "Mine", 139, 69, 1, 1, 63.77, 61.29),
        ("sonar", "oneR", None, None, 69, 1, 1, 68.12, 61.9),
        ("sonar", "bayes", "Mine", 139, 69, 1, 2, 60.87, 73.08),
    ]
    text = tmp_path / "w.dat"
    text.write_text(header + "".join(",".join("" if v is None else str(v) for v in r) + "\n" for r in lines))
    names = ["data", "learner", "goal", "train", "test", "repeats", "bin", "accuracy", "pd"]
    table = pa.table({n: [r[i] for r in lines] for i, n in enumerate(names)})
    path = tmp_path / "w.parquet"
    pq.write_table(table, path)
    got, want = read_logs(path), read_logs(text)
    frames_equal(got.table, want.table)
    assert list(got.table["criterion"].cat.categories) == ["accuracy", "pd"]
    assert got.table["train"].isna().sum() == 2  # one line, two criteria


def test_bad_rows_are_errors_named_by_file_and_row_and_left_out(tmp_path: Path) -> None:
    t = pa.table(
        {
            "dataset": ["iris", "iris", None, "wine", "  ", "wine", "wine"],
            "repeat": pa.array([1, 1, 1, None, 1, -1, 1], pa.int64()),
            "fold": [1, 2, 3, 4, 5, 6, 2**31],
            "learner": ["nb"] * 7,
            "criterion": ["acc"] * 7,
            "value": [0.5, float("nan"), 0.5, 0.5, 0.5, 0.5, float("inf")],
        }
    )
    path = tmp_path / "bad.parquet"
    pq.write_table(t, path)
    log = read_logs(path, on_error="skip")
    assert [str(p) for p in log.problems] == [
        f"{path}:2: value nan is not finite",
        f"{path}:3: empty dataset name (null)",
        f"{path}:4: repeat is missing (null)",
        f"{path}:5: empty dataset name",
        f"{path}:6: repeat -1 is negative",
        f"{path}:7: fold 2147483648 is out of range",
    ]
    assert all(p.severity == "error" for p in log.problems)
    assert log.table[LONG].astype(object).values.tolist() == [["iris", 1, 1, "nb", "acc", 0.5]]
    with pytest.raises(LogError, match=r"bad\.parquet:2: value nan is not finite"):
        read_logs(path)


def test_names_are_judged_as_text_fields_and_controls_are_warned_about(tmp_path: Path) -> None:
    rows = [(" iris ", 1, 1, "nb\x1b[31m", "acc", 0.5), ("\ufeffwine", 1, 1, '"nb"', "acc", 0.6)]
    path = tmp_path / "n.parquet"
    pq.write_table(long_table(rows), path)
    text = tmp_path / "n.dat"
    text.write_text(text_of(rows))
    got, want = read_logs(path), read_logs(text)
    frames_equal(got.table, want.table)
    assert list(got.table["dataset"].cat.categories) == ["iris", "wine"]
    reasons = [p.reason for p in got.problems]
    assert reasons == [p.reason for p in want.problems]
    assert any("control characters" in r and "\x1b" not in r for r in reasons)
    assert all(p.severity == "warning" for p in got.problems)


@pytest.mark.parametrize(
    ("columns", "reason"),
    [
        (
            {"dataset": ["a"], "repeat": [1], "fold": [1], "learner": ["b"], "value": [0.5]},
            "missing column(s) criterion",
        ),
        (
            {"dataset": ["a"], "repeat": [1], "fold": [1], "learner": ["b"], "criterion": ["c"], "value": ["0.5"]},
            "column 'value' has type string: it should hold numbers",
        ),
        (
            {"dataset": ["a"], "repeat": [1.0], "fold": [1], "learner": ["b"], "criterion": ["c"], "value": [0.5]},
            "column 'repeat' has type double: it should hold whole numbers",
        ),
        (
            {"dataset": [1], "repeat": [1], "fold": [1], "learner": ["b"], "criterion": ["c"], "value": [0.5]},
            "column 'dataset' has type int64: it should hold text",
        ),
        (
            {"data": ["a"], "learner": ["b"], "repeats": [1], "bin": [1]},
            "the wide table's columns names no criterion column",
        ),
    ],
)
def test_wrong_columns_are_an_error_of_the_file(tmp_path: Path, columns: dict, reason: str) -> None:
    path = tmp_path / "c.parquet"
    pq.write_table(pa.table(columns), path)
    log = read_logs(path, on_error="skip")
    assert [(p.file, p.line, p.severity) for p in log.problems] == [(str(path), None, "error")]
    assert reason in log.problems[0].reason
    assert len(log) == 0


def test_extra_columns_are_a_warning_pandas_index_is_silent(tmp_path: Path) -> None:
    frame = long_table().to_pandas()
    frame["seed"] = 7
    frame.index = frame.index + 10  # a non-default index is written as __index_level_0__
    path = tmp_path / "x.parquet"
    frame.to_parquet(path)
    log = read_logs(path, on_error="skip")
    assert [(p.severity, p.reason) for p in log.problems] == [
        ("warning", "column(s) 'seed' not read (not part of the format)")
    ]
    assert len(log) == len(ROWS)


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_truncated_file_is_an_error_naming_it(tmp_path: Path, kind: str) -> None:
    whole = tmp_path / "whole"
    big = [(f"d{i % 7}", 1, i, "nb", "acc", i / 3) for i in range(3000)]
    WRITERS[kind](long_table(big), whole)
    data = whole.read_bytes()
    cut = tmp_path / f"cut.{kind}"
    cut.write_bytes(data[: len(data) * 2 // 3])
    log = read_logs(cut, on_error="skip")
    errors = [p for p in log.problems if p.severity == "error"]
    assert len(errors) == 1 and errors[0].file == str(cut) and errors[0].line is None
    assert "truncated or corrupt" in errors[0].reason
    with pytest.raises(LogError, match="truncated or corrupt"):
        read_logs(cut)


def test_empty_table_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "e.parquet"
    pq.write_table(long_table([]).cast(long_table().schema), path)
    log = read_logs(path, on_error="skip")
    assert [(p.severity, p.reason) for p in log.problems] == [("warning", "no results in the file")]


def test_a_parquet_bomb_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """One value repeated: run-length encoding stores 200,000 rows in a few kB."""
    n = 200_000
    t = pa.table(
        {
            "dataset": pa.array(["d"] * n).dictionary_encode(),
            "repeat": np.ones(n, np.int32),
            "fold": np.ones(n, np.int32),
            "learner": pa.array(["l"] * n).dictionary_encode(),
            "criterion": pa.array(["c"] * n).dictionary_encode(),
            "value": np.full(n, 0.5),
        }
    )
    path = tmp_path / "bomb.parquet"
    pq.write_table(t, path, compression="zstd")
    size = os.path.getsize(path)
    assert n * 12 > 50 * size  # it is a bomb for a ratio of 50
    limits = Decompression(max_ratio=50, min_bytes=0)
    log = read_logs(path, on_error="skip", decompression=limits)
    assert len(log) == 0
    [problem] = log.problems
    assert problem.severity == "error" and f"declares {n:,} rows in {size:,} bytes" in problem.reason
    # the same file within the default limits (it is under min_bytes as text): read
    assert len(read_logs(path)) == 1  # every row is the same result: the last one wins


def test_duplicates_across_text_and_table_later_wins(tmp_path: Path) -> None:
    text = tmp_path / "a.dat"
    text.write_text(text_of(ROWS[:1]))
    path = tmp_path / "b.parquet"
    pq.write_table(long_table([(*ROWS[0][:5], 0.1)]), path)
    log = read_logs(text, path, on_error="skip")
    assert log.table["value"].tolist() == [0.1]
    [warning] = log.problems
    assert warning.severity == "warning" and warning.file == str(path) and warning.line == 1


def test_stdin_table_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    buf = io.BytesIO()
    pq.write_table(long_table(), buf)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(buf.getvalue()))))
    log = read_logs("-", on_error="skip")
    [problem] = log.problems
    assert problem.file == "<stdin>" and "Parquet or Arrow data on standard input" in problem.reason


def test_watcher_reads_a_table_whole_when_it_is_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "live.parquet"
    pq.write_table(long_table(ROWS[:2]), path)
    watcher = LogWatcher(path)
    first = watcher.poll()
    assert first.added == [str(path)] and len(first.rows) == 2
    assert not watcher.poll().changed
    tmp = tmp_path / "live.tmp"
    pq.write_table(long_table(ROWS), tmp)
    os.replace(tmp, path)
    update = watcher.poll()
    assert update.reloaded == [str(path)]
    assert update.rows["line"].tolist() == [1, 2, 3, 4, 5]
    assert update.rows["value"].tolist() == [r[5] for r in ROWS]


def test_watcher_rewritten_in_place_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "live.feather"
    feather.write_feather(long_table(ROWS[:2]), path)
    watcher = LogWatcher(path)
    assert len(watcher.poll().rows) == 2
    feather.write_feather(long_table(ROWS[:3]), path)  # the same inode
    os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns + 10**9))
    update = watcher.poll()
    assert update.reloaded == [str(path)] and len(update.rows) == 3


def test_a_parquet_row_group_is_read_in_batches_with_the_rows_named_as_before(tmp_path: Path) -> None:
    """Parquet is read BATCH rows at a time, not a row group (a million rows) at a time: the
    work space of a 5,000,000-line file's check fell from 305 to ~240 MB. Here one row group of
    40 rows is read in batches of 7: the same frame and the same problems, by row, as in one go."""
    import stats.logs._columnar as columnar

    rows = [(f"d{i % 5}", 1 + i // 10, 1 + i % 10, f"l{i % 3}", "acc", i / 40) for i in range(40)]
    table = long_table(rows)
    values = table.column("value").to_pylist()
    values[8] = float("nan")  # row 9 of the file, in the second batch of 7
    values[33] = float("inf")  # row 34, in the fifth
    path = tmp_path / "one_group.parquet"
    pq.write_table(table.set_column(5, "value", pa.array(values)), path, row_group_size=40)
    whole = read_logs(path, on_error="skip")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(columnar, "BATCH", 7)
        batched = read_logs(path, on_error="skip")
    frames_equal(batched.table, whole.table)
    assert (
        [str(p) for p in batched.problems]
        == [str(p) for p in whole.problems]
        == [
            f"{path}:9: value nan is not finite",
            f"{path}:34: value inf is not finite",
        ]
    )
    assert len(batched) == 38


def test_a_file_refused_part_way_keeps_the_batches_before(tmp_path: Path) -> None:
    """Batches are made into parts in a thread while the next is decoded (_pipelined): when the
    file fails part-way, here an Arrow file whose third batch of 8 takes it past the limits'
    rows, the two batches before are handed on all the same, and the problem says so."""
    rows = [(f"d{i % 5}", 1, 1 + i, "nb", "acc", i / 40) for i in range(40)]
    path = tmp_path / "batches.arrow"
    feather.write_feather(long_table(rows), path, chunksize=8, compression="uncompressed")
    limits = Decompression(max_ratio=1e9, max_bytes=20 * 12, min_bytes=0)  # 20 rows at most
    log = read_logs(path, on_error="skip", decompression=limits)
    assert log.table["fold"].tolist() == list(range(1, 17))
    [problem] = log.problems
    assert problem.severity == "error" and problem.reason.endswith("the 16 results before are kept")


def test_a_strict_read_stops_at_the_first_error_before_a_later_failure(tmp_path: Path) -> None:
    """Before: the batch after the one with an error was decoded ahead (_pipelined), took the
    file past the limits, and that refusal was raised instead of the error at line 10, which a
    read one batch at a time stops at."""
    rows = [(f"d{i % 5}", 1, 1 + i, "nb", "acc", float("nan") if i == 9 else i / 40) for i in range(40)]
    path = tmp_path / "batches.arrow"
    feather.write_feather(long_table(rows), path, chunksize=8, compression="uncompressed")
    limits = Decompression(max_ratio=1e9, max_bytes=20 * 12, min_bytes=0)  # batch 3 goes past them
    with pytest.raises(LogError, match=r"batches\.arrow:10: value nan is not finite"):
        read_logs(path, decompression=limits)
