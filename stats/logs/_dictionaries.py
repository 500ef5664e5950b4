"""The name and metadata columns of a columnar log's batches: each distinct value judged as a text
field is (:func:`stats.logs._formats.parse_field`), once.

An Arrow file or stream shares one dictionary among all its batches: judged again for each batch,
200,000 names in 1,000 batches of 10 rows took 178 s (issue 30, item 4). A :class:`Judgements`
remembers, per column, the last dictionary judged, known by the addresses of its buffers (kept
alive with it, so no other dictionary can take them), and a dictionary that extends it (a delta
dictionary batch) has only its new entries judged. A batch's codes are then mapped to the values
it uses by sorting the batch's codes, not by sweeping the dictionary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from stats.logs._arrow_numpy import filled, numpy_of
from stats.logs._formats import MAX_INT, BadField, parse_field
from stats.logs._parse import Coded, _first_seen


@dataclass
class _Judged:
    """A dictionary's entries judged: ``values[j]`` entry j's value (None: bad, ``wrong[j]`` says
    why); ``bad`` flags the bad codes, the null code (``len(values)``) included for names."""

    dictionary: pa.Array
    key: tuple[Any, ...]
    values: list[Any]
    wrong: dict[int, str]
    bad: np.ndarray


def _key(dictionary: pa.Array) -> tuple[Any, ...]:
    """The identity of a dictionary's data: its buffers' addresses and sizes, offset and length."""
    buffers = tuple(None if b is None else (b.address, b.size) for b in dictionary.buffers())
    return (*buffers, dictionary.offset, len(dictionary))


class Judgements:
    """The last dictionary judged for each column of one file (used by one thread at a time)."""

    def __init__(self) -> None:
        self.by_column: dict[int, _Judged] = {}

    def judged(self, column: int, dictionary: pa.Array, kind: str, label: str) -> _Judged:
        key = _key(dictionary)
        known = self.by_column.get(column)
        if known is not None and known.key == key:
            return known
        start, values, wrong = 0, [], {}
        if known is not None and len(dictionary) > len(known.values):
            if dictionary.slice(0, len(known.values)).equals(known.dictionary):  # a delta: judge the new entries
                # extended in place: the parts made before hold copies of the values they use
                start, values, wrong = len(known.values), known.values, known.wrong
        got = _judge_entries(dictionary, start, kind, label, values, wrong)
        self.by_column[column] = got
        return got


class Validated:
    """Each batch decoded from an Arrow file or stream checked whole before its values are read
    (pyarrow's ``validate(full=True)``: monotonic offsets within the data, UTF-8, indices within
    their dictionary): pyarrow's IPC reader checks only the buffers' sizes, and a forged offset
    crashed the process (a segfault in ``dictionary_encode``). A shared dictionary is checked
    once (known as :class:`Judgements` knows it); used by one thread at a time."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[pa.Array, tuple[Any, ...]]] = {}

    def __call__(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        for i, column in enumerate(batch.columns):
            if not pa.types.is_dictionary(column.type):
                column.validate(full=True)
                continue
            dictionary, key = column.dictionary, _key(column.dictionary)
            if i not in self.last or self.last[i][1] != key:
                dictionary.validate(full=True)
                self.last[i] = (dictionary, key)  # kept: its buffers' addresses stay its own
            column.indices.validate(full=True)
            low, high = pc.min_max(column.indices).values()
            if low.is_valid and (low.as_py() < 0 or high.as_py() >= len(dictionary)):
                raise ValueError(f"column {batch.schema.names[i]!r} has dictionary indices out of range")
        return batch


def _judge_entries(
    dictionary: pa.Array, start: int, kind: str, label: str, values: list[Any], wrong: dict[int, str]
) -> _Judged:
    """``dictionary``'s entries from ``start`` judged, after ``values`` and ``wrong`` (those before)."""
    for j, raw in enumerate(dictionary.slice(start).to_pylist(), start):
        try:
            values.append(_judge("" if raw is None else str(raw), kind, label))
        except BadField as exc:
            values.append(None)
            wrong[j] = str(exc)
    bad = np.zeros(len(values) + 1, bool)
    bad[list(wrong)] = True
    bad[len(values)] = kind == "name"  # the code of a null: missing metadata, or an error for a name
    return _Judged(dictionary, _key(dictionary), values, wrong, bad)


def coded_field(
    column: pa.Array,
    kind: str,
    label: str,
    note: Callable[[np.ndarray, Callable[[int], str]], None],
    judgements: Judgements | None = None,
    index: int = 0,
) -> Coded:
    """A name or metadata column as the text parser's :class:`Coded` field, bad rows given to
    ``note(rows, reason)``; a dictionary column's entries judged once per file (``judgements``,
    by the column's ``index``)."""
    shared = pa.types.is_dictionary(column.type)
    coded = column if shared else pc.dictionary_encode(column)
    if shared and judgements is not None:
        judged = judgements.judged(index, coded.dictionary, kind, label)
    else:
        judged = _judge_entries(coded.dictionary, 0, kind, label, [], {})
    n = len(judged.values)
    codes = numpy_of(filled(coded.indices, n)).astype(np.int64)
    if len(codes) and (codes.min() < 0 or codes.max() > n):
        raise ValueError(f"column {label!r} has dictionary indices out of range")
    bad = np.flatnonzero(judged.bad[codes])
    if len(bad):
        note(bad, lambda r: judged.wrong.get(int(codes[r]), f"empty {label} name (null)"))
    return _used(judged.values, codes)


def _used(values: list[Any], codes: np.ndarray) -> Coded:
    """The values the rows use, numbered in the order the rows first use them (code
    ``len(values)``: None), as :func:`_first_seen` does; for a dictionary much larger than the
    batch by sorting the batch's codes (O(rows log rows)), not by sweeping the dictionary."""
    n = len(values)
    if n <= 4 * len(codes) + 64:
        return _first_seen([*values, None], codes)
    distinct, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(distinct), np.int64)
    rank[order] = np.arange(len(distinct))
    dtype = np.int16 if len(distinct) < 2**15 else np.int32
    used = [values[c] if c < n else None for c in distinct[order].tolist()]
    return Coded(used, rank[inverse.reshape(-1)].astype(dtype))


def _judge(text: str, kind: str, label: str) -> Any:
    """A distinct name or metadata value, judged as a text field is (``metaint`` values are
    numbers here: only their range is judged)."""
    if kind == "metaint":
        number = int(text)
        if number < 0 or number > MAX_INT:
            raise BadField(f"{label} {number} is {'negative' if number < 0 else 'out of range'}")
        return number
    return parse_field(text, kind, label)  # type: ignore[arg-type]
