"""The tests view's CSV: one row per hypothesis "control vs learner": learner, z, p, bonferroni, holm,
hochberg, hommel, holland, rom, finner, li (the APVs of ``stats.control_test``), the multiple sign
test against the control (sign_plus, sign_minus, sign_ties, sign_statistic, sign_rejected) and the
win, loss, tie (Menzies' lecture notes) and win_minus_loss; then a row for the control with only
the last four."""

from __future__ import annotations

import pandas as pd

from tui.model import Analysis
from tui.views.tests.extra import extra_csv


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.tests
    assert part is not None
    out = part.control_table.reset_index(names="learner")
    out["learner"] = out["learner"].astype(str)
    if part.extra is not None:  # issue 16: the multiple sign test and the win/loss/tie counts
        out = extra_csv(part, out)
    return out
