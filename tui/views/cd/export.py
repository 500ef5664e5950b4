"""The CD diagram's CSV: learner, average_rank (best first), then one boolean column ``clique <i>``
(i = 1, 2, ...) per maximal clique, True for its members; then the learner's part in the verdict
and its stability (issue 31): role, role_held, role_analyses, role_reversed_by
(:func:`tui.model.roles_frame`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tui.model import Analysis, roles_frame


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.cd
    assert part is not None
    out = pd.DataFrame({"learner": [str(x) for x in part.ranks.index], "average_rank": part.ranks.to_numpy(np.float64)})
    for i, clique in enumerate(part.cliques, start=1):
        out[f"clique {i}"] = out["learner"].isin(clique)
    r = analysis.robustness
    if r is not None:
        out = pd.concat([out, roles_frame(r, out["learner"].tolist())], axis=1)
    return out
