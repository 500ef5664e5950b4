"""stats.logs._duplicates: each later row paired with the previous row of its key, chunk by chunk, and
memory that does not grow with the number of duplicates (issue 13, item 5)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats.logs._duplicates
from stats.logs._duplicates import KEY, DuplicateReport, compact, duplicate_chunks, resolve
from stats.logs._read import read_logs


def reference_pairs(columns: dict[str, np.ndarray]) -> tuple[list[int], list[int]]:
    """Each row whose key occurred before, with the row of its previous occurrence (a dict)."""
    seen: dict[tuple[int, ...], int] = {}
    earlier, later = [], []
    for row, key in enumerate(zip(*(columns[k].tolist() for k in KEY))):
        if key in seen:
            earlier.append(seen[key])
            later.append(row)
        seen[key] = row
    return earlier, later


keys = st.lists(st.tuples(*(st.integers(0, 2) for _ in KEY)), min_size=0, max_size=60)


@settings(max_examples=200, deadline=None)
@given(keys, st.integers(1, 7))
def test_pairs_equal_a_dictionary_scan_whatever_the_chunk(rows: list[tuple[int, ...]], chunk: int) -> None:
    columns = {k: np.array([r[i] for r in rows], np.int64) for i, k in enumerate(KEY)}
    found = list(duplicate_chunks(columns, chunk=chunk))
    earlier = [e for part in found for e in part[0].tolist()]
    later = [x for part in found for x in part[1].tolist()]
    assert (earlier, later) == reference_pairs(columns)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=40), st.integers(1, 5), st.integers(1, 4))
def test_wide_lines_are_never_split_between_chunks(lines: list[int], per_line: int, chunk: int) -> None:
    """Rows of one line (a wide line's criteria) come in one chunk, so a line is warned about once."""
    n = len(lines) * per_line
    columns = {
        "dataset": np.repeat(np.array(lines), per_line),
        "repeat": np.ones(n, np.int64),
        "fold": np.ones(n, np.int64),
        "learner": np.zeros(n, np.int64),
        "criterion": np.tile(np.arange(per_line), len(lines)),
    }

    def locate(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(len(rows), np.int64), rows // per_line + 1

    chunks = list(duplicate_chunks(columns, locate, chunk=chunk))
    lines_seen = [set(locate(later)[1].tolist()) for _, later in chunks]
    for a, b in zip(lines_seen, lines_seen[1:]):
        assert not a & b
    assert sum(len(c[1]) for c in chunks) == len(reference_pairs(columns)[1])


def test_a_run_of_repeated_lines_crossing_chunks_is_one_warning() -> None:
    n = 50  # one line repeated: lines 2-50 repeat lines 1-49
    columns = {k: np.zeros(n, np.int64) for k in KEY}

    def locate(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(len(rows), np.int64), rows + 1

    report = DuplicateReport(lambda row, k: "x", locate, ["d.dat"])
    for earlier, later in duplicate_chunks(columns, locate, chunk=7):
        report.add(earlier, later)
    assert [str(p) for p in report.finish()] == [
        "d.dat:2: lines 2-50 repeat the results of lines 1-49: the later lines win"
    ]


def test_resolve_keeps_the_last_row_of_each_key_and_compact_drops_the_rest_in_place() -> None:
    columns = {k: np.array([0, 1, 0, 0, 1], np.int64) for k in KEY}
    columns["value"] = np.arange(5.0)

    def locate(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(len(rows), np.int64), rows + 1

    names = {k: ["a", "b"] for k in ("dataset", "learner", "criterion")}
    keep, problems = resolve(columns, names, locate, ["d.dat"])
    assert keep is not None and keep.tolist() == [False, False, False, True, True]
    assert [p.line for p in problems] == [3, 4, 5]
    before = columns["value"]
    compact(columns, keep, chunk=2)
    assert columns["value"].tolist() == [3.0, 4.0] and columns["value"] is before


def test_no_duplicates_no_mask() -> None:
    columns = {k: np.arange(4, dtype=np.int64)[::-1].copy() for k in KEY}  # decreasing: searched, none found
    keep, problems = resolve(columns, {}, lambda r: (r, r), ["d.dat"])
    assert keep is None and problems == []


def _traced_peak(path: Path) -> tuple[int, int]:
    """Peak bytes allocated through Python's and numpy's allocators while reading ``path``."""
    tracemalloc.start()
    try:
        log = read_logs(path, on_error="skip")
        return tracemalloc.get_traced_memory()[1], len(log)
    finally:
        tracemalloc.stop()


def test_a_million_copies_of_one_line_cost_no_more_than_a_million_distinct_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 item 5: 20M identical lines peaked at 4.7 GB. The work space no longer grows with
    the number of duplicates (tracemalloc counts numpy's buffers: a count, not a timing). Chunks
    of 2^16 rows stand for the default's 2^19, as 1M lines stand for 20M."""
    monkeypatch.setattr(stats.logs._duplicates, "CHUNK", 1 << 16)
    n = 1_000_000
    same = tmp_path / "same.dat"
    same.write_text("iris,1,1,nb,accuracy,0.9\n" * n)
    distinct = tmp_path / "distinct.dat"
    keys = np.arange(n)
    distinct.write_text("".join(f"d{k // 1000:03d},1,{k % 1000 + 1},nb,accuracy,0.9\n" for k in keys.tolist()))
    peak_distinct, rows_distinct = _traced_peak(distinct)
    peak_same, rows_same = _traced_peak(same)
    assert (rows_distinct, rows_same) == (n, 1)
    assert peak_same <= 1.5 * peak_distinct, (peak_same, peak_distinct)
