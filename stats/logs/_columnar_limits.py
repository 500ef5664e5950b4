"""The limits a Parquet or Arrow file is held to before it is decoded: the rows its footer or
schema declares, and the bytes its compressed parts unpack to, against the decompression limits a
gzip text log is held to (:class:`stats.logs._paths.Decompression`): a columnar "bomb" is refused
before it is read, as a gzip bomb is stopped while it is."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from stats.logs._magic import PARQUET, sniff_file
from stats.logs._paths import Decompression

#: Bytes a result takes at least as text (``a,1,1,b,c,1\n``): the row bound of a columnar file.
ROW_BYTES = 12


class Refused(Exception):
    """The whole file is refused; the message is the reason."""


def declared_rows(path: Path, size: int, limits: Decompression) -> int | None:
    """The rows a Parquet file's footer declares (None: not Parquet, unreadable, or more rows than
    ``limits`` let it hold), for the reader to reserve its arrays at once: a Parquet row takes ~2
    bytes on disk, so the text's ~12 bytes a row reserved a sixth of them and the arrays grew by
    doubling (three copies of 5M rows)."""
    if sniff_file(path) != PARQUET:
        return None
    try:
        import pyarrow.parquet as pq

        rows = int(pq.read_metadata(path).num_rows)
        bound_rows(rows, size, limits)
    except (OSError, pa.ArrowException, Refused):
        return None  # read_columnar names the problem
    return rows


def over(n: int, size: int, limits: Decompression) -> bool:
    """Whether ``n`` bytes out of a file of ``size`` bytes are past ``limits``."""
    return n > limits.max_bytes or (n >= limits.min_bytes and n > limits.max_ratio * max(size, 1))


def bound_rows(rows: int, size: int, limits: Decompression, entries: int = 0) -> None:
    """Refuse a file holding more rows (and dictionary entries, each of which a text log would
    need a line to hold) than a text log within ``limits`` could."""
    if over((rows + entries) * ROW_BYTES, size, limits):
        also = f" and {entries:,} dictionary entries" if entries else ""
        raise Refused(
            f"the file declares {rows:,} rows{also} in {size:,} bytes, more than the limits allow "
            f"({limits.max_ratio:g} x its size or {limits.max_bytes:,} bytes, at {ROW_BYTES} bytes a row): "
            "a Parquet/Arrow bomb? not read"
        )


def bound_unpacked(unpacked: int, size: int, limits: Decompression) -> None:
    """Refuse a file whose compressed parts decompress to more than ``limits`` let a gzip log."""
    if over(unpacked, size, limits):
        raise Refused(
            f"the file declares {unpacked:,} bytes once decompressed in {size:,} bytes, more than the limits "
            f"allow ({limits.max_ratio:g} x its size or {limits.max_bytes:,} bytes): a Parquet/Arrow bomb? not read"
        )
