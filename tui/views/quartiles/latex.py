"""The quartiles view's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

import pandas as pd

import stats
from tui.formats.latex import (
    SHADE,
    _boxplot,
    tabular,
    tex_escape,
)
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.quartiles.shared import (
    chart_decimals,
    deltas_title,
    overall_note,
    scope_rows,
    sk_legend,
    sk_rank,
)


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    view = analysis.quartiles
    assert view is not None
    d = chart_decimals(view)
    winners = set(analysis.tests.winners) if analysis.tests is not None else set()
    out = [
        f"% quartiles of {tex_escape(view.criterion)}: \\boxplot axis from {view.lo:.{d}f} (0) "
        f"to {view.hi:.{d}f} (100); ticks at q1 and q3, dot at the median",
        r"{\scriptsize",
    ]
    if view.deltas is not None:  # the axis is centred at 0: the mark at 50 (Menzies) is no difference
        out.insert(1, f"% {tex_escape(deltas_title(view))}")
    higher = view.higher_is_better if view.deltas is None else True  # a delta is oriented: more is better
    legend = sk_legend(view)
    if legend:
        out.insert(1, f"% {tex_escape(legend)}")
    for scope in view.scopes:
        rows = scope_rows(view, scope)
        medians = pd.DataFrame([[r.median for r in rows]], columns=[r.learner for r in rows])
        ranks = stats.ranks(medians, higher_is_better=higher).iloc[0]
        top = min(ranks)
        body = []
        for r in rows:
            # the Rank column of Menzies' lecture notes: the Scott-Knott group (charts of deltas: the rank of medians)
            group = sk_rank(view, scope, r.learner) if legend else ranks[r.learner]
            top_group = group == 1 if legend else ranks[r.learner] == top
            shaded = r.learner in winners if scope == "overall" else top_group
            body.append(
                [
                    (SHADE if shaded else "") + ("-" if group is None else f"{group:g}"),
                    tex_escape(r.learner) + ",",
                    _boxplot(r, view.lo, view.hi),
                    f"{r.median:.{d}f}",
                ]
            )
        out += tabular("c r @{} c r", ["Rank", "Learner", r"q1, median, q3", "median"], body, tex_escape(scope))
        note = overall_note(view, scope)  # why the pooled chart's groups may differ from the verdict
        if note:
            out.append(f"% {tex_escape(note)}")
        out.append("")
    out.append("}")
    return out
