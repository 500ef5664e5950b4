"""The CD diagram's keys of the JSON report: Nemenyi's CD, the average ranks and the cliques of the
procedure's bars."""

from __future__ import annotations

from typing import Any

from tui.formats.json import NUM, STR_LIST, num
from tui.model import PROCEDURES, ROBUSTNESS_SCHEMA, Analysis, robustness_json
from tui.registry import RenderOptions

SCHEMA: dict[str, Any] = {
    "required": ["critical_difference", "cd", "robustness"],
    "properties": {
        "robustness": ROBUSTNESS_SCHEMA,
        "critical_difference": NUM,
        "cd": {
            "type": ["object", "null"],
            "required": ["ranks", "procedure", "basis", "cliques"],
            "properties": {
                "ranks": {"type": "object", "additionalProperties": {"type": "number"}},
                "procedure": {"type": "string", "enum": list(PROCEDURES)},
                "basis": {"type": "string"},
                "cliques": {"type": "array", "items": STR_LIST},
            },
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON schema of this view"s keys (:mod:`tui.registry`)."""
    return SCHEMA


def render(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    c = analysis.cd
    if c is None:
        return {"critical_difference": None, "cd": None, "robustness": None}
    return {
        "critical_difference": num(c.cd),
        "cd": {
            "ranks": {str(k): num(v) for k, v in c.ranks.items()},
            "procedure": c.procedure,
            "basis": c.basis + (f"; {c.replaced}" if c.replaced else ""),
            "cliques": [list(x) for x in c.cliques],
        },
        "robustness": robustness_json(analysis.robustness),  # (the tests and pairs views' key too)
    }
