"""The raw results of an :class:`~stats.cells._incremental.Aggregator`'s cells, as they were at one moment.

A user interface that follows a growing log needs, besides the per-cell summaries, the raw
results of some cells (to pool a learner's results over data sets, say) -- without keeping a
second copy of the log, and without reading arrays the next :meth:`Aggregator.add` (or
``apply``) is changing in another thread. :meth:`Aggregator.snapshot` gives a :class:`CellValues`:
references to the aggregator's arrays, which ``add`` and ``apply`` replace rather than change in
place, so a snapshot keeps answering for the moment it was taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from stats.cells._aggregate import _alive, _ranges
from stats.core import cell_criterion, pack_cell, pack_run, unpack_cell, unpack_run


@dataclass(frozen=True, eq=False)
class CellValues:
    """The results of every cell (criterion, dataset, learner) of an aggregator at one moment.

    Built by :meth:`stats.Aggregator.snapshot`; results replaced by a later line (same dataset,
    repeat, fold, learner and criterion) are left out, as in the aggregate.

    Examples
    --------
    >>> from stats import Aggregator
    >>> log = pd.DataFrame({"dataset": ["a", "a", "b"], "repeat": 1, "fold": [1, 2, 1], "learner": "nb",
    ...                     "criterion": "pd", "value": [0.5, 0.7, 0.1]})
    >>> agg = Aggregator(log)
    >>> before = agg.snapshot()
    >>> _ = agg.add(log.iloc[:1].assign(value=0.9))  # a's fold 1 again: the later result wins
    >>> before.gather("pd", "nb", ["a", "b"]).tolist(), agg.snapshot().gather("pd", "nb", ["a"]).tolist()
    ([0.5, 0.7, 0.1], [0.7, 0.9])
    """

    levels: tuple[pd.Index, pd.Index, pd.Index]  # criterion, dataset, learner labels
    lookup: pd.Index  # packed (criterion, dataset, learner) codes (stats.core._keys.pack_cell) -> cell number
    values: np.ndarray  # stored results, grouped by cell
    run: np.ndarray  # their (repeat, fold) keys (stats.core._keys.pack_run)
    start: np.ndarray  # each cell's stored rows: [start, stop)
    stop: np.ndarray
    extra: tuple[np.ndarray, np.ndarray, np.ndarray]  # appended rows: cell, wide run, value
    gone: np.ndarray  # positions (stored rows, then appended ones) of the rows taken out, sorted

    @cached_property
    def _codes(self) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
        """Label -> code of each level (a dict look-up is ~50 times cheaper than an Index's)."""
        return tuple({str(x): i for i, x in enumerate(level)} for level in self.levels)  # type: ignore[return-value]

    def gather(self, criterion: str, learner: str, datasets: Sequence[str]) -> np.ndarray:
        """Every result of ``learner`` for ``criterion`` on ``datasets`` (empty if none).

        Stored results first, cell by cell in the order of ``datasets``, then the appended ones in
        the order they came; the order means nothing to a quartile.
        """
        crit, data, lrn = self._codes
        ci, li = crit.get(criterion, -1), lrn.get(learner, -1)
        di = np.array([data[d] for d in datasets if d in data], np.int64)
        if ci < 0 or li < 0 or not di.size:
            return np.empty(0)
        codes = np.column_stack([np.full(di.size, ci), di, np.full(di.size, li)]).astype(np.int64)
        cells = self.lookup.get_indexer(pd.Index(pack_cell(codes)))
        cells = cells[cells >= 0]
        if not cells.size:
            return np.empty(0)
        return self._rows(cells)[2]

    def gather_each(self, criterion: str, learner: str, datasets: Sequence[str]) -> dict[str, np.ndarray]:
        """:meth:`gather` of each data set of ``datasets`` alone, from one pass over their cells.

        The same arrays as ``{d: gather(criterion, learner, [d]) for d in datasets}`` (the same
        values in the same order), for the cost of one :meth:`gather` of all of them: a report
        that ranks the learners on each of 500 data sets reads them here once per learner.
        """
        crit, data, lrn = self._codes
        ci, li = crit.get(criterion, -1), lrn.get(learner, -1)
        out = {d: np.empty(0) for d in datasets}
        names = [d for d in out if d in data]
        if ci < 0 or li < 0 or not names:
            return out
        di = np.array([data[d] for d in names], np.int64)
        codes = np.column_stack([np.full(di.size, ci), di, np.full(di.size, li)]).astype(np.int64)
        cells = self.lookup.get_indexer(pd.Index(pack_cell(codes)))
        found = cells >= 0
        if not found.any():
            return out
        cell, _, values = self._rows(cells[found])
        order = np.argsort(cell, kind="stable")  # each cell's rows together, in the order gather gives
        cell, values = cell[order], values[order]
        for name, c in zip([n for n, f in zip(names, found.tolist()) if f], cells[found].tolist()):
            lo, hi = np.searchsorted(cell, [c, c + 1])
            out[name] = values[lo:hi]
        return out

    def _rows(self, cells: np.ndarray, runs: bool = False) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """(cell, run, value) of every result of ``cells``: the stored rows cell by cell, then the
        appended ones in the order they came, rows taken out left out. ``run`` (wide keys) is made
        when asked for, else None."""
        lengths = self.stop[cells] - self.start[cells]
        at = _ranges(self.start[cells], lengths)
        xc, xr, xv = self.extra
        pick = np.flatnonzero(np.isin(xc, cells)) if xc.size and cells.size else np.empty(0, np.int64)
        cell = np.concatenate([np.repeat(cells, lengths), xc[pick]]).astype(np.int64)
        values = np.concatenate([self.values[at], xv[pick]])
        run = None
        if runs:
            stored = pack_run(*unpack_run(self.run[at]), wide=True)  # the buffer holds wide keys
            run = np.concatenate([stored, xr[pick]])
        if self.gone.size:
            alive = _alive(np.concatenate([at, pick + self.values.size]), self.gone)
            cell, values = cell[alive], values[alive]
            run = None if run is None else run[alive]
        return cell, run, values

    def results(self, criterion: str) -> pd.DataFrame:
        """Every result of ``criterion``: a tidy frame (dataset, repeat, fold, learner, criterion, value).

        ``dataset`` and ``learner`` are Categoricals over all of this snapshot's names; rows of a
        cell are together (stored rows, then appended ones); replaced results are left out. This
        is what the fold-level comparisons (:func:`stats.fold_comparison`) read.

        >>> from stats import Aggregator
        >>> log = pd.DataFrame({"dataset": "a", "repeat": 1, "fold": [1, 2, 1], "learner": ["x", "x", "y"],
        ...                     "criterion": "pd", "value": [0.5, 0.7, 0.1]})
        >>> agg = Aggregator(log)
        >>> _ = agg.add(log.iloc[:1].assign(value=0.9))
        >>> agg.snapshot().results("pd").sort_values(["learner", "fold"]).to_numpy().tolist()
        [['a', 1, 1, 'x', 'pd', 0.9], ['a', 1, 2, 'x', 'pd', 0.7], ['a', 1, 1, 'y', 'pd', 0.1]]
        """
        ci = self._codes[0].get(str(criterion), -1)
        keys = self.lookup.to_numpy()
        cells = np.flatnonzero(cell_criterion(keys) == ci) if ci >= 0 else np.empty(0, np.int64)
        cell, run, values = self._rows(cells, runs=True)
        repeat, fold = unpack_run(np.asarray(run, np.int64))
        codes3 = unpack_cell(keys[cell])
        return pd.DataFrame(
            {
                "dataset": pd.Categorical.from_codes(codes3[:, 1], categories=self.levels[1]),
                "repeat": np.asarray(repeat, np.int64),
                "fold": np.asarray(fold, np.int64),
                "learner": pd.Categorical.from_codes(codes3[:, 2], categories=self.levels[2]),
                "criterion": pd.Categorical.from_codes(np.zeros(len(cell), np.int8), categories=[str(criterion)]),
                "value": values,
            }
        )
