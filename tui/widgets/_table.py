"""The table of the explorer's views (VimTable): moves with j/k, shows only whole columns, and
gives the value under its cursor at full precision (the line under it, and ``y``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.coordinate import Coordinate
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable, Static, _data_table
from textual.widgets.data_table import CellDoesNotExist

from tui.widgets._base import Plain, literal

#: What a table's exact line adds after the value.
COPY_HINT = "   (y copies the value)"


class ExactLine(Plain, Static):
    """The line under a table: the value under its cursor at full precision (``y`` copies it)."""

    def follow(self, table: VimTable) -> None:
        exact = table.exact_under_cursor()
        self.show(literal(exact + COPY_HINT) if exact else Text(""))


class VimTable(DataTable):
    """A data table that also moves with j/k and shows only whole columns.

    It scrolls sideways a whole column at a time with the fixed (name) columns frozen: the first
    scrolled column always starts at the fixed columns' edge, and a column that does not fit
    whole at the right edge is left blank (a number cut off is a number not shown); ``‹`` / ``›``
    in the header say that more columns lie to the left / right (symbols: they survive NO_COLOR).
    Home / End go to the first / last column.
    """

    BINDINGS = [Binding("j", "cursor_down", show=False), Binding("k", "cursor_up", show=False)]

    MORE_LEFT, MORE_RIGHT = "\u2039", "\u203a"  # ‹ ›
    _whole: tuple[int, int, int, bool, bool] | None = None
    #: The panel's rule for the value under the cursor: (row key, column key) -> ``(value,
    #: sentence)``: the bare value at full precision (what ``y`` copies) and the sentence that says
    #: what it is (the line under the table), or None (a name, a blank cell); row-cursor tables
    #: give the row's numbers (tab-separated: a spreadsheet's row when pasted).
    exact: Callable[[str, str], tuple[str, str] | None] | None = None
    #: The line under the table that follows the cursor (None: the panel shows it itself).
    exact_line: ExactLine | None = None

    def _update_dimensions(self, new_rows) -> None:  # noqa: ANN001
        """Textual keeps the cells it drew before the column widths were measured (its cell cache
        does not key on the width): a header painted between ``add_column`` and this update stayed
        at its label's width above rows at their numbers' width. Drawn again from here on.

        And laid out at its new height: Textual caches a widget's box model under its
        ``_layout_updates``, which ``refresh(layout=True)`` bumps only when no layout is pending.
        A table shown and filled that the screen laid out before this update had its empty
        height cached under the same key, and an auto-height table stayed 0 rows high (the
        tests view's sign and win/loss/tie tables, on a busy machine; tests/test_table_layout.py)."""
        before = self.virtual_size
        super()._update_dimensions(new_rows)
        self._clear_caches()
        if self.virtual_size != before:
            self._layout_updates += 1
            self.refresh(layout=True)
        else:
            self.refresh()

    def _under_cursor(self) -> tuple[str, str] | None:
        if self.exact is None or not self.row_count or not self.columns:
            return None
        try:
            row_key, column_key = self.coordinate_to_cell_key(self.cursor_coordinate)
        except CellDoesNotExist:
            return None
        return self.exact(str(row_key.value), str(column_key.value))

    def exact_under_cursor(self) -> str | None:
        """The sentence on the value under the cursor at full precision (the line under the
        table), or None."""
        under = self._under_cursor()
        return under[1] if under is not None else None

    def value_under_cursor(self) -> str | None:
        """The bare value under the cursor at full precision (what ``y`` copies), or None."""
        under = self._under_cursor()
        return under[0] if under is not None else None

    def show_exact(self) -> None:
        """Bring the exact line up to date (the panels call it after filling the table)."""
        if self.exact_line is not None:
            self.exact_line.follow(self)

    def watch_cursor_coordinate(self, old_coordinate: Coordinate, new_coordinate: Coordinate) -> None:
        super().watch_cursor_coordinate(old_coordinate, new_coordinate)
        self.show_exact()

    def _edges(self) -> tuple[list[int], list[int], int]:
        """(starts, widths, left): each column's start and width in the table, and the fixed
        columns' width (where the scrolled columns begin on screen)."""
        widths = [c.get_render_width(self) for c in self.ordered_columns]
        starts = [sum(widths[:i]) for i in range(len(widths))]
        left = sum(widths[: self.fixed_columns]) + self._row_label_column_width
        return starts, widths, left

    def _aligned(self) -> list[int]:
        """The scroll offsets that put a scrolled column's start at the fixed columns' edge."""
        starts, _, left = self._edges()
        return [max(starts[f] - left, 0) for f in range(self.fixed_columns, len(starts))]

    @property
    def max_scroll_x(self) -> int:
        """Far enough that the last columns can be shown whole from a column's start (a little
        past the table's right end, which stays blank)."""
        base = super().max_scroll_x
        if base == 0 or not self.columns:
            return base
        return next((x for x in self._aligned() if x >= base), base)

    def visible_columns(self) -> tuple[int, int]:
        """``(first, last)``: the scrolled columns shown whole at the current scroll (``last`` is
        exclusive; ``first == last`` when none fits whole)."""
        starts, widths, left = self._edges()
        view, x = self.scrollable_content_region.width, int(self.scroll_x)
        last = len(starts) - 1  # its right padding may be cut: nothing follows it
        shown = [
            c
            for c in range(self.fixed_columns, len(starts))
            if starts[c] - x >= left and starts[c] + widths[c] - (self.cell_padding if c == last else 0) - x <= view
        ]
        return (shown[0], shown[-1] + 1) if shown else (self.fixed_columns, self.fixed_columns)

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        super()._scroll_cursor_into_view(animate=False)
        if self.cursor_type == "row" or not self.columns:
            return
        starts, widths, left = self._edges()
        view = self.scrollable_content_region.width
        c = self.cursor_column
        if c < self.fixed_columns:
            return
        first, last = self.visible_columns()
        if first <= c < last and starts[first] - left == int(self.scroll_x):
            return  # shown whole from a column's start: stay (the view does not jump about)
        end = starts[c] + widths[c]
        fits = [f for f in range(self.fixed_columns, c + 1) if end - (starts[f] - left) <= view]
        if c < first or not fits:
            f = c  # moving left (or a column wider than the view): the cursor's column first
        else:
            f = fits[0]  # the leftmost first column that still shows the cursor's
        self.scroll_x = min(max(starts[f] - left, 0), self.max_scroll_x)

    # Keys that move the cursor up or down also keep its row on screen in a scrolling pane (only
    # keys: Textual also scrolls the cursor into view on layout, when a hidden view's regions
    # are stale and a pane would jump).

    def action_cursor_up(self) -> None:
        super().action_cursor_up()
        self._reveal_cursor_row()

    def action_cursor_down(self) -> None:
        super().action_cursor_down()
        self._reveal_cursor_row()

    def action_page_up(self) -> None:
        super().action_page_up()
        self._reveal_cursor_row()

    def action_page_down(self) -> None:
        super().action_page_down()
        self._reveal_cursor_row()

    def action_scroll_top(self) -> None:
        super().action_scroll_top()
        self._reveal_cursor_row()

    def action_scroll_bottom(self) -> None:
        super().action_scroll_bottom()
        self._reveal_cursor_row()

    def _reveal_cursor_row(self) -> None:
        """A table as tall as its rows, in a pane that scrolls (the tests and pairs views): the
        pane scrolls to keep the cursor's row on screen (the table cannot: it has no scroll).

        Measured on screen (the table's and the pane's regions come from one layout), by as
        little as the row needs; the first row brings the header with it."""
        pane = self.parent
        if not self.row_count or self.max_scroll_y > 0 or not isinstance(pane, ScrollableContainer):
            return
        if not self.region or not pane.region:
            return  # not laid out yet
        row = self._get_row_region(self.cursor_row)
        top = self.region.y + (0 if self.cursor_row == 0 else row.y) - int(self.scroll_y)
        bottom = self.region.y + row.bottom - int(self.scroll_y)
        view = pane.scrollable_content_region
        if top < view.y:
            pane.scroll_to(y=pane.scroll_y - (view.y - top), animate=False)
        elif bottom > view.bottom:
            pane.scroll_to(y=pane.scroll_y + min(bottom - view.bottom, top - view.y), animate=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._whole = self._whole_columns()  # once per paint, not once per line
        return super().render_lines(crop)

    def _whole_columns(self) -> tuple[int, int, int, bool, bool] | None:
        """``(left, lo, hi, more_left, more_right)``: on screen, the scrolled columns shown whole
        lie in [lo, hi); [left, lo) and [hi, width) hold parts of columns, drawn blank. None
        when there is nothing to blank (no columns, or none fits whole)."""
        if not self.columns:
            return None
        starts, widths, left = self._edges()
        first, last = self.visible_columns()
        if first == last:
            return None
        x = int(self.scroll_x)
        lo, hi = starts[first] - x, starts[last - 1] + widths[last - 1] - x
        return left, lo, hi, first > self.fixed_columns, last < len(starts)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        whole = getattr(self, "_whole", None)
        if whole is None:
            return strip
        left, lo, hi, more_left, more_right = whole
        width = strip.cell_length
        hi = min(hi, width)
        parts = [strip.crop(0, left), _blank(strip.crop(left, lo)), strip.crop(lo, hi), _blank(strip.crop(hi, width))]
        strip = Strip.join(parts)
        if y == 0 and self.show_header:
            if more_left:
                strip = _put(strip, lo, self.MORE_LEFT)
            if more_right and hi > lo:
                strip = _put(strip, hi - 1, self.MORE_RIGHT)
        return strip

    def action_cursor_right(self) -> None:
        if self.cursor_type == "row":  # no cell cursor: the columns scroll, a whole one at a time
            self._scroll_columns(1)
        else:
            super().action_cursor_right()

    def action_cursor_left(self) -> None:
        if self.cursor_type == "row":
            self._scroll_columns(-1)
        else:
            super().action_cursor_left()

    def _scroll_columns(self, step: int) -> None:
        """Scroll one column right (``step`` 1: while columns are hidden on the right) or left."""
        if not self.columns:
            return
        x = int(self.scroll_x)
        offsets = self._aligned()
        if step > 0:
            if self.visible_columns()[1] >= len(self.columns):
                return  # the last column is on screen
            target = next((o for o in offsets if o > x), x)
        else:
            target = max((o for o in offsets if o < x), default=0)
        self.scroll_x = min(target, self.max_scroll_x)

    def action_scroll_home(self) -> None:
        self.move_cursor(column=0)
        self.scroll_x = 0

    def action_scroll_end(self) -> None:
        self.move_cursor(column=len(self.columns) - 1)
        if self.cursor_type == "row":
            self.scroll_x = self.max_scroll_x  # (a column's start: see max_scroll_x)

    def load(self, prepared: PreparedRows) -> None:
        """Add the rows of ``prepared`` (:func:`prepare_rows`, made off the event loop) to this table
        of just those columns, empty: the table ``add_row`` row after row would make, at once.

        ``add_row`` updates the cursor (a reactive), prompts the message pump, hashes its keys in
        Python and queues the row for measuring every cell, each row: about 0.5 ms a row, 5 s of a
        blocked event loop for the folds view's 9,500 rows. Here the rows, their keys and the
        columns' widths come made, and the cursor and the dimensions are updated once; a cell is
        formatted when its row is drawn. Falls back to ``add_row`` when the table is not empty or
        has other columns, or DataTable's bookkeeping is not the one this was written for (Textual
        8.2: tests/test_folds_view.py checks that both give the same table).
        """
        columns = tuple(str(column.key.value) for column in self.ordered_columns)
        fast = (
            prepared.fast
            and self.row_count == 0
            and columns == prepared.columns
            and all(hasattr(self, name) for name in _BOOKKEEPING)
            and isinstance(self._row_locations, _data_table.TwoWayDict)
        )
        if not fast:
            for cells, key in zip(prepared.cells, prepared.keys):
                self.add_row(*cells, key=key)
            return
        # copies (C-level, the keys' hashes reused): the table owns and clears its dictionaries
        self._data = {key: dict(row) for key, row in prepared.data.items()}
        self.rows = dict(prepared.rows)
        self._row_locations = _data_table.TwoWayDict(dict(prepared.locations))
        for column, width in zip(self.ordered_columns, prepared.widths):
            column.content_width = max(column.content_width, width)
        self._require_update_dimensions = True  # no new rows to measure: the virtual size only
        self.cursor_coordinate = self.cursor_coordinate
        if self.row_count and self.columns and self.show_cursor and self.cursor_type != "none":
            self._highlight_cursor()
        self._update_count += 1
        self.check_idle()


#: What :meth:`VimTable.load` sets directly: DataTable's bookkeeping of ``add_row``.
_BOOKKEEPING = ("_data", "rows", "_row_locations", "_require_update_dimensions", "_update_count", "_highlight_cursor")


@dataclass(frozen=True, eq=False)
class PreparedRows:
    """Rows for :meth:`VimTable.load` (:func:`prepare_rows`): the cells and keys, and DataTable's
    records of them (``fast``: when this Textual has the classes they are made of)."""

    columns: tuple[str, ...]
    cells: tuple[tuple[Any, ...], ...]
    keys: tuple[str, ...]
    widths: tuple[int, ...]
    fast: bool
    data: dict[Any, dict[Any, Any]]
    rows: dict[Any, Any]
    locations: dict[Any, int]


#: The (RowKey, Row) of each row key string :func:`prepare_rows` has made (at most
#: :data:`_ROW_RECORDS_MAX`, then made anew).
_ROW_RECORDS: dict[str, tuple[Any, Any]] = {}
_ROW_RECORDS_MAX = 200_000


def _row_record(key: str) -> tuple[Any, Any]:
    row_key = _data_table.RowKey(key)
    record = _ROW_RECORDS[key] = (row_key, _data_table.Row(row_key, 1, None, False))
    return record


def prepare_rows(
    columns: Sequence[str], cells: Sequence[Sequence[Any]], keys: Sequence[str], widths: Sequence[int]
) -> PreparedRows:
    """Make, off the event loop, what :meth:`VimTable.load` adds to a table of ``columns`` (keys):
    ``cells`` (one line high) with the row ``keys`` (distinct) and ``widths``, each column's widest
    cell in terminal cells (what DataTable would measure: ``rich.cells.cell_len`` of a one-line
    text)."""
    columns, cells, keys, widths = tuple(columns), tuple(map(tuple, cells)), tuple(keys), tuple(map(int, widths))
    fast = all(hasattr(_data_table, name) for name in ("Row", "RowKey", "ColumnKey", "TwoWayDict"))
    fast = fast and len(set(keys)) == len(keys) and len(widths) == len(columns)
    data: dict[Any, dict[Any, Any]] = {}
    rows: dict[Any, Any] = {}
    locations: dict[Any, int] = {}
    if fast:
        # a row's cells by the columns' keys as str (DataTable's ColumnKey equals its str; a str
        # hashes in C, a ColumnKey in Python: 57,000 calls for the folds view's 9,500 rows)
        # the RowKey and Row of a key string made once and kept (the folds view shows the same
        # 9,500 keys for every control); a Row of height 1 is never changed by the table
        made = _ROW_RECORDS
        if len(made) > _ROW_RECORDS_MAX:
            made.clear()
        records = [made.get(key) or _row_record(key) for key in keys]
        row_keys = [record[0] for record in records]
        locations = {row_key: index for index, row_key in enumerate(row_keys)}
        data = dict(zip(row_keys, (dict(zip(columns, row)) for row in cells)))
        rows = dict(records)
    return PreparedRows(columns, cells, keys, widths, fast, data, rows, locations)


def subset_rows(prepared: PreparedRows, keep: Sequence[int]) -> PreparedRows:
    """The rows ``keep`` (positions, in order) of ``prepared``, sharing its records (cells, keys,
    DataTable's Row objects and row dictionaries): what the ``/`` filter shows, made without
    making a row again."""
    if not prepared.fast:
        return prepare_rows(
            prepared.columns, [prepared.cells[i] for i in keep], [prepared.keys[i] for i in keep], prepared.widths
        )
    row_keys = list(prepared.rows)  # in the order of the keys
    chosen = [row_keys[i] for i in keep]
    return PreparedRows(
        prepared.columns,
        tuple(prepared.cells[i] for i in keep),
        tuple(prepared.keys[i] for i in keep),
        prepared.widths,
        True,
        {key: prepared.data[key] for key in chosen},
        {key: prepared.rows[key] for key in chosen},
        {key: n for n, key in enumerate(chosen)},
    )


def _blank(strip: Strip) -> Strip:
    """The same cells and styles, every character a space."""
    return Strip([Segment(" " * cell_len(s.text), s.style) for s in strip if not s.control], strip.cell_length)


def _put(strip: Strip, x: int, char: str) -> Strip:
    """``strip`` with the cell at ``x`` replaced by ``char`` (in that cell's style)."""
    if not 0 <= x < strip.cell_length:
        return strip
    cell = strip.crop(x, x + 1)
    style = next((s.style for s in cell if s.text), None)
    return Strip.join([strip.crop(0, x), Strip([Segment(char, style)], 1), strip.crop(x + 1)])
