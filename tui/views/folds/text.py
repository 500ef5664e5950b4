"""The folds view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.formats.text import grid
from tui.model import Analysis, FoldsView
from tui.registry import RenderOptions
from tui.views.folds.shared import FOLDS_TABLE, FOLDS_TOTALS, NO_FOLDS, folds_intro, folds_table_rows, folds_totals_rows


def folds_text(view: FoldsView) -> list[str]:
    if view.table.empty:
        return ["fold-level comparison", f"against {view.control}: {NO_FOLDS}"]
    out = ["fold-level comparison", *folds_intro(view), "", *view.sentences, ""]
    out += grid(FOLDS_TOTALS, folds_totals_rows(view))
    out += ["", *grid(FOLDS_TABLE, folds_table_rows(view), left=2)]
    out += [f"note: {n}" for n in view.notes]
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The fold-level tables."""
    return folds_text(analysis.folds)  # type: ignore[arg-type]
