"""The pairs view's key of the JSON report: every pair's APVs, the two-sample procedure's table and
every pair's effect sizes."""

from __future__ import annotations

from typing import Any

from tui.formats.json import records, row_schema
from tui.model import PROCEDURES, ROBUSTNESS_SCHEMA, Analysis, robustness_json
from tui.registry import RenderOptions

PAIR_APVS = ("nemenyi", "holm", "shaffer", "bergmann")
TWO_SAMPLE_NUMBERS = ("statistic", "p", "apv")
EFFECT_NUMBERS = ("a12", "delta", "hl_estimate", "hl_low", "hl_high", "hl_confidence", "mann_whitney_p")


SCHEMA: dict[str, Any] = {
    "required": ["pairs", "robustness"],
    "properties": {
        "robustness": ROBUSTNESS_SCHEMA,
        "pairs": {
            "type": ["object", "null"],
            "required": ["test", "bergmann", "rows", "procedure", "two_sample", "effects"],
            "properties": {
                "test": {"type": "string"},
                "bergmann": {"type": "string", "description": "'exact', or what the bergmann column holds and why"},
                "rows": {"type": "array", "items": row_schema(("z", "p", *PAIR_APVS), ("a", "b"))},
                "procedure": {"type": "string", "enum": list(PROCEDURES)},
                "two_sample": {
                    "type": ["object", "null"],
                    "description": "wilcoxon-holm and sign-holm: each pair's own Wilcoxon signed-ranks (statistic "
                    "T = min(R+, R-)) or sign test (statistic: wins of b) over the data sets, p two-sided, apv "
                    "Holm-adjusted (Benavoli, Corani & Mangili 2016); null for the rank procedures",
                    "required": ["test", "method", "option", "n", "rows"],
                    "properties": {
                        "test": {"type": "string", "enum": ["wilcoxon", "sign"]},
                        "method": {"type": "string"},
                        "option": {"type": "string"},
                        "n": {"type": "integer"},
                        "rows": {"type": "array", "items": row_schema(TWO_SAMPLE_NUMBERS, ("a", "b", "better"))},
                    },
                },
                "effects": {
                    "type": ["array", "null"],
                    "description": "every pair's effect sizes of a over b across the data sets: A12 (Vargha & "
                    "Delaney 2000), Cliff's delta (Romano et al. 2006) with their magnitudes, the Hodges-Lehmann "
                    "estimate of the median paired difference a - b with its 95% interval (hl_low, hl_high) and the "
                    "level that interval attains (hl_confidence: below 0.95 only where 95% is not attainable, N <= 5 "
                    "data sets, e.g. 0.875 at N = 4), Mann-Whitney's p",
                    "items": row_schema(EFFECT_NUMBERS, ("a", "b", "a12_magnitude", "delta_magnitude")),
                },
            },
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON schema of this view"s keys (:mod:`tui.registry`)."""
    return SCHEMA


def two_sample_dict(table: Any, procedure: str) -> dict[str, Any]:
    """The two-sample procedure's table (``stats.pairwise_wilcoxon``): its APVs as ``apv``."""
    rows = table.table.rename(columns={procedure: "apv"})[["a", "b", "better", *TWO_SAMPLE_NUMBERS]]
    return {
        "test": table.test,
        "method": table.method,
        "option": table.option,
        "n": int(table.n),
        "rows": records(rows, ("a", "b", "better")),
    }


def render(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    p, sel = analysis.pairs, analysis.selection
    if p is None:
        return {"pairs": None, "robustness": None}
    e = analysis.effects
    return {
        "pairs": {
            "test": sel.test,
            "bergmann": p.table.bergmann,
            "rows": records(p.table[["a", "b", "z", "p", *PAIR_APVS]], ("a", "b")),
            "procedure": p.procedure,
            "two_sample": None if p.two_sample is None else two_sample_dict(p.two_sample, p.procedure),
            "effects": None if e is None else records(e, ("a", "b", "a12_magnitude", "delta_magnitude")),
        },
        "robustness": robustness_json(analysis.robustness),  # (the tests and CD views' key too)
    }
