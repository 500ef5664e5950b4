"""Aggregate logs bigger than memory: per-cell summaries and completeness in bounded memory.

:func:`aggregate_logs` reads the logs block by block into partitions on disk
(:class:`stats.logs.SpilledLogs`: every row of a (dataset, learner) pair in one partition), then
aggregates one partition at a time. The result is what :func:`stats.read_logs` followed by
:func:`stats.aggregate` and :func:`stats.completeness` gives, without the raw results: the
per-fold values are not kept, so the fold-level comparisons cannot be made from it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from stats.cells import KEYS, Completeness, aggregate, completeness, repeats_folds
from stats.logs import Decompression, Progress, SpilledLogs
from stats.logs import LogProblem as LogProblem


@dataclass(frozen=True, eq=False)
class BoundedAggregate:
    """What :func:`aggregate_logs` found.

    Attributes
    ----------
    table : DataFrame
        The aggregate (as :func:`stats.aggregate` of the log: index (criterion, dataset,
        learner) in label order, columns count, min, q1, median, q3, max, mean, sd).
    completeness : Completeness
        As :func:`stats.completeness` of the log (counts, missing and incomplete cells, repeats x
        folds of each pair, lines and result lines).
    problems : tuple of LogProblem
        Errors (bad lines skipped) and warnings, in file and line order.
    files : tuple of str
        The files read.
    lines : int
        Result lines kept.
    partitions : int
        Partition files the rows were spread over.
    spilled : int
        Bytes written to them (a private temporary directory, removed before returning).
    """

    table: pd.DataFrame
    completeness: Completeness
    problems: tuple[LogProblem, ...]
    files: tuple[str, ...]
    lines: int
    partitions: int
    spilled: int


def aggregate_logs(
    *paths: str | os.PathLike[str],
    memory: int,
    progress: Progress | None = None,
    decompression: Decompression | None = None,
    directory: str | None = None,
    partitions: Callable[[int, int], None] | None = None,
) -> BoundedAggregate:
    """Read and aggregate logs in bounded memory: exact per-cell quartiles, no raw results kept.

    Parameters
    ----------
    *paths : str or path-like
        As for :func:`stats.read_logs` (bad lines are skipped and listed, as ``on_error="skip"``).
    memory : int
        Memory budget in bytes for the rows: one block of rows, then one partition at a time.
    progress : callable ``progress(done, total)``, optional
        As for :func:`stats.read_logs`, over the reading (the partitions come after).
    decompression : Decompression, optional
        As for :func:`stats.read_logs`.
    directory : str, optional
        Where the private temporary directory of the partitions is made (default: the system's
        temporary directory). It is removed before this function returns or raises.
    partitions : callable ``partitions(done, total)``, optional
        Called after the reading and after each partition is aggregated (``done`` of ``total``
        partition files); what it raises propagates (the directory is removed).

    Returns
    -------
    BoundedAggregate

    Notes
    -----
    Quartiles are Hyndman & Fan's (1996) definition 7 (numpy's "linear"): for the sorted values
    x_(1) <= ... <= x_(n) of a cell, Q(p) = x_(j) + g (x_(j+1) - x_(j)) with
    j = floor((n - 1) p) + 1 and g = (n - 1) p - floor((n - 1) p) (their eq. 1 with m = 1 - p);
    the median is Q(0.5). Each cell's values are all in one partition, so each quantile is
    computed from all of a cell's values, exactly as :func:`stats.aggregate` does (the same code,
    bit for bit). Hyndman, R. J. and Fan, Y. (1996), "Sample quantiles in statistical packages",
    The American Statistician 50(4), 361-365.

    Examples
    --------
    >>> from importlib.resources import files
    >>> from stats import aggregate, read_logs
    >>> log = files("rankboard_sample_logs") / "c45_demsar.dat"
    >>> bounded = aggregate_logs(log, memory=1 << 20)
    >>> bounded.table.equals(aggregate(read_logs(log)))
    True
    """
    options: dict[str, Any] = {} if decompression is None else {"decompression": decompression}
    aggregates, designs = [], []
    with SpilledLogs(*paths, memory=memory, progress=progress, directory=directory, **options) as spilled:
        if partitions is not None:
            partitions(0, spilled.filled)
        for done, part in enumerate(spilled.parts(), start=1):
            aggregates.append(aggregate(part))
            designs.append(repeats_folds(part))
            del part
            if partitions is not None:
                partitions(done, spilled.filled)
        labels = spilled.labels
        levels = [labels.categories(k) for k in KEYS]
        table = _in_label_order(aggregates, levels, KEYS)
        if table is None:  # no rows: the aggregate of an empty log
            table = aggregate(
                pd.DataFrame(
                    {k: pd.Categorical([], categories=level) for k, level in zip(KEYS, levels)} | {"value": np.empty(0)}
                )
            )
        design = _in_label_order([d for d in designs if d is not None], levels[1:], ("dataset", "learner"))
        found = completeness(table)
        found = dataclasses.replace(found, design=design, file_lines=spilled.lines)
        return BoundedAggregate(
            table,
            found,
            tuple(spilled.problems),
            tuple(spilled.files),
            spilled.lines,
            spilled.partitions,
            spilled.spilled,
        )


def _in_label_order(frames: list[pd.DataFrame], levels: list[pd.Index], names: tuple[str, ...]) -> pd.DataFrame | None:
    """The partitions' frames as one, rows in the order of their label codes over ``levels``
    (an aggregate's order), the index over ``levels``; None without frames."""
    if not frames:
        return None
    whole = pd.concat(frames)
    codes = [
        np.asarray(level.get_indexer(whole.index.get_level_values(k)), np.int64) for k, level in zip(names, levels)
    ]
    order = np.lexsort(codes[::-1])
    rows = whole.iloc[order]
    rows.index = pd.MultiIndex(
        levels=levels, codes=[c[order] for c in codes], names=list(names), verify_integrity=False
    )
    return rows
