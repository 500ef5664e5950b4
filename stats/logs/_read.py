"""Read cross-validation logs (long and wide format) into one tidy frame, naming every problem.

Formats (see :mod:`stats.logs._formats`): the long format of Menzies' notes
(``dataset,repeat,fold,learner,criterion,value``, no header) and the wide
format of his lecture notes (a ``#data, learner, goal, train, test, repeats, bin,
<criteria...>`` header, one line per fold and learner). Each file's format is
taken from its first non-blank line: ``#`` starts a wide header.

How it is fast: files are read in 4 MB blocks parsed by ``pyarrow.csv`` in a
thread pool (:mod:`stats.logs._parse`), small files several to a block
(:mod:`stats.logs._group`), names and repeat/fold numbers are read as
dictionaries and checked once per distinct value, and only the lines that fail
go through Python. Duplicates are found on packed integer keys
(:mod:`stats.logs._frame`).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
import pyarrow as pa

from stats.core import LogRead, import_ahead
from stats.logs._columnar_limits import declared_rows
from stats.logs._duplicates import compact, resolve
from stats.logs._formats import LogError, LogProblem, LogSpec
from stats.logs._frame import Columns, Labels, name_problems
from stats.logs._group import Ahead
from stats.logs._gzip_size import gzip_text_size
from stats.logs._parse import Part
from stats.logs._paths import DECOMPRESSION, Decompression, Source, expand
from stats.logs._progress import LoadCancelled, Meter, Progress
from stats.logs._sources import WORKERS, NoPool, read_source, stored_size

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["LoadCancelled", "LogError", "LogProblem", "read_logs"]

COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")
_SHORTEST_LINE = 12  # "a,1,1,b,c,1\n": a long-format file of n bytes holds at most n / 12 results
OnError = Literal["raise", "skip"]


def read_logs(
    *paths: str | os.PathLike[str],
    on_error: OnError = "raise",
    progress: Progress | None = None,
    decompression: Decompression = DECOMPRESSION,
) -> LogRead:
    """Read cross-validation logs into one tidy frame, one row per result.

    Parameters
    ----------
    *paths : str or path-like
        Files (plain or gzip-compressed, found by their magic bytes), directories (every
        ``*.dat`` and ``*.dat.gz`` below, recursively, in sorted order; in a directory without
        them, the Parquet and Arrow part files an engine wrote, hive partitions read back into
        columns: :mod:`stats.logs._dataset`), glob patterns (expanded
        here, ``**`` included, so they work unexpanded by a shell) and ``-`` for standard input.
        A file named twice is read once.
    on_error : {"raise", "skip"}
        ``"raise"``: the first error raises :class:`LogError` (``file:line: reason``).
        ``"skip"``: bad lines (and unreadable files) are left out and listed. Warnings never
        raise.
    decompression : Decompression, optional
        How far a gzip log may expand (``stats.Decompression(max_ratio=200, max_bytes=16 GiB)``
        by default): past it, the file's reading stops with an error naming it and the rows
        before are kept (a compression bomb cannot fill the memory).
    progress : callable ``progress(done, total)``, optional
        Called from the reading thread with the bytes read so far (``done``, never decreasing)
        and the bytes to read in all (``total``: the sum of the files' sizes, or None when
        standard input is read): once with ``done = 0`` before reading, after each block of
        4 MB is read (never per line), and last with ``done == total`` (for standard input,
        every byte read) before the frame is built. A gzip file counts its compressed bytes, so
        its share of ``done`` follows its size on disk. Whatever the callback raises
        (:class:`LoadCancelled` by convention) stops the reading before the next block and
        propagates unchanged, once the parsing threads are shut down and the files closed.

    Returns
    -------
    LogRead
        ``.table``, a DataFrame with columns ``dataset``, ``repeat``, ``fold``, ``learner``, ``criterion``, ``value``:
        the three names are Categoricals (categories in order of first appearance), repeat and
        fold int64, value float64. A wide-format line gives one row per criterion column
        (``criterion`` = the column's name). When at least one wide file was read, three more
        columns keep its metadata: ``goal`` (category), ``train`` and ``test`` (nullable Int64);
        long-format rows have ``<NA>`` there. Rows are in file order (files in the order given,
        expanded), with duplicates resolved: when a (dataset, repeat, fold, learner, criterion)
        appears twice, within or across files, the later line wins (it is the rerun).

        ``.problems``: the :class:`LogProblem` s (errors and warnings) in file and line order;
        ``.files``: the files read; ``.lines``: the number of result lines kept. The result
        reads like its table (``log["value"]``, ``len(log)``); every function of :mod:`stats`
        that takes a log takes it as it is.

    Raises
    ------
    LogError
        With ``on_error="raise"``, at the first error.
    LoadCancelled
        Or whatever else ``progress`` raises, unchanged.
    ValueError
        For an unknown ``on_error``.

    Notes
    -----
    Problems, each with its file and line (numbered from 1 in every file): wrong number of
    fields; a value that is not a number, or not finite (nan, inf), or beyond 1e50 in magnitude
    (``out of range``); a line longer than 65,536 characters; a repeat or fold that is not
    a whole number >= 0; an empty name; binary data (NUL bytes, invalid UTF-8, a carriage return
    without line feed) on a line; a line starting with ``#`` after the first (a repeated,
    identical wide header is allowed); a wide header without ``data``, ``learner``, ``repeats``
    or ``bin`` (the file is skipped); paths that do not exist; unreadable or corrupt gzip files
    (all errors). Warnings: an empty file; duplicate results (naming both lines; runs of
    consecutive duplicated lines are one warning); a file that does not end with a newline -- if
    its last line is incomplete or malformed the run died mid-write and the line is dropped,
    and if it reads well it is kept, because a cut can look complete (``0.93`` cut to ``0.9``).

    Fields may have spaces around them and be CSV-quoted (``"nb, gaussian"``); files are UTF-8,
    with or without BOM, with LF or CRLF line ends.

    Examples
    --------
    >>> from importlib.resources import files
    >>> SAMPLES = files("rankboard_sample_logs")  # the bundled sample logs, installed with rankboard
    >>> log = read_logs(SAMPLES / "c45_demsar.dat")
    >>> log.shape, list(log["learner"].cat.categories)
    ((56, 6), ['C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'])
    """
    import_ahead.start("pandas")  # for the frame at the end: imported while the blocks are parsed
    read = read_columns(*paths, on_error=on_error, progress=progress, decompression=decompression)
    return LogRead(to_frame(read.labels, read.columns), problems=read.problems, files=read.files, lines=read.lines)


@dataclass(frozen=True, eq=False)
class LogColumns:
    """:func:`read_columns`' result: the columns of the tidy frame before it is made (label
    codes, repeat and fold as narrow as they were read, values; duplicates resolved) and what
    the read found, as in :class:`stats.LogRead`."""

    columns: dict[str, np.ndarray]
    labels: Labels
    problems: tuple[LogProblem, ...]
    files: tuple[str, ...]
    lines: int

    def __len__(self) -> int:
        return len(self.columns["value"])


def read_columns(
    *paths: str | os.PathLike[str],
    on_error: OnError = "raise",
    progress: Progress | None = None,
    decompression: Decompression = DECOMPRESSION,
) -> LogColumns:
    """:func:`read_logs` up to its frame, which it does not make: no pandas is imported (for
    ``rankboard check``, :func:`stats.check_logs`). The same arguments, problems and rows."""
    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', got {on_error!r}")
    sources, problems = expand(paths)
    strict = on_error == "raise"
    _raise_first(problems, strict)
    table = Columns(Labels())
    stored = [stored_size(s.path) for s in sources]
    sizes = [None if s.path is None or s.path.suffix == ".gz" else n for s, n in zip(sources, stored)]  # text bytes
    text = [
        _gzip_text_size(s.path, n, decompression) if size is None else size
        for s, n, size in zip(sources, stored, sizes)
    ]
    table.reserve(sum(_rows_hint(s, n, decompression) for s, n in zip(sources, text)) + 1)  # no growth by doubling
    meter = Meter(progress, stored)
    ahead: Ahead | None = None
    try:
        meter.report(0)
        with ThreadPoolExecutor(WORKERS) if WORKERS > 1 else NoPool() as pool:
            if pool is not None:  # small files read and parsed in the pool, several at a time, ahead
                ahead = Ahead(pool, sources, sizes, strict, decompression, runs=AHEAD)
            for index, (source, size) in enumerate(zip(sources, sizes)):

                def sink(first_line: int, spec: LogSpec, part: Part, index: int = index) -> None:
                    table.add(index, first_line, spec, part)

                report = meter.source(stored[index])
                read = ahead.take(index) if ahead is not None else None
                if read is not None:
                    got, parts = read
                    if report is not None and size:
                        report(size)  # its one block, read (and parsed) in a worker
                    for first_line, spec, part in parts:
                        sink(first_line, spec, part)
                else:
                    got = read_source(
                        source, sink, pool=pool, stop_at_error=strict, size=size, progress=report, limits=decompression
                    )
                problems.extend(sorted(got.problems, key=_line_order))
                _raise_first(got.problems, strict)
                meter.next(stored[index])
    finally:
        if ahead is not None:
            ahead.cancel()
        pa.default_memory_pool().release_unused()  # pyarrow's allocator keeps freed blocks otherwise
    return _resolved(table, [s.name for s in sources], problems)


#: Runs of small files (stats.logs._group) read and parsed ahead of the one being added, at most this many.
AHEAD = 2 * WORKERS


#: Files from this size on are asked whether they are Parquet (its footer gives the rows); below
#: it the text's estimate serves (an array grown from a small file's estimate costs little).
_ASK_ROWS = 1 << 20


def _rows_hint(source: Source, text: int, limits: Decompression) -> int:
    """The rows to reserve for a source of ``text`` bytes (as text, or as stored): what a Parquet
    file declares, else the most a long-format text of that size holds."""
    if source.path is not None and text >= _ASK_ROWS:
        declared = declared_rows(source.path, text, limits)
        if declared is not None:
            return declared
    return text // _SHORTEST_LINE


def _gzip_text_size(path: Path | None, stored: int | None, limits: Decompression) -> int:
    """The text bytes of a gzip file as its members' trailers give them (the sum of every
    member's ISIZE, :func:`~stats.logs._gzip_size.gzip_text_size`: the file's own trailer gives
    the last member's only), at most what ``limits`` let it expand to; 0 when unknown."""
    if path is None or not stored:
        return 0
    text = gzip_text_size(path)
    return 0 if text is None else int(min(text, stored * limits.max_ratio, limits.max_bytes))


