"""Problems of the logs as lines of text, for ``rankboard check``, ``report`` and the app (no pandas:
``rankboard check`` imports neither it nor the view model); and, for the app, the words for logs
that give nothing to show and for files that changed under it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stats.core.names import printable, printable_lines

if TYPE_CHECKING:
    from stats.logs import LogProblem


def format_problem(problem: LogProblem) -> str:
    """``file:line: reason`` for an error, ``file:line: warning: reason`` for a warning."""
    if problem.severity == "error":
        return str(problem)  # escaped (stats.core.names)
    where = f"{problem.file}:{problem.line}" if problem.line is not None else problem.file
    return printable_lines(f"{where}: warning: {problem.reason}")


def no_results(problems: Sequence[str]) -> tuple[str, str]:
    """Why the logs give nothing to show, long and short (the status line's two forms), from the
    problems listed (``format_problem``'s lines, as ``rankboard check`` lists them): the first
    one said whole, the others counted.

    >>> no_results(["d.dat: no such file or directory"])
    ('no results: d.dat: no such file or directory', 'no results (1 problem)')
    >>> no_results(["a.dat:1: bad", "a.dat:2: bad"])
    ('no results: a.dat:1: bad and 1 more problem', 'no results (2 problems)')
    >>> no_results([])
    ('no results in the logs', 'no results')
    """
    if not problems:
        return "no results in the logs", "no results"
    n = len(problems)
    return f"no results: {first_problem(problems)}", f"no results ({n} problem{'s' * (n > 1)})"


def first_problem(problems: Sequence[str]) -> str:
    """The first problem, then how many more (``a.dat:1: bad and 2 more problems``)."""
    more = len(problems) - 1
    return printable(problems[0]) + (f" and {more} more problem{'s' * (more > 1)}" if more else "")


#: How a file read before changed, in words (LoadResult.changes).
CHANGED = {
    "emptied": "was emptied",
    "truncated": "was truncated",
    "replaced": "was replaced",
    "rewritten": "was rewritten",
    "gone": "was deleted or moved",
    "not regular": "is no longer a regular file",  # a FIFO, a device or a link to nothing now
    "unreadable": "can no longer be read",
}
#: The kinds of names that can leave the view: singular and plural.
KINDS = (("data set", "data sets"), ("learner", "learners"), ("criterion", "criteria"))


def named(names: Sequence[str], few: int = 3) -> str:
    """The first ``few`` names, literal (:func:`~stats.core.names.printable`), then how many more.

    >>> named(["iris", "wine"]), named(["a", "b", "c", "d", "e"])
    ('iris, wine', 'a, b, c and 2 more')
    """
    shown = ", ".join(printable(name) for name in names[:few])
    return f"{shown} and {len(names) - few} more" if len(names) > few else shown


def change_notice(changes: Sequence[tuple[str, str]], left: Sequence[Sequence[str]]) -> str:
    """What a poll found of files read before (``(file, how)``, :data:`CHANGED`) and what left the
    view with them: ``left`` is the data sets, learners and criteria no longer in the logs.

    >>> change_notice([("d.dat", "emptied")], [["anneal", "iris"], [], []])
    'd.dat was emptied: data sets anneal, iris left the view'
    >>> change_notice([("a.dat", "gone"), ("b.dat", "replaced")], [[], ["nb"], ["acc"]])
    'a.dat was deleted or moved, b.dat was replaced: learner nb; criterion acc left the view'
    >>> change_notice([("d.dat", "replaced")], [[], [], []])
    'd.dat was replaced: nothing left the view'
    """
    files = ", ".join(f"{printable(name)} {CHANGED.get(how, how)}" for name, how in changes)
    parts = [f"{kind[len(names) > 1]} {named(names)}" for kind, names in zip(KINDS, left) if names]
    return f"{files}: {'; '.join(parts)} left the view" if parts else f"{files}: nothing left the view"
