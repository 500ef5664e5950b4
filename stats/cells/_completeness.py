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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd

from stats._keys import unpack_run
from stats._result import LogRead, table_of
from stats.cells._aggregate import KEYS, _check_log, _codes, _index, aggregate
from stats.cells._incremental import Aggregator


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
        crit, nd, nl = self.criteria, len(self.datasets), len(self.learners)
        criteria = f"{len(crit)} criteri{'on' if len(crit) == 1 else 'a'} ({', '.join(map(str, crit))})"
        size = f"{self.lines} lines"
        if self.file_lines is not None and self.file_lines != self.lines:  # wide lines: a result per criterion
            size = f"{self.file_lines} lines, {self.lines} results"
        out = [f"{size}: {nd} data sets, {nl} learners, {criteria}"]
        if self.design is None:
            out.append("repeats x folds: unknown (summarised from an aggregate, not a log)")
        else:
            text = pd.Series("no results", pd.MultiIndex.from_product([self.datasets, self.learners]))
            text.loc[self.design.index] = self.design["design"].to_numpy()
            usual = text.value_counts()
            if len(usual) == 1:
                out.append(f"repeats x folds: all {nd} data sets x {nl} learners: {usual.index[0]}")
            else:
                out.append(
                    f"repeats x folds: {usual.index[0]} for {usual.iloc[0]} of {nd * nl} data set x "
                    "learner pairs; otherwise:"
                )
                odd = text[text != usual.index[0]]
                ds, ls = odd.index.get_level_values(0), odd.index.get_level_values(1)
                out += _cut([f"  {d} / {lrn}: {t}" for d, lrn, t in zip(ds, ls, odd)], max_lines)
        if self.complete:
            out.append("complete: no missing or incomplete cells")
        else:
            n_missing = int((self.cells["status"] == "missing").sum())
            out.append(
                f"{n_missing} missing and {len(self.cells) - n_missing} incomplete cells "
                "(expected: the modal count over the learners of a data set):"
            )
            flat = self.cells.reset_index()
            listed = zip(flat["criterion"], flat["dataset"], flat["learner"], flat["reason"])
            out += _cut([f"  {c} / {d} / {lrn}: {r}" for c, d, lrn, r in listed], max_lines)
        return "\n".join(out)

    def __str__(self) -> str:
        return self.summary()


def _labels(index: pd.Index, k: int) -> pd.Index:
    """The labels of level ``k`` that occur in the MultiIndex ``index``, in label order."""
    multi = cast(pd.MultiIndex, index)
    return multi.levels[k][np.unique(multi.codes[k])]


def _cut(lines: list[str], max_lines: int) -> list[str]:
    return lines if len(lines) <= max_lines else [*lines[:max_lines], f"  ... and {len(lines) - max_lines} more"]


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


def _mode(keys: list[np.ndarray], n: np.ndarray) -> pd.DataFrame:
    """Modal ``n`` per combination of ``keys`` (ties: the larger ``n``), as columns k0, k1, ..., n."""
    frame = pd.DataFrame({**{f"k{i}": k for i, k in enumerate(keys)}, "n": n})
    freq = frame.value_counts().rename("freq").reset_index()
    return freq.sort_values(["freq", "n"]).drop_duplicates([f"k{i}" for i in range(len(keys))], keep="last")


def _counts(agg: pd.DataFrame) -> pd.DataFrame:
    """Count and expected count of every cell (the module's policy), missing ones included."""
    index = cast(pd.MultiIndex, agg.index)
    c, d, lrn = (np.asarray(x, np.int64) for x in index.codes)
    grid = np.zeros([len(x) for x in index.levels], np.int64)
    grid[c, d, lrn] = agg["count"].to_numpy()
    return _counts_of(grid, list(index.levels))


def _counts_of(grid: np.ndarray, levels: list[pd.Index]) -> pd.DataFrame:
    """:func:`_counts` from the (criterion, dataset, learner) grid of counts (0: no result)."""
    c, d, lrn = np.nonzero(grid)  # the observed cells, in the order of their codes (an aggregate's)
    n = grid[c, d, lrn]
    has_dataset = np.zeros(grid.shape[1], bool)
    has_dataset[d] = True
    learner_for = np.zeros((grid.shape[0], grid.shape[2]), bool)
    learner_for[c, lrn] = True
    by_criterion, by_cell = np.zeros(grid.shape[0], np.int64), np.zeros(grid.shape[:2], np.int64)
    m = _mode([c], n)
    by_criterion[m["k0"].to_numpy()] = m["n"].to_numpy()
    m = _mode([c, d], n)
    by_cell[m["k0"].to_numpy(), m["k1"].to_numpy()] = m["n"].to_numpy()
    expected = np.where(by_cell > 0, by_cell, by_criterion[:, None])
    ci, di, li = np.nonzero(has_dataset[None, :, None] & learner_for[:, None, :])
    cells = _index(levels, [ci, di, li], KEYS)
    return pd.DataFrame({"count": grid[ci, di, li], "expected": expected[ci, di]}, cells)


