"""What the three engines share: the files to read, the grammar of a line they accept, the
problems they find, and the last step -- medians from two order statistics, in the logs' order,
written as the long-format Parquet file rankboard opens.

Which lines an engine accepts (the choice of issue 33): an engine reads a line only when it is in
a strict subset of what rankboard's own reader (``stats.read_logs``) accepts, and reads it to the
same result; any other line makes the engine *fail*, naming its file (and line where the engine
knows it), never drop it. Checking first with ``rankboard check`` would read the whole logs on
one node, which is what the engines are for not doing; a subset grammar checked by the engine
itself scales with it, and a refused line that rankboard would have read (a quoted name, a
name ending in a no-break space) costs a ``rankboard convert`` to Parquet, never a wrong median.

The subset: the long format, six comma-separated fields, no quote, NUL or carriage return inside
a line (a CRLF file's line ends are read as such); names (data set, learner, criterion) whose
ends are not white space as Python's ``str.strip`` sees it (spaces and tabs around them are
dropped, as rankboard drops them), the data set not starting with ``#``; repeat and fold of at
most ten digits, at most 2^31 - 1; a value in plain decimal notation (no ``nan`` or ``inf``),
below 1e50 in magnitude (rankboard's limit, whose boundary it judges on the decimal text), not a
non-zero mantissa read as 0. Lines empty or of white space only are skipped, as rankboard skips
them. A wide-format file (a ``#`` header) is refused whole: ``rankboard convert`` turns it into a
long Parquet table. The engines match each line against one regular expression (:data:`LINE`)
and check the numbers' ranges; the reason a refused line is refused is worked out here, for the
few lines a refusal quotes (:func:`diagnose`).

Which rows count (as rankboard's reader resolves reruns, and ``rankboard convert`` keeps them): a key
(dataset, repeat, fold, learner, criterion) seen twice keeps its later row (a rerun), files in
the order given (directories: every ``*.dat``/``*.dat.gz`` below, sorted; globs sorted), rows in
file order; names are ordered by the line that first uses them, replaced lines included. So a
cell's place is the first row of the cell, replaced or not: ordering the cells by it gives every
name column its order of first appearance.

The median is numpy's (Hyndman & Fan 1996, type 7; ``stats.aggregate`` computes it so, bit for
bit): with ``k = (n - 1) // 2``, ``a`` and ``b`` the ``k``-th and ``min(k + 1, n - 1)``-th
smallest values, ``a + (b - a) * 0`` for odd ``n`` and ``b - (b - a) * 0.5`` for even ``n``. The
engines compute the exact order statistics (a sort within each cell; never an approximate
quantile such as a t-digest, Dunning & Ertl 2019, or Greenwald & Khanna 2001's sketch behind
``percentile_approx``) and this module does the arithmetic, so every engine gives the same
bits as rankboard's own reading.
"""

from __future__ import annotations

import gzip
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# the readers' limits, stated once: a line beyond them is refused by rankboard's reader too
from stats.core.limits import MAX_INT, MAX_LINE, MAX_VALUE

ENGINES = ("duckdb", "dask", "spark")
#: The pip extra and the modules each engine needs.
EXTRAS = {
    "duckdb": ("duckdb", ("duckdb",)),
    "dask": ("dask", ("dask.dataframe", "distributed")),
    "spark": ("spark", ("pyspark",)),
}
LONG = ("dataset", "repeat", "fold", "learner", "criterion", "value")
NAMES = ("dataset", "learner", "criterion")
#: A position is file * FILE_STRIDE + the row's place in its file: one 64-bit order of all rows.
FILE_STRIDE = 1 << 40
#: How many of the bad lines a refusal quotes.
SHOWN = 5

#: Python's white space (``str.isspace``) and the byte-order mark: a name may not end in them.
_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"  # noqa: E501
#: Characters a line may not hold: a quote, NUL and a carriage return (rankboard reads them otherwise),
#: U+FFFD (what Spark makes of bytes that are not UTF-8, which rankboard refuses).
FORBIDDEN = '["\x00\r\ufffd]'
_NOT_IN_NAME = '",\x00\r\ufffd'


def _name(first_not: str = "") -> str:
    """A name field: spaces and tabs around a name that neither starts nor ends with white space
    (``first_not``: characters it may not start with either)."""
    first, last = f"[^{_SPACE}{_NOT_IN_NAME}{first_not}]", f"[^{_SPACE}{_NOT_IN_NAME}]"
    return f"[ \t]*(?:{first}|{first}[^{_NOT_IN_NAME}]*{last})[ \t]*"


