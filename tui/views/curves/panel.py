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

        # At 80 columns the pane is ~65 cells: the numbers of the notes' chart rows take ~60, so the
        # axis gets what is left (at least 6 cells), and the sentences wrap instead of being cut.
        pane = self.content_size.width or 80
        axis = max(6, min(41, pane - 62))
        out = Text(no_wrap=True)
        for line in curves_lines(view, width=axis):
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
