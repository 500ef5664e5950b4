"""The folds view's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

from tui.formats.latex import (
    tabular,
    tex_escape,
    tex_p,
)
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.folds.shared import FOLDS_TABLE, FOLDS_TOTALS, NO_FOLDS, folds_intro, folds_table_rows, folds_totals_rows


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    view = analysis.folds
    assert view is not None
    if view.table.empty:
        return [f"% fold-level comparison against {tex_escape(view.control)}: {NO_FOLDS}"]
    out = [f"% {tex_escape(line)}" for line in (*folds_intro(view), *view.sentences)]
    out += [f"% note: {tex_escape(n)}" for n in view.notes]
    header = [tex_escape(h) for h in FOLDS_TOTALS]
    out += tabular("l r r r r r", header, [[tex_escape(c) for c in r] for r in folds_totals_rows(view)])
    out.append("")
    header = [tex_escape(h) for h in FOLDS_TABLE]
    rows = [
        [tex_escape(c) for c in r[:5]] + [tex_p(p), tex_escape(r[6]), *r[7:]]
        for r, p in zip(folds_table_rows(view), view.table["pvalue"].tolist())
    ]
    out += tabular("l l r r r r c r r r", header, rows)
    return out
