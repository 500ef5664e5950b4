"""The problems panel: what the logs got wrong, as file:line: reason, without stopping the app."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.widgets._base import literal


class ProblemsPanel(Static):
    """Lists the problems found in the logs; hidden (CSS class) while there are none."""

    problems: reactive[tuple[str, ...]] = reactive(())

    def watch_problems(self, problems: Sequence[str]) -> None:
        self.set_class(not problems, "-empty")
        text = Text(f"{len(problems)} problem(s) in the logs\n", style="bold", no_wrap=True)
        for line in problems[-50:]:
            text.append_text(literal(line))
            text.append("\n")
        text.rstrip()
        self.update(text)
