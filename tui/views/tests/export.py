"""The tests view's CSV: one row per hypothesis "control vs learner": learner, z, p, bonferroni, holm,
hochberg, hommel, holland, rom, finner, li (the APVs of ``stats.control_test``), the multiple sign
test against the control (sign_plus, sign_minus, sign_ties, sign_statistic, sign_rejected) and the
win, loss, tie (Menzies' lecture notes) and win_minus_loss; then a row for the control with only
the last four; then each learner's part in the verdict and its stability (issue 31,
``stats.stability``): role (winner, loser, neither, tie), role_held and role_analyses (the analyses
leaving one data set or other learner out in which it holds) and role_reversed_by (those whose
removal alone changes it, separated by "; "), on every row.

When fewer than 2 data sets are complete, Skillings-Mack's omnibus test is the view's only test: it
has no row per learner, so there is nothing to export (``ValueError``; the JSON report has it)."""

from __future__ import annotations

import pandas as pd

from tui.model import Analysis, roles_frame
from tui.views.tests.extra import extra_csv


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.tests
    assert part is not None
    if part.skillings_mack_only:
        raise ValueError(
            "nothing to export in the tests view: Skillings-Mack's test alone (fewer than 2 complete data sets) "
            "has no row per learner; the JSON report has it"
        )
    out = part.control_table.reset_index(names="learner")
    out["learner"] = out["learner"].astype(str)
    if part.extra is not None:  # issue 16: the multiple sign test and the win/loss/tie counts
        out = extra_csv(part, out)
    r = analysis.robustness
    if r is not None:  # issue 31: each learner's part in the verdict, and how stable it is
        out = pd.concat([out, roles_frame(r, out["learner"].tolist())], axis=1)
    return out
