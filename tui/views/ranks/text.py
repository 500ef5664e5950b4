"""The ranks view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.formats.names import fit_names
from tui.formats.text import wrapped_grid
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.ranks.shared import letters_row, rank_cell, rank_rows


def ranks_text(analysis: Analysis, width: int | None = None) -> list[str]:
    """The rank table of ``rankboard report``: medians with ranks in parentheses, average ranks last.

    ``width`` (a terminal's): learners' names fitted to their numbers (:func:`fit_names`, said in
    a legend line) and the columns wrapped into blocks that fit; without it, names whole, one block."""
    view = analysis.ranks
    assert view is not None
    scores, ranks, avg = view.medians, view.ranks, view.average
    learners = [str(c) for c in scores.columns]
    rows = [[str(name), *map(rank_cell, values, places)] for name, values, places in rank_rows(scores, ranks)]
    rows.append(["average rank", *(f"{avg[c]:.3f}" for c in scores.columns)])
    letters = letters_row(analysis, list(scores.columns))
    if letters is not None:
        rows.append(["letters", *letters[0]])
    cells = max((len(x) for row in rows for x in row[1:]), default=0)
    fitted = fit_names(learners, None if width is None else max(cells, 13))
    header = ["", *(fitted[c].rjust(13) for c in learners)]  # (columns at least 13 wide, as always)
    lines = wrapped_grid(header, rows, width)
    legend = fitted.legend("learners", hint="a wider terminal or a pipe: whole names")
    lines += [legend] if legend else []
    lines += [f"left out: {name} ({why})" for name, why in view.excluded.items()]
    if letters is not None:
        lines.append(letters[1])
    return lines


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The rank table."""
    return ranks_text(analysis, options.width)  # type: ignore[arg-type]
