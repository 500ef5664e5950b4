"""View 2: the ranks table (median and rank per cell, best per row, average ranks, left-out data sets)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from tui.viewtypes import RanksView
from tui.widgets import Plain, literal, num


class VimTable(DataTable):
    """A data table that also moves with j/k."""

    BINDINGS = [Binding("j", "cursor_down", show=False), Binding("k", "cursor_up", show=False)]


class Note(Plain, Static):
    pass


class RanksPanel(Vertical):
    """Shows ``view`` (a RanksView, or None) in a DataTable."""

    view: reactive[RanksView | None] = reactive(None, always_update=True)

    def compose(self) -> ComposeResult:
        yield VimTable(id="ranks-table", zebra_stripes=True)
        yield Note(id="ranks-note")

    def watch_view(self, view: RanksView | None) -> None:
        table = self.query_one(VimTable)
        table.clear(columns=True)
        note = self.query_one(Note)
        if view is None:
            note.show(Text("no ranks for this selection"))
            return
        table.add_column(Text("data set"), key="")
        for learner in view.medians.columns:
            table.add_column(literal(learner), key=str(learner))
        for dataset in view.medians.index:
            best = view.best.get(dataset, ())
            cells: list[Text] = [literal(dataset)]
            for learner in view.medians.columns:
                style = "bold green" if learner in best else ""
                rank = view.ranks.loc[dataset, learner]
                cells.append(
                    Text(
                        f"{num(view.medians.loc[dataset, learner])} ({num(rank, 1).rstrip('0').rstrip('.')})",
                        style=style,
                        justify="right",
                    )
                )
            table.add_row(*cells, key=str(dataset))
        table.add_row(
            Text("average rank", style="bold"),
            *(Text(num(view.average[l]), style="bold", justify="right") for l in view.medians.columns),  # noqa: E741
            key="\0average",
        )
        text = Text(no_wrap=True)
        for dataset, reason in view.excluded.items():
            text.append("left out: ", style="yellow")
            text.append_text(literal(dataset))
            text.append(": ")
            text.append_text(literal(reason))
            text.append("\n")
        note.show(text)
        note.set_class(not view.excluded, "-empty")

    def learner_under_cursor(self) -> str | None:
        table = self.query_one(VimTable)
        if not table.row_count or table.cursor_column == 0:
            return None
        return str(list(table.columns)[table.cursor_column].value)
