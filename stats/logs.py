"""A strict reader for seed 000's long-format log and the scores table built from it.

Format (seed ``000_aa5420a5faf49cff.txt``): one result per line,
``dataset,repeat,fold,learner,criterion,value``, no header, spaces around
fields allowed. This reader is strict: the first bad line raises a
``ValueError`` whose message is ``file:line: reason``. (The forgiving,
multi-file, fast loader is a separate piece of work.)
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")


def read_long_log(path: str | Path) -> pd.DataFrame:
    """Read one long-format log into a tidy DataFrame with the columns of :data:`COLUMNS`."""
    path = Path(path)
    records = []
    with path.open(newline="", encoding="utf-8-sig") as handle:
        for lineno, fields in enumerate(csv.reader(handle, skipinitialspace=True), start=1):
            if not fields or all(not f.strip() for f in fields):
                continue
            if len(fields) != 6:
                raise ValueError(f"{path}:{lineno}: expected 6 fields, found {len(fields)}")
            dataset, repeat, fold, learner, criterion, value = (f.strip() for f in fields)
            try:
                r, n = int(repeat), int(fold)
            except ValueError:
                raise ValueError(f"{path}:{lineno}: repeat and fold must be integers") from None
            try:
                v = float(value)
            except ValueError:
                raise ValueError(f"{path}:{lineno}: value {value!r} is not a number") from None
            if not math.isfinite(v):
                raise ValueError(f"{path}:{lineno}: value {value!r} is not finite")
            records.append((dataset, r, n, learner, criterion, v))
    if not records:
        raise ValueError(f"{path}: no results in the file")
    return pd.DataFrame.from_records(records, columns=list(COLUMNS))


def scores_table(log: pd.DataFrame, criterion: str) -> pd.DataFrame:
    """Median over repeats and folds per data set x learner (seed 000's table).

    Raises ``ValueError`` naming the criterion when it is absent, and the
    missing cells when some (data set, learner) pair has no result.
    """
    part = log[log["criterion"] == criterion]
    if part.empty:
        known = ", ".join(sorted(log["criterion"].unique()))
        raise ValueError(f"criterion {criterion!r} not in the log; criteria are: {known}")
    table = part.pivot_table(index="dataset", columns="learner", values="value", aggfunc="median", sort=False)
    rows, cols = np.nonzero(table.isna().to_numpy())
    if len(rows):
        cells = ", ".join(f"{table.index[i]}/{table.columns[j]}" for i, j in zip(rows[:5], cols[:5]))
        raise ValueError(f"{len(rows)} data set x learner cell(s) have no {criterion!r} result: {cells}")
    table.columns.name = None
    return table
