"""The CD diagram's CSV: learner, average_rank (best first), then one boolean column ``clique <i>``
(i = 1, 2, ...) per maximal clique, True for its members."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tui.model import Analysis


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.cd
    assert part is not None
    out = pd.DataFrame({"learner": [str(x) for x in part.ranks.index], "average_rank": part.ranks.to_numpy(np.float64)})
    for i, clique in enumerate(part.cliques, start=1):
        out[f"clique {i}"] = out["learner"].isin(clique)
    return out
