"""The quartiles view: the charts of Menzies' notes on comparing learners per learner, overall and per data set.

Per data set the five numbers are the aggregate's (``stats.cells._aggregate``);
overall they are ``stats.quartiles`` of every raw result of the learner on the
data sets of the overall scope, gathered cell by cell from a snapshot of the
model's ``stats.Aggregator`` (index arithmetic, not a scan of the log).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

import stats
from stats.cells import CellValues
from tui.model._types import QuartileRow, QuartilesView

#: A data set is flagged when Kendall's tau of its learner medians against the
#: overall medians is below this: its ordering of the learners leans the other way.
TAU_FLAG = 0.0
#: The overall chart warns when more than this share of the data sets is flagged.
WARN_SHARE = 0.25
OVERALL = "overall"
FIELDS = ("min", "q1", "median", "q3", "max")


def _sort_best_first(medians: dict[str, float], higher: bool) -> list[str]:
    """The names best first by median; equal medians in their given order (the position looked up
    in a dict, not by a scan of the names for each: quadratic for 1,000 learners)."""
    position = {n: i for i, n in enumerate(medians)}
    return sorted(medians, key=lambda n: (-medians[n] if higher else medians[n], position[n]))


def with_control(view: QuartilesView | None, control: str | None) -> QuartilesView | None:
    """``view`` with ``control_median`` set for ``control`` (NaN where it has no result)."""
    if view is None:
        return None
    medians = {r.scope: r.median for r in view.rows if r.learner == control}
    return dataclasses.replace(view, control_median={s: medians.get(s, math.nan) for s in view.scopes})


def quartiles_view(
    raw: CellValues,
    per_cell: pd.DataFrame,
    criterion: str,
    higher: bool,
    datasets: Sequence[str],
    learners: Sequence[str],
    overall_datasets: Sequence[str],
    control: str | None,
) -> QuartilesView | None:
    """Build the view; None when no selected learner has a result on the selected data sets.

    ``per_cell``: the aggregate of ``criterion`` (index dataset, learner;
    columns count, min, q1, median, q3, max). ``overall_datasets``: the data
    sets pooled in the "overall" scope (the tested ones when there are any).
    """
    rows: dict[str, list[QuartileRow]] = {}
    medians: dict[str, dict[str, float]] = {}
    overall: dict[str, Any] = {}  # learner -> stats.quartiles(...)
    for name in learners:
        values = raw.gather(criterion, name, overall_datasets)
        if values.size:
            overall[name] = stats.quartiles(values)
    if not overall:
        return None
    medians[OVERALL] = {n: q.median for n, q in overall.items()}
    rows[OVERALL] = [
        QuartileRow(OVERALL, n, q.n, *(getattr(q, f) for f in FIELDS))
        for n in _sort_best_first(medians[OVERALL], higher)
        for q in [overall[n]]
    ]
    wide = cast(pd.DataFrame, per_cell[["count", *FIELDS]].unstack())
    grid = {
        f: cast(pd.DataFrame, wide[f]).reindex(index=list(datasets), columns=list(learners)).to_numpy(np.float64)
        for f in ("count", *FIELDS)
    }
    cells = {f: grid[f].tolist() for f in ("count", *FIELDS)}  # Python floats: fast to pick one by one
    ref = np.array([medians[OVERALL].get(n, math.nan) for n in learners])
    tau: dict[str, float] = {}
    taus = stats.kendall_tau(grid["median"], ref).tolist()  # every data set at once
    for i, ds in enumerate(datasets):
        have = np.flatnonzero(np.nan_to_num(grid["count"][i]) > 0).tolist()
        if not have:
            continue
        medians[ds] = {learners[j]: cells["median"][i][j] for j in have}
        by = {learners[j]: j for j in have}
        rows[ds] = [
            QuartileRow(ds, n, int(cells["count"][i][by[n]]), *(cells[f][i][by[n]] for f in FIELDS))
            for n in _sort_best_first(medians[ds], higher)
        ]
        tau[ds] = taus[i]
    flagged = sorted((d for d, t in tau.items() if t < TAU_FLAG), key=lambda d: tau[d])
    flagged_set = set(flagged)  # (a scan of the flagged list for each data set was quadratic)
    others = [d for d in tau if d not in flagged_set]
    scopes = (OVERALL, *flagged, *others)
    warning = None
    if tau and len(flagged) > WARN_SHARE * len(tau):
        warning = (
            f"{len(flagged)} of {len(tau)} data sets order the learners against the overall chart "
            f"(Kendall tau < {TAU_FLAG:g}): the overall ranking hides them"
        )
    every = [r for s in scopes for r in rows[s]]
    return QuartilesView(
        criterion=criterion,
        higher_is_better=higher,
        rows=tuple(every),
        scopes=scopes,
        tau=tau,
        flagged=tuple(flagged),
        warning=warning,
        lo=min(r.min for r in every),
        hi=max(r.max for r in every),
        control_median={s: medians[s].get(control, math.nan) if control else math.nan for s in scopes},
    )


def deltas_view(
    deltas: pd.DataFrame, criterion: str, higher: bool, control: str, learners: Sequence[str], datasets: Sequence[str]
) -> QuartilesView | None:
    """The charts of deltas of Menzies' lecture notes: each learner's per-fold differences against ``control`` on the
    same (repeat, fold), overall (pooled over ``datasets``) and per data set; None when there is
    no difference to chart.

    ``deltas``: ``stats.fold_deltas`` output (columns dataset, learner, delta; positive: the
    learner is better than the control). The axis is centred at 0 (``lo = -hi``); within a scope
    the rows are best first (by median); rows carry the mean and sd the ``#rx`` chart of Menzies' lecture notes prints.
    """
    if deltas.empty:
        return None
    by_learner = {str(k): g for k, g in deltas.groupby("learner", observed=True, sort=False)}
    scopes: list[str] = []
    rows: list[QuartileRow] = []

    def add(scope: str, groups: dict[str, np.ndarray]) -> None:
        summaries = {n: stats.quartiles(v) for n, v in groups.items() if v.size}
        if not summaries:
            return
        order = _sort_best_first({n: q.median for n, q in summaries.items()}, True)
        scopes.append(scope)
        for n in order:
            q = summaries[n]
            rows.append(QuartileRow(scope, n, q.n, *(getattr(q, f) for f in FIELDS), q.mean, q.sd))

    others = [n for n in learners if n != control and n in by_learner]
    add(OVERALL, {n: by_learner[n]["delta"].to_numpy() for n in others})
    per = {str(k): g for k, g in deltas.groupby("dataset", observed=True, sort=False)}
    for ds in datasets:
        if ds in per:
            g = per[ds]
            add(ds, {n: g["delta"].to_numpy()[(g["learner"] == n).to_numpy()] for n in others})
    if not rows:
        return None
    reach = max(max(abs(r.min), abs(r.max)) for r in rows) or 1.0
    return QuartilesView(
        criterion=criterion,
        higher_is_better=higher,
        rows=tuple(rows),
        scopes=tuple(scopes),
        tau={},
        flagged=(),
        warning=None,
        lo=-reach,
        hi=reach,
        control_median={s: 0.0 for s in scopes},
        deltas=control,
    )
