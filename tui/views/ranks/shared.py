"""What the ranks view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd

from tui.model import Analysis


def letters_row(analysis: Analysis, columns: list[Any]) -> tuple[list[str], str] | None:
    """The letters of ``columns`` (the ranks table's learners) and the sentence saying what they
    mean, or None when they could not be computed."""
    letters = analysis.letters
    if letters is None:
        return None
    return [letters.letters[str(c)] for c in columns], letters.basis


def rank_cell(value: float, rank: float) -> str:
    return f"{value:.3f} ({rank:g})"


def rank_rows(medians: pd.DataFrame, ranks: pd.DataFrame) -> Iterator[tuple[Any, list[Any], list[Any]]]:
    """Each data set of ``medians`` with its row of medians and its row of ``ranks`` (the values
    ``.loc[data set, learner]`` gives, learner by learner in ``medians``' columns), read as two
    arrays: a ``.loc`` per cell took a minute for 100,000 data sets."""
    if ranks.index.equals(medians.index) and ranks.columns.equals(medians.columns):
        yield from zip(medians.index, medians.to_numpy().tolist(), ranks.to_numpy().tolist())
        return
    for name in medians.index:  # (not aligned: label by label, as ever)
        yield name, [medians.loc[name, c] for c in medians.columns], [ranks.loc[name, c] for c in medians.columns]
