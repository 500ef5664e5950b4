"""The ranks view's CSV: dataset, then per learner ``<learner> median`` and ``<learner> rank``; a
last row with dataset = "average rank", the average ranks in the rank columns and empty (NaN)
medians; then per learner ``<learner> letters``, the compact letters of the pairs procedure
(Piepho 2004) on the average-rank row, empty on the others; then, on every row, what made the
letters: ``letters_procedure`` (the procedure's key, as ``--procedure`` and a view spec name it:
holm, nemenyi, ...), ``letters_alpha`` and ``letters_basis`` (the sentence the reports print, which
also names the ranks behind a rank procedure's APVs). Fixed names, in the last columns, as the
JSON report's ``letters`` (procedure, alpha, basis): a program finds them by name, a spreadsheet
shows them beside the letters; without letters, none of these columns."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tui.model import Analysis

#: The dataset of the last row, the average ranks.
AVERAGE = "average rank"
#: The columns saying what made the letters (after them; the same on every row).
LETTERS_BY = ("letters_procedure", "letters_alpha", "letters_basis")


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.ranks
    assert part is not None
    out: dict[str, list[Any]] = {"dataset": [*map(str, part.medians.index), AVERAGE]}
    for name in part.medians.columns:
        out[f"{name} median"] = [*part.medians[name].to_numpy(np.float64), np.nan]
        out[f"{name} rank"] = [*part.ranks[name].to_numpy(np.float64), float(part.average[name])]
    letters = analysis.letters
    if letters is not None:
        blank = [""] * len(part.medians.index)
        for name in part.medians.columns:
            out[f"{name} letters"] = [*blank, letters.letters[str(name)]]
        rows = len(out["dataset"])
        by = (letters.procedure, float(letters.alpha), letters.basis)
        out.update({column: [value] * rows for column, value in zip(LETTERS_BY, by, strict=True)})
    return pd.DataFrame(out)


def _kind(column: str) -> str:
    """A column's block: medians and ranks go together, the letters after them, what made them last."""
    if column in LETTERS_BY:
        return "letters by"
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
        cols.sort(key=lambda c: (kinds[_kind(c)], _learner_rank(c, rank)))
        out = out[["dataset", *cols]]
    return out


def _learner_rank(column: str, rank: dict[str, int]) -> int:
    """Where ``column``'s learner is shown (``rank``); the columns of no learner keep their order."""
    return 0 if column in LETTERS_BY else rank.get(column.rsplit(" ", 1)[0], len(rank))
