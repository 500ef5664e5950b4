"""View 1: the quartile charts, in a virtualized panel (a ``ScrollView`` drawing only the visible
lines with ``render_line``; the lines themselves are made lazily, see :mod:`tui.views.quartiles.lines`).

A cursor sits on a learner row (``▸`` in the gutter, a symbol that survives NO_COLOR; reversed
while the panel has focus): ``c`` and ``space`` act on its learner, as in the other views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.model import QuartilesView
from tui.views.quartiles.lines import QuartileLines, quartile_lines
from tui.widgets import ViewPanel, matches

#: The gutter left of every line: the cursor's mark, or a blank.
CURSOR, GUTTER = "\u25b8", 1  # ▸
REVERSE = Style(reverse=True)


class QuartilesPanel(ViewPanel, ScrollView):
    """Shows ``lines`` (a :class:`QuartileLines`); only the visible lines are drawn."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", show=False),
        Binding("down,j", "cursor(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "cursor(-1000000000)", show=False),
        Binding("end", "cursor(1000000000)", show=False),
        Binding("right,l", "columns(1)", show=False),
        Binding("left,h", "columns(-1)", show=False),
    ]

    lines: reactive[QuartileLines | None] = reactive(None, always_update=True, layout=False, init=False)

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self._lines: QuartileLines | None = None
        self._base_style: Style | None = None
        self.cursor = 0  # the learner row under the cursor (0 .. rows - 1, over every chart)
        self.needle = ""  # the / filter (case-folded): the rows whose learner or chart name contains it
        self._source: QuartilesView | None = None  # the view before the filter
        self._given: QuartileLines | None = None  # the lines last given (before the filter)

    def set_filter(self, needle: str) -> None:
        self.needle = needle
        if self._lines is not None:
            self.lines = quartile_lines(self._source, self.fit_width)

    def _filtered(self, view: QuartilesView | None) -> QuartilesView | None:
        if view is None or not self.needle:
            return view
        return replace(view, rows=tuple(r for r in view.rows if matches(self.needle, r.learner, r.scope)))

    @property
    def plain(self) -> str:
        """Every line's text (tests read it; it makes every chart's lines)."""
        return self._lines.plain if self._lines is not None else ""

    def watch_lines(self, lines: QuartileLines | None) -> None:
        if lines is None:
            lines = quartile_lines(None)
        elif lines is self._given:
            return  # the same chart (e.g. only alpha changed): nothing to draw again
        width = self.fit_width
        self._given, self._source = lines, lines.view
        if self.needle and lines.view is not None:
            lines = quartile_lines(self._filtered(lines.view), width)
        elif lines.view is not None and width is not None and width != lines.fit:
            lines = quartile_lines(lines.view, width)  # built for another width (e.g. before the first layout)
        old, self._lines = self._under_cursor(), lines
        self.virtual_size = Size(lines.width + GUTTER, len(lines))
        # the cursor stays on its learner in its chart (a toggle or a new criterion moves the rows)
        found = lines.find(*old) if old is not None else None
        self.cursor = found if found is not None else min(self.cursor, max(lines.rows - 1, 0))
        self.refresh()

    def learner_under_cursor(self) -> str | None:
        """The learner of the row under the cursor, or None (no chart)."""
        at = self._under_cursor()
        return None if at is None else at[1]

    def _under_cursor(self) -> tuple[str, str] | None:
        """``(scope, learner)`` of the row under the cursor."""
        lines = self._lines
        if lines is None or not lines.rows:
            return None
        return lines.learner(min(self.cursor, lines.rows - 1))

    def action_cursor(self, step: int) -> None:
        lines = self._lines
        if lines is None or not lines.rows:
            return
        self.cursor = min(max(self.cursor + step, 0), lines.rows - 1)
        self._show_cursor()
        self.refresh()

    def action_columns(self, step: int) -> None:
        """Right / left: sideways by a column of the charts (a header word's start), not a cell."""
        stops = self._column_stops()
        x = int(self.scroll_x)
        if step > 0:
            target = next((s for s in stops if s > x), x)
        else:
            target = max((s for s in stops if s < x), default=0)
        self.scroll_to(x=min(target, self.max_scroll_x), animate=False)

    def _column_stops(self) -> list[int]:
        """Where the columns of the charts' header line start (after the cursor's gutter)."""
        lines, header = self._lines, ""
        for i in range(len(lines) if lines is not None else 0):  # (the first chart's: made on demand)
            text = lines.line(i).text  # type: ignore[union-attr]
            if text.split()[:1] in (["SK"], ["learner"]):
                header = text
                break
        return [i for i, ch in enumerate(header) if ch != " " and (i == 0 or header[i - 1] == " ")]

    def action_page(self, direction: int) -> None:
        """A screen's worth of rows up or down."""
        self.action_cursor(direction * max(self.scrollable_content_region.height - 4, 1))

    def _show_cursor(self) -> None:
        """Scroll so that the cursor's line is on screen (with its chart's title and header when it
        is the chart's first row)."""
        lines = self._lines
        if lines is None or not lines.rows:
            return
        line = lines.line_of(self.cursor)
        top = line - 3 if lines.first_in_chart(self.cursor) else line
        height = self.scrollable_content_region.height
        if top < self.scroll_y:
            self.scroll_to(y=max(top, 0), animate=False)
        elif line >= self.scroll_y + height:
            self.scroll_to(y=line - height + 1, animate=False)

    def on_click(self, event: events.Click) -> None:
        lines = self._lines
        if lines is not None:
            row = lines.row_of(int(self.scroll_y) + event.y)
            if row is not None:
                self.cursor = row
                self.refresh()

    def on_focus(self) -> None:
        self.refresh()  # the cursor's line is reversed while the panel has focus

    def on_blur(self) -> None:
        self.refresh()

    @property
    def fit_width(self) -> int | None:
        """The cells a chart line may take here (None before the first layout).

        The width inside the padding less the cursor's gutter and a vertical scrollbar, shown or
        not: the chart is almost always taller than the pane, and the width must not depend on
        whether the scrollbar happens to be up when the chart is built.
        """
        if self.full_names:
            return None  # names whole (n): the nominal bar, scrolling sideways
        width = self.content_region.width - self.styles.scrollbar_size_vertical - GUTTER
        return width if self.content_region.width > 0 and width > 0 else None

    def on_resize(self) -> None:
        """Fit the chart to the new width (the app fits it when it builds it; this follows resizes)."""
        lines, width = self._lines, self.fit_width
        if lines is not None and lines.view is not None and width is not None and width != lines.fit:
            self.lines = quartile_lines(self._source, width)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style  # once per paint, not once per line
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        rich_style = self._base_style if self._base_style is not None else self.rich_style
        width = self.scrollable_content_region.width
        lines = self._lines
        if lines is None or index >= len(lines):
            return Strip.blank(width, rich_style)
        at_cursor = bool(lines.rows) and index == lines.line_of(min(self.cursor, lines.rows - 1))
        line = lines.strip(index).crop_extend(scroll_x, scroll_x + width - GUTTER, None)
        if at_cursor and self.has_focus:
            line = line.apply_style(REVERSE)
        gutter = Strip([Segment(CURSOR if at_cursor else " ")], GUTTER)
        return Strip.join([gutter, line]).apply_style(rich_style)


    PANEL_CLASSES = "view-scroll"

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Sequence[tuple[Any, Any]]) -> Any:
        view = analysis.part(part)
        for _, lines in made:  # the same view fitted to the same width: drawn already
            if lines is not None and lines.view is view and lines.fit == width:
                return lines
        return quartile_lines(view, width)

    def show(self, data: Any) -> None:
        self.lines = data


#: The panel of the registry (:mod:`tui.registry`).
Panel = QuartilesPanel
