"""Log I/O: read cross-validation logs (long and wide format, gzip, stdin; Parquet and Arrow IPC
tables named as files, :mod:`stats.logs._columnar`) into one tidy frame, naming every problem,
and follow logs that are still being written.

Imports are lazy (PEP 562), as in :mod:`stats`: :func:`read_logs` is importable without pandas,
which it imports in a thread while it reads (:mod:`stats.core.import_ahead`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each public name and the module that defines it.
_EXPORTS: dict[str, str] = {
    "Decompression": "stats.logs._paths",
    "LoadCancelled": "stats.logs._read",
    "LogColumns": "stats.logs._read",
    "LogError": "stats.logs._read",
    "LogProblem": "stats.logs._formats",
    "LogWatcher": "stats.logs._watch",
    "Progress": "stats.logs._progress",
    "SpilledLogs": "stats.logs._spill",
    "WatchUpdate": "stats.logs._watch_update",
    "log_paths": "stats.logs._paths",
    "log_size": "stats.logs._paths",
    "read_columns": "stats.logs._read",
    "read_logs": "stats.logs._read",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.logs._formats import LogProblem  # noqa: F401
    from stats.logs._paths import (
        Decompression,  # noqa: F401
        log_paths,  # noqa: F401
        log_size,  # noqa: F401
    )
    from stats.logs._progress import Progress  # noqa: F401
    from stats.logs._read import LoadCancelled, LogColumns, LogError, read_columns, read_logs  # noqa: F401
    from stats.logs._spill import SpilledLogs  # noqa: F401
    from stats.logs._watch import LogWatcher  # noqa: F401
    from stats.logs._watch_update import WatchUpdate  # noqa: F401


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