def _log_counts(log: pd.DataFrame) -> tuple[pd.DataFrame, list[np.ndarray], int]:
    """:func:`_counts` of a log straight from its label codes (one bincount, a chunk of rows at a
    time: no aggregate, no sort), the (criterion, dataset, learner) codes and the number of rows.
    Checks the log as :func:`stats.cells._aggregate.aggregate` does (same errors)."""
    _check_log(log)
    codes, levels = (list(x) for x in zip(*(_codes(log[k]) for k in KEYS), strict=True))
    shape = [len(level) for level in levels]
    space = int(np.prod(shape, dtype=np.int64))
    grid = np.zeros(space, np.int64)
    n = len(log)
    for s in range(0, n, _ROWS):
        key = codes[0][s : s + _ROWS].astype(np.int64)
        for x, span in zip(codes[1:], shape[1:]):
            key *= span
            key += x[s : s + _ROWS]
        grid += np.bincount(key, minlength=space)
    return _counts_of(grid.reshape(shape), levels), codes, n


def _reason(criterion: Any, learner: Any, count: int, expected: int) -> str:
    if count == 0:
        return f"no {criterion} result for learner {learner}"
    return f"learner {learner} has {int(count)} of {int(expected)} results"


def _distinct(pair: np.ndarray, n_pairs: int, x: np.ndarray) -> np.ndarray:
    """Number of distinct ``x`` per ``pair`` (for designs too sparse for :func:`_design`'s grid)."""
    first = pd.DataFrame({"p": pair, "x": x}).drop_duplicates()["p"].to_numpy()
    return np.bincount(first, minlength=n_pairs)


#: Rows per chunk of the passes over a log (its work space: a few int64 arrays of this length).
_ROWS = 1 << 18
#: Rows -> (pair, repeat, fold) of rows ``s:e``: the (dataset, learner) pair is
#: ``dataset code * learners + learner code``.
Rows = Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]]


def _design(rows: Rows, n: int, levels: list[pd.Index]) -> pd.DataFrame:
    """Repeats x folds of each (dataset, learner) pair with results.

    One boolean grid over (pair, repeat, fold), filled a chunk of rows at a time: a pair's
    repeats are the repeats with a run, its folds the folds with a run, its runs the cells set
    (no sort, no copy of the columns). A grid much larger than the log (repeat or fold numbers
    spread far apart) falls back to counting distinct values with pandas.
    """
    n_pairs, n_learners = len(levels[0]) * len(levels[1]), len(levels[1])
    lows, highs = [0, 0], [0, 0]
    for s in range(0, n, _ROWS):
        _, repeat, fold = rows(s, min(s + _ROWS, n))
        for k, x in enumerate((repeat, fold)):
            lo, hi = int(x.min()), int(x.max())
            lows[k], highs[k] = (lo, hi) if s == 0 else (min(lows[k], lo), max(highs[k], hi))
    spans = [hi - lo + 1 for lo, hi in zip(lows, highs)]
    if n and n_pairs * spans[0] * spans[1] <= max(4 * n, 1 << 22):
        grid = np.zeros(n_pairs * spans[0] * spans[1], bool)
        for s in range(0, n, _ROWS):
            at, repeat, fold = rows(s, min(s + _ROWS, n))  # ``at``: the pair, made the grid's index in place
            at *= spans[0]
            at += repeat
            at -= lows[0]
            at *= spans[1]
            at += fold
            at -= lows[1]
            grid[at] = True
        cube = grid.reshape(n_pairs, spans[0], spans[1])
        got = [cube.any(axis=2).sum(axis=1), cube.any(axis=1).sum(axis=1), cube.sum(axis=(1, 2))]
    elif n:
        pair, repeat, fold = rows(0, n)
        pair = pair.astype(np.int64)
        repeat, fold = repeat.astype(np.int64) - lows[0], fold.astype(np.int64) - lows[1]
        got = [_distinct(pair, n_pairs, x) for x in (repeat, fold, repeat * spans[1] + fold)]
    else:
        got = [np.zeros(n_pairs, np.int64)] * 3
    where = np.flatnonzero(got[0])
    r, f, runs = (np.asarray(g[where], np.int64) for g in got)
    text = [f"{a} x {b}" if k == a * b else f"{a} x {b} ({k} of {a * b} runs)" for a, b, k in zip(r, f, runs)]
    index = _index(levels, [where // n_learners, where % n_learners], ("dataset", "learner"))
    return pd.DataFrame({"repeats": r, "folds": f, "runs": runs, "design": text}, index)


def _log_rows(log: pd.DataFrame, dataset: np.ndarray, learner: np.ndarray, n_learners: int) -> Rows:
    """:data:`Rows` of a log (its columns as they are: no copy)."""
    repeat, fold = (log[k].to_numpy() for k in ("repeat", "fold"))
    if repeat.dtype.kind != "i" or fold.dtype.kind != "i":  # signed integers are used as they are
        repeat, fold = repeat.astype(np.int64), fold.astype(np.int64)

    def rows(s: int, e: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pair = dataset[s:e].astype(np.int64)
        pair *= n_learners
        pair += learner[s:e]
        return pair, repeat[s:e], fold[s:e]

    return rows


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
    cells["reason"] = [_reason(c, lrn, n, e) for (c, _, lrn), n, e in triples]
    file_lines = log_or_agg.lines if isinstance(log_or_agg, LogRead) else None
    return Completeness(counts=counts, cells=cells, design=design, lines=lines, file_lines=file_lines)
