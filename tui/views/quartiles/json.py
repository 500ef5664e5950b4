"""The quartiles view's keys of the JSON report: every chart's rows, the Scott-Knott variant of
their ranks and, for charts of deltas, the control."""

from __future__ import annotations

from typing import Any

from tui.formats.json import num, row_schema
from tui.model import GROUPINGS, Analysis
from tui.registry import RenderOptions

SCHEMA: dict[str, Any] = {
    "required": ["quartiles", "scott_knott"],
    "properties": {
        "quartiles": {
            "type": ["array", "null"],
            "items": {
                **row_schema(("min", "q1", "median", "q3", "max"), ("scope", "learner")),
                "properties": {
                    **row_schema(("min", "q1", "median", "q3", "max"), ("scope", "learner"))["properties"],
                    "n": {"type": "integer"},
                    "rank": {
                        "type": ["integer", "null"],
                        "description": "the learner's Scott-Knott group in the scope (1 = best; the variant in "
                        "scott_knott); absent from the charts of deltas, null where it could not be computed. "
                        "The overall scope pools every fold of every data set: its groups compare the pooled "
                        "values, not the per-data-set ranks the tests (and the verdict) use",
                    },
                },
            },
        },
        "scott_knott": {
            "type": ["string", "null"],
            "enum": [*GROUPINGS, None],
            "description": "the Scott-Knott variant of the quartile rows' rank: esd (ScottKnott-ESD 2.x, "
            "Tantithamthavorn et al., TSE 2019), esd-v1 (ScottKnott-ESD 1.x, TSE 2017), np (ScottKnott-ESD "
            "3.0's non-parametric form: medians, Kruskal-Wallis, Cliff's delta) or a12 (Menzies' group); "
            "null for the charts of deltas",
        },
        "deltas": {
            "type": ["string", "null"],
            "description": "with --deltas: the control the quartile rows are per-fold differences against "
            "(positive: better; the rows then also hold mean and sd)",
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON schema of this view"s keys (:mod:`tui.registry`)."""
    return SCHEMA


def render(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    """``quartiles`` (a row per chart and learner), ``scott_knott`` and, for deltas, ``deltas``."""
    q = analysis.quartiles
    if q is None:
        return {"quartiles": None, "scott_knott": None}
    rows = [
        {
            "scope": x.scope,
            "learner": x.learner,
            "n": int(x.n),
            **{k: num(getattr(x, k)) for k in ("min", "q1", "median", "q3", "max")},
            **({k: num(getattr(x, k)) for k in ("mean", "sd")} if q.deltas is not None else {}),
            **({"rank": q.groups.get(x.scope, {}).get(x.learner)} if q.groups is not None else {}),
        }
        for x in q.rows
    ]
    out: dict[str, Any] = {"quartiles": rows, "scott_knott": q.grouping}
    if q.deltas is not None:  # only when asked for: earlier documents stay as they were
        out["deltas"] = q.deltas
    return out
