"""View 2: the ranks table (median and rank per cell, best per row, average ranks, left-out data sets)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from tui.app.widgets._base import Plain, literal, num
from tui.app.widgets._table import VimTable
from tui.render import value_decimals
from tui.view import RanksView


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
