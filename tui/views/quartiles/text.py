"""The quartiles view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from stats import quartile_chart
from tui.model import Analysis, QuartilesView
from tui.registry import RenderOptions
from tui.views.quartiles.shared import (
    _quartiles,
    chart_decimals,
    deltas_title,
    overall_note,
    scope_rows,
    sk_legend,
    sk_rank,
)


def deltas_text(view: QuartilesView) -> list[str]:
    """The charts of deltas of Menzies' lecture notes: ``#rx, mean, sd, n, min, q1, median, q3,
    max`` and a bar on an axis centred at 0, one chart per scope."""
    out = ["=====", f"Criteria {view.criterion}: {deltas_title(view)}"]
    decimals = chart_decimals(view)
    for scope in view.scopes:
        rows = {r.learner: _quartiles(r) for r in scope_rows(view, scope)}
        out += ["", f"----| {scope} |-----", ""]
        out += quartile_chart(rows, style="seed004", lo=view.lo, hi=view.hi, decimals=decimals)
    return out


def quartiles_text(view: QuartilesView) -> list[str]:
    """As in Menzies' notes on comparing learners: ``=====`` / ``Criteria X`` then one
    ``----| scope |-----`` chart per scope."""
    if view.deltas is not None:
        return deltas_text(view)
    out = ["=====", f"Criteria {view.criterion}"]
    if view.warning:
        out.append(f"warning: {view.warning}")
    legend = sk_legend(view)
    if legend:
        out.append(legend + ", under each chart")
    decimals = chart_decimals(view)
    for scope in view.scopes:
        rows = scope_rows(view, scope)
        flag = ""
        if scope in view.flagged:
            flag = f" (Kendall tau {view.tau[scope]:.2f} against overall)"
        out += ["", f"----| {scope} |-----{flag}", ""]
        chart = quartile_chart({r.learner: _quartiles(r) for r in rows}, lo=view.lo, hi=view.hi, decimals=decimals)
        out += chart
        if legend:  # the lines of Menzies' notes stay as they are; the groups follow, best first
            groups: dict[int, list[str]] = {}
            for r in rows:
                rank = sk_rank(view, scope, r.learner)
                if rank is not None:
                    groups.setdefault(rank, []).append(r.learner)
            out += [f"rank {k}: {', '.join(groups[k])}" for k in sorted(groups)]
            note = overall_note(view, scope)  # why the pooled chart's groups may differ from the verdict
            if note:
                out.append(note)
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The quartile charts (or the charts of deltas)."""
    return quartiles_text(analysis.quartiles)  # type: ignore[arg-type]
