"""Incremental aggregation: keep the per-cell summaries of a growing log up to date.

Split from :mod:`stats.cells._aggregate`, whose vectorised summaries it reuses for the
cells that appended (or dropped) rows touch.

(:class:`Aggregator` is one class: its add, drop, apply and compaction keep the same row buffer,
cell index and summaries consistent.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import pandas as pd

from stats.cells._aggregate import (
    _CHUNK,
    KEYS,
    _alive,
    _bincount,
    _cells,
    _check_log,
    _codes,
    _empty_log,
    _frame,
    _gather,
    _index,
    _latest,
    _order,
    _ranges,
    _summarise,
)
from stats.cells._values import CellValues
from stats.core import (
    NARROW_BITS,
    check_labels,
    pack_cell,
    pack_run,
    table_of,
    unpack_cell,
    unpack_run,
)


class Update(Protocol):
    """What :meth:`Aggregator.apply` reads of an update: a :class:`stats.WatchUpdate`'s fields."""

    @property
    def rows(self) -> pd.DataFrame: ...

    @property
    def reloaded(self) -> Sequence[str]: ...

    @property
    def removed(self) -> Sequence[str]: ...

    @property
    def superseded(self) -> Sequence[tuple[str, int]]: ...


class Aggregator:
    """The aggregate of a growing log, refreshed cell by cell as rows come and go.

    Parameters
    ----------
    log : DataFrame, optional
        A log as for :func:`aggregate`, with integer ``repeat`` and ``fold``, duplicates resolved
        (e.g. the first :meth:`stats.LogWatcher.poll`'s ``rows``). With ``file`` and ``line``
        columns (a watcher's rows have them), each row keeps its location and the aggregator
        can follow the watcher with :meth:`apply`; without them it takes :meth:`add` only.
        None: no rows yet, locations kept.

    Notes
    -----
    **The one copy of a live session's rows.** Rows are kept grouped by cell (CSR style: values,
    (repeat, fold) keys and file numbers in cell order, each cell's start and stop) beside a buffer
    of appended rows; rows taken out (replaced results, a rewritten or removed file's rows) are
    listed by position until the buffer or that list outgrows a quarter of the store, when both
    are merged into it. Each change re-summarises only the cells it touches. A new label (data
    set, learner, criterion) takes the next code, so it sorts after the labels seen before (the
    order of a categorical's categories when rows come as one). The log itself is not kept.

    Two ways in:

    - :meth:`apply` takes a :class:`stats.WatchUpdate` as it is: it drops the rows of the files
      reloaded or removed, drops the ``superseded`` rows (found by their file and line among
      the cells the new rows touch), and adds the new rows. The watcher has resolved which
      line wins; ``apply`` does not look at keys again.
    - :meth:`add` takes rows without that word: a row whose (dataset, repeat, fold, learner,
      criterion) is already present replaces the earlier result (last wins, as when a log is
      read top to bottom); :meth:`add` resolves that itself, among the cells the rows touch.

    Either way the aggregate (:attr:`table`) and the raw results (:meth:`snapshot`) hold each
    result once, as :func:`stats.read_logs` then :func:`aggregate` would.

    Examples
    --------
    >>> log = pd.DataFrame({"dataset": "iris", "repeat": 1, "fold": [1, 2], "learner": "nb",
    ...                     "criterion": "pd", "value": [0.5, 0.7]})
    >>> agg = Aggregator(log)
    >>> agg.add(log.assign(fold=3, value=0.9).iloc[:1]).tolist()
    [('pd', 'iris', 'nb')]
    >>> agg.table["median"].tolist(), agg.table["count"].tolist()
    ([0.7], [3])
    """

    _COMPACT_MIN = 1 << 16  # appended (or dropped) rows kept apart from the store at least up to this many

    def __init__(self, log: pd.DataFrame | None = None, *, take: bool = False) -> None:
        self.replace(log, take=take)

    def replace(self, log: pd.DataFrame | None = None, *, take: bool = False) -> None:
        """Rebuild everything from ``log`` (as for the constructor).

        ``take``: the columns are taken out of ``log`` (a DataFrame, left without columns) as
        soon as they are used, so that each is freed then if ``log`` held the only reference to
        it: a caller handing its only copy of a large log over holds less memory at the peak.
        """
        log = _empty_log() if log is None else table_of(log)  # read_logs' LogRead is its table
        values = _check_log(log, need=("repeat", "fold", "value"))
        repeat, fold = log["repeat"].to_numpy(), log["fold"].to_numpy()
        pack_run(repeat[:0], fold[:0])  # integers, or ValueError
        cell, counts, codes3, levels = _cells(log)
        for name, level in zip(KEYS, levels, strict=True):
            check_labels(len(level), name)
        self._files: dict[str, int] = {}  # file name -> its index in the rows' file numbers
        self._located = "file" in log.columns
        file = self._file_numbers(log) if self._located else None
        if take:  # the label columns are done with; the others are held below as long as needed
            for name in list(log.columns):
                del log[name]
        self._levels, self._codes3, self._display = levels, codes3, np.arange(len(codes3))
        self._lookup = pd.Index(pack_cell(codes3))
        order = _order(cell, len(codes3))
        del cell  # the rows' cell numbers: their order is what the store needs
        self._store(order, (repeat, fold), values, counts, file)
        del order, repeat, fold
        # Summarised when first asked for (the table), so that a caller can let go of the log's
        # columns first: summarising copies cells to sort them.
        self._summary: np.ndarray | None = None

    def _store(
        self,
        order: np.ndarray,
        run: np.ndarray | tuple[np.ndarray, np.ndarray],
        values: np.ndarray,
        counts: np.ndarray,
        file: np.ndarray | None,
    ) -> None:
        """Store the rows grouped by cell (``order``: :func:`_order` of their cell numbers; its
        memory becomes the values'). ``run``: packed run keys, or the (repeat, fold) columns to
        pack (a chunk at a time, in cell order: no unsorted copy of the whole column)."""
        self._counts = counts
        if isinstance(run, tuple):
            repeat, fold = run
            # narrow (int32) keys when every repeat and fold allows, as pack_run would choose
            lo = min(int(repeat.min()), int(fold.min())) if repeat.size else 0
            hi = max(int(repeat.max()), int(fold.max())) if repeat.size else 0
            wide = not (lo >= 0 and hi < 1 << NARROW_BITS)
            sorted_run = np.empty(order.size, np.int64 if wide else np.int32)
            for s in range(0, order.size, _CHUNK):
                at = order[s : s + _CHUNK]
                sorted_run[s : s + _CHUNK] = pack_run(repeat[at], fold[at], wide=wide)
            self._run = sorted_run
        else:
            self._run = run[order]
        self._file = None if file is None else file[order]  # file numbers (-1: none), or None
        self._values = _gather(values, order)
        del order
        self._stop = np.cumsum(self._counts)
        self._start = self._stop - self._counts
        # Appended rows: cell, wide run, value, file number (-1 when not located).
        self._extra: tuple[np.ndarray, ...] = (
            np.empty(0, np.int64),
            np.empty(0, np.int64),
            np.empty(0),
            np.empty(0, np.int8),
        )
        # Positions (store rows 0 .. S-1, then appended rows S ...) of the rows taken out, sorted.
        # Replaced, never changed in place: a snapshot keeps the one it was given.
        self._gone = np.empty(0, np.int64)
        self._table: pd.DataFrame | None = None

    @property
    def located(self) -> bool:
        """Whether the rows keep the file they came from (built from rows with a ``file`` column,
        e.g. a watcher's, or empty): only then does :meth:`apply` work."""
        return self._located

    @property
    def table(self) -> pd.DataFrame:
        """What :func:`aggregate` gives for the rows held (a new frame per change)."""
        if self._table is None:
            if self._display.size != len(self._codes3):
                self._display = np.lexsort(self._codes3.T[::-1])
            d = self._display
            d = d[self._counts[d] > 0]  # cells whose rows were all taken out are not shown
            self._table = _frame(self._stats[:, d], self._counts[d], self._codes3[d], self._levels)
        return self._table

    @property
    def _stats(self) -> np.ndarray:
        """Rows min, q1, median, q3, max, mean, sd of every cell (computed at the first use)."""
        if self._summary is None:
            self._summary = _summarise(self._values, self._counts)
        return self._summary

    @_stats.setter
    def _stats(self, stats: np.ndarray) -> None:
        self._summary = stats

    def snapshot(self) -> CellValues:
        """The raw results of every cell as they are now (later changes do not change it).

        Cheap (references to arrays that :meth:`add` and :meth:`apply` replace rather than change
        in place), so a reader in another thread can keep it while this aggregator goes on.
        """
        return CellValues(
            tuple(self._levels),  # type: ignore[arg-type]
            self._lookup,
            self._values,
            self._run,
            self._start,
            self._stop,
            self._extra[:3],  # type: ignore[arg-type]
            self._gone,
        )

    def add(self, rows: pd.DataFrame) -> pd.MultiIndex:
        """Append ``rows`` (same columns as a log) and re-summarise the cells they touch.

        A row with the key of a result held (or of a later row of ``rows``) replaces it: last wins.

        Parameters
        ----------
        rows : DataFrame
            New results, e.g. the lines appended to a log file since it was last read.

        Returns
        -------
        MultiIndex
            The (criterion, dataset, learner) cells that were re-summarised, in table order.
        """
        rows = table_of(rows)
        cell, run, values, loc = self._take_in(rows)
        return self._change(cell, run, values, loc, np.empty(0, np.int64), resolve=True)

    def apply(self, update: Update) -> pd.MultiIndex:
        """Follow a :class:`stats.WatchUpdate`: drop what it drops, add what it brings.

        In this order: the rows of the files in ``update.reloaded`` and ``update.removed`` are
        taken out; ``update.rows`` (with ``file``) are added, each replacing the row held with
        its key (dataset, repeat, fold, learner, criterion), if any: the row at one of
        ``update.superseded``'s (file, line), when the updates come from one watcher, each once
        and in order. The superseded rows are found by their keys, not by their lines, so that
        no line number is kept per row (a superseded (file, line) with no new row of its key,
        which a watcher never sends, changes nothing).

        Returns
        -------
        MultiIndex
            The (criterion, dataset, learner) cells that were re-summarised (rows added or taken
            out; a cell may have none left), in table order.

        Raises
        ------
        ValueError
            If this aggregator's rows have no files (built from rows without ``file``: see
            :attr:`located`), or the rows lack a column.
        """
        if not self._located:
            raise ValueError(
                "this Aggregator was built from rows without 'file' and 'line': build it from a watcher's rows "
                "(or empty: Aggregator()) to apply its updates"
            )
        rows = table_of(update.rows)
        if "file" not in rows.columns and len(rows):
            raise ValueError("the update's rows lack column(s) file")
        drop = self._rows_of_files([*update.reloaded, *update.removed])
        cell, run, values, file = self._take_in(rows)
        return self._change(cell, run, values, file, drop, resolve=True)

    # -- rows in ---------------------------------------------------------------------------------

    def _take_in(self, rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(cell, wide run, value, file number) of ``rows``; new labels and cells are numbered."""
        values = _check_log(rows, need=("repeat", "fold", "value"))
        run = pack_run(rows["repeat"].to_numpy(), rows["fold"].to_numpy(), wide=True)
        if not len(rows):
            return np.empty(0, np.int64), run, values, np.empty(0, np.int64)
        levels = list(self._levels)
        key = pack_cell(np.column_stack([self._encode(rows[k], levels, i) for i, k in enumerate(KEYS)]))
        cell = self._lookup.get_indexer(key)
        if (cell < 0).any():
            self._grow(cell, key)
        self._levels = levels
        located = self._located and "file" in rows.columns
        file = self._file_numbers(rows) if located else np.full(len(rows), -1, np.int8)
        return cell.astype(np.int64), run, values, file

    def _file_numbers(self, rows: pd.DataFrame) -> np.ndarray:
        """The number of each row's file (numbered here), as narrow as the numbers allow."""
        codes, names = _codes(rows["file"])
        own = np.array([self._files.setdefault(str(name), len(self._files)) for name in names], np.int64)
        narrow = next(t for t in (np.int8, np.int16, np.int32, np.int64) if len(self._files) <= np.iinfo(t).max)
        return own.astype(narrow)[codes]

    @staticmethod
    def _encode(column: pd.Series, levels: list[pd.Index], k: int) -> np.ndarray:
        """Codes of ``column`` in ``levels[k]``, appending the labels not seen yet."""
        codes, labels = _codes(column)
        used, codes = np.unique(codes, return_inverse=True)
        pos = levels[k].get_indexer(labels[used])
        unseen = pos < 0
        if unseen.any():
            pos[unseen] = np.arange(len(levels[k]), len(levels[k]) + unseen.sum())
            levels[k] = levels[k].append(labels[used][unseen])
            check_labels(len(levels[k]), str(column.name))
        return pos[codes].astype(np.int64)

    def _grow(self, cell: np.ndarray, key: np.ndarray) -> None:
        """Number the new cells of ``key`` (in place in ``cell``) and make room for them."""
        stats = self._stats  # summarised before any change (the cells held now, all with rows)
        inverse, fresh = pd.factorize(key[cell < 0])
        cell[cell < 0] = len(self._codes3) + inverse
        self._lookup = self._lookup.append(pd.Index(fresh))
        self._codes3 = np.vstack([self._codes3, unpack_cell(fresh)])
        end = np.full(fresh.size, self._values.size, np.int64)  # empty in the store: start = stop = its end
        self._counts = np.concatenate([self._counts, np.zeros(fresh.size, np.int64)])
        self._start, self._stop = np.concatenate([self._start, end]), np.concatenate([self._stop, end])
        self._stats = np.hstack([stats, np.zeros((7, fresh.size))])

    # -- rows out --------------------------------------------------------------------------------

    def _rows_of_files(self, names: list[str]) -> np.ndarray:
        """Positions of the rows held from the files ``names`` (a pass over every location)."""
        files = [self._files[n] for n in names if n in self._files]
        if not files:
            return np.empty(0, np.int64)
        files_array = np.array(files, np.int64)
        assert self._file is not None
        store = np.flatnonzero(np.isin(self._file, files_array))
        extra = np.flatnonzero(np.isin(self._extra[3], files_array)) + self._values.size
        found = np.concatenate([store, extra])
        return found[_alive(found, self._gone)]

    # -- the rows of cells -----------------------------------------------------------------------

    def _live(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions and cells of the rows held of ``cells`` (sorted, distinct): stored rows cell by
        cell, then appended ones in the order they came; rows taken out left out."""
        lengths = self._stop[cells] - self._start[cells]
        at = _ranges(self._start[cells], lengths)
        xc = self._extra[0]
        local = np.zeros(len(self._codes3), bool)
        local[cells] = True
        pick = np.flatnonzero(local[xc])
        pos = np.concatenate([at, pick + self._values.size])
        cell = np.concatenate([np.repeat(cells, lengths), xc[pick]])
        alive = _alive(pos, self._gone)
        return pos[alive], cell[alive]

    def _take(self, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(wide run, value, file number) of the rows at ``pos`` (file -1 when not kept)."""
        size = self._values.size
        stored = pos < size
        s, x = pos[stored], pos[~stored] - size
        _, xr, xv, xl = self._extra
        run, value, loc = np.empty(pos.size, np.int64), np.empty(pos.size), np.empty(pos.size, np.int64)
        run[stored] = pack_run(*unpack_run(self._run[s]), wide=True)
        value[stored] = self._values[s]
        loc[stored] = -1 if self._file is None else self._file[s]
        run[~stored], value[~stored], loc[~stored] = xr[x], xv[x], xl[x]
        return run, value, loc

    def _cell_of(self, pos: np.ndarray) -> np.ndarray:
        """The cells of the rows at ``pos``."""
        size = self._values.size
        stored = pos < size
        cell = np.empty(pos.size, np.int64)
        cell[stored] = np.searchsorted(self._stop, pos[stored], side="right")  # stop never decreases
        cell[~stored] = self._extra[0][pos[~stored] - size]
        return cell

    def _change(
        self, cell: np.ndarray, run: np.ndarray, values: np.ndarray, loc: np.ndarray, drop: np.ndarray, *, resolve: bool
    ) -> pd.MultiIndex:
        """Take out the rows at ``drop``, add the new rows (last wins among them and the rows
        held if ``resolve``) and re-summarise the cells touched; those cells, in table order."""
        touched = np.unique(np.concatenate([cell, self._cell_of(drop)]))
        if not touched.size:
            return _index(self._levels, [np.empty(0, np.int64)] * 3, KEYS)
        gone = np.union1d(self._gone, drop) if drop.size else self._gone
        self._gone = gone
        pos, held_cell = self._live(touched)
        held_run, held_value, _ = self._take(pos)
        if resolve and cell.size:
            keep = _latest(np.concatenate([held_cell, cell]), np.concatenate([held_run, run]))
            if keep is not None:
                old, new = keep[: pos.size], keep[pos.size :]
                gone = np.union1d(gone, pos[~old])
                held_cell, held_value = held_cell[old], held_value[old]
                cell, run, values, loc = cell[new], run[new], values[new], loc[new]
        self._gone = gone
        self._extra = tuple(np.concatenate(p) for p in zip(self._extra, (cell, run, values, loc), strict=True))
        local = np.full(len(self._codes3), -1, np.int64)
        local[touched] = np.arange(touched.size)
        c = local[np.concatenate([held_cell, cell])]
        v = np.concatenate([held_value, values])
        counts = np.bincount(c, minlength=touched.size)
        some = counts > 0
        if some.any():
            self._stats[:, touched[some]] = _summarise(v[_order(c, touched.size)], counts[some], overwrite=True)
        self._stats[:, touched[~some]] = np.nan
        self._counts[touched] = counts
        limit = max(self._COMPACT_MIN, self._values.size // 4)
        if self._extra[0].size > limit or self._gone.size > limit:
            self._compact()
        self._table = None
        codes3 = self._codes3[touched[np.lexsort(self._codes3[touched].T[::-1])]]
        return _index(self._levels, list(codes3.T), KEYS)

    def _all_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(cell, wide run, value) of every row held (stored, then appended; rows taken out left out)."""
        cell, run, value, _ = self._all()
        return cell, run, value

    def _all(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        xc, xr, xv, xl = self._extra
        cell = np.concatenate([np.repeat(np.arange(len(self._codes3)), self._stop - self._start), xc])
        run = np.concatenate([pack_run(*unpack_run(self._run), wide=True), xr])
        value = np.concatenate([self._values, xv])
        loc = None if self._file is None else np.concatenate([self._file, xl])
        if self._gone.size:
            keep = np.ones(cell.size, bool)
            keep[self._gone] = False
            cell, run, value = cell[keep], run[keep], value[keep]
            loc = None if loc is None else loc[keep]
        return cell, run, value, loc

    def _compact(self) -> None:
        """Merge the appended rows into the store and forget the rows taken out."""
        cell, run, values, loc = self._all()
        counts = _bincount(cell, len(self._codes3))
        order = _order(cell, len(self._codes3))
        del cell
        self._store(order, pack_run(*unpack_run(run)), values, counts, loc)
