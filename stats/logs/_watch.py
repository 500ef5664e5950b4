"""Follow logs that are still being written: each poll reads only what was appended.

Polling only (``os.stat`` per file); no inotify, no textual, no rich.

(:class:`LogWatcher`'s poll is one sequence -- plan each file, read, resolve against the key
index, report -- over state the steps share. What a poll returns, :class:`WatchUpdate`, and the
helpers that make its rows are :mod:`stats.logs._watch_update`; what it knows of each file and
plans to read of it, and each file's standing, :mod:`stats.logs._file_end`; the file-window
helpers that serve only the poll, :mod:`stats.logs._file_window`.)
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from stats.core import check_files, pack_row, unpack_location
from stats.logs._duplicates import KEY, resolve
from stats.logs._file_end import (
    NOT_REGULAR,
    UNREADABLE,
    _ending,
    _File,
    _fresh,
    _Plan,
    standing_update,
    unread_update,
    why_read_again,
)
from stats.logs._file_window import _head, _is_gzip, _last_newline, _tail, _Window
from stats.logs._formats import LogError, LogProblem, LogSpec
from stats.logs._frame import Columns, Labels
from stats.logs._group import Ahead, Read
from stats.logs._index import KeyIndex, Locations, as_array
from stats.logs._parse import Part
from stats.logs._paths import DECOMPRESSION, Source, expand, not_regular
from stats.logs._progress import Meter, Progress
from stats.logs._read import _SHORTEST_LINE, AHEAD, OnError
from stats.logs._sources import WORKERS, FileRead, NoPool, read_source
from stats.logs._watch_update import WatchUpdate, distinct, in_file_order, pack_locations, rows_frame


def _follow(plan: _Plan, got: FileRead) -> None:
    """``plan.state`` after reading its bytes: the spec, next line and offset, and the bytes that
    tell a rewrite."""
    state, path = plan.state, Path(plan.source.name)
    state.spec, state.next_line, state.offset = got.spec, got.next_line, plan.stop
    state.rows += got.rows
    state.errors += sum(p.severity == "error" for p in got.problems)
    state.seen, state.mtime = (b"" if plan.gz else _tail(path, plan.stop)), plan.mtime
    state.head = b"" if plan.gz else _head(path, plan.stop)


class LogWatcher:
    """Follow growing logs: files, directories (new ``*.dat`` files and new Parquet or Arrow
    part files an engine writes are picked up: :mod:`stats.logs._dataset`) and globs.

    Parameters
    ----------
    paths : str, path-like, or a sequence of them
        As for :func:`stats.read_logs`, except ``-`` (standard input cannot be watched).
    on_error : {"skip", "raise"}
        ``"raise"`` raises :class:`LogError` for the first error of a poll, after the poll's
        rows were taken in (so the next poll goes on from there); the poll's update is the
        error's ``update``: apply it as any other.
    standing : bool
        Also report what ``rankboard check`` (:func:`stats.check_logs`) says of each file's end
        as the file is now: an empty file or one without results (a warning), a last line
        without its newline that is binary data (an error), and whatever a gzip or columnar
        file's whole read says. Each such problem is reported while it holds and taken back
        (in ``resolved``) when it no longer does: when the file grows, is read again or goes.
        Off by default: a watcher alone need not call a log that a run has just opened empty.

    Notes
    -----
    Each :meth:`poll` stats every file. A file that grew is read from where the last poll
    stopped: only the appended bytes are parsed, and line numbers go on from there. A last line
    without its newline is left for the next poll (it is being written; it is not reported as
    torn). A file that shrank or whose inode changed (truncated, or replaced by a rename) is read
    again whole and listed in ``reloaded``; its earlier rows are void (so is a file rewritten in
    place, found by the 64 bytes before where the last poll stopped). A gzip file is read whole
    whenever it changes, and so is a Parquet or Arrow table (rewritten whole, never appended
    to: a half-written one is an error until it is complete). Duplicates are resolved as
    :func:`stats.read_logs` does, across polls
    too: the row read later wins and the earlier is listed in ``superseded``. An empty file is
    not a problem here (a run has just started). A file listed that is not a regular file (a
    FIFO, a device, a symbolic link to nothing) or cannot be read is a problem, said once and
    taken back (``resolved``) when it is read again; its rows read before are dropped then
    (``removed``, with its reason in ``reasons``), as :func:`stats.read_logs` would not read it.

    The watcher keeps no rows: each poll's rows are handed on (``WatchUpdate.rows``), and
    whoever keeps them (:meth:`stats.Aggregator.apply`) drops what ``reloaded``, ``removed`` and
    ``superseded`` say. What it keeps is what reading on needs: per file its identity, the bytes
    read and the next line number, and a key index (:class:`~stats.logs._index.KeyIndex`: the key
    and the location of each row handed on and not replaced since, 16 bytes a row) to tell which
    earlier (file, line) a new row replaces.

    The keys are packed into one integer each (:func:`stats.core._keys.pack_row`) and kept as a few
    sorted runs, so a poll costs time in proportion to the new rows (times the log of the rows
    held), with or without duplicates; keys that do not pack (negative, or very large repeat,
    fold or label counts) are kept apart and looked up with pandas. A poll that finds nothing
    new costs one ``stat`` per file (and a 64-byte read when a file's modification time changed).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> log = folder / "iris.dat"
    >>> _ = log.write_text("iris,1,1,nb,accuracy,0.9\\niris,1,1,tree,acc")
    >>> watcher = LogWatcher(folder)
    >>> update = watcher.poll()
    >>> len(update.rows), update.added == [str(log)]
    (1, True)
    >>> with log.open("a") as f:
    ...     _ = f.write("uracy,0.8\\n")
    >>> update = watcher.poll()
    >>> update.rows[["learner", "value", "line"]].to_dict("records")
    [{'learner': 'tree', 'value': 0.8, 'line': 2}]
    """

    def __init__(self, paths: Any, *, on_error: OnError = "skip", standing: bool = False) -> None:
        if on_error not in ("raise", "skip"):
            raise ValueError(f"on_error must be 'raise' or 'skip', got {on_error!r}")
        self.paths = tuple(paths) if isinstance(paths, (list, tuple)) else (paths,)
        if any(os.fspath(p) == "-" for p in self.paths):
            raise ValueError("standard input ('-') cannot be watched")
        self.on_error = on_error
        self.standing = standing
        self._standing: dict[str, tuple[LogProblem, ...]] = {}  # per file, its standing problems reported
        self.labels = Labels()
        self._files: dict[str, _File] = {}
        self._names: list[str] = []  # file index -> name; a name keeps its index
        self._index: dict[str, int] = {}
        self._held = KeyIndex()  # key -> (file, line) of every row handed on and not replaced
        self._wide = False  # whether wide-format rows were read: rows then carry goal, train, test
        self._reported: dict[str, LogProblem] = {}  # path-level problems already reported
        self._unread: dict[str, LogProblem] = {}  # per file listed but not read, why (reported)

    def poll(self, *, progress: Progress | None = None) -> WatchUpdate:
        """Read what changed since the last poll (the first poll reads everything).

        Parameters
        ----------
        progress : callable ``progress(done, total)``, optional
            As for :func:`stats.read_logs`, over the bytes this poll parses: ``total`` is the
            sum of the bytes appended to the files that grew (up to their last newline) and of
            the whole sizes of the files read from the start (new, reloaded, or gzip). Called with
            ``done = 0`` first, after each block of 4 MB, and last with ``done == total``.
            Whatever it raises (:class:`stats.LoadCancelled` by convention) stops the poll and
            propagates unchanged; a cancelled poll changes nothing in the watcher, so the next
            poll reads what this one would have.

        Returns
        -------
        WatchUpdate
            What changed.

        Raises
        ------
        LogError
            With ``on_error="raise"``, for the first error of the poll, after taking the poll in:
            the update is the exception's ``update`` (apply it as any other).
        LoadCancelled
            Or whatever else ``progress`` raises, unchanged.
        """
        sources, path_problems = expand(self.paths)
        problems = [p for p in path_problems if str(p) not in self._reported]
        now = {str(p) for p in path_problems}
        resolved = [p for key, p in self._reported.items() if key not in now]
        current = {s.name for s in sources}
        removed = [name for name in self._files if name not in current]
        added: list[str] = []
        reloaded: list[str] = []
        reasons: dict[str, str] = {}
        plans: list[_Plan] = []
        unread: dict[str, LogProblem] = {}  # the files listed and not read, and why
        for source in sources:
            why = self._plan(source, plans, added, reloaded, reasons)
            if why is not None:
                unread[source.name] = why[0]
                if source.name in self._files:  # read before: its rows go, as read_logs would not read it
                    removed.append(source.name)
                    reasons[source.name] = why[1]
        unnamed = [plan.state for plan in plans if plan.state.index < 0]
        check_files(len(self._names) + len(unnamed))  # each file's index fits a location
        for index, state in enumerate(unnamed, start=len(self._names)):
            state.index = index  # the index the file's name gets once the poll is done
        # Read everything before changing anything: a poll stopped by an exception leaves no trace.
        mark = self.labels.mark()
        table = Columns(self.labels)
        sizes = [plan.stop - plan.state.offset for plan in plans]
        table.reserve(sum(sizes) // _SHORTEST_LINE + 1)  # at once: growing by doubling holds two copies
        meter = Meter(progress, sizes)
        try:
            meter.report(0)
            vanished = []
            with ThreadPoolExecutor(WORKERS) if WORKERS > 1 else NoPool() as pool:
                # new small files read ahead in the pool, the plain ones several to a parse
                ahead = None
                if pool is not None:
                    fresh = [_fresh(p) for p in plans]  # the sizes of the plans read from a file's start
                    ahead = Ahead(
                        pool,
                        [p.source for p in plans],
                        fresh,
                        strict=False,
                        limits=DECOMPRESSION,
                        runs=AHEAD,
                        alone=False,
                        final=False,
                    )
                try:
                    for i, (plan, size) in enumerate(zip(plans, sizes)):
                        read = ahead.take(i) if ahead is not None else None
                        try:
                            if read is not None:
                                problems.extend(self._take(plan, table, read, meter.source(size), size))
                            else:
                                final = self.standing and plan.gz  # read whole: at rest, as check reads it
                                problems.extend(self._read(plan, table, meter.source(size), final=final))
                        except FileNotFoundError:  # gone between the plan and the read: as if not listed
                            vanished.append(plan)
                        meter.next(size)
                finally:
                    if ahead is not None:
                        ahead.cancel()
            pa.default_memory_pool().release_unused()  # the parse buffers, before the rows' keys
            new = self._new_rows(table)
            locs = pack_locations(new["file"], new["line"])
        except BaseException:
            self.labels.rollback(mark)
            raise
        finally:
            pa.default_memory_pool().release_unused()  # pyarrow's allocator keeps freed blocks otherwise
        self._reported = {str(p): p for p in path_problems}
        found, withdrawn = unread_update(self._unread, unread)  # each said once, taken back when read
        self._unread = unread
        problems.extend(found)
        resolved.extend(withdrawn)
        for plan in plans:  # each new file's name gets the index its rows were read with, in order:
            name = plan.source.name  # a vanished file's too, or the files after it would point past
            if name not in self._index:  # their names (it keeps the index for when it is back)
                self._index[name] = len(self._names)
                self._names.append(name)
        gone = {plan.source.name for plan in vanished}
        plans = [plan for plan in plans if plan.source.name not in gone]
        added = [name for name in added if name not in gone]
        self._held.drop_files([self._files.pop(name).index for name in removed + reloaded])
        for plan in plans:
            self._files[plan.source.name] = plan.state
        if self.standing:
            standing, withdrawn = self._ends(plans, reloaded)
            problems.extend(standing)
            resolved.extend(withdrawn)
        problems.extend(LogProblem(self._names[f], line, reason, "warning") for f, line, reason in table.notes)
        new, superseded, duplicates = self._resolve(new, locs)
        problems = in_file_order(problems + duplicates, self._names)
        update = WatchUpdate(self._frame(new), tuple(problems), added, reloaded, removed, superseded, resolved, reasons)
        errors = [p for p in problems if p.severity == "error"]
        if self.on_error == "raise" and errors:
            raise LogError(errors[0], update)
        return update

    # -- reading -------------------------------------------------------------------------------

    def _plan(
        self, source: Source, plans: list[_Plan], added: list[str], reloaded: list[str], reasons: dict[str, str]
    ) -> tuple[LogProblem, str] | None:
        """What to read of one file (nothing is changed): appended lines, or all of it (and why,
        in ``reasons``, when it was read before); or, for a file that cannot be read as it is now,
        why (a problem, as check says it) and in a word (:data:`NOT_REGULAR` or :data:`UNREADABLE`)."""
        path = Path(source.name)
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):  # a FIFO would block the poll for ever (stats.logs._sources)
                return LogProblem(source.name, None, not_regular(st.st_mode)), NOT_REGULAR
            gz = _is_gzip(path)
            identity = (st.st_dev, st.st_ino, st.st_mtime_ns if gz else 0)
            state = self._files.get(source.name)
            if state is None:
                fresh = True
            elif st.st_size == state.offset and st.st_mtime_ns == state.mtime and state.identity == identity:
                return None
            else:
                fresh = (
                    state.identity != identity  # replaced (another inode)
                    or st.st_size < state.offset  # truncated
                    or (st.st_size == state.offset and not gz)  # rewritten without growing
                    or _tail(path, state.offset) != state.seen  # rewritten in place ...
                    or _head(path, state.offset) != state.head  # ... anywhere in what is held
                )
            stop = st.st_size if gz else _last_newline(path, 0 if fresh else state.offset, st.st_size)
        except OSError as exc:
            why = LogProblem(source.name, None, (exc.strerror or str(exc)).lower())  # as check says it
            if not isinstance(exc, FileNotFoundError):
                return why, UNREADABLE
            if os.path.islink(path):  # a symbolic link to nothing: no file behind the name any more
                return why, NOT_REGULAR
            return None  # listed, then gone (rotation): the next poll sees it removed, no error
        if state is None:
            added.append(source.name)
        elif fresh:
            reloaded.append(source.name)
            reasons[source.name] = why_read_again(state.identity, state.offset, st.st_size, identity)
        state = replace(state) if state is not None and not fresh else _File(self._index.get(source.name, -1), identity)
        plans.append(_Plan(source, state, stop, gz, st.st_mtime_ns))
        return None

    @staticmethod
    def _read(
        plan: _Plan, table: Columns, progress: Callable[[int], None] | None, *, final: bool = False
    ) -> list[LogProblem]:
        """Read the planned bytes of one file into ``table``; ``plan.state`` follows (``final``: as
        :func:`stats.read_logs` reads a file, its last line and an empty file said)."""
        state, path = plan.state, Path(plan.source.name)
        index = state.index

        def sink(first_line: int, spec: LogSpec, part: Part) -> None:
            table.add(index, first_line, spec, part)

        with ExitStack() as stack:
            stream = None if plan.gz else stack.enter_context(_Window(path, state.offset, plan.stop))
            pool = stack.enter_context(ThreadPoolExecutor(WORKERS)) if WORKERS > 1 else None
            got = read_source(
                plan.source,
                sink,
                pool=pool,
                stop_at_error=False,
                spec=state.spec,
                first_line=state.next_line,
                final=final,
                stream=stream,
                size=plan.stop - state.offset,
                progress=progress,
            )
        _follow(plan, got)
        return got.problems

    @staticmethod
    def _take(
        plan: _Plan, table: Columns, read: Read, progress: Callable[[int], None] | None, size: int
    ) -> list[LogProblem]:
        """A new file read ahead (stats.logs._group) into ``table``; ``plan.state`` follows."""
        got, parts = read
        _follow(plan, got)  # first: a file gone since (FileNotFoundError) adds no rows
        if progress is not None and size:
            progress(size)
        for first_line, spec, part in parts:
            table.add(plan.state.index, first_line, spec, part)
        return got.problems

    @staticmethod
    def _new_rows(table: Columns) -> dict[str, np.ndarray]:
        columns = dict(table.finish())
        columns["file"], columns["line"] = table.locations(narrow=True)
        return columns

    def _ends(self, plans: list[_Plan], reloaded: list[str]) -> tuple[list[LogProblem], list[LogProblem]]:
        """The standing problems (:func:`_ending`) this poll finds, and those it takes back
        (:func:`stats.logs._file_end.standing_update`)."""
        ends = [(plan.source.name, _ending(plan)) for plan in plans if plan.source.name in self._files]
        return standing_update(self._standing, self._files, ends, set(reloaded))

    # -- duplicates ----------------------------------------------------------------------------

    def _resolve(
        self, new: dict[str, np.ndarray], locs: Locations
    ) -> tuple[dict[str, np.ndarray], list[tuple[str, int]], list[LogProblem]]:
        """Resolve duplicates of the new rows, among them and against the rows handed on before.

        Returns the new rows left, the (file, line) of earlier rows they replace, and the
        warnings; the index then holds the new rows. New rows whose keys are distinct and not
        held are simply indexed; otherwise the rows held with their keys (found in the index)
        and the new rows are resolved together, as :func:`stats.read_logs` resolves a log.
        """
        if not len(new["file"]):
            return new, [], []
        keys, fits = pack_row(new)
        held = self._held.find(keys, fits, new) if len(self._held) else None  # none held: no look-up
        if (held is None or not (held >= 0).any()) and distinct(keys, fits, new):
            self._held.put(keys, fits, new, locs)
            return new, [], []
        if held is None:
            held = np.full(len(keys), -1, np.int64)
        locs = as_array(locs)
        # The earlier rows: one per key held (a wide line's rows share a location, not a key),
        # placed before the new rows, with the key columns of the first new row with their key.
        rows = np.flatnonzero(held >= 0)
        if fits[rows].all():
            first = np.unique(keys[rows], return_index=True)[1]
        else:
            first = np.flatnonzero(~pd.MultiIndex.from_arrays([new[k][rows] for k in KEY]).duplicated())
        source = rows[np.sort(first)]
        earlier = held[source]
        files, lines = unpack_location(earlier)
        columns = {k: np.concatenate([new[k][source], new[k]]) for k in KEY}
        file, line = np.concatenate([files, new["file"]]), np.concatenate([lines, new["line"]])

        def locate(at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return file[at], line[at]

        names = {k: self.labels.names(k) for k in ("dataset", "learner", "criterion")}
        keep, problems = resolve(columns, names, locate, self._names)
        superseded = [(self._names[f], n) for f, n in sorted(zip(files.tolist(), lines.tolist()))]
        if keep is not None:
            kept = keep[len(earlier) :]
            new = {k: v[kept] for k, v in new.items()}
            keys, fits, locs = keys[kept], fits[kept], locs[kept]
        self._held.put(keys, fits, new, locs)
        return new, superseded, problems

    def _frame(self, rows: dict[str, np.ndarray]) -> pd.DataFrame:
        """The rows as a frame (:func:`~stats.logs._watch_update.rows_frame`; wide once any was)."""
        self._wide = self._wide or "goal" in rows
        return rows_frame(rows, self.labels, self._names, wide=self._wide)