# Regular expressions that RE2 (DuckDB, pyarrow), Java (Spark) and Python read alike, matched
# against a whole field or line (the engines anchor them): no backslash, no class shorthand.
NAME = _name()
INT = "[ \t]*[0-9]{1,10}[ \t]*"
VALUE = "[ \t]*[+-]?(?:[0-9]+[.]?[0-9]*(?:[eE][+-]?[0-9]+)?|[.][0-9]+(?:[eE][+-]?[0-9]+)?)[ \t]*"
#: A whole line the engines read (the ranges of the numbers are checked apart): one regular
#: expression a line, the per-field reasons worked out only for the lines refused (:func:`diagnose`).
LINE = f"{_name('#')},{INT},{INT},{NAME},{NAME},{VALUE}"
#: A mantissa with a non-zero digit (matched at the start of a value's text, spaces dropped).
NONZERO = "[+-]?0*[.]?0*[1-9]"
#: A line skipped: empty or white space only.
BLANK = f"[{_SPACE}]*"

#: Each problem an engine finds, by code, in words (the codes are what the engines compute).
REASONS = {
    1: f"line too long (a result line has at most {MAX_LINE:,} characters)",
    2: "a quote, NUL byte, carriage return or U+FFFD inside the line (rankboard convert reads quoted names)",
    3: "expected 6 fields",
    4: "line starts with '#': comments and second headers are not allowed",
    5: "empty name, or a name with white space other than spaces and tabs at its ends",
    6: "repeat or fold is not a whole number from 0 to 2147483647 (at most 10 digits)",
    7: "value is not a number in decimal notation",
    8: "value is 1e50 or more in magnitude (rankboard's limit)",
    9: "value is too small for a double (it would read as 0)",
    10: "missing (null) field",
}
#: The code an engine gives a text line it refuses, whose reason :func:`diagnose` works out.
REFUSED = 99


def diagnose(text: str) -> int:
    """The reason code (:data:`REASONS`) of a text line an engine refused (0: none found)."""
    import re

    if len(text) > MAX_LINE:
        return 1
    if text.lstrip().startswith("#"):
        return 4
    if re.search(FORBIDDEN, text):
        return 2
    fields = text.split(",")
    if len(fields) != 6:
        return 3
    if not all(re.fullmatch(NAME, fields[i]) for i in (0, 3, 4)):
        return 5
    if not all(re.fullmatch(INT, fields[i]) and int(fields[i]) <= MAX_INT for i in (1, 2)):
        return 6
    if not re.fullmatch(VALUE, fields[5]):
        return 7
    value = float(fields[5])
    if abs(value) >= MAX_VALUE:
        return 8
    if value == 0 and re.match(NONZERO, fields[5].strip(" \t")):
        return 9
    return 0


class EngineMissing(Exception):
    """The engine's modules are not installed; the message says what to install."""


class EngineRefused(Exception):
    """The engine found lines or files it will not read; the message names them."""


@dataclass(frozen=True)
class Source:
    """One file to read: its place in the order, its path as given (for messages), and its kind
    (``text`` or ``parquet``); for Parquet, the file's names of the six long columns (in
    :data:`LONG` order). ``absolute`` is what the engines read: a worker's working directory is
    not the command's."""

    index: int
    path: str
    kind: str
    columns: tuple[str, ...] = LONG

    @property
    def absolute(self) -> str:
        return os.path.abspath(self.path)


@dataclass
class Problem:
    """A bad line an engine found: its source, its line (1-based; None when the engine cannot
    tell), the reason code and the line's text (or its fields)."""

    source: int
    line: int | None
    code: int
    text: str


@dataclass
class Cells:
    """What an engine returns: one row per (criterion, dataset, learner) cell, as columns: the
    names, ``first`` (the position of the cell's first row), ``n`` (results kept) and ``a``,
    ``b`` (the order statistics of the median, see the module's docstring)."""

    columns: dict[str, Any] = field(default_factory=dict)


def load(engine: str) -> None:
    """Import the engine's modules now; :class:`EngineMissing` says what to install when one is missing."""
    import importlib

    extra, modules = EXTRAS[engine]
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise EngineMissing(
                f"--engine {engine} needs {module.split('.')[0]}, which is not installed ({exc}): "
                f'pip install "rankboard[{extra}]"'
            ) from None


def sources(paths: list[str]) -> list[Source]:
    """The files ``paths`` name, in the order rankboard reads them (``stats.logs.log_paths``:
    files, directories, globs sorted, engine bookkeeping skipped; a file named twice once).

    Raises
    ------
    EngineRefused
        A path names nothing, a directory holds no log, a file is a wide-format text log, an
        Arrow (Feather) file, a Parquet table without the long columns, or standard input.
    """
    from stats.logs import log_paths

    found, problems = log_paths(*paths)
    errors = [p for p in problems if p.severity == "error"] or ([] if found else problems)
    if errors:
        raise EngineRefused("; ".join(f"{p.file}: {p.reason}" for p in errors[:5]))
    for p in problems:  # a warning (part files beside *.dat logs, not read): said, as check says it
        print(f"rankboard: {p.file}: warning: {p.reason}", file=sys.stderr)
    return [_source(index, path) for index, path in enumerate(found)]


