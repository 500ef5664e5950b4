"""The app's load in less memory (issue 17, item 3): the pieces that hold fewer copies of the rows
give what the straightforward code gives. (Peak memory is measured by benchmarks/bench_memory.py,
whole processes; no test asserts it.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats import Aggregator, LogWatcher, aggregate, read_logs
from stats.cells import _aggregate
from stats.core._keys import pack_location
from stats.logs._frame import Columns, Labels, _Entry
from stats.logs._index import Consecutive, KeyIndex, as_array
from tests.test_aggregate import assert_same
from tui.memory import tune_allocator


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3000), st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_the_chunked_counting_sort_is_numpys_stable_argsort(n: int, cells: int, seed: int) -> None:
    """_order above a chunk: a counting sort a chunk at a time, no second permutation of all rows."""
    cell = np.random.default_rng(seed).integers(0, cells, n).astype(_aggregate._narrow(cells))
    old = _aggregate._ORDER_CHUNK
    try:
        _aggregate._ORDER_CHUNK = 64  # many chunks, cells spread over them
        got = _aggregate._order(cell, cells)
    finally:
        _aggregate._ORDER_CHUNK = old
    assert got.tolist() == np.argsort(cell, kind="stable").tolist()


def test_cells_numbered_a_chunk_at_a_time_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    log = pd.DataFrame(
        {
            "dataset": pd.Categorical(rng.choice(list("abcdefg"), 5000)),
            "learner": pd.Categorical(rng.choice(list("xyz"), 5000)),
            "criterion": pd.Categorical(rng.choice(["pd", "pf"], 5000)),
            "value": rng.random(5000),
        }
    )
    whole = _aggregate._cells(log)
    monkeypatch.setattr(_aggregate, "_CHUNK", 300)
    chunked = _aggregate._cells(log)
    assert all(np.array_equal(a, b) for a, b in zip(whole[:3], chunked[:3]))
    codes = {k: log[k].cat.codes.astype(int) for k in ("criterion", "dataset", "learner")}
    key = codes["criterion"] * 100 + codes["dataset"] * 10 + codes["learner"]
    assert chunked[0].tolist() == pd.factorize(key, sort=True)[0].tolist()  # cells numbered in code order


def test_summaries_made_a_batch_of_cells_at_a_time_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    counts = rng.integers(1, 40, 300)
    grouped = rng.normal(size=int(counts.sum()))
    whole = _aggregate._summarise(grouped, counts)
    monkeypatch.setattr(_aggregate, "_COPY_MAX", 50)  # batches of a few cells (a cell bigger than one alone)
    kept = grouped.copy()
    batched = _aggregate._summarise(grouped, counts)
    assert np.array_equal(batched, whole) and np.array_equal(grouped, kept)  # bit for bit; the input untouched
    independent = [np.percentile(c, 50) for c in np.split(grouped, np.cumsum(counts)[:-1])]  # numpy, type 7
    assert whole[2].tolist() == independent


def entries_table(data: st.DataObject) -> Columns:
    table = Columns(Labels())
    for _ in range(data.draw(st.integers(0, 8))):
        n_lines, per_line = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 3))
        lines = np.sort(data.draw(st.lists(st.integers(0, 50), min_size=n_lines, max_size=n_lines, unique=True)))
        file, first = data.draw(st.integers(0, 300)), data.draw(st.integers(1, 2**33))
        table.entries.append(_Entry(file, first, per_line, table.size, lines if data.draw(st.booleans()) else None))
        table.size += n_lines * per_line
    return table


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_narrow_locations_equal_the_int64_ones(data: st.DataObject) -> None:
    table = entries_table(data)
    (f64, l64), (f, line) = table.locations(), table.locations(narrow=True)
    assert f.tolist() == f64.tolist() and line.tolist() == l64.tolist()
    assert f.dtype.itemsize <= (1 if f64.max(initial=0) < 128 else 2)
    assert line.dtype == (np.int32 if l64.max(initial=0) < 2**31 else np.int64)


def test_consecutive_locations_are_kept_as_a_range_and_answer_as_an_array() -> None:
    locs = pack_location(np.zeros(5000, np.int64), np.arange(1, 5001))
    held = Consecutive.of(locs)
    assert isinstance(held, Consecutive) and len(held) == 5000
    at = np.array([0, 17, 4999])
    assert held[at].tolist() == locs[at].tolist()
    mask = np.zeros(5000, bool)
    mask[[3, 9]] = True
    assert held[mask].tolist() == locs[mask].tolist() and as_array(held).tolist() == locs.tolist()
    assert not isinstance(Consecutive.of(locs[::-1].copy()), Consecutive)
    gap = locs.copy()
    gap[2500:] += 1  # the ends differ by more than the size
    assert not isinstance(Consecutive.of(gap), Consecutive)
    swap = locs.copy()
    swap[[10, 11]] = swap[[11, 10]]  # same ends, not increasing
    assert not isinstance(Consecutive.of(swap), Consecutive)


def test_a_key_index_with_a_consecutive_run_finds_moves_and_drops_as_with_arrays() -> None:
    n = 4096
    keys = np.arange(10, 10 + 2 * n, 2, dtype=np.uint64)
    cols = {k: np.zeros(n, np.int64) for k in ("dataset", "repeat", "fold", "learner", "criterion")}
    fits = np.ones(n, bool)
    locs = pack_location(np.zeros(n, np.int64), np.arange(1, n + 1))
    index = KeyIndex()
    index.put(keys, fits, cols, Consecutive.of(locs))
    assert isinstance(index._runs[0][1], Consecutive)
    probe = np.array([10, 11, 12, 10 + 2 * (n - 1)], np.uint64)
    pfits = np.ones(4, bool)
    pcols = {k: v[:4] for k, v in cols.items()}
    assert index.find(probe, pfits, pcols).tolist() == [locs[0], -1, locs[1], locs[-1]]
    moved = pack_location(np.array([1]), np.array([7]))
    index.put(probe[:1], pfits[:1], {k: v[:1] for k, v in pcols.items()}, moved)  # a key held moves
    assert index.find(probe[:1], pfits[:1], pcols).tolist() == moved.tolist()
    assert not any(isinstance(locs, Consecutive) for _, locs in index._runs[:1])
    index.drop_files([0])
    assert len(index) == 1 and index.find(probe, pfits, pcols).tolist() == [moved[0], -1, -1, -1]
    fresh = KeyIndex()
    fresh.put(keys, fits, cols, Consecutive.of(locs))
    fresh.drop_files([1])  # another file: the run stays as it is
    assert len(fresh) == n and isinstance(fresh._runs[0][1], Consecutive)
    fresh.drop_files([0])
    assert len(fresh) == 0


def test_a_watchers_rows_are_narrow_and_its_index_holds_a_range(tmp_path: Path) -> None:
    log = tmp_path / "a.dat"
    log.write_text("".join(f"d{d},{r},{f},nb,acc,0.{d}{r}{f}\n" for d in range(30) for r in range(6) for f in range(6)))
    watcher = LogWatcher(log)
    rows = watcher.poll().rows
    assert [str(rows[c].dtype) for c in ("repeat", "fold", "line")] == ["int8", "int8", "int32"]
    assert rows["file"].cat.codes.dtype == np.int8
    assert isinstance(watcher._held._runs[0][1], Consecutive)
    want = read_logs(log)
    assert rows.drop(columns=["file", "line"]).astype({"repeat": "int64", "fold": "int64"}).equals(want.table)


def test_an_aggregator_that_takes_the_rows_frees_them_and_gives_the_same(tmp_path: Path) -> None:
    log = tmp_path / "a.dat"
    rng = np.random.default_rng(3)
    log.write_text(
        "".join(
            f"d{d},1,{f},l{x},c{c},{rng.random():.4f}\n"
            for d in range(9)
            for f in range(5)
            for x in range(4)
            for c in range(2)
        )
    )
    rows = LogWatcher(log).poll().rows
    kept = rows.copy()
    agg = Aggregator(rows, take=True)
    assert rows.shape[1] == 0  # every column taken out
    assert_same(agg.table, aggregate(read_logs(log)))
    assert_same(Aggregator(kept).table, agg.table)
    assert agg.snapshot().results("c0").shape == (9 * 5 * 4, 6)


def test_the_allocator_is_tuned_once_on_glibc() -> None:
    assert tune_allocator() == tune_allocator()
    if Path("/lib/x86_64-linux-gnu/libc.so.6").exists():
        assert tune_allocator()


def test_apply_finds_superseded_rows_by_key_in_a_frame_of_narrow_rows(tmp_path: Path) -> None:
    a = tmp_path / "a.dat"
    a.write_text("iris,1,1,nb,acc,0.1\niris,1,2,nb,acc,0.2\n")
    watcher = LogWatcher(a)
    agg = Aggregator(watcher.poll().rows)
    with a.open("a") as f:
        f.write("iris,1,2,nb,acc,0.7\n")
    update = watcher.poll()
    assert update.superseded == [(str(a), 2)]
    agg.apply(update)
    assert sorted(agg.snapshot().gather("acc", "nb", ["iris"]).tolist()) == [0.1, 0.7]
    assert_same(agg.table, aggregate(pd.DataFrame(read_logs(a).table)))
