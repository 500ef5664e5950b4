"""What an Arrow IPC file or stream declares it holds, read from its messages' metadata before any
message body is decoded: the rows of each record batch, the entries of each dictionary batch, and
the bytes its compressed buffers take once decompressed.

Why by hand: pyarrow decodes (and decompresses) a whole record batch or dictionary before saying
how many rows it has, and its message reader trusts a message's declared body length; the
metadata it would read is a small flatbuffer (Arrow's ``Message.fbs`` and ``File.fbs``), of which
this module reads the few fields it needs, every offset checked against the bytes it has.

Layout (Arrow columnar format, "Serialization and Interprocess Communication"): a stream is a
sequence of messages, each ``0xFFFFFFFF``, an int32 metadata length, the metadata (a flatbuffer
``Message``), then the body; a metadata length of 0 ends it. A file is ``ARROW1\\0\\0``, a stream,
a flatbuffer ``Footer`` listing the blocks (offset, metadata length, body length) of its
dictionaries and record batches, the footer's int32 length and ``ARROW1``. A compressed body
prefixes each buffer with its decompressed length (int64, -1: stored as is).
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field

#: MessageHeader union types (Message.fbs).
SCHEMA, DICTIONARY, RECORD_BATCH = 1, 2, 3
_CONTINUATION = 0xFFFFFFFF
#: A metadata flatbuffer longer than this is not read (a log's schema takes well under 10 kB).
MAX_METADATA = 16 << 20
#: Block (File.fbs): offset (int64), metadata length (int32, padded), body length (int64).
_BLOCK = "<qi4xq"
#: Buffer and FieldNode (Message.fbs): two int64.
_PAIR = "<qq"


class CorruptIPC(ValueError):
    """The metadata do not hold together (an offset past the end, a negative length)."""


def _get(data: bytes, fmt: str, pos: int) -> int:
    """One little-endian value of ``fmt`` at ``pos``, checked to lie within ``data``."""
    if pos < 0 or pos + struct.calcsize(fmt) > len(data):
        raise CorruptIPC("metadata point past their end")
    return int(struct.unpack_from(fmt, data, pos)[0])


class Flat:
    """A flatbuffers table: ``data[pos]`` holds the signed offset back to its vtable, whose
    entries give each field's position in the table (0: absent, the default applies)."""

    def __init__(self, data: bytes, pos: int) -> None:
        self.data, self.pos = data, pos
        self.vtable = pos - _get(data, "<i", pos)
        self.vsize = _get(data, "<H", self.vtable)

    @classmethod
    def root(cls, data: bytes) -> Flat:
        return cls(data, _get(data, "<I", 0))

    def _slot(self, i: int) -> int:
        at = 4 + 2 * i
        return _get(self.data, "<H", self.vtable + at) if at + 2 <= self.vsize else 0

    def scalar(self, i: int, fmt: str, default: int = 0) -> int:
        slot = self._slot(i)
        return _get(self.data, fmt, self.pos + slot) if slot else default

    def _target(self, i: int) -> int | None:
        slot = self._slot(i)
        if not slot:
            return None
        at = self.pos + slot
        return at + _get(self.data, "<I", at)

    def table(self, i: int) -> Flat | None:
        at = self._target(i)
        return None if at is None else Flat(self.data, at)

    def structs(self, i: int, fmt: str) -> list[tuple[int, ...]]:
        """A vector of structs of ``fmt`` (empty when absent)."""
        at = self._target(i)
        if at is None:
            return []
        n, size = _get(self.data, "<I", at), struct.calcsize(fmt)
        if at + 4 + n * size > len(self.data):
            raise CorruptIPC("a vector runs past the metadata's end")
        return list(struct.iter_unpack(fmt, self.data[at + 4 : at + 4 + n * size]))


def header_type(metadata: bytes) -> int | None:
    """The header type of a ``Message`` flatbuffer (1: schema), None when it is not one."""
    try:
        message = Flat.root(metadata)
        version = message.scalar(0, "<h")
        kind = message.scalar(1, "<B")
    except CorruptIPC:
        return None
    return kind if 0 <= version <= 4 else None


@dataclass
class Declared:
    """What messages declare, summed: rows of record batches, entries of dictionaries, and the
    bytes their compressed buffers take once decompressed (``unpacked``)."""

    rows: int = 0
    entries: int = 0
    unpacked: int = 0

    def plus(self, other: Declared) -> Declared:
        return Declared(self.rows + other.rows, self.entries + other.entries, self.unpacked + other.unpacked)


@dataclass
class Scan:
    """An IPC file's or stream's record batches in reading order: ``before[i]`` sums what is
    decoded up to and including batch ``i`` (its dictionaries with it); ``cut`` says why the
    messages stop early (a stream cut short), None when they end as they should."""

    before: list[Declared] = field(default_factory=list)
    cut: str | None = None

    @property
    def total(self) -> Declared:
        return self.before[-1] if self.before else Declared()


