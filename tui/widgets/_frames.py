"""DataFrames of numbers as table cells: adjusted p-values marked ``*`` when rejected (the symbol
carries the meaning without colour), as rows of a :class:`VimTable` or as a text table."""

from __future__ import annotations

import pandas as pd
from rich.text import Text

from stats import fmt_p
from tui.formats.names import Fitted, fit_table
from tui.widgets._base import literal, num, text_table
from tui.widgets._table import VimTable


def apv_cell(value: float, alpha: float) -> Text:
    """An adjusted p-value, marked ``*`` (bold red) when rejected at ``alpha``: the symbol
    carries the meaning without colour (NO_COLOR, monochrome terminals)."""
    rejected = bool(pd.notna(value) and float(value) <= alpha)
    shown = fmt_p(float(value)) if pd.notna(value) else "-"  # the reports' p-value rule
    return Text(shown + ("*" if rejected else " "), style="bold red" if rejected else "", justify="right")


def frame_cells(frame: pd.DataFrame, alpha: float | None = None, marked: tuple[str, ...] = ()) -> list[list[Text]]:
    """A DataFrame of numbers as rows of cells (the index's name first); the ``marked`` columns
    hold adjusted p-values and get :func:`apv_cell`'s mark at ``alpha`` (raw p-values and
    statistics are never marked)."""
    rows = []
    for idx, values in frame.iterrows():
        row: list[Text] = [literal(idx)]
        for column, v in zip(frame.columns, values):
            if alpha is not None and column in marked and isinstance(v, float):
                row.append(apv_cell(v, alpha))
            elif column == "p" and isinstance(v, float):
                row.append(Text(fmt_p(v) + " ", justify="right"))  # a raw p-value: the same rule, never marked
            else:
                row.append(Text((num(v, 4) if isinstance(v, float) else str(v)) + " ", justify="right"))
        rows.append(row)
    return rows


def frame_text(frame: pd.DataFrame, alpha: float | None = None, marked: tuple[str, ...] = ()) -> Text:
    """:func:`frame_cells` as a text table."""
    return text_table([""] + [literal(c) for c in frame.columns], frame_cells(frame, alpha, marked))


def fill_table(
    table: VimTable,
    frame: pd.DataFrame,
    alpha: float | None = None,
    marked: tuple[str, ...] = (),
    *,
    room: int | None = None,
    full: bool = False,
    learner_columns: bool = False,
) -> Fitted:
    """``table`` shows :func:`frame_cells` of ``frame`` (its columns and rows keyed by name; the
    cursor stays on its place when it still exists). Names fitted to ``room`` cells by the rule of
    every view (:func:`tui.formats.names.fit_table`: three number columns stay on screen): the
    rows' names, and the columns' when they are ``learner_columns`` (else they are the names of
    statistics, kept whole); returns how the row names were fitted (their legend), the column
    names' when only those were cut."""
    at = table.cursor_coordinate
    table.clear(columns=True)
    cells = frame_cells(frame, alpha, marked)
    rows = [c[0].plain for c in cells]
    columns = [literal(c).plain for c in frame.columns]
    widths = [max((row[j].cell_len for row in cells), default=0) for j in range(1, len(columns) + 1)]
    if not learner_columns:  # a statistic's name is not cut: its column is as wide as it
        widths = [max(w, len(c)) for w, c in zip(widths, columns)]
    names, heads = fit_table(rows, columns, widths, room, full=full)
    table.add_column(Text(""), key="")
    for column, shown in zip(frame.columns, columns):
        table.add_column(Text(heads[shown], justify="right"), key=str(column))  # over its right-aligned numbers
    for idx, row in zip(frame.index, cells):
        row[0] = Text(names[row[0].plain])
        table.add_row(*row, key=str(idx))
    table.move_cursor(row=min(at.row, table.row_count - 1), column=min(at.column, len(table.columns) - 1))
    table.show_exact()
    return heads if heads.cut and not names.cut else names
