"""The folds view's CSV: one row per data set and learner against the control: dataset, learner,
control, runs, folds, mean_difference, statistic, pvalue, mark, p_better, p_equivalent, p_worse;
then one row per learner with dataset "all data sets": wins, ties, losses, datasets and the
Bayesian signed-rank test's probabilities; last, on every row, what made the marks (``v`` better,
``*`` worse than the control) and the wins/ties/losses that count them: ``mark_test`` (the corrected
resampled t-test of Nadeau & Bengio 2003, one data set at a time, no multiplicity correction) and
``mark_alpha``. Fixed names in the last columns: a program finds them by name, the columns before
them keep their places."""

from __future__ import annotations

import pandas as pd

from tui.model import Analysis

#: The dataset of the rows across data sets (one per learner: the totals).
TOTALS = "all data sets"
#: What makes the marks (``mark_test``): the test's name, as the text report's intro gives it.
MARK_TEST = "corrected resampled t (Nadeau & Bengio 2003)"


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.folds
    assert part is not None
    per = part.table.reset_index().assign(control=part.control)
    totals = part.totals.reset_index().assign(dataset=TOTALS, control=part.control)
    cols = ["dataset", "learner", "control", "runs", "folds", "mean_difference", "statistic", "pvalue", "mark"]
    cols += ["p_better", "p_equivalent", "p_worse", "wins", "ties", "losses", "datasets"]
    out = pd.concat([per, totals], ignore_index=True).reindex(columns=cols)
    for c in ("runs", "folds", "wins", "ties", "losses", "datasets"):
        out[c] = out[c].astype("Int64")  # counts stay integers; blank where they do not apply
    out[["dataset", "learner", "control"]] = out[["dataset", "learner", "control"]].astype(str)
    out["mark"] = out["mark"].fillna("").astype(str)
    return out.assign(mark_test=MARK_TEST, mark_alpha=float(part.alpha))


def shown(frame: pd.DataFrame, needle: str, datasets: list[str] | None, learners: list[str] | None) -> pd.DataFrame:
    """The rows the ``/`` filter keeps: a data set's row by its data set or learner, a totals row
    (a learner's, after the data sets) by its learner, as the view filters them."""
    if not needle:
        return frame
    summary = frame["dataset"].astype(str) == TOTALS
    name = frame["learner"].astype(str).str.casefold().str.contains(needle, regex=False)
    pair = frame["dataset"].astype(str).str.casefold().str.contains(needle, regex=False) | name
    return frame[(summary & name) | (~summary & pair)]
