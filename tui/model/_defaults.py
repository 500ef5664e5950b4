"""Defaults that follow from a log alone: which direction a criterion goes, the first selection,
which of a log's criterion lines are criteria (a sequence study's training sizes are not)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from stats.core.criteria import TRAINING_SIZE, is_bookkeeping, measured_criteria
from tui.choices import LOWER_IS_BETTER
from tui.model._types import Selection


def default_higher_is_better(criterion: str) -> bool:
    """False for pf, runtime and error-like criteria (see :data:`LOWER_IS_BETTER`), else True."""
    name = str(criterion).lower()
    return not any(name == low or name.endswith(low) for low in LOWER_IS_BETTER)


def labels_present(column: pd.Series) -> tuple[str, ...]:
    """Labels that occur in ``column``: category order for a categorical, else first appearance."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        cats = column.cat.categories
        used = np.bincount(codes[codes >= 0] if (codes < 0).any() else codes, minlength=len(cats))
        return tuple(str(x) for x in cats.to_numpy(dtype=object)[np.flatnonzero(used)].tolist())
    found = pd.unique(column)  # its values read in bulk (tolist), not an Arrow scalar per label
    return tuple(str(x) for x in (found.tolist() if hasattr(found, "tolist") else found))


def labels_in_index(index: pd.MultiIndex, level: str) -> tuple[str, ...]:
    """Labels of ``level`` that some row of ``index`` has, in the level's order."""
    i = index.names.index(level)
    used = np.bincount(np.asarray(index.codes[i]), minlength=len(index.levels[i]))
    # the labels read in bulk, not an Index lookup per label (seconds for 100,000 data sets)
    return tuple(str(x) for x in index.levels[i].to_numpy(dtype=object)[np.flatnonzero(used)].tolist())


def criteria_of(labels: tuple[str, ...]) -> tuple[str, ...]:
    """The criteria among a log's criterion ``labels``, in their order: every label but the
    bookkeeping ones (:func:`stats.core.criteria.measured_criteria`: a sequence study's ``train``
    lines, its training sizes, which the learning curves read and nothing ranks by). What the
    sidebar lists, ``report --criterion`` and a view spec accept, and the first one the default."""
    return measured_criteria(labels)


def default_selection(log: pd.DataFrame, criterion: str | None = None) -> Selection:
    """Every data set and every learner with a result for ``criterion`` (default: the log's first).

    The direction is :func:`default_higher_is_better`; ``ValueError`` when the
    log is empty or lacks ``criterion``. The criteria are :func:`criteria_of` the log's.
    """
    criteria = criteria_of(labels_present(log["criterion"]))
    if not criteria:
        raise ValueError("the log holds no results")
    criterion = check_criterion(criteria, criterion)
    column = log["criterion"]
    if len(criteria) == 1:
        mask: Any = slice(None)
    elif isinstance(column.dtype, pd.CategoricalDtype):  # codes, not 5 million strings
        mask = column.cat.codes.to_numpy() == column.cat.categories.get_loc(criterion)
    else:
        mask = column.astype(str).to_numpy() == criterion
    return Selection(
        criterion=criterion,
        higher_is_better=default_higher_is_better(criterion),
        datasets=labels_present(log["dataset"]),
        learners=labels_present(log["learner"][mask]),
    )


def check_criterion(criteria: tuple[str, ...], criterion: str | None) -> str:
    """``criterion`` (default: the first of ``criteria``); ValueError naming them if it is not one."""
    criterion = criteria[0] if criterion is None else str(criterion)
    if criterion not in criteria:
        raise ValueError(f"{not_a_criterion(criterion)}; criteria are: {', '.join(criteria)}")
    return criterion


def not_a_criterion(criterion: str) -> str:
    """Why ``criterion`` is not one of the log's criteria: absent, or bookkeeping (a training size)."""
    if is_bookkeeping(criterion):
        return (
            f"{criterion!r} is not a criterion: it is the training size of a sequence study "
            f"(stats.run_sequence's {TRAINING_SIZE!r} lines), which the learning curves (view curves) "
            "use as their x axis and nothing ranks by"
        )
    return f"criterion {criterion!r} is not in the log"
