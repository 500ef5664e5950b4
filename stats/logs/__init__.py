"""Log I/O: read cross-validation logs (long and wide format, gzip, stdin; Parquet and Arrow IPC
tables named as files, :mod:`stats.logs._columnar`) into one tidy frame, naming every problem,
and follow logs that are still being written.
"""

from stats.logs._paths import Decompression
from stats.logs._progress import Progress
from stats.logs._read import LoadCancelled, LogError, LogProblem, read_logs
from stats.logs._spill import SpilledLogs, log_size
from stats.logs._watch import LogWatcher, WatchUpdate

__all__ = [
    "Decompression",
    "LoadCancelled",
    "LogError",
    "LogProblem",
    "LogWatcher",
    "Progress",
    "SpilledLogs",
    "WatchUpdate",
    "log_size",
    "read_logs",
]
