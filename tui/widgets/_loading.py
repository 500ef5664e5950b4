"""The load bar: what is being read, how far (a progress bar with the fraction and an ETA), Esc."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import ProgressBar, Static


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB" if n >= 100_000 else f"{n / 1e3:,.1f} kB"


def progress_label(done: int, total: int | None) -> str:
    """``reading 12.0 MB of 204.0 MB`` (or ``reading 12.0 MB`` when the total is unknown)."""
    if total is None:
        return f"reading {_mb(done)}"
    return f"reading {_mb(done)} of {_mb(total)}"


def stopped_label(done: int, total: int | None) -> str:
    """Where an Esc stopped the reading: ``12.6 MB of 67.6 MB``."""
    return _mb(done) if total is None else f"{_mb(done)} of {_mb(total)}"


class LoadBar(Horizontal):
    """Shown while the logs load; the app calls :meth:`reading` and :meth:`phase` as the load goes."""

    # The label as wide as its text, the bar taking what is left: the percentage and the ETA stay
    # on screen at 80 columns (a 32-cell label and Textual's 32-cell bar pushed them off).
    DEFAULT_CSS = """
    LoadBar { height: 1; padding: 0 1; background: $boost; }
    LoadBar.-hidden { display: none; }
    LoadBar #load-label { width: auto; max-width: 40; margin-right: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    LoadBar ProgressBar { width: 1fr; }
    LoadBar ProgressBar Bar { width: 1fr; min-width: 6; }
    LoadBar #load-hint { width: auto; color: $text-muted; margin-left: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="load-label")
        yield ProgressBar(total=None, show_eta=True, id="load-bar")
        yield Static("esc cancels", id="load-hint")

    @property
    def label(self) -> str:
        return str(self.query_one("#load-label", Static).content)

    @property
    def bar(self) -> ProgressBar:
        return self.query_one(ProgressBar)

    #: Before the reading's label: the load's mode (``bounded: `` when the logs are aggregated by
    #: blocks, :meth:`phase` of a text starting ``bounded memory``), cleared by :meth:`start`.
    prefix = ""

    def start(self, text: str = "reading the logs") -> None:
        """Show the bar, empty (indeterminate until the first :meth:`reading`)."""
        self.prefix = ""
        self.set_class(False, "-hidden")
        self.bar.update(total=None, progress=0)
        self._say(text)

    def reading(self, done: int, total: int | None) -> None:
        """``done`` of ``total`` bytes read (``total`` None: unknown, the bar stays indeterminate)."""
        self.set_class(False, "-hidden")
        if total is not None:
            self.bar.update(total=max(total, 1), progress=min(done, total) if total else 1)
        # bounded mode: "bounded: 12.0 MB of 204.0 MB", as long as "reading ...": the ETA stays at 80 columns
        self._say(self.prefix + stopped_label(done, total) if self.prefix else progress_label(done, total))

    def phase(self, text: str) -> None:
        """After reading: a step without a measure of its own (the bar stays full); before it, a
        text starting ``bounded memory`` says the load's mode (the reading's label then says it too)."""
        if text.startswith("bounded memory"):
            self.prefix = "bounded: "
        self._say(text)

    def stop(self) -> None:
        self.set_class(True, "-hidden")

    def _say(self, text: str) -> None:
        label = self.query_one("#load-label", Static)
        # laid out again only when the width changes (the label is as wide as its text)
        label.update(Text(text, no_wrap=True), layout=len(text) != len(str(label.content)))
