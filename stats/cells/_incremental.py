"""Incremental aggregation: keep the per-cell summaries of a growing log up to date.

Split from :mod:`stats.cells._aggregate`, whose vectorised summaries it reuses for the
cells that appended rows touch.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats._result import table_of
from stats.cells._aggregate import (
    _BITS,
    KEYS,
    _bincount,
    _cells,
    _check_log,
    _codes,
    _frame,
    _gather,
    _index,
    _order,
    _ranges,
    _summarise,
)
from stats.cells._keys import _latest, _pack, _run_key, _split
from stats.cells._values import CellValues


class Aggregator:
    """The aggregate of a growing log, refreshed cell by cell as rows are appended.

    Parameters
    ----------
    log : DataFrame
        A log as for :func:`aggregate`, with integer ``repeat`` and ``fold``.

    Notes
    -----
    Rows are kept grouped by cell (CSR style: values and (repeat, fold) keys in
    cell order, each cell's start and stop) beside a buffer of appended rows.
    :meth:`add` re-summarises only the cells its rows touch, from their stored
    rows and the new ones; the buffer is merged into the store when it outgrows
    a quarter of it. A new label (data set, learner, criterion) takes the next
    code, so it sorts after the labels seen before. The log itself is not kept.

    A row whose (dataset, repeat, fold, learner, criterion) is already present
    replaces the earlier result (last wins, as when a log is read top to
    bottom). Rows are not removed one by one: when a file is truncated or
    replaced, :meth:`replace` rebuilds from the new log.

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

    _COMPACT_MIN = 1 << 16  # appended rows kept in the buffer at least up to this many

    def __init__(self, log: pd.DataFrame) -> None:
        self.replace(log)

    def replace(self, log: pd.DataFrame) -> None:
        """Rebuild everything from ``log`` (for a truncated, replaced or rewritten file)."""
        log = table_of(log)  # read_logs' LogRead is its table
        values = _check_log(log, need=("repeat", "fold", "value"))
        run = _run_key(log["repeat"].to_numpy(), log["fold"].to_numpy())
        cell, counts, codes3, levels = _cells(log)
        if max(len(x) for x in levels) >= 1 << _BITS:
            raise ValueError(f"too many distinct labels (at most {(1 << _BITS) - 1} per column)")
        self._levels, self._codes3, self._display = levels, codes3, np.arange(len(codes3))
        self._lookup = pd.Index(_pack(codes3))
        self._store(cell, run, values, counts)
        del cell, run
        self._stats = _summarise(self._values, self._counts)

    def _store(self, cell: np.ndarray, run: np.ndarray, values: np.ndarray, counts: np.ndarray) -> None:
        self._counts = counts
        order = _order(cell, len(self._codes3))
        del cell
        self._run = run[order]
        self._values = _gather(values, order)
        del order
        self._stop = np.cumsum(self._counts)
        self._start = self._stop - self._counts
        self._extra: tuple[np.ndarray, ...] = (np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0))
        self._superseded = False  # whether the stored and buffered rows include replaced results
        self._table: pd.DataFrame | None = None

    @property
    def table(self) -> pd.DataFrame:
        """What :func:`aggregate` gives for the log and every row added since (a new frame per change)."""
        if self._table is None:
            if self._display.size != len(self._codes3):
                self._display = np.lexsort(self._codes3.T[::-1])
            d = self._display
            self._table = _frame(self._stats[:, d], self._counts[d], self._codes3[d], self._levels)
        return self._table

    def snapshot(self) -> CellValues:
        """The raw results of every cell as they are now (later :meth:`add` calls do not change it).

        Cheap (references to arrays that :meth:`add` replaces rather than changes in place), so a
        reader in another thread can keep it while this aggregator goes on.
        """
        return CellValues(
            tuple(self._levels),  # type: ignore[arg-type]
            self._lookup,
            self._values,
            self._run,
            self._start,
            self._stop,
            self._extra,  # type: ignore[arg-type]
            self._superseded,
        )

    def add(self, rows: pd.DataFrame) -> pd.MultiIndex:
        """Append ``rows`` (same columns as a log) and re-summarise the cells they touch.

        Parameters
        ----------
        rows : DataFrame
            New results, e.g. the lines appended to a log file since it was last read.

        Returns
        -------
        MultiIndex
            The (criterion, dataset, learner) cells that were re-summarised, in table order.
        """
        values = _check_log(rows, need=("repeat", "fold", "value"))
        run = _run_key(rows["repeat"].to_numpy(), rows["fold"].to_numpy(), wide=True)
        if not len(rows):
            return _index(self._levels, [np.empty(0, np.int64)] * 3, KEYS)
        levels = list(self._levels)
        key = _pack(np.column_stack([self._encode(rows[k], levels, i) for i, k in enumerate(KEYS)]))
        cell = self._lookup.get_indexer(key)
        if (cell < 0).any():
            self._grow(cell, key)
        self._levels = levels
        touched = np.unique(cell)
        local = np.full(len(self._codes3), -1, np.int64)
        local[touched] = np.arange(touched.size)
        c, r, v = (
            np.concatenate([*old, new])
            for old, new in zip(self._rows(touched, local), (local[cell], run, values), strict=True)
        )
        keep = _latest(c, r)
        if keep is not None:
            c, v, self._superseded = c[keep], v[keep], True
        counts = np.bincount(c, minlength=touched.size)
        self._stats[:, touched] = _summarise(v[_order(c, touched.size)], counts, overwrite=True)
        self._counts[touched] = counts
        self._extra = tuple(np.concatenate(p) for p in zip(self._extra, (cell, run, values), strict=True))
        if self._extra[0].size > max(self._COMPACT_MIN, self._values.size // 4):
            self._compact()
        self._table = None
        codes3 = self._codes3[touched[np.lexsort(self._codes3[touched].T[::-1])]]
        return _index(self._levels, list(codes3.T), KEYS)

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
            if len(levels[k]) >= 1 << _BITS:
                raise ValueError(f"too many distinct labels in column {column.name!r}")
        return pos[codes].astype(np.int64)

    def _grow(self, cell: np.ndarray, key: np.ndarray) -> None:
        """Number the new cells of ``key`` (in place in ``cell``) and make room for them."""
        inverse, fresh = pd.factorize(key[cell < 0])
        cell[cell < 0] = len(self._codes3) + inverse
        self._lookup = self._lookup.append(pd.Index(fresh))
        bits = (fresh[:, None] >> np.array([2 * _BITS, _BITS, 0])) & (1 << _BITS) - 1
        self._codes3 = np.vstack([self._codes3, bits])
        zeros = np.zeros(fresh.size, np.int64)
        self._counts, self._start, self._stop = (
            np.concatenate([x, zeros]) for x in (self._counts, self._start, self._stop)
        )
        self._stats = np.hstack([self._stats, np.zeros((7, fresh.size))])

    def _rows(self, cells: np.ndarray, local: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """(local cell, wide run, value) of the stored and the buffered rows of ``cells``, oldest first."""
        lengths = self._stop[cells] - self._start[cells]
        at = _ranges(self._start[cells], lengths)
        xc, xr, xv = self._extra
        pick = np.flatnonzero(local[xc] >= 0)
        return (
            (np.repeat(np.arange(cells.size), lengths), local[xc[pick]]),
            (_run_key(*_split(self._run[at]), wide=True), xr[pick]),
            (self._values[at], xv[pick]),
        )

    def _all_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(cell, wide run, value) of every stored and buffered row, replaced results included."""
        xc, xr, xv = self._extra
        cell = np.repeat(np.arange(len(self._codes3)), self._stop - self._start)
        run = _run_key(*_split(self._run), wide=True)
        return np.concatenate([cell, xc]), np.concatenate([run, xr]), np.concatenate([self._values, xv])

    def _compact(self) -> None:
        """Merge the buffer into the store, dropping replaced results."""
        cell, run, values = self._all_rows()
        keep = _latest(cell, run) if self._superseded else None
        if keep is not None:
            cell, run, values = cell[keep], run[keep], values[keep]
        self._store(cell, _run_key(*_split(run)), values, _bincount(cell, len(self._codes3)))
