"""The fold-level results of a log paired for comparison: every learner's results beside the
control's on the same (repeat, fold) keys, as one dense data set x learner x key array
(:func:`stats.fold_comparison` and :func:`stats.fold_deltas` read them from here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from stats._table import snap_at, snap_digits

_COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")


def _levels(
    codes: np.ndarray, labels: pd.Index, wanted: Sequence[Any] | None, what: str
) -> tuple[np.ndarray, list[str]]:
    """Map codes to positions in the chosen labels (-1: not chosen) and the chosen names."""
    present = np.bincount(codes[codes >= 0], minlength=len(labels)) > 0
    names = [str(x) for x in labels.tolist()]  # not label by label: an Arrow-backed Index is slow to index
    if wanted is None:
        chosen = np.flatnonzero(present)
    else:
        index = {x: i for i, x in enumerate(names)}
        missing = [str(x) for x in wanted if str(x) not in index or not present[index[str(x)]]]
        if missing:
            raise ValueError(f"unknown {what}(s) for this criterion: {', '.join(missing)}")
        chosen = np.array([index[str(x)] for x in wanted], dtype=np.intp)
        if len(set(chosen.tolist())) != len(chosen):
            raise ValueError(f"{what}s are named more than once: {list(wanted)}")
    position = np.full(len(labels), -1, dtype=np.intp)
    position[chosen] = np.arange(len(chosen))
    return position, [names[i] for i in chosen.tolist()]


def _codes(column: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Integer codes and labels: category order for a Categorical, first appearance otherwise."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy().astype(np.intp), pd.Index(column.cat.categories)
    codes, uniques = pd.factorize(column, sort=False)
    return codes.astype(np.intp), pd.Index(uniques)


@dataclass(frozen=True, eq=False)
class PairedFolds:
    """Every learner's fold results beside the control's, on the (repeat, fold) keys in order.

    ``x`` (data sets x other learners x keys) holds the learners' results and ``y`` the
    control's (NaN where a result is missing); ``shared`` marks the keys both have and ``d`` the
    oriented differences there (positive: the learner is better; decimal ties judged at the
    pair's scale as in :func:`stats.folds_tests._paired`; NaN elsewhere). ``repeats`` and
    ``folds`` are each key's numbers, ``fold_index`` the position of its fold among the distinct
    folds. ``others`` indexes ``lnames`` (the control left out); ``notes`` says what was dropped.
    """

    dnames: list[str]
    lnames: list[str]
    others: list[int]
    x: np.ndarray
    y: np.ndarray
    shared: np.ndarray
    d: np.ndarray
    repeats: np.ndarray
    folds: np.ndarray
    fold_index: np.ndarray
    notes: list[str]


def criterion_rows(log: pd.DataFrame, criterion: str) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``criterion`` (a mask) and their values; ValueError for missing columns or an
    unknown criterion."""
    missing = [c for c in _COLUMNS if c not in log.columns]
    if missing:
        raise ValueError(f"log must have the columns {', '.join(_COLUMNS)}; missing: {', '.join(missing)}")
    rows = (log["criterion"] == criterion).to_numpy()
    if not rows.any():
        known = ", ".join(str(c) for c in pd.unique(log["criterion"].astype(str)))
        raise ValueError(f"no results for criterion {criterion!r}; the log has: {known or 'none'}")
    return rows, log["value"].to_numpy(dtype=float)[rows]


def paired_folds(
    log: pd.DataFrame,
    rows: np.ndarray,
    values: np.ndarray,
    criterion: str,
    control: str,
    learners: Sequence[str] | None,
    datasets: Sequence[str] | None,
    higher_is_better: bool,
) -> PairedFolds:
    """The learners' and the control's results of ``rows`` (:func:`criterion_rows`) as one dense
    data set x learner x (repeat, fold) cube, paired (shared by :func:`fold_comparison` and
    :func:`stats.fold_deltas`)."""
    dcodes, dlabels = _codes(log["dataset"])
    lcodes, llabels = _codes(log["learner"])
    dcodes, lcodes = dcodes[rows], lcodes[rows]
    dpos, dnames = _levels(dcodes, dlabels, datasets, "data set")
    lpos, lnames = _levels(lcodes, llabels, learners, "learner")
    if str(control) not in lnames:
        raise ValueError(f"control {control!r} is not one of the learners: {', '.join(lnames)}")
    notes: list[str] = []

    d_at, l_at = dpos[dcodes], lpos[lcodes]
    keep = (d_at >= 0) & (l_at >= 0)
    finite = np.isfinite(values)
    if (keep & ~finite).any():
        notes.append(f"{int((keep & ~finite).sum())} NaN or infinite {criterion} value(s) left out")
        keep &= finite
    repeat = log["repeat"].to_numpy()[rows][keep].astype(np.int64)
    fold = log["fold"].to_numpy()[rows][keep].astype(np.int64)
    d_at, l_at, values = d_at[keep], l_at[keep], values[keep]

    # (repeat, fold) keys in sorted order
    r0, f0 = (int(repeat.min()), int(fold.min())) if fold.size else (0, 0)
    span = int(fold.max()) - f0 + 1 if fold.size else 1
    kcodes, kuniques = pd.factorize((repeat - r0) * span + (fold - f0), sort=True)
    keys = np.asarray(kuniques, dtype=np.int64)
    n_keys = len(keys)
    _, fold_index = np.unique(keys % span, return_inverse=True)

    n_d, n_l = len(dnames), len(lnames)
    flat = (d_at * n_l + l_at) * n_keys + kcodes
    cells = np.full(n_d * n_l * n_keys, np.nan)
    if flat.size and np.bincount(flat, minlength=cells.size).max() > 1:
        last = flat.size - 1 - np.unique(flat[::-1], return_index=True)[1]  # the later row wins
        flat, values = flat[last], values[last]
    cells[flat] = values
    cube = cells.reshape(n_d, n_l, n_keys)

    c = lnames.index(str(control))
    others = [i for i in range(n_l) if i != c]
    x = cube[:, others, :]  # (D, L-1, K)
    y = np.broadcast_to(cube[:, c : c + 1, :], x.shape)
    shared = ~np.isnan(x) & ~np.isnan(y)

    # paired differences exactly as stats.folds_tests._paired, NaN where not shared
    xs = np.where(shared, x, np.nan)
    ys = np.where(shared, y, np.nan)
    digits = snap_digits(np.maximum(np.abs(xs), np.abs(ys)), xs.shape)
    d = snap_at(xs, digits) - snap_at(ys, digits)
    d = snap_at(d if higher_is_better else -d, digits)
    return PairedFolds(
        dnames, lnames, others, x, y, shared, d, keys // span + r0, keys % span + f0, fold_index.ravel(), notes
    )
