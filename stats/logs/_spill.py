"""Logs bigger than memory: read block by block into partitions on disk, then one partition at a time.

:func:`stats.read_logs` holds every row (about 1.4 times the log's size at its peak). A
:class:`SpilledLogs` holds one block of rows at a time: each block's rows (label codes, repeat,
fold, value, file and line: :data:`RECORD`, 44 bytes a row) are appended to one of ``P``
partition files under a private temporary directory, by their (dataset, learner) pair. Every row
of a pair -- so every result of a cell (criterion, dataset, learner) and every row with a given
key (dataset, repeat, fold, learner, criterion) -- lands in one partition, in the order read, so
a partition alone gives its cells' exact medians, its pairs' repeats x folds and its duplicates
(the later line wins, as in :func:`stats.read_logs`). :meth:`SpilledLogs.parts` reads them back
one at a time; the directory is removed on :meth:`SpilledLogs.close` (``with``), on error too.

Every line is parsed and checked as :func:`stats.read_logs` does (the same readers), with the
same errors and warnings at the same file and line, except that duplicate warnings are made per
partition: a run of consecutive duplicated lines whose rows fall in several partitions is one
warning per partition (the lines named are the same).

What stays in memory: the names (:class:`~stats.logs._frame.Labels`), one block of rows, and one
partition while it is read back. A single (dataset, learner) pair bigger than the budget is one
partition, bigger than the budget: rows are not split below a pair.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from stats.core import pack_location
from stats.logs._duplicates import KEY, resolve
from stats.logs._formats import LogProblem, LogSpec
from stats.logs._frame import Columns, Labels, name_problems
from stats.logs._parse import Part
from stats.logs._paths import DECOMPRESSION, Decompression, expand, log_size
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
        self._dir = tempfile.mkdtemp(prefix="rankboard_spill_", dir=directory)
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
        self.problems = problems

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
        for p in np.flatnonzero(np.diff(bounds)).tolist():
            with open(self._path(p), "ab") as out:
                records[bounds[p] : bounds[p + 1]].tofile(out)
            self._filled.add(p)
        self.spilled += records.nbytes
        return found

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
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SpilledLogs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


__all__: Sequence[str] = ["SpilledLogs"]
