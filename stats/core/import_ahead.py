"""Modules imported in a thread while other work runs, and waited for where they are needed.

Reading a log is mostly pyarrow's parsing and numpy's copies, which run outside the GIL; importing
pandas is ~0.3 s of Python. :func:`stats.read_logs` needs pandas only at its end, for the frame, so
it starts the import (:func:`start`) before reading and waits for it (:func:`wait`) when it builds
the frame: the two overlap on a machine with a spare core.

A module being imported by one thread is waited for by another that imports it (Python's per-module
import lock), so a name imported directly still works. :func:`wait` joins the thread first so that
the caller never imports while holding another module's import lock on the thread's path.
"""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType

_threads: dict[str, threading.Thread] = {}
_lock = threading.Lock()


def start(name: str) -> None:
    """Import ``name`` in a thread of its own, unless it is imported or being imported already.

    The thread is not a daemon: an interpreter that exits meanwhile waits for the import to end
    rather than stopping a thread in the middle of one. An import that fails in the thread is
    left for :func:`wait` (or any later import) to raise again, where it is needed.
    """
    if name in sys.modules:
        return
    with _lock:
        if name in _threads:
            return
        thread = threading.Thread(target=_import, args=(name,), name=f"import {name}")
        _threads[name] = thread
    thread.start()


def _import(name: str) -> None:
    try:
        importlib.import_module(name)
    except BaseException:  # noqa: BLE001 - raised again by wait() or the next import, in the caller
        pass


def wait(name: str) -> ModuleType:
    """``name``, imported: the thread :func:`start` began is joined first, then the module returned
    (importing it here if no thread did, or raising the error the thread met)."""
    thread = _threads.get(name)
    if thread is not None and thread is not threading.current_thread():
        thread.join()
    return importlib.import_module(name)
