"""What the folds view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

from stats import fmt_p, fmt_stat
from tui.formats.text import prob
from tui.model import FoldsView

#: Columns of the fold-level tables (text, markdown and LaTeX share them).
FOLDS_TOTALS = ("learner", "w/t/l", "P(better)", "P(equivalent)", "P(worse)", "data sets")


FOLDS_TABLE = ("data set", "learner", "runs", "mean diff", "t", "p", "mark", "P(better)", "P(equiv.)", "P(worse)")


def folds_intro(view: FoldsView) -> list[str]:
    """What the fold-level tables hold, in words: which procedure each number comes from."""
    direction = "higher" if view.higher_is_better else "lower"
    return [
        f"every learner against {view.control} on the folds of each data set ({view.criterion}, {direction} is better)",
        f"per data set: corrected resampled t (Nadeau & Bengio 2003), marks v (better) and * (worse) at "
        f"alpha = {view.alpha:g}; Bayesian correlated t-test (Corani & Benavoli 2015), rope {view.rope:g}",
        f"across data sets: wins/ties/losses of those marks; Bayesian signed-rank test (Benavoli et al. 2017) "
        f"on the per-data-set means, rope {view.rope:g}",
    ]


def folds_totals_rows(view: FoldsView) -> list[list[str]]:
    return [
        [str(r.Index), f"{r.wins}/{r.ties}/{r.losses}", prob(r.p_better), prob(r.p_equivalent), prob(r.p_worse)]
        + [str(r.datasets)]
        for r in view.totals.itertuples()
    ]


def folds_table_rows(view: FoldsView) -> list[list[str]]:
    return [
        [
            str(r.Index[0]),
            str(r.Index[1]),
            str(r.runs),
            f"{r.mean_difference:+.4g}",
            fmt_stat(r.statistic),
            fmt_p(r.pvalue),
            str(r.mark),
            prob(r.p_better),
            prob(r.p_equivalent),
            prob(r.p_worse),
        ]
        for r in view.table.itertuples()
    ]


#: What the fold-level views say when no pair of learners shares 2 (repeat, fold) results.
NO_FOLDS = (
    "no data set has 2 (repeat, fold) results shared by a learner and the control: the fold-level "
    "tests need the results of R x N cross-validation, not one result per data set"
)
