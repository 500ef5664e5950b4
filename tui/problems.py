"""Problems of the logs as lines of text, for ``rankboard check``, ``report`` and the app (no pandas:
``rankboard check`` imports neither it nor the view model)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core.names import printable_lines

if TYPE_CHECKING:
    from stats.logs import LogProblem


def format_problem(problem: LogProblem) -> str:
    """``file:line: reason`` for an error, ``file:line: warning: reason`` for a warning."""
    if problem.severity == "error":
        return str(problem)  # escaped (stats.core.names)
    where = f"{problem.file}:{problem.line}" if problem.line is not None else problem.file
    return printable_lines(f"{where}: warning: {problem.reason}")
