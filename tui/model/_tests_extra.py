"""The procedures the tests view adds beside the omnibus tests (issue 16): the tie-corrected
Friedman statistic, the multiple sign test against the control (Garcia et al. 2010) and the
win/loss/tie table of Menzies' lecture notes.

Every number comes from :mod:`stats`; here they are only arranged:

* ``friedman_ties``: ``stats.friedman(..., tie_correction=True)`` (what scipy's
  ``friedmanchisquare`` and R's ``friedman.test`` compute), shown beside Demsar's (2006) uncorrected form.
* ``sign``: ``stats.multiple_sign_test`` (Steel 1959; Garcia et al. 2010) of every learner against the
  control. H1 "worse than the control" when the control is the best-ranked learner (Garcia et
  al.'s use: is anyone as good as the best?), else "differs from the control" (two-sided).
* ``win_loss_tie``: ``stats.ttest_win_loss_tie`` (Menzies' lecture notes): per pair, a paired t-test across the
  data sets at alpha; win - loss is added, and the rows keep stats' order (by win - loss).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd

import stats

if TYPE_CHECKING:  # the module imports scipy: `rankboard check` must not
    from stats.posthoc.multiple_sign import MultipleSignResult


@dataclass(frozen=True, eq=False)
class TestsExtra:
    """The tie-corrected Friedman test, the multiple sign test and the win/loss/tie table."""

    __test__ = False  # not a pytest class

    friedman_ties: stats.FriedmanResult
    sign: MultipleSignResult
    win_loss_tie: pd.DataFrame  # index learner; win, loss, tie, win_minus_loss; best first


def sign_alternative(control: str, best: str) -> str:
    """H1 of the multiple sign test: "worse" against the best-ranked learner, else "two-sided"."""
    return "worse" if control == best else "two-sided"


def tests_extra(
    scores: stats.ScoresTable | stats.RankedTable, control: str, best: str, alpha: float, higher: bool
) -> TestsExtra:
    """The three for the tests view (``best``: the best-ranked learner)."""
    wlt = stats.ttest_win_loss_tie(scores, alpha=alpha, higher_is_better=higher)
    wlt = wlt.assign(win_minus_loss=wlt["win"] - wlt["loss"])
    wlt.index = pd.Index([str(x) for x in wlt.index], name="learner")
    alternative: str = sign_alternative(control, best)
    return TestsExtra(
        friedman_ties=stats.friedman(scores, higher_is_better=higher, tie_correction=True),
        sign=stats.multiple_sign_test(
            scores,
            control,
            alpha=alpha,
            higher_is_better=higher,
            alternative=alternative,  # type: ignore[arg-type]
        ),
        win_loss_tie=wlt,
    )
