"""The ranks view's keys of the JSON report: the average ranks, the table of medians and ranks, the
compact letters."""

from __future__ import annotations

from typing import Any

import pandas as pd

from tui.formats.json import NUM, num
from tui.model import PROCEDURES, Analysis
from tui.registry import RenderOptions

SCHEMA: dict[str, Any] = {
    "required": ["ranks", "rank_table", "letters"],
    "properties": {
        "ranks": {"type": ["object", "null"], "additionalProperties": {"type": "number"}},
        "rank_table": {
            "type": ["array", "null"],
            "items": {
                "type": "object",
                "required": ["dataset", "median", "rank"],
                "properties": {
                    "dataset": {"type": "string"},
                    "median": {"type": "object", "additionalProperties": NUM},
                    "rank": {"type": "object", "additionalProperties": {"type": "number"}},
                },
            },
        },
        "letters": {
            "type": ["object", "null"],
            "description": "compact letter display (Piepho 2004) of the pairs procedure's rejections: learners "
            "sharing a letter are not significantly different; 'a' goes to the best average rank",
            "required": ["procedure", "alpha", "basis", "letters"],
            "properties": {
                "procedure": {"type": "string", "enum": list(PROCEDURES)},
                "alpha": {"type": "number"},
                "basis": {"type": "string"},
                "letters": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON schema of this view"s keys (:mod:`tui.registry`)."""
    return SCHEMA


def render(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    r, lt = analysis.ranks, analysis.letters
    return {
        "ranks": None if r is None else {str(k): num(v) for k, v in r.average.items()},
        "rank_table": None if r is None else _rank_table(r.medians, r.ranks),
        "letters": None
        if lt is None
        else {"procedure": lt.procedure, "alpha": num(lt.alpha), "basis": lt.basis, "letters": dict(lt.letters)},
    }


def _rank_table(medians: pd.DataFrame, ranks: pd.DataFrame) -> list[dict[str, Any]]:
    """A record per data set: its medians and ranks by learner (``.loc[data set]`` of each table),
    read row by row from two arrays when the tables share their labels (a ``.loc`` per data set
    took long for 100,000 data sets)."""
    if not (ranks.index.equals(medians.index) and ranks.columns.equals(medians.columns)):
        return [
            {
                "dataset": str(d),
                "median": {str(k): num(v) for k, v in medians.loc[d].items()},
                "rank": {str(k): num(v) for k, v in ranks.loc[d].items()},
            }
            for d in medians.index
        ]
    names = [str(k) for k in medians.columns]
    return [
        {"dataset": str(d), "median": dict(zip(names, map(num, m))), "rank": dict(zip(names, map(num, k)))}
        for d, m, k in zip(medians.index, medians.to_numpy().tolist(), ranks.to_numpy().tolist())
    ]
