"""View 4: the all-pairs APV matrix of one procedure, two-sample tests of one pair, contrast estimation."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from stats import PROCEDURE_NAMES, fmt_p
from tui.app.widgets._base import literal, matches, num, text_table
from tui.app.widgets._ranks import Note
from tui.app.widgets._table import ExactLine, VimTable
from tui.model import PairsView


def _result(name: str, result: object) -> Text:
    """A test's result as it prints itself ("Sign test: 3 wins of 9, ..."); a string (why the test
    could not run) after the test's name."""
    if isinstance(result, str):
        return Text(f"{name}: ", style="bold", no_wrap=True) + literal(result)
    return literal(str(result))


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


def _cell(frame: pd.DataFrame, row: str, column: str) -> float:
    """``frame``'s number by the table's keys (the names as strings)."""
    rows = {str(x): x for x in frame.index}
    columns = {str(x): x for x in frame.columns}
    return float(frame.loc[rows[row], columns[column]])


def fill_table(table: VimTable, frame: pd.DataFrame, alpha: float | None = None, marked: tuple[str, ...] = ()) -> None:
    """``table`` shows :func:`frame_cells` of ``frame`` (its columns and rows keyed by name; the
    cursor stays on its place when it still exists)."""
    at = table.cursor_coordinate
    table.clear(columns=True)
    table.add_column(Text(""), key="")
    for column in frame.columns:
        label = literal(column)
        label.justify = "right"  # over its right-aligned numbers
        table.add_column(label, key=str(column))
    for idx, cells in zip(frame.index, frame_cells(frame, alpha, marked)):
        table.add_row(*cells, key=str(idx))
    table.move_cursor(row=min(at.row, table.row_count - 1), column=min(at.column, len(table.columns) - 1))
    table.show_exact()


class PairsPanel(VerticalScroll):
    """Shows ``view`` (a PairsView or None); Enter on a matrix cell posts :class:`PairChosen`."""

    @dataclass
    class PairChosen(Message):
        pair: tuple[str, str]

    view: reactive[PairsView | None] = reactive(None, always_update=True, init=False)
    can_focus = False  # the tables get the keys (and scroll the pane to their cursor)
    needle = ""  # the / filter (case-folded): the rows of the learners whose name contains it

    def set_filter(self, needle: str) -> None:
        self.needle = needle
        self.watch_view(self.view)

    def compose(self) -> ComposeResult:
        yield Note(id="pairs-head")
        matrix = VimTable(id="pairs-table", fixed_columns=1)  # names stay when scrolled
        matrix.exact, matrix.exact_line = self._exact_apv, ExactLine(id="pairs-exact")
        yield matrix
        yield matrix.exact_line
        yield Note(id="pairs-detail")
        contrast = VimTable(id="contrast-table", fixed_columns=1)
        contrast.exact, contrast.exact_line = self._exact_contrast, ExactLine(id="contrast-exact")
        yield contrast
        yield contrast.exact_line

    def _exact_apv(self, a: str, b: str) -> str | None:
        """A cell of the matrix at full precision ("KNN vs NB: Holm APV 0.0288..., rejected at ...")."""
        view = self.view
        if view is None or b == "" or a == b:
            return None
        value = _cell(view.matrix, a, b)
        rejected = f", rejected at alpha = {view.alpha:g}" if value <= view.alpha else ""
        return f"{a} vs {b}: {PROCEDURE_NAMES[view.procedure]} APV {value!r}{rejected}"

    def _exact_contrast(self, a: str, b: str) -> str | None:
        view = self.view
        if view is None or b == "":
            return None
        return f"{a} - {b}: contrast (median of differences) {_cell(view.contrast, a, b)!r}"

    def watch_view(self, view: PairsView | None) -> None:
        table, contrast = self.query_one("#pairs-table", VimTable), self.query_one("#contrast-table", VimTable)
        at = table.cursor_coordinate
        table.clear(columns=True)
        contrast.clear(columns=True)
        head, detail = self.query_one("#pairs-head", Note), self.query_one("#pairs-detail", Note)
        if view is None:
            head.show(Text("no pairs for this selection"))
            detail.show(Text(""))
            return
        name = PROCEDURE_NAMES[view.procedure]
        # the lines wrap (a number cut off at the right edge is a number not shown)
        head_text = Text(f"{name} adjusted p-values (APVs); * rejected at alpha = {view.alpha:g}")
        if view.two_sample is not None:
            kind = "Wilcoxon signed-ranks" if view.two_sample.test == "wilcoxon" else "sign"
            head_text.append(f"\neach pair's own {kind} test over the data sets, Holm-adjusted")
        if view.replaced:
            head_text.append(f"\n{view.replaced}", style="bold yellow")
        head_text.append("\nenter picks the pair, m cycles the procedure")
        head.show(head_text)
        table.add_column(Text(""), key="")
        for learner in view.matrix.columns:
            label = literal(learner)
            label.justify = "right"  # over its right-aligned numbers, as in the contrast table below
            table.add_column(label, key=str(learner))
        for learner, values in view.matrix.iterrows():
            if not matches(self.needle, learner):
                continue
            cells = [literal(learner)]
            cells.extend(apv_cell(v, view.alpha) for v in values)
            table.add_row(*cells, key=str(learner))
        a, b = view.pair
        text = Text("\npair: ", style="bold")
        text.append_text(literal(b))
        text.append(" vs ")
        text.append_text(literal(a))
        text.append("\n")
        text.append_text(_result("Wilcoxon signed-ranks", view.wilcoxon) + "\n")
        text.append_text(_result("sign test", view.sign) + "\n")
        if view.effects is not None:  # how large: positive favours the first named
            text.append("effect sizes", style="bold")
            text.append(" (positive: ")
            text.append_text(literal(view.effects.a))
            text.append(" better; delta is Cliff's)\n")
            for line in view.effects.lines():
                text.append("  " + line + "\n")
        text.append("\ncontrast estimation (row - column, medians of differences)", style="bold")
        detail.show(text)
        fill_table(contrast, view.contrast[[matches(self.needle, x) for x in view.contrast.index]])
        # the cursors stay where they were (a new procedure or alpha does not send them home)
        table.move_cursor(row=min(at.row, table.row_count - 1), column=min(at.column, len(table.columns) - 1))
        table.show_exact()
        contrast.show_exact()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        if self.view is None:
            return
        names = {str(x): x for x in self.view.matrix.columns}
        a, b = str(event.cell_key.row_key.value), str(event.cell_key.column_key.value)
        if a in names and b in names and a != b:  # (by the keys: the filter may leave out rows)
            self.post_message(self.PairChosen((names[a], names[b])))
