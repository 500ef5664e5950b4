"""The status line: what is selected and what is loaded, live or paused always on screen.

Fields are dropped from the least important up when the line is too narrow, never the state
(live, paused, loading) and never the criterion with its direction.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from stats.core.names import printable
from tui.model import Selection


class StatusLine(Static):
    """One line of facts about the selection and what is loaded; every field is an attribute set by the app."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    files: reactive[int] = reactive(0)
    lines: reactive[int] = reactive(0)
    #: data sets x learners in the table; None while a new model is analysed (the sidebar may
    #: list its names already: the line says "analysing", never the old or an empty shape)
    shape: reactive[tuple[int, int] | None] = reactive((0, 0))
    updated: reactive[str] = reactive("-")
    live: reactive[bool] = reactive(True)
    loading: reactive[bool] = reactive(False)
    selection: reactive[Selection | None] = reactive(None)
    control: reactive[str | None] = reactive(None)
    filter: reactive[str] = reactive("")  # the / filter: the views show only the rows it matches

    def fields(self) -> list[tuple[int, str, str]]:
        """(priority, long form, short form) in display order; :data:`STEPS` shortens and drops
        them until the line fits (the state, priority 0, is never dropped)."""
        out: list[tuple[int, str, str]] = []
        sel = self.selection
        if sel is not None:
            name = printable(sel.criterion)
            direction = "higher" if sel.higher_is_better else "lower"
            out.append((0, f"{name} {direction}-better", f"{name} {direction}"))
            if self.control:
                out.append((2, f"control {printable(self.control)}", f"vs {printable(self.control)}"))
            out.append((3, f"alpha {sel.alpha:g}", f"a={sel.alpha:g}"))
            out.append((4, sel.procedure, sel.procedure))
            if sel.rope is not None:
                out.append((6, f"rope {sel.rope:g}", f"rope {sel.rope:g}"))
        if self.filter:  # never dropped: it hides rows of the views while it is on
            out.append((0, f"filter {printable(self.filter)}", f"/{printable(self.filter)}"))
        if self.shape is None:
            out.append((1, "analysing...", "analysing"))
        else:
            n, k = self.shape
            out.append((1, f"{n} data sets x {k} learners", f"{n}x{k}"))
        out.append((5, f"{self.lines} lines", f"{self.lines} lines"))
        out.append((8, f"{self.files} files", f"{self.files} files"))
        out.append((7, f"updated {self.updated}", self.updated))
        state = "loading..." if self.loading else ("live" if self.live else "paused")
        out.append((0, state, state))
        return out

    def full_text(self) -> str:
        """Every field in its long form (what a wide terminal shows)."""
        return " | ".join(long for _, long, _ in self.fields())

    #: How the line is made to fit, step by step: ("short" | "drop", priority).
    STEPS = (
        ("drop", 8),  # files
        ("drop", 7),  # last update
        ("short", 3),  # alpha
        ("short", 2),  # control
        ("short", 0),  # criterion and direction
        ("short", 1),  # data sets x learners
        ("drop", 6),  # rope
        ("drop", 5),  # lines
        ("drop", 4),  # procedure
        ("drop", 3),
        ("drop", 2),
        ("drop", 1),
    )

    def render(self) -> Text:
        fields = [list(f) for f in self.fields()]  # [priority, shown, short]
        width = self.content_size.width or 1000

        def text() -> str:
            return " | ".join(f[1] for f in fields)

        for step, priority in self.STEPS:
            if len(text()) <= width:
                break
            if step == "drop":
                fields = [f for f in fields if f[0] != priority]
            else:
                for f in fields:
                    if f[0] == priority:
                        f[1] = f[2]
        return Text(text(), no_wrap=True, overflow="ellipsis")
