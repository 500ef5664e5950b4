"""tui.formats.json.records (issue 17): column by column, the same dicts as the row-by-row
``itertuples`` it replaced (the reference below), on frames of every dtype the reports hold."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tui.formats.json import num
from tui.formats.json import records as _records


def _itertuples_records(frame: pd.DataFrame, strings: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {c: (str(v) if c in strings else num(v)) for c, v in zip(frame.columns, row)}
        for row in frame.itertuples(index=False)
    ]


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same types, floats to the bit (-0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return math.copysign(1.0, a) == math.copysign(1.0, b) and (a == b or (a != a and b != b))
    return bool(a == b)


def _frame(seed: int, rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    floats = rng.normal(size=rows)
    floats[rng.random(rows) < 0.2] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0, 3.0, 1e300])
    names = rng.choice(["C4.5", "KNN", "é x", "", "nan"], size=rows).astype(object)
    names[rng.random(rows) < 0.2] = None
    return pd.DataFrame(
        {
            "name": pd.Series(names, dtype="str"),
            "label": pd.Series(names, dtype=object),
            "value": floats,
            "count": rng.integers(-(2**40), 2**40, size=rows),
            "masked": pd.array([i * 3 - 7 for i in range(rows)], dtype="Int64"),
            "small": rng.integers(0, 9, size=rows).astype(np.int32),
            "f32": rng.normal(size=rows).astype(np.float32),
            "cat": pd.Categorical(rng.choice(["a", "b"], size=rows)),
            "mixed": pd.Series(
                [1, 2.5, None, np.float64(3.0), "x", 4][: rows % 6] + [7] * (rows - rows % 6), dtype=object
            ),
        }
    )


@pytest.mark.parametrize("seed", range(20))
def test_as_itertuples(seed: int) -> None:
    frame = _frame(seed, rows=seed * 7 % 50)
    strings = ("name", "label", "cat", "mixed") if seed % 2 else ("name", "label")
    if seed % 2 == 0:
        frame = frame.drop(columns=["cat", "mixed"])
    assert _same(_records(frame, strings), _itertuples_records(frame, strings))


def test_no_columns_and_duplicate_names() -> None:
    empty = pd.DataFrame(index=range(3))
    assert _records(empty, ()) == _itertuples_records(empty, ()) == [{}, {}, {}]
    twice = pd.DataFrame([[1.5, "a", 2]], columns=["x", "s", "x"])
    assert _same(_records(twice, ("s",)), _itertuples_records(twice, ("s",)))


def test_booleans_refused_alike() -> None:
    frame = pd.DataFrame({"flag": [True, False]})
    with pytest.raises(TypeError):
        _itertuples_records(frame, ())
    with pytest.raises(TypeError):
        _records(frame, ())
