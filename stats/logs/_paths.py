"""Where log lines come from: paths, directories and globs expanded to sources, each opened as
a byte stream (a regular file without blocking on a FIFO, gzip with limits against a
compression bomb, or standard input). :mod:`stats.logs._sources` reads them in blocks.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from stats.logs._dataset import LOOKED_FOR, TEXT_SUFFIXES, bookkeeping_match, log_files
from stats.logs._formats import LogProblem
from stats.logs._gzip_size import gzip_text_size
from stats.logs._magic import HEAD, sniff_file, stdin_kind

_GZIP_MAGIC = b"\x1f\x8b"
_GLOB = re.compile(r"[*?[]")


@dataclass(frozen=True)
class Decompression:
    """How far a compressed log may expand before it is taken for a compression bomb.

    Reading stops, with the rows before kept and an error naming the file, once the data
    decompressed exceed ``max_bytes``, or exceed ``max_ratio`` times the compressed bytes read
    after at least ``min_bytes`` (a small file's ratio means nothing). Logs of numbers compress
    5-20:1; 1 GB of one repeated line compresses about 1000:1.
    """

    max_ratio: float = 200.0
    max_bytes: int = 16 << 30
    min_bytes: int = 64 << 20


#: The limits :func:`stats.read_logs` and :class:`stats.LogWatcher` apply unless told otherwise.
DECOMPRESSION = Decompression()


class DecompressionLimit(OSError):
    """A compressed source expanded past its :class:`Decompression` limits."""


@dataclass(frozen=True)
class Source:
    """One input: a file (``path``) or standard input (``path`` None, named ``<stdin>``)."""

    name: str
    path: Path | None = None


def _log_files(folder: str, problems: list[LogProblem] | None = None) -> list[str]:
    """Every log below ``folder``, sorted: its ``*.dat`` / ``*.dat.gz``, or, when it holds none,
    its Parquet or Arrow part files outside engine bookkeeping (:func:`stats.logs._dataset.log_files`:
    a warning names the part files a directory of text logs also holds, not read); a subdirectory
    that cannot be read is a problem in ``problems`` (``os.walk`` skips it silently)."""

    def unreadable(exc: OSError) -> None:
        if problems is not None:
            problems.append(LogProblem(exc.filename or folder, None, f"cannot read this directory: {_os_reason(exc)}"))

    found = log_files(folder, unreadable)
    text = [f for f in found if f.endswith(TEXT_SUFFIXES)]
    if text and len(text) < len(found) and problems is not None:
        # `rankboard convert logs/ -o logs/all.parquet` would otherwise count every result twice
        other = [f for f in found if not f.endswith(TEXT_SUFFIXES)]
        many = f"{len(other)} Parquet or Arrow files" if len(other) > 1 else "a Parquet or Arrow file"
        problems.append(
            LogProblem(
                folder,
                None,
                f"also holds {many} ({os.path.relpath(other[0], folder)}{', ...' if len(other) > 1 else ''}), "
                "not read: a directory with *.dat logs reads those (a conversion of them beside them would "
                "count every result twice); name the files, or a glob, to read them",
                "warning",
            )
        )
    return text or found


def _missing(name: str) -> str:
    """Why ``name`` (which ``os.path.exists`` denies) cannot be read: a loop, or absent."""
    try:
        os.stat(name)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop: the link leads back to itself"
        if exc.errno in (errno.EACCES, errno.EPERM):
            return "permission denied"
    return "no such file or directory"


def expand(paths: tuple[Any, ...]) -> tuple[list[Source], list[LogProblem]]:
    """Files named by ``paths``: files, directories (every ``*.dat`` / ``*.dat.gz`` below, and
    every Parquet or Arrow part file an engine wrote, sorted: :mod:`stats.logs._dataset`), glob
    patterns (``**`` allowed; a match that is engine bookkeeping, ``_SUCCESS``, ``_metadata`` or
    below ``_temporary/``, is skipped) and ``-`` for standard input. A file named twice is read once.
    """
    sources: list[Source] = []
    problems: list[LogProblem] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        key = os.path.realpath(name)
        if key not in seen:
            seen.add(key)
            sources.append(Source(name, Path(name)))

    for given in paths:
        name = os.fspath(given)
        if name == "-":
            if "-" not in seen:
                seen.add("-")
                sources.append(Source("<stdin>"))
        elif os.path.isdir(name):
            found = _log_files(name, problems)
            if not found:
                problems.append(LogProblem(name, None, LOOKED_FOR, "warning"))
            for f in found:
                add(f)
        elif os.path.exists(name):
            add(name)
        elif _GLOB.search(name):
            import glob

            matches = sorted(glob.glob(name, recursive=True))
            if not matches:
                problems.append(LogProblem(name, None, "no file matches this pattern"))
            for m in matches:
                for f in _log_files(m, problems) if os.path.isdir(m) else [m]:
                    if not bookkeeping_match(f, name):
                        add(f)
        else:
            problems.append(LogProblem(name, None, _missing(name)))
    return sources, problems


def log_paths(*paths: Any) -> tuple[list[str], list[LogProblem]]:
    """The files ``paths`` name, in the order the readers read them (:func:`expand`: files,
    directories, globs, engine bookkeeping skipped), and what naming them found wrong (a path
    that names nothing, a directory without logs). For a program that hands the logs to another
    reader (``rankboard aggregate``): standard input (``-``) is a problem there, not a file."""
    sources, problems = expand(paths)
    if any(source.path is None for source in sources):
        problems.append(LogProblem("-", None, "standard input is not a file: name the logs"))
    return [source.name for source in sources if source.path is not None], problems


def not_regular(mode: int) -> str:
    """Why a file of ``mode`` (not a regular file) is not read."""
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    kind = "a directory" if stat.S_ISDIR(mode) else kind
    return f"not a regular file ({kind}): not read"


def _open_regular(path: Path) -> IO[bytes]:
    """``path`` opened for reading, refused unless it is a regular file: a FIFO would block the
    reader for ever (nothing writes to it), a device would never end. Opened without blocking,
    checked on the descriptor (no race between the check and the open), then read normally."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, not_regular(mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


@contextmanager
def open_source(source: Source, limits: Decompression = DECOMPRESSION) -> Iterator[IO[bytes]]:
    """A binary stream of the source's text, gunzipped (within ``limits``) when it starts with
    gzip's magic bytes.

    Raises ``OSError`` when the file cannot be opened or when its name ends in ``.gz`` but it
    is not gzip data. Standard input is left open.
    """
    with ExitStack() as stack:
        if source.path is None:
            raw: Any = sys.stdin.buffer
            head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
        else:
            raw = stack.enter_context(_open_regular(source.path))
            head = raw.read(2)
            raw.seek(0)
        if source.path is None and hasattr(raw, "peek") and stdin_kind(raw.peek(HEAD)) is not None:
            raise OSError("Parquet or Arrow data on standard input: name the file instead (it is read as a table)")
        if head == _GZIP_MAGIC:
            yield _Gunzip(raw, limits)  # type: ignore[misc]
        elif source.name.endswith(".gz") and head:
            raise OSError("the name ends in .gz but the file is not gzip data")
        else:
            yield raw


class _Gunzip(io.RawIOBase):
    """A gzip stream (several members allowed) that hands out everything it could decompress
    before raising ``EOFError`` for data cut short (``gzip.GzipFile`` would lose the last read)."""

    def __init__(self, raw: IO[bytes], limits: Decompression = DECOMPRESSION) -> None:
        super().__init__()
        self.raw, self.pending, self.limits = raw, b"", limits
        self.inflate = zlib.decompressobj(wbits=31)
        self.consumed = 0  # compressed bytes read from ``raw``
        self.produced = 0  # bytes decompressed

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.pending:
            chunk = self.inflate.unused_data
            if not chunk:
                chunk = self.raw.read(1 << 16)
                self.consumed += len(chunk)
            if self.inflate.eof:
                if not chunk:
                    return 0
                self.inflate = zlib.decompressobj(wbits=31)  # the next member
            elif not chunk:
                raise EOFError("compressed data ends early")
            self.pending = self.inflate.decompress(chunk, len(buffer))
            if self.inflate.unconsumed_tail:
                self.pending += self.inflate.decompress(self.inflate.unconsumed_tail)
        n = min(len(buffer), len(self.pending))
        buffer[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        self.produced += n
        self._check()
        return n

    def _check(self) -> None:
        lim, out, into = self.limits, self.produced, max(self.consumed, 1)
        if out > lim.max_bytes:
            raise DecompressionLimit(f"decompressed data exceed {lim.max_bytes:,} bytes")
        if out >= lim.min_bytes and out > lim.max_ratio * into:
            raise DecompressionLimit(
                f"decompressed data exceed {lim.max_ratio:g} times the compressed size ({out:,} bytes from {into:,})"
            )


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower() if exc.strerror[:1].isupper() else exc.strerror
    return str(exc) or type(exc).__name__


def log_size(*paths: str | os.PathLike[str]) -> int:
    """The logs' total size as text, in bytes (an estimate for compressed files).

    Plain files count their size; gzip files the uncompressed size their members' trailers record
    (the sum of every member's ISIZE, modulo 2**32, RFC 1952 section 2.3.1, found without
    decompressing: :mod:`stats.logs._gzip_size`; at least the compressed size); Parquet and Arrow files
    ten times their size (their text would be several times larger: columns compress well).
    Standard input and paths that are not regular files (a FIFO is never opened) count 0.
    """
    sources, _ = expand(tuple(paths))
    total = 0
    for source in sources:
        if source.path is None:
            continue
        try:
            st = source.path.stat()
            if not stat.S_ISREG(st.st_mode):  # a FIFO would block the open: the readers say what it is
                continue
            size = st.st_size
            with open(source.path, "rb") as f:
                head = f.read(8)
                if head[:2] == b"\x1f\x8b" and size >= 18:
                    size = gzip_text_size(source.path) or size  # every member counted, not the last
                elif sniff_file(source.path) is not None:  # the whole magic, not a data set's name
                    size *= 10
        except OSError:
            continue
        total += size
    return total
