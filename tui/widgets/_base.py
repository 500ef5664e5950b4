"""Small widgets of the rankboard app; each renders from attributes and posts messages up."""

from __future__ import annotations

import math
from typing import Any

from rich.text import Text
from textual.widgets import Static

from stats.core.names import printable


def literal(name: Any, style: str = "") -> Text:
    """A name from the logs as literal text: no markup, control characters and bidi overrides
    shown escaped (:func:`stats.core.names.printable`, the rule of every output)."""
    return Text(printable(name), style=style, no_wrap=True)


def matches(needle: str, *names: Any) -> bool:
    """The ``/`` filter's rule, for the sidebar's lists and the views' rows alike: no filter, or
    one of ``names`` contains ``needle`` (case-folded already), ignoring case."""
    return not needle or any(needle in str(name).casefold() for name in names)


def num(value: Any, digits: int = 3) -> str:
    """A number for a table cell (blank for missing)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(x):
        return "-"
    if x != 0 and (abs(x) < 10**-digits or abs(x) >= 10**6):
        return f"{x:.{digits}g}"
    return f"{x:.{digits}f}"


def cell(value: Any) -> Text:
    return value if isinstance(value, Text) else Text(str(value), no_wrap=True)


def text_table(header: list[Any], rows: list[list[Any]], *, gap: int = 2) -> Text:
    """Rows of cells as fixed-width text: the first column left-aligned, the others right-aligned."""
    grid = [[cell(c) for c in header]] + [[cell(c) for c in row] for row in rows]
    widths = [max(g[i].cell_len for g in grid if i < len(g)) for i in range(len(grid[0]))]
    out = Text(no_wrap=True)
    for r, row in enumerate(grid):
        for i, c in enumerate(row):
            pad = " " * (widths[i] - c.cell_len)
            if i == 0:
                out.append_text(c)
                out.append(pad)
            else:
                out.append(" " * gap + pad)
                out.append_text(c)
        if r == 0:
            out.stylize("bold", 0, len(out))
        out.append("\n")
    return out


class Plain:
    """Mixin for text panels: ``show(text)`` updates the widget and keeps ``plain`` for tests and export."""

    plain: str = ""

    def show(self, text: Text) -> None:
        self.plain = text.plain
        self.update(text)  # type: ignore[attr-defined]


class Note(Plain, Static):
    pass
