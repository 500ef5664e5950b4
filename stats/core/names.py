"""Names from logs, made safe to show: the one rule every human-facing output applies.

Learner and data-set names come from logs that other people, other programs or a
compromised job wrote. Written raw, ``\\x1b]0;pwned\\x07`` retitles the user's terminal,
``\\x1b[2J`` clears it and ``\\x1b]52;c;...\\x07`` (OSC 52) overwrites the clipboard; a
right-to-left override (U+202E) makes ``exe.txt`` read as ``txt.exe``; ``=cmd|'/c calc'!A1``
in a CSV cell is run as a formula by a spreadsheet.

The rule:

* :func:`printable` shows every C0 and C1 control character, DEL and the Unicode bidi
  embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) as Python escapes:
  ``\\x1b``, ``\\x07``, ``\\x9b``, ``\\u202e``. A name is then shown literally, in one
  line, and looks like what one would type to produce it. (A backslash already in a name is
  left as it is: the escape is for the reader's eyes, not a reversible encoding.)
* :func:`spreadsheet_safe` (CSV) also prefixes with ``'`` a cell a spreadsheet would
  evaluate -- one beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return that is
  not a number -- as OWASP recommends ("CSV injection"); ``-0.5`` stays a number.

Renderers apply them to names (the text report, markdown and LaTeX before their own escaping,
the app, ``rankboard check`` and error messages); :func:`printable_lines` is the last pass of
a whole text output, so that nothing missed on the way reaches the terminal.
"""

from __future__ import annotations

import re
from typing import Any

#: C0 controls except newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: The same, newline included (a name is one line).
_UNSAFE_IN_NAME = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: Invisible characters that would make two names that look alike differ: a byte-order mark
#: (what ``cat a.dat b.dat`` leaves at the start of a line) and the zero-width space, non-joiner,
#: joiner and word joiner. Reading a log removes them from names, with a warning.
INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060]")
#: Characters that make a spreadsheet evaluate a cell (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(name: Any) -> str:
    """``name`` as one line with every control character and bidi override escaped.

    >>> printable("\\x1b]0;pwned\\x07")
    '\\\\x1b]0;pwned\\\\x07'
    >>> printable("a\\nb\\u202ec"), printable("plain name")
    ('a\\\\x0ab\\\\u202ec', 'plain name')
    """
    return _UNSAFE_IN_NAME.sub(_escape, str(name))


def has_controls(name: Any) -> bool:
    """Whether :func:`printable` would change ``name``."""
    return _UNSAFE_IN_NAME.search(str(name)) is not None


def without_invisible(name: str) -> str:
    """``name`` without :data:`INVISIBLE` characters (``'\\ufeffiris'`` is ``'iris'``).

    >>> without_invisible("\\ufeffir\\u200bis")
    'iris'
    """
    return INVISIBLE.sub("", name)


def show_invisible(name: str) -> str:
    """``name`` with its invisible characters written as ``\\ufeff`` (for a warning)."""
    return INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(name))


def printable_lines(text: str) -> str:
    """A whole multi-line output with every control character but newline escaped."""
    return _UNSAFE.sub(_escape, text)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def spreadsheet_safe(cell: Any, *, raw: bool = False) -> Any:
    """A CSV cell from a log: :func:`printable`, and ``'``-prefixed when a spreadsheet would
    evaluate it (unless ``raw``, for programs that read the CSV). Non-strings pass unchanged.

    >>> spreadsheet_safe("=cmd|'/c calc'!A1"), spreadsheet_safe("-0.5"), spreadsheet_safe("knn")
    ("'=cmd|'/c calc'!A1", '-0.5', 'knn')
    >>> spreadsheet_safe("+SUM(A1)", raw=True)
    '+SUM(A1)'
    """
    if not isinstance(cell, str):
        return cell
    if raw:
        return printable(cell)
    if cell.startswith(FORMULA_STARTS) and not _is_number(cell):
        return "'" + printable(cell)
    return printable(cell)
