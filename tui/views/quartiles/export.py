"""The quartiles view's CSV: criterion, scope, learner, n, min, q1, median, q3, max (rows in view order);
for the charts of deltas, also mean, sd and ``against`` (the control the differences are taken
against); for the charts of values, also ``rank`` (the learner's Scott-Knott group in the scope, 1 =
best) and ``scott_knott`` (the variant: esd = ScottKnott-ESD 2.x, esd-v1 = 1.x, np = 3.0's
non-parametric form, or a12 = Menzies' A12 variant)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tui.model import Analysis


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.quartiles
    assert part is not None
    rows = [(part.criterion, r.scope, r.learner, r.n, r.min, r.q1, r.median, r.q3, r.max) for r in part.rows]
    cols = ["criterion", "scope", "learner", "n", "min", "q1", "median", "q3", "max"]
    out = pd.DataFrame(rows, columns=cols).astype({"n": np.int64})
    if part.deltas is not None:
        out = out.assign(mean=[r.mean for r in part.rows], sd=[r.sd for r in part.rows], against=part.deltas)
    if part.groups is not None:  # the Scott-Knott group of each row (blank where none was computed)
        ranks = [part.groups.get(r.scope, {}).get(r.learner) for r in part.rows]
        out = out.assign(rank=pd.array(ranks, dtype="Int64"), scott_knott=part.grouping)
    return out
