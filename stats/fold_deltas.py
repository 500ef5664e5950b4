"""Seed 004's deltas: each learner's per-fold differences against a control, for quartile charts.

"The performance differences for some method on the same data subsets" (seed 004,
004_1f3c22156dad8688.txt, "Quartile Charts"): on each data set, a learner's result on a
(repeat, fold) minus the control's on the same (repeat, fold), drawn on an axis centred at 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats._table import check_bool, snap

_COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")


def fold_deltas(
    log: pd.DataFrame,
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
    log : DataFrame
        A tidy log (:func:`stats.read_logs`): dataset, repeat, fold, learner, criterion, value.
        A key given twice: the later row counts (``read_logs`` has resolved it already).
    criterion, control : str
        The criterion, and the learner the others are compared with.
    learners, datasets : sequence of str, optional
        Which to keep, in which order (default: all with results for ``criterion``).
    higher_is_better : bool
        Orientation: the delta is ``learner - control`` when higher is better, ``control -
        learner`` when lower is better, so a positive delta always means the learner did better
        on that fold. Decimal ties are judged at the pair's scale, as in
        :func:`stats.corrected_ttest` (0.9 - 0.8 is exactly 0.1 in every pair), so these deltas
        are the differences whose mean :func:`stats.fold_comparison` reports.

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
    missing = [c for c in _COLUMNS if c not in log.columns]
    if missing:
        raise ValueError(f"log must have the columns {', '.join(_COLUMNS)}; missing: {', '.join(missing)}")
    check_bool("higher_is_better", higher_is_better)
    sub = log.loc[(log["criterion"] == criterion).to_numpy(), ["dataset", "repeat", "fold", "learner", "value"]]
    if sub.empty:
        raise ValueError(f"no results for criterion {criterion!r}")
    sub = sub.assign(dataset=sub["dataset"].astype(str), learner=sub["learner"].astype(str))
    names = list(pd.unique(sub["learner"])) if learners is None else [str(x) for x in learners]
    if str(control) not in set(sub["learner"]):
        raise ValueError(f"control {control!r} has no {criterion} results")
    order_d = list(pd.unique(sub["dataset"])) if datasets is None else [str(x) for x in datasets]
    sub = sub[sub["dataset"].isin(order_d) & sub["learner"].isin(names)]
    sub = sub.drop_duplicates(["dataset", "repeat", "fold", "learner"], keep="last")
    keys = ["dataset", "repeat", "fold"]
    base = sub.loc[sub["learner"] == str(control), [*keys, "value"]]
    others = sub[sub["learner"] != str(control)]
    paired = others.merge(base, on=keys, suffixes=("", "_control"), how="inner")
    x, y = paired["value"].to_numpy(float), paired["value_control"].to_numpy(float)
    scale = np.maximum(np.abs(x), np.abs(y))
    d = snap(x, scale) - snap(y, scale)
    delta = snap(d if higher_is_better else -d, scale)
    out = pd.DataFrame(
        {
            "dataset": pd.Categorical(paired["dataset"], categories=order_d),
            "learner": pd.Categorical(paired["learner"], categories=[n for n in names if n != str(control)]),
            "repeat": paired["repeat"].to_numpy(np.int64),
            "fold": paired["fold"].to_numpy(np.int64),
            "delta": delta,
        }
    )
    out = out.sort_values(["dataset", "learner", "repeat", "fold"], kind="stable", ignore_index=True)
    return out.assign(dataset=out["dataset"].astype(str), learner=out["learner"].astype(str))
