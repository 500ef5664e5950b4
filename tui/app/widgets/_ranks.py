"""View 2: the ranks table (median and rank per cell, best per row, average ranks, left-out data sets)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Static, _data_table

from tui.app.widgets._base import Plain, literal, num
from tui.render import value_decimals
from tui.view import RanksView


class VimTable(DataTable):
    """A data table that also moves with j/k, scrolls sideways a whole column at a time (the first
    scrolled column always starts at the fixed columns' edge: no number cut at the left), and goes
    to the first / last column with Home / End."""

    BINDINGS = [Binding("j", "cursor_down", show=False), Binding("k", "cursor_up", show=False)]

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        super()._scroll_cursor_into_view(animate=False)
        if self.cursor_type == "row" or not self.columns:
            return
        widths = [c.get_render_width(self) for c in self.ordered_columns]
        left = sum(widths[: self.fixed_columns]) + self._row_label_column_width
        starts = [sum(widths[:i]) for i in range(len(widths))]
        view = self.scrollable_content_region.width
        c = self.cursor_column
        if c < self.fixed_columns:
            return
        end = starts[c] + widths[c]
        for f in range(self.fixed_columns, c + 1):  # the leftmost first column that still shows the cursor's
            if end - (starts[f] - left) <= view:
                self.scroll_x = min(max(starts[f] - left, 0), self.max_scroll_x)
                return

    def action_scroll_home(self) -> None:
        self.move_cursor(column=0)
        self.scroll_x = 0

    def action_scroll_end(self) -> None:
        self.move_cursor(column=len(self.columns) - 1)

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
        row_keys = [_data_table.RowKey(key) for key in keys]
        locations = {row_key: index for index, row_key in enumerate(row_keys)}
        data = dict(zip(row_keys, (dict(zip(columns, row)) for row in cells)))
        row_class = _data_table.Row
        rows = dict(zip(row_keys, (row_class(row_key, 1, None, False) for row_key in row_keys)))
    return PreparedRows(columns, cells, keys, widths, fast, data, rows, locations)


class Note(Plain, Static):
    pass


@dataclass(frozen=True)
class RanksRows:
    """Render data for :class:`RanksPanel` (built off the event loop by :func:`ranks_rows`)."""

    columns: tuple[tuple[Text, str], ...]  # (label, key)
    rows: tuple[tuple[Text, ...], ...]
    keys: tuple[str, ...]
    note: Text
    excluded: bool
    exact: tuple[tuple[str, ...], ...] = ()  # per row, per learner: the cell's numbers at full precision


def ranks_rows(view: RanksView | None) -> RanksRows | None:
    """The table's columns and rows from numpy arrays (no per-cell pandas indexing)."""
    if view is None:
        return None
    medians = view.medians
    learners = list(medians.columns)
    datasets = list(medians.index)
    values = medians.to_numpy(dtype=float, na_value=np.nan)
    ranks = view.ranks.reindex(index=medians.index, columns=medians.columns).to_numpy(dtype=float, na_value=np.nan)
    columns = ((Text("data set"), ""), *((literal(learner), str(learner)) for learner in learners))
    finite = np.abs(values[np.isfinite(values)])
    digits = value_decimals(float(finite.max()) if finite.size else 0.0)  # one rule for the criterion
    rows: list[tuple[Text, ...]] = []
    for i, dataset in enumerate(datasets):
        best = view.best.get(dataset, ())
        cells: list[Text] = [literal(dataset)]
        for j, learner in enumerate(learners):
            rank = num(ranks[i, j], 1).rstrip("0").rstrip(".")
            cells.append(
                Text(
                    f"{values[i, j]:.{digits}f} ({rank})" if np.isfinite(values[i, j]) else f"- ({rank})",
                    style="bold green" if learner in best else "",
                    justify="right",
                )
            )
        rows.append(tuple(cells))
    rows.append(
        (
            Text("average rank", style="bold"),
            *(Text(num(view.average[l]), style="bold", justify="right") for l in learners),  # noqa: E741
        )
    )
    keys = (*(str(d) for d in datasets), "\0average")
    exact = [
        tuple(f"median {float(values[i, j])!r}, rank {float(ranks[i, j])!r}" for j in range(len(learners)))
        for i in range(len(datasets))
    ]
    exact.append(tuple(f"average rank {float(view.average[x])!r}" for x in learners))
    text = Text(no_wrap=True)
    for dataset, reason in view.excluded.items():
        text.append("left out: ", style="yellow")
        text.append_text(literal(dataset))
        text.append(": ")
        text.append_text(literal(reason))
        text.append("\n")
    return RanksRows(tuple(columns), tuple(rows), keys, text, bool(view.excluded), tuple(exact))


class RanksPanel(Vertical):
    """Shows ``rows`` (a :class:`RanksRows`, or None) in a DataTable."""

    rows: reactive[RanksRows | None] = reactive(None, always_update=True, init=False)

    def compose(self) -> ComposeResult:
        yield VimTable(id="ranks-table", zebra_stripes=True, fixed_columns=1)  # names stay when scrolled
        yield Note(id="ranks-exact")
        yield Note(id="ranks-note")

    def watch_rows(self, data: RanksRows | None) -> None:
        table = self.query_one(VimTable)
        at = table.cursor_coordinate  # kept: a toggle that drops a row does not send the cursor home
        table.clear(columns=True)
        note = self.query_one("#ranks-note", Note)
        if data is None:
            note.show(Text("no ranks for this selection"))
            return
        for label, key in data.columns:
            table.add_column(label, key=key)
        for cells, key in zip(data.rows, data.keys):
            table.add_row(*cells, key=key)
        table.move_cursor(row=min(at.row, table.row_count - 1), column=min(at.column, len(table.columns) - 1))
        self._show_exact()
        note.show(data.note)
        note.set_class(not data.excluded, "-empty")

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        self._show_exact()

    def exact_under_cursor(self) -> str | None:
        """The cell under the cursor at full precision ("anneal, nbc: median 96.09340659, rank 5.0")."""
        data, table = self.rows, self.query_one(VimTable)
        if data is None or not table.row_count or not data.exact:
            return None
        row, col = table.cursor_coordinate
        if col == 0 or row >= len(data.exact):
            return None
        name = str(list(table.rows)[row].value).lstrip("\0")
        learner = str(list(table.columns)[col].value)
        return f"{name}, {learner}: {data.exact[row][col - 1]}"

    def _show_exact(self) -> None:
        exact = self.exact_under_cursor()
        box = self.query_one("#ranks-exact", Note)
        box.show(literal(exact + "   (y copies)") if exact else Text(""))

    def dataset_under_cursor(self) -> str | None:
        """The data set of the row under the cursor (None on the average-rank row)."""
        table = self.query_one(VimTable)
        if not table.row_count:
            return None
        key = str(list(table.rows)[table.cursor_row].value)
        return None if key.startswith("\0") else key

    def learner_under_cursor(self) -> str | None:
        table = self.query_one(VimTable)
        if not table.row_count or table.cursor_column == 0:
            return None
        return str(list(table.columns)[table.cursor_column].value)
