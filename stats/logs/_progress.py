"""Progress and cancellation of a load: ``progress(done, total)`` callbacks and :class:`LoadCancelled`.

:func:`stats.read_logs` and :meth:`stats.LogWatcher.poll` take a keyword-only ``progress``
callable and call it from the reading thread: first with ``done = 0`` (announcing the total),
then as each block (:data:`stats.logs._sources.BLOCK` bytes, 4 MB) has been read, before it is
parsed, and last with ``done == total`` once everything is read. ``done`` counts bytes as
stored (compressed bytes for a gzip file) and never decreases; ``total`` is None when unknown
(standard input). Whatever the callback raises stops the load before the next block and
reaches the caller unchanged; :class:`LoadCancelled` is the exception to raise by convention.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: ``progress(done, total)``: bytes read so far, and bytes to read in all (None: unknown).
Progress = Callable[[int, int | None], None]


class LoadCancelled(Exception):
    """The exception a ``progress`` callback raises, by convention, to stop a load.

    :func:`stats.read_logs` and :meth:`stats.LogWatcher.poll` call ``progress(done, total)``
    from the reading thread; whatever it raises stops the reading before the next block is read,
    drops the blocks waiting to be parsed, shuts the parsing threads down, closes the files and
    then reaches the caller unchanged. A cancelled :meth:`~stats.LogWatcher.poll` changes nothing
    in its watcher. Nothing in :mod:`stats` raises this exception by itself.

    Notes
    -----
    The callback runs in the thread that called :func:`stats.read_logs`, so a user interface
    that loads in a worker thread cancels by setting a flag (a :class:`threading.Event`) that
    the callback checks and answers with ``raise LoadCancelled()``.

    Examples
    --------
    >>> from importlib.resources import files
    >>> SAMPLES = files("rankboard_sample_logs")  # the bundled sample logs, installed with rankboard
    >>> from stats import read_logs
    >>> def stop(done, total):
    ...     raise LoadCancelled(f"stopped at {done} of {total} bytes")
    >>> read_logs(SAMPLES / "c45_demsar.dat", progress=stop)
    Traceback (most recent call last):
    ...
    stats.logs._progress.LoadCancelled: stopped at 0 of 2104 bytes
    """


class Meter:
    """Reports the bytes read from sources read one after another to a ``progress`` callback.

    ``sizes`` are the bytes to read from each source, in order (None: unknown, and then so is
    the total). ``done`` never goes backwards and never passes the total. Without a callback
    every method does nothing.
    """

    def __init__(self, progress: Progress | None, sizes: Sequence[int | None]) -> None:
        self.progress = progress
        known = [size for size in sizes if size is not None]
        self.total = sum(known) if len(known) == len(sizes) else None
        self.base = self.done = 0  # bytes of the sources before the current one; reported

    def report(self, done: int) -> None:
        """Call the callback with ``done`` bytes read (clamped: never back, never past the total)."""
        if self.progress is not None:
            done = max(done, self.done) if self.total is None else min(max(done, self.done), self.total)
            self.done = done
            self.progress(done, self.total)

    def source(self, size: int | None) -> Callable[[int], None] | None:
        """The callback :func:`stats.logs._sources.read_source` takes for the next source: its bytes read
        so far (at most ``size`` of them count)."""
        if self.progress is None:
            return None
        base = self.base
        return lambda n: self.report(base + (n if size is None else min(n, size)))

    def next(self, size: int | None) -> None:
        """The source of ``size`` bytes is read (or given up): ``done`` moves to its end (reported
        unless its last block said so)."""
        self.base = self.done if size is None else self.base + size
        if self.base != self.done:
            self.report(self.base)
