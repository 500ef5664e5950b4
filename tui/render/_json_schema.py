"""The JSON Schema (draft 2020-12 subset) of ``rankboard report --format json`` for ``view="all"``:
the keys every document has, then each registered view's (:mod:`tui.registry`: a view's ``schema``)."""

from __future__ import annotations

from typing import Any

from tui import registry
from tui.formats.json import STR_LIST

#: The keys of every document, whatever the view.
COMMON_PROPERTIES: dict[str, Any] = {
    "criterion": {"type": "string"},
    "higher_is_better": {"type": "boolean"},
    "alpha": {"type": "number"},
    "test": {"type": "string"},
    "datasets": STR_LIST,
    "learners": STR_LIST,
    "excluded": {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["dataset", "reason"],
            "properties": {"dataset": {"type": "string"}, "reason": {"type": "string"}},
        },
    },
    "problem": {"type": ["string", "null"]},
    "notes": STR_LIST,
}
COMMON = tuple(COMMON_PROPERTIES)


def view_keys(view: registry.View) -> tuple[str, ...]:
    """The required keys ``view`` adds to the common ones."""
    return tuple(view.ref("schema")()["required"]) if view.schema is not None else ()


def schema() -> dict[str, Any]:
    """The schema of the document of ``--view all``: the common keys, then every view's, in the
    registry's order (a key two views share, such as ``critical_difference``, once)."""
    required = list(COMMON)
    properties = dict(COMMON_PROPERTIES)
    for view in registry.views():
        if view.schema is None:
            continue
        part = view.ref("schema")()
        required += [k for k in part["required"] if k not in required]
        properties.update(part["properties"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "rankboard report",
        "type": "object",
        "required": required,
        "properties": properties,
    }


def __getattr__(name: str) -> Any:
    if name == "SCHEMA":  # (as of the registry now: a view registered later is in it)
        return schema()
    raise AttributeError(name)
