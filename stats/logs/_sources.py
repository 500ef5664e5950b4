"""Where log lines come from: paths, directories, globs, gzip, standard input; one file at a time.

:func:`expand` turns the paths given to :func:`stats.read_logs` into sources;
:func:`read_source` reads one source in blocks of complete lines (parsed in a
thread pool by :func:`stats.logs._parse.parse_block`), detects the format from the
first non-blank line, and judges the last line when the file does not end with
a newline.

:func:`read_source` reports the bytes read after each block (see :mod:`stats.logs._progress`);
whatever the report raises stops the reading.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from stats.logs._formats import LONG, LogProblem, LogSpec, parse_header
from stats.logs._parse import Part, parse_block

#: Bytes per block handed to one pyarrow call.
BLOCK = 4 << 20
#: Threads that parse blocks.
WORKERS = min(os.cpu_count() or 1, 8)
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_GLOB = re.compile(r"[*?[]")
TORN = "the run died mid-write"


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
    """Every ``*.dat`` / ``*.dat.gz`` below ``folder``, sorted; a subdirectory that cannot be
    read is a problem in ``problems`` (``os.walk`` skips it silently)."""

    def unreadable(exc: OSError) -> None:
        if problems is not None:
            problems.append(LogProblem(exc.filename or folder, None, f"cannot read this directory: {_os_reason(exc)}"))

    found = [
        os.path.join(root, f)
        for root, _, files in os.walk(folder, onerror=unreadable)
        for f in files
        if f.endswith((".dat", ".dat.gz"))
    ]
    return sorted(found)


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
    """Files named by ``paths``: files, directories (every ``*.dat`` / ``*.dat.gz`` below, sorted),
    glob patterns (``**`` allowed) and ``-`` for standard input. A file named twice is read once.
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
                problems.append(LogProblem(name, None, "no *.dat files in this directory", "warning"))
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
                    add(f)
        else:
            problems.append(LogProblem(name, None, _missing(name)))
    return sources, problems


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
        if head == _GZIP_MAGIC:
            yield _Gunzip(raw, limits)  # type: ignore[misc]
        elif source.name.endswith(".gz") and head:
            raise OSError("the name ends in .gz but the file is not gzip data")
        else:
            yield raw


def blocks(stream: Any, size: int = BLOCK, buffers: int = 2) -> Iterator[tuple[bytearray, int, int]]:
    """Blocks ``(data, start, end)`` of complete lines; the last may lack its newline.

    The blocks are read into a ring of ``buffers`` reused buffers: block i's buffer is written
    again by block i + ``buffers``, so the consumer must be done with a block by then. A seekable
    plain file is read without copying: what follows the block's last newline is read again.
    """
    seekable = stream.seekable()
    ring: list[bytearray] = []
    carry = b""
    while True:
        buf = ring.pop(0) if len(ring) == buffers else bytearray(len(carry) + size)
        if len(buf) < len(carry) + size:  # a line longer than a block
            buf = bytearray(len(carry) + size)
        ring.append(buf)
        buf[: len(carry)] = carry
        with memoryview(buf) as view:
            n = len(carry) + (stream.readinto(view[len(carry) : len(carry) + size]) or 0)
        if n == len(carry):
            break
        cut = buf.rfind(b"\n", 0, n) + 1
        if cut == 0:
            carry = bytes(buf[:n])
            continue
        carry = b""
        if cut < n:
            if seekable:
                stream.seek(cut - n, io.SEEK_CUR)
            else:
                carry = bytes(buf[cut:n])
        yield buf, 0, cut
    if carry:
        yield bytearray(carry), 0, len(carry)


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


#: Receives each part of a file, in order, with the number of its first line.
Sink = Callable[[int, LogSpec, Part], None]


@dataclass
class FileRead:
    """What reading one source found: its problems, its spec (None until a non-blank line was
    seen), the number of the line after the last one read, and the rows it gave."""

    problems: list[LogProblem]
    spec: LogSpec | None = None
    next_line: int = 1
    rows: int = 0


def _inline(fn: Callable[..., Part], *args: Any) -> Future[Part]:
    future: Future[Part] = Future()
    future.set_result(fn(*args))
    return future


class _Parts:
    """Blocks handed to the pool, collected in order; line numbers follow from each block's count."""

    def __init__(self, name: str, line: int, pool: ThreadPoolExecutor | None, out: FileRead, sink: Sink) -> None:
        self.name, self.line, self.out, self.sink = name, line, out, sink
        self.submit = pool.submit if pool is not None else _inline
        self.window = WORKERS if pool is not None else 0  # blocks waiting for a worker
        self.pending: deque[tuple[LogSpec, Future[Part]]] = deque()
        self.failed = False

    def add(self, data: bytes | bytearray, start: int, end: int, spec: LogSpec) -> None:
        self.pending.append((spec, self.submit(parse_block, data, start, end, spec)))
        self.settle(self.window)

    def settle(self, limit: int = 0) -> None:
        while len(self.pending) > limit:
            spec, future = self.pending.popleft()
            part = future.result()
            self.out.rows += part.n_rows
            self.out.problems.extend(LogProblem(self.name, self.line + i, r, s) for i, r, s in part.problems)
            self.failed = self.failed or any(s == "error" for _, _, s in part.problems)
            self.sink(self.line, spec, part)
            self.line += part.n_lines

    def cancel(self) -> None:
        """Drop the blocks not parsed yet (a block being parsed finishes in its worker)."""
        for _, future in self.pending:
            future.cancel()
        self.pending.clear()


