"""The app's garbage-collection policy: no full collection in the middle of an interaction.

CPython starts a full (generation 2) collection by itself whenever enough objects have survived
the young collections; it scans every object the collector tracks, which in this app takes
25-40 ms and stalls the event loop at an unpredictable moment. Measured on the 1,000,000-line
benchmark log (``benchmarks/bench_app.py``): 33 full collections during 72 toggles, up to
41 ms each, 0.8 s in all. So the app:

1. freezes what exists once it has started (``gc.freeze``: modules, the widget tree), which no
   collection need scan again;
2. leaves the young collections (generations 0 and 1) automatic: they are short, and they free
   most cyclic garbage, which is young;
3. turns automatic full collections off and runs one when the app has been idle for
   :data:`IDLE` seconds after doing something (:class:`IdleCollector`), where a pause of a few
   tens of milliseconds is invisible.

Everything is undone when the app stops (the tests run many apps in one process).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: Seconds without activity before the deferred full collection runs.
IDLE = 2.0
#: Generation-2 threshold meaning "never by itself" (the count it is compared with never gets there).
NEVER = 1 << 30


class IdleCollector:
    """Defers full collections to idle moments; :meth:`touch` on activity, :meth:`tick` from a timer."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._saved: tuple[int, int, int] | None = None
        self._last = clock()
        self._owed = False  # activity since the last full collection
        self.collections = 0

    def start(self) -> None:
        """Freeze what exists and switch automatic full collections off."""
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.freeze()
            young, middle, _ = self._saved
            gc.set_threshold(young, middle, NEVER)

    def stop(self) -> None:
        """Restore the thresholds, unfreeze, and collect what was deferred."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
            gc.unfreeze()

    def touch(self) -> None:
        """Something happened (a selection, a load): a full collection is owed, but not now."""
        self._last = self.clock()
        self._owed = True

    def tick(self) -> bool:
        """Collect if one is owed and the app has been idle long enough; whether it collected."""
        if self._saved is None or not self._owed or self.clock() - self._last < IDLE:
            return False
        gc.collect()
        self._owed = False
        self.collections += 1
        return True
