"""Parts of log files -> one tidy frame's columns, and the warnings about names.

Label columns become pandas Categoricals whose categories are the names in the
order they first appear. A wide-format line becomes one row per criterion
column. Duplicate results are found by :mod:`stats.logs._duplicates`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from stats.core import INVISIBLE, has_controls, printable, show_invisible, without_invisible
from stats.core.import_ahead import wait
from stats.logs._duplicates import KEY, LABELS, Locate
from stats.logs._formats import LogProblem, LogSpec
from stats.logs._parse import Coded, Part

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class _Entry:
    """Where a part's rows went: rows ``row_start ...`` came from lines of ``file``."""

    file: int
    first_line: int
    per_line: int  # rows per line: 1, or the wide format's number of criteria
    row_start: int
    lines: np.ndarray | None  # 0-based line of each part row (None: row i is line i)


class Labels:
    """Names -> integer codes, numbered in order of first appearance; only ever grows."""

    def __init__(self) -> None:
        self.ids: dict[str, dict[str, int]] = {name: {} for name in LABELS}

    def lut(self, name: str, values: list[str | None]) -> np.ndarray:
        """Codes of ``values``; invisible characters (BOM, zero-width) are not part of a name
        (:data:`stats.core.names.INVISIBLE`): ``'\\ufeffiris'`` is ``iris``."""
        ids = self.ids[name]
        clean = [v if v is None or not INVISIBLE.search(v) else without_invisible(v) for v in values]
        return np.array([-1 if v is None else ids.setdefault(v, len(ids)) for v in clean], np.int64)

    def mark(self) -> dict[str, int]:
        """How many names each column has: :meth:`rollback` forgets the names added since."""
        return {name: len(ids) for name, ids in self.ids.items()}

    def rollback(self, mark: dict[str, int]) -> None:
        """Forget the names added since ``mark`` (the last ones: a dict pops in reverse order of insertion)."""
        for name, size in mark.items():
            ids = self.ids[name]
            while len(ids) > size:
                ids.popitem()

    def categories(self, name: str) -> pd.Index:
        return wait("pandas").Index(list(self.ids[name]), dtype="str")

    def names(self, name: str) -> list[str]:
        return list(self.ids[name])


