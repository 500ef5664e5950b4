"""The cells of long tables, formatted a column at a time and each distinct value once.

A table of all pairs of 1,000 learners has 499,500 rows; formatting it row by row (``itertuples``,
a ``fmt_p`` per cell) took minutes, most of it formatting the same few values again (Holm's and
Shaffer's APVs are mostly 1, the z statistics of three data sets take a few thousand values).
:func:`each_float` formats each distinct float once (told apart by their bits: ``-0.0`` prints
``-0``, NaNs are NaN) and :func:`each_value` each distinct name once; both give exactly what the
row-by-row calls gave, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd


def each_float(values: Any, fn: Callable[[float], Any]) -> list[Any]:
    """``[fn(float(v)) for v in values]``, ``fn`` called once per distinct float (bit for bit); equal
    values share the one object ``fn`` gave."""
    array = np.ascontiguousarray(np.asarray(values, dtype=np.float64)).reshape(-1)
    if not array.size:
        return []
    bits, where = np.unique(array.view(np.int64), return_inverse=True)
    texts = np.array([fn(v) for v in bits.view(np.float64).tolist()], dtype=object)
    return texts[where.reshape(-1)].tolist()


def each_value(values: Iterable[Any], fn: Callable[[Any], str]) -> list[str]:
    """``[fn(v) for v in values]``, ``fn`` called once per distinct (hashable) value."""
    done: dict[Any, str] = {}
    out = []
    for v in values:
        text = done.get(v)
        if text is None:
            text = done[v] = fn(v)
        out.append(text)
    return out


def column(frame: Any, name: str) -> list[Any]:
    """The values of ``frame[name]`` as ``frame.itertuples()`` gives them (:func:`values`)."""
    return values(frame[name])


def values(series: pd.Series) -> list[Any]:
    """The values of ``series`` as iterating it (``itertuples``) gives them, read in bulk where that
    is the same: a NumPy column's ``tolist()`` (its ``item()`` of each element), a string column's
    ``array.tolist()`` (its strings, its NA value for missing ones) instead of an Arrow scalar per
    row; any other dtype iterated."""
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        return series.array.tolist()
    if isinstance(dtype, np.dtype) and dtype.kind in "fiub":
        return series.to_numpy().tolist()
    return list(series)
