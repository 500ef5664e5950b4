"""The reader keeps repeat, fold and the label codes in the narrowest integer type that holds
them while it reads (issue 17, item 3: memory), widening a column, rows read so far included,
when a later block needs more; the frame it hands on is the same (repeat and fold int64).
``Columns.locate`` (rows -> file, line) without a mask per part, against the one it replaces."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats.logs._sources
from stats.logs._frame import Columns, Labels, _Entry
from stats.logs._read import read_logs

NUMBERS = [1, 2, 127, 128, 255, 300, 32_767, 32_768, 70_000, 2**31 - 1, 5, 0]


@pytest.mark.parametrize("block", [64, 4 << 20])
def test_repeat_and_fold_numbers_of_any_size_come_back_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """Small blocks: each block is a part, so the columns widen in the middle of the read."""
    monkeypatch.setattr(stats.logs._sources, "BLOCK", block)
    lines = [f"d{i % 3},{r},{NUMBERS[-1 - i]},l{i % 2},pd,0.{i}\n" for i, r in enumerate(NUMBERS)]
    f = tmp_path / "big_numbers.dat"
    f.write_text("".join(lines))
    log = read_logs(f)
    assert log.problems == ()
    assert log["repeat"].tolist() == NUMBERS and log["fold"].tolist() == NUMBERS[::-1]
    assert str(log["repeat"].dtype) == "int64" and str(log["fold"].dtype) == "int64"


def test_label_codes_widen_past_127_names_keeping_the_rows_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stats.logs._sources, "BLOCK", 200)
    names = [f"data_{i:03d}" for i in range(40_000 // 100)]
    f = tmp_path / "many.dat"
    f.write_text("".join(f"{d},1,{k % 7},nb,pd,0.5\n" for k, d in enumerate(names)))
    log = read_logs(f)
    assert log["dataset"].astype(str).tolist() == names
    assert log["fold"].tolist() == [k % 7 for k in range(len(names))]


def test_a_widened_column_copies_only_the_rows_filled() -> None:
    """The reserve (rows expected from the file size) is not touched by a widening: the copy
    has the same capacity, and the rows filled so far are the rows read."""
    table = Columns(Labels())
    table.reserve(1000)
    capacity = len(table.arrays["repeat"])
    table.arrays["repeat"][:3] = [1, 2, 3]
    table.size = 3
    out = table._widened("repeat", slice(3, 5), 40_000)
    out[:] = [40_000, 7]
    table.size = 5
    assert table.arrays["repeat"].dtype == np.int32 and len(table.arrays["repeat"]) == capacity
    assert table.arrays["repeat"][:5].tolist() == [1, 2, 3, 40_000, 7]
    table._widened("repeat", slice(5, 5), 1, -(2**40))
    assert table.arrays["repeat"].dtype == np.int64 and table.arrays["repeat"][:5].tolist() == [1, 2, 3, 40_000, 7]


def old_locate(table: Columns, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``Columns.locate`` of df851f1 (a mask of all the rows per part), the reference."""
    starts = np.array([e.row_start for e in table.entries])
    which = np.searchsorted(starts, rows, side="right") - 1
    files, lines = np.empty(len(rows), np.int64), np.empty(len(rows), np.int64)
    for w in np.unique(which).tolist():
        e = table.entries[w]
        mask = which == w
        local = (rows[mask] - e.row_start) // e.per_line
        files[mask] = e.file
        lines[mask] = e.first_line + (local if e.lines is None else e.lines[local])
    return files, lines


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_locate_equals_a_mask_per_part(data: st.DataObject) -> None:
    """Parts of one or several rows a line (wide lines), some skipping lines, over several files."""
    table = Columns(Labels())
    for _ in range(data.draw(st.integers(1, 8))):
        n_lines, per_line = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 3))
        skips = data.draw(st.booleans())
        lines = np.sort(data.draw(st.lists(st.integers(0, 50), min_size=n_lines, max_size=n_lines, unique=True)))
        file, first = data.draw(st.integers(0, 3)), data.draw(st.integers(1, 1000))
        table.entries.append(_Entry(file, first, per_line, table.size, lines if skips else None))
        table.size += n_lines * per_line
    rows = np.array(data.draw(st.lists(st.integers(0, table.size - 1), max_size=40)), np.int64)
    got, want = table.locate(rows), old_locate(table, rows)
    assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_locations_of_every_row_equal_locate(data: st.DataObject) -> None:
    table = Columns(Labels())
    for _ in range(data.draw(st.integers(0, 8))):
        n_lines, per_line = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 3))
        lines = np.sort(data.draw(st.lists(st.integers(0, 50), min_size=n_lines, max_size=n_lines, unique=True)))
        file, first = data.draw(st.integers(0, 3)), data.draw(st.integers(1, 1000))
        table.entries.append(_Entry(file, first, per_line, table.size, lines if data.draw(st.booleans()) else None))
        table.size += n_lines * per_line
    got, want = table.locations(), old_locate(table, np.arange(table.size))
    assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(*(st.integers(-3, 1 << 17) for _ in range(5))), min_size=1, max_size=60), st.booleans())
def test_row_keys_packed_a_chunk_at_a_time_equal_the_whole_column_formula(
    rows: list[tuple[int, ...]], narrow: bool
) -> None:
    """pack_row in chunks (of 7 rows here), from narrow columns too, against df851f1's formula."""
    import stats.core._keys as keys

    dtypes = (np.int32, np.int64, np.int32, np.int64, np.int32) if narrow else (np.int64,) * 5
    columns = {name: np.array([r[i] for r in rows], t) for (i, name), t in zip(enumerate(keys.ROW_BITS), dtypes)}
    want, fits = np.zeros(len(rows), np.uint64), np.ones(len(rows), bool)
    for name, bits in keys.ROW_BITS.items():
        column = columns[name]
        fits &= (column >= 0) & (column < 1 << bits)
        want <<= np.uint64(bits)
        want |= column.astype(np.uint64) & np.uint64((1 << bits) - 1)
    want[~fits] = 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(keys, "_ROW_CHUNK", 7)
        got, got_fits = keys.pack_row(columns)
    assert got.tolist() == want.tolist() and got_fits.tolist() == fits.tolist()