class Columns:
    """The frame's columns, filled part by part as the parts arrive (in file order).

    Names become codes at once (the parts' arrays are then freed), into arrays allocated for
    the expected number of rows (``reserve``; pages never written cost no memory) and trimmed
    in place at the end. Wide-format metadata columns appear with the first wide part.
    """

    def __init__(self, labels: Labels) -> None:
        self.labels = labels
        self.size = 0
        self.entries: list[_Entry] = []
        self.arrays: dict[str, np.ndarray] = {}
        #: Warnings found while adding parts: (file index, line, reason).
        self.notes: list[tuple[int, int, str]] = []
        self._new({k: v for k, v in _DTYPES.items() if k in KEY or k == "value"}, 1 << 16)

    def _new(self, dtypes: dict[str, type], capacity: int) -> None:
        for name, dtype in dtypes.items():
            array: np.ndarray = np.empty(capacity, dtype)
            array[: self.size] = _FILL.get(name, 0)
            self.arrays[name] = array

    def reserve(self, rows: int) -> None:
        """Make room for ``rows`` more rows (one allocation and copy, if any)."""
        need = self.size + rows
        for name, array in self.arrays.items():
            if len(array) < need:
                bigger = np.empty(max(need, 2 * len(array)), array.dtype)
                bigger[: self.size] = array[: self.size]
                self.arrays[name] = bigger

    def add(self, file: int, first_line: int, spec: LogSpec, part: Part) -> None:
        """Append a part's rows (a wide line gives one row per criterion)."""
        k = len(spec.criteria) if spec.wide else 1
        n = part.n_rows
        if spec.wide and "goal" not in self.arrays:
            self._new({name: _DTYPES[name] for name in WIDE}, len(self.arrays["value"]))
        self.reserve(n * k)
        rows = slice(self.size, self.size + n * k)
        for name in self.arrays:
            target = self.arrays[name][rows]
            role = name.removesuffix("_na")
            if name == "criterion" and spec.wide:
                lut = self.labels.lut(name, list(spec.criteria))
                self._room(name, lut, rows)[:] = np.tile(lut, n)
            elif name == "value":
                values = [part.fields[i] for i in spec.value_fields]
                target[:] = values[0] if k == 1 else np.column_stack(values).ravel()
            elif name in ("repeat", "fold"):
                column = part.fields[spec.roles[name]]
                if len(column):  # widened first if the numbers do not fit (checked: never wraps)
                    target = self._widened(name, rows, int(column.max()), int(column.min()))
                target[:] = column if k == 1 else np.repeat(column, k)
            elif role not in spec.roles:  # goal, train or test, absent from this file
                target[:] = _FILL.get(name, 0)
            else:
                coded = part.fields[spec.roles[role]]
                if name in LABELS:
                    self._note_invisible(file, first_line, name, coded, part)
                    lut = self.labels.lut(name, coded.values)
                    target = self._room(name, lut, rows)
                elif name.endswith("_na"):
                    lut = np.array([v is None for v in coded.values])
                else:
                    lut = np.array([v or 0 for v in coded.values], np.int64)
                _put(target, lut, coded.codes, k)
        self.entries.append(_Entry(file, first_line, k, self.size, part.lines))
        self.size += n * k
        part.fields = []

    def _note_invisible(self, file: int, first_line: int, kind: str, coded: Coded, part: Part) -> None:
        """A warning at the first line of each name holding invisible characters."""
        for i, value in enumerate(coded.values):
            if value is None or not INVISIBLE.search(value):
                continue
            rows = np.flatnonzero(np.asarray(coded.codes) == i)
            if not len(rows):
                continue
            row = int(rows[0])
            line = first_line + (int(part.lines[row]) if part.lines is not None else row)
            reason = (
                f"{kind} '{show_invisible(value)}' holds invisible characters (byte-order mark or "
                f"zero-width): read as '{printable(without_invisible(value))}'"
            )
            self.notes.append((file, line, reason))

    def _room(self, name: str, lut: np.ndarray, rows: slice) -> np.ndarray:
        """The rows' slice of a label column, widened first (int8 -> int16 -> int32) if the codes
        in ``lut`` do not fit."""
        return self._widened(name, rows, int(lut.max()) if len(lut) else 0)

    def _widened(self, name: str, rows: slice, largest: int, smallest: int = 0) -> np.ndarray:
        """The rows' slice of an integer column, the column first made as wide as values from
        ``smallest`` to ``largest`` need (int8 -> int16 -> int32 -> int64) if they do not fit.
        Only the rows filled so far are copied: the pages reserved and never written cost no
        memory."""
        array = self.arrays[name]
        info = np.iinfo(array.dtype)
        if largest > info.max or smallest < info.min:  # as wide as the values need, at once
            wider = next(t for t in _WIDER if np.iinfo(t).min <= smallest <= largest <= np.iinfo(t).max)
            bigger = np.empty(len(array), wider)
            bigger[: self.size] = array[: self.size]
            array = self.arrays[name] = bigger
        return array[rows]

    def finish(self) -> dict[str, np.ndarray]:
        """The filled arrays, trimmed in place to the rows read."""
        for array in self.arrays.values():
            array.resize(self.size, refcheck=False)
        return self.arrays

    def locations(self, *, narrow: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """File index and line number of every row, in order: :meth:`locate` of all the rows,
        filled part by part (each part's rows are consecutive), with no work space beyond the two
        arrays and one part's lines.

        int64 both, or with ``narrow`` as narrow as the largest file index and line need (the
        file index int8 .. int32, the line int32 or int64: 5 bytes a row instead of 16).
        """
        ends = [e.row_start for e in self.entries[1:]] + [self.size]
        file_type: type[np.integer] = np.int64
        line_type: type[np.integer] = np.int64
        if narrow:
            last_file = max((e.file for e in self.entries), default=0)
            last_line = max((_last_line(e, end) for e, end in zip(self.entries, ends)), default=0)
            file_type = next(t for t in (np.int8, *_WIDER) if last_file <= np.iinfo(t).max)
            line_type = np.int32 if last_line <= np.iinfo(np.int32).max else np.int64
        files, lines = np.empty(self.size, file_type), np.empty(self.size, line_type)
        for e, end in zip(self.entries, ends):
            files[e.row_start : end] = e.file
            out = lines[e.row_start : end]
            if e.per_line == 1:
                out[:] = np.arange(end - e.row_start) if e.lines is None else e.lines
            else:
                local = np.arange(end - e.row_start) // e.per_line
                out[:] = local if e.lines is None else e.lines[local]
            out += e.first_line
        return files, lines

    def locate(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """File index and line number of the given rows.

        Vectorised over the parts (one gather per attribute, no mask per part); only the parts
        whose rows skip lines (empty or bad lines) look their lines up, grouped by one sort.
        """
        rows = np.asarray(rows, np.int64)
        entries = self.entries
        starts = np.fromiter((e.row_start for e in entries), np.int64, len(entries))
        which = np.searchsorted(starts, rows, side="right") - 1
        files = np.fromiter((e.file for e in entries), np.int64, len(entries))[which]
        per_line = np.fromiter((e.per_line for e in entries), np.int64, len(entries))
        local = rows - starts[which]
        local //= per_line[which]
        lines = np.fromiter((e.first_line for e in entries), np.int64, len(entries))[which]
        skipping = np.fromiter((e.lines is not None for e in entries), bool, len(entries))
        if skipping.any():
            at = np.flatnonzero(skipping[which])
            at = at[np.argsort(which[at], kind="stable")]
            for group in np.split(at, np.flatnonzero(np.diff(which[at])) + 1) if at.size else []:
                part_lines = entries[int(which[group[0]])].lines
                assert part_lines is not None
                local[group] = part_lines[local[group]]
        lines += local
        return files, lines


def _last_line(entry: _Entry, end: int) -> int:
    """The largest line number of an entry's rows (rows ``entry.row_start`` to ``end``)."""
    if end <= entry.row_start:
        return entry.first_line
    last = (end - entry.row_start - 1) // entry.per_line
    return entry.first_line + (int(entry.lines[last]) if entry.lines is not None else last)


_WIDER = (np.int16, np.int32, np.int64)
WIDE = ("goal", "train", "train_na", "test", "test_na")
_DTYPES: dict[str, type] = {  # label codes widen as names arrive (pandas' own code widths), repeat
    "dataset": np.int8,  # and fold as their numbers grow (to_frame hands them on as int64)
    "repeat": np.int8,
    "fold": np.int8,
    "learner": np.int8,
    "criterion": np.int8,
    "value": np.float64,
    "goal": np.int8,
    "train": np.int64,
    "train_na": np.bool_,
    "test": np.int64,
    "test_na": np.bool_,
}
_FILL = {"goal": -1, "train_na": True, "test_na": True}


def _put(target: np.ndarray, lut: np.ndarray, codes: np.ndarray, k: int) -> None:
    """``target[:] = lut[codes]``, each value repeated k times (a wide line's criteria).

    When ``lut`` is consecutive numbers (a part's names numbered as the labels number them, as
    in a log written in order: the usual case), ``lut[codes]`` is ``codes + lut[0]``: an add,
    ten times faster than the gather."""
    if k == 1:
        if len(lut) and bool((np.diff(lut) == 1).all()):
            # in the wider of the two types: the sums are lut's numbers, which fit target's type
            np.add(codes, lut[:1].astype(target.dtype), out=target, casting="unsafe")
        else:
            np.take(lut.astype(target.dtype, copy=False), codes, out=target)
    else:
        target[:] = np.repeat(lut[codes], k)


def name_problems(labels: Labels, columns: dict[str, np.ndarray], locate: Locate, files: list[str]) -> list[LogProblem]:
    """A warning at the first line of each name holding control characters or bidi overrides
    (:mod:`stats.core.names`): kept as read, shown escaped in every output."""
    problems = []
    for kind in ("dataset", "learner", "criterion"):
        codes = columns.get(kind)
        if codes is None:
            continue
        for code, name in enumerate(labels.names(kind)):
            if not has_controls(name):
                continue
            rows = np.flatnonzero(codes == code)
            if not len(rows):
                continue
            f, line = (int(a[0]) for a in locate(rows[:1]))
            reason = f"name contains control characters: {kind} '{printable(name)}' (shown escaped)"
            problems.append(LogProblem(files[f], line, reason, "warning"))
    return problems