def _source(index: int, path: str) -> Source:
    """The :class:`Source` of one file, its kind told by its magic bytes (never its name)."""
    with open(path, "rb") as handle:
        head = handle.read(8)
        if head.startswith(b"PAR1"):
            return Source(index, path, "parquet", _parquet_columns(path))
        if head.startswith((b"ARROW1", b"\xff\xff\xff\xff")):
            raise EngineRefused(
                f"{path}: an Arrow (Feather) table: the engines read Parquet; rankboard convert {path} -o FILE.parquet"
            )
    packed = head.startswith(b"\x1f\x8b")
    if packed != path.endswith(".gz"):  # the engines tell gzip by the name, rankboard by the bytes
        what = "gzip data in a file not named *.gz" if packed else "a *.gz file that is not gzip data"
        raise EngineRefused(f"{path}: {what}: the engines tell compression by the name; rename it")
    opener: Any = gzip.open if packed else open
    with opener(path, "rb") as handle:
        first = b""
        for raw in handle:
            if raw.strip():
                first = raw
                break
            if handle.tell() > MAX_LINE * 4:
                break
    if first.lstrip().startswith(b"#"):
        raise EngineRefused(
            f"{path}: a wide-format log (a '#' header): the engines read the long format; "
            f"rankboard convert {path} -o FILE.parquet writes it as a long table"
        )
    return Source(index, path, "text")


def _parquet_columns(path: str) -> tuple[str, ...]:
    """The file's names of the long columns (any case, as rankboard reads them)."""
    import pyarrow.parquet as pq

    names = [n for n in pq.read_schema(path).names if n != "__index_level_0__"]
    columns = []
    for wanted in LONG:
        same = [n for n in names if n.lower() == wanted]
        partition = [part for part in Path(path).parent.parts if part.lower().startswith(f"{wanted}=")]
        if not same and partition:  # a hive partition: the column is in the path, not in the file
            raise EngineRefused(
                f"{path}: its {wanted!r} is in the path ({partition[-1]}/, a hive partition), not in the file: "
                f"the engines read the columns in the files; rankboard convert DIR -o FILE.parquet writes them in"
            )
        if len(same) != 1:
            why = "has no" if not same else "has more than one"
            raise EngineRefused(
                f"{path}: {why} column {wanted!r}: the engines read long tables (dataset, repeat, fold, learner, "
                "criterion, value); rankboard convert writes one"
            )
        columns.append(same[0])
    return tuple(columns)


def refusal(problems: list[Problem], total: int, files: list[Source], engine: str) -> EngineRefused:
    """The error naming the first bad lines (file:line: reason: text) and how many there are."""
    from stats.core.names import printable_lines

    lines = []
    for p in problems[:SHOWN]:
        where = files[p.source].path + ("" if p.line is None else f":{p.line}")
        code = diagnose(p.text) if p.code == REFUSED else p.code
        lines.append(printable_lines(f"  {where}: {REASONS.get(code, 'refused')}: {p.text[:200]!r}"))
    more = f"\n  ... and {total - SHOWN:,} more" if total > SHOWN else ""
    named = sorted({files[p.source].path for p in problems[:SHOWN]})
    return EngineRefused(
        f"--engine {engine} refuses the logs: {total:,} line(s) it will not read (nothing written):\n"
        + "\n".join(lines)
        + more
        + f"\nrankboard check {' '.join(named)} names every problem; fix them, or read the logs with "
        "rankboard itself (rankboard report, --memory)"
    )


def medians(cells: Cells) -> Any:
    """The long-format table (pyarrow) of the cells' medians, repeat 1 and fold 1, the cells in
    the order of their first rows (so each name column keeps its order of first appearance)."""
    import numpy as np
    import pyarrow as pa

    c = cells.columns
    order = np.argsort(np.asarray(c["first"], np.int64), kind="stable")
    n = np.asarray(c["n"], np.int64)[order]
    a = np.asarray(c["a"], np.float64)[order]
    b = np.asarray(c["b"], np.float64)[order]
    diff = b - a
    value = np.where(n % 2 == 1, a + diff * 0.0, b - diff * 0.5)  # numpy's _lerp at gamma 0 and 0.5
    ones = pa.array(np.ones(len(order), np.int32))
    names = {k: pa.array(np.asarray(c[k], object)[order], pa.string()) for k in NAMES}
    return pa.table(
        {
            "dataset": names["dataset"].dictionary_encode(),
            "repeat": ones,
            "fold": ones,
            "learner": names["learner"].dictionary_encode(),
            "criterion": names["criterion"].dictionary_encode(),
            "value": pa.array(value),
        }
    )


def write(table: Any, output: str, force: bool) -> str:
    """Write ``table`` as Parquet to ``output`` atomically (a temporary file, then one rename;
    an existing file refused without ``force``: :func:`tui.output.write_output`)."""
    import pyarrow.parquet as pq

    from tui.output import write_output

    return write_output(lambda handle: pq.write_table(table, handle, compression="zstd"), Path(output), force=force)
