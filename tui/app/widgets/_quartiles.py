"""View 1: the quartile charts, in a virtualized panel (a ``ScrollView`` drawing only the visible
lines with ``render_line``; the lines themselves are made lazily, see :mod:`tui.app.widgets._quartile_lines`)."""

from __future__ import annotations

from rich.style import Style
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.app.widgets._quartile_lines import QuartileLines, quartile_lines


class QuartilesPanel(ScrollView):
    """Shows ``lines`` (a :class:`QuartileLines`); only the visible lines are drawn."""

    lines: reactive[QuartileLines | None] = reactive(None, always_update=True, layout=False, init=False)

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self._lines: QuartileLines | None = None
        self._base_style: Style | None = None

    @property
    def plain(self) -> str:
        """Every line's text (tests read it; it makes every chart's lines)."""
        return self._lines.plain if self._lines is not None else ""

    def watch_lines(self, lines: QuartileLines | None) -> None:
        if lines is None:
            lines = quartile_lines(None)
        elif lines is self._lines:
            return  # the same chart (e.g. only alpha changed): nothing to draw again
        width = self.fit_width
        if lines.view is not None and width is not None and width != lines.fit:
            lines = quartile_lines(lines.view, width)  # built for another width (e.g. before the first layout)
        self._lines = lines
        self.virtual_size = Size(lines.width, len(lines))
        self.refresh()

    @property
    def fit_width(self) -> int | None:
        """The cells a chart line may take here (None before the first layout).

        The width inside the padding less a vertical scrollbar, shown or not: the chart is
        almost always taller than the pane, and the width must not depend on whether the
        scrollbar happens to be up when the chart is built.
        """
        width = self.content_region.width - self.styles.scrollbar_size_vertical
        return width if self.content_region.width > 0 and width > 0 else None

    def on_resize(self) -> None:
        """Fit the chart to the new width (the app fits it when it builds it; this follows resizes)."""
        lines, width = self._lines, self.fit_width
        if lines is not None and lines.view is not None and width is not None and width != lines.fit:
            self.lines = quartile_lines(lines.view, width)

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
        return lines.strip(index).crop_extend(scroll_x, scroll_x + width, rich_style).apply_style(rich_style)
