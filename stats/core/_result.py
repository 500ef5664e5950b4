"""Results that hold a table: a frozen object with the DataFrame as ``table`` and its metadata as fields.

They replace ``DataFrame.attrs``, which pandas deep-copies on every operation and which any
operation may drop. The object still reads like its table where users relied on that:
``res["holm"]``, ``res.loc[...]``, ``len(res)``, ``for col in res``, ``res.index`` and every other
DataFrame attribute are the table's. Anything that needs a real DataFrame takes ``res.table``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not imported here: stats.read_logs imports pandas in a thread while it reads
    import pandas as pd


@dataclass(frozen=True, eq=False)
class TableResult:
    """A frozen result: ``table`` (a DataFrame) plus the subclass's metadata fields."""

    table: pd.DataFrame

    def __getattr__(self, name: str) -> Any:
        # only called for names the result itself lacks: read them from the table
        if name.startswith("__") or name == "table":
            raise AttributeError(name)
        if name == "attrs":
            meta = ", ".join(f.name for f in fields(self) if f.name != "table")
            raise AttributeError(
                f"{type(self).__name__} keeps its metadata as fields ({meta}), not in DataFrame.attrs; "
                "the DataFrame itself is .table"
            )
        return getattr(self.table, name)

    def __getitem__(self, key: Any) -> Any:
        return self.table[key]

    def __len__(self) -> int:
        return len(self.table)

    def __iter__(self) -> Any:
        return iter(self.table)

    def __contains__(self, key: Any) -> bool:
        return key in self.table

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.table.to_numpy(dtype=dtype)

    # comparisons and arithmetic act on the table, as they did when the result was a DataFrame
    # (without these, ``res == 4`` would silently be False)
    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self.table == table_of(other)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self.table != table_of(other)

    __hash__ = None  # type: ignore[assignment]  # like a DataFrame: compares elementwise, so unhashable

    def __lt__(self, other: Any) -> Any:
        return self.table < table_of(other)

    def __le__(self, other: Any) -> Any:
        return self.table <= table_of(other)

    def __gt__(self, other: Any) -> Any:
        return self.table > table_of(other)

    def __ge__(self, other: Any) -> Any:
        return self.table >= table_of(other)

    def __add__(self, other: Any) -> Any:
        return self.table + table_of(other)

    def __radd__(self, other: Any) -> Any:
        return table_of(other) + self.table

    def __sub__(self, other: Any) -> Any:
        return self.table - table_of(other)

    def __rsub__(self, other: Any) -> Any:
        return table_of(other) - self.table

    def __mul__(self, other: Any) -> Any:
        return self.table * table_of(other)

    def __rmul__(self, other: Any) -> Any:
        return table_of(other) * self.table

    def __truediv__(self, other: Any) -> Any:
        return self.table / table_of(other)

    def __rtruediv__(self, other: Any) -> Any:
        return table_of(other) / self.table

    def __neg__(self) -> Any:
        return -self.table

    def __abs__(self) -> Any:
        return abs(self.table)

    def __repr__(self) -> str:
        meta = ", ".join(f"{f.name}={_short(getattr(self, f.name))}" for f in fields(self) if f.name != "table")
        return f"{type(self).__name__}({meta})\n{self.table!r}"


def _short(value: Any) -> str:
    pd = sys.modules.get("pandas")  # a Series or DataFrame means pandas is imported
    if pd is not None and isinstance(value, (pd.Series, pd.DataFrame)):
        return f"<{type(value).__name__} of {len(value)}>"
    if isinstance(value, (list, tuple, dict)) and len(value) > 4:
        return f"<{type(value).__name__} of {len(value)}>"
    return repr(value)


def table_of(x: Any) -> Any:
    """The DataFrame behind a :class:`TableResult`; anything else unchanged."""
    return x.table if isinstance(x, TableResult) else x


@dataclass(frozen=True, eq=False, repr=False)
class LogRead(TableResult):
    """:func:`stats.read_logs`' result: ``table`` (the tidy frame) and what the read found.

    It lives here, not in :mod:`stats.logs`, so that :mod:`stats.cells` can take it without
    importing the readers."""

    #: the errors and warnings (:class:`~stats.LogProblem`), in file and line order
    problems: tuple[Any, ...]
    #: the files read, in order (``"<stdin>"`` for standard input)
    files: tuple[str, ...]
    #: the number of result lines kept
    lines: int
