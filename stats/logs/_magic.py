"""Which columnar format a file is, by its whole magic, never by a prefix a text log could start
with (a data set named ``PAR1_cohort`` or ``ARROW1x`` is text):

- Parquet: ``PAR1`` at the start and at the end, the footer's length before the end one fitting
  in the file (Apache Parquet, "File Format");
- Arrow IPC file (Feather v2): ``ARROW1\\0\\0`` at the start, ``ARROW1`` at the end, the footer's
  length before it fitting in the file;
- Arrow IPC stream: the continuation marker ``0xFFFFFFFF``, a metadata length, and a whole
  ``Message`` flatbuffer of type schema (Arrow columnar format, "Encapsulated message format").

A file with a columnar start but no end (cut short while written or copied) is still that format,
to be named unreadable, when its first bytes after the magic hold a NUL byte (binary: Parquet's
page headers and Arrow's message lengths hold several; a text line with one is an error anyway).
Standard input has no end to see: its first bytes alone decide (:func:`stdin_kind`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from stats.logs._ipc_limits import MAX_METADATA, SCHEMA, header_type

PARQUET, ARROW_FILE, ARROW_STREAM = "Parquet", "Arrow IPC", "Arrow IPC stream"
#: How each kind starts: a file that starts otherwise is none of them (its end is not read).
STARTS = (b"PAR1", b"ARROW1\0\0", b"\xff\xff\xff\xff")
#: The first bytes looked at (a NUL in them after a columnar start: binary, cut short).
HEAD = 1 << 16
#: The last bytes looked at: an Arrow file's footer length and magic.
TAIL = 10


def _binary(data: bytes) -> bool:
    return b"\0" in data[:HEAD]


def _footer_fits(tail: bytes, size: int, magic: bytes, framing: int) -> bool:
    """``tail`` ends with ``magic`` after an int32 footer length that fits in the file's
    ``size`` beside ``framing`` bytes of magic."""
    if size < framing or not tail.endswith(magic) or len(tail) < len(magic) + 4:
        return False
    length = int.from_bytes(tail[-len(magic) - 4 : -len(magic)], "little", signed=True)
    return 0 < length <= size - framing


def _schema_message(head: bytes) -> bool:
    """``head`` starts with a whole encapsulated schema message."""
    if len(head) < 8 or head[:4] != b"\xff\xff\xff\xff":
        return False
    length = int.from_bytes(head[4:8], "little", signed=True)
    return 0 < length <= min(len(head) - 8, MAX_METADATA) and header_type(head[8 : 8 + length]) == SCHEMA


def kind_of(head: bytes, tail: bytes | None, size: int | None) -> str | None:
    """The columnar kind of a file that starts with ``head`` and ends with ``tail`` (its last
    bytes), ``size`` bytes long; ``tail`` None: the end is unknown (standard input).

    >>> kind_of(b"PAR1_cohort,1,1,nb,acc,0.5\\n", b"acc,0.5\\n", 27)
    """
    if head.startswith(b"PAR1"):
        whole = tail is not None and size is not None and _footer_fits(tail, size, b"PAR1", 12)
        return PARQUET if whole or _binary(head[4:]) else None
    if head.startswith(b"ARROW1\0\0"):
        whole = tail is not None and size is not None and _footer_fits(tail, size, b"ARROW1", 18)
        return ARROW_FILE if whole or _binary(head[8:]) else None
    return ARROW_STREAM if _schema_message(head) else None


def sniff(data: bytes) -> str | None:
    """The columnar kind of a whole file's bytes ``data``, else None.

    >>> sniff(b"PAR1_cohort,1,1,nb,acc,0.5\\n"), sniff(b"ARROW1,1,1,nb,acc,0.5\\n")
    (None, None)
    """
    return kind_of(data[:HEAD], data[-TAIL:], len(data))


def sniff_file(path: Path) -> str | None:
    """The columnar kind of the file at ``path`` (None: text or gzip, unreadable, or not a
    regular file: a FIFO is opened without blocking and never read, as the text reader does)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not os.pread(fd, 8, 0).startswith(STARTS):
            return None
        head = os.pread(fd, HEAD, 0)
        if head[:4] == b"\xff\xff\xff\xff" and len(head) >= 8:  # a schema message longer than HEAD
            length = int.from_bytes(head[4:8], "little", signed=True)
            if HEAD < length + 8 <= min(st.st_size, MAX_METADATA + 8):
                head = os.pread(fd, length + 8, 0)
        tail = os.pread(fd, TAIL, max(st.st_size - TAIL, 0))
        return kind_of(head, tail, st.st_size)
    except OSError:
        return None
    finally:
        os.close(fd)


def stdin_kind(head: bytes) -> str | None:
    """The columnar kind of standard input's first bytes ``head`` (its end unseen)."""
    return kind_of(head, None, None)
