"""The JSON Schema (draft 2020-12 subset) of ``rankboard report --format json`` for ``view="all"``,
and which keys each view adds to the common ones (:mod:`tui.render._json` writes the document)."""

from __future__ import annotations

from typing import Any

from tui.model import GROUPINGS, PROCEDURES

_NUM = {"type": ["number", "null"]}
_STR_LIST = {"type": "array", "items": {"type": "string"}}
_TEST = {
    "type": "object",
    "required": ["statistic", "pvalue", "df"],
    "properties": {"statistic": _NUM, "pvalue": _NUM, "df": {"type": ["array", "number"]}},
}
APVS = ("bonferroni", "holm", "hochberg", "hommel", "holland", "rom", "finner", "li")
PAIR_APVS = ("nemenyi", "holm", "shaffer", "bergmann")
TWO_SAMPLE_NUMBERS = ("statistic", "p", "apv")
EFFECT_NUMBERS = ("a12", "delta", "hl_estimate", "hl_low", "hl_high", "hl_confidence", "mann_whitney_p")
BAYES = ("p_better", "p_equivalent", "p_worse")
FOLD_NUMBERS = ("mean_difference", "statistic", "pvalue", *BAYES)
CURVE_NUMBERS = ("n", "mean", "sd", "min", "q1", "median", "q3", "max")


def _row_schema(keys: tuple[str, ...], strings: tuple[str, ...]) -> dict[str, Any]:
    props: dict[str, Any] = {k: {"type": "string"} for k in strings}
    props.update({k: _NUM for k in keys})
    return {"type": "object", "required": [*strings, *keys], "properties": props}


SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "rankboard report",
    "type": "object",
    "required": [
        "criterion",
        "higher_is_better",
        "alpha",
        "test",
        "datasets",
        "learners",
        "excluded",
        "problem",
        "notes",
        "quartiles",
        "scott_knott",
        "ranks",
        "rank_table",
        "letters",
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
        "pairs",
        "cd",
        "folds",
        "curves",
    ],
    "properties": {
        "criterion": {"type": "string"},
        "higher_is_better": {"type": "boolean"},
        "alpha": {"type": "number"},
        "test": {"type": "string"},
        "datasets": _STR_LIST,
        "learners": _STR_LIST,
        "excluded": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["dataset", "reason"],
                "properties": {"dataset": {"type": "string"}, "reason": {"type": "string"}},
            },
        },
        "problem": {"type": ["string", "null"]},
        "notes": _STR_LIST,
        "quartiles": {
            "type": ["array", "null"],
            "items": {
                **_row_schema(("min", "q1", "median", "q3", "max"), ("scope", "learner")),
                "properties": {
                    **_row_schema(("min", "q1", "median", "q3", "max"), ("scope", "learner"))["properties"],
                    "n": {"type": "integer"},
                    "rank": {
                        "type": ["integer", "null"],
                        "description": "the learner's Scott-Knott group in the scope (1 = best; the variant in "
                        "scott_knott); absent from the charts of deltas, null where it could not be computed",
                    },
                },
            },
        },
        "ranks": {"type": ["object", "null"], "additionalProperties": {"type": "number"}},
        "rank_table": {
            "type": ["array", "null"],
            "items": {
                "type": "object",
                "required": ["dataset", "median", "rank"],
                "properties": {
                    "dataset": {"type": "string"},
                    "median": {"type": "object", "additionalProperties": _NUM},
                    "rank": {"type": "object", "additionalProperties": {"type": "number"}},
                },
            },
        },
        "friedman": {"type": ["object", "null"], **{k: v for k, v in _TEST.items() if k != "type"}},
        "iman_davenport": {"type": ["object", "null"], **{k: v for k, v in _TEST.items() if k != "type"}},
        "aligned": {"type": ["object", "null"], **{k: v for k, v in _TEST.items() if k != "type"}},
        "quade": {"type": ["object", "null"], **{k: v for k, v in _TEST.items() if k != "type"}},
        "friedman_tie_corrected": {
            "type": ["object", "null"],
            **{k: v for k, v in _TEST.items() if k != "type"},
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
                "fwer_bounds": {"type": "array", "items": _NUM},
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
        "critical_difference": _NUM,
        "verdict": {
            "type": ["object", "null"],
            "required": ["outcome", "winners", "losers", "procedure", "message"],
            "properties": {
                "outcome": {"type": "string", "enum": ["no difference", "different"]},
                "winners": _STR_LIST,
                "losers": _STR_LIST,
                "procedure": {"type": "string", "enum": list(PROCEDURES)},
                "message": {"type": "string"},
            },
        },
        "control": {
            "type": ["object", "null"],
            "required": ["name", "test", "rows"],
            "properties": {
                "name": {"type": "string"},
                "test": {"type": "string"},
                "rows": {"type": "array", "items": _row_schema(("z", "p", *APVS), ("learner",))},
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
        "pairs": {
            "type": ["object", "null"],
            "required": ["test", "bergmann", "rows", "procedure", "two_sample", "effects"],
            "properties": {
                "test": {"type": "string"},
                "bergmann": {"type": "string", "description": "'exact', or what the bergmann column holds and why"},
                "rows": {"type": "array", "items": _row_schema(("z", "p", *PAIR_APVS), ("a", "b"))},
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
                        "rows": {"type": "array", "items": _row_schema(TWO_SAMPLE_NUMBERS, ("a", "b", "better"))},
                    },
                },
                "effects": {
                    "type": ["array", "null"],
                    "description": "every pair's effect sizes of a over b across the data sets: A12 (Vargha & "
                    "Delaney 2000), Cliff's delta (Romano et al. 2006) with their magnitudes, the Hodges-Lehmann "
                    "estimate of the median paired difference a - b with its 95% interval (hl_low, hl_high) and the "
                    "level that interval attains (hl_confidence: below 0.95 only where 95% is not attainable, N <= 5 "
                    "data sets, e.g. 0.875 at N = 4), Mann-Whitney's p",
                    "items": _row_schema(EFFECT_NUMBERS, ("a", "b", "a12_magnitude", "delta_magnitude")),
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
        "folds": {
            "type": ["object", "null"],
            "required": ["control", "rope", "alpha", "sentences", "totals", "rows", "notes"],
            "properties": {
                "control": {"type": "string"},
                "rope": {"type": "number"},
                "alpha": {"type": "number"},
                "sentences": _STR_LIST,
                "totals": {
                    "type": "array",
                    "items": {
                        **_row_schema(BAYES, ("learner",)),
                        "properties": {
                            **_row_schema(BAYES, ("learner",))["properties"],
                            **{k: {"type": "integer"} for k in ("wins", "ties", "losses", "datasets")},
                        },
                    },
                },
                "rows": {
                    "type": "array",
                    "items": {
                        **_row_schema(FOLD_NUMBERS, ("dataset", "learner", "mark")),
                        "properties": {
                            **_row_schema(FOLD_NUMBERS, ("dataset", "learner", "mark"))["properties"],
                            **{k: {"type": "integer"} for k in ("runs", "folds")},
                        },
                    },
                },
                "notes": _STR_LIST,
            },
        },
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
                        **_row_schema(CURVE_NUMBERS, ("dataset", "learner")),
                        "properties": {
                            **_row_schema(CURVE_NUMBERS, ("dataset", "learner"))["properties"],
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
                "notes": _STR_LIST,
            },
        },
        "cd": {
            "type": ["object", "null"],
            "required": ["ranks", "procedure", "basis", "cliques"],
            "properties": {
                "ranks": {"type": "object", "additionalProperties": {"type": "number"}},
                "procedure": {"type": "string", "enum": list(PROCEDURES)},
                "basis": {"type": "string"},
                "cliques": {"type": "array", "items": _STR_LIST},
            },
        },
    },
}

#: The keys each view adds to the common ones.
VIEW_KEYS = {
    "quartiles": ("quartiles", "scott_knott", "deltas"),
    "ranks": ("ranks", "rank_table", "letters"),
    "tests": (
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
    ),
    "pairs": ("pairs",),
    "cd": ("critical_difference", "cd"),
    "folds": ("folds",),
    "curves": ("curves",),
}
COMMON = ("criterion", "higher_is_better", "alpha", "test", "datasets", "learners", "excluded", "problem", "notes")
