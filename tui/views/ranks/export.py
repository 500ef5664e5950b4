"""The ranks view's CSV: dataset, then per learner ``<learner> median`` and ``<learner> rank``; a
last row with dataset = "average rank", the average ranks in the rank columns and empty (NaN)
medians; then per learner ``<learner> letters``, the compact letters of the pairs procedure
(Piepho 2004) on the average-rank row, empty on the others."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tui.model import Analysis

#: The dataset of the last row, the average ranks.
AVERAGE = "average rank"


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.ranks
    assert part is not None
    out: dict[str, list[Any]] = {"dataset": [*map(str, part.medians.index), AVERAGE]}
    for name in part.medians.columns:
        out[f"{name} median"] = [*part.medians[name].to_numpy(np.float64), np.nan]
        out[f"{name} rank"] = [*part.ranks[name].to_numpy(np.float64), float(part.average[name])]
    if analysis.letters is not None:
        blank = [""] * len(part.medians.index)
        for name in part.medians.columns:
            out[f"{name} letters"] = [*blank, analysis.letters.letters[str(name)]]
    return pd.DataFrame(out)


def _kind(column: str) -> str:
    """A column's block: medians and ranks go together, the letters after them."""
    return "letters" if column.endswith(" letters") else "values"


def shown(frame: pd.DataFrame, needle: str, datasets: list[str] | None, learners: list[str] | None) -> pd.DataFrame:
    """The data sets the ``/`` filter keeps, in the order shown (``datasets``: the sort of ``<`` /
    ``>``), the average-rank row last; the learners' columns in the order shown (``learners``),
    medians and ranks side by side, the letters last."""
    summary = frame["dataset"].astype(str) == AVERAGE
    keep = summary | frame["dataset"].astype(str).map(lambda d: not needle or needle in d.casefold())
    out = frame[keep]
    if datasets is not None:
        position = {d: i for i, d in enumerate(datasets)}
        rows = out[~summary[keep]]
        order = sorted(range(len(rows)), key=lambda i: position.get(str(rows["dataset"].iloc[i]), len(position)))
        out = pd.concat([rows.iloc[order], out[summary[keep]]])
    if learners is not None:
        rank = {name: i for i, name in enumerate(learners)}
        cols = [c for c in out.columns if c != "dataset"]
        kinds = {c: i for i, c in enumerate(dict.fromkeys(_kind(c) for c in cols))}
        cols.sort(key=lambda c: (kinds[_kind(c)], rank.get(c.rsplit(" ", 1)[0], len(rank))))
        out = out[["dataset", *cols]]
    return out
