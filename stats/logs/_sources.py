"""Reading one source at a time: blocks of complete lines, parsed in a thread pool.

:func:`stats.logs._paths.expand` turns the paths given to :func:`stats.read_logs` into sources
and opens them; :func:`read_source` reads one source in blocks of complete lines (parsed in a
thread pool by :func:`stats.logs._parse.parse_block`), detects the format from the first
non-blank line, and judges the last line when the file does not end with a newline. A line
longer than a block is read through, never held, and is one ``line too long`` problem.

:func:`read_source` reports the bytes read after each block (see :mod:`stats.logs._progress`);
whatever the report raises stops the reading.
"""

from __future__ import annotations

import io
import os
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stats.logs._columnar import read_columnar, sniff_file
from stats.logs._formats import LONG, MAX_LINE, LogProblem, LogSpec, characters, long_line, parse_header
from stats.logs._parse import Part, parse_block
from stats.logs._paths import (
    DECOMPRESSION,
    Decompression,
    DecompressionLimit,
    Source,
    _Gunzip,
    _os_reason,
    open_source,
)

#: Bytes per block handed to one pyarrow call.
BLOCK = 4 << 20
#: Threads that parse blocks.
WORKERS = min(os.cpu_count() or 1, 8)
_BOM = b"\xef\xbb\xbf"
TORN = "the run died mid-write"
#: Receives each part of a file, in order, with the number of its first line.
Sink = Callable[[int, LogSpec, Part], None]


@dataclass
class LongLine:
    """A line :func:`blocks` skipped as longer than :data:`MAX_LINE` characters: its bytes and
    characters (its newline and a carriage return before it excluded), its first bytes (a header?
    a byte order mark?) and whether a newline ended it (else it was the end of the stream)."""

    n_bytes: int = 0
    n_chars: int = 0
    head: bytes = b""
    ended: bool = False
    cr: bool = False

    def add(self, data: bytes | bytearray, start: int, end: int) -> None:
        if not self.n_bytes:
            self.head = bytes(data[start : min(end, start + 64)])
        if end > start:
            self.n_bytes += end - start
            self.n_chars += characters(data, start, end)
            self.cr = data[end - 1] == 13

    def reason(self, bom: bool) -> str:
        """The problem of the line; ``bom``: it starts with a byte order mark that is not part of it."""
        n_bytes, n_chars = self.n_bytes - self.cr - 3 * bom, self.n_chars - self.cr - bom
        return long_line(n_bytes, n_chars) or f"line too long: {n_chars:,} characters"


def _surely_long(data: bytes | bytearray, start: int, end: int) -> bool:
    """Whether the start of a line, ``data[start:end]``, is longer than any line the parser reads,
    whatever byte order mark (3 bytes, 1 character) and carriage return it may hold."""
    n = end - start
    return n > MAX_LINE + 2 and long_line(n - 4, characters(data, start, end) - 2) is not None


def _fill(stream: Any, buf: bytearray, n: int, full: int) -> tuple[int, Exception | None]:
    """Read into ``buf[n:full]`` until it is full or the stream ends: the bytes now held, and the
    error that stopped the reading after some bytes were read (raised when none were)."""
    start = n
    with memoryview(buf) as view:
        while n < full:  # a short read is not the end: a gzip stream gives ~0.5 MB at a time
            try:
                got = stream.readinto(view[n:full])
            except Exception as exc:  # a torn gzip file, a decompression limit: the lines read
                if n == start:  # before it are a block, handed out first
                    raise
                return n, exc
            if not got:
                break
            n += got
    return n, None


