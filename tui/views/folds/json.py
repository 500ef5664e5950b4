"""The folds view's key of the JSON report: each learner against the control, per data set and across
data sets."""

from __future__ import annotations

from typing import Any

from tui.formats.json import STR_LIST, num, records, row_schema
from tui.model import Analysis
from tui.registry import RenderOptions

BAYES = ("p_better", "p_equivalent", "p_worse")
FOLD_NUMBERS = ("mean_difference", "statistic", "pvalue", *BAYES)


SCHEMA: dict[str, Any] = {
    "required": ["folds"],
    "properties": {
        "folds": {
            "type": ["object", "null"],
            "required": ["control", "rope", "alpha", "sentences", "totals", "rows", "notes"],
            "properties": {
                "control": {"type": "string"},
                "rope": {"type": "number"},
                "alpha": {"type": "number"},
                "sentences": STR_LIST,
                "totals": {
                    "type": "array",
                    "items": {
                        **row_schema(BAYES, ("learner",)),
                        "properties": {
                            **row_schema(BAYES, ("learner",))["properties"],
                            **{k: {"type": "integer"} for k in ("wins", "ties", "losses", "datasets")},
                        },
                    },
                },
                "rows": {
                    "type": "array",
                    "items": {
                        **row_schema(FOLD_NUMBERS, ("dataset", "learner", "mark")),
                        "properties": {
                            **row_schema(FOLD_NUMBERS, ("dataset", "learner", "mark"))["properties"],
                            **{k: {"type": "integer"} for k in ("runs", "folds")},
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
    f = analysis.folds
    if f is None:
        return {"folds": None}
    return {
        "folds": {
            "control": f.control,
            "rope": num(f.rope),
            "alpha": num(f.alpha),
            "sentences": list(f.sentences),
            "totals": records(
                f.totals.reset_index()[["learner", "wins", "ties", "losses", "datasets", *BAYES]],
                ("learner",),
            ),
            "rows": records(
                f.table.reset_index()[["dataset", "learner", "mark", "runs", "folds", *FOLD_NUMBERS]],
                ("dataset", "learner", "mark"),
            ),
            "notes": list(f.notes),
        }
    }
