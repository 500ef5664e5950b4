"""The folds view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.formats.text import fitted_grid
from tui.model import Analysis, FoldsView
from tui.registry import RenderOptions
from tui.views.folds.shared import FOLDS_TABLE, FOLDS_TOTALS, NO_FOLDS, folds_intro, folds_table_rows, folds_totals_rows


def folds_text(view: FoldsView, width: int | None = None) -> list[str]:
    """The fold-level tables; with a terminal's ``width``, names fitted and columns wrapped."""
    if view.table.empty:
        return ["fold-level comparison", f"against {view.control}: {NO_FOLDS}"]
    out = ["fold-level comparison", *folds_intro(view), "", *view.sentences, ""]
    out += fitted_grid(list(FOLDS_TOTALS), folds_totals_rows(view), width, keep=3)
    rows, kinds = folds_table_rows(view), ("data sets", "learners")
    out += ["", *fitted_grid(list(FOLDS_TABLE), rows, width, left=2, names=(0, 1), keep=3, what=kinds)]
    out += [f"note: {n}" for n in view.notes]
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The fold-level tables."""
    return folds_text(analysis.folds, options.width)  # type: ignore[arg-type]
