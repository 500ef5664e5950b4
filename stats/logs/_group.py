"""Small files parsed together: one pyarrow call for many plain long-format files.

A directory of 1,000 logs of 200 kB each cost ~1 ms of fixed work per file (a ``read_csv`` call
and the columns' conversions) on top of the parse: 2.5 s of CPU against 1.6 s for the same
bytes in one file. :func:`read_group` reads a run of small files, joins those that are plain
long-format text and end with a newline into one block, parses it once
(:func:`stats.logs._parse.parse_block`) and cuts the result back into one part per file, with
the same rows, names in the same order of first appearance, line numbers and problems as each
file read alone (tests/test_group_read.py compares the two on random directories).

Any file that is not that simple -- gzip, Parquet or Arrow, a wide header, a byte-order mark,
blank lines or a quote in it, no newline at its end, unreadable, not a regular file -- is read
alone by :func:`stats.logs._sources.read_source`, exactly as before.

:func:`stats.read_logs` (and ``rankboard check`` and ``report``) reads every small file this way;
:class:`stats.LogWatcher` (the app's load) its new files, read from their start, and leaves the
others to its own reading (``alone=False``), as it does every file it follows from an offset.
"""

from __future__ import annotations

import bisect
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from stats.logs import _sources
from stats.logs._columnar import sniff
from stats.logs._formats import LONG, LogProblem, LogSpec, Severity
from stats.logs._parse import Coded, Part, _first_seen, parse_block
from stats.logs._paths import _GZIP_MAGIC, Decompression, Source, _open_regular
from stats.logs._sources import _BOM, FileRead, read_source

#: At most this many files, and :data:`stats.logs._sources.BLOCK` bytes, go into one group.
GROUP_FILES = 64
#: What a read gives: the file's findings and its parts (first line, spec, part), in order.
Read = tuple[FileRead, list[tuple[int, LogSpec, Part]]]


def next_run(sizes: list[int | None], start: int) -> tuple[int, int] | None:
    """The first run ``(first, end)`` of small files (``sizes[i]`` known and at most one block)
    from ``start`` on, cut at :data:`GROUP_FILES` files or a block's worth of bytes; None if none."""
    n = len(sizes)
    first = next((i for i in range(start, n) if _small(sizes[i])), None)
    if first is None:
        return None
    end, total = first + 1, sizes[first] or 0
    while end < n and end - first < GROUP_FILES and _small(sizes[end]) and total + (sizes[end] or 0) <= _sources.BLOCK:
        total += sizes[end] or 0
        end += 1
    return first, end


class Ahead:
    """Runs of small files (:func:`next_run`) read and parsed in ``pool`` ahead of the file being
    added, at most ``runs`` of them waiting (a directory of many small logs would otherwise be
    parsed one file at a time on the reading thread, with the pool idle)."""

    def __init__(
        self,
        pool: ThreadPoolExecutor,
        sources: list[Source],
        sizes: list[int | None],
        strict: bool,
        limits: Decompression,
        runs: int,
        **options: bool,
    ) -> None:
        self.pool, self.sources, self.sizes, self.runs = pool, sources, sizes, runs
        self.strict, self.limits, self.options = strict, limits, options
        self.next = 0  # the first file not looked at yet
        self.waiting: dict[int, tuple[Future[list[Read | None]], int]] = {}  # file -> its run, its place in it

    def take(self, index: int) -> Read | None:
        """File ``index``'s read if it was read ahead (waiting for it), else None (read it yourself:
        not small, or not plain with ``alone=False``)."""
        self._fill(index)
        entry = self.waiting.pop(index, None)
        if entry is None:
            return None
        future, k = entry
        return future.result()[k]

    def _fill(self, index: int) -> None:
        self.next = max(self.next, index)
        while len({id(f) for f, _ in self.waiting.values()}) < self.runs:
            run = next_run(self.sizes, self.next)
            if run is None:
                self.next = len(self.sizes)
                return
            first, end = run
            sizes = [size or 0 for size in self.sizes[first:end]]
            future = self.pool.submit(
                read_group, self.sources[first:end], sizes, self.strict, self.limits, **self.options
            )
            for k, j in enumerate(range(first, end)):
                self.waiting[j] = (future, k)
            self.next = end

    def cancel(self) -> None:
        """Cancelled, or an error raised: nothing more is read."""
        for future, _ in self.waiting.values():
            future.cancel()
        self.waiting.clear()


def _small(size: int | None) -> bool:
    return size is not None and size <= _sources.BLOCK  # read_source's one block (read at call time)


