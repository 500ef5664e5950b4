"""Markdown pieces every view's renderer uses: escaping of names, pipe tables, bold cells."""

from __future__ import annotations

import re
from collections.abc import Sequence

from stats.core.names import printable

_SPECIAL = re.compile(r"([\\|*`])")


def md_escape(name: object) -> str:
    """``name`` with ``\\ | * ``` backslash-escaped (newlines become spaces: a cell is one line)."""
    return _SPECIAL.sub(r"\\\1", printable(name))  # control characters escaped first (stats.core.names)


def table(header: Sequence[str], align: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A pipe table; ``align`` holds "l" or "r" per column."""
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(marks[a] for a in align) + " |"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def bold(text: str, on: bool) -> str:
    return f"**{text}**" if on else text
