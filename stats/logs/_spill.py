"""Logs bigger than memory: read block by block into partitions on disk, then one partition at a time.

:func:`stats.read_logs` holds every row (about 1.4 times the log's size at its peak). A
:class:`SpilledLogs` holds one block of rows at a time: each block's rows (label codes, repeat,
fold, value, file and line: :data:`RECORD`, 48 bytes a row) are appended to one of ``P``
partition files under a private temporary directory, by their (dataset, learner) pair. Every row
of a pair -- so every result of a cell (criterion, dataset, learner) and every row with a given
key (dataset, repeat, fold, learner, criterion) -- lands in one partition, in the order read, so
a partition alone gives its cells' exact medians, its pairs' repeats x folds and its duplicates
(the later line wins, as in :func:`stats.read_logs`). :meth:`SpilledLogs.parts` reads them back
one at a time; the directory is removed on :meth:`SpilledLogs.close` (``with``), on error too.

A process killed by a signal runs no ``finally``: SIGTERM or SIGHUP left gigabytes of
``rankboard_spill_*`` behind. Every spill directory of the process is registered from before it
exists until it is removed, so that :meth:`SpilledLogs.remove_all` (which the command line calls
from its signal handlers, ``tui.memory``, and ``atexit`` calls at the exit) can remove them all;
it waits for a block being written, so that no file is added to a directory as it is removed.
A full disk is said as such, naming the spill folder (:class:`SpillFull`): numpy's ``tofile``
said "6536 requested and 84 written" when its write was cut short, and lost the rows silently
when the cut came as its buffer was flushed (a 64 kB tmpfs: 220 of 1,500 lines aggregated, no
error); the rows are now written by Python's buffered files, which raise for both.

Standard input cannot be sized before it is read, and the partitions are chosen by the size: it
is first copied into the spill directory (its size on disk, removed once it is read), then read
as a file named ``<stdin>``. So a Parquet or Arrow table piped in is read as a table here, where
:func:`stats.read_logs` refuses it (it cannot seek standard input).

Every line is parsed and checked as :func:`stats.read_logs` does (the same readers), with the
same errors and warnings at the same file and line, except that duplicate warnings are made per
partition: a run of consecutive duplicated lines whose rows fall in several partitions is one
warning per partition (the lines named are the same).

What stays in memory: the names (:class:`~stats.logs._frame.Labels`), one block of rows, and one
partition while it is read back. A single (dataset, learner) pair bigger than the budget is one
partition, bigger than the budget: rows are not split below a pair.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import secrets
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from stats.core import pack_location
from stats.logs._duplicates import KEY, resolve
from stats.logs._formats import LogProblem, LogSpec
from stats.logs._frame import Columns, Labels, name_problems
from stats.logs._parse import Part
from stats.logs._paths import DECOMPRESSION, Decompression, Source, expand, log_size
from stats.logs._progress import Meter, Progress
from stats.logs._sources import WORKERS, NoPool, read_source, stored_size

#: One spilled row.
RECORD = np.dtype(
    [
        ("dataset", "<i4"),
        ("learner", "<i4"),
        ("criterion", "<i4"),
        ("repeat", "<i8"),
        ("fold", "<i8"),
        ("value", "<f8"),
        ("file", "<i4"),
        ("line", "<i8"),
    ]
)
#: Bytes of memory a row costs while a partition is read back, resolved and aggregated (the
#: record, its columns and the aggregate's work space), generously.
ROW_COST = 160
#: The fewest bytes a result line takes (``a,1,1,b,c,1\n``): a text log of n bytes holds at most n / 12.
_SHORTEST_LINE = 12
MAX_PARTITIONS = 4096
#: The name of a spill directory begins so (then 12 random hexadecimal digits).
PREFIX = "rankboard_spill_"
#: The spill directories of this process not yet removed (registered before they are made).
_LIVE: set[str] = set()
#: Held while a spill directory is made, written to or removed: a removal (a signal's) waits
#: for the block being written. Reentrant: a signal handler runs in the main thread, which may
#: be the one writing.
_LOCK = threading.RLock()
#: Bytes of standard input copied at a time.
_COPY = 1 << 20
_GZIP = b"\x1f\x8b"
#: Standard input's copy in the spill directory, named for its content (text, gzip).
_SPOOLS = ("stdin", "stdin.gz")
_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


class SpillFull(OSError):
    """The disk holding the spill folder is full (ENOSPC, or a quota: EDQUOT)."""


class SpilledLogs:
    """Logs read into partitions on disk, to be aggregated one partition at a time.

    Parameters
    ----------
    paths : str or path-like
        As for :func:`stats.read_logs`.
    memory : int
        The memory budget in bytes: blocks of rows and partitions are sized to stay within it.
    progress, decompression
        As for :func:`stats.read_logs`.
    directory : str, optional
        Where to make the private temporary directory (default: the system's).

    Attributes
    ----------
    problems : list of LogProblem
        Errors and warnings (bad lines are skipped, as ``on_error="skip"``); the duplicate
        warnings are added by :meth:`parts`, and all are in file and line order once it is done.
    files : list of str
        The files read.
    lines : int
        Result lines kept (known once :meth:`parts` is done).
    partitions : int
        How many partitions the rows were spread over (:attr:`filled` of them hold rows).
    spilled : int
        Bytes written to the partition files.
    """

    def __init__(
        self,
        *paths: str | os.PathLike[str],
        memory: int,
        progress: Progress | None = None,
        decompression: Decompression = DECOMPRESSION,
        directory: str | None = None,
    ) -> None:
        if memory <= 0:
            raise ValueError(f"memory must be a positive number of bytes, got {memory}")
        try:
            self._dir = _make_folder(directory)
        except OSError as exc:
            if exc.errno in _FULL:
                raise _full(exc, os.path.join(directory or tempfile.gettempdir(), PREFIX + "*"), 0) from exc
            raise
        self._written = 0  # bytes written to the directory (stdin's copy and the rows)
        try:
            self._read(paths, memory, progress, decompression)
        except BaseException:
            self.close()
            raise

    def _read(
        self, paths: tuple[Any, ...], memory: int, progress: Progress | None, decompression: Decompression
    ) -> None:
        sources, problems = expand(paths)
        self.files = [s.name for s in sources]
        self.labels = Labels()
        self.lines = 0
        self.spilled = 0
        sources = [self._spool(s, problems) if s.path is None else s for s in sources]
        most_rows = max(1, log_size(*(s.path for s in sources if s.path is not None)) // _SHORTEST_LINE)
        self.partitions = int(min(MAX_PARTITIONS, max(1, -(-most_rows * ROW_COST // max(1, memory // 2)))))
        self._block = max(1 << 14, memory // (4 * ROW_COST))  # rows held before they are spilled
        self._named: set[str] = set()
        self._filled: set[int] = set()
        stored = [stored_size(s.path) for s in sources]
        meter = Meter(progress, stored)
        self._table = Columns(self.labels)
        try:
            meter.report(0)
            with ThreadPoolExecutor(WORKERS) if WORKERS > 1 else NoPool() as pool:
                for index, source in enumerate(sources):

                    def sink(first_line: int, spec: LogSpec, part: Part, index: int = index) -> None:
                        self._table.add(index, first_line, spec, part)
                        if self._table.size >= self._block:  # spilled, and a new block begins
                            problems.extend(self._spill(self._table))
                            self._table = Columns(self.labels)

                    size = stored[index] if source.path is not None and source.path.suffix != ".gz" else None
                    got = read_source(
                        source,
                        sink,
                        pool=pool,
                        stop_at_error=False,
                        size=size,
                        progress=meter.source(stored[index]),
                        limits=decompression,
                    )
                    problems.extend(got.problems)
                    meter.next(stored[index])
            problems.extend(self._spill(self._table))
            self._table = Columns(self.labels)
        finally:
            pa.default_memory_pool().release_unused()
            for name in _SPOOLS:
                _remove_file(os.path.join(self._dir, name))  # read: its partitions hold its rows
        self.problems = problems

    def _spool(self, source: Source, problems: list[LogProblem]) -> Source:
        """Standard input copied into the spill directory, as a source read as a file (named
        ``<stdin>``): its size then sets the partitions. The copy is named ``stdin.gz`` when it
        is gzip data (its text size is then not its size). What stdin cannot give is an error."""
        stream = getattr(sys.stdin, "buffer", None)
        chunk = b""
        try:
            chunk = stream.read(_COPY) if stream is not None else b""
        except OSError as exc:
            problems.append(LogProblem(source.name, None, f"cannot read standard input: {_reason(exc)}"))
        path = os.path.join(self._dir, _SPOOLS[chunk.startswith(_GZIP)])
        self._append(path, b"")
        while chunk:
            self._append(path, chunk)
            try:
                chunk = stream.read(_COPY)  # type: ignore[union-attr]
            except OSError as exc:
                problems.append(LogProblem(source.name, None, f"cannot read standard input: {_reason(exc)}"))
                break
        return Source(source.name, Path(path))

    def _spill(self, table: Columns) -> list[LogProblem]:
        """Append a block's rows to their partitions; the block's warnings about names."""
        if not table.size:
            return []
        columns = table.finish()
        found = [
            p for p in name_problems(self.labels, columns, table.locate, self.files) if p.reason not in self._named
        ]
        self._named |= {p.reason for p in found}  # a name is reported at its first line only
        found += [LogProblem(self.files[f], line, reason, "warning") for f, line, reason in table.notes]
        file, line = table.locations()
        part = columns["dataset"].astype(np.int64)
        part *= 1_000_003  # spread the pairs of a few data sets over the partitions
        part += columns["learner"]
        part %= self.partitions
        order = np.argsort(part, kind="stable")  # each partition's rows in the order read
        records = np.empty(table.size, RECORD)
        for name in ("dataset", "learner", "criterion", "repeat", "fold", "value"):
            records[name] = columns[name][order]
        records["file"], records["line"] = file[order], line[order]
        bounds = np.searchsorted(part[order], np.arange(self.partitions + 1))
        with _LOCK:  # a removal waits for the block
            for p in np.flatnonzero(np.diff(bounds)).tolist():
                self._append(self._path(p), records[bounds[p] : bounds[p + 1]])
                self._filled.add(p)
        self.spilled += records.nbytes
        return found

    def _append(self, path: str, data: Any) -> None:
        """Append ``data`` (bytes, or rows) to the file ``path`` of the spill directory, whole (a
        short write is retried by Python's buffered file); a full disk, when the file is made or
        written, raises :class:`SpillFull`, naming the spill folder."""
        try:
            with _LOCK, open(path, "ab") as out:  # a removal waits for the write
                out.write(memoryview(data).cast("B"))
        except OSError as exc:
            if exc.errno in _FULL:
                raise _full(exc, self._dir, self._written) from exc
            raise
        self._written += memoryview(data).nbytes

    @property
    def filled(self) -> int:
        """How many partition files hold rows (what :meth:`parts` yields)."""
        return len(self._filled)

    def _path(self, partition: int) -> str:
        return os.path.join(self._dir, f"{partition}.rows")

    def parts(self) -> Iterator[pd.DataFrame]:
        """Each partition's rows as a log (columns of :func:`stats.read_logs`, labels as
        Categoricals over every name read, in the order read), duplicates resolved (the later
        line wins; the warnings go to :attr:`problems`). Each partition file is removed once read."""
        names = {k: self.labels.names(k) for k in ("dataset", "learner", "criterion")}
        categories = {k: self.labels.categories(k) for k in names}
        found: list[LogProblem] = []
        for p in range(self.partitions):
            path = self._path(p)
            if not os.path.exists(path):
                continue
            records = np.fromfile(path, RECORD)
            os.remove(path)
            columns = {k: np.ascontiguousarray(records[k]) for k in KEY}
            file, line = records["file"], records["line"]

            def locate(rows: np.ndarray, file: np.ndarray = file, line: np.ndarray = line) -> tuple[Any, Any]:
                return file[rows].astype(np.int64), line[rows].astype(np.int64)

            keep, repeated = resolve(columns, names, locate, self.files)
            found += repeated
            if keep is not None:
                records = records[keep]
                columns = {k: v[keep] for k, v in columns.items()}
            loc = pack_location(records["file"], records["line"])  # in the order read: non-decreasing
            self.lines += int(loc.size > 0) + int(np.count_nonzero(loc[1:] != loc[:-1]))  # a wide line: 1
            del loc
            yield pd.DataFrame(
                {
                    "dataset": pd.Categorical.from_codes(columns["dataset"], categories["dataset"], validate=False),
                    "repeat": columns["repeat"],
                    "fold": columns["fold"],
                    "learner": pd.Categorical.from_codes(columns["learner"], categories["learner"], validate=False),
                    "criterion": pd.Categorical.from_codes(
                        columns["criterion"], categories["criterion"], validate=False
                    ),
                    "value": np.ascontiguousarray(records["value"]),
                },
                copy=False,
            )
            del records, columns
        rank = {name: i for i, name in enumerate(self.files)}
        self.problems = sorted(self.problems + found, key=lambda p: (rank.get(p.file, -1), p.line or 0))

    def close(self) -> None:
        """Remove the temporary directory and what is left in it."""
        _remove_folder(getattr(self, "_dir", None))

    @staticmethod
    def remove_all() -> None:
        """Remove every spill directory of this process (and stop its spilling: files are no
        longer added to a directory removed). For a signal handler, before the process dies: a
        signal runs no ``finally``. It waits for a block being written (a fraction of a second)."""
        with _LOCK:
            for folder in sorted(_LIVE):
                _remove_folder(folder)

    def __enter__(self) -> SpilledLogs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at the interpreter's exit the module may be gone
            self.close()


def _make_folder(directory: str | None) -> str:
    """A new private directory (``rankboard_spill_<random>``, mode 0700) under ``directory`` or
    the system's temporary directory, as :func:`tempfile.mkdtemp` makes it, but registered in
    :data:`_LIVE` before it exists: a signal at any moment finds it."""
    parent = os.path.abspath(directory if directory is not None else tempfile.gettempdir())
    while True:
        folder = os.path.join(parent, PREFIX + secrets.token_hex(6))
        with _LOCK:
            _LIVE.add(folder)
            try:
                os.mkdir(folder, 0o700)
                return folder
            except FileExistsError:
                _LIVE.discard(folder)  # another's: try another name
            except BaseException:
                _LIVE.discard(folder)
                raise


def _remove_folder(folder: str | None) -> None:
    if folder is not None:
        with _LOCK:
            shutil.rmtree(folder, ignore_errors=True)
            _LIVE.discard(folder)


def _remove_file(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def _full(exc: OSError, folder: str, written: int) -> SpillFull:
    """The error that says the disk of ``folder`` is full (``exc``: ENOSPC or EDQUOT)."""
    full = SpillFull(
        f"the disk holding the spill folder {folder} is full ({_reason(exc)}) after {written:,} bytes were "
        "written there: free some space on it, or set TMPDIR to a folder on a larger disk"
    )
    full.errno = exc.errno
    return full


def _reason(exc: OSError) -> str:
    """``No space left on device`` as ``no space left on device``."""
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


atexit.register(SpilledLogs.remove_all)  # what a daemon thread was spilling when the process ended

__all__: Sequence[str] = ["SpillFull", "SpilledLogs"]
