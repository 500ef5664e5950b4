"""The pairs view's key of the JSON report: every pair's APVs, the two-sample procedure's table and
every pair's effect sizes."""

from __future__ import annotations

from typing import Any

from tui.formats.json import NUM, records, row_schema
from tui.model import PROCEDURES, ROBUSTNESS_SCHEMA, Analysis, robustness_json
from tui.registry import RenderOptions
from tui.views.pairs.shared import tukey_columns

PAIR_APVS = ("nemenyi", "holm", "shaffer", "bergmann")
TWO_SAMPLE_NUMBERS = ("statistic", "p", "apv")
EFFECT_NUMBERS = ("a12", "delta", "hl_estimate", "hl_low", "hl_high", "hl_confidence", "mann_whitney_p")


def _pair_row() -> dict[str, Any]:
    """A row of ``pairs.rows``: z, p and the APVs, and under Nemenyi only (absent otherwise: the other
    procedures' rows are as they were) Tukey's p and the CD's decision."""
    row = row_schema(("z", "p", *PAIR_APVS), ("a", "b"))
    row["properties"]["nemenyi"] = {
        **NUM,
        "description": "Garcia & Herrera's (2008) Nemenyi APV: Bonferroni's min(1, m p), m = k(k-1)/2",
    }
    row["properties"]["nemenyi_tukey"] = {
        **NUM,
        "description": "under Nemenyi only: Nemenyi's p as Demsar (2006) tests it, Tukey's studentized range "
        "on Friedman's average ranks (stats.nemenyi_tukey_p); <= alpha where the ranks are at least "
        "critical_difference apart",
    }
    row["properties"]["nemenyi_tukey_rejected"] = {
        "type": "boolean",
        "description": "under Nemenyi only: the ranks are at least critical_difference apart, the decision of "
        "the CD diagram, the verdict and the fragility (equal to nemenyi_tukey <= alpha but within rounding)",
    }
    return row


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
                "rows": {"type": "array", "items": _pair_row()},
                "procedure": {"type": "string", "enum": list(PROCEDURES)},
                "critical_difference": {
                    **NUM,
                    "description": "under Nemenyi only: Demsar's (2006) critical difference of the average ranks "
                    "at the selection's alpha, behind nemenyi_tukey_rejected",
                },
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
    rows = records(p.table[["a", "b", "z", "p", *PAIR_APVS]], ("a", "b"))
    pairs: dict[str, Any] = {
        "test": sel.test,
        "bergmann": p.table.bergmann,
        "rows": rows,
        "procedure": p.procedure,
        "two_sample": None if p.two_sample is None else two_sample_dict(p.two_sample, p.procedure),
        "effects": None if e is None else records(e, ("a", "b", "a12_magnitude", "delta_magnitude")),
    }
    tukey = tukey_columns(p)
    if tukey is not None:  # under Nemenyi: Tukey's p and the CD's decision in each row
        for row, value, on in zip(rows, records(tukey[["nemenyi_tukey"]], ()), tukey["nemenyi_tukey_rejected"]):
            row.update(value, nemenyi_tukey_rejected=bool(on))
        pairs["critical_difference"] = p.cd
    # (robustness: the tests and CD views' key too)
    return {"pairs": pairs, "robustness": robustness_json(analysis.robustness)}