class _Reader:
    """Reads at absolute positions of a file descriptor (``os.pread``: the position pyarrow
    reads the same file from is left alone), never past ``size``."""

    def __init__(self, fd: int, size: int) -> None:
        self.fd, self.size = fd, size

    def read(self, pos: int, n: int) -> bytes:
        if pos < 0 or n < 0 or pos + n > self.size:
            raise CorruptIPC(f"a message runs past the end of the file (byte {pos:,} + {n:,} of {self.size:,})")
        data = os.pread(self.fd, n, pos)
        if len(data) != n:
            raise CorruptIPC("the file is shorter than it was")
        return data

    def message(self, pos: int) -> tuple[bytes | None, int]:
        """The metadata of the message at ``pos`` (None: end of stream) and where its body starts."""
        marker = _get(self.read(pos, 4), "<I", 0)
        if marker == _CONTINUATION:
            length, start = _get(self.read(pos + 4, 4), "<i", 0), pos + 8
        else:  # the format before Arrow 0.15: the length alone
            length, start = struct.unpack("<i", struct.pack("<I", marker))[0], pos + 4
        if length == 0:
            return None, start
        if length < 0 or length > MAX_METADATA:
            raise CorruptIPC(f"a message declares {length:,} bytes of metadata")
        return self.read(start, length), start + length


def _declared(reader: _Reader, metadata: bytes, body: int) -> tuple[int, Declared, int]:
    """A message's header type, what it declares, and its body's length."""
    message = Flat.root(metadata)
    kind, body_length = message.scalar(1, "<B"), message.scalar(3, "<q")
    if body_length < 0:
        raise CorruptIPC(f"a message declares a body of {body_length:,} bytes")
    got = Declared()
    header = message.table(2)
    if kind == DICTIONARY and header is not None:
        header = header.table(1)
    if kind not in (DICTIONARY, RECORD_BATCH) or header is None:
        return kind, got, body_length
    # pyarrow makes each column as long as its field node says: the longest counts
    nodes = header.structs(1, _PAIR)
    length = max([header.scalar(0, "<q"), *(n for n, _ in nodes)])
    if min([length, *(n for n, _ in nodes), *(nulls for _, nulls in nodes)]) < 0:
        raise CorruptIPC("a batch declares a negative length")
    if kind == RECORD_BATCH:
        got.rows = length
    else:
        got.entries = length
    if header.table(3) is not None:  # compressed: each buffer starts with its decompressed length
        for offset, size in header.structs(2, _PAIR):
            if size <= 0:
                continue
            if size < 8 or offset < 0 or offset + size > body_length:
                raise CorruptIPC("a compressed buffer lies outside its message's body")
            unpacked = _get(reader.read(body + offset, 8), "<q", 0)
            if unpacked < -1:
                raise CorruptIPC(f"a buffer declares {unpacked:,} bytes decompressed")
            got.unpacked += size - 8 if unpacked == -1 else unpacked
    return kind, got, body_length


def scan_stream(fd: int, size: int) -> Scan:
    """The record batches of an IPC stream (its schema message first), each with what it and the
    dictionaries before it declare. A message past the end of the file stops the scan (``cut``):
    the batches before it can be read."""
    reader, out, pending, pos = _Reader(fd, size), Scan(), Declared(), 0
    try:
        while pos < size:
            metadata, body = reader.message(pos)
            if metadata is None:
                break
            kind, got, body_length = _declared(reader, metadata, body)
            if body_length:
                reader.read(body + body_length - 1, 1)  # the body is all there
            pending = pending.plus(got)
            if kind == RECORD_BATCH:
                out.before.append(pending if not out.before else out.before[-1].plus(pending))
                pending = Declared()
            pos = body + body_length
    except CorruptIPC as exc:
        out.cut = str(exc)
    return out


def scan_file(fd: int, size: int) -> Scan:
    """The record batches an IPC file's footer lists, each with what it declares; every
    dictionary the footer lists is counted with the first (pyarrow reads them all before it)."""
    reader = _Reader(fd, size)
    tail = reader.read(size - 10, 10) if size >= 18 else b""
    if tail[4:] != b"ARROW1":
        raise CorruptIPC("no Arrow footer at the end of the file (cut short?)")
    length = _get(tail, "<i", 0)
    if length <= 0 or length > min(size - 18, MAX_METADATA):
        raise CorruptIPC(f"the footer declares {length:,} bytes")
    footer = Flat.root(reader.read(size - 10 - length, length))
    out, dictionaries = Scan(), Declared()
    for offset, meta_length, body_length in footer.structs(2, _BLOCK):
        dictionaries = dictionaries.plus(_block(reader, offset, meta_length, body_length))
    for i, (offset, meta_length, body_length) in enumerate(footer.structs(3, _BLOCK)):
        got = _block(reader, offset, meta_length, body_length)
        out.before.append(got.plus(dictionaries) if i == 0 else out.before[-1].plus(got))
    return out


def _block(reader: _Reader, offset: int, meta_length: int, block_body: int) -> Declared:
    """What the message of a footer's block declares (its body, as the block and the message
    give its length, within the file)."""
    metadata, body = reader.message(offset)
    if metadata is None or body > offset + meta_length or block_body < 0:
        raise CorruptIPC(f"the footer lists a block at byte {offset:,} that holds no message")
    _, got, body_length = _declared(reader, metadata, offset + meta_length)
    longest = max(body_length, block_body)
    if longest:
        reader.read(offset + meta_length + longest - 1, 1)  # the body is all there
    return got
