"""How the quartiles view is made: the charts of the selection's values (Menzies' notes on comparing
learners), with the control's medians and every chart's Scott-Knott ranks, or with ``deltas`` the
charts of the per-fold differences against the control."""

from __future__ import annotations

from tui.model import Analysis, Basis, QuartilesView, quartiles_view, rank_every_chart, with_control, with_groups


def make(b: Basis) -> QuartilesView:
    sel, control = b.selection, b.control
    if sel.deltas:
        return b.model.deltas(sel, b.with_results, b.learners, b.fold_control)
    key = (*b.table_key, sel.higher_is_better)
    view = b.cached(
        "q",
        key,
        lambda: quartiles_view(
            b.model.raw,
            b.model.per_cell(sel.criterion),
            sel.criterion,
            sel.higher_is_better,
            sel.datasets,
            b.learners,
            b.tested,
            None,
        ),
    )
    # The same object for the same control: a view showing it need not be drawn again.
    shown = b.cached("q", (*key, "control", control), lambda: with_control(view, control))
    return b.cached(  # Scott-Knott ranks of every chart, each computed when first drawn
        "q",
        (*key, "control", control, sel.scott_knott),
        lambda: with_groups(shown, b.model.raw, sel.scott_knott, b.tested),
    )


def every_chart(analysis: Analysis) -> None:
    """Every chart's Scott-Knott ranks now, in one pass (a report prints them all; the app computes
    a chart's when it is first drawn)."""
    rank_every_chart(analysis.quartiles)
