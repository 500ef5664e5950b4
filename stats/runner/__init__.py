"""The cross-validation runner of Menzies' notes (and the sequence studies of his lecture notes): run learners on data
sets and write the long-format log, crash-safe and resumable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each public name and the module that defines it.
_EXPORTS: dict[str, str] = {
    "FolderBusy": "stats.runner._lock",
    "RunSummary": "stats.runner._cv",
    "run_cv": "stats.runner._cv",
    "run_sequence": "stats.runner._sequence",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.runner._cv import RunSummary, run_cv  # noqa: F401
    from stats.runner._lock import FolderBusy  # noqa: F401
    from stats.runner._sequence import run_sequence  # noqa: F401


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