def blocks(
    stream: Any, size: int = BLOCK, buffers: int = 2
) -> Iterator[tuple[bytearray, int, int] | tuple[LongLine, int, int]]:
    """Blocks ``(data, start, end)`` of complete lines; the last may lack its newline.

    Each block is filled to ``size`` bytes (reads repeated until then or the end of the stream),
    so that a stream that reads short (gzip: one inflated chunk at a time) still gives blocks of
    ``size``: 50 parts for 200 MB, not 400.

    A line that runs past the end of a buffer is carried into the next one only while it may
    still be a result line (MAX_LINE + 2 characters: a byte order mark and a carriage return are
    not counted); once it is surely longer than :data:`MAX_LINE`, it is read to its newline,
    counted, and handed out in its place as ``(LongLine, 0, 0)``. A buffer so holds ``size``
    bytes plus at most the start of one line, whatever the stream holds (a 1 GB line is counted
    a block at a time, never held). A long line within one buffer is in its block, for
    :func:`stats.logs._parse.parse_block` to judge.

    The blocks are read into a ring of ``buffers`` reused buffers: block i's buffer is written
    again by block i + ``buffers``, so the consumer must be done with a block by then. Only a
    buffer handed out joins the ring: one that gave no block (the middle of a long line, or of a
    line longer than ``size``) is read into again at once, as no one holds it (issue 30: it used
    to join the ring too, so that the ring turned faster than the blocks and wrote over a block a
    worker was still parsing). A seekable plain file is read without copying: what follows the
    block's last newline is read again.
    """
    seekable = stream.seekable()
    ring: deque[bytearray] = deque()  # the buffers handed out, oldest first
    spare: bytearray | None = None  # a buffer that gave no block: free
    carry = b""  # the start of a line, read but not handed out (at most MAX_LINE_BYTES + 4)
    skip: LongLine | None = None  # the line being skipped
    while True:
        need = len(carry) + size
        if spare is not None:
            buf, spare = spare, None
        else:
            buf = ring.popleft() if len(ring) == buffers else bytearray(need)
        if len(buf) < need:  # a line longer than a block
            buf = bytearray(need)
        buf[: len(carry)] = carry
        n, failed = _fill(stream, buf, len(carry), need)
        begin = 0
        if skip is not None:
            newline = buf.find(b"\n", 0, n)
            skip.add(buf, 0, n if newline < 0 else newline)
            if newline < 0:
                if failed is not None:
                    raise failed  # the line it cut short is dropped
                if n == 0:  # the stream ends in the line
                    yield skip, 0, 0
                    return
                spare = buf
                continue
            skip.ended = True
            yield skip, 0, 0
            skip, begin = None, newline + 1
        elif n == len(carry):
            break
        cut = buf.rfind(b"\n", begin, n) + 1
        if cut == 0:  # no newline after ``begin``: the line goes on
            carry = b""
            if _surely_long(buf, begin, n):
                skip = LongLine()
                skip.add(buf, begin, n)
            else:
                carry = bytes(buf[begin:n])
            if failed is not None:
                raise failed
            spare = buf
            continue
        carry = b""
        if cut < n:
            if _surely_long(buf, cut, n):
                skip = LongLine()
                skip.add(buf, cut, n)
            elif seekable:
                stream.seek(cut - n, io.SEEK_CUR)
            else:
                carry = bytes(buf[cut:n])
        ring.append(buf)
        yield buf, begin, cut
        if failed is not None:
            raise failed  # the line it cut short is dropped, as before
    if carry:
        yield bytearray(carry), 0, len(carry)


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
    if stream is None and source.path is not None:
        kind = sniff_file(source.path)  # Parquet / Arrow by their magic bytes: read whole, as tables
        if kind is not None:
            got = read_columnar(
                source.name, source.path, kind, sink, stop_at_error=stop_at_error, progress=progress, limits=limits
            )
            if final and got.rows == 0 and not any(p.severity == "error" for p in got.problems):
                got.problems.append(LogProblem(source.name, None, "no results in the file", "warning"))
            return FileRead(got.problems, got.spec, got.next_line, got.rows)
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
                if isinstance(data, LongLine):
                    if report is not None:
                        read += data.n_bytes + data.ended
                        report(stream.consumed if isinstance(stream, _Gunzip) else read)
                    first = index == 0 and first_line == 1 and data.head.startswith(_BOM)
                    spec = _skipped(data, first, spec, parts, source.name, final)
                    if spec is None or (stop_at_error and parts.failed):
                        return out
                    out.spec = spec
                    continue
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


def _skipped(line: LongLine, bom: bool, spec: LogSpec | None, parts: _Parts, name: str, final: bool) -> LogSpec | None:
    """A line too long to be read (:func:`blocks` skipped it): one problem, at its number, after
    the blocks before it. Returns the file's spec: the long format when the line is the first
    non-blank one, None when it is the wide header (the file is refused, as a header that does
    not read)."""
    if not (line.ended or final):
        return spec  # the watcher's partial last line: read when it is complete
    reason = line.reason(bom)
    parts.settle()
    head = line.head[3:] if bom else line.head
    if spec is None and head.lstrip().startswith(b"#"):
        parts.out.problems.append(LogProblem(name, parts.line, f"wide header: {reason}"))
        return None
    parts.out.problems.append(LogProblem(name, parts.line, reason))
    parts.line += 1
    parts.failed = True
    return spec or LONG


def _last_line(raw: bytes | bytearray, spec: LogSpec, parts: _Parts, name: str) -> None:
    """The last line has no newline: keep it with a warning if it reads, else drop it (torn)."""
    line, out = parts.line, parts.out
    if not raw.strip() or raw.strip() == (spec.header or "").encode():
        return
    part = parse_block(raw + b"\n", 0, len(raw) + 1, spec)
    if part.problems:
        reason = part.problems[0][1]
        if reason.startswith(("binary data", "line too long")):
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


def stored_size(path: Path | None) -> int | None:
    """Bytes of a file as stored, compressed or not (None for standard input)."""
    if path is None:
        return None
    try:
        return path.stat().st_size
    except OSError:
        return 0


class NoPool:
    """``with`` without a pool (one worker): the same code path as with a ThreadPoolExecutor."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
