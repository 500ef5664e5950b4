"""What every view of one selection is made from: the :class:`Basis` a view's part maker receives
(:mod:`tui.registry`), computed once per selection by :meth:`tui.model.Model.analyze`.

The scores table and its ranks are computed when the selection is analysed; the all-pairs table
of the procedure on screen, the two-sample table and the quartile and fold-level views are made
when a view first asks for them, through the model's caches (so that changing alpha, the control,
the test, the procedure or the pair recomputes only what depends on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

import stats
from tui.model._effects import TWO_SAMPLE, two_sample_table
from tui.model._tests import Incomplete, incomplete_tests, pairwise_table, with_bergmann
from tui.model._types import Selection

if TYPE_CHECKING:
    from tui.model._model import Model


@dataclass(frozen=True, eq=False)
class Basis:
    """One selection's common ground. ``selection`` as asked; ``learners`` those with results for its
    criterion; ``scores`` its table (None when it could not be made); ``ranked``/``average`` its
    ranks when the table is testable (else None, and ``untestable`` says why); ``control`` the
    control in use (the selection's, or the best-ranked learner); ``with_results`` the selected data
    sets with results (the fold-level views need no complete table) and ``fold_control`` their
    control (``control``, or the first learner when the table is untestable); ``alone`` Skillings &
    Mack's (1981) test when fewer than 2 data sets are complete and it can test the selection
    (:func:`~tui.model._tests.skillings_mack_alone`), the tests view's only test, else None."""

    model: Model
    selection: Selection
    learners: tuple[str, ...]
    scores: Any
    ranked: Any
    average: pd.Series | None
    control: str | None
    with_results: list[str]
    fold_control: str
    untestable: str | None
    alone: Incomplete | None = None

    # -- the predicates of the registry's ``requires`` --------------------------------------------

    @property
    def testable(self) -> bool:
        """The table can be tested: ranks, omnibus tests, post-hoc procedures."""
        return self.untestable is None and self.ranked is not None and self.average is not None

    @property
    def has_tests(self) -> bool:
        """The table can be tested, or Skillings-Mack alone can (:attr:`alone`): the tests view."""
        return self.testable or self.alone is not None

    @property
    def two_learners(self) -> bool:
        """At least two learners: one to compare against the control."""
        return len(self.learners) >= 2

    # -- shared pieces -----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of data sets tested."""
        return int(self.scores.shape[0]) if self.scores is not None else 0

    @property
    def table_key(self) -> tuple[Any, ...]:
        """The cache key of the selection's table: criterion, data sets, learners."""
        sel = self.selection
        return (sel.criterion, sel.datasets, self.learners)

    @property
    def tested(self) -> list[str]:
        """The data sets of the table (those the tests use), else every selected one."""
        tested = [str(d) for d in self.scores.index] if self.scores is not None else []
        return tested or list(self.selection.datasets)

    def cached(self, kind: str, key: Any, make: Any) -> Any:
        """The model's cache ``kind`` at ``key`` (made by ``make`` once)."""
        return self.model._cached(kind, key, make)

    def pairwise(self) -> stats.PairwiseTest:
        """The all-pairs table of the rank procedures (with exact Bergmann-Hommel): one table for
        the verdict, the pairs and the CD bars."""
        sel = self.selection
        key = (*self.table_key, sel.higher_is_better, sel.test)

        def make() -> stats.PairwiseTest:
            light = self.model.cached_value("pairwise", (*key, "no bergmann"))
            return pairwise_table(self.ranked, sel) if light is None else with_bergmann(light)

        return self.cached("pairwise", key, make)

    def pairwise_shown(self) -> stats.PairwiseTest:
        """The table of the procedure on screen: without exact Bergmann-Hommel (from ms at k = 10 to
        seconds at k = 16) unless it is that procedure, or the table with it is made (the pairs
        view, whose table the exports write, makes it)."""
        sel = self.selection
        key = (*self.table_key, sel.higher_is_better, sel.test)
        if sel.procedure == "bergmann":
            return self.pairwise()
        full = self.model.cached_value("pairwise", key)
        if full is not None:
            return full
        return self.cached("pairwise", (*key, "no bergmann"), lambda: pairwise_table(self.ranked, sel, False))

    def two_sample(self) -> stats.PairwiseTwoSample:
        """A two-sample procedure's APVs (wilcoxon-holm, sign-holm)."""
        sel = self.selection
        key = (*self.table_key, sel.higher_is_better, sel.procedure)
        return self.cached("pairwise", key, lambda: two_sample_table(self.ranked, sel.procedure, sel.higher_is_better))

    def incomplete(self) -> Incomplete | None:
        """Skillings-Mack's test when selected data sets miss some learners' results (they are left
        out of :attr:`scores`): on the complete data sets and those (:func:`incomplete_tests`); None
        when no data set is left out, or none left out has two results."""
        if not self.scores.excluded:
            return None
        sel = self.selection
        return incomplete_tests(self.scores, self.model.per_cell(sel.criterion), sel.higher_is_better)

    def procedure_table(self) -> Any:
        """The APVs of the selected procedure: one table for the verdict, the matrix, the bars, the letters."""
        return self.two_sample() if self.selection.procedure in TWO_SAMPLE else self.pairwise_shown()