def read_group(
    sources: list[Source],
    sizes: list[int],
    strict: bool,
    limits: Decompression,
    *,
    alone: bool = True,
    final: bool = True,
) -> list[Read | None]:
    """Read the small files ``sources`` (of ``sizes`` bytes as last seen): the plain ones parsed
    together, the others one by one (``alone``; else left to the caller: None); one :data:`Read`
    per file, in order. ``final``: as :func:`read_source`'s (False: a file without results is no
    warning, it may still grow)."""
    reads: list[Read | None] = [None] * len(sources)
    plain: list[tuple[int, bytes]] = []
    for j, (source, size) in enumerate(zip(sources, sizes)):
        data = _plain_text(source, size)
        if data is None:
            reads[j] = read_whole(source, size, strict, limits) if alone else None
        else:
            plain.append((j, data))
    if len(plain) == 1 and alone:
        j, _ = plain[0]
        reads[j] = read_whole(sources[j], sizes[j], strict, limits)
    elif plain:
        names, texts = [sources[j].name for j, _ in plain], [d for _, d in plain]
        for (j, _), read in zip(plain, _parse_together(names, texts, final)):
            reads[j] = read
    return reads


def read_whole(source: Source, size: int, strict: bool, limits: Decompression) -> Read:
    """:func:`read_source` of a one-block file in a worker: its parts kept (in order) for the
    reading thread to add, and no progress reported (the reading thread reports it)."""
    parts: list[tuple[int, LogSpec, Part]] = []
    got = read_source(
        source,
        lambda line, spec, part: parts.append((line, spec, part)),
        pool=None,
        stop_at_error=strict,
        size=size,
        limits=limits,
    )
    return got, parts


def _plain_text(source: Source, size: int) -> bytes | None:
    """The file's bytes when it is plain long-format text that :func:`read_source` would read as
    one block starting at line 1 with nothing to skip or judge apart, else None: its size as
    expected, a first line that is a result (no blank line, ``#`` header, byte-order mark, gzip,
    Parquet or Arrow data), no quote (an open quote may run into the next file) and a newline
    at its end."""
    if source.path is None or not size:
        return None
    try:
        with _open_regular(source.path) as f:
            data = f.read(size + 1)
    except OSError:
        return None
    head = data[:1]
    if len(data) != size or data[-1:] != b"\n" or head.isspace() or head == b"#":
        return None
    if data.startswith((_BOM, _GZIP_MAGIC)) or sniff(data) is not None or b'"' in data:
        return None
    return data


def _parse_together(names: list[str], texts: list[bytes], final: bool = True) -> list[Read]:
    """Parse ``texts`` (each ending with a newline) as one block and cut the part per file."""
    counts = [text.count(b"\n") for text in texts]
    starts = np.cumsum([0, *counts])  # each file's first line in the block (0-based)
    joined = b"".join(texts)
    part = parse_block(joined, 0, len(joined), LONG)
    if part.lines is None:
        row_starts = starts
    else:
        row_starts = np.searchsorted(part.lines, starts)
    first_lines = starts.tolist()
    by_file: list[list[tuple[int, str, Severity]]] = [[] for _ in texts]
    for line, reason, severity in part.problems:
        f = bisect.bisect_right(first_lines, line) - 1
        by_file[f].append((line - first_lines[f], reason, severity))
    names_seen = [_first_rows(field) for field in part.fields]
    reads: list[Read] = []
    for f, name in enumerate(names):
        r0, r1 = int(row_starts[f]), int(row_starts[f + 1])
        n_lines = counts[f]
        lines = None
        if part.lines is not None and r1 - r0 != n_lines:  # some of its lines are not rows
            lines = part.lines[r0:r1] - starts[f]
        fields = [_rows(field, r0, r1, seen) for field, seen in zip(part.fields, names_seen)]
        own = Part(fields, lines, n_lines, by_file[f])
        got = FileRead([LogProblem(name, 1 + i, reason, severity) for i, reason, severity in own.problems])
        got.spec, got.next_line, got.rows = LONG, 1 + n_lines, own.n_rows
        if final and not got.rows and not any(p.severity == "error" for p in got.problems):
            got.problems.append(LogProblem(name, None, "no results in the file", "warning"))
        reads.append((got, [(1, LONG, own)]))
    return reads


def _first_rows(field: object) -> np.ndarray | None:
    """For a field of names, the first row of each value when the values are numbered in the
    order the rows first use them (pyarrow's dictionary, or the judged path's ``_first_seen``),
    else None."""
    if not isinstance(field, Coded):
        return None
    n = len(field.codes)
    first = np.full(len(field.values), n)
    first[field.codes[::-1]] = np.arange(n)[::-1]
    return first if bool(np.all(first[1:] > first[:-1])) else None


def _rows(field: object, r0: int, r1: int, first: np.ndarray | None) -> object:
    """Rows ``r0:r1`` of a part's field. A file's names are those its rows use, new ones numbered
    in the order its rows first use them, as when it is parsed alone: with the values numbered in
    order of first use (``first``, each value's first row), the values first used before ``r1``
    (the codes unchanged; those of earlier files are known by the time this file is added),
    else the values these rows use, numbered again."""
    if not isinstance(field, Coded):
        return field[r0:r1]  # type: ignore[index]
    codes = field.codes[r0:r1]
    if first is not None:
        return Coded(field.values[: int(np.searchsorted(first, r1))], codes)
    return _first_seen(field.values, codes)
