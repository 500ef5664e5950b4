"""What a signal must not leave behind: the spill folders of bounded mode (``--memory``) and the
temporary file of an atomic write (``convert``, ``report -o``, the app's exports).

A signal runs no ``finally``: without handlers, SIGTERM or SIGHUP left gigabytes of
``rankboard_spill_*`` and ``.NAME.rankboard-PID-….tmp`` files behind (issue 30, items 10 and 11).
:func:`install` is called once by the command line (:func:`tui.cli.main`, the app included): on
SIGTERM, SIGHUP and SIGINT each cleanup runs, then the signal does what it did before -- a Python
handler installed before is called; otherwise the process ends by the signal, as a shell expects
(SIGINT too: the exit status says "interrupted", with no KeyboardInterrupt traceback from
whichever thread was running). A signal ignored before (``nohup``: SIGHUP) stays ignored. SIGKILL
cannot be caught: a later write clears what it leaves (:func:`tui.atomic.clear_stale`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

#: The signals handled: those a process can catch that end it.
SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))
#: What runs on a signal, in order (each at most once per process: :func:`install` adds them).
_CLEANUPS: list[Callable[[], None]] = []
#: The signals whose handler is installed (once: ``main`` may be called many times in a process).
_installed: set[int] = set()


def install(*cleanups: Callable[[], None]) -> set[int]:
    """Run ``cleanups`` on SIGTERM, SIGHUP and SIGINT, then let the signal do what it did before
    (see the module). Handlers are set once, from the main thread only (Python's rule); a cleanup
    already added is not added again. Returns the signals handled."""
    for cleanup in cleanups:
        if cleanup not in _CLEANUPS:
            _CLEANUPS.append(cleanup)
    if threading.current_thread() is not threading.main_thread():
        return _installed
    for number in SIGNALS:
        if number in _installed:
            continue
        before = signal.getsignal(number)
        if before in (signal.SIG_IGN, None):  # ignored, or set outside Python: left alone
            continue
        signal.signal(number, functools.partial(_clean_then, before))
        _installed.add(int(number))
    return _installed


def _clean_then(before: Any, signum: int, frame: FrameType | None) -> None:
    """Run every cleanup (none may stop the others: the process is ending anyway), then do what
    ``before``, the handler replaced, did."""
    for cleanup in _CLEANUPS:
        with contextlib.suppress(Exception):
            cleanup()
    if callable(before) and before is not signal.default_int_handler:
        before(signum, frame)
        return
    signal.signal(signum, signal.SIG_DFL)  # ended by the signal, as without a handler
    os.kill(os.getpid(), signum)
