"""Number formatting shared by the results' ``__str__`` methods."""

from __future__ import annotations

import html
import math
from typing import Any

import pandas as pd

#: Below this a p-value is printed as a bound: a double cannot hold it (N = 2000, k = 5 gives
#: p ~ 1e-1245, which underflows to 0) and no exact zero is ever printed.
P_FLOOR = 1e-300


class Printable:
    """Results print themselves the same way everywhere: ``str``, IPython's pretty printer
    (``_repr_pretty_``) and notebooks' HTML (``_repr_html_``), instead of a raw dataclass repr
    with embedded Series."""

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text("..." if cycle else str(self))

    def _repr_html_(self) -> str:
        table = getattr(self, "table", None)
        body = f"<pre>{html.escape(str(self))}</pre>"
        if isinstance(table, pd.DataFrame):
            body += table.to_html(escape=True)
        return body


def fmt_p(p: float) -> str:
    """Format a p-value: four decimals, scientific notation below 1e-4, ``<1e-300`` below that
    (an underflow is a bound, never an exact zero).

    >>> fmt_p(0.01234), fmt_p(3.2e-7), fmt_p(0.0)
    ('0.0123', '3.200e-07', '<1e-300')
    """
    if math.isnan(p):
        return "nan"
    if p < P_FLOOR:
        return "<1e-300"
    if p < 1e-4:
        return f"{p:.3e}"
    return f"{p:.4f}"


def p_is(p: float) -> str:
    """``"p = 0.0123"``, or ``"p < 1e-300"`` for an underflow: for sentences.

    >>> p_is(0.5), p_is(0.0)
    ('p = 0.5000', 'p < 1e-300')
    """
    text = fmt_p(p)
    return f"p < {text[1:]}" if text.startswith("<") else f"p = {text}"


def fmt_stat(x: float) -> str:
    """Format a test statistic with three decimals (``inf`` kept readable)."""
    if math.isinf(x):
        return "inf"
    return f"{x:.3f}"
