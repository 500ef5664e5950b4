"""Read a block of complete log lines: pyarrow for the lines that parse, Python for the rest.

The fast path hands the block to ``pyarrow.csv`` (one thread per block; the caller
runs blocks in parallel) with the text columns read as dictionaries of raw bytes,
repeat and fold as int32 (as dictionaries when the block holds an ``x``: pyarrow
reads ``0x1A`` as a number) and the values as float64 (quoting off when the block
has no quote). Each dictionary's distinct values are checked once in Python
(:func:`stats.logs._formats.parse_field`), numbers vectorised (``numpy.isfinite``,
sign). Only the lines that fail reach :func:`stats.logs._formats.judge_line`, which
names the problem: a clean block never loops over its lines in Python.

Line numbers come from pyarrow's row numbers (single-threaded, they count the
non-empty lines) and, when a block has empty lines or problems, from the
positions of its newlines. A block goes the careful way (every column read as a
dictionary, bad lines blanked out first) when it holds NUL bytes or a lone
carriage return, when pyarrow cannot convert a value, or when a quote left open
swallowed the next lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pv

from stats.logs._arrow_numpy import filled, nulls, numpy_of
from stats.logs._formats import MAX_LINE, MAX_VALUE, BadField, LogSpec, Severity, judge_line, parse_field

_DICT = pa.dictionary(pa.int32(), pa.binary())
# Markers that pyarrow turns into nulls in value columns (so they are judged, not converted).
_NULLS = ["", "NA", "N/A", "NULL", "null", "None"]


@dataclass
class Coded:
    """A column as distinct values and one code per row (``values[codes[i]]`` is row i's value)."""

    values: list[Any]
    codes: np.ndarray


@dataclass
class Part:
    """The rows of one block of lines, in line order.

    ``fields`` follows the spec: a :class:`Coded` for names and metadata, an integer array for
    repeat and fold, a float64 array for values. ``lines`` is the 0-based line of each row
    within the block (None: row i is line i). ``problems`` holds (0-based line, reason, severity).
    """

    fields: list[Any]
    lines: np.ndarray | None
    n_lines: int
    problems: list[tuple[int, str, Severity]] = field(default_factory=list)

    @property
    def n_rows(self) -> int:
        first = self.fields[0]
        return len(first.codes) if isinstance(first, Coded) else len(first)


class _Swallowed(Exception):
    """An open quote made pyarrow read several lines as one."""


class _Lines:
    """The lines of ``data[start:end]`` (which ends with a newline), located on demand."""

    def __init__(self, data: bytes | bytearray, start: int, end: int) -> None:
        self.data, self.start, self.end = data, start, end

    @cached_property
    def bytes_(self) -> np.ndarray:
        return np.frombuffer(self.data, np.uint8, count=self.end - self.start, offset=self.start)

    @cached_property
    def spans(self) -> tuple[np.ndarray, np.ndarray]:
        ends = np.flatnonzero(self.bytes_ == 10)
        starts = np.empty_like(ends)
        starts[:1] = 0
        starts[1:] = ends[:-1] + 1
        return starts, ends

    def raw(self, i: int) -> bytes:
        starts, ends = self.spans
        return bytes(self.data[self.start + starts[i] : self.start + ends[i]])

    def holding(self, positions: np.ndarray) -> np.ndarray:
        """Lines holding the given byte positions."""
        return np.unique(np.searchsorted(self.spans[1], positions))

    def suspects(self) -> np.ndarray:
        """Lines pyarrow must not see: NUL bytes, a carriage return not followed by a newline,
        bytes that are not UTF-8 (pyarrow decodes a line of the wrong width before handing it to
        the invalid-row handler: on such bytes it fails the whole block), and lines longer than
        :data:`MAX_LINE` bytes (pyarrow would read a 4 MB name; judge_line says whether the line
        is too long or holds multi-byte characters within the limit)."""
        long = self.long()
        if long.size:
            return np.union1d(long, self._suspects())
        return self._suspects()

    def long(self) -> np.ndarray:
        """Lines longer than :data:`MAX_LINE` bytes (a carriage return included). A line starts
        at ``at``; the last newline within MAX_LINE + 1 bytes of it ends the lines that are not
        too long, and the next line starts after it: a block without a long line costs one
        ``rfind`` per 64 KiB (memrchr), not a pass over its newlines."""
        data, at, end = self.data, self.start, self.end
        while at < end:
            newline = data.rfind(b"\n", at, min(end, at + MAX_LINE + 1))
            if newline < 0:  # the line at ``at`` is longer: list them all
                starts, ends = self.spans
                return np.flatnonzero(ends - starts > MAX_LINE)
            at = newline + 1
        return np.empty(0, np.int64)

    def _suspects(self) -> np.ndarray:
        data, start, end = self.data, self.start, self.end
        nul = data.find(b"\x00", start, end) >= 0
        lone_cr = data.find(b"\r", start, end) >= 0 and data.count(b"\r", start, end) != data.count(b"\r\n", start, end)
        high = self.bytes_.size > 0 and int(self.bytes_.max()) >= 0x80  # numpy: no GIL, ~0.2 ms for 4 MB
        not_utf8 = self.not_utf8() if high else np.empty(0, np.int64)
        if not (nul or lone_cr):
            return not_utf8
        a = self.bytes_
        bad = np.flatnonzero(a == 0) if nul else np.empty(0, np.int64)
        if lone_cr:
            cr = np.flatnonzero(a[:-1] == 13)
            bad = np.concatenate([bad, cr[a[cr + 1] != 10]])
        return np.union1d(self.holding(bad), not_utf8)

    def not_utf8(self) -> np.ndarray:
        """The lines that are not UTF-8 (one decoding of the block when it is; only blocks with
        bytes above 0x7f get here)."""
        data = memoryview(self.data)[self.start : self.end]
        bad, at = [], 0
        while at < len(data):
            try:
                str(data[at:], "utf-8")
                break
            except UnicodeDecodeError as exc:
                bad.append(at + exc.start)
                newline = self.data.find(b"\n", self.start + at + exc.start, self.end)
                at = len(data) if newline < 0 else newline - self.start + 1
        return self.holding(np.array(bad, np.int64))

    def quoted(self) -> np.ndarray:
        return self.holding(np.flatnonzero(self.bytes_ == ord('"')))

    def nonempty(self, blank: np.ndarray) -> np.ndarray:
        """Lines pyarrow reads as rows: not empty (a lone CR before the newline counts as empty)."""
        starts, ends = self.spans
        a = self.bytes_
        length = ends - starts
        length -= (length > 0) & (a[np.maximum(ends - 1, 0)] == 13)
        keep = length > 0
        keep[blank] = False
        return np.flatnonzero(keep)

    def blanked(self, blank: np.ndarray) -> bytes:
        """The block with the given lines emptied (their newlines stay, so numbering holds)."""
        starts, ends = self.spans
        marks = np.zeros(len(self.bytes_) + 1, np.int32)
        np.add.at(marks, starts[blank], 1)
        np.add.at(marks, ends[blank], -1)
        return self.bytes_[np.cumsum(marks[:-1]) == 0].tobytes()


def parse_block(data: bytes | bytearray, start: int, end: int, spec: LogSpec) -> Part:
    """Read the complete lines ``data[start:end]`` (ending with a newline) with the given spec.

    Parameters
    ----------
    data : bytes
        Buffer holding the block (not copied).
    start, end : int
        The block's bounds in ``data``.
    spec : LogSpec
        Columns of the file (long format, or the wide header's).

    Returns
    -------
    Part
        Rows that passed, in line order, and the problems of the others (errors).
    """
    lines = _Lines(data, start, end)
    n_lines = int(np.count_nonzero(lines.bytes_ == 10))  # numpy releases the GIL; bytes.count does not
    blank = lines.suspects()
    # pyarrow reads "0x1A" and "-0" as integers and "1e-400" as 0.0: blocks that may hold them read
    # repeat and fold (or every column) as dictionaries, whose values parse_field judges.
    minus = _Minus(lines)
    if blank.size or _has_tiny_exponent(data, start, end, minus):
        mode = "careful"
    elif _has_x(data, start, end) or _has_minus_zero(data, start, end, minus):
        mode = "dict-ints"
    else:
        mode = "fast"
    for _ in range(3):
        try:
            return _read(lines, spec, n_lines, blank, mode)
        except _Swallowed:
            blank = np.union1d(blank, lines.quoted())
        except pa.ArrowInvalid:
            mode = "careful"
    raise RuntimeError("internal error: a block could not be read")  # pragma: no cover


def _has_x(data: bytes | bytearray, start: int, end: int) -> bool:
    return data.find(b"x", start, end) >= 0 or data.find(b"X", start, end) >= 0


# An exponent of -300 or less (a double underflows to 0 below about 1e-324).
_TINY = re.compile(rb"[eE][ \t]*-0*(?:[3-9][0-9]{2}|[1-9][0-9]{3,})")
# A field that is a signed zero ("-0", " -00 ", quoted or not).
_MINUS_ZERO = re.compile(rb'(?:^|[,"])[ \t]*-0+[ \t]*(?=[,"\r\n])', re.MULTILINE)


class _Minus:
    """Where a block's minus signs are, and what is next to them: a two-byte ``find`` scans at
    ~1 GB/s holding the GIL (the parse threads wait on it), where a one-byte find is memchr and
    numpy's comparisons release the GIL. Most blocks have no minus sign at all."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self.none = lines.data.find(b"-", lines.start, lines.end) < 0

    @cached_property
    def at(self) -> np.ndarray:
        return np.flatnonzero(self.lines.bytes_ == ord("-"))

    def after(self, byte: bytes, offset: int) -> bool:
        """Whether some minus sign has ``byte`` at ``offset`` from it (within the block)."""
        a, at = self.lines.bytes_, self.at + offset
        at = at[(at >= 0) & (at < a.size)]
        return bool((a[at] == ord(byte)).any())

    def follows(self, text: bytes) -> bool:
        """Whether ``text`` + ``-`` occurs in the block (``data.find(text + b"-") >= 0``)."""
        a, at = self.lines.bytes_, self.at
        hit = at >= len(text)
        for k, byte in enumerate(reversed(text), start=1):
            hit[hit] &= a[at[hit] - k] == byte
        return bool(hit.any())


def _has_tiny_exponent(data: bytes | bytearray, start: int, end: int, minus: _Minus) -> bool:
    if minus.none or not (minus.follows(b"e") or minus.follows(b"E") or minus.follows(b"e ")):
        return False  # most blocks have no negative exponent at all
    return _TINY.search(data, start, end) is not None


def _has_minus_zero(data: bytes | bytearray, start: int, end: int, minus: _Minus) -> bool:
    if minus.none or not minus.after(b"0", 1):
        return False
    return _MINUS_ZERO.search(data, start, end) is not None


def _arrow(buf: Any, spec: LogSpec, mode: str, quoted: bool) -> tuple[pa.Table | None, list[tuple[int, str]]]:
    """pyarrow's reading of a block: values as float64 and repeat/fold as int32 in the fast mode,
    everything else as dictionaries of raw bytes (never a conversion error in the careful mode).
    Without a quote in the block, quoting is switched off (a faster parser)."""
    names = [f"f{i}" for i in range(len(spec.kinds))]
    fast = {"value": pa.float64(), "int": pa.int32() if mode == "fast" else _DICT}
    types = {n: _DICT if mode == "careful" else fast.get(k, _DICT) for n, k in zip(names, spec.kinds)}
    invalid: list[tuple[int, str]] = []

    def handler(row: Any) -> str:
        invalid.append((row.number, row.text))
        return "skip"

    try:
        table = pv.read_csv(
            pa.BufferReader(buf),
            read_options=pv.ReadOptions(column_names=names, use_threads=False, block_size=len(buf) + 1024),
            parse_options=pv.ParseOptions(invalid_row_handler=handler, quote_char='"' if quoted else False),
            convert_options=pv.ConvertOptions(column_types=types, null_values=_NULLS, strings_can_be_null=False),
        )
    except pa.ArrowInvalid as exc:
        if "Empty CSV file" in str(exc):
            return None, invalid
        raise
    return table, invalid


def _read(lines: _Lines, spec: LogSpec, n_lines: int, blank: np.ndarray, mode: str) -> Part:
    view = lines.blanked(blank) if blank.size else memoryview(lines.data)[lines.start : lines.end]
    quoted = lines.data.find(b'"', lines.start, lines.end) >= 0
    table, invalid = _arrow(pa.py_buffer(view), spec, mode, quoted)
    if any("\n" in text for _, text in invalid):
        raise _Swallowed
    n = table.num_rows if table is not None else 0
    bad = np.zeros(n, bool)
    fields = [_column(table, i, kind, label, bad) for i, (kind, label) in enumerate(zip(spec.kinds, spec.labels))]
    # Row -> line: pyarrow numbers the non-empty lines 1, 2, ... and skips the invalid ones.
    skipped = np.array(sorted(number - 1 for number, _ in invalid), np.int64)
    total = n + len(skipped)
    if not blank.size and total == n_lines:
        rows = None if not len(skipped) else np.delete(np.arange(total), skipped)
        skipped_lines = skipped
    else:
        nonempty = lines.nonempty(blank)
        if len(nonempty) != total:
            raise RuntimeError("internal error: pyarrow's rows do not match the lines")  # pragma: no cover
        is_row = np.ones(total, bool)
        is_row[skipped] = False
        rows, skipped_lines = nonempty[is_row], nonempty[~is_row]
    if not (bad.any() or len(skipped) or blank.size):
        return Part(fields, rows, n_lines)
    row_lines = np.arange(n) if rows is None else rows
    judged = np.union1d(np.union1d(row_lines[bad], skipped_lines), blank)
    return _with_judged(fields, row_lines, ~bad, judged, lines, spec, n_lines)


def _column(table: pa.Table | None, i: int, kind: str, label: str, bad: np.ndarray) -> Any:
    """Column i, marking its bad rows: float64 for values, int arrays for repeat and fold (int32
    from pyarrow, or int64 from the dictionary), :class:`Coded` for names and metadata."""
    if table is None:
        return np.empty(0) if kind == "value" else np.empty(0, np.int32) if kind == "int" else Coded([], np.empty(0))
    column = table.column(i)
    if not pa.types.is_dictionary(column.type):
        bad |= nulls(column)  # an empty field, NA, null...
        values = numpy_of(filled(column, 0))
        # not finite, or beyond MAX_VALUE (the boundary itself too: its text decides, in judge_line)
        bad |= ~(np.abs(values) < MAX_VALUE) if kind == "value" else values < 0
        return values
    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    decoded, wrong = [], []
    for j, raw in enumerate(array.dictionary.to_pylist()):
        if b"\n" in raw:
            raise _Swallowed
        try:
            text = raw.decode("utf-8")
            if i == 0 and text.lstrip().startswith("#"):
                raise BadField("comment")
            decoded.append(parse_field(text, kind, label))  # type: ignore[arg-type]
        except (UnicodeDecodeError, BadField):
            decoded.append(None)
            wrong.append(j)
    codes = numpy_of(array.indices)
    if wrong:
        bad |= np.isin(codes, wrong)
    if kind in ("value", "int"):
        lut = np.array([0 if v is None else v for v in decoded], float if kind == "value" else np.int64)
        return lut[codes]
    return Coded(decoded, codes.astype(np.int16) if len(decoded) < 2**15 else codes)


def _with_judged(
    fields: list[Any],
    row_lines: np.ndarray,
    keep: np.ndarray,
    judged: np.ndarray,
    lines: _Lines,
    spec: LogSpec,
    n_lines: int,
) -> Part:
    """Drop the rows that failed, judge their lines in Python, insert the lines that pass."""
    problems: list[tuple[int, str, Severity]] = []
    extra: list[tuple[int, list[Any]]] = []
    for i in judged.tolist():
        verdict = judge_line(lines.raw(i), spec)
        if isinstance(verdict, str):
            problems.append((i, verdict, "error"))
        elif verdict is not None:
            extra.append((i, verdict))
    out_lines = np.concatenate([row_lines[keep], np.array([i for i, _ in extra], np.int64)])
    order = np.argsort(out_lines, kind="stable")
    new_fields: list[Any] = []
    for k, col in enumerate(fields):
        more = [record[k] for _, record in extra]
        if isinstance(col, Coded):
            codes = np.concatenate([col.codes[keep], np.arange(len(col.values), len(col.values) + len(more))])
            new_fields.append(_first_seen(col.values + more, codes[order]))
        else:
            new_fields.append(np.concatenate([col[keep], np.array(more, col.dtype)])[order])
    return Part(new_fields, out_lines[order], n_lines, problems)


def _first_seen(values: list[Any], codes: np.ndarray) -> Coded:
    """Keep the values the rows use, numbered in the order the rows first use them."""
    n = len(codes)
    first = np.full(len(values), n)
    first[codes[::-1]] = np.arange(n)[::-1]
    used = np.flatnonzero(first < n)
    used = used[np.argsort(first[used])]
    remap = np.zeros(len(values), np.int64)
    remap[used] = np.arange(len(used))
    dtype = np.int16 if len(used) < 2**15 else np.int32
    return Coded([values[u] for u in used.tolist()], remap[codes].astype(dtype))
