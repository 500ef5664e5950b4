"""The scores table of a log: one summary per data set and learner, for the data sets that have
every selected learner's results (the medians of Menzies' notes by default)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from stats.cells._aggregate import COLUMNS
from stats.cells._cell_counts import reason
from stats.cells._completeness import _as_aggregate, _counts, _labels
from stats.core import TableResult, check_choice


def _select(kind: str, requested: Sequence[Any] | None, valid: pd.Index, where: str) -> list[Any]:
    """``requested`` (default: all of ``valid``) after checking each is in ``valid``."""
    if requested is None:
        return list(valid)
    requested = [requested] if isinstance(requested, str) else list(dict.fromkeys(requested))
    unknown = [x for x in requested if x not in valid]
    if unknown:
        listed = ", ".join(map(str, valid))
        raise ValueError(f"unknown {kind}(s) {', '.join(map(repr, unknown))}{where}; {kind}s are: {listed}")
    return requested


@dataclass(frozen=True, eq=False, repr=False)
class ScoresTable(TableResult):
    """:func:`scores_table`'s result: ``table`` (data sets x learners) and what was left out.

    Every test of :mod:`stats` takes it as it is (it reads like its table)."""

    criterion: str
    statistic: str
    #: each left-out data set -> why ("no pd result for learner knn")
    excluded: dict[Any, str]
    #: each kept data set with an incomplete cell -> why ("learner svm has 40 of 100 results")
    incomplete: dict[Any, str]


def scores_table(
    agg_or_log: Any,
    criterion: str,
    *,
    statistic: str = "median",
    datasets: Sequence[Any] | None = None,
    learners: Sequence[Any] | None = None,
    incomplete: Literal["use", "exclude"] = "use",
) -> ScoresTable:
    """The data sets x learners table of one criterion (the scores table of Menzies' notes).

    Parameters
    ----------
    agg_or_log : DataFrame or Aggregator
        An aggregate (:func:`~stats.cells._aggregate.aggregate`), an
        :class:`~stats.cells._incremental.Aggregator` or a raw log (aggregated here).
    criterion : str
        The criterion to tabulate.
    statistic : {"median", "mean", "min", "q1", "q3", "max", "sd", "count"}
        The summary of each cell's repeats and folds; Menzies' notes use the median.
    datasets, learners : sequence, optional
        The rows and columns, in this order; default every data set of the log
        and every learner with a result for ``criterion``, in label order.
    incomplete : {"use", "exclude"}
        What to do with a data set that has an incomplete cell (fewer results
        than expected, see the module docstring): use it and flag it in
        ``.incomplete`` (default), or leave it out.

    Returns
    -------
    ScoresTable
        ``.table``: rows, the selected data sets with a result for every selected
        learner; columns, the selected learners. ``.excluded`` maps each left-out
        data set to the reason ("no pd result for learner knn"); ``.incomplete``
        maps each data set with an incomplete cell that was kept to the reason
        ("learner svm has 40 of 100 results"). The result reads like its table
        and every test of :mod:`stats` takes it as it is.

    Raises
    ------
    ValueError
        Unknown criterion, data set or learner (a learner without a result for
        ``criterion`` is unknown to it), naming the valid ones.

    Examples
    --------
    >>> log = pd.DataFrame({"dataset": ["a", "a", "a", "b"], "repeat": 1, "fold": [1, 2, 1, 1],
    ...                     "learner": ["x", "x", "y", "x"], "criterion": "pd", "value": [0.1, 0.3, 0.5, 0.2]})
    >>> table = scores_table(log, "pd")
    >>> table.round(3).to_dict("index")
    {'a': {'x': 0.2, 'y': 0.5}}
    >>> table.excluded, table.incomplete
    ({'b': 'no pd result for learner y'}, {'a': 'learner y has 1 of 2 results'})
    """
    check_choice("statistic", statistic, COLUMNS)
    check_choice("incomplete", incomplete, ("use", "exclude"))
    agg = _as_aggregate(agg_or_log)
    counts = _counts(agg)
    criteria = _labels(counts.index, 0)
    if criterion not in criteria:
        raise ValueError(f"criterion {criterion!r} is not in the log; criteria are: {', '.join(map(str, criteria))}")
    part = counts.xs(criterion, level="criterion")
    rows = _select("data set", datasets, _labels(counts.index, 1), "")
    cols = _select("learner", learners, _labels(part.index, 1), f" for criterion {criterion!r}")
    n, e = (part[k].unstack().reindex(index=rows, columns=cols).to_numpy() for k in ("count", "expected"))
    excluded: dict[Any, str] = {}
    flagged: dict[Any, str] = {}
    for i in np.flatnonzero((n < e).any(axis=1)):  # only the data sets with a gap
        lacking = [str(cols[j]) for j in np.flatnonzero(n[i] == 0)]
        if len(lacking) == len(cols):
            excluded[rows[i]] = f"no {criterion} results"
        elif lacking:
            excluded[rows[i]] = f"no {criterion} result for learner{'s' * (len(lacking) > 1)} {', '.join(lacking)}"
        else:
            why = "; ".join(reason(criterion, cols[j], n[i, j], e[i, j]) for j in np.flatnonzero(n[i] < e[i]))
            (excluded if incomplete == "exclude" else flagged)[rows[i]] = why
    values = agg.xs(criterion, level="criterion")[statistic].unstack().reindex(index=rows, columns=cols)
    table = values.drop(index=list(excluded))
    table.index.name, table.columns.name = "dataset", None
    return ScoresTable(table, criterion=criterion, statistic=statistic, excluded=excluded, incomplete=flagged)
