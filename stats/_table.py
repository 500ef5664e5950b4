"""Validation and orientation of a scores table (rows = data sets, columns = learners).

Every public function of :mod:`stats` starts here: it turns a DataFrame or a 2-D
array into a :class:`Table` whose ``values`` are oriented so that *higher is
better* (a lower-is-better table is negated), checked for shape, finiteness and
duplicate names, and snapped to 12 significant digits so that quantities equal
in decimal are equal in binary (see :func:`snap`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

#: Significant digits kept by :func:`snap`.
SNAP_DIGITS = 12


def snap(x: np.ndarray) -> np.ndarray:
    """Round ``x`` to :data:`SNAP_DIGITS` significant digits of its largest magnitude.

    Tables of results are printed with a few decimals; arithmetic on them
    (``x - row mean``, ``max - min``, ``a - b``) turns values that are equal in
    decimal into values that differ in the last binary digit (0.963 - 0.926 is
    not 0.037 in binary). Ranking such values would break ties that are ties.
    Rounding relative to the largest magnitude in the array keeps every real
    difference (12 digits is far below any measurement's precision) and merges
    the representation noise (about 16 digits).
    """
    x = np.asarray(x, dtype=float)
    finite = np.isfinite(x)
    if not finite.any():
        return x
    scale = float(np.max(np.abs(x[finite])))
    if scale == 0.0:
        return x
    decimals = SNAP_DIGITS - 1 - int(np.floor(np.log10(scale)))
    return np.round(x, decimals)


@dataclass(frozen=True, eq=False)
class Table:
    """A validated scores table.

    ``values`` is oriented (higher is better) and snapped; ``raw`` is the input
    as floats, in its own direction.
    """

    values: np.ndarray
    raw: np.ndarray
    datasets: pd.Index
    learners: pd.Index
    higher_is_better: bool

    @property
    def n(self) -> int:
        """Number of data sets (blocks)."""
        return self.values.shape[0]

    @property
    def k(self) -> int:
        """Number of learners (treatments)."""
        return self.values.shape[1]


def as_table(
    scores: Any,
    *,
    higher_is_better: bool = True,
    min_learners: int = 2,
    min_datasets: int = 2,
    learners: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> Table:
    """Validate ``scores`` and return an oriented :class:`Table`.

    ``scores`` is a DataFrame (index = data sets, columns = learners) or a
    2-D array-like; for an array, ``learners`` and ``datasets`` name the
    columns and rows (default ``L1..Lk`` and ``D1..Dn``).

    Raises
    ------
    ValueError
        When the table is not 2-D, has fewer than ``min_learners`` columns or
        ``min_datasets`` rows, holds a non-numeric, NaN or infinite cell, or
        repeats a learner name.
    """
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise ValueError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    if isinstance(scores, pd.DataFrame):
        frame = scores
    else:
        array = np.asarray(scores)
        if array.ndim != 2:
            raise ValueError(f"scores must be a 2-D table (data sets x learners), got {array.ndim} dimension(s)")
        cols = list(learners) if learners is not None else [f"L{j + 1}" for j in range(array.shape[1])]
        rows = list(datasets) if datasets is not None else [f"D{i + 1}" for i in range(array.shape[0])]
        if len(cols) != array.shape[1] or len(rows) != array.shape[0]:
            raise ValueError(
                f"{len(rows)} data set and {len(cols)} learner names for a {array.shape[0]} x {array.shape[1]} table"
            )
        frame = pd.DataFrame(array, index=rows, columns=cols)

    n, k = frame.shape
    if k < min_learners:
        raise ValueError(f"need at least {min_learners} learners (columns), got {k}")
    if n < min_datasets:
        raise ValueError(f"need at least {min_datasets} data sets (rows), got {n}")
    names = pd.Index(frame.columns)
    if names.has_duplicates:
        dupes = sorted({str(x) for x in names[names.duplicated()]})
        raise ValueError(f"duplicate learner name(s): {', '.join(dupes)}")
    try:
        raw = frame.to_numpy(dtype=float, copy=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scores must be numeric: {exc}") from None
    bad = ~np.isfinite(raw)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"scores must be finite: {int(bad.sum())} NaN or infinite cell(s), "
            f"first at data set {frame.index[i]!r}, learner {names[j]!r} ({raw[i, j]})"
        )
    oriented = raw if higher_is_better else -raw
    return Table(
        values=snap(oriented),
        raw=raw,
        datasets=pd.Index(frame.index),
        learners=names,
        higher_is_better=bool(higher_is_better),
    )


def as_sample(values: Any, name: str = "values") -> np.ndarray:
    """Validate one sample: numeric, 1-D, non-empty and finite; return it as float64.

    Raises ``ValueError`` naming ``name`` and the problem.
    """
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric: {exc}") from None
    if x.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got {x.ndim} dimension(s)")
    if x.size == 0:
        raise ValueError(f"{name} is empty: need at least 1 value")
    bad = int((~np.isfinite(x)).sum())
    if bad:
        raise ValueError(f"{name} must be finite, got {bad} NaN or infinite value(s)")
    return x


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> None:
    """Raise ``ValueError`` naming the parameter, the value and the choices."""
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")


def check_alpha(alpha: float) -> float:
    """Return ``alpha`` as a float after checking 0 < alpha < 1."""
    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive), got {alpha!r}")
    return a
