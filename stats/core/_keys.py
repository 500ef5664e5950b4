"""Integer keys: every packing of several integers into one, each with its bit budget, in one place.

Used by the log readers (:mod:`stats.logs`) and the cell summaries (:mod:`stats.cells`), which do
not import each other. Five layouts:

========  ======================================================  ==================================
layout    fields (high bits first)                                budget
========  ======================================================  ==================================
cell      criterion, dataset, learner label codes                 :data:`LABEL_BITS` (21) each: int64
run       repeat, fold                                            narrow int32: 15 bits each, >= 0;
                                                                  wide int64: 32 bits each, signed
row       dataset, repeat, fold, learner, criterion               :data:`ROW_BITS` (16, 11, 11, 16,
                                                                  10): uint64; other keys do not pack
location  file index, line number                                 :data:`FILE_BITS` (24),
                                                                  :data:`LINE_BITS` (39): int64
radix     any columns, each offset by its low and multiplied by   the product of the spans < 2**62
          the spans after it (a dense numbering)                  (int32 when < 2**31)
========  ======================================================  ==================================

A cell key or a location over its budget raises ``ValueError`` naming the limit; a row key over
its budget is reported as not packing (:func:`pack_row`'s mask), and a radix space over its
budget as ``None``: the callers then go another way (keep the row apart, group with pandas).
A narrow run key that does not fit is made wide (:func:`pack_run`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

# -- cell: (criterion, dataset, learner) label codes -----------------------------------------------

#: Bits per label code in a cell key (three codes: 63 bits of an int64).
LABEL_BITS = 21
#: The most distinct labels a column may have (codes 0 .. LABEL_MAX - 1).
LABEL_MAX = (1 << LABEL_BITS) - 1
_LABEL_MASK = (1 << LABEL_BITS) - 1


def check_labels(count: int, column: str) -> None:
    """Raise ``ValueError`` when ``count`` distinct labels of ``column`` do not fit a cell key."""
    if count > LABEL_MAX:
        raise ValueError(
            f"too many distinct labels in column {column!r}: {count:,} (at most {LABEL_MAX:,}: a cell key "
            f"holds {LABEL_BITS} bits a label)"
        )


def pack_cell(codes3: np.ndarray) -> np.ndarray:
    """One int64 per row of ``codes3`` (criterion, dataset, learner codes, each < 2**LABEL_BITS)."""
    codes3 = np.asarray(codes3, np.int64)
    if codes3.size and (int(codes3.min()) < 0 or int(codes3.max()) > _LABEL_MASK):
        raise ValueError(f"label codes must lie in [0, {_LABEL_MASK}] to pack a cell key")
    return (codes3[:, 0] << 2 * LABEL_BITS) | (codes3[:, 1] << LABEL_BITS) | codes3[:, 2]


def unpack_cell(keys: np.ndarray) -> np.ndarray:
    """Inverse of :func:`pack_cell`: an (n, 3) int64 array of (criterion, dataset, learner) codes."""
    keys = np.asarray(keys, np.int64)
    return (keys[:, None] >> np.array([2 * LABEL_BITS, LABEL_BITS, 0])) & _LABEL_MASK


def cell_criterion(keys: np.ndarray) -> np.ndarray:
    """The criterion codes of cell keys (without unpacking the rest)."""
    return np.asarray(keys, np.int64) >> 2 * LABEL_BITS


# -- run: (repeat, fold) -------------------------------------------------------------------------

#: Bits of a repeat and of a fold in a narrow (int32) run key; both must lie in [0, 2**15).
NARROW_BITS = 15
#: Bits of a repeat and of a fold in a wide (int64) run key: any int32.
WIDE_BITS = 32


def pack_run(repeat: np.ndarray, fold: np.ndarray, wide: bool = False) -> np.ndarray:
    """(repeat, fold) as one integer: int32 ``r << 16 | f`` when both lie in [0, 2**15) and not
    ``wide``, else int64 ``r << 32 | f`` (any 32-bit integers, negative ones included)."""
    r, f = np.asarray(repeat), np.asarray(fold)
    if not (np.issubdtype(r.dtype, np.integer) and np.issubdtype(f.dtype, np.integer)):
        raise ValueError(f"columns 'repeat' and 'fold' must hold integers, got {r.dtype} and {f.dtype}")
    lo, hi = (min(r.min(), f.min()), max(r.max(), f.max())) if r.size else (0, 0)
    if not wide and lo >= 0 and hi < 1 << NARROW_BITS:
        key = r.astype(np.int32)
        key <<= 16
        key |= f.astype(np.int32)
        return key
    if lo < -(2 ** (WIDE_BITS - 1)) or hi >= 2 ** (WIDE_BITS - 1):
        raise ValueError(f"repeat and fold must fit in {WIDE_BITS}-bit integers, got values in [{lo}, {hi}]")
    return (r.astype(np.int64) << WIDE_BITS) | (f.astype(np.int64) & 0xFFFFFFFF)


def unpack_run(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`pack_run` (narrow or wide, told by the dtype): the repeats and the folds."""
    if key.dtype == np.int32:
        return key >> 16, key & 0xFFFF
    return key >> WIDE_BITS, (key & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


#: Bits of a wide run key, less its smallest value, beside a cell number in one int64
#: (:func:`pack_cell_run`); the cell number gets the other 21.
CELL_RUN_BITS = 42


def pack_cell_run(cell: np.ndarray, run: np.ndarray) -> np.ndarray | None:
    """(cell number, wide run key) as one int64 each, ordered as the pairs are, or None when they
    do not fit (cells >= 2**21 or runs spread over 2**42 or more)."""
    if not cell.size:
        return np.empty(0, np.int64)
    run = run - run.min()
    if int(run.max()) >= 1 << CELL_RUN_BITS or int(cell.min()) < 0 or int(cell.max()) >= 1 << (63 - CELL_RUN_BITS):
        return None
    return (cell.astype(np.int64) << CELL_RUN_BITS) | run


# -- row: the five key columns of a result, for the watcher's index -------------------------------

#: Bits of each key column in a packed row key (64 in all), in the order packed.
ROW_BITS: Mapping[str, int] = {"dataset": 16, "repeat": 11, "fold": 11, "learner": 16, "criterion": 10}


#: Rows per chunk of :func:`pack_row`'s work space.
_ROW_CHUNK = 1 << 18


def pack_row(columns: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The rows' keys as one uint64 each (ordered as the keys are), and which rows' keys pack.

    A key packs when each of its five columns lies in ``[0, 2**ROW_BITS[column])``; the keys of
    the other rows are 0 (ignore them). Whether a key packs depends on the key alone, so equal
    keys either both pack or neither does.
    """
    n = len(columns["dataset"])
    key = np.zeros(n, np.uint64)
    fits = np.ones(n, bool)
    work = np.empty(min(n, _ROW_CHUNK), np.uint64)  # one chunk of a column at a time: no n-row copies
    for name, bits in ROW_BITS.items():
        column = np.asarray(columns[name])
        if n and (int(column.min()) < 0 or int(column.max()) >= 1 << bits):
            fits &= (column >= 0) & (column < 1 << bits)
        for s in range(0, n, _ROW_CHUNK):
            part, into = work[: len(column[s : s + _ROW_CHUNK])], key[s : s + _ROW_CHUNK]
            np.copyto(part, column[s : s + _ROW_CHUNK], casting="unsafe")
            part &= np.uint64((1 << bits) - 1)
            into <<= np.uint64(bits)
            into |= part
    if not fits.all():
        key[~fits] = 0
    return key, fits


def unpack_row(keys: np.ndarray) -> dict[str, np.ndarray]:
    """Inverse of :func:`pack_row` for keys that pack: the five columns (int64)."""
    out: dict[str, np.ndarray] = {}
    keys = np.asarray(keys, np.uint64)
    shift = 0
    for name, bits in list(ROW_BITS.items())[::-1]:
        out[name] = ((keys >> np.uint64(shift)) & np.uint64((1 << bits) - 1)).astype(np.int64)
        shift += bits
    return {name: out[name] for name in ROW_BITS}


# -- location: (file index, line) -------------------------------------------------------------------

#: Bits of a file index in a location (at most 2**24 - 1 = 16,777,215 files).
FILE_BITS = 24
#: Bits of a line number in a location (lines up to 2**39 - 1, about 5.5e11).
LINE_BITS = 39
FILE_MAX = (1 << FILE_BITS) - 1
LINE_MAX = (1 << LINE_BITS) - 1


def check_files(count: int) -> None:
    """Raise ``ValueError`` when ``count`` files cannot all be numbered in a location."""
    if count > FILE_MAX + 1:
        raise ValueError(
            f"too many files: {count:,} (at most {FILE_MAX + 1:,}: a location holds {FILE_BITS} bits a file)"
        )


def pack_location(file: np.ndarray, line: np.ndarray) -> np.ndarray:
    """(file index, line number) as one int64 each, ordered as the pairs are."""
    f, n = np.asarray(file, np.int64), np.asarray(line, np.int64)
    if f.size:
        check_files(int(f.max()) + 1)
        if int(f.min()) < 0:
            raise ValueError(f"file indexes must not be negative, got {int(f.min())}")
    if n.size and (int(n.min()) < 0 or int(n.max()) > LINE_MAX):
        bad = int(n.max()) if int(n.max()) > LINE_MAX else int(n.min())
        raise ValueError(f"line {bad:,} is out of range: a location holds lines 0 to {LINE_MAX:,} ({LINE_BITS} bits)")
    out = f << LINE_BITS
    out |= n  # in place: one array of work space, not two
    return out


def unpack_location(loc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`pack_location`: the file indexes and the line numbers."""
    loc = np.asarray(loc, np.int64)
    return loc >> LINE_BITS, loc & LINE_MAX


def location_file(loc: np.ndarray) -> np.ndarray:
    """The file indexes of locations."""
    return np.asarray(loc, np.int64) >> LINE_BITS


# -- radix: a dense numbering of several columns ---------------------------------------------------

#: The largest key space a radix numbering packs (the product of the spans must stay below).
RADIX_MAX = 2**62


def radix_space(spans: Sequence[int]) -> int:
    """The size of the key space of columns with these spans (exact: Python integers)."""
    space = 1
    for span in spans:
        space *= max(int(span), 1)
    return space


def radix_dtype(space: int) -> type[np.signedinteger] | None:
    """int32 for a space under 2**31, int64 under :data:`RADIX_MAX`, else None (does not pack)."""
    return np.int32 if space < 2**31 else np.int64 if space < RADIX_MAX else None


def pack_radix(
    columns: Sequence[np.ndarray],
    lows: Sequence[int],
    spans: Sequence[int],
    dtype: type,
    s: int = 0,
    e: int | None = None,
) -> np.ndarray:
    """``((c0 - low0) * span1 + (c1 - low1)) * span2 + ...`` of rows ``s:e``, in ``dtype``
    (:func:`radix_dtype` of the spans), computed in place (no int64 copy of int32 work)."""
    e = len(columns[0]) if e is None else e
    key: np.ndarray = np.empty(e - s, dtype)
    np.subtract(columns[0][s:e], lows[0], out=key, casting="unsafe")
    for column, low, span in zip(columns[1:], lows[1:], spans[1:]):
        key *= max(int(span), 1)
        key += column[s:e]
        if low:
            key -= low
    return key


def unpack_radix(key: np.ndarray, spans: Sequence[int]) -> list[np.ndarray]:
    """Inverse of :func:`pack_radix` with zero lows: each column's values."""
    out = []
    key = np.asarray(key, np.int64)
    for span in reversed(spans[1:]):
        span = max(int(span), 1)
        out.append(key % span)
        key = key // span
    out.append(key)
    return out[::-1]
