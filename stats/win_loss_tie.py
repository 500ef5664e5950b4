"""Seed 004's win-loss-tie table: paired t-tests between every pair of learners, counted."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from stats._table import as_table, check_alpha, snap


def ttest_win_loss_tie(scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True) -> pd.DataFrame:
    """Win-loss-tie counts of paired t-tests between every pair of learners.

    Parameters
    ----------
    scores : DataFrame or 2-D array_like
        Rows = data sets (at least 2), columns = learners.
    alpha : float, default 0.05
        Level of each two-sided paired t-test (scipy.stats.ttest_rel).
    higher_is_better : bool, default True
        Whether higher scores are better.

    Returns
    -------
    DataFrame
        Index = learners, integer columns ``win``, ``loss``, ``tie``, sorted
        by win - loss descending (stable: equal keys keep the table's order).

    Notes
    -----
    Per pair: p > alpha is a tie for both; otherwise the learner with the
    better mean difference wins. Identical differences on every data set
    (t = 0/0 or +-inf) tie when zero and win otherwise. No multiplicity
    correction, as in seed 004.

    References
    ----------
    Seed 004 (004_1f3c22156dad8688.txt), "T-Tests & Win-loss tables", after
    Hall & Holmes (2003), IEEE TKDE 15.

    Examples
    --------
    >>> t = [[0.9, 0.5, 0.51], [0.8, 0.4, 0.42], [0.85, 0.45, 0.43], [0.95, 0.52, 0.5]]
    >>> ttest_win_loss_tie(t)["win"].tolist()
    [2, 0, 0]
    """
    alpha = check_alpha(alpha)
    table = as_table(scores, higher_is_better=higher_is_better)
    x, k = table.values, table.k
    win, loss, tie = np.zeros(k, int), np.zeros(k, int), np.zeros(k, int)
    for u, v in itertools.combinations(range(k), 2):
        d = snap(x[:, u] - x[:, v], table.scale[:, 0])  # each data set at its own scale
        if np.ptp(d) == 0.0:
            significant, better = d[0] != 0.0, d[0]
        else:
            res = sps.ttest_rel(x[:, u], x[:, v])
            significant, better = float(res.pvalue) <= alpha, float(np.mean(d))
        if not significant or better == 0.0:
            tie[[u, v]] += 1
        else:
            winner, loser = (u, v) if better > 0 else (v, u)
            win[winner] += 1
            loss[loser] += 1
    index = pd.Index(table.learners, name="learner")
    out = pd.DataFrame({"win": win, "loss": loss, "tie": tie}, index=index)
    return out.iloc[np.argsort(-(win - loss), kind="stable")]
