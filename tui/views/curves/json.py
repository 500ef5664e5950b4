"""The learning curves' key of the JSON report: per data set, learner and training size the
criterion's quartiles, and each learner's plateau."""

from __future__ import annotations

from typing import Any

from tui.formats.json import STR_LIST, num, row_schema
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.curves.shared import CURVE_NUMBERS


def curves_dict(view: Any, num: Any) -> dict[str, Any]:
    """The JSON value of the view (``num`` makes JSON numbers)."""
    rows = [
        {
            "dataset": str(r.dataset),
            "learner": str(r.learner),
            "train": num(r.train),
            "plateau": bool(r.plateau),
            **{k: num(int(r.n) if k == "n" else getattr(r, k)) for k in CURVE_NUMBERS},
        }
        for r in view.rows.itertuples(index=False)
    ]
    plateaus = [
        {
            "dataset": str(p.dataset),
            "learner": str(p.learner),
            "size": num(p.size),
            "reached": bool(p.reached),
            "sizes": int(p.sizes),
        }
        for p in view.plateaus.itertuples(index=False)
    ]
    return {
        "definition": view.definition,
        "message": view.message,
        "rows": rows,
        "plateaus": plateaus,
        "notes": list(view.notes),
    }


SCHEMA: dict[str, Any] = {
    "required": ["curves"],
    "properties": {
        "curves": {
            "type": ["object", "null"],
            "description": "the learning curves of a sequence study as in Menzies' lecture notes "
            "(stats.run_sequence's 'train' lines): "
            "per data set, learner and training size the criterion's quartiles, and each learner's plateau "
            "(stats.plateau); message says why there are none (a log without a sequence study)",
            "required": ["definition", "message", "rows", "plateaus", "notes"],
            "properties": {
                "definition": {"type": "string"},
                "message": {"type": ["string", "null"]},
                "rows": {
                    "type": "array",
                    "items": {
                        **row_schema(CURVE_NUMBERS, ("dataset", "learner")),
                        "properties": {
                            **row_schema(CURVE_NUMBERS, ("dataset", "learner"))["properties"],
                            "train": {"type": "number"},
                            "n": {"type": "integer"},
                            "plateau": {"type": "boolean"},
                        },
                    },
                },
                "plateaus": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["dataset", "learner", "size", "reached", "sizes"],
                        "properties": {
                            "dataset": {"type": "string"},
                            "learner": {"type": "string"},
                            "size": {"type": "number"},
                            "reached": {"type": "boolean"},
                            "sizes": {"type": "integer"},
                        },
                    },
                },
                "notes": STR_LIST,
            },
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON schema of this view"s keys (:mod:`tui.registry`)."""
    return SCHEMA


def render(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    g = analysis.curves
    return {"curves": None if g is None else curves_dict(g, num)}