class _Report:
    """Calls ``progress``, remembering what it raised (so that an ``OSError`` it raises is not
    taken for a read error)."""

    def __init__(self, progress: Callable[[int], None]) -> None:
        self.progress = progress
        self.raised: BaseException | None = None

    def __call__(self, done: int) -> None:
        try:
            self.progress(done)
        except BaseException as exc:
            self.raised = exc
            raise


def read_source(
    source: Source,
    sink: Sink,
    *,
    pool: ThreadPoolExecutor | None,
    stop_at_error: bool,
    spec: LogSpec | None = None,
    first_line: int = 1,
    final: bool = True,
    stream: Any = None,
    size: int | None = None,
    progress: Callable[[int], None] | None = None,
    limits: Decompression = DECOMPRESSION,
) -> FileRead:
    """Read one source. ``stop_at_error`` returns at the first error (for ``on_error="raise"``).

    Blocks go to ``pool`` unless ``size`` (bytes, when known) says the source fits in one.

    ``progress(n)`` is called as each block is read, before it is parsed, with the source's bytes
    read so far (as stored: compressed bytes for gzip). What it raises propagates unchanged,
    after the blocks waiting for a worker are dropped and the source is closed.

    The watcher passes ``stream`` (appended complete lines), the file's ``spec`` once known,
    the number of its next line, and ``final=False`` (no empty-file warning).
    """
    out = FileRead([])
    if size is not None and size <= BLOCK:
        pool = None  # one block: parse it here
    parts = _Parts(source.name, first_line, pool, out, sink)
    had_spec = spec is not None
    report = _Report(progress) if progress is not None else None
    read = 0
    try:
        with ExitStack() as stack:
            stream = stream if stream is not None else stack.enter_context(open_source(source, limits))
            block = BLOCK if size is None else min(BLOCK, size + 1)
            for index, (data, start, end) in enumerate(blocks(stream, block, parts.window + 2)):
                if report is not None:
                    read += end - start
                    report(stream.consumed if isinstance(stream, _Gunzip) else read)
                if index == 0 and first_line == 1 and data.startswith(_BOM, start):
                    start += len(_BOM)
                if spec is None:
                    start, skipped, spec, reason = _detect(data, start, end)
                    parts.line += skipped
                    if reason is not None:
                        out.problems.append(LogProblem(source.name, parts.line - 1, reason))
                        return out
                    if spec is None:
                        continue
                    out.spec = spec
                if data[end - 1 : end] != b"\n":  # the last line, without its newline
                    parts.settle()
                    if final:
                        _last_line(data[start:end], spec, parts, source.name)
                    break
                if start < end:
                    parts.add(data, start, end, spec)
                    if stop_at_error and parts.failed:
                        return out
            parts.settle()
    except (OSError, EOFError, zlib.error) as exc:
        if report is not None and exc is report.raised:
            parts.cancel()
            raise
        parts.settle()
        truncated = isinstance(exc, EOFError)
        reason = f"compressed data ends early ({TORN}?): the results before are kept" if truncated else _os_reason(exc)
        if isinstance(exc, DecompressionLimit):
            kept = f"the {out.rows:,} results before are kept" if out.rows else "nothing was read"
            reason = f"{exc} (a compression bomb?): the rest is not read, {kept}"
        out.problems.append(LogProblem(source.name, None, reason, "warning" if truncated else "error"))
        return out
    except BaseException:
        parts.cancel()  # cancelled (or a failure): no block waits for a worker
        raise
    out.next_line = parts.line
    if final and not out.rows and not any(p.severity == "error" for p in out.problems):
        reason = "empty file: no results" if spec is None and not had_spec else "no results in the file"
        out.problems.append(LogProblem(source.name, None, reason, "warning"))
    return out


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower() if exc.strerror[:1].isupper() else exc.strerror
    return str(exc) or type(exc).__name__


def _detect(data: bytes | bytearray, start: int, end: int) -> tuple[int, int, LogSpec | None, str | None]:
    """Skip blank lines; a first non-blank line starting with ``#`` is a wide header (consumed).

    Returns the new start, the number of lines skipped, the spec (None: only blank lines so
    far) and a reason when the header is unusable.
    """
    skipped = 0
    while start < end:
        stop = data.find(b"\n", start, end)
        stop = end if stop < 0 else stop
        text = data[start:stop]
        if text.strip():
            if not text.lstrip().startswith(b"#"):
                return start, skipped, LONG, None
            header = parse_header(text)
            if isinstance(header, str):
                return start, skipped + 1, None, header
            return min(stop + 1, end), skipped + 1, header, None
        start, skipped = stop + 1, skipped + 1
    return end, skipped, None, None


def _last_line(raw: bytes | bytearray, spec: LogSpec, parts: _Parts, name: str) -> None:
    """The last line has no newline: keep it with a warning if it reads, else drop it (torn)."""
    line, out = parts.line, parts.out
    if not raw.strip() or raw.strip() == (spec.header or "").encode():
        return
    part = parse_block(raw + b"\n", 0, len(raw) + 1, spec)
    if part.problems:
        reason = part.problems[0][1]
        if reason.startswith("binary data"):
            out.problems.append(LogProblem(name, line, reason))
            return
        out.problems.append(
            LogProblem(
                name,
                line,
                f"the last line is incomplete ({reason}; no newline at the end): {TORN}; line dropped",
                "warning",
            )
        )
        return
    if part.n_rows:
        out.rows += part.n_rows
        parts.sink(line, spec, part)
        out.problems.append(
            LogProblem(
                name,
                line,
                "no newline at the end of the file: the last line is kept, but check it: "
                "the run may have died while writing it",
                "warning",
            )
        )
