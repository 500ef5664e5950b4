"""The quartiles view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from stats import quartile_chart
from stats.charts.quartiles import DEFAULT_WIDTH
from tui.formats.names import Fitted, fit_names
from tui.formats.text import WHOLE_NAMES
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


def _fitted(view: QuartilesView, width: int | None, decimals: int) -> tuple[Fitted, int]:
    """The learners' names as the charts show them and the bar's cells: whole names and the notes'
    bar without a ``width``; else a bar of 15 to 41 cells and names fitted to what the numbers and
    the bar leave of ``width`` (:func:`fit_names`)."""
    learners = list(dict.fromkeys(r.learner for r in view.rows))
    if width is None:
        return fit_names(learners, None), DEFAULT_WIDTH
    sample = quartile_chart({"": [view.lo, view.hi]}, lo=view.lo, hi=view.hi, decimals=decimals, width=1)[0]
    numbers = len(sample) - 1  # every cell of a line but the name's and the bar's
    bar = max(15, min(DEFAULT_WIDTH, width - numbers - 16))
    return fit_names(learners, max(width - numbers - bar, 1)), bar


def quartiles_text(view: QuartilesView, width: int | None = None) -> list[str]:
    """As in Menzies' notes on comparing learners: ``=====`` / ``Criteria X`` then one
    ``----| scope |-----`` chart per scope; with a terminal's ``width``, names fitted and the bar
    narrowed to it."""
    if view.deltas is not None:
        return deltas_text(view)
    out = ["=====", f"Criteria {view.criterion}"]
    if view.warning:
        out.append(f"warning: {view.warning}")
    legend = sk_legend(view)
    if legend:
        out.append(legend + ", under each chart")
    decimals = chart_decimals(view)
    names, bar = _fitted(view, width, decimals)
    shortened = names.legend("learners", WHOLE_NAMES)
    if shortened:
        out.append(shortened)
    flagged = set(view.flagged)  # (a scan of the flagged tuple per chart was quadratic)
    for scope in view.scopes:
        rows = scope_rows(view, scope)
        flag = ""
        if scope in flagged:
            flag = f" (Kendall tau {view.tau[scope]:.2f} against overall)"
        out += ["", f"----| {scope} |-----{flag}", ""]
        charts = {names[r.learner]: _quartiles(r) for r in rows}
        chart = quartile_chart(charts, lo=view.lo, hi=view.hi, decimals=decimals, width=bar)
        out += chart
        if legend:  # the lines of Menzies' notes stay as they are; the groups follow, best first
            groups: dict[int, list[str]] = {}
            for r in rows:
                rank = sk_rank(view, scope, r.learner)
                if rank is not None:
                    groups.setdefault(rank, []).append(names[r.learner])
            out += [f"rank {k}: {', '.join(groups[k])}" for k in sorted(groups)]
            note = overall_note(view, scope)  # why the pooled chart's groups may differ from the verdict
            if note:
                out.append(note)
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The quartile charts (or the charts of deltas)."""
    return quartiles_text(analysis.quartiles, options.width)  # type: ignore[arg-type]
