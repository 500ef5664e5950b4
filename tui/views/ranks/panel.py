"""View 2: the ranks table (median and rank per cell, best per row, average ranks, left-out data sets)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive

from stats import PROCEDURE_NAMES
from tui.formats.names import Fitted, fit_table
from tui.formats.text import value_decimals
from tui.model import Letters, RanksView
from tui.widgets import ExactLine, Note, ViewPanel, VimTable, literal, matches, num, panel_room


@dataclass(frozen=True)
class RanksRows:
    """Render data for :class:`RanksPanel` (built off the event loop by :func:`ranks_rows`)."""

    columns: tuple[tuple[Text, str], ...]  # (label, key)
    rows: tuple[tuple[Text, ...], ...]
    keys: tuple[str, ...]
    note: Text
    excluded: bool
    exact: tuple[tuple[str, ...], ...] = ()  # per row, per learner: the cell's numbers at full precision
    values: tuple[tuple[float, ...], ...] = ()  # per data set, per learner: the median (rows sort by it)
    average: tuple[float, ...] = ()  # per learner: the average rank (columns sort by it)


def ranks_rows(view: RanksView | None, letters: Letters | None = None) -> RanksRows | None:
    """The table's columns and rows from numpy arrays (no per-cell pandas indexing); ``letters``
    (the pairs procedure's compact letters) make a row under the average ranks."""
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
    keys: tuple[str, ...] = (*(str(d) for d in datasets), "\0average")
    exact = [
        tuple(f"median {float(values[i, j])!r}, rank {float(ranks[i, j])!r}" for j in range(len(learners)))
        for i in range(len(datasets))
    ]
    exact.append(tuple(f"average rank {float(view.average[x])!r}" for x in learners))
    text = Text(no_wrap=True)
    if letters is not None:
        name = PROCEDURE_NAMES[letters.procedure]
        rows.append((Text("letters"), *(Text(letters.letters[str(x)], justify="right") for x in learners)))
        keys = (*keys, "\0letters")
        exact.append(tuple(f"letters {letters.letters[str(x)]} ({name}, alpha = {letters.alpha:g})" for x in learners))
        text.append(letters.basis + "\n")
    for dataset, reason in view.excluded.items():
        text.append("left out: ", style="yellow")
        text.append_text(literal(dataset))
        text.append(": ")
        text.append_text(literal(reason))
        text.append("\n")
    return RanksRows(
        tuple(columns),
        tuple(rows),
        keys,
        text,
        bool(view.excluded) or letters is not None,
        tuple(exact),
        tuple(tuple(float(v) for v in row) for row in values),
        tuple(float(view.average[x]) for x in learners),
    )


def _sorted(indices: list[int], value, names: list[str], descending: bool) -> list[int]:  # noqa: ANN001
    """``indices`` by ``value(i)`` (names break ties; a missing value last either way)."""

    def key(i: int) -> tuple[bool, float, str]:
        v = value(i)
        missing = not np.isfinite(v)
        return missing, (0.0 if missing else (-v if descending else v)), names[i]

    return sorted(indices, key=key)


#: The header's mark of the sorted column (a symbol: it survives NO_COLOR).
SORT_MARK = {False: " \u2191", True: " \u2193"}  # ↑ ascending, ↓ descending


class RanksPanel(ViewPanel, Vertical):
    """Shows ``rows`` (a :class:`RanksRows`, or None) in a DataTable, its rows and columns in the
    order :meth:`sort` chose (the logs' order at first; a new analysis keeps the order)."""

    rows: reactive[RanksRows | None] = reactive(None, always_update=True, init=False)

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.row_order: tuple[str, bool] | None = None  # (column key: "" the names, descending)
        self.column_order: bool | None = None  # the learners by average rank: descending?
        self.needle = ""  # the / filter (case-folded): only the data sets whose name contains it
        self._room: int | None = None  # the width the names were fitted to

    def set_filter(self, needle: str) -> None:
        self.needle = needle
        self._fill(self.rows)

    def shown_order(self) -> tuple[list[str], list[str]] | None:
        """The data sets and the learners in the order the table shows them (filtered and sorted),
        for the export; None before there are ranks."""
        data = self.rows
        if data is None:
            return None
        rows, cols = self._order(data)
        datasets = [str(data.keys[i]) for i in rows if not str(data.keys[i]).startswith("\0")]
        return datasets, [str(data.columns[j][1]) for j in cols[1:]]

    def compose(self) -> ComposeResult:
        table = VimTable(id="ranks-table", zebra_stripes=True, fixed_columns=1)  # names stay when scrolled
        table.exact = self._exact
        table.exact_line = ExactLine(id="ranks-exact")
        yield table
        yield table.exact_line
        yield Note(id="ranks-note")

    def watch_rows(self, data: RanksRows | None) -> None:
        self._fill(data)

    def _order(self, data: RanksRows) -> tuple[list[int], list[int]]:
        """The data rows and the columns of ``data`` in the order shown (the average row, and the
        letters row, last)."""
        n_rows, n_cols = sum(not k.startswith("\0") for k in data.keys), len(data.columns)
        rows = [i for i in range(n_rows) if matches(self.needle, data.keys[i])]
        cols = list(range(1, n_cols))
        learners = [key for _, key in data.columns]
        if self.column_order is not None and data.average:
            cols = _sorted(cols, lambda j: data.average[j - 1], learners, self.column_order)
        if self.row_order is not None and self.row_order[0] not in learners:
            self.row_order = None  # sorted by a learner no longer shown: the logs' order
        if self.row_order is not None:
            key, descending = self.row_order
            names = [str(k) for k in data.keys]
            if key == "":
                rows = sorted(rows, key=lambda i: names[i], reverse=descending)
            elif data.values:
                j = learners.index(key) - 1
                rows = _sorted(rows, lambda i: data.values[i][j], names, descending)
        return [*rows, *range(n_rows, len(data.keys))], [0, *cols]

    def _fill(self, data: RanksRows | None) -> None:
        table = self.query_one(VimTable)
        at = table.cursor_coordinate  # kept: a toggle that drops a row does not send the cursor home
        keys = self._keys_under_cursor()
        table.clear(columns=True)
        note = self.query_one("#ranks-note", Note)
        if data is None:
            note.show(Text("no ranks for this selection"))
            return
        rows, cols = self._order(data)
        names, heads = self._fitted(data, table)
        for j in cols:
            label, key = data.columns[j]
            label = Text(heads[label.plain], justify="right") if j else label
            if self.row_order is not None and self.row_order[0] == key:
                label = label + Text(SORT_MARK[self.row_order[1]])
            table.add_column(label, key=key)
        for i in rows:
            cells = [data.rows[i][j] for j in cols]
            if not data.keys[i].startswith("\0"):
                cells[0] = Text(names[cells[0].plain])
            if data.keys[i] == "\0average" and self.column_order is not None:
                cells[0] = cells[0] + Text(SORT_MARK[self.column_order])
            table.add_row(*cells, key=data.keys[i])
        row, col = min(at.row, table.row_count - 1), min(at.column, len(table.columns) - 1)
        if keys is not None:  # the same cell, wherever the sort put it (when it is still shown)
            row_keys = [str(r.value) for r in table.rows]
            col_keys = [str(c.value) for c in table.columns]
            row = row_keys.index(keys[0]) if keys[0] in row_keys else row
            col = col_keys.index(keys[1]) if keys[1] in col_keys else col
        table.move_cursor(row=row, column=col)
        table.show_exact()
        text = data.note
        legends = [legend for legend in (heads.legend("learners"), names.legend("data sets")) if legend]
        if legends:
            text = Text("\n".join(legends) + "\n", style="dim") + text
        if self.needle and all(data.keys[i].startswith("\0") for i in rows):  # only the average rows: say why
            text = Text("no data set name contains the / filter (esc in it clears it)\n") + text
        note.show(text)
        note.set_class(not data.excluded and text is data.note, "-empty")

    def _fitted(self, data: RanksRows, table: VimTable) -> tuple[Fitted, Fitted]:
        """The data sets' and the learners' names as shown (:func:`fit_table`): headers no wider
        than their numbers, row labels leaving three number columns on screen."""
        self._room = panel_room(self, table)
        learners = [label.plain for label, _ in data.columns[1:]]
        datasets = [data.rows[i][0].plain for i, key in enumerate(data.keys) if not key.startswith("\0")]
        widths = [max((row[j].cell_len for row in data.rows), default=0) for j in range(1, len(data.columns))]
        return fit_table(datasets, learners, widths, self._room, full=self.full_names, label=len("average rank") + 2)

    def on_resize(self) -> None:
        """Names fitted again to the new width."""
        if self.rows is not None and panel_room(self, self.query_one(VimTable)) != self._room:
            self._fill(self.rows)

    def _keys_under_cursor(self) -> tuple[str, str] | None:
        table = self.query_one(VimTable)
        if not table.row_count or not table.columns:
            return None
        row, col = table.cursor_coordinate
        return str(list(table.rows)[row].value), str(list(table.columns)[col].value)

    def sort(self, descending: bool) -> str:
        """``<`` / ``>``: the rows by the column under the cursor (on the average-rank row, the
        learners by average rank); the same key again goes back to the logs' order. Returns the
        notice that says what it did."""
        data, keys = self.rows, self._keys_under_cursor()
        if data is None or keys is None:
            return "nothing to sort"
        row_key, col_key = keys
        way = "descending" if descending else "ascending"
        if row_key.startswith("\0"):  # the average-rank row: the columns
            if self.column_order == descending:
                self.column_order, message = None, "learners in the logs' order"
            else:
                best = "worst first" if descending else "best first"
                self.column_order, message = descending, f"learners by average rank, {best}"
        elif self.row_order == (col_key, descending):
            self.row_order, message = None, "rows in the logs' order"
        else:
            self.row_order = (col_key, descending)
            what = "data set name" if col_key == "" else f"{col_key}'s median"
            message = f"rows by {what}, {way} ({'>' if descending else '<'} again: logs' order)"
        self._fill(data)
        return message

    def exact_under_cursor(self) -> str | None:
        return self.query_one(VimTable).exact_under_cursor()

    def value_under_cursor(self) -> str | None:
        return self.query_one(VimTable).value_under_cursor()

    def _exact(self, row_key: str, learner: str) -> tuple[str, str] | None:
        """A cell at full precision: its value (the median; the average rank; the letters) and
        the sentence ("anneal, nbc: median 96.09340659, rank 5.0")."""
        data = self.rows
        if data is None or not data.exact or learner == "":
            return None
        learners = [key for _, key in data.columns]
        if row_key not in data.keys or learner not in learners:
            return None  # (the table is being filled)
        i, j = data.keys.index(row_key), learners.index(learner) - 1
        if i >= len(data.exact):
            return None
        if i < len(data.values):
            value = repr(data.values[i][j])
        elif row_key == "\0average" and data.average:
            value = repr(data.average[j])
        else:
            value = data.rows[i][j + 1].plain.strip()  # the letters
        return value, f"{row_key.lstrip(chr(0))}, {learner}: {data.exact[i][j]}"

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


    PREPARED_AHEAD = True

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Sequence[tuple[Any, Any]]) -> Any:
        for before, rows in made:  # the same ranks and letters: the same rows
            if before.ranks is analysis.ranks and before.letters is analysis.letters:
                return rows
        return ranks_rows(analysis.ranks, analysis.letters)

    def show(self, data: Any) -> None:
        self.rows = data

    def toggle_under_cursor(self) -> tuple[str, str] | None:
        """The row's data set (on the average-rank row, the column's learner)."""
        dataset, learner = self.dataset_under_cursor(), self.learner_under_cursor()
        return ("datasets", dataset) if dataset else ("learners", learner) if learner else None


#: The panel of the registry (:mod:`tui.registry`).
Panel = RanksPanel
