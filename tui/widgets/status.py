"""The status line: files, lines, data sets x learners, last update, live or paused."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


class StatusLine(Static):
    """One line of facts about what is loaded; every field is an attribute set by the app."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    files: reactive[int] = reactive(0)
    lines: reactive[int] = reactive(0)
    shape: reactive[tuple[int, int]] = reactive((0, 0))
    updated: reactive[str] = reactive("-")
    live: reactive[bool] = reactive(True)
    loading: reactive[bool] = reactive(False)

    def render(self) -> Text:
        state = "loading..." if self.loading else ("live" if self.live else "paused")
        n, k = self.shape
        return Text(
            f"{self.files} files | {self.lines} lines | {n} data sets x {k} learners | "
            f"updated {self.updated} | {state}",
            no_wrap=True,
            overflow="ellipsis",
        )
