"""Which results a log lacks, and the scores table of the data sets it has completely.

Policy (one definition for ``rankboard check`` and every table): for a
criterion, the cells are every data set of the log x every learner with at
least one result for that criterion. A cell's *expected* count is the modal
count over the learners of its data set and criterion (ties go to the larger
count; a data set with no result for the criterion expects the criterion's
modal count). A cell is *missing* when it has no result and *incomplete* when it
has fewer than expected. A table leaves out a data set with a missing cell; an
incomplete cell is used (the statistic of what exists) and flagged, unless
``incomplete="exclude"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd

from stats.cells._aggregate import KEYS, _check_log, _codes, _index, aggregate
from stats.cells._cell_counts import (
    CellCounts,
    Cells,
    Designs,
    Rows,
    code_rows,
    count_grid,
    designs,
    policy_cells,
    reason,
)
from stats.cells._incremental import Aggregator
from stats.core import LogRead, table_of, unpack_run


@dataclass(frozen=True, eq=False)
class Completeness:
    """Counts against expected counts, and the repeats x folds of a log.

    Attributes
    ----------
    counts : DataFrame
        Index (criterion, dataset, learner) over every cell (see the module
        policy), columns ``count`` and ``expected``.
    cells : DataFrame
        The rows of ``counts`` with ``count < expected``, plus ``status``
        ("missing" or "incomplete") and ``reason`` (e.g. "learner svm has 40
        of 100 results", "no pd result for learner knn").
    design : DataFrame or None
        Index (dataset, learner) of the pairs with results, columns
        ``repeats`` and ``folds`` (distinct values over all criteria),
        ``runs`` (distinct (repeat, fold) pairs) and ``design`` ("10 x 10", or
        "10 x 10 (93 of 100 runs)"); None when built from an aggregate.
    lines : int
        Number of results.
    file_lines : int or None
        Number of result lines in the log files (``read_logs(...).lines``), when known:
        a wide-format line holds one result per criterion, so it can be fewer than ``lines``.
    """

    counts: pd.DataFrame
    cells: pd.DataFrame
    design: pd.DataFrame | None
    lines: int
    file_lines: int | None = None

    @property
    def criteria(self) -> pd.Index:
        """Criteria of the log, in label order."""
        return _labels(self.counts.index, 0)

    @property
    def datasets(self) -> pd.Index:
        """Data sets of the log, in label order."""
        return _labels(self.counts.index, 1)

    @property
    def learners(self) -> pd.Index:
        """Learners of the log, in label order."""
        return _labels(self.counts.index, 2)

    @property
    def complete(self) -> bool:
        """True when no cell is missing or incomplete."""
        return self.cells.empty

    def summary(self, max_lines: int = 20) -> str:
        """Text for ``rankboard check``: sizes, repeats x folds, then the missing and incomplete cells.

        Lists are cut after ``max_lines`` entries ("... and N more").
        """
        return self.cell_counts().summary(max_lines)

    def cell_counts(self) -> CellCounts:
        """These counts as the arrays of :class:`~stats.cells.CellCounts` (what ``rankboard check``
        reads from a log's codes): one summary text for both."""
        index = cast(pd.MultiIndex, self.counts.index)
        codes = [np.asarray(c, np.int64) for c in index.codes]
        cells = Cells(*codes, self.counts["count"].to_numpy(), self.counts["expected"].to_numpy())
        found = None
        if self.design is not None:
            pair = cast(pd.MultiIndex, self.design.index)
            d, lrn = (np.asarray(index.levels[k].get_indexer(pair.get_level_values(k - 1)), np.int64) for k in (1, 2))
            runs = [self.design[k].to_numpy(np.int64) for k in ("repeats", "folds", "runs")]
            found = Designs(d * len(index.levels[2]) + lrn, *runs)
        names = (list(index.levels[0]), list(index.levels[1]), list(index.levels[2]))
        return CellCounts(names, cells, found, self.lines, self.file_lines)

    def __str__(self) -> str:
        return self.summary()


def _labels(index: pd.Index, k: int) -> pd.Index:
    """The labels of level ``k`` that occur in the MultiIndex ``index``, in label order."""
    multi = cast(pd.MultiIndex, index)
    return multi.levels[k][np.unique(multi.codes[k])]


def _as_aggregate(obj: Any) -> pd.DataFrame:
    """The aggregate of a log, an aggregate or an :class:`~stats.cells._incremental.Aggregator`."""
    if isinstance(obj, Aggregator):
        return obj.table
    obj = table_of(obj)
    if not isinstance(obj, pd.DataFrame):
        raise TypeError(f"expected a log, an aggregate or an Aggregator, got {type(obj).__name__}")
    if list(obj.index.names) == list(KEYS) and "count" in obj.columns:
        return obj
    if "value" in obj.columns:
        return aggregate(obj)
    raise ValueError(
        "expected a log (columns dataset, repeat, fold, learner, criterion, value) or an aggregate "
        f"(index {', '.join(KEYS)}); got columns {list(obj.columns)}"
    )


def _is_log(obj: Any) -> bool:
    """Whether ``obj`` is a log (rows with values), not an aggregate; else :func:`_as_aggregate` says why."""
    obj = table_of(obj)
    if not isinstance(obj, pd.DataFrame) or (list(obj.index.names) == list(KEYS) and "count" in obj.columns):
        return False
    return "value" in obj.columns


def _counts(agg: pd.DataFrame) -> pd.DataFrame:
    """Count and expected count of every cell (the module's policy), missing ones included."""
    index = cast(pd.MultiIndex, agg.index)
    c, d, lrn = (np.asarray(x, np.int64) for x in index.codes)
    grid = np.zeros([len(x) for x in index.levels], np.int64)
    grid[c, d, lrn] = agg["count"].to_numpy()
    return _counts_of(grid, list(index.levels))


def _counts_of(grid: np.ndarray, levels: list[pd.Index]) -> pd.DataFrame:
    """:func:`_counts` from the (criterion, dataset, learner) grid of counts (0: no result)."""
    cells = policy_cells(grid)
    index = _index(levels, [cells.criterion, cells.dataset, cells.learner], KEYS)
    return pd.DataFrame({"count": cells.count, "expected": cells.expected}, index)


def _log_counts(log: pd.DataFrame) -> tuple[pd.DataFrame, list[np.ndarray], int]:
    """:func:`_counts` of a log straight from its label codes (one bincount, a chunk of rows at a
    time: no aggregate, no sort), the (criterion, dataset, learner) codes and the number of rows.
    Checks the log as :func:`stats.cells._aggregate.aggregate` does (same errors)."""
    _check_log(log)
    codes, levels = (list(x) for x in zip(*(_codes(log[k]) for k in KEYS), strict=True))
    grid = count_grid(codes, [len(level) for level in levels])
    return _counts_of(grid, levels), codes, len(log)


def _design(rows: Rows, n: int, levels: list[pd.Index]) -> pd.DataFrame:
    """Repeats x folds of each (dataset, learner) pair with results
    (:func:`stats.cells._cell_counts.designs`), as a frame over the pairs."""
    n_learners = len(levels[1])
    found = designs(rows, n, len(levels[0]) * n_learners)
    where = found.pairs
    index = _index(levels, [where // n_learners, where % n_learners], ("dataset", "learner"))
    return pd.DataFrame(
        {"repeats": found.repeats, "folds": found.folds, "runs": found.runs, "design": found.text}, index
    )


def _log_rows(log: pd.DataFrame, dataset: np.ndarray, learner: np.ndarray, n_learners: int) -> Rows:
    """:data:`Rows` of a log (its columns as they are: no copy)."""
    repeat, fold = (log[k].to_numpy() for k in ("repeat", "fold"))
    return code_rows(dataset, learner, repeat, fold, n_learners)


def _aggregator_rows(aggregator: Aggregator) -> tuple[Rows, int]:
    """:data:`Rows` of the rows an :class:`~stats.cells._incremental.Aggregator` holds."""
    cell, run, _ = aggregator._all_rows()
    codes3 = aggregator._codes3
    n_learners = len(aggregator._levels[2])
    pair_of_cell = codes3[:, 1] * n_learners + codes3[:, 2]

    def rows(s: int, e: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        repeat, fold = unpack_run(run[s:e])
        return pair_of_cell[cell[s:e]], repeat, fold

    return rows, len(cell)


def repeats_folds(log: Any) -> pd.DataFrame:
    """Repeats x folds of each (dataset, learner) pair of a log: :attr:`Completeness.design`
    alone (no counts), e.g. for a part of a log that holds whole pairs
    (:func:`stats.aggregate_logs`' partitions).

    >>> log = pd.DataFrame({"dataset": "a", "repeat": [1, 1, 2], "fold": [1, 2, 1], "learner": "x",
    ...                     "criterion": "pd", "value": 0.5})
    >>> repeats_folds(log)["design"].tolist()
    ['2 x 2 (3 of 4 runs)']
    """
    log = table_of(log)
    _check_log(log, need=("repeat", "fold"))
    codes, levels = (list(x) for x in zip(*(_codes(log[k]) for k in KEYS), strict=True))
    return _design(_log_rows(log, codes[1], codes[2], len(levels[2])), len(log), levels[1:])


def completeness(log_or_agg: Any) -> Completeness:
    """Find the missing and incomplete cells of a log and its repeats x folds.

    Parameters
    ----------
    log_or_agg : DataFrame or Aggregator
        A log (columns dataset, repeat, fold, learner, criterion, value), an
        :class:`~stats.cells._incremental.Aggregator`, or an aggregate (then
        ``design`` is None: repeats and folds are not in an aggregate).

    Returns
    -------
    Completeness
        See the module docstring for the definition of expected, missing and
        incomplete.

    Examples
    --------
    >>> log = pd.DataFrame({"dataset": ["a", "a", "a", "b", "b"], "repeat": 1, "fold": [1, 2, 1, 1, 2],
    ...                     "learner": ["x", "x", "y", "x", "y"], "criterion": "pd", "value": 0.5})
    >>> print(completeness(log).summary())
    5 lines: 2 data sets, 2 learners, 1 criterion (pd)
    repeats x folds: 1 x 1 for 3 of 4 data set x learner pairs; otherwise:
      a / x: 1 x 2
    0 missing and 1 incomplete cells (expected: the modal count over the learners of a data set):
      pd / a / y: learner y has 1 of 2 results
    """
    design = None
    if isinstance(log_or_agg, Aggregator):
        agg = log_or_agg.table
        levels = list(cast(pd.MultiIndex, agg.index).levels[1:])
        counts, lines = _counts(agg), int(agg["count"].sum())
        design = _design(*_aggregator_rows(log_or_agg), levels)
    elif _is_log(log_or_agg):
        log = table_of(log_or_agg)
        counts, codes, lines = _log_counts(log)
        levels = list(cast(pd.MultiIndex, counts.index).levels[1:])
        if {"repeat", "fold"} <= set(log.columns):
            design = _design(_log_rows(log, codes[1], codes[2], len(levels[1])), lines, levels)
    else:
        agg = _as_aggregate(log_or_agg)
        counts, lines = _counts(agg), int(agg["count"].sum())
    cells = counts[counts["count"] < counts["expected"]].copy()
    cells["status"] = np.where(cells["count"] == 0, "missing", "incomplete")
    triples = zip(cells.index, cells["count"], cells["expected"])
    cells["reason"] = [reason(c, lrn, n, e) for (c, _, lrn), n, e in triples]
    file_lines = log_or_agg.lines if isinstance(log_or_agg, LogRead) else None
    return Completeness(counts=counts, cells=cells, design=design, lines=lines, file_lines=file_lines)
