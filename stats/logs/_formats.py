"""The two log formats, field by field, and the problems a log line can have.

Long format (Menzies, notes on comparing learners): one result per line,
``dataset,repeat,fold,learner,criterion,value``, no header.

Wide format (Menzies, lecture notes on evaluation bias): a header line starting with
``#`` names the columns, e.g. ``#data, learner, goal, train, test, repeats,
bin, accuracy, pd, pf, precision``; every line holds one (data set, repeat,
fold, learner) and one value per criterion column.

This module is the slow, careful reading of one line (:func:`judge_line`), the
reading of one field (:func:`parse_field`, also applied to the distinct values
the fast path finds) and the problem types. It does no I/O.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from stats.core import printable_lines
from stats.core.limits import MAX_INT, MAX_LINE, MAX_VALUE, MAX_VALUE_TEXT  # (why these: there)

Severity = Literal["error", "warning"]
Kind = Literal["name", "meta", "int", "metaint", "value"]

LONG_COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")
#: Wide-format columns that are keys or metadata (lower case); every other column is a criterion.
WIDE_REQUIRED = {"data": "dataset", "learner": "learner", "repeats": "repeat", "bin": "fold"}
WIDE_META = {"goal": "meta", "train": "metaint", "test": "metaint"}

_INT = re.compile(r"-?[0-9]+\Z")
_FLOAT = re.compile(
    r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)\Z", re.IGNORECASE
)
_NONZERO = re.compile(r"[+-]?0*\.?0*[1-9]")  # a mantissa with a non-zero digit

_MAX_DECIMAL = Decimal(MAX_VALUE_TEXT)


@dataclass(frozen=True)
class LogProblem:
    """One problem found while reading a log.

    Parameters
    ----------
    file : str
        The file as it was named (``"<stdin>"`` for standard input).
    line : int or None
        Line number, counted from 1 in each file; None for a problem of the whole file.
    reason : str
        What is wrong, in words.
    severity : {"error", "warning"}
        Errors drop the line (or file) they name; warnings keep the data.

    Examples
    --------
    >>> str(LogProblem("d.dat", 3, "value 'x' is not a number"))
    "d.dat:3: value 'x' is not a number"
    >>> str(LogProblem("e.dat", None, "empty file: no results", "warning"))
    'e.dat: empty file: no results'
    """

    file: str
    line: int | None
    reason: str
    severity: Severity = "error"

    def __str__(self) -> str:
        # file names and reasons quote the logs: never a raw control character (stats.core.names)
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return printable_lines(f"{where}: {self.reason}")


class LogError(ValueError):
    """The first error of a log read with ``on_error="raise"``; the message is ``file:line: reason``.

    ``update``: raised by :meth:`stats.LogWatcher.poll`, the poll's :class:`stats.WatchUpdate`
    (the watcher has taken the poll in: whoever keeps its rows applies this one too); else None.
    """

    def __init__(self, problem: LogProblem, update: Any = None) -> None:
        super().__init__(str(problem))
        self.problem = problem
        self.update = update


@dataclass(frozen=True)
class LogSpec:
    """The columns of one log file: labels (for messages) and kinds, in file order.

    ``roles`` maps the output columns ``dataset, repeat, fold, learner`` (and ``goal, train,
    test`` in the wide format, ``criterion`` in the long one) to field positions; ``criteria``
    lists the wide format's criterion columns (their positions are ``value_fields``).
    """

    labels: tuple[str, ...]
    kinds: tuple[Kind, ...]
    roles: dict[str, int]
    criteria: tuple[str, ...] = ()
    value_fields: tuple[int, ...] = (5,)
    header: str | None = None

    @property
    def wide(self) -> bool:
        return self.header is not None


LONG = LogSpec(
    labels=LONG_COLUMNS,
    kinds=("name", "int", "int", "name", "name", "value"),
    roles={"dataset": 0, "repeat": 1, "fold": 2, "learner": 3, "criterion": 4},
)


class BadField(ValueError):
    """A field that cannot be read; the message is the problem's reason."""


def clean(field: str) -> str:
    """Strip spaces around a field and the CSV quotes the fast reader leaves when a space precedes them.

    >>> clean('  "nb, gaussian" ')
    'nb, gaussian'
    >>> clean(' "5"" screen" ')
    '5" screen'
    """
    text = field.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        text = text[1:-1].replace('""', '"').strip()
    return text


