"""Small files parsed together (stats.logs._group) read exactly as each file read alone.

The reference is the same reading with the pool off (``WORKERS = 1``): every file read on its
own, in order, by ``read_source``. Random directories mix clean files with the lines and files
that take other paths (bad values, blank lines, NUL bytes, CRLF and lone CR, ``0x1A`` and ``-0``
numbers, tiny exponents, invisible and control characters in names, quotes, comments, no newline
at the end, wide headers, byte-order marks, empty and gzip files): the frames (names in the same
order of first appearance), problems, files and line counts must be equal, and the first error
of a strict read the same.
"""

from __future__ import annotations

import gzip
import random
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats.logs._group
import stats.logs._read
from stats import LogError, check_logs, read_logs
from stats.logs._group import next_run

CLEAN = "{d},{r},{f},{learner},{c},0.{v:04d}\n"
ODD_LINES = [
    "d1,1,1,l1,acc,zz\n",  # not a number
    "d1,1,1,l1,acc\n",  # a field short
    "d1,-1,1,l1,acc,0.5\n",  # a negative repeat
    "d1,0x1A,1,l1,acc,0.5\n",  # read as a number by pyarrow: judged here
    "d1,-0,2,l1,acc,0.5\n",  # a signed zero
    "d1,1,3,l1,acc,1e-400\n",  # underflows
    "d1,1,4,l1,acc,nan\n",
    "\n",  # blank
    "d1,1,5,l\x00x,acc,0.5\n",  # binary data
    "d1,1,6,l1,acc,0.5\r\n",  # CRLF
    "d1,1,7,l1\r,acc,0.5\n",  # a lone carriage return
    "d\u200bz,1,1,l1,acc,0.5\n",  # an invisible character in a name
    "d\x1b[31m,1,1,l1,acc,0.5\n",  # a control character in a name
    "# a comment\n",
    " d2 , 2 , 1 , l2 , acc , 0.25 \n",  # spaces around the fields
    "d\xe9t,1,1,l1,acc,0.5\n",  # not ASCII
]
ODD_FILES = {
    "quote": 'd1,1,1,"l, one",acc,0.5\n',
    "torn": "d1,1,1,l1,acc,0.5\nd1,1,2,l1,acc,0.",
    "kept last line": "d1,1,1,l1,acc,0.5\nd1,1,2,l1,acc,0.75",
    "wide": "#data, learner, repeats, bin, acc, pd\nd8, l1, 1, 1, 0.5, 0.25\n",
    "bom": "\ufeffd1,1,1,l1,acc,0.5\n",
    "leading blank": "\nd1,1,1,l1,acc,0.5\n",
    "empty": "",
    "only bad": "d1,1,1,l1,acc,zz\n",
    "only blank": "\n\n",
}


def _directory(folder: Path, seed: int, n_files: int, odd: float) -> Path:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n_files):
        name = folder / f"run_{i:03d}.dat"
        if rng.random() < odd / 3:
            kind = rng.choice([*ODD_FILES, "gzip"])
            if kind == "gzip":
                name.with_suffix(".dat.gz").write_bytes(gzip.compress(b"d5,1,1,l0,acc,0.125\n"))
            else:
                name.write_bytes(ODD_FILES[kind].encode())
            continue
        lines = []
        for _ in range(rng.randint(1, 40)):
            if rng.random() < odd / 10:
                lines.append(rng.choice(ODD_LINES))
            else:  # names first seen in later files too; duplicates within and across files
                d, r, f, j, c = (rng.randint(0, k) for k in (6, 2, 3, 5, 1))
                criterion = ("acc", "pf")[c]
                lines.append(CLEAN.format(d=f"d{d}", r=r, f=f, learner=f"l{j}", c=criterion, v=rng.randint(0, 9999)))
        name.write_bytes("".join(lines).encode())
    return folder


def _read_both(folder: Path, workers: int = 2) -> None:
    """Pool off (each file alone) and on (small files grouped): the same reading."""
    alone = _with_workers(1, lambda: read_logs(folder, on_error="skip"))
    together = _with_workers(workers, lambda: read_logs(folder, on_error="skip"))
    pd.testing.assert_frame_equal(together.table, alone.table)
    for column in ("dataset", "learner", "criterion"):  # the order of first appearance
        assert list(together.table[column].cat.categories) == list(alone.table[column].cat.categories)
    assert (together.problems, together.files, together.lines) == (alone.problems, alone.files, alone.lines)
    strict = [_with_workers(w, lambda: _first_error(folder)) for w in (1, workers)]
    assert strict[0] == strict[1]
    checked = [_with_workers(w, lambda: check_logs(folder)) for w in (1, workers)]
    assert checked[0].summary() == checked[1].summary() and checked[0].problems == checked[1].problems


def _first_error(folder: Path) -> str | None:
    try:
        read_logs(folder)
    except LogError as error:
        return str(error)
    return None


