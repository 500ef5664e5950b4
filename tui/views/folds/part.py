"""How the folds view is made: each learner against the control from the fold-level results
(``stats.fold_comparison``), and the part shown first while the signed-rank test is computed."""

from __future__ import annotations

from tui.model import Basis, FoldsView


def make(b: Basis) -> FoldsView:
    return b.model.folds(b.selection, b.with_results, b.learners, b.fold_control)


def early(b: Basis) -> FoldsView:
    """The view with the Bayesian signed-rank test still computing (shown first)."""
    return b.model.folds_early(b.selection, b.with_results, b.learners, b.fold_control)