def parse_field(field: str, kind: Kind, label: str) -> Any:
    """Read one field of the given kind; raise :class:`BadField` with the reason.

    Kinds: ``name`` (non-empty text), ``meta`` (text, empty -> None), ``int`` (a whole number
    >= 0, without a sign: ``-0`` is refused), ``metaint`` (the same, empty -> None), ``value``
    (a finite decimal number that a double holds: ``1e400`` overflows and ``1e-400`` underflows
    to 0, both refused; and at most :data:`MAX_VALUE` in magnitude: ``1e308`` is refused).

    >>> parse_field(" 7 ", "int", "fold")
    7
    >>> parse_field("nan", "value", "value")
    Traceback (most recent call last):
    ...
    stats.logs._formats.BadField: value 'nan' is not finite
    >>> parse_field("1e-400", "value", "value")
    Traceback (most recent call last):
    ...
    stats.logs._formats.BadField: value '1e-400' is too small for a double (it would read as 0)
    """
    text = clean(field)
    if kind == "name":
        if not text:
            raise BadField(f"empty {label} name")
        return text
    if kind == "meta":
        return text or None
    if kind in ("int", "metaint"):
        if kind == "metaint" and not text:
            return None
        if not _INT.match(text):
            raise BadField(f"{label} {text!r} is not an integer")
        number = int(text)
        if number < 0:
            raise BadField(f"{label} {text!r} is negative")
        if text.startswith("-"):  # int("-0") is 0: a sign there is a writer's bug, not a repeat 0
            raise BadField(f"{label} {text!r} has a minus sign")
        if number > MAX_INT:
            raise BadField(f"{label} {text!r} is out of range")
        return number
    if not _FLOAT.match(text):
        raise BadField(f"{label} {text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise BadField(f"{label} {text!r} is not finite")
    if value == 0.0 and _NONZERO.match(text):  # 1e-400: below the smallest double, read as 0
        raise BadField(f"{label} {text!r} is too small for a double (it would read as 0)")
    if abs(value) >= MAX_VALUE and (abs(value) > MAX_VALUE or abs(Decimal(text)) > _MAX_DECIMAL):
        raise BadField(out_of_range(label, text))  # the decimal decides at the boundary itself
    return value


def out_of_range(label: str, text: str) -> str:
    """The reason a value above :data:`MAX_VALUE` in magnitude is refused.

    >>> out_of_range("value", "1e308")
    "value '1e308' is out of range: a result is at most 1e50 in magnitude"
    """
    return f"{label} {text!r} is out of range: a result is at most {MAX_VALUE_TEXT} in magnitude"


#: The most bytes :data:`MAX_LINE` characters take in UTF-8 (at most 4 bytes a character).
MAX_LINE_BYTES = 4 * MAX_LINE
_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8's continuation bytes, 0b10xxxxxx


def characters(data: bytes | bytearray, start: int = 0, end: int | None = None) -> int:
    """Characters of the UTF-8 text ``data[start:end]``: its bytes less the continuation bytes,
    counted 256 KiB at a time (a long line is never copied whole). A byte that is not UTF-8
    counts as a character (a stray continuation byte as none: :func:`long_line` bounds bytes too).

    >>> characters("naïve ½".encode())
    7
    """
    end, step = len(data) if end is None else end, 1 << 18
    return sum(len(data[at : min(end, at + step)].translate(None, _CONTINUATION)) for at in range(start, end, step))


def long_line(n_bytes: int, n_chars: int) -> str | None:
    """The problem of a line of ``n_bytes`` bytes holding ``n_chars`` characters (its newline and
    a carriage return before it excluded), or None when it is within :data:`MAX_LINE`.

    >>> long_line(70_000, 70_000)
    'line too long: 70,000 characters (a result line has at most 65,536)'
    """
    if n_chars > MAX_LINE:
        return f"line too long: {n_chars:,} characters (a result line has at most {MAX_LINE:,})"
    if n_bytes > MAX_LINE_BYTES:  # more bytes than MAX_LINE characters take: not UTF-8 anyway
        return f"line too long: {n_bytes:,} bytes (a result line has at most {MAX_LINE:,} characters)"
    return None


def too_long(raw: bytes | bytearray) -> str | None:
    """:func:`long_line` of one line (without its newline), judged on its bytes before it is
    decoded: a line over the limit is that problem whatever it holds (binary data, a comment,
    blanks), as when the reader skips one longer than its block (:mod:`stats.logs._sources`)."""
    n = len(raw) - (raw[-1:] == b"\r")
    return None if n <= MAX_LINE else long_line(n, characters(raw, 0, n))


def split_fields(text: str) -> list[str]:
    """CSV fields of one line; raise :class:`BadField` when a quote is never closed or the line
    is longer than :data:`MAX_LINE`.

    Text after a closing quote is kept (``"nb" ,`` reads ``nb``), as the fast reader does.

    >>> split_fields('iris, 1, 2, "nb, gaussian", pd, 0.5')
    ['iris', '1', '2', 'nb, gaussian', 'pd', '0.5']
    >>> split_fields('iris,1,2,"nb')
    Traceback (most recent call last):
    ...
    stats.logs._formats.BadField: unbalanced quote: a quoted field is never closed
    """
    if len(text) > MAX_LINE:
        raise BadField(f"line too long: {len(text):,} characters (a result line has at most {MAX_LINE:,})")
    try:
        return next(csv.reader([text], skipinitialspace=True, strict=True), [])
    except csv.Error as exc:
        if "unexpected end" in str(exc):
            raise BadField("unbalanced quote: a quoted field is never closed") from None
    try:
        return next(csv.reader([text], skipinitialspace=True), [])
    except csv.Error as exc:  # any other limit of the csv module: a problem of the line, not a crash
        raise BadField(f"unreadable line: {exc}") from None


def decode_line(raw: bytes | bytearray) -> str:
    """The text of one line (without its newline); raise :class:`BadField` for binary data.

    >>> decode_line(b"iris,1,1,nb,pd,0.5\\r")
    'iris,1,1,nb,pd,0.5'
    >>> decode_line(b"ir\\xffis")
    Traceback (most recent call last):
    ...
    stats.logs._formats.BadField: binary data: invalid UTF-8 (byte 0xff at column 3)
    """
    if b"\x00" in raw:
        raise BadField("binary data: NUL byte in the line")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadField(f"binary data: invalid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})") from None
    if text.endswith("\r"):
        text = text[:-1]
    if "\r" in text:
        raise BadField("carriage return inside the line (CR without LF)")
    return text


def judge_line(raw: bytes | bytearray, spec: LogSpec) -> list[Any] | str | None:
    """The careful reading of one line (without its newline).

    Returns the parsed fields (in file order), a reason string when the line is bad, or None for
    a blank line (and for a repeat of the wide header, which is allowed).

    >>> judge_line(b' iris , 1, 2, "nb, gaussian", pd, 0.5', LONG)
    ['iris', 1, 2, 'nb, gaussian', 'pd', 0.5]
    >>> judge_line(b"iris,1,2,nb,pd", LONG)
    'expected 6 fields, found 5'
    """
    try:
        reason = too_long(raw)
        if reason is not None:
            return reason
        text = decode_line(raw)
        if not text.strip():
            return None
        if text.lstrip().startswith("#"):
            if spec.header is not None and text.strip() == spec.header:
                return None
            return "line starts with '#': comments and second headers are not allowed"
        fields = split_fields(text)
        if len(fields) != len(spec.kinds):
            return f"expected {len(spec.kinds)} fields, found {len(fields)}"
        return [parse_field(f, k, lab) for f, k, lab in zip(fields, spec.kinds, spec.labels)]
    except BadField as exc:
        return str(exc)


def parse_header(raw: bytes | bytearray) -> LogSpec | str:
    """The spec of a wide-format file from its ``#`` header line, or the reason it is unusable.

    >>> spec = parse_header(b"#data, learner, goal, train, test, repeats, bin, accuracy, pd")
    >>> spec.criteria, spec.roles["fold"]
    (('accuracy', 'pd'), 6)
    >>> parse_header(b"#data, learner, accuracy")
    'wide header lacks the column(s) repeats, bin'
    """
    try:
        text = decode_line(raw).strip()
        names = [clean(n) for n in split_fields(text[1:])]
    except BadField as exc:
        return f"wide header: {exc}"
    lower = [n.lower() for n in names]
    missing = [k for k in WIDE_REQUIRED if k not in lower]
    if missing:
        return f"wide header lacks the column(s) {', '.join(missing)}"
    if "" in names:
        return "wide header has an empty column name"
    twice = sorted({n for n in lower if lower.count(n) > 1})
    if twice:
        return f"wide header names the column(s) {', '.join(twice)} twice"
    kinds: list[Kind] = []
    roles: dict[str, int] = {}
    for i, name in enumerate(lower):
        if name in WIDE_REQUIRED:
            roles[WIDE_REQUIRED[name]] = i
            kinds.append("int" if name in ("repeats", "bin") else "name")
        elif name in WIDE_META:
            roles[name] = i
            kinds.append(WIDE_META[name])  # type: ignore[arg-type]
        else:
            kinds.append("value")
    values = tuple(i for i, k in enumerate(kinds) if k == "value")
    if not values:
        return "wide header names no criterion column"
    return LogSpec(
        labels=tuple(names),
        kinds=tuple(kinds),
        roles=roles,
        criteria=tuple(names[i] for i in values),
        value_fields=values,
        header=text,
    )
