"""The tests view's keys of the JSON report: the four omnibus tests, the tie-corrected Friedman test,
the multiple sign test, the win/loss/tie counts, the CD, the verdict and the control table; and
Skillings-Mack's test when selected data sets miss results (``skillings_mack``, only then; the only
test, the others null, when fewer than 2 data sets are complete)."""

from __future__ import annotations

from typing import Any

from tui.formats.json import NUM, STR_LIST, TEST, df_value, num, records, row_schema
from tui.model import PROCEDURES, ROBUSTNESS_SCHEMA, Analysis, TestsView, robustness_json
from tui.registry import RenderOptions
from tui.views.tests.extra import extra_json

#: The control table's adjusted p-values (``stats.control_test``).
APVS = ("bonferroni", "holm", "hochberg", "hommel", "holland", "rom", "finner", "li")


SCHEMA: dict[str, Any] = {
    "required": [
        "friedman",
        "iman_davenport",
        "aligned",
        "quade",
        "friedman_tie_corrected",
        "multiple_sign",
        "win_loss_tie",
        "critical_difference",
        "verdict",
        "control",
        "robustness",
    ],
    "properties": {
        "friedman": {"type": ["object", "null"], **{k: v for k, v in TEST.items() if k != "type"}},
        "iman_davenport": {"type": ["object", "null"], **{k: v for k, v in TEST.items() if k != "type"}},
        "aligned": {"type": ["object", "null"], **{k: v for k, v in TEST.items() if k != "type"}},
        "quade": {"type": ["object", "null"], **{k: v for k, v in TEST.items() if k != "type"}},
        "friedman_tie_corrected": {
            "type": ["object", "null"],
            **{k: v for k, v in TEST.items() if k != "type"},
            "description": "Friedman's chi2 with the tie correction (scipy's friedmanchisquare, R's "
            "friedman.test); 'friedman' is Demsar's (2006) uncorrected form",
        },
        "multiple_sign": {
            "type": ["object", "null"],
            "description": "the multiple sign test (Steel 1959; Garcia et al. 2010) of every learner against the "
            "control",
            "required": ["control", "alternative", "critical_value", "exact", "fwer_bounds", "rows"],
            "properties": {
                "control": {"type": "string"},
                "alternative": {"type": "string", "enum": ["worse", "better", "two-sided"]},
                "critical_value": {"type": ["integer", "null"]},
                "exact": {"type": "boolean"},
                "fwer_bounds": {"type": "array", "items": NUM},
                "rows": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["learner", "plus", "minus", "ties", "statistic", "rejected"],
                        "properties": {
                            "learner": {"type": "string"},
                            **{k: {"type": "integer"} for k in ("plus", "minus", "ties", "statistic")},
                            "rejected": {"type": "boolean"},
                        },
                    },
                },
            },
        },
        "win_loss_tie": {
            "type": ["array", "null"],
            "description": "the win/loss/tie counts (Menzies' lecture notes) of paired t-tests across data sets, "
            "by win - loss",
            "items": {
                "type": "object",
                "required": ["learner", "win", "loss", "tie", "win_minus_loss"],
                "properties": {
                    "learner": {"type": "string"},
                    **{k: {"type": "integer"} for k in ("win", "loss", "tie", "win_minus_loss")},
                },
            },
        },
        "skillings_mack": {
            "type": ["object", "null"],
            "description": "Skillings & Mack's (1981) test, present only when selected data sets miss some "
            "learners' results: on the complete data sets and those with at least two results; every other "
            "test of this view uses the complete ones ('complete'), and the verdict says which test it used. "
            "With fewer than 2 complete data sets ('complete' 0 or 1) it is the only test: the other tests, "
            "'critical_difference' and 'control' are null and the verdict is its decision ('procedure' null)",
            "required": ["statistic", "pvalue", "df", "datasets", "complete", "kept", "dropped", "missing"],
            "properties": {
                "statistic": NUM,
                "pvalue": NUM,
                "df": {"type": "integer", "description": "the rank of its covariance matrix (k - 1 when connected)"},
                "datasets": {"type": "integer", "description": "the data sets Skillings-Mack uses"},
                "complete": {"type": "integer", "description": "the complete data sets (Friedman's)"},
                "kept": {**STR_LIST, "description": "the data sets with missing results it uses too"},
                "dropped": {**STR_LIST, "description": "those it leaves out: fewer than two results"},
                "missing": {"type": "integer", "description": "the results missing in the data sets it uses"},
            },
        },
        "critical_difference": NUM,
        "robustness": ROBUSTNESS_SCHEMA,
        "verdict": {
            "type": ["object", "null"],
            "required": ["outcome", "winners", "losers", "procedure", "message"],
            "properties": {
                "outcome": {"type": "string", "enum": ["no difference", "different"]},
                "winners": STR_LIST,
                "losers": STR_LIST,
                "procedure": {
                    "type": ["string", "null"],
                    "enum": [*PROCEDURES, None],
                    "description": "the post-hoc procedure of the verdict; null when Skillings-Mack's test is the "
                    "only one (fewer than 2 complete data sets: no procedure, no winners or losers)",
                },
                "message": {"type": "string"},
            },
        },
        "control": {
            "type": ["object", "null"],
            "required": ["name", "test", "rows"],
            "properties": {
                "name": {"type": "string"},
                "test": {"type": "string"},
                "rows": {"type": "array", "items": row_schema(("z", "p", *APVS), ("learner",))},
            },
        },
    },
}


def schema() -> dict[str, Any]:
    """The JSON schema of this view"s keys (:mod:`tui.registry`)."""
    return SCHEMA


def skillings_mack_json(t: TestsView) -> dict[str, Any]:
    """``skillings_mack``: the test, the data sets it uses and those it does not."""
    inc = t.incomplete
    assert inc is not None
    r = inc.result
    return {
        "statistic": num(r.statistic),
        "pvalue": num(r.pvalue),
        "df": r.df,
        "datasets": r.n,
        "complete": inc.complete,
        "kept": list(inc.kept),
        "dropped": list(inc.dropped),
        "missing": r.missing,
    }


def render(analysis: Analysis, options: RenderOptions) -> dict[str, Any]:
    t, sel = analysis.tests, analysis.selection
    alone = t is not None and t.skillings_mack_only  # fewer than 2 complete data sets: Skillings-Mack alone
    doc: dict[str, Any] = {}
    for name in ("friedman", "iman_davenport", "aligned", "quade"):
        if t is None or alone:
            doc[name] = None
        else:
            row = t.omnibus.loc[name]
            doc[name] = {"statistic": num(row["statistic"]), "pvalue": num(row["pvalue"]), "df": df_value(row["df"])}
    doc.update(extra_json(t, num))  # issue 16: tie-corrected Friedman, multiple sign test, win/loss/tie
    if t is not None and t.incomplete is not None:  # issue 31: only when data sets miss results
        doc["skillings_mack"] = skillings_mack_json(t)
    doc["critical_difference"] = None if t is None or alone else num(t.cd)
    doc["verdict"] = (
        None
        if t is None
        else {
            "outcome": t.outcome,
            "winners": list(t.winners),
            "losers": list(t.losers),
            "procedure": None if alone else sel.procedure,
            "message": t.verdict,
        }
    )
    doc["robustness"] = robustness_json(analysis.robustness)  # (the pairs and CD views' key too)
    doc["control"] = (
        None
        if t is None or alone
        else {
            "name": t.control,
            "test": sel.test,
            "rows": records(t.control_table.reset_index(names="learner"), ("learner",)),
        }
    )
    return doc
