"""JSON numbers and records of every view's keys, and the pieces of their schemas (draft 2020-12)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from tui.formats.cells import each_float, values

NUM = {"type": ["number", "null"]}
STR_LIST = {"type": "array", "items": {"type": "string"}}
TEST = {
    "type": "object",
    "required": ["statistic", "pvalue", "df"],
    "properties": {"statistic": NUM, "pvalue": NUM, "df": {"type": ["array", "number"]}},
}


def row_schema(keys: tuple[str, ...], strings: tuple[str, ...]) -> dict[str, Any]:
    """An object of ``strings`` (strings) and ``keys`` (numbers or null), all required."""
    props: dict[str, Any] = {k: {"type": "string"} for k in strings}
    props.update({k: NUM for k in keys})
    return {"type": "object", "required": [*strings, *keys], "properties": props}


def num(x: Any) -> float | int | None:
    """A JSON number: ints stay ints, floats stay floats, non-finite becomes None."""
    if x is None:
        return None
    if isinstance(x, (bool,)):
        raise TypeError("a boolean is not a number")
    if isinstance(x, int):
        return x
    f = float(x)
    if f.is_integer() and not isinstance(x, float) and abs(f) < 2**53:
        return int(f)
    return f if math.isfinite(f) else None


def df_value(df: Any) -> Any:
    return [num(d) for d in df] if isinstance(df, tuple) else num(df)


def records(frame: pd.DataFrame, strings: tuple[str, ...]) -> list[dict[str, Any]]:
    """One dict per row: ``str`` of the ``strings`` columns, :func:`num` of the others.

    Column by column (:func:`_column`), the values ``frame.itertuples()`` would give row by row."""
    columns = list(frame.columns)
    values = [_column(frame.iloc[:, k], c in strings) for k, c in enumerate(columns)]
    return [dict(zip(columns, row)) for row in zip(*values)] if columns else [{} for _ in range(len(frame))]


def _shared(texts: list[str]) -> list[str]:
    """``texts`` with equal strings one object: a table of all pairs of 1,000 learners names each
    learner 999 times a column (half a million strings, not a thousand, held for the whole report)."""
    seen: dict[str, str] = {}
    return [seen.setdefault(t, t) for t in texts]


def _column(series: pd.Series, string: bool) -> list[Any]:
    """``[str(v) ...]`` or ``[num(v) ...]`` of the values iterating ``series`` gives (as
    ``itertuples`` does), read in bulk where that is the same: a NumPy column's ``tolist()`` is
    its ``item()`` of each element (float64: Python floats, num's own, None where not finite;
    int64: Python ints, which num keeps); a string column's ``tolist()`` the Python strings with
    its NA value (``pd.StringDtype.na_value``) for missing ones, as its iteration yields. Any other
    dtype is iterated."""
    dtype = series.dtype
    if string:
        return _shared([str(v) for v in values(series)])
    if isinstance(dtype, np.dtype) and dtype == np.float64:
        # one Python float per distinct value (by its bits), shared by the rows that hold it
        return each_float(series.to_numpy(), lambda f: f if math.isfinite(f) else None)
    if isinstance(dtype, np.dtype) and dtype == np.int64:
        return series.to_numpy().tolist()
    return [num(v) for v in series]
