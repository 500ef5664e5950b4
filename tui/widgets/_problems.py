"""The problems panel: what the logs got wrong, as file:line: reason, without stopping the app.

Folded (the default) it is one line: how many problems in how many files, and the last one found;
open (``w``, or a click) it lists them. At 80x24 the list took five of the 24 lines and pushed the
end of the views off the screen (issue 28), so it opens only when asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.widgets._base import literal

#: The key that opens and folds the panel (the app's ``problems`` command, tui.app._commands).
KEY = "w"
#: The most problems the open panel lists (the last ones found); ``rankboard check`` lists all.
SHOWN = 50
_WHERE = re.compile(r"(.+?):\d+: ")  # "file:line: reason"
_FILE = re.compile(r"(.+?): ")  # "file: reason" (a problem of the whole file)


def problem_file(problem: str) -> str:
    """The file a problem line (``file:line: reason`` or ``file: reason``, tui.problems) names.

    >>> problem_file("a.dat:3: value 'x' is not a number"), problem_file("b.dat: empty file: no results")
    ('a.dat', 'b.dat')
    """
    where = _WHERE.match(problem) or _FILE.match(problem)
    return where.group(1) if where else problem


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(problems: Sequence[str]) -> str:
    """``3 problems in 2 files``: what the folded line counts."""
    files = len({problem_file(p) for p in problems})
    return f"{plural(len(problems), 'problem')} in {plural(files, 'file')}"


class ProblemsPanel(Static):
    """Lists the problems found in the logs; hidden (CSS class ``-empty``) while there are none,
    one line while folded, the list while ``opened`` (CSS class ``-open``)."""

    problems: reactive[tuple[str, ...]] = reactive(())
    opened: reactive[bool] = reactive(False)

    def watch_problems(self) -> None:
        self._show()

    def watch_opened(self) -> None:
        self._show()

    def on_click(self) -> None:
        self.opened = not self.opened

    def _show(self) -> None:
        problems = self.problems
        self.set_class(not problems, "-empty")
        self.set_class(self.opened, "-open")
        self.update(self.listed(problems) if self.opened else self.folded(problems))

    @staticmethod
    def folded(problems: Sequence[str]) -> Text:
        """One line: how many, where, how to see them, and the last one found (cut at the edge)."""
        text = Text(f"{summary(problems)} ({KEY} shows them);", style="bold", no_wrap=True, overflow="ellipsis")
        if problems:
            text.append(" last: ", style="")
            text.append_text(literal(problems[-1]))
        return text

    @staticmethod
    def listed(problems: Sequence[str]) -> Text:
        """A heading line, then the last :data:`SHOWN` problems, one a line (names literal)."""
        more = f"; the last {SHOWN} shown, rankboard check lists every one" if len(problems) > SHOWN else ""
        text = Text(f"{summary(problems)} ({KEY} folds this{more})\n", style="bold", no_wrap=True)
        for line in problems[-SHOWN:]:
            text.append_text(literal(line))
            text.append("\n")
        text.rstrip()
        return text
