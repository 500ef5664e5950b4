"""The ranks view's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

from tui.formats.latex import (
    bf,
    tabular,
    tex_escape,
)
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.ranks.shared import letters_row


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    view = analysis.ranks
    assert view is not None
    cols = list(view.medians.columns)
    body = []
    for ds in view.medians.index:
        best = view.best[str(ds)]
        body.append(
            [tex_escape(ds)]
            + [bf(f"{view.medians.loc[ds, c]:.3f} ({view.ranks.loc[ds, c]:g})", str(c) in best) for c in cols]
        )
    low = view.average.min()
    avg_row = ["average rank"] + [bf(f"{view.average[c]:.3f}", view.average[c] == low) for c in cols]
    out = ["% ranks: median over repeats and folds, rank in parentheses (1 = best); the best of each row in bold"]
    table = tabular("l" + "r" * len(cols), ["Data set", *map(tex_escape, cols)], body)
    table.insert(-2, r"\hline")
    table.insert(-2, " & ".join(avg_row) + r" \\")
    letters = letters_row(analysis, cols)
    if letters is not None:
        table.insert(-2, " & ".join(["letters", *letters[0]]) + r" \\")
        out.append(f"% {tex_escape(letters[1])} (Piepho 2004)")
    out += table
    out += [f"% left out: {tex_escape(n)} ({tex_escape(why)})" for n, why in view.excluded.items()]
    return out
