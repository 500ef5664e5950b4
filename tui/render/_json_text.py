"""``json.dumps(doc, indent=2, ensure_ascii=True, allow_nan=False)``, the same bytes in a third of
the time: the report's JSON (:func:`tui.render._json.render_json`) is mostly small flat objects
(one per row of a table), and ``json.dumps`` writes every value of an indented document through
its pure-Python encoder (CPython's C encoder, ``_json.make_encoder``, has no indent before 3.13).

An indented container that holds only scalars is written as ``"{" + "\\n" + ind`` + its items
joined by ``",\\n" + ind`` + ``"\\n" + outer + "}"`` (``json.encoder._make_iterencode``): exactly
what the C encoder writes between the braces when its item separator is ``",\\n" + ind`` and its
key separator ``": "`` (the scalars and keys converted as the Python encoder does: ``float.__repr__``,
``int.__repr__``, ``true``/``false``/``null``, the same ASCII escapes). So such a leaf goes through
the C encoder in one call, and only the containers of containers are walked here.

Anything else than dicts, lists, tuples, str, int, float, bool and None of exactly those types
(a subclass, e.g. ``numpy.float64``, included), or an error (a non-finite float, a key json
refuses, a cycle), sends the whole document to ``json.dumps`` itself, which then writes it, or
raises its own error.
"""

from __future__ import annotations

import json
from json import encoder as _encoder
from typing import Any

_SCALARS = frozenset({str, int, float, bool, type(None)})
_INDENT = 2


class _Fallback(Exception):
    """The document holds something this writer leaves to ``json.dumps``."""


def _refuse(o: Any) -> Any:
    raise _Fallback


def _leaf_writer(level: int) -> Any:
    """The C encoder whose items are separated as the children of a container at ``level``."""
    make = getattr(_encoder, "c_make_encoder", None)
    if make is None:
        raise _Fallback
    sep = ",\n" + " " * (_INDENT * level)
    # make_encoder(markers, default, encoder, indent, key_separator, item_separator, sort_keys,
    # skipkeys, allow_nan): json.JSONEncoder.iterencode's one-shot call with indent=None
    return make({}, _refuse, _encoder.encode_basestring_ascii, None, ": ", sep, False, False, False)


def _write(o: Any, level: int, out: list[str], writers: dict[int, Any]) -> None:
    kind = type(o)
    if kind in _SCALARS:
        out.append("".join(_writer(level, writers)(o, 0)))
        return
    if kind is dict:
        values: Any = o.values()
    elif kind is list or kind is tuple:
        values = o
    else:
        raise _Fallback
    if not o:
        out.append("{}" if kind is dict else "[]")
        return
    inner = "\n" + " " * (_INDENT * (level + 1))
    close = "\n" + " " * (_INDENT * level) + ("}" if kind is dict else "]")
    if _SCALARS.issuperset(map(type, values)):
        text = "".join(_writer(level + 1, writers)(o, 0))
        out.append(text[0] + inner + text[1:-1] + close)
        return
    out.append("{" if kind is dict else "[")
    first = True
    if kind is dict:
        for k, v in o.items():
            if type(k) is not str:
                raise _Fallback
            out.append(inner if first else "," + inner)
            first = False
            out.append(_encoder.encode_basestring_ascii(k))
            out.append(": ")
            _write(v, level + 1, out, writers)
    else:
        for v in o:
            out.append(inner if first else "," + inner)
            first = False
            _write(v, level + 1, out, writers)
    out.append(close)


def _writer(level: int, writers: dict[int, Any]) -> Any:
    w = writers.get(level)
    if w is None:
        w = writers[level] = _leaf_writer(level)
    return w


def dumps_indented(doc: Any) -> str:
    """``json.dumps(doc, indent=2, ensure_ascii=True, allow_nan=False)``, byte for byte."""
    out: list[str] = []
    try:
        _write(doc, 0, out, {})
    except (_Fallback, ValueError, TypeError, RecursionError):
        return json.dumps(doc, indent=_INDENT, ensure_ascii=True, allow_nan=False)
    return "".join(out)
