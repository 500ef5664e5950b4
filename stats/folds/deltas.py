"""The deltas of Menzies' lecture notes: each learner's per-fold differences against a control, for quartile charts.

"The performance differences for some method on the same data subsets" (Menzies,
lecture notes on evaluation bias, "Quartile Charts"): on each data set, a learner's result on a
(repeat, fold) minus the control's on the same (repeat, fold), drawn on an axis centred at 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats.core import check_bool
from stats.folds.comparisons import cube_of
from stats.folds.cube import FoldCube


def fold_deltas(
    log: pd.DataFrame | FoldCube,
    criterion: str,
    control: str,
    *,
    learners: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    higher_is_better: bool = True,
) -> pd.DataFrame:
    """Per-fold differences of every learner against ``control``, on the (repeat, fold) keys both have.

    Parameters
    ----------
    log : DataFrame or FoldCube
        A tidy log (:func:`stats.read_logs`): dataset, repeat, fold, learner, criterion, value.
        A key given twice: the later row counts (``read_logs`` has resolved it already). Or the
        :func:`stats.fold_cube` of ``criterion`` (then ``learners`` and ``datasets`` are its own
        and must be None).
    criterion, control : str
        The criterion, and the learner the others are compared with.
    learners, datasets : sequence of str, optional
        Which to keep, in which order (default: all with results for ``criterion``).
    higher_is_better : bool
        Orientation: the delta is ``learner - control`` when higher is better, ``control -
        learner`` when lower is better, so a positive delta always means the learner did better
        on that fold. The pairing is :func:`stats.fold_comparison`'s (decimal ties judged at the
        pair's scale, the later of two rows wins, NaN left out), so these are the differences
        whose mean it reports.

    Raises
    ------
    ValueError
        Missing columns, an unknown criterion, learner or data set, or a control that is not
        one of the learners.

    Returns
    -------
    DataFrame
        Columns dataset, learner, repeat, fold, delta; rows by data set (in ``datasets`` order),
        then learner (in ``learners`` order, the control left out), then (repeat, fold). Keys
        that only one of the two has are not in it.

    Examples
    --------
    >>> log = pd.DataFrame({"dataset": "d", "repeat": 1, "fold": [1, 2, 1, 2, 3], "criterion": "acc",
    ...                     "learner": ["a", "a", "b", "b", "b"], "value": [0.8, 0.9, 0.7, 0.95, 0.5]})
    >>> fold_deltas(log, "acc", "a").to_numpy().tolist()
    [['d', 'b', 1, 1, -0.1], ['d', 'b', 1, 2, 0.05]]
    """
    check_bool("higher_is_better", higher_is_better)
    p = cube_of(log, criterion, learners, datasets).paired(control, higher_is_better)
    di, li, ki = np.nonzero(p.shared)  # C order: data set, then learner, then (repeat, fold)
    return pd.DataFrame(
        {
            "dataset": np.array(p.dnames, dtype=object)[di],
            "learner": np.array([p.lnames[i] for i in p.others], dtype=object)[li],
            "repeat": p.repeats[ki],
            "fold": p.folds[ki],
            "delta": p.d[di, li, ki],
        }
    )
