"""The status line: what is selected and what is loaded, live or paused always on screen.

Fields are dropped from the least important up when the line is too narrow, never the state
(live, paused, loading) and never the criterion with its direction.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from stats.names import printable
from tui.viewtypes import Selection


class StatusLine(Static):
    """One line of facts about the selection and what is loaded; every field is an attribute set by the app."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    files: reactive[int] = reactive(0)
    lines: reactive[int] = reactive(0)
    shape: reactive[tuple[int, int]] = reactive((0, 0))
    updated: reactive[str] = reactive("-")
    live: reactive[bool] = reactive(True)
    loading: reactive[bool] = reactive(False)
    selection: reactive[Selection | None] = reactive(None)
    control: reactive[str | None] = reactive(None)

    def fields(self) -> list[tuple[int, str, str]]:
        """(priority, long form, short form) in display order; priority 0 is never dropped, and the
        highest numbers are shortened first, then dropped, until the line fits."""
        n, k = self.shape
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

    def render(self) -> Text:
        fields = [[p, long] for p, long, _ in self.fields()]
        short = [s for _, _, s in self.fields()]
        width = self.content_size.width or 1000

        def size() -> int:
            return len(" | ".join(t for _, t in fields))

        for i in sorted(range(len(fields)), key=lambda j: -fields[j][0]):  # shorten, least important first
            if size() <= width:
                break
            fields[i][1] = short[i]
        while size() > width and any(p > 0 for p, _ in fields):  # then drop
            worst = max(p for p, _ in fields)
            fields = [f for f in fields if f[0] != worst]
        return Text(" | ".join(t for _, t in fields), no_wrap=True, overflow="ellipsis")