def _line_order(p: LogProblem) -> int:
    return p.line or 0


def _raise_first(problems: list[LogProblem], strict: bool) -> None:
    if strict:
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise LogError(min(errors, key=_line_order))


def _resolved(table: Columns, files: list[str], problems: list[LogProblem]) -> LogColumns:
    """The filled columns, after resolving duplicates (the later row wins, :mod:`stats.logs._duplicates`)."""
    columns = table.finish()
    names = {k: table.labels.names(k) for k in ("dataset", "learner", "criterion")}
    keep, repeated = resolve(columns, names, table.locate, files)
    lines = _lines_kept(table, keep)
    found = name_problems(table.labels, columns, table.locate, files)
    found += [LogProblem(files[f], line, reason, "warning") for f, line, reason in table.notes]
    found += repeated
    if found:
        rank = {name: i for i, name in enumerate(files)}
        problems = sorted(problems + found, key=lambda p: (rank.get(p.file, -1), p.line or 0))
    if keep is not None:
        compact(columns, keep)  # in place: no second copy of the columns
    return LogColumns(columns, table.labels, tuple(problems), tuple(files), lines)


def to_frame(
    labels: Labels, columns: dict[str, np.ndarray], *, narrow: bool = False, more: dict[str, object] | None = None
) -> pd.DataFrame:
    """The public frame from filled columns (codes -> Categoricals, masks -> nullable Int64,
    repeat and fold -> int64: taken out of ``columns``, so that the narrow arrays go at once;
    with ``narrow`` they stay as narrow as they were read, no copy), then the columns ``more``
    (not copied either: assigning a column to a frame copies it)."""
    pd = import_ahead.wait("pandas")
    data: dict[str, object] = {}
    for name in (*COLUMNS, "goal", "train", "test"):
        if name in ("dataset", "learner", "criterion", "goal") and name in columns:
            data[name] = pd.Categorical.from_codes(columns[name], categories=labels.categories(name), validate=False)
        elif name in ("train", "test") and name in columns:
            data[name] = pd.arrays.IntegerArray(columns[name], columns[name + "_na"])
        elif name in ("repeat", "fold") and name in columns and not narrow:
            data[name] = columns.pop(name).astype(np.int64)  # the narrow column freed at once
        elif name in columns:
            data[name] = columns[name]
    return pd.DataFrame({**data, **(more or {})}, copy=False)


def _lines_kept(table: Columns, keep: np.ndarray | None) -> int:
    """Result lines kept: a line counts while at least one of its rows (one per criterion in the
    wide format) is kept."""
    ends = [e.row_start for e in table.entries[1:]] + [table.size]
    if keep is None:
        return sum((end - e.row_start) // e.per_line for e, end in zip(table.entries, ends))
    return sum(
        int(keep[e.row_start : end].reshape(-1, e.per_line).any(axis=1).sum()) for e, end in zip(table.entries, ends)
    )
