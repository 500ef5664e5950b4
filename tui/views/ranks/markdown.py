"""The ranks view's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

from tui.formats.markdown import bold, md_escape, table
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.ranks.shared import letters_row, rank_cell


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    view = analysis.ranks
    assert view is not None
    cols = [str(c) for c in view.medians.columns]
    rows = []
    for d in view.medians.index:
        best = view.best[str(d)]
        rows.append(
            [md_escape(d)]
            + [
                bold(rank_cell(view.medians.loc[d, c], view.ranks.loc[d, c]), str(c) in best)
                for c in view.medians.columns
            ]
        )
    low = view.average.min()
    rows.append(
        ["**average rank**"] + [bold(f"{view.average[c]:.3f}", view.average[c] == low) for c in view.medians.columns]
    )
    letters = letters_row(analysis, list(view.medians.columns))
    if letters is not None:
        rows.append(["letters", *letters[0]])
    out = [
        "## Ranks",
        "",
        "Median over repeats and folds, rank in parentheses (1 = best); the best of each row in bold.",
        "",
    ]
    out += table(["data set", *map(md_escape, cols)], "l" + "r" * len(cols), rows)
    if letters is not None:
        out += ["", md_escape(letters[1]) + " (Piepho 2004)."]
    if view.excluded:
        out += [""] + [f"- left out: {md_escape(n)} ({md_escape(why)})" for n, why in view.excluded.items()]
    return out
