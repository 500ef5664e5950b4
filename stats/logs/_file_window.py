"""The file-window helpers of :class:`~stats.logs._watch.LogWatcher`: what a poll reads of each
file (complete lines from an offset, as a stream), and the bytes it keeps to tell an append from
a rewrite (the first bytes, the bytes before the offset read).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from stats.logs._magic import sniff_file


def _is_gzip(path: Path) -> bool:
    """Whether the file is read whole whenever it changes: gzip, or a columnar table (Parquet,
    Arrow: :mod:`stats.logs._columnar`, known by its whole magic), which is rewritten whole,
    never appended to."""
    with open(path, "rb") as f:
        head = f.read(2)
    return head == b"\x1f\x8b" or sniff_file(path) is not None


#: Bytes at the start of a file compared at each poll that finds it changed (with the 64 bytes
#: before the end of what was read): a rewrite in place is seen, not taken for an append.
HEAD = 1 << 16


def _head(path: Path, offset: int) -> bytes:
    """The first ``min(offset, HEAD)`` bytes of the file."""
    with open(path, "rb") as f:
        return f.read(min(offset, HEAD))


def _tail(path: Path, offset: int, size: int = 64) -> bytes:
    """The ``size`` bytes before ``offset`` (fewer near the start)."""
    with open(path, "rb") as f:
        f.seek(max(0, offset - size))
        return f.read(min(offset, size))


def _last_newline(path: Path, start: int, stop: int) -> int:
    """Position after the last newline in ``[start, stop)`` of the file (``start`` if none)."""
    with open(path, "rb") as f:
        end = stop
        while end > start:
            begin = max(start, end - (1 << 16))
            f.seek(begin)
            chunk = f.read(end - begin)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                return begin + cut + 1
            end = begin
    return start


class _Window(io.RawIOBase):
    """Bytes ``[start, stop)`` of a file, as a stream (complete lines only: ``stop`` follows a newline)."""

    def __init__(self, path: Path, start: int, stop: int) -> None:
        super().__init__()
        self.file = open(path, "rb")  # noqa: SIM115 - closed with the stream
        self.file.seek(start)
        self.stop, self.left = stop, stop - start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)[: self.left]
        n = self.file.readinto(view) or 0
        self.left -= n
        return n

    def close(self) -> None:
        self.file.close()
        super().close()
