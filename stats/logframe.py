"""Parts of log files -> one tidy frame; duplicate results found with vectorised keys.

Label columns become pandas Categoricals whose categories are the names in the
order they first appear. A wide-format line becomes one row per criterion
column. Duplicate keys (dataset, repeat, fold, learner, criterion) are found on
one packed integer per row: keys that only increase have none; otherwise row
numbers are scattered into a table indexed by key (or, for a large key space,
hashed with ``pandas.Index.duplicated``); only the duplicated rows are sorted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats.logformat import LogProblem, LogSpec
from stats.logparse import Coded, Part
from stats.names import INVISIBLE, has_controls, printable, show_invisible, without_invisible

KEY = ("dataset", "repeat", "fold", "learner", "criterion")
LABELS = ("dataset", "learner", "criterion", "goal")


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
        (:data:`stats.names.INVISIBLE`): ``'\\ufeffiris'`` is ``iris``."""
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
        return pd.Index(list(self.ids[name]), dtype="str")

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
        array = self.arrays[name]
        if len(lut) and lut.max() > np.iinfo(array.dtype).max:
            array = self.arrays[name] = array.astype(np.int16 if array.dtype == np.int8 else np.int32)
        return array[rows]

    def finish(self) -> dict[str, np.ndarray]:
        """The filled arrays, trimmed in place to the rows read."""
        for array in self.arrays.values():
            array.resize(self.size, refcheck=False)
        return self.arrays

    def locate(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """File index and line number of the given rows."""
        starts = np.array([e.row_start for e in self.entries])
        which = np.searchsorted(starts, rows, side="right") - 1
        files, lines = np.empty(len(rows), np.int64), np.empty(len(rows), np.int64)
        for w in np.unique(which).tolist():
            e = self.entries[w]
            mask = which == w
            local = (rows[mask] - e.row_start) // e.per_line
            files[mask] = e.file
            lines[mask] = e.first_line + (local if e.lines is None else e.lines[local])
        return files, lines


WIDE = ("goal", "train", "train_na", "test", "test_na")
_DTYPES: dict[str, type] = {  # label codes widen as names arrive (pandas' own code widths)
    "dataset": np.int8,
    "repeat": np.int64,
    "fold": np.int64,
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
    """``target[:] = lut[codes]``, each value repeated k times (a wide line's criteria)."""
    if k == 1:
        np.take(lut.astype(target.dtype, copy=False), codes, out=target)
    else:
        target[:] = np.repeat(lut[codes], k)


def duplicate_pairs(columns: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rows (earlier, later) with the same key, each later row paired with the previous one.

    The five key columns are packed into one integer per row (mixed radix), a chunk at a time.
    Keys that only increase (seed 000's loop writes them so) have no duplicates; otherwise each
    key's last row is found by scattering row numbers into a table indexed by key, or, when the
    key space is large, by hashing.

    >>> cols = {k: np.array(v) for k, v in zip(KEY, ([0, 0, 0], [1, 1, 1], [1, 2, 1], [0, 0, 0], [0, 0, 0]))}
    >>> duplicate_pairs(cols)
    (array([0]), array([2]))
    """
    n = len(columns[KEY[0]])
    none = np.empty(0, np.int64), np.empty(0, np.int64)
    if n < 2:
        return none
    lows, spans = [], []
    for k in KEY:
        low, high = (0, int(columns[k].max())) if k in LABELS else (int(columns[k].min()), int(columns[k].max()))
        lows.append(low)
        spans.append(high - low + 1)
    space = int(np.prod(np.array(spans, dtype=object)))
    if space >= 2**62:  # pragma: no cover - needs absurd repeat or fold numbers
        frame = pd.DataFrame({k: columns[k] for k in KEY})
        rows = np.flatnonzero(frame.duplicated(keep=False).to_numpy())
        group = frame.iloc[rows].groupby(list(KEY), sort=False).ngroup().to_numpy()
    else:
        dtype = np.int32 if space < 2**31 else np.int64
        chunks = [(s, min(s + _CHUNK, n)) for s in range(0, n, _CHUNK)]
        previous = -1
        for s, e in chunks:
            key = _packed(columns, lows, spans, s, e, dtype)
            if key[0] <= previous or (key[1:] <= key[:-1]).any():
                break
            previous = key[-1]
        else:
            return none
        if space <= max(4 * n, 1 << 20):
            # Scatter row numbers by key: the last row of each key stays; rows that are not are duplicates.
            last = np.empty(space, dtype)
            for s, e in chunks:
                last[_packed(columns, lows, spans, s, e, dtype)] = np.arange(s, e, dtype=dtype)
            earlier = np.concatenate(
                [
                    np.flatnonzero(last[_packed(columns, lows, spans, s, e, dtype)] != np.arange(s, e)) + s
                    for s, e in chunks
                ]
            )
            rows = np.union1d(earlier, last[_packed(columns, lows, spans, 0, n, dtype)[earlier]])
        else:
            rows = np.flatnonzero(pd.Index(_packed(columns, lows, spans, 0, n, dtype)).duplicated(keep=False))
        group = _packed(columns, lows, spans, 0, n, dtype)[rows] if len(rows) else rows
    if not len(rows):
        return none
    order = np.lexsort((rows, group))
    rows, group = rows[order], group[order]
    same = group[1:] == group[:-1]
    earlier, later = rows[:-1][same], rows[1:][same]
    order = np.argsort(later, kind="stable")
    return earlier[order], later[order]


_CHUNK = 1 << 20


def _packed(
    columns: dict[str, np.ndarray], lows: list[int], spans: list[int], start: int, stop: int, dtype: type
) -> np.ndarray:
    """One integer per row of ``start:stop`` from the five key columns (mixed radix)."""
    key: np.ndarray = np.empty(stop - start, dtype)
    np.subtract(columns[KEY[0]][start:stop], lows[0], out=key, casting="unsafe")
    for k, low, span in zip(KEY[1:], lows[1:], spans[1:]):
        key *= span
        key += columns[k][start:stop]
        if low:
            key -= low
    return key


Locate = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def duplicate_problems(
    labels: Labels,
    columns: dict[str, np.ndarray],
    earlier: np.ndarray,
    later: np.ndarray,
    locate: Locate,
    files: list[str],
) -> list[LogProblem]:
    """One warning per duplicated line, or per run of consecutive lines repeating consecutive lines.

    ``locate`` gives the file index and line number of rows; ``files`` the names of the indices.
    """
    ef, el = locate(earlier)
    lf, ll = locate(later)
    # A wide line repeats all its criteria at once: one pair of lines, several rows.
    pairs, first, count = np.unique(np.column_stack([lf, ll, ef, el]), axis=0, return_index=True, return_counts=True)
    names = {k: labels.names(k) for k in ("dataset", "learner", "criterion")}
    step = np.diff(pairs, axis=0)
    breaks = np.flatnonzero(~((step[:, 0] == 0) & (step[:, 2] == 0) & (step[:, 1] == 1) & (step[:, 3] == 1))) + 1
    problems = []
    for start, run in zip(np.r_[0, breaks].tolist(), np.split(pairs, breaks)):
        (f, l1, g, e1), (_, l2, _, e2) = run[0].tolist(), run[-1].tolist()
        where = "" if f == g else f"{files[g]}:"
        if len(run) == 1:
            what = _describe(names, columns, int(later[first[start]]), int(count[start]))
            reason = f"duplicate of {where or 'line '}{e1} ({what}): the later line wins"
        else:
            reason = f"lines {l1}-{l2} repeat the results of {where or 'lines '}{e1}-{e2}: the later lines win"
        problems.append(LogProblem(files[f], l1, reason, "warning"))
    return problems


def name_problems(labels: Labels, columns: dict[str, np.ndarray], locate: Locate, files: list[str]) -> list[LogProblem]:
    """A warning at the first line of each name holding control characters or bidi overrides
    (:mod:`stats.names`): kept as read, shown escaped in every output."""
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


def _describe(names: dict[str, list[str]], columns: dict[str, np.ndarray], row: int, criteria: int) -> str:
    """The key of a row in words; for a wide line's several criteria, how many."""
    label = {k: names[k][columns[k][row]] for k in names}
    what = f"{label['dataset']}, repeat {columns['repeat'][row]}, fold {columns['fold'][row]}, {label['learner']}"
    return f"{what}, {label['criterion']}" if criteria == 1 else f"{what}, {criteria} criteria"
