"""A load begun before anyone asks for it: the app's first read of the logs, started by the
``rankboard`` command before Textual is imported and the app composed.

The reading (pyarrow's parse threads, mostly outside the GIL) then overlaps the ~0.5 s the
command spends importing Textual and the app and mounting its widgets, on the second core;
before, it started only once the app was mounted. Whoever asks for the load later
(:meth:`EarlyLoad.join`, through :meth:`tui.model.Loader.load`) gets the same result, and the
same ``progress`` and ``phase`` calls: those made so far are replayed to its callbacks, the
later ones passed on as they come (from the reading thread, as a load called directly makes
them). What its ``progress`` raises (``stats.LoadCancelled``: Esc) stops the reading at the next
block, as for any load.

No Textual here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from stats.logs import Progress


def _ignore(*_: object) -> None:
    return None


class EarlyLoad:
    """``load(progress=..., phase=...)`` running in a thread of its own from construction on.

    Until :meth:`join`, its progress and phase calls are kept (the last progress of each run of
    them: the bar shows only the latest); then they are replayed in order to the joiner's
    callbacks, and every later call goes straight to them, under one lock so that no call
    overtakes the replay.
    """

    def __init__(self, load: Callable[..., Any]) -> None:
        self._lock = threading.Lock()
        self._kept: list[tuple[str, tuple[Any, ...]]] = []  # ("progress", (done, total)) / ("phase", (text,))
        self._progress: Progress | None = None
        self._phase: Callable[[str], None] | None = None
        self._done = threading.Event()
        self._result: Any = None
        self._error: BaseException | None = None
        # A daemon: a command that fails before joining (a terminal Textual cannot use) exits at once.
        self._thread = threading.Thread(target=self._run, args=(load,), name="rankboard-first-load", daemon=True)
        self._thread.start()

    def _run(self, load: Callable[..., Any]) -> None:
        try:
            self._result = load(progress=self._on_progress, phase=self._on_phase)
        except BaseException as exc:  # handed to the joiner, which raises it
            self._error = exc
        finally:
            self._done.set()

    def _on_progress(self, done: int, total: int | None) -> None:
        with self._lock:
            if self._progress is not None:
                self._progress(done, total)  # what it raises stops the reading (Esc)
            elif self._kept and self._kept[-1][0] == "progress":
                self._kept[-1] = ("progress", (done, total))
            else:
                self._kept.append(("progress", (done, total)))

    def _on_phase(self, text: str) -> None:
        with self._lock:
            if self._phase is not None:
                self._phase(text)
            else:
                self._kept.append(("phase", (text,)))

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def join(self, progress: Progress | None = None, phase: Callable[[str], None] | None = None) -> Any:
        """Wait for the load and return its result (or raise what it raised), ``progress`` and
        ``phase`` told what it did and does. What ``progress`` raises while the calls made so
        far are replayed propagates from here at once; the reading stops at its next block."""
        with self._lock:
            self._progress, self._phase = progress or _ignore, phase or _ignore
            kept, self._kept = self._kept, []
            for kind, args in kept:
                (self._progress if kind == "progress" else self._phase)(*args)
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._result
