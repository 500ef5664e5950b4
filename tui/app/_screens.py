"""Dialogs: the export path, a value to type (the rope), the overwrite confirmation, the help screen
(all ModalScreen[T])."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from tui.app._commands import help_rows
from tui.widgets import literal


class StateCheckbox(Checkbox):
    """A checkbox whose mark is a symbol: ``X`` when on, blank when off. Textual's draws ``X`` in
    both states and tells them apart by colour alone, which NO_COLOR and monochrome terminals lose."""

    BUTTON_INNER = " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()
        self.refresh()


#: The suffixes of a figure (``e`` on a view that has one): the name's suffix picks the format.
FIGURE_SUFFIXES = (".svg", ".pdf", ".png")


class ExportScreen(ModalScreen[tuple[str, bool] | None]):
    """Asks where to write a file (the CSV export, or a view spec); Enter accepts, Esc cancels (None).

    The result is ``(path, raw)``; with ``raw_option`` a checkbox offers ``raw``: cells a
    spreadsheet would evaluate are written as they are (else prefixed with ``'``, see
    :func:`stats.core.names.spreadsheet_safe`), for programs that read the CSV. With
    ``figure_option`` a checkbox turns the export into a figure of the view: it swaps the name's
    ``.csv`` for ``.svg`` (and back); a name ending in ``.svg``, ``.pdf`` or ``.png`` is a figure
    in that format (the caller reads the suffix).
    """

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(
        self,
        default: str,
        prompt: str = "Export the current view as CSV",
        *,
        raw_option: bool = False,
        figure_option: bool = False,
    ) -> None:
        super().__init__()
        self.default = default
        self.prompt = prompt
        self.raw_option = raw_option
        self.figure_option = figure_option

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"{self.prompt} (enter writes, esc cancels)", markup=False)
            yield Input(self.default, id="export-path", select_on_focus=False)
            if self.raw_option:
                yield StateCheckbox("formulas as written (no ' before =, +, -, @: for programs)", id="raw-csv")
            if self.figure_option:
                yield StateCheckbox("a figure for a paper: SVG (or name it .pdf, .png)", id="as-figure")

    @on(Checkbox.Changed, "#as-figure")
    def _figure(self, event: Checkbox.Changed) -> None:
        """Swap the name's suffix: ``.csv`` for ``.svg`` when checked, a figure's for ``.csv`` when not."""
        field = self.query_one("#export-path", Input)
        stem, dot, suffix = field.value.rpartition(".")
        if not dot:
            stem, suffix = field.value, ""
        figure = f".{suffix.lower()}" in FIGURE_SUFFIXES
        if event.value and not figure:
            field.value = f"{stem}.svg"
        elif not event.value and figure:
            field.value = f"{stem}.csv"

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        raw = self.raw_option and self.query_one("#raw-csv", StateCheckbox).value
        self.dismiss((path, raw) if path else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AskScreen(ModalScreen[str | None]):
    """Asks for one value (the rope, ``O``); Enter returns the text typed (stripped, maybe empty:
    the caller checks it and says what is wrong), Esc cancels (None). The default is selected, so
    what is typed replaces it."""

    # (app.tcss centres ExportScreen, ConfirmScreen and HelpScreen; this dialog centres itself)
    DEFAULT_CSS = "AskScreen { align: center middle; }"
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, default: str, prompt: str) -> None:
        super().__init__()
        self.default = default
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"{self.prompt} (enter sets, esc cancels)", markup=False)
            yield Input(self.default, id="ask-value")

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter on Overwrite confirms, n or Esc declines."""

    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
        Binding("left,right,tab", "app.focus_next", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(literal(self.question))
            with Horizontal(classes="buttons"):
                yield Button("Overwrite (y)", variant="error", id="yes")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(ModalScreen[None]):
    """Every key, from the one registry of commands."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "close"),
        Binding("j", "scroll('down')", show=False),
        Binding("k", "scroll('up')", show=False),
    ]

    def compose(self) -> ComposeResult:
        # Two columns: the keys, and the descriptions wrapped beside them (the dialog fits 80
        # columns; it scrolls, with its scrollbar shown, when the terminal is short).
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="bold cyan", no_wrap=True)
        table.add_column(ratio=1)
        for key, description in help_rows():
            table.add_row(key, description)
        self.keys_table = table  # (tests print it)
        with VerticalScroll(classes="dialog help", id="help-scroll"):
            yield Static(Text("rankboard keys (esc closes; arrows, j/k, pgup/pgdn scroll)\n", style="bold"))
            yield Static(table, id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_scroll(self, direction: str) -> None:
        scroll = self.query_one("#help-scroll", VerticalScroll)
        scroll.scroll_down() if direction == "down" else scroll.scroll_up()

    def action_close(self) -> None:
        self.dismiss(None)