def _with_workers(workers: int, read):  # noqa: ANN001, ANN202
    old = stats.logs._read.WORKERS
    stats.logs._read.WORKERS = workers
    try:
        return read()
    finally:
        stats.logs._read.WORKERS = old


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.sampled_from([0.0, 0.3, 1.0]), st.sampled_from([2, 3]))
def test_small_files_read_together_read_as_each_alone(seed: int, n_files: int, odd: float, workers: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _read_both(_directory(Path(tmp) / "logs", seed, n_files, odd), workers)


def test_the_files_are_parsed_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a reading that merely falls back: 40 small files, runs cut at GROUP_FILES = 16, are
    parsed in 3 calls; the torn and the quoted file of the first run are read alone."""
    folder = _directory(tmp_path / "logs", seed=7, n_files=40, odd=0.0)
    (folder / "run_005.dat").write_bytes(ODD_FILES["torn"].encode())
    (folder / "run_006.dat").write_bytes(ODD_FILES["quote"].encode())
    monkeypatch.setattr(stats.logs._group, "GROUP_FILES", 16)
    together: list[int] = []
    original = stats.logs._group._parse_together

    def spy(names: list[str], texts: list[bytes], final: bool = True):  # noqa: ANN202
        together.append(len(names))
        return original(names, texts, final)

    monkeypatch.setattr(stats.logs._group, "_parse_together", spy)
    _with_workers(2, lambda: read_logs(folder, on_error="skip"))
    assert sorted(together) == [8, 14, 16]  # runs 32-39, 0-15 (less files 5 and 6), 16-31 (in any order: threads)
    _read_both(folder)


def test_bad_lines_get_their_own_files_line_numbers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad line in the third file of a group is that file's line 2, not the group's line 8."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.dat").write_text("d1,1,1,l1,acc,0.5\nd1,1,2,l1,acc,0.5\nd1,1,3,l1,acc,0.5\n")
    (folder / "b.dat").write_text("d2,1,1,l1,acc,0.5\nd2,1,2,l1,acc,0.5\n\n")
    (folder / "c.dat").write_text("d3,1,1,l1,acc,0.5\nd3,1,2,l1,acc,oops\nd3,1,3,l2,acc,0.5\n")
    log = _with_workers(2, lambda: read_logs(folder, on_error="skip"))
    assert [(Path(p.file).name, p.line) for p in log.problems] == [("c.dat", 2)]
    assert log.table["dataset"].tolist() == ["d1"] * 3 + ["d2"] * 2 + ["d3"] * 2
    assert list(log.table["learner"].cat.categories) == ["l1", "l2"]
    with pytest.raises(LogError, match=r"c\.dat:2: value 'oops'"):
        _with_workers(2, lambda: read_logs(folder))
    _read_both(folder)


def test_runs_of_small_files() -> None:
    block = stats.logs._sources.BLOCK
    assert next_run([10, 20, None, 30], 0) == (0, 2)  # a gzip file (size unknown) ends a run
    assert next_run([10, 20, None, 30], 2) == (3, 4)
    assert next_run([block + 1, block, 1], 0) == (1, 2)  # a block's worth of bytes at most
    assert next_run([None, block + 1], 0) is None
    assert next_run([1] * 100, 0) == (0, stats.logs._group.GROUP_FILES)


def test_a_files_names_are_those_its_rows_use_in_their_order() -> None:
    """Values numbered in order of first use: each file gets those first used up to its last row,
    codes unchanged. Otherwise (never from pyarrow; kept as the safe way): renumbered per file."""
    from stats.logs._group import _first_rows, _rows
    from stats.logs._parse import Coded

    ordered = Coded(["a", "b", "c"], np.array([0, 1, 0, 2], np.int16))
    first = _first_rows(ordered)
    assert first is not None and first.tolist() == [0, 1, 3]
    one, two = _rows(ordered, 0, 2, first), _rows(ordered, 2, 4, first)
    assert (one.values, one.codes.tolist()) == (["a", "b"], [0, 1])
    assert (two.values, two.codes.tolist()) == (["a", "b", "c"], [0, 2])  # "b": known from the file before
    shuffled = Coded(["b", "a", "c"], np.array([1, 0, 1, 2], np.int16))
    assert _first_rows(shuffled) is None
    two = _rows(shuffled, 2, 4, None)
    assert (two.values, two.codes.tolist()) == (["a", "c"], [0, 1])
    assert _rows(np.arange(4.0), 1, 3, None).tolist() == [1.0, 2.0]


def _polls(folder: Path, workers: int, grow: int) -> list[tuple]:
    """Two polls of a LogWatcher (the app's load, then a live tick after ``grow`` files grew or
    were added): each poll's rows and the update's other fields."""
    import stats.logs._watch

    old = stats.logs._watch.WORKERS
    stats.logs._watch.WORKERS = workers
    try:
        watcher = stats.LogWatcher(folder, on_error="skip")
        first = watcher.poll()
        for i in range(grow):
            with open(folder / f"run_{i:03d}.dat", "a", encoding="utf-8") as f:
                f.write(f"d9,1,{i + 1},l9,acc,0.5\n")
        (folder / "zz_new.dat").write_text("d8,1,1,l1,acc,0.25\nd8,1,2,l1,acc,bad\n")
        second = watcher.poll()
    finally:
        stats.logs._watch.WORKERS = old
    return [
        (u.rows.reset_index(drop=True), u.problems, u.added, u.reloaded, u.removed, u.superseded)
        for u in (first, second)
    ]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 24), st.sampled_from([0.0, 0.3, 1.0]))
def test_the_watchers_new_small_files_read_together_read_as_each_alone(seed: int, n_files: int, odd: float) -> None:
    """The watcher reads its new small files ahead, the plain ones several to a parse (never a
    file it follows from an offset): its updates are those of reading each file alone."""
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for workers in (1, 2):
            folder = _directory(Path(tmp) / f"logs{workers}", seed, n_files, odd)
            results.append(_polls(folder, workers, grow=min(3, n_files)))
        for alone, together in zip(*results):
            pd.testing.assert_frame_equal(together[0], alone[0].assign(file=together[0]["file"]))
            assert (
                together[0]["file"].astype(str).str.replace("logs2", "logs1").tolist()
                == alone[0]["file"].astype(str).tolist()
            )
            assert [str(p).replace("logs2", "logs1") for p in together[1]] == [str(p) for p in alone[1]]
            assert [str(x).replace("logs2", "logs1") for x in together[2:]] == [str(x) for x in alone[2:]]
