"""The folds view's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

from tui.formats.markdown import md_escape, table
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.folds.shared import FOLDS_TABLE, FOLDS_TOTALS, NO_FOLDS, folds_intro, folds_table_rows, folds_totals_rows


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    view = analysis.folds
    assert view is not None
    if view.table.empty:
        return ["## Fold-level comparison", "", f"Against {md_escape(view.control)}: {NO_FOLDS}."]
    intro = folds_intro(view)
    out = ["## Fold-level comparison", "", *(f"- {md_escape(line[:1].upper() + line[1:])}" for line in intro), ""]
    out += [f"**{md_escape(line)}**  " for line in view.sentences] + [""]
    out += table(FOLDS_TOTALS, "lrrrrr", [[md_escape(r[0]), *r[1:]] for r in folds_totals_rows(view)])
    out.append("")
    rows = [[md_escape(r[0]), md_escape(r[1]), *r[2:6], md_escape(r[6]), *r[7:]] for r in folds_table_rows(view)]
    out += table(FOLDS_TABLE, "llrrrrcrrr", rows)
    if view.notes:
        out += ["", *(f"- note: {md_escape(n)}" for n in view.notes)]
    return out
