"""The ranks view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.ranks.shared import letters_row, rank_cell


def ranks_text(analysis: Analysis) -> list[str]:
    """The rank table of ``rankboard report``: medians with ranks in parentheses, average ranks last."""
    view = analysis.ranks
    assert view is not None
    scores, ranks, avg = view.medians, view.ranks, view.average
    width = max(len(str(d)) for d in [*map(str, scores.index), "average rank"])
    cols = [str(c) for c in scores.columns]
    cw = [max(len(c), 13) for c in cols]
    lines = [" " * width + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, cw))]
    for name in scores.index:
        cells = [rank_cell(scores.loc[name, c], ranks.loc[name, c]) for c in scores.columns]
        lines.append(str(name).ljust(width) + "  " + "  ".join(x.rjust(w) for x, w in zip(cells, cw)))
    lines.append(
        "average rank".ljust(width) + "  " + "  ".join(f"{avg[c]:.3f}".rjust(w) for c, w in zip(scores.columns, cw))
    )
    letters = letters_row(analysis, list(scores.columns))
    if letters is not None:
        lines.append("letters".ljust(width) + "  " + "  ".join(x.rjust(w) for x, w in zip(letters[0], cw)))
    lines += [f"left out: {name} ({why})" for name, why in view.excluded.items()]
    if letters is not None:
        lines.append(letters[1])
    return lines


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The rank table."""
    return ranks_text(analysis)  # type: ignore[arg-type]
