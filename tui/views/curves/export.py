"""The learning curves' CSV: criterion, dataset, learner, train, n, mean, sd, min, q1, median, q3,
max, plateau (True on the learner's plateau row), plateau_size and reached."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tui.model import Analysis


def curves_frame(view: Any) -> pd.DataFrame:
    """CSV columns: criterion, dataset, learner, train, n, mean, sd, min, q1, median, q3, max, plateau
    (True on the plateau's row), plateau_size and reached (the learner's plateau, on each of its rows)."""
    if view.message:
        raise ValueError(f"nothing to export in the curves view: {view.message}")
    frame = view.rows.merge(
        view.plateaus.rename(columns={"size": "plateau_size"})[["dataset", "learner", "plateau_size", "reached"]],
        on=["dataset", "learner"],
        how="left",
    )
    frame.insert(0, "criterion", view.criterion)
    frame["reached"] = frame["reached"].astype("boolean")
    return frame.astype({"n": np.int64, "dataset": str, "learner": str})


def frame(analysis: Analysis) -> pd.DataFrame:
    return curves_frame(analysis.curves)
