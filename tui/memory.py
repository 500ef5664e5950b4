"""The process's memory: the allocator's policy for large arrays, and the memory budget of a load.

``tune_allocator`` is called once by the command (:mod:`tui.cli`) and by the app's loader: it
asks glibc to give every block of 1 MiB or more back to the system when it is freed. glibc's
default raises that threshold each time such a block is freed (up to 32 MiB), after which the
reading's freed 4 MB parse buffers and the columns let go of while a log is summarised stay in
the process (measured on the 5,000,000-line log: 35 MB more at the app's peak). Elsewhere (not
glibc) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: Blocks of at least this many bytes are mapped on their own and unmapped when freed.
MMAP_THRESHOLD = 1 << 20
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number
_tuned = False


def tune_allocator() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` (once); whether it was set."""
    global _tuned
    if _tuned or not sys.platform.startswith("linux"):
        return _tuned
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _tuned = bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):  # not glibc (musl has no mallopt): nothing to tune
        _tuned = False
    return _tuned
