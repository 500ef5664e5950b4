"""View 7: the learning curves of a sequence study (Menzies' lecture notes), the plateau marked per learner.

Menzies' lecture notes ("Incremental M*N-way"): "report 'plateau' (where learning improvement stops)". The
lines are ``rankboard report --view curves``'s (:func:`tui.views.curves.shared.curves_lines`): per data set
and learner, the notes' quartile chart with one row per training size, the plateau's row
labelled ``<size> plateau`` and said in words above the chart; one line for a log without a
sequence study.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.reactive import reactive
from textual.widgets import Static

from tui.widgets import Plain, ViewPanel, literal

#: The fewest cells of a chart's axis beside the lecture notes' full rows (fewer: the short rows).
MIN_AXIS = 20


class CurvesBody(Plain, Static):
    pass


class CurvesPanel(ViewPanel, ScrollableContainer):
    """The learning curves (a :class:`tui.model._curves.CurvesView`), scrolling both ways."""

    view: reactive[Any] = reactive(None, always_update=True, init=False)

    def compose(self) -> ComposeResult:
        yield CurvesBody(id="curves-body", classes="body")

    @property
    def plain(self) -> str:
        return self.query_one(CurvesBody).plain

    def watch_view(self, view: Any) -> None:
        body = self.query_one(CurvesBody)
        if view is None:
            body.show(Text("no learning curves for this selection"))
            return
        from tui.views.curves.shared import curves_lines  # pandas is loaded by then: the view model made the view

        # The numbers of the lecture notes' chart rows (mean, sd, n, min .. max) take ~62 cells: a
        # pane that leaves the axis fewer than MIN_AXIS (80 columns: ~65 cells) shows the rows of
        # the notes' other chart (min .. max and the bar); the sentences wrap instead of being cut.
        # (less a vertical scrollbar, shown or not: it comes up after the lines are made)
        pane = self.content_region.width - self.styles.scrollbar_size_vertical if self.content_region.width else 80
        style = "seed004" if pane - 62 >= MIN_AXIS else "seed000"
        axis = min(41, pane - 62)  # (seed000: fitted to the pane by curves_lines)
        out = Text(no_wrap=True)
        if style == "seed000" and not view.message:
            legend = "rows: size, min, q1, median, q3, max (mean, sd and n: a wider pane or report --view curves)"
            out.append_text(Text(textwrap.fill(legend, max(20, pane - 3)) + "\n", style="dim"))
        for line in curves_lines(view, width=axis, style=style, fit=pane - 1):
            chart = "," in line and not line.startswith(("learning curves", "plateau:"))
            pieces = [line] if chart or not line else textwrap.wrap(line, max(20, pane - 3))
            for piece in pieces:
                out.append_text(literal(piece, "bold" if piece.startswith("----|") else ""))
                out.append("\n")
        body.show(out)

    def on_resize(self) -> None:
        self.watch_view(self.view)  # the axis and the wrapping follow the pane's width


    PANEL_CLASSES = "view-scroll"

    def show(self, data: Any) -> None:
        self.view = data


#: The panel of the registry (:mod:`tui.registry`).
Panel = CurvesPanel
