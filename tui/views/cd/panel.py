"""The CD diagram's panel: the diagram drawn to the pane's width (so it follows resizes), scrolling
sideways only when even cut names do not fit."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from tui.model import COMPUTING, COMPUTING_TEXT, CDView, Robustness, robustness_now
from tui.views.cd.diagram import render_cd as draw_cd
from tui.views.cd.text import fragility_lines
from tui.widgets import ViewPanel, literal, num


def diagram_text(view: CDView, width: int | None = None, full: bool = False, robust: Any = None) -> Text:
    """The diagram drawn ``width`` columns wide (78 when None; with ``full`` names, wider when
    they make it); the sentences above it wrap to ``width`` (the diagram's lines do not: they
    scroll sideways when they must), and so does the line under it on the fragility of the pairs
    the bars separate (``robust``: a :class:`~tui.model.Robustness`, ``COMPUTING`` or None)."""
    fold = textwrap.TextWrapper(width or 78, break_long_words=False, break_on_hyphens=False)
    basis = "".join(f"{line}\n" for line in fold.wrap(view.basis))
    out = Text(f"CD = {num(view.cd)} (Nemenyi)\n{basis}", no_wrap=True)
    if view.replaced:
        out.append("".join(f"{line}\n" for line in fold.wrap(view.replaced)), style="bold yellow")
    out.append("\n")
    lines = draw_cd(view.ranks, view.cd, width=width or 78, cliques=view.cliques, hint="n: full names", whole=full)
    for line in lines:
        out.append_text(literal(line))
        out.append("\n")
    if robust is COMPUTING:
        out.append("\n" + COMPUTING_TEXT + "\n", style="italic")
    elif isinstance(robust, Robustness):  # names from the logs: literal, fitted as the diagram's, folded
        out.append("\n")
        names = [literal(x).plain for x in view.ranks.index]
        for line in fragility_lines(robust, names, width or 78, full):
            out.append(literal(line, "italic"))
            out.append("\n")
    return out


class CDPanel(Widget):
    """The CD diagram, drawn in ``render`` to the panel's current width (so it follows resizes)."""

    # layout=True: the panel's height follows the drawing (set while on screen, it kept the old height)
    view: reactive[CDView | None] = reactive(None, always_update=True, init=False, layout=True)
    #: The robustness of the pairs the bars separate (``COMPUTING`` while the app computes it).
    robust: Any = None

    @property
    def plain(self) -> str:
        """The text as drawn at the current width (tests read it)."""
        return self._text().plain

    #: the last drawing (at a width, with full names or not): layout and paint ask for the same one
    _drawn: tuple[CDView, tuple[int, bool, Any], Text] | None = None

    def _text(self, width: int | None = None) -> Text:
        view = self.view
        if view is None:
            return Text("no diagram for this selection")
        width = self.content_size.width if width is None else width
        drawn = self._drawn
        full = isinstance(self.parent, ViewPanel) and self.parent.full_names
        if drawn is None or drawn[0] is not view or drawn[1][:2] != (width, full) or drawn[1][2] is not self.robust:
            text = diagram_text(view, width if width >= 40 else None, full, self.robust)
            drawn = self._drawn = (view, (width, full, self.robust), text)
        return drawn[2]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The pane's width, or the drawing's when even cut names do not fit it (many learners
        in a narrow pane): the pane then scrolls sideways instead of folding the diagram's lines."""
        return max(container.width, _widest(self._text(container.width)))

    def render(self) -> Text:
        return self._text()


def _widest(text: Text) -> int:
    return max((line.cell_len for line in text.split("\n")), default=0)


class CDPane(ViewPanel, ScrollableContainer):
    """The CD diagram's panel (:mod:`tui.registry`): a pane scrolling the drawing both ways."""

    PANEL_CLASSES = "view-scroll"

    def compose(self) -> ComposeResult:
        yield CDPanel(classes="body")

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Any) -> Any:
        """The view and its robustness as computed so far (never waiting for it)."""
        view = analysis.part(part)
        return None if view is None else (view, robustness_now(analysis))

    def show(self, data: Any) -> None:
        """``data``: :meth:`prepare`'s (the view, its robustness so far), or a view, or None."""
        panel = self.query_one(CDPanel)
        panel.robust = data[1] if isinstance(data, tuple) else None
        panel.view = data[0] if isinstance(data, tuple) else data  # (drawn again: the names may have changed)


#: The panel of the registry (:mod:`tui.registry`).
Panel = CDPane
