"""pyarrow arrays as numpy arrays, and their nulls filled, without pyarrow's pandas shim.

``pyarrow.Array.to_numpy`` goes through ``ConvertArrayToPandas``, which imports pandas the first
time it runs (pyarrow 26: ~0.3 s, in whichever thread converts first, the others waiting on the
import lock). The readers convert primitive columns only, so they view their data buffer
instead, as ``to_numpy(zero_copy_only=True)`` does: the same values, read-only, no copy, and
no pandas (which :func:`stats.read_logs` imports in a thread of its own meanwhile:
:mod:`stats.core.import_ahead`). ``fill_null`` imports pandas too, to check its argument: it is called
only on arrays that have nulls (:func:`filled`, :func:`nulls`).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

#: The primitive types viewed in place, and their numpy types.
_VIEWED: dict[pa.DataType, type[np.generic]] = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
    pa.uint8(): np.uint8,
    pa.uint16(): np.uint16,
    pa.uint32(): np.uint32,
    pa.uint64(): np.uint64,
    pa.float32(): np.float32,
    pa.float64(): np.float64,
}


def numpy_of(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """``array.to_numpy(zero_copy_only=False)``: a view of the data for a primitive array without
    nulls (chunks joined), pyarrow's own conversion otherwise (nulls, booleans, other types)."""
    if isinstance(array, pa.ChunkedArray):
        dtype = _VIEWED.get(array.type)
        if dtype is None or array.null_count:
            return array.to_numpy()
        if array.num_chunks == 1:
            return numpy_of(array.chunk(0))
        return np.concatenate([numpy_of(chunk) for chunk in array.chunks]) if array.num_chunks else np.empty(0, dtype)
    dtype = _VIEWED.get(array.type)
    if dtype is None or array.null_count:
        return array.to_numpy(zero_copy_only=False)
    data = array.buffers()[1]
    if data is None:  # an empty array may have no buffer
        return np.empty(0, dtype)
    return np.frombuffer(data, dtype, len(array), array.offset * np.dtype(dtype).itemsize)


def filled(array: pa.Array, value: float) -> pa.Array:
    """``array.fill_null(value)``; the array itself when it has no null (no pandas imported)."""
    return array.fill_null(value) if array.null_count else array


def nulls(array: pa.Array) -> np.ndarray:
    """Which entries are null, as a numpy bool array (all False, at once, when there is none)."""
    return array.is_null().to_numpy(zero_copy_only=False) if array.null_count else np.zeros(len(array), bool)
