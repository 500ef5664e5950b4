"""Integer keys of cells and runs: a cell's three label codes packed in one int64, a (repeat,
fold) pair in one int32 or int64, and which rows a later row with the same keys replaces.

Shared by :mod:`stats.cells._incremental`, :mod:`stats.cells._values` and :mod:`stats.cells._completeness`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats.cells._aggregate import _BITS


def _pack(codes3: np.ndarray) -> np.ndarray:
    """One int64 per cell from its three label codes (21 bits each)."""
    return (codes3[:, 0] << 2 * _BITS) | (codes3[:, 1] << _BITS) | codes3[:, 2]


def _run_key(repeat: np.ndarray, fold: np.ndarray, wide: bool = False) -> np.ndarray:
    """(repeat, fold) as one integer: int32 ``r << 16 | f`` when both are in [0, 2^15), else int64."""
    r, f = np.asarray(repeat), np.asarray(fold)
    if not (np.issubdtype(r.dtype, np.integer) and np.issubdtype(f.dtype, np.integer)):
        raise ValueError(f"columns 'repeat' and 'fold' must hold integers, got {r.dtype} and {f.dtype}")
    lo, hi = (min(r.min(), f.min()), max(r.max(), f.max())) if r.size else (0, 0)
    if not wide and lo >= 0 and hi < 1 << 15:
        key = r.astype(np.int32)
        key <<= 16
        key |= f.astype(np.int32)
        return key
    if lo < -(2**31) or hi >= 2**31:
        raise ValueError("repeat and fold must fit in 32-bit integers")
    return (r.astype(np.int64) << 32) | (f.astype(np.int64) & 0xFFFFFFFF)


def _split(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`_run_key`: the repeats and the folds."""
    if key.dtype == np.int32:
        return key >> 16, key & 0xFFFF
    return key >> 32, (key & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


def _latest(cell: np.ndarray, run: np.ndarray) -> np.ndarray | None:
    """Mask keeping the last row of each (cell, run), or None when all are distinct."""
    run = run - run.min()
    if int(run.max()) < 1 << 42 and int(cell.max()) < 1 << _BITS:
        dup = pd.Index((cell << 42) | run).duplicated(keep="last")
    else:
        dup = pd.DataFrame({"c": cell, "r": run}).duplicated(keep="last").to_numpy()
    return ~dup if dup.any() else None
